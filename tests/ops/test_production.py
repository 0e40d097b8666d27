"""The production set-up: settings with DEBUG off, `make serve`, the operator's log and /health/."""

from __future__ import annotations

import json
import logging
import os
import random
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db.utils import OperationalError
from django.test import override_settings

from cribsite import serve
from games.pages.views import site as views_site
from games.play import services
from games.play.models import Move
from tests.live.support import as_form, load, next_turn, two_players
from tests.ops.support import ROOT, closed_port
from tests.play.factories import computer_game, make_user, play_out

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "cribbage.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://cribbage.example.org",
    "DATABASE_URL": "postgres://cribbage@127.0.0.1:5432/cribbage",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SITE_URL": "https://cribbage.example.org",
    "EMAIL_HOST": "smtp.example.org",
}
# Variables of the test run that must not leak into a "fresh" production process.
SCRUBBED = ("DEBUG", "SECRET_KEY", "HTTPS", "SECURE_COOKIES", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
            "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "CSRF_TRUSTED_ORIGINS",
            "DJANGO_ALLOW_ASYNC_UNSAFE",  # the test run's own (tests/conftest.py)
            "SITE_URL", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD", "EMAIL_USE_TLS")


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env.update(PRODUCTION)
    env.update(extra)
    env["PYTHONPATH"] = str(ROOT)
    return env


def manage(*args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args], env=environment(**extra), cwd=ROOT,
        capture_output=True, text=True, timeout=120,
    )


def production_settings(**extra: str) -> dict:
    script = """
import json
from django.conf import settings
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SECURE_REDIRECT_EXEMPT": settings.SECURE_REDIRECT_EXEMPT,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
    "SECURE_PROXY_SSL_HEADER": settings.SECURE_PROXY_SSL_HEADER,
    "STATICFILES": settings.STORAGES["staticfiles"]["BACKEND"],
    "MIDDLEWARE": settings.MIDDLEWARE,
    "DATABASE": settings.DATABASES["default"]["ENGINE"],
    "DB_OPTIONS": settings.DATABASES["default"].get("OPTIONS", {}),
    "LAYER": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "CACHE": settings.CACHES["default"]["BACKEND"],
    "SESSION_ENGINE": settings.SESSION_ENGINE,
    "RATE_LIMIT_MOVES": settings.RATE_LIMIT_MOVES,
    "RATE_LIMIT_LOGIN_FAILURES": settings.RATE_LIMIT_LOGIN_FAILURES,
}))
"""
    result = manage("shell", "-c", script, **extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# --- settings ------------------------------------------------------------------------------------


def test_check_deploy_reports_nothing_with_the_production_settings():
    result = manage("check", "--deploy", "--fail-level", "DEBUG")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_the_production_settings_are_hardened():
    s = production_settings()
    assert s["DEBUG"] is False
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"] and s["SECURE_SSL_REDIRECT"]
    assert s["SECURE_HSTS_SECONDS"] >= 31536000
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    # A load balancer's plain-HTTP probe of /health/ is not redirected to https.
    assert any(re.search(p, "health/") for p in s["SECURE_REDIRECT_EXEMPT"])
    assert s["STATICFILES"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in s["MIDDLEWARE"]
    assert s["DATABASE"] == "django.db.backends.postgresql"
    assert s["LAYER"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert s["CACHE"] == "games.infra.cache.RedisCache"  # rate limits shared by processes
    assert s["SESSION_ENGINE"] == "games.infra.sessions"  # sessions read from it, kept in the database


def test_postgresql_prepares_the_statements_a_connection_repeats_unless_told_not_to():
    options = production_settings()["DB_OPTIONS"]
    assert options["server_side_binding"] is True and options["prepare_threshold"] == 5
    options = production_settings(DB_PREPARED_STATEMENTS="0")["DB_OPTIONS"]  # behind a pooler
    assert "server_side_binding" not in options and "prepare_threshold" not in options


def test_without_a_shared_cache_sessions_stay_in_the_database_alone():
    s = production_settings(REDIS_URL="")
    assert s["CACHE"] == "django.core.cache.backends.locmem.LocMemCache"
    assert s["SESSION_ENGINE"] == "django.contrib.sessions.backends.db"


@pytest.mark.parametrize("key", ["", "  ", "dev-only-insecure-key-do-not-use-in-production"],
                         ids=["unset", "blank", "the-development-key"])
def test_production_refuses_to_start_without_a_secret_key_of_its_own(key):
    result = manage("check", SECRET_KEY=key)
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_debug_is_off_unless_the_environment_turns_it_on():
    env = environment()
    del env["DEBUG"]
    script = "from django.conf import settings; print(settings.DEBUG, settings.SECURE_SSL_REDIRECT)"
    result = subprocess.run([sys.executable, str(ROOT / "manage.py"), "shell", "-c", script], env=env,
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].split() == ["False", "True"]
    del env["SECRET_KEY"]  # and then, on the development key, it does not start at all
    result = subprocess.run([sys.executable, str(ROOT / "manage.py"), "check"], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "DEBUG=true for development" in result.stderr


def test_development_runs_on_the_development_key():
    assert production_settings(DEBUG="true", SECRET_KEY="")["DEBUG"] is True


def test_plain_http_on_loopback_turns_the_tls_settings_off_and_check_deploy_says_so():
    s = production_settings(HTTPS="false")
    assert not (s["SESSION_COOKIE_SECURE"] or s["CSRF_COOKIE_SECURE"] or s["SECURE_SSL_REDIRECT"])
    assert s["SECURE_HSTS_SECONDS"] == 0
    result = manage("check", "--deploy", HTTPS="false")
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stdout + result.stderr


def test_rate_limits_come_from_the_environment():
    s = production_settings(RATE_LIMIT_MOVES="1200/m", RATE_LIMIT_LOGIN_FAILURES="5/m")
    assert (s["RATE_LIMIT_MOVES"], s["RATE_LIMIT_LOGIN_FAILURES"]) == ("1200/m", "5/m")


def test_a_database_pool_too_small_for_the_threads_is_refused():
    result = manage("check", DB_POOL_MAX="5", HTTP_THREADS="2", SOCKET_THREADS="2")
    assert result.returncode != 0
    assert "DB_POOL_MAX=5 is smaller than HTTP_THREADS + SOCKET_THREADS + 2 (6)" in result.stderr
    assert manage("check", DB_POOL_MAX="6", HTTP_THREADS="2", SOCKET_THREADS="2").returncode == 0


# --- make serve ------------------------------------------------------------------------------------


def test_make_serve_needs_a_secret_key():
    env = environment()
    env.pop("SECRET_KEY")
    result = subprocess.run(["make", "-s", "serve"], env=env, cwd=ROOT, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode != 0
    assert "make serve needs SECRET_KEY" in result.stderr


def test_make_run_turns_debug_on_for_its_commands(tmp_path):
    # PY stands in for the venv's python: each command writes the DEBUG it was given. The development
    # server's stand-in returns only once the task worker's (started beside it, in the background) has
    # written, as the real server runs until the worker is up. -o: no install.
    out = tmp_path / "commands"
    stand_in = (f"sh -c 'echo DEBUG=$$DEBUG $$0 $$1 >> {out}; "
                f"[ $$1 != runserver ] || until grep -q task_worker {out}; do :; done'")
    command = ["make", "-s", "-o", ".venv/.installed", "run", f"PY={stand_in}"]
    result = subprocess.run(command, env=environment(DEBUG="false"), cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = out.read_text().split("\n")
    assert lines[0] == "DEBUG=true manage.py migrate"
    assert sorted(lines[1:3]) == ["DEBUG=true manage.py runserver", "DEBUG=true manage.py task_worker"]


def test_serve_refuses_more_than_one_worker_without_redis():
    env = environment()
    env.pop("REDIS_URL")
    command = [sys.executable, "-m", "cribsite.serve", "--workers", "2", "--port", str(closed_port())]
    result = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "needs REDIS_URL" in result.stderr


def test_serve_stops_its_workers_when_the_process_that_started_it_dies(tmp_path):
    """--exit-with-parent (tests, the load benchmark): a killed test run leaves no server behind."""
    log = tmp_path / "serve.log"
    starter = (
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-m', 'cribsite.serve', '--workers', '1', '--port',"
        f" '{closed_port()}', '--exit-with-parent'], stdout=open({str(log)!r}, 'w'),"
        " stderr=subprocess.STDOUT)\n"
        "import time; time.sleep(3)\n"  # long enough for the worker to start
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    subprocess.run([sys.executable, "-c", starter], cwd=ROOT, env=env, timeout=60, check=True)
    deadline = time.monotonic() + 30
    while "is gone; stopping" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    text = log.read_text()
    assert "is gone; stopping" in text, text
    pids = [int(p) for p in re.findall(r"is pid (\d+)", text)]
    assert pids
    time.sleep(1)
    for pid in pids:
        status = Path(f"/proc/{pid}/status")
        assert not status.exists() or "zombie" in status.read_text().lower(), f"worker {pid} still runs"


def test_serve_runs_daphne_on_consecutive_ports():
    command = serve.daphne_command("127.0.0.1", 8001, proxy_headers=True, access_log=False)
    assert command[-1] == "cribsite.asgi:application"
    assert command[command.index("-p") + 1] == "8001" and "--proxy-headers" in command
    assert command[command.index("-v") + 1] == "0"


# --- the operator's log ----------------------------------------------------------------------------

ACTION_LINE = re.compile(r"^game=\d+ user=(\d+|computer) action=[a-z_]+ version=\d+ latency_ms=\d+\.\d$")


@pytest.mark.django_db
def test_every_action_logs_one_line_with_game_user_action_version_and_latency(caplog):
    caplog.set_level(logging.INFO, logger="games.actions")
    game, alice, bob = two_players()
    rng = random.Random(4)
    for _ in range(6):
        state = load(game)
        seat, action = next_turn(state, rng)
        services.game_act(user=(alice, bob)[seat], game_id=game.pk, version=game.version,
                          action=as_form(action))
    lines = [r.getMessage() for r in caplog.records if r.name == "games.actions"]
    lines = [line for line in lines if "latency_ms" in line]
    assert len(lines) == 6
    assert all(ACTION_LINE.match(line) for line in lines), lines
    assert [int(re.search(r"version=(\d+)", line).group(1)) for line in lines] == list(range(2, 8))


@pytest.mark.django_db
def test_the_computers_actions_are_logged_too(caplog):
    caplog.set_level(logging.INFO, logger="games.actions")
    user = make_user("solo")
    game = computer_game(user)
    play_out(game, {0: user}, random.Random(2), stop=lambda _: Move.objects.filter(game=game).count() >= 20)
    computer = [r.getMessage() for r in caplog.records if "user=computer" in r.getMessage()]
    assert computer
    assert all(ACTION_LINE.match(line) for line in computer), computer


def test_the_log_line_names_the_time_level_and_process():
    from django.conf import settings

    fmt = settings.LOGGING["formatters"]["plain"]["format"]
    assert "%(asctime)s" in fmt and "%(levelname)s" in fmt and "%(process)d" in fmt


# --- /health/ ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_health_is_200_json_when_the_database_and_the_channel_layer_answer(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    body = response.json()
    assert body["ok"] is True
    assert body["database"]["ok"] is True and body["channel_layer"]["ok"] is True
    assert body["database"]["ms"] >= 0 and body["channel_layer"]["ms"] >= 0


@pytest.mark.django_db
def test_health_is_503_when_the_database_fails(client, monkeypatch):
    def broken() -> None:
        raise OperationalError("could not connect to server: secret-host.internal")

    monkeypatch.setattr(views_site, "_database_round_trip", broken)
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False and body["database"] == {"ok": False, "error": "OperationalError",
                                                         "ms": body["database"]["ms"]}
    assert body["channel_layer"]["ok"] is True
    assert b"secret-host" not in response.content  # a public probe does not describe the infrastructure


@pytest.mark.django_db
def test_health_is_503_when_the_channel_layer_cannot_be_reached(client):
    unreachable = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{closed_port()}/0"]},
        }
    }
    with override_settings(CHANNEL_LAYERS=unreachable):
        response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["channel_layer"]["ok"] is False and body["database"]["ok"] is True


@pytest.mark.django_db
def test_health_does_not_hang_when_the_channel_layer_does(client, monkeypatch):
    from channels.layers import get_channel_layer

    async def never(channel):
        import asyncio

        await asyncio.sleep(30)

    monkeypatch.setattr(get_channel_layer(), "receive", never)
    monkeypatch.setattr(views_site, "HEALTH_TIMEOUT_SECONDS", 0.3)
    started = time.monotonic()
    response = client.get("/health/")
    assert time.monotonic() - started < 5
    assert response.status_code == 503
    assert response.json()["channel_layer"]["error"] == "TimeoutError"


# --- overload ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_no_free_database_connection_is_a_503_with_retry_after_not_a_500(client, monkeypatch):
    from psycopg_pool import PoolTimeout

    def exhausted(**kwargs):
        try:
            raise PoolTimeout("couldn't get a connection after 20.00 sec")
        except PoolTimeout as exc:
            raise OperationalError(str(exc)) from exc

    game, alice, _ = two_players()
    client.force_login(alice)
    monkeypatch.setattr(services, "game_act", exhausted)
    response = client.post(f"/games/{game.pk}/act/", {"version": game.version, "type": "go"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "very busy" in response.content.decode()


@pytest.mark.django_db
def test_other_database_errors_are_still_errors(client, monkeypatch):
    def broken(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    game, alice, _ = two_players()
    client.force_login(alice)
    monkeypatch.setattr(services, "game_act", broken)
    with pytest.raises(OperationalError):
        client.post(f"/games/{game.pk}/act/", {"version": game.version, "type": "go"})


def test_the_forfeit_command_exists_and_runs():
    result = subprocess.run([sys.executable, str(ROOT / "manage.py"), "tournament_forfeits", "--help"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "grace period" in result.stdout
