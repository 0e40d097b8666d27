"""Presence with the heartbeats in the cache (``PRESENCE_IN_CACHE``, as production runs with Redis):
the same rules of who is at the table and when the win may be claimed, with the database written
only when a socket opens, closes, or its row's interval comes round."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from cribsite import settings as site_settings
from games.play import presence
from games.play.models import Connection, ServerProcess
from games.queue import scheduler
from games.queue.models import ScheduledJob
from tests.play.factories import away_for, human_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _beats_in_the_cache(settings):
    settings.PRESENCE_IN_CACHE = True
    cache.clear()
    yield
    cache.clear()


def _row_seen(channel: str, seconds_ago: float) -> None:
    then = timezone.now() - timedelta(seconds=seconds_ago)
    Connection.objects.filter(channel_name=channel).update(last_seen=then)


def _beat_seen(channel: str, seconds_ago: float) -> None:
    cache.set(presence.beat_key(channel), (timezone.now() - timedelta(seconds=seconds_ago)).timestamp(), 3600)


def test_a_beat_keeps_the_player_at_the_table_without_writing_the_row(alice, bob, settings):
    game = human_game(alice, bob)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    _row_seen("bob-1", presence.PRESENCE_EXPIRES_SECONDS + 60)  # the row's time is long past freshness
    before = Connection.objects.get(channel_name="bob-1").last_seen
    assert presence.heartbeats(["bob-1"]) == 0
    assert Connection.objects.get(channel_name="bob-1").last_seen == before
    (bob_seen,) = presence.table(game, 0, ())
    assert bob_seen.here
    assert bob_seen.seen_until > timezone.now() + timedelta(seconds=presence.PRESENCE_EXPIRES_SECONDS - 5)
    # When its interval comes round, the row is written too.
    settings.PRESENCE_ROW_SECONDS = presence.HEARTBEAT_SECONDS / 2
    assert presence.heartbeats(["bob-1"]) == 1
    assert Connection.objects.get(channel_name="bob-1").last_seen > before


def test_a_socket_whose_beats_stopped_is_gone_within_the_stated_time_of_its_last_beat(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    away_for(game, 600)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    _row_seen("bob-1", 200)
    _beat_seen("bob-1", presence.PRESENCE_EXPIRES_SECONDS - 2)
    assert presence.table(game, 0, (1,))[0].here
    _beat_seen("bob-1", presence.PRESENCE_EXPIRES_SECONDS + 2)  # its worker was killed: no more beats
    (bob_seen,) = presence.table(game, 0, (1,))
    assert not bob_seen.here and bob_seen.arrived
    # Away since the last beat, not since the row was written: the claim is not brought forward.
    gone_for = (timezone.now() - bob_seen.away_since).total_seconds()
    assert presence.PRESENCE_EXPIRES_SECONDS <= gone_for < presence.PRESENCE_EXPIRES_SECONDS + 5
    assert not bob_seen.can_claim
    _beat_seen("bob-1", 65)
    assert presence.table(game, 0, (1,))[0].can_claim


def test_a_cache_that_lost_the_beats_makes_no_present_player_claimable(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    away_for(game, 600)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    _row_seen("bob-1", 120)  # the row was last written two minutes ago, within its interval
    cache.clear()  # Redis restarted: every beat is gone
    (bob_seen,) = presence.table(game, 0, (1,))
    assert bob_seen.here and not bob_seen.can_claim
    # A row past its own interval and no beat: gone (a worker killed while the cache was away).
    _row_seen("bob-1", presence.row_window() + 5)
    (bob_seen,) = presence.table(game, 0, (1,))
    assert not bob_seen.here and bob_seen.can_claim


def test_a_cache_that_is_away_sends_the_beat_to_the_row(alice, bob, monkeypatch):
    game = human_game(alice, bob)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    _row_seen("bob-1", 200)

    def refuse(*args, **kwargs):
        raise ConnectionError("the cache is away")

    monkeypatch.setattr(presence.cache, "set_many", refuse)
    monkeypatch.setattr(presence.cache, "get_many", refuse)
    assert presence.heartbeats(["bob-1"]) == 1
    assert (timezone.now() - Connection.objects.get(channel_name="bob-1").last_seen).total_seconds() < 5
    assert presence.table(game, 0, ())[0].here


def test_a_closed_socket_leaves_at_once_and_forgets_its_beat(alice, bob):
    game = human_game(alice, bob)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    assert cache.get(presence.beat_key("bob-1")) is not None
    presence.disconnected(game_id=game.pk, channel_name="bob-1")
    (bob_seen,) = presence.table(game, 0, ())
    assert not bob_seen.here and bob_seen.left_ago == "just now"
    assert cache.get(presence.beat_key("bob-1")) is None


def _process_seen(process: str, seconds_ago: float) -> None:
    then = timezone.now() - timedelta(seconds=seconds_ago)
    ServerProcess.objects.filter(process=process).update(beat_at=then)


def test_a_killed_worker_s_sockets_are_closed_by_the_job_even_after_redis_lost_their_beats(
        alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    settings_schedule = {"dead_sockets": site_settings.SCHEDULE["dead_sockets"]}
    told: list[int] = []
    monkeypatch.setattr(presence.broadcast, "presence_changed", told.append)
    game = human_game(alice, bob)
    away_for(game, 600)
    for process, user, channel in (("worker-killed", bob, "bob-1"), ("worker-alive", alice, "alice-1")):
        monkeypatch.setattr(presence, "PROCESS", process)
        presence.connected(game_id=game.pk, user=user, channel_name=channel)
        presence.heartbeats([channel])  # the process's first beat
    cache.clear()  # Redis restarted: every beat is gone, and the rows were written minutes ago
    _row_seen("bob-1", 120)
    _row_seen("alice-1", 120)
    # Silent a little less than the limit: a slow process, not a dead one.
    _process_seen("worker-killed", presence.PROCESS_SILENT_SECONDS - 2)
    with override_settings(SCHEDULE=settings_schedule):
        assert scheduler.tick(now=timezone.now()) == ["dead_sockets"]
    assert presence.table(game, 0, (1,))[0].here
    # Past it: the job closes the dead process's row, as of its last beat, and tells the table.
    _process_seen("worker-killed", presence.PROCESS_SILENT_SECONDS + 1)
    with override_settings(SCHEDULE=settings_schedule), django_capture_on_commit_callbacks(execute=True):
        assert scheduler.tick(now=timezone.now() + timedelta(seconds=10)) == ["dead_sockets"]
    assert ScheduledJob.objects.get(name="dead_sockets").outcome == "1 sockets closed"
    assert told == [game.pk]
    (bob_seen,) = presence.table(game, 0, (1,))
    assert not bob_seen.here and bob_seen.arrived
    gone_for = (timezone.now() - bob_seen.away_since).total_seconds()
    assert presence.PROCESS_SILENT_SECONDS < gone_for < presence.PROCESS_SILENT_SECONDS + 5
    # The live process's row stays open, and only the dead process was forgotten.
    assert presence.table(game, 1, ())[0].here
    assert list(ServerProcess.objects.values_list("process", flat=True)) == ["worker-alive"]


def test_a_process_taken_for_dead_that_beats_again_opens_its_sockets_again(alice, bob, monkeypatch):
    game = human_game(alice, bob)
    monkeypatch.setattr(presence, "PROCESS", "worker-stalled")
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    presence.heartbeats(["bob-1"])
    _process_seen("worker-stalled", presence.PROCESS_SILENT_SECONDS + 1)
    assert presence.close_dead() == 1
    assert not presence.table(game, 0, ())[0].here
    # A socket that opens on it meanwhile does not hide that it was taken for dead.
    presence.connected(game_id=game.pk, user=alice, channel_name="alice-1")
    presence.heartbeats(["bob-1", "alice-1"])  # its event loop was only busy
    assert presence.table(game, 0, ())[0].here
    assert Connection.objects.get(channel_name="bob-1").closed_at is None


def test_a_killed_process_is_seen_to_go_within_the_stated_time():
    # The job's period plus the silence it waits for stays within PRESENCE_EXPIRES_SECONDS of the
    # process's last beat, and a live process beats (with its sockets) well inside that silence.
    period = float(site_settings.SCHEDULE["dead_sockets"]["every"])
    assert presence.PROCESS_SILENT_SECONDS + period <= presence.PRESENCE_EXPIRES_SECONDS
    assert presence.PROCESS_SILENT_SECONDS >= 2 * presence.HEARTBEAT_SECONDS
