"""Settings for the Snap site, read from the environment.

Defaults suit a laptop: SQLite and the in-memory channel layer. In
production set DEBUG off (the default), SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL and REDIS_URL.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "games",
]

MIDDLEWARE = [
    "snapsite.forwarded.ForwardedClientAddress",
    "django.middleware.security.SecurityMiddleware",
    "games.csp.ContentSecurityPolicyMiddleware",
    # Compresses what Django serves (static files: WhiteNoise's own compressed copies).
    # BREACH needs a secret in a compressed page: ours hold only the CSRF token, masked
    # anew in each response, and this middleware pads each response at random.
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "snapsite.urls"

TEMPLATE_FACES = ("rules", "learn", "play", "replay", "teach")
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The site's own pages (base, home, 404, shared includes), then each face's
        # pages beside its code: games/<face>/templates/<face>/….
        "DIRS": [
            BASE_DIR / "templates",
            *(BASE_DIR / "games" / face / "templates" for face in TEMPLATE_FACES),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.languages",
                "games.offline.context.network",
            ],
        },
    },
]

# Table processes and `make run` serve the ASGI application (pages and WebSockets);
# page workers behind the proxy serve the WSGI one (pages only): deploy/README.md.
ASGI_APPLICATION = "snapsite.asgi.application"
WSGI_APPLICATION = "snapsite.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # 0 (Django's default): a connection a request. Behind the proxy the units set
        # it: page workers reuse their threads' connections, and a table process's
        # WebSockets all query from Channels' one database thread.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer (the tables' database thread) beside the page readers: WAL lets them
    # read while it writes, and synchronous=NORMAL commits without an fsync each time
    # (a crash of the machine may lose the last commits, never the file's integrity).
    # IMMEDIATE takes the write lock at BEGIN, so two writers wait (timeout) rather
    # than fail with "database is locked" halfway through a transaction.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_flag(
    "DB_POOL", default=not DATABASES["default"]["CONN_MAX_AGE"]
):
    # psycopg's pool: each request and each table step borrows a connection and gives it
    # back, so no thread keeps one and none is opened per request.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = True
if os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Between processes: a table's players on another process get its events, and
    # their moves are forwarded to its owner (games.tables.fan_out, forwarding). The
    # proxy sends a table's WebSockets to one process, so that traffic is the exception.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 5000},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# "default" is shared by every process (the content version: games/content/version.py):
# Redis with REDIS_URL, else files beside the project (processes of one machine).
# "pages" keeps rendered pages in each process (games/content/page_cache.py).
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": os.environ.get("CACHE_DIR") or str(BASE_DIR / ".cache"),
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    ),
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "snap-pages",
        "OPTIONS": {"MAX_ENTRIES": 400},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Languages: each named in its own script (the switcher shows these).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ms", _("Malay")),
    ("mr", _("Marathi")),
    ("he", _("Hebrew")),
    ("ta", _("Tamil")),
    ("hr", _("Croatian")),
]
LANGUAGES_BIDI = ["he"]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_COOKIE_NAME = "snap_language"
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365

MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_LANGUAGES = ("en", "ms", "mr", "he", "ta", "hr")
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)
# The admin's translation tabs need jQuery UI: served from our static files,
# never from modeltranslation's default CDN address.
JQUERY_UI_URL = "vendor/jquery-ui/jquery-ui.min.js"
JQUERY_URL = "admin/js/vendor/jquery/jquery.min.js"

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# Third-party browser files we ship ourselves (nothing comes from a CDN).
STATICFILES_DIRS = [("vendor", BASE_DIR / "games" / "vendor")]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or env_flag("PLAIN_STATIC")
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = True
# The site's version as the service worker knows it (games/offline/version.py): empty,
# a hash of the static files, templates, code and translations.
SITE_VERSION = os.environ.get("SITE_VERSION", "")
# The TTFs are only read on the server (the PDF sheets embed them); pages load WOFF2
# (already compressed). Compressing 1.7 MB of TTFs made every collectstatic slow.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (
    *("jpg", "jpeg", "png", "gif", "webp", "ico", "zip", "gz", "tgz", "bz2", "tbz", "xz", "br"),
    *("woff", "woff2", "ttf", "mp4", "webm"),
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Security: strict when DEBUG is off; TLS settings can be relaxed behind a
# proxy that terminates TLS by setting SECURE_SSL_REDIRECT=0.
# SECURE_COOKIES=0 serves plain HTTP on a classroom network (snapsite.serve):
# browsers drop Secure cookies over http://, the CSRF token with them.
SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# The proxy's own addresses: from them X-Forwarded-For gives the client's address
# (snapsite/forwarded.py); empty (make run): the TCP peer is the client.
FORWARDED_ALLOW_IPS = [
    a.strip() for a in os.environ.get("FORWARDED_ALLOW_IPS", "").split(",") if a.strip()
]
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_flag("BEHIND_TLS_PROXY") else None
)
X_FRAME_OPTIONS = "DENY"

# WebSockets: origins accepted besides the site's own (scheme, host and port of the
# request), e.g. the public address when a proxy rewrites the Host header.
WEBSOCKET_ORIGINS = [
    o.strip().lower() for o in os.environ.get("WEBSOCKET_ORIGINS", "").split(",") if o.strip()
]
# The limits of one connection and of one person (docs/protocol.md, "Limits").
WS_HELLO_TIMEOUT_S = float(os.environ.get("WS_HELLO_TIMEOUT_S", "10"))
WS_FLOOD_CLOSE_AFTER = int(os.environ.get("WS_FLOOD_CLOSE_AFTER", "100"))
# After a close for flooding, the address's next WebSockets wait this long (doubled for
# each flood close in a minute, at most WS_FLOOD_PENALTY_MAX_S; 0: no wait).
WS_FLOOD_PENALTY_S = float(os.environ.get("WS_FLOOD_PENALTY_S", "1"))
WS_FLOOD_PENALTY_MAX_S = float(os.environ.get("WS_FLOOD_PENALTY_MAX_S", "4"))
WS_FLOOD_WARNINGS_PER_MINUTE = int(os.environ.get("WS_FLOOD_WARNINGS_PER_MINUTE", "3"))
WS_CATCH_UP_EVENTS_PER_MINUTE = int(os.environ.get("WS_CATCH_UP_EVENTS_PER_MINUTE", "2000"))
# What waits to be sent to one WebSocket; past it the client is cut (games.play.ws_guard).
WS_SEND_BACKLOG_BYTES = int(os.environ.get("WS_SEND_BACKLOG_BYTES", "1000000"))
# Open tables (games/tables/limits.py): from the lobby per browser and per network
# address; class tables apart, per teacher and per address (a class of 30 at tables of
# two, or on 8 tablets twice over, fits a teacher; five such teachers one address).
TABLES_OPEN_PER_SESSION = int(os.environ.get("TABLES_OPEN_PER_SESSION", "5"))
TABLES_OPEN_PER_ADDRESS = int(os.environ.get("TABLES_OPEN_PER_ADDRESS", "60"))
CLASS_TABLES_OPEN_PER_SESSION = int(os.environ.get("CLASS_TABLES_OPEN_PER_SESSION", "40"))
CLASS_TABLES_OPEN_PER_ADDRESS = int(os.environ.get("CLASS_TABLES_OPEN_PER_ADDRESS", "200"))
TABLE_IDLE_PAUSE_S = float(os.environ.get("TABLE_IDLE_PAUSE_S", "60"))
TABLE_IDLE_CLOSE_S = float(os.environ.get("TABLE_IDLE_CLOSE_S", "900"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"timed": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "timed"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
