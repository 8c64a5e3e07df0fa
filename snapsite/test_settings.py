"""Settings for the test suite: production settings with test relaxations.

DEBUG stays off as in production; only what a test client cannot do
(HTTPS, a collected static manifest) is relaxed.
"""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
# A file cache of each test process's own (each xdist worker has one; the workers
# inherit the environment of the process that starts them), which the servers its tests
# start inherit: a test empties it (tests/conftest.py) without emptying another
# worker's, or the cache of a site served from this folder.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
if os.environ.get("TEST_CACHE_OWNER") != _worker:
    os.environ["TEST_CACHE_OWNER"] = _worker
    os.environ["CACHE_DIR"] = tempfile.mkdtemp(prefix=f"snapsite-test-cache-{_worker}-")
    atexit.register(shutil.rmtree, os.environ["CACHE_DIR"], ignore_errors=True)

from .settings import *  # noqa: E402,F403
from .settings import STORAGES  # noqa: E402

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
