"""Settings for the test suite: production settings with test relaxations.

DEBUG stays off as in production; only what a test client cannot do
(HTTPS, a collected static manifest) is relaxed.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")

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
