"""One settings module, driven by the environment.

DATABASE_URL (default: SQLite file), REDIS_URL (unset: in-memory channel layer, one process only),
SECRET_KEY, DEBUG (default off), ALLOWED_HOSTS, EMAIL_URL-style SMTP settings.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Off unless asked for: a site started without configuration must not show tracebacks and settings
# to the world. `make run` and the test suite turn it on (Makefile, tests/settings.py).
DEBUG = env_bool("DEBUG", False)
# Public (it is in this file), so good for development only: sessions and password-reset links
# signed with it could be forged by anyone.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY.strip():
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off, to a secret value other than the development key: "
        "set SECRET_KEY in the environment (docs/operations.md, Production), or DEBUG=true for development."
    )

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()
]
# A refused token says what happened in the site's words (an htmx request reloads its page).
CSRF_FAILURE_VIEW = "games.pages.views.site.csrf_failure"
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    # daphne first so that `runserver` serves websockets too.
    "daphne",
    # Before the admin: its registration/ templates are the site's own log-in and password pages.
    "games.accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "channels",
    "django_tasks",  # Django's task framework (django.tasks from Django 6 on)
    "django_tasks_db",  # its database backend: tasks are rows in the site's own database
    "games.queue",  # the task worker around it (heartbeats, tasks of dead workers run again)
    "games.play",
    "games.history",
    "games.tournaments",
    "games.puzzles",
    "games.practice",
    "games.correspondence",
    "games.webpush",
    "games.pages",
    "cribsite",  # its system checks: check --deploy warns about an unset SITE_URL or mail server
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # NUL in a path, query, form or cookie: 400 before any lookup (PostgreSQL would raise a 500).
    "cribsite.middleware.RejectNullCharactersMiddleware",
    "cribsite.middleware.DatabaseUnavailableMiddleware",  # database busy or away: 503, not 500
    "cribsite.origin.RequestOriginMiddleware",  # without SITE_URL, emails link to the served origin
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After sessions, auth and messages: a refused log-in gets the page with a message. Last, being
    # sync-only: Django then runs every middleware above it in one thread, with no async hop between.
    "games.accounts.throttle.LoginThrottleMiddleware",
]

ROOT_URLCONF = "cribsite.urls"

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
                "games.accounts.preferences.table_preferences",
                "games.correspondence.menu.your_turn",
            ],
        },
    },
    {
        # The board's components (games/play/components.py says why they are Jinja2).
        "NAME": "components",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "games.play.jinja.environment"},
    },
]

AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]

WSGI_APPLICATION = "cribsite.wsgi.application"
ASGI_APPLICATION = "cribsite.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
# Threads per process that run Django for HTTP requests, and that run the sockets' renders
# (games/infra/threads.py): more requests than HTTP_THREADS at once wait their turn in the event loop.
HTTP_THREADS = int(os.environ.get("HTTP_THREADS", "2"))
SOCKET_THREADS = int(os.environ.get("SOCKET_THREADS", "2"))
# DB_POOL_MAX > 0 (set by `make serve`): a psycopg connection pool per process, for PostgreSQL. Under
# ASGI a thread's connection cannot outlive its request, so CONN_MAX_AGE cannot keep connections;
# without a pool each request and each websocket render would open (and PostgreSQL fork) a new one.
DB_POOL_MAX = int(os.environ.get("DB_POOL_MAX", "0"))
if DB_POOL_MAX and DB_POOL_MAX < HTTP_THREADS + SOCKET_THREADS + 2:
    # Each of those threads holds at most one connection (+2: asgiref's own thread, which channels
    # uses to load a socket's user, and one to spare); a smaller pool would make threads wait.
    raise ImproperlyConfigured(
        f"DB_POOL_MAX={DB_POOL_MAX} is smaller than HTTP_THREADS + SOCKET_THREADS + 2 "
        f"({HTTP_THREADS + SOCKET_THREADS + 2}): raise it or lower the thread counts."
    )
POSTGRESQL = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
if DB_POOL_MAX and POSTGRESQL:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django refuses a pool with persistent connections
    # The same backend, waiting for a pooled connection a second at a time and asking the server
    # between two: a server down or restarting fails the request at once (a 503), not after
    # DB_POOL_TIMEOUT (cribsite/postgresql).
    DATABASES["default"]["ENGINE"] = "cribsite.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2, "max_size": DB_POOL_MAX, "timeout": 1.0,
        # A failed connection attempt is retried with a doubling delay; a short give-up lets the next
        # request start afresh, so the pool is back within a second or two of the server.
        "reconnect_timeout": 3.0,
    }
    # A connection is checked as the pool hands it out (an empty statement, about 50 µs on loopback):
    # after PostgreSQL restarts, the pool's idle connections are dead, and each would fail a request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DB_POOL_TIMEOUT = float(os.environ.get("DB_POOL_TIMEOUT", "20"))
# Parameters sent apart from the statement, and a statement run five times on a connection
# prepared there: PostgreSQL then plans it once, not on every move. Planning was more of its
# CPU than running the statements (bench.load at 200 games: 10% more moves a second with it).
# Off (DB_PREPARED_STATEMENTS=0) behind a pooler that hands each transaction another connection.
if POSTGRESQL and os.environ.get("DB_PREPARED_STATEMENTS", "1") != "0":
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A live daphne in the browser tests runs in another process: it needs a file, not :memory:.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / os.environ.get("TEST_DB_NAME", "test_db.sqlite3"))}
    # BEGIN IMMEDIATE takes the write lock when a transaction starts, so concurrent moves queue up
    # (for up to `timeout` seconds) instead of failing with "database is locked" on upgrade.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Redis pub/sub: a push is one PUBLISH that each worker's one subscription hands to its sockets.
    # The list-based RedisChannelLayer costs a group lookup, a script and a blocking pop per socket:
    # at 200 games this layer served 18% more moves with 17% less CPU a move (docs/performance.md). It
    # delivers at most once; a push lost in a Redis blip is made good by the socket's heartbeat,
    # a socket whose heartbeat does not come back through the layer is closed, so the page
    # shows "Reconnecting…" (games/play/consumers.py), and while the whole layer is away each
    # process polls its games' versions and catches every board up on its return
    # (games/play/layer_watch.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # redis-py's default 5 s socket timeout would cut the subscription's blocking reads.
                # The name marks the layer's connections in Redis's CLIENT LIST.
                "hosts": [{"address": REDIS_URL, "max_connections": 1000, "socket_timeout": None,
                           "client_name": os.environ.get("CHANNEL_PREFIX", "asgi") + "-layer"}],
                "prefix": os.environ.get("CHANNEL_PREFIX", "asgi"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

if REDIS_URL:
    # Shared by every process: rate limits and throttles must hold across them.
    CACHES = {
        "default": {
            "BACKEND": "games.infra.cache.RedisCache",  # Django's, with one client per process
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CHANNEL_PREFIX", "asgi") + "-cache",
            "OPTIONS": {"pool_class": "games.infra.cache.SharedConnectionPool"},  # not one per request
        }
    }
    # Sessions read from that shared cache, kept in the database: one SQL query less on every
    # request. Not with a per-process cache: one worker could keep a session another ended.
    SESSION_ENGINE = "games.infra.sessions"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Rate limits ("N/s", "N/m", "N/h", "N/10s"…; "off" for none), counted in CACHES (games/play/ratelimit.py).
# Moves: generous, a quick player against the computer posts every ~100 ms and must never see it.
RATE_LIMIT_MOVES = os.environ.get("RATE_LIMIT_MOVES", "600/m")  # per user
# Failed log-ins: strict. Over either, every log-in for that address (and username) waits.
RATE_LIMIT_LOGIN_FAILURES = os.environ.get("RATE_LIMIT_LOGIN_FAILURES", "10/m")  # per address + username
RATE_LIMIT_LOGIN_FAILURES_PER_IP = os.environ.get("RATE_LIMIT_LOGIN_FAILURES_PER_IP", "100/m")

# Seconds a player may be away on their own turn before the other may claim the win.
ABSENCE_CLAIM_SECONDS = int(os.environ.get("ABSENCE_CLAIM_SECONDS", "180"))
# A game socket says it is alive this often; one not heard from for PRESENCE_EXPIRES_SECONDS counts
# as gone (its process died), so presence needs no goodbye from a worker that was killed.
PRESENCE_HEARTBEAT_SECONDS = float(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "10"))
PRESENCE_EXPIRES_SECONDS = float(os.environ.get("PRESENCE_EXPIRES_SECONDS", "30"))
# Where the heartbeats go (games/play/presence.py): into the cache when every worker shares it
# (Redis), the database hearing of a socket only when it opens, closes, and every
# PRESENCE_ROW_SECONDS; with a per-process cache, into the database on every beat.
PRESENCE_IN_CACHE = env_bool("PRESENCE_IN_CACHE", bool(REDIS_URL))
PRESENCE_ROW_SECONDS = float(os.environ.get("PRESENCE_ROW_SECONDS", "300"))
# Turn-timer expiries that forfeit a game.
TIMEOUTS_TO_FORFEIT = 3

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))  # collectstatic's target
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # development: read it there
else:
    # Production with no mail server: nothing is sent, each notice is logged as not sent, and no
    # email is printed into the log (check --deploy warns).
    EMAIL_BACKEND = "cribsite.mail.NoMailServerBackend"
# A mail server that stops answering fails the send after this long instead of holding its thread.
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "cribbage@localhost")
# The site's address as emails link to it (turn notices, the daily digest, unsubscribe links).
# Unset: the address the site is served at (cribsite/origin.py); production sets it (check --deploy).
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")

# Web Push: the site's VAPID key pair (base64url, as `manage.py vapid_keys` prints them) signs every
# push, and browsers subscribe with the public half. Unset: no browser notifications, and the account
# page says so. The subject is a contact address push services may write to about the site's pushes.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip() or f"mailto:{DEFAULT_FROM_EMAIL}"

# Work off the move (turn notices, analyses of finished games, the daily summary) is a task, a row
# written in the transaction of the change that causes it and run by `manage.py task_worker`
# (games/queue/worker.py; `make serve` and `make run` start one).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "analysis"]}}
# A worker writes its heartbeat this often; one silent for TASK_WORKER_STALE_SECONDS is dead, and the
# tasks it was running are run again by another.
TASK_WORKER_BEAT_SECONDS = float(os.environ.get("TASK_WORKER_BEAT_SECONDS", "5"))
TASK_WORKER_STALE_SECONDS = float(os.environ.get("TASK_WORKER_STALE_SECONDS", "30"))
# The periodic jobs, run by the task workers (games/queue/scheduler.py): each once a slot, a period
# ("every", seconds) or a time of day ("daily", UTC); a slot is run by one worker however many run,
# and a worker that was away runs a job once for the slot it comes back in. "inline" jobs run in the
# worker's own loop (quick and frequent: their next period is their retry); the others are tasks.
SCHEDULE = {
    "daily_puzzle": {"run": "games.puzzles.jobs.choose_puzzle", "daily": "00:00"},
    "correspondence_clocks": {"run": "games.correspondence.jobs.keep_clocks", "every": 300},
    "daily_digest": {"run": "games.correspondence.jobs.send_digest", "daily": "07:00"},
    "tournament_forfeits": {"run": "games.tournaments.jobs.apply_forfeits", "every": 60, "inline": True},
    "dead_sockets": {"run": "games.play.jobs.close_dead_sockets", "every": 5, "inline": True},
}
# SCHEDULE_JOBS (names, comma-separated; empty for none) keeps only those jobs on this host's workers.
if "SCHEDULE_JOBS" in os.environ:
    _jobs_here = {name.strip() for name in os.environ["SCHEDULE_JOBS"].split(",") if name.strip()}
    SCHEDULE = {name: job for name, job in SCHEDULE.items() if name in _jobs_here}
# /health/ says the queue is not ok when a task due has waited longer than this.
TASK_WAIT_ALERT_SECONDS = float(os.environ.get("TASK_WAIT_ALERT_SECONDS", "300"))
# Finished tasks are kept this long (to read in the admin), then deleted by the worker.
TASK_RESULTS_KEEP_DAYS = int(os.environ.get("TASK_RESULTS_KEEP_DAYS", "7"))

# Seconds a computer player "thinks" between cards, so its plays appear one at a time.
COMPUTER_DELAY_SECONDS = float(os.environ.get("COMPUTER_DELAY_SECONDS", "0.6"))

if not DEBUG:
    # Production is served over TLS (a proxy in front of daphne sets X-Forwarded-Proto). HTTPS=false
    # is for a plain-HTTP site on loopback only, such as the load benchmark: no secure-only cookies,
    # no redirect, no HSTS (and `check --deploy` says so).
    HTTPS = env_bool("HTTPS", True)
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # load balancers probe the processes over plain HTTP
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # One line per action (games.actions: game= user= action= version= latency_ms=); pid tells the
    # daphne processes of `make serve` apart.
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s pid=%(process)d %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    # An outage of Redis, as the channel layer or as the cache, is logged once when it starts and
    # once when it ends, not once a message or request (games/infra/outages.py), on the loggers
    # that report its failures.
    "filters": {"layer_outage": {"()": "games.infra.outages.OutageFilter", "of": "layer"},
                "cache_outage": {"()": "games.infra.outages.OutageFilter", "of": "cache"}},
    "loggers": {
        **{name: {"filters": ["layer_outage"]} for name in (
            "channels_redis.pubsub", "channels_redis.core", "daphne.server", "games.play.broadcast",
            "games.play.consumers", "games.play.layer_watch")},
        **{name: {"filters": ["cache_outage"]} for name in (
            "games.infra.sessions", "games.play.presence", "games.play.ratelimit",
            "games.correspondence.turn_count")},
        "games": {"handlers": ["console"], "level": os.environ.get("GAMES_LOG_LEVEL", "INFO")},
        "cribsite": {"handlers": ["console"], "level": "INFO"},
        # A timestamp at each stage of every move (games/infra/timeline.py): for bench.load --stages.
        "games.timeline": {"level": "DEBUG" if env_bool("TIMELINE_LOG", False) else "WARNING"},
    },
}
if not DEBUG:
    # daphne's command line adds a root handler of its own: print each line once.
    LOGGING["loggers"]["games"]["propagate"] = False
    LOGGING["loggers"]["cribsite"]["propagate"] = False
    # With DEBUG off Django sends a 500's traceback only to mail_admins: print it for the operator.
    LOGGING["loggers"]["django.request"] = {"handlers": ["console"], "level": "ERROR", "propagate": False}
