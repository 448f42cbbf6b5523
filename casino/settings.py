"""One settings module for every environment, driven by environment variables.

Defaults run with nothing but Python installed: SQLite in the project folder and the live
feed in one process. ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    return int(env(name, str(default)))


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "")
    return float(value) if value.strip() else default


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-" + "x" * 40  # noqa: S105 - DEBUG only
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Origins (scheme://host[:port], exactly) whose pages may open the app's WebSockets besides
# the socket's own origin (casino/origins.py).
WS_ALLOWED_ORIGINS = env_list("WS_ALLOWED_ORIGINS", ",".join(CSRF_TRUSTED_ORIGINS))

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "rules",
    "feed",
    "floor",
    "axes",
    "staff",
    "tables",
    "game",
    "cashdesk",
    "benchmarks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "staff.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a throttled sign-in nobody explained into a 429 page
    # (django-axes' own, with its async path fixed: staff/middleware.py).
    "staff.middleware.SignInThrottleMiddleware",
]

# django-axes checks for its middleware by its exact dotted path; ours is a subclass of it.
SILENCED_SYSTEM_CHECKS = ["axes.W002"]

ROOT_URLCONF = "casino.urls"
ASGI_APPLICATION = "casino.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "staff.context_processors.navigation",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg 3's connection pool (one per worker process): a database call borrows an open
    # connection and gives it back instead of forking a new PostgreSQL backend each time.
    # DB_POOL is its largest size (0: no pool); it replaces persistent connections, which
    # Django refuses together with a pool, so an explicit DB_CONN_MAX_AGE turns it off.
    DB_POOL = env_int("DB_POOL", 0 if DATABASES["default"]["CONN_MAX_AGE"] else 20)
    if DB_POOL > 0:
        if DATABASES["default"]["CONN_MAX_AGE"]:
            raise ImproperlyConfigured("DB_POOL needs DB_CONN_MAX_AGE=0 (set DB_POOL=0).")
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(2, DB_POOL),
            "max_size": DB_POOL,
            "timeout": 10,
        }
# Commands from many screens run on a pool of threads on PostgreSQL (row locks keep them
# correct); SQLite has one writer, so there they take turns on one thread.
PARALLEL_COMMANDS = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a writer instead of failing at once: consumers write from worker threads.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # A file, not memory, so the live daphne of the browser tests shares the test database;
    # one per process, so two test runs on one machine do not collide.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


REDIS_URL = env("REDIS_URL")
# The realtime kernel (feed/): each topic kind's renderer, called once per committed change of
# a topic of that kind (None: a control topic, not sequenced nor rendered: a person's
# revocations), as middleware is named; feed imports none of them.
FEED_TOPICS = {
    "table": "game.screens.publish.table_message",
    "duty": "cashdesk.publish.duty_message",
    "user": None,
}
# The language a live screen reads (from its socket's scope).
FEED_LANGUAGE = "staff.language.screen_language"
# The Redis key and channel prefix of the feed (its channels, who watches what, screens per
# person); change it only to run two deployments on one Redis database.
FEED_PREFIX = env("FEED_PREFIX", "pit-feed")


def channel_layers(redis_url: str, prefix: str) -> dict:
    """The feed's transport between workers (feed/bus.py, feed/hub.py): channels-redis'
    RedisPubSubChannelLayer — one PUBLISH per group_send, one subscription per group and
    worker — with Redis; without it one process and the in-memory layer (nothing to cross).
    ``socket_timeout=None``: an idle subscriber must never time out (STYLE.md, known traps;
    redis is pinned below 8 as well)."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    host = {"address": redis_url, "socket_timeout": None, "socket_connect_timeout": 2}
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [host], "prefix": prefix},
        }
    }


CHANNEL_LAYERS = channel_layers(REDIS_URL, FEED_PREFIX)
# /healthz and /metrics answer only to these networks (docs/operations.md).
OPS_ALLOWED_NETWORKS = env_list(
    "OPS_ALLOWED_NETWORKS", "127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16"
)

AUTH_USER_MODEL = "staff.User"
# Every password or PIN check goes through django.contrib.auth.authenticate(request, ...):
# django-axes' backend first refuses a throttled source, then the password, then the PIN.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "staff.backends.PinBackend",
    # user.has_perm(act, obj) and the {% has_perm %} tag ask the acts of staff/permissions.py.
    "rules.permissions.ObjectPermissionBackend",
]
LOGIN_URL = "staff:login"
LOGIN_REDIRECT_URL = "staff:home"
LOGOUT_REDIRECT_URL = "staff:login"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

# The keys of the record's hash chains and day seals (floor/ledger.py; docs/operations.md,
# "The tamper-evident record"): independent of SECRET_KEY, required with DEBUG off. New links
# are made with AUDIT_CHAIN_KEY under the id AUDIT_CHAIN_KEY_ID (stored on every link); a
# rotated key moves to AUDIT_CHAIN_OLD_KEYS ("id:secret,id:secret") and keeps verifying the
# links it made.
AUDIT_CHAIN_KEY = env("AUDIT_CHAIN_KEY")
AUDIT_CHAIN_KEY_ID = env("AUDIT_CHAIN_KEY_ID", "1")
if not AUDIT_CHAIN_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "AUDIT_CHAIN_KEY must be set in the environment when DEBUG is off."
        )
    AUDIT_CHAIN_KEY, AUDIT_CHAIN_KEY_ID = "dev-only-insecure-audit-chain-key", "dev"  # noqa: S105
if not AUDIT_CHAIN_KEY_ID or len(AUDIT_CHAIN_KEY_ID) > 16 or ":" in AUDIT_CHAIN_KEY_ID:
    raise ImproperlyConfigured("AUDIT_CHAIN_KEY_ID must be 1-16 characters without ':'.")
AUDIT_CHAIN_KEYS = {
    kid.strip(): secret.strip()
    for kid, _sep, secret in (item.partition(":") for item in env_list("AUDIT_CHAIN_OLD_KEYS"))
    if kid.strip() and secret.strip()
}
AUDIT_CHAIN_KEYS[AUDIT_CHAIN_KEY_ID] = AUDIT_CHAIN_KEY
# Links made before links carried a key id were made with the AUDIT_CHAIN_KEY of that time,
# or (none set) a key derived from SECRET_KEY: set it here if one was set then.
AUDIT_CHAIN_LEGACY_KEY = env("AUDIT_CHAIN_LEGACY_KEY")

# Sign-in throttling (docs/operations.md, "Security"): wrong passwords and PINs are counted
# per source, the client's address and the name typed together. The first few tries are
# free, then each wrong try makes that source wait twice as long before the next one, and at
# the limit the source stops for a while (the duty administrator may lift it sooner). Only
# wrong PINs for one name from several sources lock the person's PIN, and raise an alert.
SIGN_IN_FREE_TRIES = env_int("SIGN_IN_FREE_TRIES", 3)
SIGN_IN_DELAY_SECONDS = env_int("SIGN_IN_DELAY_SECONDS", 2)
AXES_FAILURE_LIMIT = env_int("SIGN_IN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("SIGN_IN_STOP_MINUTES", 60))
PIN_LOCK_FAILURES = env_int("PIN_LOCK_FAILURES", 20)
PIN_LOCK_SOURCES = env_int("PIN_LOCK_SOURCES", 3)
PIN_LOCK_HOURS = env_int("PIN_LOCK_HOURS", 24)
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_USERNAME_CALLABLE = "staff.throttle.sign_in_name"
AXES_HANDLER = "staff.throttle.ThrottleHandler"
AXES_LOCKOUT_CALLABLE = "staff.throttle.lockout_response"
AXES_RESET_ON_SUCCESS = True
# A try refused while the source waits is not counted again (it neither extends the wait
# nor pushes the source to its stop).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_SENSITIVE_PARAMETERS = [
    "username",
    "identifier",
    "password",
    "pin",
    "secret",
    "witness_identifier",
    "witness_secret",
]

# Live screens (docs/operations.md, "Security"): a screen re-reads its session before every
# message and at least this often while silent, so an expired session closes it (4401).
SCREEN_SESSION_RECHECK_SECONDS = env_int("SCREEN_SESSION_RECHECK_SECONDS", 30)
# A screen may send SCREEN_MESSAGE_BURST messages at once and SCREEN_MESSAGES_PER_SECOND on
# average (a croupier's fastest taps are 3-4 a second, a screen's sync one per 20 s); more is
# answered "too_fast" and the socket closes (4429). A person has at most SCREENS_PER_PERSON
# live screens open at once (a tablet, a dashboard, a few tabs); one more is refused (4429).
SCREEN_MESSAGES_PER_SECOND = env_int("SCREEN_MESSAGES_PER_SECOND", 10)
SCREEN_MESSAGE_BURST = env_int("SCREEN_MESSAGE_BURST", 30)
SCREENS_PER_PERSON = env_int("SCREENS_PER_PERSON", 10)
# A command refused "stale" sends only the refusal: the fragment that made it stale is on its
# way. This many seconds later the screen gets the full state only if it is still behind the
# table's screen sequence in the database (docs/protocol.md).
STALE_HEAL_SECONDS = env_float("STALE_HEAL_SECONDS", 0.5)
# Rows of a list page (alerts, replacement requests, locked sign-ins; floor.paging).
LIST_PAGE_SIZE = env_int("LIST_PAGE_SIZE", 50)

# Cash desk (docs/cashdesk.md): the gaming day starts at this local hour; shifts start at
# these hours (the first shift of a gaming day starts with it); alert thresholds for one
# cash-in and for one player card's cash-ins over a gaming day (whole currency units).
GAMING_DAY_START_HOUR = env_int("GAMING_DAY_START_HOUR", 6)
SHIFT_START_HOURS = [int(h) for h in env_list("SHIFT_START_HOURS", "6,14,22")]
CASH_IN_ALERT_AMOUNT = env_int("CASH_IN_ALERT_AMOUNT", 100000)
CASH_IN_PLAYER_DAY_ALERT_AMOUNT = env_int("CASH_IN_PLAYER_DAY_ALERT_AMOUNT", 300000)
# No single cash-in, tip, slip or counted drop is above this (a refusal asks to check it);
# tips and slips from these amounts raise an alert for the inspector and the duty desk.
CASH_AMOUNT_MAX = env_int("CASH_AMOUNT_MAX", 100_000_000)
TIP_ALERT_AMOUNT = env_int("TIP_ALERT_AMOUNT", 50_000)
SLIP_ALERT_AMOUNT = env_int("SLIP_ALERT_AMOUNT", 5_000_000)
CASH_NOTE_DENOMINATIONS = env_list("CASH_NOTE_DENOMINATIONS", "50,100,200,500,1000,2000,5000")

# The floor watch (docs/detection.md; manage.py run_floor_watch): a table open with no
# command for this many minutes is idle; a croupier longer than the rotation period on one
# table is due for rotation. Result deviation: the shift's result, checked after every round
# from DEVIATION_MIN_ROUNDS on, this many standard deviations from theory (3.9: at most 0.3 %
# of fair 600-round shifts, measured). Advantage play: the chance that a player who ignores
# the count is ever flagged (the evidence reaching ln(1/alpha)). The defaults are the
# production values that `python -m game.detection judge` uses (game.detection; a test keeps
# them equal).
TABLE_IDLE_MINUTES = env_int("TABLE_IDLE_MINUTES", 10)
ROTATION_MINUTES = env_int("ROTATION_MINUTES", 60)
DEVIATION_SIGMAS = env_float("DEVIATION_SIGMAS", 3.9)
DEVIATION_MIN_ROUNDS = env_int("DEVIATION_MIN_ROUNDS", 30)
ADVANTAGE_ALPHA = env_float("ADVANTAGE_ALPHA", 0.01)

LANGUAGE_CODE = env("LANGUAGE_CODE", "ru")
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", not DEBUG)
# Without a collected manifest (development, tests) WhiteNoise serves straight from the finders.
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
STATIC_ROOT.mkdir(exist_ok=True)

SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 12 * 3600)  # a shift and then some
SESSION_COOKIE_HTTPONLY = True
# Every cookie only over HTTPS in production: the session (and the messages cookie, which
# follows it), CSRF and the language. No script reads any of them.
SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = SECURE_COOKIES
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts, styles, images and sockets from this origin
# only; no inline script or style, no eval, no plugin, never framed. htmx is told not to
# inject its indicator style (the htmx-config meta tag in templates/base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Permissions-Policy (django-permissions-policy): the tablets need none of these.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "usb",
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        # django-axes: every wrong sign-in and every stop is a WARNING; its chatter is INFO.
        "axes": {"level": "WARNING"},
    },
}
