"""Write the nginx configuration of the site: deploy/nginx/snap.conf (the http part:
static files, pages, WebSocket handshakes) and deploy/nginx/snap-stream.conf (the
stream part: each table process's front, which bounds how fast a client's frames reach
it), with their values filled in::

    python -m deploy.nginx_conf --listen 80 --static-root /srv/snap/static \\
        --pages 127.0.0.1:8001,127.0.0.1:8002 --tables 127.0.0.1:8101,127.0.0.1:8102
    python -m deploy.nginx_conf --part stream --tables 127.0.0.1:8101,127.0.0.1:8102

A table process's front listens on nginx's machine (127.0.0.1) at the table process's
port + :data:`FRONT_OFFSET` unless ``--fronts`` names them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent / "nginx"
TEMPLATE = TEMPLATES / "snap.conf"
STREAM_TEMPLATE = TEMPLATES / "snap-stream.conf"

#: A front's default port: its table process's port plus this (8101 -> 9101).
FRONT_OFFSET = 1000
#: What a front reads of one WebSocket, at most, in bytes a second. A player's page
#: sends a few frames of a few hundred bytes a second; the application lets through 10
#: frames a second (docs/protocol.md, "Limits"), 1,024 characters at most each.
UPLOAD_RATE = 16384


def server_lines(addresses: Sequence[str]) -> str:
    return "\n".join(f"    server {address};" for address in addresses)


def default_fronts(tables: Sequence[str]) -> list[str]:
    """Each table process's front, on nginx's own machine (127.0.0.1) at the table
    process's port + :data:`FRONT_OFFSET`; raises ValueError when two would share a port
    (table processes on several machines on one port: name the fronts)."""
    fronts = []
    for address in tables:
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a table process is host:port, not {address!r}")
        fronts.append(f"127.0.0.1:{int(port) + FRONT_OFFSET}")
    if len(set(fronts)) != len(fronts):
        raise ValueError("two fronts on one port: name them with --fronts")
    return fronts


def _fill(template: Path, values: dict[str, str]) -> str:
    text = template.read_text()
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def render(
    *,
    listen: str,
    static_root: Path,
    pages: Sequence[str],
    tables: Sequence[str],
    fronts: Sequence[str] | None = None,
) -> str:
    """The http part for these addresses: WebSockets go to the table processes'
    ``fronts`` (by default :func:`default_fronts`); raises ValueError on an empty pool."""
    if not pages or not tables:
        raise ValueError("at least one page worker and one table process are needed")
    fronts = list(fronts) if fronts is not None else default_fronts(tables)
    return _fill(
        TEMPLATE,
        {
            "@LISTEN@": listen,
            "@STATIC_ROOT@": str(static_root),
            "@PAGE_UPSTREAM@": server_lines(pages),
            "@TABLE_UPSTREAM@": server_lines(fronts),
            "@PAGE_SERVERS@": ", ".join(pages),
            "@TABLE_SERVERS@": ", ".join(tables),
        },
    )


def render_stream(
    *, tables: Sequence[str], fronts: Sequence[str] | None = None, upload_rate: int = UPLOAD_RATE
) -> str:
    """The stream part: a front for each table process, reading each connection at most
    ``upload_rate`` bytes a second; raises ValueError unless there is a front for each."""
    if not tables:
        raise ValueError("at least one table process is needed")
    fronts = list(fronts) if fronts is not None else default_fronts(tables)
    if len(fronts) != len(tables):
        raise ValueError("one front for each table process")
    blocks = "\n".join(
        f"    server {{  # the front of {table}\n"
        f"        listen {front};\n"
        f"        proxy_pass {table};\n"
        f"        proxy_upload_rate {upload_rate};\n"
        f"        proxy_connect_timeout 5s;\n"
        f"        proxy_timeout 75s;  # as the http part's proxy_read_timeout\n"
        f"    }}"
        for table, front in zip(tables, fronts, strict=True)
    )
    return _fill(STREAM_TEMPLATE, {"@TABLE_FRONTS@": blocks, "@UPLOAD_RATE@": str(upload_rate)})


def _addresses(text: str | None) -> list[str] | None:
    return None if text is None else [a for a in text.split(",") if a]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m deploy.nginx_conf", description=__doc__)
    parser.add_argument("--part", choices=["http", "stream"], default="http")
    parser.add_argument("--listen", default="80", help="nginx's listen value, e.g. 80")
    parser.add_argument("--static-root", type=Path, help="collectstatic's folder (http)")
    parser.add_argument("--pages", help="page workers, host:port,host:port (http)")
    parser.add_argument("--tables", required=True, help="table processes, host:port,...")
    parser.add_argument("--fronts", help="their fronts, host:port,... (default: port + 1000)")
    args = parser.parse_args(argv)
    try:
        if args.part == "stream":
            text = render_stream(tables=_addresses(args.tables), fronts=_addresses(args.fronts))
        else:
            if args.static_root is None or not args.pages:
                parser.error("the http part needs --static-root and --pages")
            text = render(
                listen=args.listen,
                static_root=args.static_root,
                pages=_addresses(args.pages),
                tables=_addresses(args.tables),
                fronts=_addresses(args.fronts),
            )
    except ValueError as error:
        parser.error(str(error))
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
