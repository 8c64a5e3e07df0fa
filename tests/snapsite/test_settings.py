import os
import subprocess
import sys

import pytest
from django.conf import settings

pytestmark = pytest.mark.server

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "x7!kq2v9-production-like-secret-key-for-the-deploy-check-9f3a1c77e2",
    "ALLOWED_HOSTS": "snap.example.org",
    "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3",
    "PATH": os.environ["PATH"],
}


def run_manage(*args, env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True,
    )  # fmt: skip


def test_deploy_check_is_clean_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_redis_url_switches_to_the_redis_channel_layer():
    env = {**PRODUCTION_ENV, "REDIS_URL": "redis://127.0.0.1:6379/3"}
    code = "from django.conf import settings; print(settings.CHANNEL_LAYERS['default']['BACKEND'])"
    result = run_manage("shell", "-c", code, env=env)
    assert result.stdout.split()[-1] == "channels_redis.core.RedisChannelLayer", result.stderr


def test_the_default_is_sqlite_and_channels_in_memory_layer():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "DATABASE_URL"}
    code = (
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE']);"
        "print(settings.CHANNEL_LAYERS['default']['BACKEND'])"
    )
    result = run_manage("shell", "-c", code, env=env)
    assert result.stdout.split()[-2:] == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
    ], result.stderr
