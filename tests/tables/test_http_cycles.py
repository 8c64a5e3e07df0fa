"""A page request under daphne is freed by refcounting alone: it leaves no reference cycle
for the collector (snapsite/http_cycles.py, snapsite/template_cycles.py,
snapsite/db_connections.py, snapsite/daphne_cycles.py, games/play/forms.py). Before,
every page left 100-600 objects in cycles: the request with its messages, user and
session, ``RequestAborted`` and ``ASGIHandler.handle``'s frame, the request thread's
``DatabaseWrapper``, the template's ``RequestContext``, the forms' bound fields, a
class made by Twisted's Content-Type parse, and what hung from them (daphne's request,
Twisted's transport).

The method of test_ws_cycles.py: daphne with the collector off; on ``SIGUSR1`` it
collects with ``DEBUG_SAVEALL`` and reports what it found."""

from __future__ import annotations

import time

import pytest

from games.play.bench.browser import TOKEN, Browser

from .test_table_daphne_restart import CREATE, site_with_table
from .test_ws_cycles import PROBE, garbage_found, probed_daphne

pytestmark = pytest.mark.server

#: The probe of test_ws_cycles.py, freeing what it found (a report shows only what was
#: left since the one before) and leaving none of its own (``json.dump`` encodes with
#: closures that are a cycle; ``json.dumps``, in one go, with C's encoder).
FREEING_PROBE = PROBE.replace(
    "    gc.garbage.clear()\n", "    gc.garbage.clear()\n    gc.collect()\n"
).replace("json.dump(found, out)", "out.write(json.dumps(found))")


def test_pages_leave_no_reference_cycle(tmp_path):
    assert "gc.collect()\n    with" in FREEING_PROBE and "json.dumps" in FREEING_PROBE
    env, _ = site_with_table(tmp_path, CREATE)
    with probed_daphne(tmp_path, env, FREEING_PROBE) as (port, server, report):
        browser = Browser(f"http://127.0.0.1:{port}/")

        def practice() -> None:  # the lobby, then its practice form
            status, _, page = browser.request("GET", "/en/play/")
            assert status == 200
            form = {"csrfmiddlewaretoken": TOKEN.search(page).group(1), "name": "Ann",
                    "computers": 2, "level_1": "beginner", "level_2": "steady"}  # fmt: skip
            status, headers, _ = browser.request("POST", "/en/play/practice/", form)
            assert status == 302, status

        def pages() -> None:
            # (not a 404: asgiref's sync_to_async, called in Django's ``except`` block, raises
            # the Http404 again in the thread, whose frame keeps it: a cycle not broken yet)
            for path in ("/en/", "/en/rules/", "/en/play/"):
                browser.request("GET", path)
            practice()

        deadline = time.monotonic() + 30
        while True:
            try:
                pages()  # the first requests' imports and caches
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "no daphne"
                time.sleep(0.2)
        time.sleep(0.5)
        garbage_found(server.pid, report)  # start-up's
        for _ in range(3):
            pages()
        time.sleep(0.5)
        found = garbage_found(server.pid, report)
    assert found == {}, sorted(found.items())
