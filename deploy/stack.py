"""The production stack on this machine, on 127.0.0.1, for trying it and for tests:
nginx in front, page workers, table processes, PostgreSQL and Redis.

    python -m deploy.stack [--port 8080] [--pages 2] [--tables 2] [--dir DIR]

(`make stack` runs it with the defaults.) It needs Debian's ``nginx`` on the PATH, a
PostgreSQL server (``DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/
snap_stack``; the database is made if it is missing) and Redis (``REDIS_URL``, default
``redis://127.0.0.1:6379/3``). Before serving it migrates the database, loads the rules
content and collects the static files into ``DIR/static``; then it starts each process
with the command its systemd unit runs (deploy/processes.py) and nginx with the
configuration deploy/nginx/snap.conf renders to. Ctrl+C (or SIGTERM) stops them all.

Here one command is the process manager; in production systemd is (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from deploy.nginx_conf import render, render_stream
from deploy.processes import PROCESS_ENV, page_worker_command, table_process_command

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/snap_stack"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/3"
NGINX_MAIN = """\
{load_stream}{user}worker_processes 1;
worker_rlimit_nofile 40000;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 16384; }}  # 4 a WebSocket (docs/deploy.md, "Sizing")
http {{
    include {mime_types};
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {dir}/tmp/body;
    proxy_temp_path {dir}/tmp/proxy;
    fastcgi_temp_path {dir}/tmp/fastcgi;
    uwsgi_temp_path {dir}/tmp/uwsgi;
    scgi_temp_path {dir}/tmp/scgi;
    include {dir}/snap.conf;
}}
include {dir}/snap-stream.conf;
"""
#: Where Debian's libnginx-mod-stream puts nginx's stream module.
STREAM_MODULE = Path("/usr/lib/nginx/modules/ngx_stream_module.so")


class StackError(RuntimeError):
    """A part of the stack is missing or did not start (the message says which)."""


def stream_module(nginx: str) -> str:
    """The ``load_module`` line nginx needs for its stream module: none when it is built
    in; raises StackError when nginx has none (Debian: apt-get install libnginx-mod-stream)."""
    built = subprocess.run([nginx, "-V"], capture_output=True, text=True).stderr
    if "--with-stream=dynamic" not in built:
        if "--with-stream" in built.split():
            return ""
        raise StackError("this nginx has no stream module")
    if not STREAM_MODULE.exists():
        raise StackError(
            "nginx's stream module is not installed (Debian: apt-get install libnginx-mod-stream)"
        )
    return f"load_module {STREAM_MODULE};\n"


def find_nginx() -> str:
    """nginx's path; raises StackError when it is not installed."""
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if nginx is None:
        raise StackError("nginx is not installed (Debian: apt-get install nginx)")
    return nginx


def nginx_missing() -> str | None:
    """Why this machine's nginx cannot run the stack (None: it can), for tests to skip."""
    try:
        stream_module(find_nginx())
    except StackError as missing:
        return str(missing)
    return None


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ensure_database(database_url: str) -> None:
    """Make the PostgreSQL database of ``database_url`` if it does not exist."""
    import dj_database_url
    import psycopg

    parts = dj_database_url.parse(database_url)
    admin = psycopg.conninfo.make_conninfo(
        host=parts["HOST"] or "127.0.0.1", port=parts["PORT"] or 5432,
        user=parts["USER"] or "postgres", password=parts["PASSWORD"] or None, dbname="postgres",
    )  # fmt: skip
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            found = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [parts["NAME"]]
            ).fetchone()
            if not found:
                conn.execute(f'CREATE DATABASE "{parts["NAME"]}"')
    except psycopg.OperationalError as error:
        raise StackError(f"PostgreSQL is not reachable at {database_url}: {error}") from None


class Stack:
    """The stack's processes; ``start()`` returns once nginx answers a page."""

    def __init__(
        self,
        *,
        workdir: Path,
        port: int = 8080,
        pages: int = 2,
        tables: int = 2,
        database_url: str = DEFAULT_DATABASE_URL,
        redis_url: str = DEFAULT_REDIS_URL,
        settings: dict[str, str] | None = None,
        page_command: Callable[[int], list[str]] = page_worker_command,
        per_address_limits: bool = True,
    ) -> None:
        """``page_command`` and ``per_address_limits`` are for benchmarks: another page
        server to compare, and nginx without its per-address limits (a benchmark's
        clients share one address, and it measures the servers, not the proxy's limit)."""
        if pages < 1 or tables < 1:
            raise StackError("at least one page worker and one table process are needed")
        self.workdir = workdir
        self.port = port
        self.page_ports = [free_port() for _ in range(pages)]
        self.table_ports = [free_port() for _ in range(tables)]
        self.front_ports = [free_port() for _ in range(tables)]  # nginx's, one a process
        self.database_url = database_url
        self.redis_url = redis_url
        self.settings = settings or {}
        self.page_command = page_command
        self.per_address_limits = per_address_limits
        self.processes: dict[str, subprocess.Popen] = {}
        self.url = f"http://127.0.0.1:{port}"

    # -- the environment ---------------------------------------------------------------

    def env(self) -> dict[str, str]:
        key_file = self.workdir / "secret_key"
        if not key_file.exists():
            key_file.write_text(secrets.token_urlsafe(50))
            key_file.chmod(0o600)
        env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": key_file.read_text(),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "STATIC_ROOT": str(self.workdir / "static"),
            # the local stack is plain HTTP on 127.0.0.1 (in production TLS ends at nginx)
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "SECURE_COOKIES": "0",
            **PROCESS_ENV,
            **self.settings,
        }
        env.pop("DJANGO_SETTINGS_MODULE", None)
        return env

    def manage(self, *args: str) -> None:
        result = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            env=self.env(), cwd=ROOT, capture_output=True, text=True,
        )  # fmt: skip
        if result.returncode != 0:
            raise StackError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-2000:]}")

    # -- starting and stopping ---------------------------------------------------------

    def start(self) -> Stack:
        nginx = find_nginx()
        self.workdir.mkdir(parents=True, exist_ok=True)
        ensure_database(self.database_url)
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("load_content")
        self.manage("collectstatic", "--noinput", "-v", "0")
        try:
            for index, port in enumerate(self.page_ports):
                self._spawn(f"page-{index}", self.page_command(port))
            for index, port in enumerate(self.table_ports):
                self._spawn(f"table-{index}", table_process_command(port))
            for name in list(self.processes):
                self._wait_listening(name)
            self._start_nginx(nginx)
            self._wait_page()
        except BaseException:
            self.stop()
            raise
        return self

    def _spawn(self, name: str, command: list[str]) -> None:
        log = open(self.workdir / f"{name}.log", "ab")
        self.processes[name] = subprocess.Popen(
            command, env=self.env(), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()

    def port_of(self, name: str) -> int:
        kind, index = name.split("-")
        return (self.page_ports if kind == "page" else self.table_ports)[int(index)]

    def _wait_listening(self, name: str, timeout: float = 60) -> None:
        import socket

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.processes[name].poll() is not None:
                raise StackError(f"{name} ended: {self.log(name)[-2000:]}")
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port_of(name)), timeout=1).close()
                return
            time.sleep(0.1)
        raise StackError(f"{name} did not listen within {timeout:.0f} s")

    def nginx_conf(self) -> str:
        """The site's nginx configuration for this stack's ports."""
        conf = render(
            listen=f"127.0.0.1:{self.port}",
            static_root=self.workdir / "static",
            pages=[f"127.0.0.1:{p}" for p in self.page_ports],
            tables=[f"127.0.0.1:{p}" for p in self.table_ports],
            fronts=[f"127.0.0.1:{p}" for p in self.front_ports],
        )
        if not self.per_address_limits:
            conf = re.sub(r"(?m)^\s*limit_(conn|req) .*\n", "", conf)
        return conf

    def nginx_stream_conf(self) -> str:
        """The fronts of this stack's table processes (deploy/nginx/snap-stream.conf)."""
        return render_stream(
            tables=[f"127.0.0.1:{p}" for p in self.table_ports],
            fronts=[f"127.0.0.1:{p}" for p in self.front_ports],
        )

    def _start_nginx(self, nginx: str) -> None:
        (self.workdir / "tmp").mkdir(exist_ok=True)
        (self.workdir / "snap.conf").write_text(self.nginx_conf())
        (self.workdir / "snap-stream.conf").write_text(self.nginx_stream_conf())
        mime = "/etc/nginx/mime.types"
        # nginx's workers run as the user who started the stack (under root they would
        # switch to nobody, who may not read a folder in root's own temporary space)
        user = "user root;\n" if os.geteuid() == 0 else ""
        (self.workdir / "nginx.conf").write_text(
            NGINX_MAIN.format(
                dir=self.workdir, mime_types=mime, user=user, load_stream=stream_module(nginx)
            )
        )
        test = subprocess.run(
            [nginx, "-t", "-q", "-p", str(self.workdir), "-c", str(self.workdir / "nginx.conf")],
            capture_output=True, text=True,
        )  # fmt: skip
        if test.returncode != 0:
            raise StackError(f"nginx refused the configuration:\n{test.stderr}")
        self._spawn(
            "nginx-0", [nginx, "-p", str(self.workdir), "-c", str(self.workdir / "nginx.conf")]
        )

    def _wait_page(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/en/", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            if self.processes["nginx-0"].poll() is not None:
                raise StackError(f"nginx ended: {(self.workdir / 'nginx-error.log').read_text()}")
            if time.monotonic() > deadline:
                raise StackError(f"no page through nginx within {timeout:.0f} s")
            time.sleep(0.2)

    def log(self, name: str) -> str:
        path = self.workdir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self, name: str) -> None:
        """SIGKILL one process (a table process dying in the middle of a game)."""
        process = self.processes[name]
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def restart(self, name: str) -> None:
        """Start a killed page worker or table process again on its port."""
        port = self.port_of(name)
        command = (
            self.page_command(port) if name.startswith("page") else table_process_command(port)
        )
        self._spawn(name, command)
        self._wait_listening(name)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.stack",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--port", type=int, default=8080, help="nginx's port on 127.0.0.1")
    parser.add_argument("--pages", type=int, default=2, help="page workers")
    parser.add_argument("--tables", type=int, default=2, help="table processes")
    parser.add_argument("--dir", type=Path, help="where logs, static files and nginx's files go")
    args = parser.parse_args(argv)
    workdir = args.dir or Path(tempfile.mkdtemp(prefix="snap-stack-"))
    stack = Stack(
        workdir=workdir.resolve(), port=args.port, pages=args.pages, tables=args.tables,
        database_url=os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL),
        redis_url=os.environ.get("REDIS_URL", DEFAULT_REDIS_URL),
    )  # fmt: skip
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        stack.start()
    except StackError as error:
        sys.exit(f"The stack did not start: {error}")
    print(f"Snap (production stack) at {stack.url}/  (logs in {workdir})", flush=True)
    print(f"page workers on ports {stack.page_ports}, table processes on {stack.table_ports}")
    print("Press Ctrl+C to stop.", flush=True)
    try:
        while all(p.poll() is None for p in stack.processes.values()):
            time.sleep(1)
        ended = [n for n, p in stack.processes.items() if p.poll() is not None]
        print(f"Stopping: {', '.join(ended)} ended (see its log in {workdir}).", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
