"""Class tables and students' names go after 30 days without anyone running a command:
opening a class table deletes the old ones (a failure there never stops the teacher),
and the classroom launcher (snapsite/serve.py) runs purge_classes before serving."""

from __future__ import annotations

import sys
from datetime import timedelta

import pytest
from django.utils import timezone

from games import tables
from games.models import Seat, Table
from snapsite import serve

CLASS = {
    "class_name": "4B",
    "seats": "4",
    "level": "steady",
    "tie_window_ms": "150",
    "turn_limit": "40",
    "pace": "own",
    "turn_timer": "0",
}


def class_table(name: str, days_old: int) -> str:
    code = tables.table_open_class(session_key=f"k-{name}", class_name=name, players=3)
    Seat.objects.filter(table__code=code, number=0).update(display_name=f"{name} student")
    Table.objects.filter(code=code).update(created=timezone.now() - timedelta(days=days_old))
    return code


def open_class(client) -> str:
    response = client.post("/en/teach/class/", CLASS)
    assert response.status_code == 302, response.content.decode()[:800]
    return response["Location"].rstrip("/").rsplit("/", 1)[1]


@pytest.mark.django_db
def test_opening_a_class_table_deletes_the_class_tables_older_than_30_days(client):
    old = class_table("Old", 31)
    recent = class_table("Recent", 29)
    new = open_class(client)
    assert set(Table.objects.values_list("code", flat=True)) == {recent, new}
    assert not Seat.objects.filter(display_name="Old student").exists()
    assert Seat.objects.filter(display_name="Recent student").exists()
    assert old != new


@pytest.mark.django_db
def test_a_failing_purge_does_not_stop_the_teacher(client, monkeypatch):
    def broken(**_kwargs):
        Table.objects.raw("SELECT * FROM no_such_table")[0]  # a database error

    monkeypatch.setattr(tables, "classes_purge", broken)
    old = class_table("Old", 31)
    new = open_class(client)
    assert set(Table.objects.values_list("code", flat=True)) == {old, new}


def test_the_launcher_purges_with_the_servers_environment_before_serving(
    monkeypatch, tmp_path, capsys
):
    calls = []
    monkeypatch.setattr(serve, "purge_old_classes", lambda env: calls.append(("purge", env)) or "")
    monkeypatch.setattr(serve, "collect_static", lambda env: calls.append(("collect", env)) or "")
    monkeypatch.setattr(serve.os, "execve", lambda path, args, env: calls.append(("serve", env)))
    serve.main(["--port", "8765", "--secret-file", str(tmp_path / "key")])
    assert sorted(what for what, _env in calls[:-1]) == ["collect", "purge"]
    assert calls[-1][0] == "serve"
    assert calls[0][1] == calls[-1][1]  # the same database, key and settings as the server
    assert serve.purge_command()[1:] == [str(serve.BASE_DIR / "manage.py"), "purge_classes"]


@pytest.mark.server
def test_the_launcher_tells_what_purge_classes_said(monkeypatch):
    script = "print('Deleted 2 class table(s) older than 30 days.')"
    monkeypatch.setattr(serve, "purge_command", lambda: [sys.executable, "-c", script])
    assert serve.purge_old_classes({}) == "Deleted 2 class table(s) older than 30 days."


@pytest.mark.server
@pytest.mark.parametrize(
    ("command", "told"),
    [
        (
            [sys.executable, "-c", "import sys; sys.exit('no such table: games_table')"],
            "games_table",
        ),
        (["/no/such/python"], "No such file"),
        ([sys.executable, "-c", "import time; time.sleep(5)"], "timed out"),
    ],
)
def test_the_launcher_starts_anyway_when_the_purge_fails(monkeypatch, command, told):
    monkeypatch.setattr(serve, "purge_command", lambda: command)
    line = serve.purge_old_classes({}, timeout=1)
    assert line.startswith("Old class tables were not deleted this time")
    assert told in line
