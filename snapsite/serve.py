"""Serve the site for a classroom: `python -m snapsite.serve [--host H] [--port P] [--debug]`.

`make run` and `make dev` call this. It builds uvicorn's environment and starts it (one process:
pages and WebSockets, no proxy):

* debug pages stay off unless `--debug` is given (whatever DEBUG the caller's
  shell holds), so a mistyped address shows the site's own 404 page;
* SECRET_KEY comes from the environment or, failing that, from `.secret_key` in
  the project root, made on the first run (mode 0600, ignored by git); the
  settings still refuse to start without one, as a real deployment must;
* plain HTTP on the local network: no HTTPS redirect, no HSTS, cookies not
  marked Secure (a browser would drop them over http://, and with them the
  CSRF token);
* static files under hashed names (`collectstatic` into STATIC_ROOT, run only when a
  source file is newer than the last run's manifest), which WhiteNoise serves with a
  year of browser caching: a repeat visit asks for nothing it already has. Should
  collecting fail, the server starts all the same with the apps' own files, unhashed
  (PLAIN_STATIC);
* ALLOWED_HOSTS names the addresses this machine answers on; with
  `--host 0.0.0.0` it finds the machine's network address and prints the
  address students type. Finding it sends no traffic: connecting a UDP socket
  only asks the kernel which source address its route would use, and
  `hostname -I` lists the interfaces' addresses.

Before the server starts, `manage.py purge_classes` deletes the class tables (and the
students' names) opened more than 30 days ago; if it fails the server starts anyway.

It imports nothing from Django, so it runs before settings can load.
"""

import argparse
import ipaddress
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_FILE = BASE_DIR / ".secret_key"
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
ALL_INTERFACES = {"0.0.0.0", "::", ""}
# Any address outside the LAN: a UDP connect towards it picks the default route.
ROUTE_PROBE = ("198.51.100.1", 9)

# Plain-HTTP relaxations of the production settings; the caller's values win.
CLASSROOM_DEFAULTS = {
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_HSTS_SECONDS": "0",
    "SECURE_COOKIES": "0",
    # WhiteNoise notes that `staticfiles/` (collectstatic's folder) is absent when
    # collecting failed and the apps' own files are served (PLAIN_STATIC).
    "PYTHONWARNINGS": "ignore:No directory at",
}
# Where the static files that collectstatic gathers come from (besides Django's own).
STATIC_SOURCES = (BASE_DIR / "games" / "static", BASE_DIR / "games" / "vendor")


def load_or_create_secret_key(path: Path = SECRET_FILE) -> str:
    """The key kept in `path`, made there (mode 0600) the first time."""
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            key = path.read_text().strip()
            if key:
                if path.stat().st_mode & 0o077:
                    path.chmod(0o600)
                return key
            path.unlink(missing_ok=True)  # an empty file: make a key again
            continue
        key = secrets.token_urlsafe(50)
        with os.fdopen(fd, "w") as handle:
            handle.write(key + "\n")
        return key


def usable_addresses(candidates: Iterable[str]) -> list[str]:
    """The IPv4 addresses a tablet on the network can reach, in order, once each:
    no loopback, link-local, unspecified or multicast address, no IPv6."""
    found = []
    for text in candidates:
        try:
            address = ipaddress.ip_address(text.strip())
        except ValueError:
            continue
        if address.version != 4 or address.is_loopback or address.is_link_local:
            continue
        if address.is_unspecified or address.is_multicast:
            continue
        if str(address) not in found:
            found.append(str(address))
    return found


def route_source_address() -> str | None:
    """The source address of this machine's default route (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            return probe.getsockname()[0]
    except OSError:
        return None


def interface_addresses() -> list[str]:
    """The addresses `hostname -I` lists (Linux); none where it is missing."""
    try:
        result = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return result.stdout.split() if result.returncode == 0 else []


def local_addresses() -> list[str]:
    """This machine's network addresses, the default route's first."""
    return usable_addresses([route_source_address() or "", *interface_addresses()])


def served_addresses(host: str, addresses: Iterable[str]) -> list[str]:
    """The addresses other machines type for a server bound to `host`."""
    if host in ALL_INTERFACES:
        return list(addresses)
    if host in LOOPBACK_NAMES or host == "::1":
        return []
    return [host]


def allowed_hosts(host: str, addresses: Iterable[str], extra: str = "") -> str:
    """ALLOWED_HOSTS for the server: this machine by name and address, plus `extra`
    (the caller's own comma-separated list)."""
    names = [*LOOPBACK_NAMES, *served_addresses(host, addresses), *extra.split(",")]
    unique = []
    for name in (n.strip() for n in names):
        if name and name not in unique:
            unique.append(name)
    return ",".join(unique)


def url(address: str, port: int) -> str:
    return f"http://{address}:{port}/"


def serve_env(
    base_env: Mapping[str, str],
    *,
    host: str,
    port: int,
    debug: bool,
    secret_key: str,
    addresses: Iterable[str],
) -> dict[str, str]:
    """The server's environment: `base_env` with debug as asked, the key and hosts."""
    env = {**CLASSROOM_DEFAULTS, **base_env}
    env["DEBUG"] = "1" if debug else "0"
    env["SECRET_KEY"] = secret_key
    env["ALLOWED_HOSTS"] = allowed_hosts(host, addresses, base_env.get("ALLOWED_HOSTS", ""))
    return env


def announcement(host: str, port: int, addresses: list[str], debug: bool) -> str:
    """What the teacher reads in the terminal."""
    lines = [f"Snap is running. On this computer: {url('127.0.0.1', port)}"]
    others = served_addresses(host, addresses)
    if others:
        lines.append(f"Students type on their tablets: {url(others[0], port)}")
        lines.extend(f"  (or, on another network: {url(a, port)})" for a in others[1:])
    elif host in ALL_INTERFACES:
        lines.append(
            "No network address found: connect this computer to the classroom network "
            "and start again."
        )
    if debug:
        lines.append("Development mode: Django's debug pages are ON. Never use it in class.")
    lines.append("Press Ctrl+C to stop.")
    return "\n".join(lines)


def server_command(host: str, port: int) -> list[str]:
    """uvicorn serving pages and WebSockets in this one process. No proxy stands in
    front, so no forwarded header is believed."""
    return [
        sys.executable, "-m", "uvicorn", "snapsite.asgi:application",
        "--host", host, "--port", str(port),
        "--ws", "websockets-sansio", "--no-proxy-headers", "--no-access-log",
    ]  # fmt: skip


def collect_command() -> list[str]:
    return [sys.executable, str(BASE_DIR / "manage.py"), "collectstatic", "--noinput", "-v", "0"]


def newest_mtime(folders: Iterable[Path]) -> float:
    """The latest modification time of any file under `folders` (0 when none)."""
    times = [p.stat().st_mtime for f in folders if f.is_dir() for p in f.rglob("*") if p.is_file()]
    return max(times, default=0.0)


def static_is_current(static_root: Path, sources: Iterable[Path] = STATIC_SOURCES) -> bool:
    """True when the last collectstatic's manifest is newer than every source file."""
    manifest = static_root / "staticfiles.json"
    return manifest.is_file() and manifest.stat().st_mtime >= newest_mtime(sources)


def collect_static(env: dict[str, str], timeout: float = 600) -> str:
    """Gather the static files under hashed names (when a source changed), in a child
    process; return the line to print. On failure `env` gets PLAIN_STATIC=1: the
    server then serves the apps' own files, unhashed, and starts all the same."""
    if env.get("DEBUG") == "1" or env.get("PLAIN_STATIC") == "1":
        return "Static files: served from the apps' folders."
    root = Path(env.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
    if static_is_current(root):
        return "Static files: up to date."
    try:
        result = subprocess.run(
            collect_command(), env=dict(env), capture_output=True, text=True, timeout=timeout
        )
        failure = None if result.returncode == 0 else (result.stderr.strip() or "no message")
    except (OSError, subprocess.SubprocessError) as error:
        failure = str(error)
    if failure is None:
        return "Static files: gathered under hashed names."
    env["PLAIN_STATIC"] = "1"
    last = failure.splitlines()[-1]
    return f"Static files were not gathered ({last}); serving the apps' own files."


def purge_command() -> list[str]:
    return [sys.executable, str(BASE_DIR / "manage.py"), "purge_classes"]


def purge_old_classes(env: Mapping[str, str], timeout: float = 60) -> str:
    """Delete the class tables (and students' names) older than 30 days before serving,
    in a child process (this module loads no Django); return the line to print. A
    failure is told and the server starts all the same."""
    try:
        result = subprocess.run(
            purge_command(), env=dict(env), capture_output=True, text=True, timeout=timeout
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"Old class tables were not deleted this time ({error}); starting anyway."
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1]
        return f"Old class tables were not deleted this time ({last}); starting anyway."
    return result.stdout.strip()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m snapsite.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="0.0.0.0 serves the whole network")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--debug", action="store_true", help="Django's debug pages (development)")
    parser.add_argument(
        "--secret-file", type=Path, default=SECRET_FILE, help="where the made-up key is kept"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    key = os.environ.get("SECRET_KEY") or load_or_create_secret_key(args.secret_file)
    addresses = local_addresses() if args.host in ALL_INTERFACES else []
    env = serve_env(
        os.environ,
        host=args.host,
        port=args.port,
        debug=args.debug,
        secret_key=key,
        addresses=addresses,
    )
    print(collect_static(env), flush=True)
    print(purge_old_classes(env), flush=True)
    print(announcement(args.host, args.port, addresses, args.debug), flush=True)
    command = server_command(args.host, args.port)
    os.execve(command[0], command, env)


if __name__ == "__main__":
    main()
