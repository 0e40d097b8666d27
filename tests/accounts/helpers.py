"""A player with a bit of everything, for the tests of their own data: a finished rated game, a
rated game in progress, a seek, invitations, a running rated tournament with a match in play and
an upcoming one."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.engine.rules import HouseRules
from games.play import services as game_services
from games.play.models import Connection, Game
from games.tournaments import services as tournament_services
from games.tournaments.models import Tournament
from tests.history.helpers import finish_between
from tests.play.factories import human_game, make_user
from tests.tournaments.helpers import active_matches, make_tournament, resign_match

PASSWORD = "peg-out-at-121!"


@dataclass
class World:
    alice: object  # the player who leaves
    bob: object
    carol: object
    dave: object
    finished: Game  # rated, alice v bob, over before she leaves
    in_play: Game  # rated, alice v carol, in progress
    seek: Game
    invitation: Game  # carol invites alice
    table: Game  # dave's table of three, a seat kept for alice
    tournament: Tournament  # running, rated: alice's round-2 match in play
    upcoming: Tournament


def make_world() -> World:
    alice = get_user_model().objects.create_user(
        "alice", email="alice@example.com", password=PASSWORD, first_name="Alice", last_name="Liddell")
    bob, carol, dave = make_user("bob"), make_user("carol"), make_user("dave")
    finished = finish_between(alice, bob, rated=True)
    in_play = human_game(alice, carol, rated=True)
    seek = game_services.game_create_seek(user=alice, rules=HouseRules())
    invitation = game_services.game_create_seek(user=carol, rules=HouseRules(), invited=alice)
    table = game_services.game_create_table(
        user=dave, rules=HouseRules(players=3),
        seats=[{"kind": "invite", "user": alice}, {"kind": "computer", "level": "easy"}])

    # A rated round robin of four: alice entered by the organiser (a notice names her), wins her
    # first match; in round two her match is in play when she leaves.
    t = make_tournament([bob, carol, dave], name="Winter Open", format=Tournament.Format.ROUND_ROBIN,
                        rated=True)
    tournament_services.entrant_add(tournament_id=t.pk, user=alice)
    tournament_services.tournament_start(tournament_id=t.pk)
    for m in active_matches(t):
        resign_match(m, m.entrant2 if m.entrant2.user_id == alice.pk else m.entrant1)
    t.refresh_from_db()
    assert t.current_round == 2
    assert any(alice.pk in (m.entrant1.user_id, m.entrant2.user_id) for m in active_matches(t))
    upcoming = make_tournament([alice, bob], name="Spring Open")
    Connection.objects.create(game=in_play, user=alice, channel_name="alice-socket", last_seen=timezone.now())
    return World(alice, bob, carol, dave, finished, in_play, seek, invitation, table, t, upcoming)
