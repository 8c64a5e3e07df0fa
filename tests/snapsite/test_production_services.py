"""The production shape on real services: PostgreSQL for content, Redis for
the channel layer. Skipped on a laptop without them; required in CI."""

import asyncio
import os
import socket
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings

from tests.conftest import redis_test_url, require

PG_HOST, PG_PORT = "127.0.0.1", 5432
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def postgres_database():
    require(reachable(PG_HOST, PG_PORT), f"PostgreSQL is not running on {PG_HOST}:{PG_PORT}")
    import psycopg

    name = f"snap_test_{uuid.uuid4().hex[:8]}"
    admin_url = f"postgresql://postgres@{PG_HOST}:{PG_PORT}/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgres://postgres@{PG_HOST}:{PG_PORT}/{name}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.server
@pytest.mark.postgres
def test_content_loads_into_postgresql_twice_and_pages_render(postgres_database):
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": postgres_database,
        "REDIS_URL": "",
    }
    manage = [sys.executable, "manage.py"]

    def run(*args):
        result = subprocess.run(
            manage + list(args), cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    run("migrate", "--noinput", "-v", "0")
    run("load_content")
    run("load_content")  # idempotent
    code = (
        "from django.test import Client; from games.models import RulesSection;"
        "c = Client(); r = c.get('/ta/rules/', HTTP_HOST='localhost');"
        "print(RulesSection.objects.count(), r.status_code,"
        " RulesSection.objects.get(slug='mistakes').title_ta in r.content.decode())"
    )
    assert run("shell", "-c", code).split()[-3:] == ["12", "200", "True"]


@pytest.mark.redis
def test_redis_channel_layer_delivers_a_group_message():
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    from channels_redis.core import RedisChannelLayer

    async def round_trip():
        layer = RedisChannelLayer(hosts=[redis_test_url(0, REDIS_HOST, REDIS_PORT)])
        channel = await layer.new_channel()
        group = f"table-{uuid.uuid4().hex[:6]}"
        await layer.group_add(group, channel)
        await layer.group_send(group, {"type": "table.event", "seq": 7})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        await layer.group_discard(group, channel)
        await layer.flush()
        return message

    # Its own thread: Playwright's sync API may hold an event loop in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        message = pool.submit(asyncio.run, round_trip()).result(timeout=30)
    assert message == {"type": "table.event", "seq": 7}
