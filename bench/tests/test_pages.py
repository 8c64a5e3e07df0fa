"""``python -m bench.pages``: the site's pages through the production stack with the page
workers under uvicorn and under gunicorn, each beside the bare view, JSON last."""

from __future__ import annotations

import pytest

from .helpers import refused, require_stack, run


@pytest.mark.server
@pytest.mark.postgres
@pytest.mark.redis
def test_pages_are_timed_under_both_page_servers_with_their_cpu_time_per_page():
    require_stack()
    lines, result = run(
        "pages", "--servers", "uvicorn,gunicorn", "--pages", "home,replay", "--languages",
        "en,ta", "--seconds", "0.6", "--rounds", "1", "--clients", "2",
    )  # fmt: skip
    assert set(result["pages"]) == {"home/en", "home/ta", "replay/en", "replay/ta"}
    for key, page in result["pages"].items():
        for server in ("uvicorn", "gunicorn"):
            figures = page[server]
            assert figures["rps"] > 0 and figures["bare_rps"] > 0, (key, server)
            assert figures["cpu_us"] > 0 and figures["bare_cpu_us"] > 0, (key, server)
            assert set(figures["statuses"]) == {"200"}, (key, server)
            # a revisit is answered 304 by the page worker that made the page, 200 by another
            assert set(figures["revisit_statuses"]) <= {"200", "304"}, (key, server)
            assert not figures["errors"], (key, server)
    summary = result["summary"]
    assert summary["least_cpu_per_page"] in ("uvicorn", "gunicorn")
    assert any(line.startswith("gunicorn: ") and "us CPU a page" in line for line in lines)


def test_an_unknown_page_server_or_page_is_refused():
    assert "--servers: among uvicorn, gunicorn" in refused("pages", "--servers", "daphne")
    assert "--pages: among" in refused("pages", "--pages", "nowhere")
