"""Write the nginx configuration of the site (deploy/nginx/snap.conf with its values
filled in): ``python -m deploy.nginx_conf --listen 80 --static-root /srv/snap/static
--pages 127.0.0.1:8001,127.0.0.1:8002 --tables 127.0.0.1:8101,127.0.0.1:8102``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx" / "snap.conf"


def server_lines(addresses: Sequence[str]) -> str:
    return "\n".join(f"    server {address};" for address in addresses)


def render(*, listen: str, static_root: Path, pages: Sequence[str], tables: Sequence[str]) -> str:
    """The configuration for these addresses; raises ValueError on an empty pool."""
    if not pages or not tables:
        raise ValueError("at least one page worker and one table process are needed")
    values = {
        "@LISTEN@": listen,
        "@STATIC_ROOT@": str(static_root),
        "@PAGE_UPSTREAM@": server_lines(pages),
        "@TABLE_UPSTREAM@": server_lines(tables),
        "@PAGE_SERVERS@": ", ".join(pages),
        "@TABLE_SERVERS@": ", ".join(tables),
    }
    text = TEMPLATE.read_text()
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m deploy.nginx_conf", description=__doc__)
    parser.add_argument("--listen", default="80", help="nginx's listen value, e.g. 80")
    parser.add_argument("--static-root", type=Path, required=True, help="collectstatic's folder")
    parser.add_argument("--pages", required=True, help="page workers, host:port,host:port")
    parser.add_argument("--tables", required=True, help="table processes, host:port,...")
    args = parser.parse_args(argv)
    sys.stdout.write(
        render(
            listen=args.listen,
            static_root=args.static_root,
            pages=[a for a in args.pages.split(",") if a],
            tables=[a for a in args.tables.split(",") if a],
        )
    )


if __name__ == "__main__":
    main()
