"""`make run` as a classroom server (snapsite/serve.py): debug pages off, a secret
key made once and kept, the network address printed and allowed, the site's own
404 page. No test touches the network: interface lists are injected, and the
one real server listens on 127.0.0.1."""

import os
import re
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from django.conf import settings

from snapsite import serve

NETWORK = ["127.0.0.1", "169.254.3.4", "fe80::1", "fd00::2", "192.168.1.20", "10.0.0.5"]


@pytest.fixture(autouse=True)
def no_purge_of_a_real_database(monkeypatch):
    """serve.main() runs purge_classes first: not on the developer's database here
    (tests/teach/test_class_purge_by_itself.py tests it; a launched site runs it)."""
    monkeypatch.setattr(serve, "purge_old_classes", lambda env: "")
    # nor collectstatic into the developer's staticfiles/ (a launched site runs it)
    monkeypatch.setattr(serve, "collect_static", lambda env: "")


def network_env(**overrides):
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    base.pop("DJANGO_SETTINGS_MODULE", None)  # pytest's test settings, not the site's
    return {**base, **overrides}


def recipe(target: str) -> str:
    """The commands of a Makefile target."""
    lines = (settings.BASE_DIR / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        body.append(line)
    return "\n".join(body)


# --- the address students type -------------------------------------------------


def test_only_reachable_ipv4_addresses_count_once_each_in_order():
    candidates = [*NETWORK, "192.168.1.20", "0.0.0.0", "224.0.0.1", "not an address"]
    assert serve.usable_addresses(candidates) == ["192.168.1.20", "10.0.0.5"]


def test_serving_the_network_prints_the_first_network_address_for_the_tablets():
    addresses = serve.usable_addresses(NETWORK)
    text = serve.announcement("0.0.0.0", 8123, addresses, debug=False)
    assert "On this computer: http://127.0.0.1:8123/" in text
    assert "Students type on their tablets: http://192.168.1.20:8123/" in text
    assert "http://10.0.0.5:8123/" in text
    assert "debug" not in text.lower()


def test_serving_the_network_allows_its_addresses_and_this_computer():
    env = serve.serve_env(
        {}, host="0.0.0.0", port=8000, debug=False, secret_key="k", addresses=["192.168.1.20"]
    )
    assert env["ALLOWED_HOSTS"].split(",") == ["127.0.0.1", "localhost", "192.168.1.20"]


def test_the_callers_allowed_hosts_are_kept():
    env = serve.serve_env(
        {"ALLOWED_HOSTS": "snap.school.example"},
        host="0.0.0.0", port=8000, debug=False, secret_key="k", addresses=["10.0.0.5"],
    )  # fmt: skip
    assert env["ALLOWED_HOSTS"].split(",") == [
        "127.0.0.1",
        "localhost",
        "10.0.0.5",
        "snap.school.example",
    ]


def test_the_default_host_serves_this_computer_only():
    env = serve.serve_env(
        {}, host="127.0.0.1", port=8000, debug=False, secret_key="k", addresses=["10.0.0.5"]
    )
    assert env["ALLOWED_HOSTS"] == "127.0.0.1,localhost"
    text = serve.announcement("127.0.0.1", 8000, [], debug=False)
    assert text.splitlines()[0] == "Snap is running. On this computer: http://127.0.0.1:8000/"
    assert "Students" not in text


def test_no_network_address_says_so_instead_of_printing_a_wrong_one():
    text = serve.announcement("0.0.0.0", 8000, serve.usable_addresses(["127.0.0.1"]), False)
    assert "No network address found" in text
    assert "Students type" not in text


def test_the_command_finds_the_address_and_serves_on_all_interfaces(monkeypatch, tmp_path, capsys):
    """`python -m snapsite.serve --host 0.0.0.0`, as `make run HOST=0.0.0.0` calls it."""
    started = {}
    monkeypatch.setattr(serve, "local_addresses", lambda: serve.usable_addresses(NETWORK))
    monkeypatch.setattr(
        serve.os, "execve", lambda path, args, env: started.update(args=args, env=env)
    )
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("DEBUG", "1")
    serve.main(["--host", "0.0.0.0", "--port", "8123", "--secret-file", str(tmp_path / "key")])
    assert "Students type on their tablets: http://192.168.1.20:8123/" in capsys.readouterr().out
    assert started["args"][1:] == [
        "-m", "uvicorn", "snapsite.asgi:application", "--host", "0.0.0.0", "--port", "8123",
        "--ws", "websockets-sansio", "--no-proxy-headers", "--no-access-log",
    ]  # fmt: skip
    assert "192.168.1.20" in started["env"]["ALLOWED_HOSTS"].split(",")
    assert started["env"]["DEBUG"] == "0"
    assert started["env"]["SECRET_KEY"] == (tmp_path / "key").read_text().strip()


def test_the_default_host_looks_for_no_network_address(monkeypatch, tmp_path):
    def no_lookup():
        raise AssertionError("the default host needs no network address")

    monkeypatch.setattr(serve, "local_addresses", no_lookup)
    monkeypatch.setattr(serve.os, "execve", lambda path, args, env: None)
    serve.main(["--secret-file", str(tmp_path / "key")])


# --- debug off unless asked --------------------------------------------------------


def test_make_run_leaves_debug_to_the_launcher_and_make_dev_asks_for_it():
    run, dev = recipe("run"), recipe("dev")
    assert "snapsite.serve --host $(HOST) --port $(PORT)" in run
    assert "DEBUG" not in run and "--debug" not in run
    assert "snapsite.serve" in dev and "--debug" in dev


def test_make_run_serves_this_computer_only_by_default():
    makefile = (settings.BASE_DIR / "Makefile").read_text().splitlines()
    assert "HOST ?= 127.0.0.1" in makefile


def test_make_test_needs_no_secret_file():
    assert ".secret_key" not in recipe("test") and "snapsite.serve" not in recipe("test")


def test_debug_is_off_whatever_the_shell_says_unless_asked():
    shell = {"DEBUG": "1"}
    off = serve.serve_env(
        shell, host="127.0.0.1", port=8000, debug=False, secret_key="k", addresses=[]
    )
    on = serve.serve_env({}, host="127.0.0.1", port=8000, debug=True, secret_key="k", addresses=[])
    assert off["DEBUG"] == "0" and on["DEBUG"] == "1"


@pytest.mark.server
def test_the_launchers_environment_gives_plain_http_settings_without_debug(tmp_path):
    env = serve.serve_env(
        network_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"),
        host="0.0.0.0", port=8000, debug=False, secret_key="k" * 50, addresses=["10.0.0.5"],
    )  # fmt: skip
    code = (
        "from django.conf import settings as s; print(s.DEBUG, s.SECURE_SSL_REDIRECT, "
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, "
        "s.STORAGES['staticfiles']['BACKEND'], s.ALLOWED_HOSTS)"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split(maxsplit=6) == [
        "False", "False", "False", "False", "0",
        "whitenoise.storage.CompressedManifestStaticFilesStorage",
        "['127.0.0.1', 'localhost', '10.0.0.5']",
    ]  # fmt: skip


# --- the secret key ----------------------------------------------------------------


def test_the_secret_key_file_is_made_once_private_and_then_reused(tmp_path):
    path = tmp_path / ".secret_key"
    first = serve.load_or_create_secret_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 50
    assert serve.load_or_create_secret_key(path) == first
    assert path.read_text().strip() == first


def test_an_empty_key_file_gets_a_new_key_and_a_loose_one_is_made_private(tmp_path):
    path = tmp_path / ".secret_key"
    path.write_text("")
    key = serve.load_or_create_secret_key(path)
    assert key and path.read_text().strip() == key
    path.chmod(0o644)
    assert serve.load_or_create_secret_key(path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_secret_key_from_the_environment_makes_no_file(monkeypatch, tmp_path):
    started = {}
    monkeypatch.setattr(serve.os, "execve", lambda path, args, env: started.update(env=env))
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    serve.main(["--secret-file", str(tmp_path / "key")])
    assert started["env"]["SECRET_KEY"] == "from-the-environment"
    assert not (tmp_path / "key").exists()


def test_the_secret_key_file_is_ignored_by_git():
    assert ".secret_key" in (settings.BASE_DIR / ".gitignore").read_text().splitlines()


# --- a mistyped address ------------------------------------------------------------


def test_a_mistyped_address_shows_the_sites_own_404_page(client):
    assert not settings.DEBUG
    response = client.get("/en/nonexistent/")
    assert response.status_code == 404
    assert "404.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert '<html lang="en" dir="ltr">' in html
    assert "<h1>Page not found</h1>" in html
    assert 'href="/en/start/"' in html
    assert "URLconf" not in html and "urlpatterns" not in html


def test_the_404_page_is_in_the_addresss_language_and_direction(client):
    response = client.get("/he/no-such-page/")
    assert response.status_code == 404
    assert '<html lang="he" dir="rtl">' in response.content.decode()


def test_the_home_address_still_works_with_debug_off(client):
    response = client.get("/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == "/en/"


# --- the real server ---------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


@pytest.fixture
def launched_site(tmp_path):
    """`python -m snapsite.serve` (what `make run` calls) on 127.0.0.1, with no
    DEBUG or SECRET_KEY in its environment."""
    port = free_port()
    env = network_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", STATIC_ROOT=str(tmp_path / "static")
    )
    log = open(tmp_path / "serve.log", "w")
    command = [sys.executable, "-m", "snapsite.serve", "--port", str(port)]
    command += ["--secret-file", str(tmp_path / "key")]
    process = subprocess.Popen(
        command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # A busy machine (tests in parallel) starts it slowly: collectstatic runs first.
        deadline = time.monotonic() + 300
        while True:
            try:
                fetch(base + "/static/games/css/site.css")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((tmp_path / "serve.log").read_text()) from None
                time.sleep(0.1)
        yield base, tmp_path
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.mark.server
def test_the_launched_server_hides_debug_pages_and_serves_its_static_files(launched_site):
    base, workdir = launched_site
    status, _type, body = fetch(base + "/en/nonexistent/")
    assert status == 404
    assert b"<h1>Page not found</h1>" in body and b"URLconf" not in body
    assert fetch(base + "/static/games/css/site.css")[:2] == (200, 'text/css; charset="utf-8"')
    assert fetch(base + "/static/games/js/frames.js")[0] == 200
    assert fetch(base + "/static/games/fonts/NotoSans-Regular.ttf")[0] == 200
    assert stat.S_IMODE((workdir / "key").stat().st_mode) == 0o600
    log = (workdir / "serve.log").read_text()
    assert "On this computer: http://127.0.0.1:" in log
    assert "Static files: gathered under hashed names." in log
    assert "No directory at" not in log


@pytest.mark.server
def test_the_launched_server_gives_hashed_static_files_a_year_of_caching(launched_site):
    base, _workdir = launched_site
    status, _type, body = fetch(base + "/en/")
    assert status == 200
    hashed = re.search(r'href="(/static/games/css/site\.[0-9a-f]{12}\.css)"', body.decode())
    assert hashed, "the page links site.css under its hashed name"
    with urllib.request.urlopen(base + hashed.group(1), timeout=10) as response:
        cache = response.headers["Cache-Control"]
    assert "max-age=315360000" in cache and "immutable" in cache
    with urllib.request.urlopen(base + "/favicon.ico", timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "image/vnd.microsoft.icon"


# --- static files under hashed names -----------------------------------------------


def test_static_files_are_gathered_again_only_when_a_source_is_newer(tmp_path):
    source, root = tmp_path / "games-static", tmp_path / "static"
    (source / "css").mkdir(parents=True)
    (source / "css" / "site.css").write_text("body {}")
    assert not serve.static_is_current(root, [source])  # never gathered
    root.mkdir()
    manifest = root / "staticfiles.json"
    manifest.write_text("{}")
    os.utime(manifest, (time.time() + 10, time.time() + 10))
    assert serve.static_is_current(root, [source])
    os.utime(source / "css" / "site.css", (time.time() + 20, time.time() + 20))
    assert not serve.static_is_current(root, [source])


@pytest.mark.server
def test_a_failed_gathering_serves_the_apps_own_files_and_starts_anyway(monkeypatch, tmp_path):
    monkeypatch.undo()  # the real collect_static, with a command that fails
    monkeypatch.setattr(serve, "collect_command", lambda: [sys.executable, "-c", "exit(3)"])
    env = {"STATIC_ROOT": str(tmp_path / "static"), "DEBUG": "0"}
    line = serve.collect_static(env)
    assert env["PLAIN_STATIC"] == "1"
    assert "not gathered" in line
