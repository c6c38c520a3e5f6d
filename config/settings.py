"""Settings, all from the environment (12-factor).

``DJANGO_PROFILE`` picks the profile: ``local`` (default: DEBUG on, SQLite
file, in-process fallbacks) or ``production`` (DEBUG off, HTTPS-only cookies,
HSTS; requires ``SECRET_KEY`` and ``ALLOWED_HOSTS``; passes
``manage.py check --deploy``).

Variables: ``DATABASE_URL`` (default ``sqlite:///db.sqlite3``), ``REDIS_URL``
(broker and cache; unset = in-process fallbacks), ``SECRET_KEY``, ``DEBUG``,
``ALLOWED_HOSTS`` (comma-separated), ``CSRF_TRUSTED_ORIGINS``,
``THROTTLE_ANON`` / ``THROTTLE_USER`` / ``THROTTLE_AUTH`` / ``THROTTLE_LOGIN_ACCOUNT`` /
``THROTTLE_LOGIN_DEVICE`` /
``THROTTLE_READY`` (e.g. ``60/min``), ``TRUSTED_PROXIES`` (reverse proxies in front of the service whose
``X-Forwarded-For`` is believed; default 0), ``DB_CONN_MAX_AGE``,
``MAIL_LIMIT_ADDRESS`` / ``MAIL_LIMIT_CLIENT`` / ``MAIL_LIMIT_ACCOUNT`` (unasked-for mails, e.g.
``3/day``: accounts.mail_limits), ``USERNAME_HOLD_DAYS`` (a deleted account's username is kept
from others this long; default 30).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from common import redis_url
from games import task_names as games_tasks

from . import beat

BASE_DIR = Path(__file__).resolve().parent.parent
PROFILE = os.environ.get("DJANGO_PROFILE", "local")
if PROFILE not in ("local", "production"):
    raise ImproperlyConfigured("DJANGO_PROFILE must be 'local' or 'production'")
PRODUCTION = PROFILE == "production"


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", not PRODUCTION)

if PRODUCTION:
    try:
        SECRET_KEY = os.environ["SECRET_KEY"]
    except KeyError:
        raise ImproperlyConfigured("the production profile needs SECRET_KEY in the environment") from None
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("the production profile needs ALLOWED_HOSTS in the environment")
else:
    # A fixed key is acceptable only for local runs: nothing secret is behind it.
    SECRET_KEY = os.environ.get("SECRET_KEY", "local-only-insecure-key-do-not-use-in-production")
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "ratings",
    "tournaments",
    "analysis",
    "community",
    "accounts",
    "live",
    "web",
]

MIDDLEWARE = [
    "config.middleware.RequestIdMiddleware",
    "config.middleware.LocalDebugPagesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.BodySizeLimitMiddleware",
    "common.validation.ApiQueryGuardMiddleware",
    # Sessions, the session's user and messages: Django's own, skipped for an API request signed
    # with a token (config.middleware: the token lane).
    "config.middleware.SessionMiddleware",
    # The language: the switcher's cookie or the browser's Accept-Language (config/i18n.py) ...
    "django.middleware.locale.LocaleMiddleware",
    # APPEND_SLASH for GET and HEAD only; Content-Length on every answer (token lane included).
    "config.middleware.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",  # a no-op for DRF's views (csrf_exempt)
    "config.middleware.AuthenticationMiddleware",
    # Who is online (community.presence): at most one cache write per player a minute, no query.
    "community.middleware.PresenceMiddleware",
    "config.middleware.MessageMiddleware",
    # ... and a signed-in player's saved choice (and time zone) over both (accounts/middleware.py).
    "accounts.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

#: Debug pages (DEBUG on: the local profile) only for these clients (config.middleware).
INTERNAL_IPS = env_list("INTERNAL_IPS", "127.0.0.1,::1")

#: Pages load everything from the service itself and run no inline script or style.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: Swagger UI and Redoc (served from the project's static files) add styles and workers at run time.
CONTENT_SECURITY_POLICY_DOCS = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "worker-src 'self' blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "frame-ancestors 'none'"
)
CONTENT_SECURITY_POLICY_DOCS_PATHS = ["/api/v1/docs/", "/api/v1/redoc/"]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.site_bar",
                "config.i18n.languages",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=env_bool("DB_CONN_HEALTH_CHECKS", False),
    )
}
#: A move's statements run as prepared statements on PostgreSQL (games.rows). Switch it off behind
#: a connection pooler in transaction mode that does not keep prepared statements.
DB_PREPARED_MOVES = env_bool("DB_PREPARED_MOVES", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_PREPARED_MOVES:
    # Django turns psycopg's prepared statements off (None); any number turns them on for the
    # statements that ask (games.rows). Django's own queries bind on the client and never prepare.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 1_000_000)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for the writer instead of failing at once when two requests write together, and take
    # the write lock when a transaction begins, so a read-check-write transaction never interleaves.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

#: ``redis://HOST:PORT/DB``, or through Redis Sentinel ``sentinel://HOST:PORT[,HOST:PORT…]/MASTER/DB``
#: (``common.redis_url``: the cache, the broker, the push streams and readiness all follow the master).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # While Redis is down each process falls back to its own memory, with a warning (common.cache).
    CACHES = {
        "default": {
            "BACKEND": "common.cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
#: Each language in its own name: that is how a reader finds theirs in the switcher.
LANGUAGES = [("en", "English"), ("es", "Español"), ("fr", "Français"), ("de", "Deutsch"), ("ru", "Русский")]
#: The catalogues (``locale/<lang>/LC_MESSAGES/django.po`` for pages and messages, ``djangojs.po``
#: for the browser scripts). The compiled ``.mo`` files are committed; ``scripts/messages``
#: re-extracts and compiles them, and tests/i18n checks that they are complete and current.
LOCALE_PATHS = [BASE_DIR / "locale"]
#: English dates in the site's own (British) style; other languages use their locale's formats.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGIN_URL = "login"
#: One click to a game against a bot with a throwaway guest account (the local demo).
GUEST_PLAY = env_bool("GUEST_PLAY", not PRODUCTION)
#: Guest accounts one client address may make (games.guests): "N/second|minute|hour|day".
GUEST_RATE = os.environ.get("GUEST_RATE", "10/hour")
#: Guests idle this long are deleted with their casual bot games (games.guests.cleanup_guests).
GUEST_TTL_HOURS = float(os.environ.get("GUEST_TTL_HOURS", "24"))
#: A table of guests against house bots with no move for this long is ended (aborted, not rated),
#: so an abandoned game leaves the lobby's games in play (games.services.abandoned).
ABANDONED_GUEST_TABLE_HOURS = float(os.environ.get("ABANDONED_GUEST_TABLE_HOURS", "24"))
#: A deleted account's username (and its look-alikes) cannot be registered for this many days.
USERNAME_HOLD_DAYS = float(os.environ.get("USERNAME_HOLD_DAYS", "30"))
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

#: Largest request body accepted (bytes); larger ones get 413 before any work.
MAX_REQUEST_BODY = int(os.environ.get("MAX_REQUEST_BODY", str(256 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY

#: The device cookie a sign-in gives the client (common.devices): its name and lifetime in days.
DEVICE_COOKIE_NAME = os.environ.get("DEVICE_COOKIE_NAME", "signin_device")
DEVICE_COOKIE_DAYS = float(os.environ.get("DEVICE_COOKIE_DAYS", "365"))

#: Seconds an API token stays cached in each process (0 disables; see common.auth).
TOKEN_CACHE_SECONDS = int(os.environ.get("TOKEN_CACHE_SECONDS", "30"))

#: /metrics answers clients other than the loopback only with ``Authorization: Bearer <this>``
#: (empty: local scrapes only; config.metrics).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "common.auth.PlayerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "common.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "common.schema.AutoSchema",
    # DRF's anon and user throttles on constant-cost sliding counts (common.throttles).
    "DEFAULT_THROTTLE_CLASSES": [
        "common.throttles.AnonThrottle",
        "common.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "120/min"),
        "user": os.environ.get("THROTTLE_USER", "1200/min"),
        "auth": os.environ.get("THROTTLE_AUTH", "20/min"),
        # Failed sign-ins per account, from any address (common.throttles).
        "login_account": os.environ.get("THROTTLE_LOGIN_ACCOUNT", "20/hour"),
        # Failed sign-ins per device cookie: a client that signed in to the account before is
        # counted here instead of per account (common.devices).
        "login_device": os.environ.get("THROTTLE_LOGIN_DEVICE", "10/hour"),
        # Game pages poll a table about once a second; a 304 costs one indexed query.
        "watch": os.environ.get("THROTTLE_WATCH", "600/min"),
        # health/ready/ per address: load balancers probe every few seconds (games.apis.ReadyApi).
        "ready": os.environ.get("THROTTLE_READY", "120/min"),
    },
    # The client is the connection's address unless TRUSTED_PROXIES reverse proxies stand in front
    # (then the address the outermost of them saw): a client cannot choose its identity by sending
    # X-Forwarded-For (common.throttles).
    "NUM_PROXIES": int(os.environ.get("TRUSTED_PROXIES", "0")),
    "EXCEPTION_HANDLER": "common.errors.api_exception_handler",
    # JSON bodies nested too deeply answer 400 (common.parsers), not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "common.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # ``?format=`` is a filter (tournaments), not DRF's renderer override.
    "URL_FORMAT_OVERRIDE": None,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
#: Mails nobody confirmed they want (address verification, password reset, the notices "someone
#: tried to sign up with your address" and "your address is being changed"), counted in the cache
#: (accounts.mail_limits): at most MAIL_LIMIT_ADDRESS per recipient address, MAIL_LIMIT_CLIENT
#: per requesting client address and MAIL_LIMIT_ACCOUNT per account, each "N/period" (period:
#: second, minute, hour or day). Beyond them nothing is sent.
MAIL_LIMIT_ADDRESS = os.environ.get("MAIL_LIMIT_ADDRESS", "3/day")
MAIL_LIMIT_CLIENT = os.environ.get("MAIL_LIMIT_CLIENT", "10/hour")
MAIL_LIMIT_ACCOUNT = os.environ.get("MAIL_LIMIT_ACCOUNT", "5/day")
if env_bool("THROTTLE_OFF", False):  # load tests and benchmarks only
    REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = []
    REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
        "anon": None,
        "user": None,
        "auth": None,
        "watch": None,
        "login_account": None,
        "login_device": None,
    }

SPECTACULAR_SETTINGS = {
    "TITLE": "Pacru ladder API",
    "DESCRIPTION": (
        "Tables of 2–4 players for Shacru, Azacru and Pacru, every move adjudicated by the "
        "project's rules engine. Authenticate with `Authorization: Token <key>` "
        "(get one from /api/v1/auth/token/)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc are served from the project's own static files (no CDN).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # The sidecar's Redoc, served with its one CDN URL (a logo) pointed home (common.redoc_bundle).
    "REDOC_DIST": "/api/v1/redoc-assets",
    "COMPONENT_SPLIT_REQUEST": True,
    # What an unplayed round pays: a bye the organiser gives (requested_bye) and the rounds a late
    # entry missed (missed) share the one choice set.
    "ENUM_NAME_OVERRIDES": {"UnplayedRoundPaysEnum": ["zero", "half"]},
    # <id:...> path ids (common.validation.IdConverter): integers within the 64-bit id range.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**63 - 1}
    },
    # The streams are async Django views (live.views), which drf-spectacular does not see.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "live.schema.document_streams",
    ],
}

# Mail and notifications (accounts): see docs/operators/mail.md.
SITE_NAME = os.environ.get("SITE_NAME", "Pacru ladder")
#: The address mails link to (verification, reset, notifications, unsubscribe).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Pacru ladder <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if EMAIL_HOST else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "20"))
#: Where mail goes without EMAIL_HOST: one file per message batch in this folder (local runs).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
# With EMAIL_HOST, mail goes out over SMTP in every profile; without it, into EMAIL_FILE_PATH
# (local) or the log (production). EMAIL_BACKEND names another backend outright.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else (
        "django.core.mail.backends.console.EmailBackend"
        if PRODUCTION
        else "django.core.mail.backends.filebased.EmailBackend"
    ),
)
#: Password-reset links work this long (seconds).
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(24 * 3600)))
#: A sender holds a mail this long (longer than an SMTP exchange); then a sweep may take it.
MAIL_CLAIM_SECONDS = float(os.environ.get("MAIL_CLAIM_SECONDS", "120"))
#: The first retry of a failed send waits this long, each next one twice as long (at most 1 h).
MAIL_RETRY_SECONDS = float(os.environ.get("MAIL_RETRY_SECONDS", "30"))
MAIL_MAX_ATTEMPTS = int(os.environ.get("MAIL_MAX_ATTEMPTS", "12"))
#: Sent mails (their bodies hold links) are deleted after this many days.
MAIL_KEEP_DAYS = float(os.environ.get("MAIL_KEEP_DAYS", "14"))
#: Send mail in the request when tasks run eagerly (tests only; the local sweeper sends otherwise).
MAIL_SEND_IN_REQUEST = env_bool("MAIL_SEND_IN_REQUEST", False)
#: A human seat on turn this long at any table gets "your turn" (correspondence: at once).
NOTIFY_IDLE_SECONDS = float(os.environ.get("NOTIFY_IDLE_SECONDS", "600"))
#: Daily digests go out at this hour of the player's time zone.
DIGEST_DAILY_HOUR = int(os.environ.get("DIGEST_DAILY_HOUR", "8"))
#: Sign-up asks for an e-mail address (guests never need one).
SIGNUP_EMAIL_REQUIRED = env_bool("SIGNUP_EMAIL_REQUIRED", False)
#: Rated tables, events and ladders only for accounts with a verified address.
RATED_NEEDS_VERIFIED_EMAIL = env_bool("RATED_NEEDS_VERIFIED_EMAIL", False)
#: At most this many rated games between the same two accounts in any 24 hours (casual and open
#: tables; organised events are exempt): the seat that would start one more is refused (0: no limit).
RATED_GAMES_SAME_PLAYERS_PER_DAY = int(os.environ.get("RATED_GAMES_SAME_PLAYERS_PER_DAY", "5"))
#: Asked before an invitation fills a table with house bots only (a bot match): organisers only,
#: within their daily bot-match limit. A dotted path (games must not import tournaments).
BOT_MATCH_GATE = "tournaments.organising.botmatches.bot_only_table_allowed"
#: Called on every turn of the in-process sweeper (``manage.py clock_sweeper``, no Redis); the
#: retention jobs among them run hourly (common.retention.every).
LOCAL_SWEEPS = [
    "accounts.sweeps.local_sweep",
    "accounts.sweeps.local_retention",
    "games.retention.local_archive",
    "games.services.abandoned.local_end_abandoned",
    "common.metrics.local_compaction",
    "tournaments.calendar.tick.local_tick",
    "tournaments.play_now.local_wave",
]
#: How often the calendar ticks (tournaments.calendar.tick): a scheduled event is paired within this.
CALENDAR_TICK_SECONDS = float(os.environ.get("CALENDAR_TICK_SECONDS", "10"))
#: How often quick pairing pools and arenas pair who waits (tournaments.play_now).
PLAY_NOW_WAVE_SECONDS = float(os.environ.get("PLAY_NOW_WAVE_SECONDS", "3"))

# Chat (community.chat): see docs/api/index.md.
#: A chat message's longest text, in characters (after trimming).
CHAT_MESSAGE_MAX_LENGTH = int(os.environ.get("CHAT_MESSAGE_MAX_LENGTH", "500"))
#: Most chat messages one player may send in any 10 seconds, and in any minute (all rooms
#: together); past either the next one answers 429 with Retry-After.
CHAT_RATE_BURST = int(os.environ.get("CHAT_RATE_BURST", "5"))
CHAT_RATE_MINUTE = int(os.environ.get("CHAT_RATE_MINUTE", "20"))
#: When this many reports about one player are open, the moderators are mailed (once each time
#: the count reaches it: community.reports).
CHAT_REPORT_MAIL_THRESHOLD = int(os.environ.get("CHAT_REPORT_MAIL_THRESHOLD", "3"))

# Retention (common.retention, accounts.sweeps, games.retention): see docs/operators/backups.md.
#: Read notifications are deleted this many days after they were read; unread ones this many
#: days after they were made (notifications waiting for a digest are kept until it is sent).
NOTIFY_KEEP_READ_DAYS = float(os.environ.get("NOTIFY_KEEP_READ_DAYS", "90"))
NOTIFY_KEEP_UNREAD_DAYS = float(os.environ.get("NOTIFY_KEEP_UNREAD_DAYS", "365"))
#: Finished and aborted tables' stored positions are dropped this many days after the end (the
#: move log, the record, is kept forever; pages and the API rebuild the position from it).
ARCHIVE_AFTER_DAYS = float(os.environ.get("ARCHIVE_AFTER_DAYS", "30"))
#: Rows each retention job deletes or updates per transaction (short locks while serving).
RETENTION_BATCH = int(os.environ.get("RETENTION_BATCH", "1000"))
#: The daily retention jobs (Celery beat) run at this hour, UTC.
RETENTION_HOUR = int(os.environ.get("RETENTION_HOUR", "4"))

# Live push (live): see docs/operators/live-updates.md.
#: Pages offer push: "auto" (when served by the ASGI server), "on" (a proxy sends /live/ to one), "off".
LIVE_PUSH = os.environ.get("LIVE_PUSH", "auto")
#: Without Redis, each process's hub reads a watched table's version this often.
LIVE_POLL_SECONDS = float(os.environ.get("LIVE_POLL_SECONDS", "0.5"))
#: With Redis, the hub still reads each watched topic this often (a message lost while Redis was away).
LIVE_RECHECK_SECONDS = float(os.environ.get("LIVE_RECHECK_SECONDS", "30"))
#: Streams send a keep-alive this often when nothing happens.
LIVE_KEEPALIVE_SECONDS = float(os.environ.get("LIVE_KEEPALIVE_SECONDS", "15"))
#: How soon a browser reconnects a dropped event stream (milliseconds).
LIVE_RETRY_MS = int(os.environ.get("LIVE_RETRY_MS", "1000"))
#: Streams one client may hold open at once, per live process (live.hub: each of LIVE_WORKERS
#: processes counts its own): per address (as the throttles see it, TRUSTED_PROXIES) and per
#: signed-in account; beyond it a stream answers 429. 0 = no cap (the default with THROTTLE_OFF).
LIVE_STREAMS_PER_ADDRESS = int(
    os.environ.get("LIVE_STREAMS_PER_ADDRESS", "0" if env_bool("THROTTLE_OFF", False) else "20")
)
LIVE_STREAMS_PER_ACCOUNT = int(
    os.environ.get("LIVE_STREAMS_PER_ACCOUNT", "0" if env_bool("THROTTLE_OFF", False) else "10")
)

# Clocks (games.clocks, games.services): see docs/operators/clocks.md.
#: A move this late past the deadline still counts, and timeouts wait this long (network lag).
CLOCK_GRACE_SECONDS = float(os.environ.get("CLOCK_GRACE_SECONDS", "1.0"))
#: A table whose first move is not made within this time is aborted (correspondence: one day's allowance).
FIRST_MOVE_SECONDS = float(os.environ.get("FIRST_MOVE_SECONDS", "120"))
#: Deadlines nearer than this get an ETA task; farther ones are left to the sweep.
CLOCK_ETA_HORIZON_SECONDS = float(os.environ.get("CLOCK_ETA_HORIZON_SECONDS", "300"))
#: How often the sweep looks for overdue tables (Celery beat, or scripts/run's in-process sweeper).
CLOCK_SWEEP_SECONDS = float(os.environ.get("CLOCK_SWEEP_SECONDS", "2"))
#: Correspondence vacation days a player may take in a calendar year (games.vacation).
VACATION_DAYS_PER_YEAR = int(os.environ.get("VACATION_DAYS_PER_YEAR", "30"))

# Backstops and health (games.botplay, games.health, common.tasks): see docs/operators/operations.md.
#: A bot on turn this long is sent its turn again by the bot sweep (unless a worker holds the lease).
BOT_SWEEP_AFTER_SECONDS = float(os.environ.get("BOT_SWEEP_AFTER_SECONDS", "10"))
BOT_SWEEP_SECONDS = float(os.environ.get("BOT_SWEEP_SECONDS", "5"))
#: How long a worker computing a bot's move holds the turn (longer than any bot's thinking).
BOT_LEASE_SECONDS = float(os.environ.get("BOT_LEASE_SECONDS", "30"))
#: Readiness fails when a bot has been on turn this long.
BOT_STRANDED_SECONDS = float(os.environ.get("BOT_STRANDED_SECONDS", "120"))
#: Readiness fails when a timeout is this late (past deadline and grace) or the sweep this old.
OVERDUE_SECONDS = float(os.environ.get("OVERDUE_SECONDS", "30"))
#: A finished table's tournament task is looked for by the housekeeping sweep after this.
TASK_SWEEP_AFTER_SECONDS = float(os.environ.get("TASK_SWEEP_AFTER_SECONDS", "60"))
#: After a failed send, sends in the process are skipped this long (the sweeps cover them).
BROKER_BACKOFF_SECONDS = float(os.environ.get("BROKER_BACKOFF_SECONDS", "5"))
#: Each readiness probe of Redis gives up after this.
HEALTH_TIMEOUT_SECONDS = float(os.environ.get("HEALTH_TIMEOUT_SECONDS", "0.5"))

# Celery on Redis. Without REDIS_URL tasks run in-process (eagerly) and the clock sweep
# runs as `manage.py clock_sweeper` beside the web server (scripts/run starts it).
# A sentinel:// REDIS_URL becomes kombu's list of sentinel URLs and its master_name option.
CELERY_BROKER_URL, _BROKER_SENTINEL_OPTIONS = redis_url.broker(REDIS_URL or "memory://localhost/")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
# A task is acknowledged after it ran, and given back if its worker dies: tasks are idempotent.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 45
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
#: Most ETA tasks one worker holds in memory; the rest wait in Redis (the sweep covers them).
CELERY_WORKER_ETA_TASK_LIMIT = int(os.environ.get("CELERY_WORKER_ETA_TASK_LIMIT", "20000"))
# Redis redelivers an unacknowledged task after this; every ETA is far closer (CLOCK_ETA_HORIZON).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, **_BROKER_SENTINEL_OPTIONS}
# A worker whose broker goes away keeps trying to reconnect, however long it takes.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A web request that sends a task while Redis is down waits at most about a second for it
# (then common.tasks logs it and leaves the work to the sweeps).
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TASK_DEFAULT_QUEUE = "default"
#: Clock tasks get their own queue (and workers), so slow work never delays a timeout.
CLOCK_QUEUE = os.environ.get("CLOCK_QUEUE", "clocks")
BOT_QUEUE = os.environ.get("BOT_QUEUE", "bots")
CELERY_TASK_ROUTES = {
    "games.tasks.clock_*": {"queue": CLOCK_QUEUE},
    # The bot sweep only sends tasks: with the clocks, not behind the bots' searches.
    games_tasks.BOT_SWEEP: {"queue": CLOCK_QUEUE},
    # Bots think for up to seconds: their own queue and workers, so they never delay a clock.
    "games.tasks.bot_*": {"queue": BOT_QUEUE},
    "ratings.tasks.*": {"queue": "slow"},
    "tournaments.tasks.*": {"queue": "slow"},
    # The lost-analysis sweep only sends tasks: the default queue, not behind the analyses.
    "analysis.tasks.analysis_sweep": {"queue": "default"},
    # Game analysis and the bot ladder: searches of seconds to minutes, never before a move.
    "analysis.tasks.*": {"queue": "slow"},
    # Mail and notification sweeps: the default queue (or MAIL_QUEUE), never behind clocks or bots.
    "accounts.tasks.*": {"queue": os.environ.get("MAIL_QUEUE", "default")},
}
CELERY_BEAT_SCHEDULE = beat.schedule(
    CLOCK_SWEEP_SECONDS=CLOCK_SWEEP_SECONDS,
    BOT_SWEEP_SECONDS=BOT_SWEEP_SECONDS,
    CALENDAR_TICK_SECONDS=CALENDAR_TICK_SECONDS,
    PLAY_NOW_WAVE_SECONDS=PLAY_NOW_WAVE_SECONDS,
    RETENTION_HOUR=RETENTION_HOUR,
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Every line carries the request, task, table and ply it belongs to (common.logging): as JSON
    # fields in production (or with LOG_FORMAT=json), else as a short suffix of the plain text.
    "filters": {
        "context": {"()": "common.logging.ContextFilter"},
        "quiet_readiness": {"()": "common.logging.QuietReadiness"},
    },
    "formatters": {
        "json": {"()": "common.logging.JsonFormatter"},
        "text": {"()": "common.logging.TextFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["context"],
            "formatter": "json"
            if os.environ.get("LOG_FORMAT", "json" if PRODUCTION else "text").strip().lower() == "json"
            else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "celery": {"level": "WARNING"},
        # Readiness answering 503 is logged once per change of state (games.health), not by Django
        # at ERROR on every probe.
        "django.request": {"filters": ["quiet_readiness"]},
        # A line per timeout applied: in production's logs; off the local console (scripts/run),
        # where the demo's bots would print one a second. A line per move only at DEBUG
        # (GAME_LOG_LEVEL=DEBUG): at hundreds of moves a second it would be gigabytes a day.
        "games.services": {"level": os.environ.get("GAME_LOG_LEVEL", "INFO" if PRODUCTION else "WARNING")},
    },
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Prometheus scrapes the service directly, over plain http inside the network (config.metrics).
    SECURE_REDIRECT_EXEMPT = [r"^metrics$"]
    # SECURE_COOKIES=false only for a local container served over plain http.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
