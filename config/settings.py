"""Covenant's settings: read from the environment; SQLite and the in-memory layer when unset."""

import os
import sysconfig
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

from .env import env_bool, env_int, env_list, env_site_url, env_str, redis_channel_prefix
from .secret_key import read_or_make

BASE_DIR = Path(__file__).resolve().parent.parent
# The whole site's templates/ and static/ (README.md, "What lives where"): at the top of a checkout; from
# the wheel, where pip put its data files (pyproject.toml's data-files: the environment's share/covenant/).
SITE_DIR = (
    BASE_DIR if (BASE_DIR / "templates").is_dir() else Path(sysconfig.get_path("data")) / "share" / "covenant"
)

# --- The server a group runs (`make run`), the developer's (`make dev`: DEBUG=true), production ---
# docs/deployment.md, "What make run serves" and "The production profile".
DEBUG = env_bool("DEBUG", False)
# SECRET_KEY when set (production: docs/production.env); else this install's own key, made on the first
# start in SECRET_KEY_FILE (beside db.sqlite3, ignored by git, mode 0600) and read again at every start.
SECRET_KEY_FILE = Path(env_str("SECRET_KEY_FILE", "") or BASE_DIR / "secret_key")
SECRET_KEY = env_str("SECRET_KEY", "").strip() or read_or_make(SECRET_KEY_FILE)
# BASE_URL: the address the browsers use (make run passes it: http://HOST:PORT, or the LAN address; make
# run-tls https://HOST_IP:8443). Its host joins the loopback names the site answers to.
SERVED_AT = env_site_url("BASE_URL")
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver", *([SERVED_AT[1]] if SERVED_AT else [])]
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"  # the site's own 403 page, not Django's bare one

# --- HTTPS: on by default behind a TLS proxy (production), each switch of its own ---
# Without one, Covenant serves plain HTTP on purpose (make run): no redirect to an HTTPS nobody serves, no
# HSTS (which would also forbid clicking through a self-signed certificate's warning). Serving HTTPS itself
# (make run-tls, BASE_URL https://...) its cookies are sent over HTTPS only.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    # Only behind a proxy that terminates TLS and sets X-Forwarded-Proto itself (overwriting the client's).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SSL_REDIRECT", BEHIND_TLS_PROXY)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool(
    "SECURE_COOKIES", BEHIND_TLS_PROXY or bool(SERVED_AT and SERVED_AT[0] == "https")
)
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 31_536_000 if BEHIND_TLS_PROXY else 0, 0, 100_000_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "csp",
    "axes",
    "campaign",
    "combat",
    "arsmagica",
    "d6",
    "django.forms",  # the widget templates the site does not write itself (FORM_RENDERER)
]

MIDDLEWARE = [
    "campaign.middleware.OpenerPolicyWhereHeededMiddleware",  # around SecurityMiddleware: sees its headers
    "django.middleware.security.SecurityMiddleware",
    "config.static.StaticFilesMiddleware",
    "config.head.HeadAsGetMiddleware",  # every view that answers GET answers HEAD (inside ServeStatic's own)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "campaign.middleware.HtmxLoginRedirectMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# Widgets render through the site's templates, so templates/django/forms/widgets/ can write a
# select's options and an input's attributes in one loop instead of a template included for each.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The site's own (the base layout, the account and error pages, the widgets) before each app's.
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=0
    )
}
SQLITE = DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
if SQLITE:
    # Several writers (Daphne's threads) share one file. Each transaction takes the write lock when it
    # begins (IMMEDIATE), so a second writer waits its turn (timeout) instead of failing "database is
    # locked" when it would upgrade a read lock; WAL lets pages read while a command writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests on a file, not in memory, so the browser tests' Daphne process opens the same test database;
    # one file per test run, so runs side by side in the same tree do not clobber each other.
    TEST_SQLITE = Path(tempfile.gettempdir()) / f"covenant-test-{os.getpid()}.sqlite3"
    DATABASES["default"]["TEST"] = {"NAME": TEST_SQLITE}
    # A request's thread is lent again to the next request (config.threads) and keeps its connection:
    # opening one (the file, the PRAGMAs above, the SQL functions Django adds to each) and closing it
    # was a tenth of a correction's work (docs/performance.md, "... sessions and SQLite connections kept").
    DATABASES["default"]["CONN_MAX_AGE"] = None
DATABASE_POOL_MAX = env_int("DATABASE_POOL_MAX", 20, 2, 1000)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Daphne runs each request's sync view in a thread of its own (asgiref gives every request its own
    # executor), so threads are not bounded and neither were connections: 125 tables made PostgreSQL
    # refuse "too many clients" at its default max_connections=100. psycopg's pool caps each process at
    # DATABASE_POOL_MAX; a request beyond it waits for a connection (up to `timeout` seconds) instead of
    # failing. Daphne processes x DATABASE_POOL_MAX must stay under max_connections (docs/deployment.md).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": DATABASE_POOL_MAX,
        "timeout": 30,
    }
    # Prepared statements: psycopg sends parameters apart from the query, and a query run five times on a
    # pooled connection is parsed and planned once by PostgreSQL instead of every time: 40 % less of
    # PostgreSQL's CPU a command (docs/performance.md, "Prepared statements on PostgreSQL"). Off behind a
    # pooler that cannot keep them (PgBouncer in transaction mode before 1.21):
    # DATABASE_PREPARED_STATEMENTS=false.
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        DATABASES["default"]["OPTIONS"].update({"server_side_binding": True, "prepare_threshold": 5})

# --- Under overload (config.admission, docs/deployment.md "Under overload") ---
# At most COMMAND_SLOTS commands (POSTs under /encounters/) are in Django at once in one process, the rest
# wait their turn in the event loop; one that would wait longer than COMMAND_WAIT_MS is refused at once
# with 503 and Retry-After, which the page shows beside its button. SQLite has one writer, so one at a
# time there; on PostgreSQL a few overlap their round trips to the database.
COMMAND_SLOTS = env_int("COMMAND_SLOTS", 1 if SQLITE else 4, 1, 1000)
COMMAND_WAIT_MS = env_int("COMMAND_WAIT_MS", 1000, 0, 60_000)

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    # Several Daphnes share Redis through channels-redis's pub/sub layer: a group send is one PUBLISH,
    # read once by each process (combat.redis_layer, which also tells the sockets when Redis goes).
    # redis-py's connection options are set here rather than left to its defaults (docs/reliability.md):
    # a read waits at most 15 s, so a peer that vanished is found; connecting gives up after 2 s, so
    # while Redis is down a handshake is refused and a command's push fails quickly (the command itself
    # is committed already). After Redis restarts, a pooled connection is dead: a command that meets one
    # reconnects once at once. The groups' prefix names REDIS_URL's database (`redis_channel_prefix`).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "combat.redis_layer.PubSubLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "socket_connect_timeout": 2,
                        "socket_keepalive": True,
                        "health_check_interval": 30,
                        "retry": Retry(NoBackoff(), retries=1),
                        "retry_on_error": [RedisConnectionError],
                    }
                ],
                "prefix": redis_channel_prefix(REDIS_URL),
            },
        }
    }
    # Shared by every Daphne: what the saga pages were sent last (combat.saga_live). Short timeouts: a
    # push that cannot reach Redis is logged and skipped, like the channel layer's.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "combat.layers.InMemoryLayer"}}
    # One process (several need Redis, above), so sessions can be kept in its memory: read from there,
    # written through to the database, a query less a request (docs/performance.md). A session pushed
    # out of the 10,000 kept, or not seen since a restart, is read from the database again.
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "sessions": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "sessions",
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        },
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    SESSION_CACHE_ALIAS = "sessions"

# Who is here (combat.presence): each open page beats every PRESENCE_HEARTBEAT seconds; a person with no beat
# for PRESENCE_EXPIRY seconds is gone, shown at the next beat of anyone else (within 30 s by default).
PRESENCE_HEARTBEAT = env_int("PRESENCE_HEARTBEAT_SECONDS", 10, 1, 300)
PRESENCE_EXPIRY = env_int("PRESENCE_EXPIRY_SECONDS", 20, 2, 3600)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "saga_list"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
# Covenant is written in English and marks nothing for translation: without the translation machinery,
# each string and number a page shows skips a lookup of the active language (docs/performance.md).
USE_I18N = False
USE_TZ = True

# --- Static files: ServeStatic (config/static.py) ---
# DEBUG (make dev): straight from static/ and the apps' static/ folders, no collectstatic. Otherwise (make
# run, production) `collectstatic` writes hashed, compressed copies to STATIC_ROOT, served with a far-future
# Cache-Control; Daphne will not start without them (config.static.require_collected_static).
STATIC_URL = "static/"
# The site's own (its stylesheet, theme, icons, the live client) beside each app's static/ folder, all
# served from the same /static/ (a file's path below its folder is its URL).
STATICFILES_DIRS = [SITE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "servestatic.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Content-Security-Policy (django-csp): scripts and styles from our own files only ---
# htmx is configured not to inject styles or evaluate code (HTMX_CSP_SAFE in combat_tags, base.html);
# websockets to the same host are 'self' in connect-src.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Failed logins (django-axes): a username is locked from one address after too many failures ---
# The user is read each request with SQL compiled once a process (campaign.backends); Django's own backend
# stays listed, last, so that a session signed in before it still reads its user.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "campaign.backends.PreparedModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, 1, 1000)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, 1, 525_600))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "campaign.lockout.locked_out"

# --- A forgotten password: the storyguide's one-time link (campaign.resets), and Django's email reset ---
# A link works once, for this many hours. The email reset ("Forgot your password?" on the log-in page)
# is offered only where the host sets EMAIL_HOST; otherwise that page says to ask the storyguide.
RESET_LINK_HOURS = env_int("RESET_LINK_HOURS", 24, 1, 720)
EMAIL_HOST = env_str("EMAIL_HOST", "")
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_HOST)
EMAIL_PORT = env_int("EMAIL_PORT", 587, 1, 65_535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Everything goes to the console (stderr) through the root logger. Django's own "django" logger has a
# console handler of its own under DEBUG, which printed each of its records twice: here it only passes
# them up. A request refused with a 4xx is one line, without the exception's traceback
# (config/log_filters.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals_in_one_line": {"()": "config.log_filters.RefusalsInOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals_in_one_line"]}},
    "loggers": {"django": {"handlers": [], "level": "INFO"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
