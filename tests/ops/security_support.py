"""The world the hostile-input and authorisation tests attack: Alice and Bob mid-game, an
invitation, a finished game, a started tournament, a stranger and staff; every URL of the site, the
path values that are no id, and the socket routes.

``_quiet`` is autouse in each module that imports it; the ``world`` fixture is in
``tests/ops/conftest.py``."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls.resolvers import RoutePattern
from django.utils.http import urlsafe_base64_encode

from cribsite.routing import websocket_urlpatterns
from games.play import services
from games.play.converters import MAX_ID
from games.play.models import Game, Move, Seat
from games.tournaments import services as tournament_services
from games.tournaments.models import Entrant, Match, Tournament
from tests.live.support import two_players
from tests.ops.urls import Route, admin_model, routes
from tests.play.factories import computer_game, fixed_secrets, make_user

ROUTES = routes()
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _quiet(monkeypatch, settings):
    fixed_secrets(monkeypatch, "ops-security")
    # Limits are tested in test_ratelimit; here they would only turn the fuzzer's requests into 429s
    # (and leave counts behind in the cache).
    settings.RATE_LIMIT_MOVES = "off"
    settings.RATE_LIMIT_LOGIN_FAILURES = "off"
    settings.RATE_LIMIT_LOGIN_FAILURES_PER_IP = "off"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class World:
    """Alice and Bob mid-game, Alice's invitation to Bob, Alice's finished game against the computer,
    a started tournament of Alice and Bob, and Carol, who has nothing to do with any of it."""

    def __init__(self) -> None:
        self.game, self.alice, self.bob = two_players(names=("alice", "bob"))
        self.carol = make_user("carol")
        self.seek = services.game_create_seek(user=self.alice, rules=self.game.house_rules, invited=self.bob)
        self.done = computer_game(self.alice)
        services.game_act(user=self.alice, game_id=self.done.pk, version=self.done.version,
                          action={"type": "resign"})
        self.tournament = Tournament.objects.create(name="Ops Open")
        for user in (self.alice, self.bob):
            tournament_services.tournament_register(user=user, tournament_id=self.tournament.pk)
        tournament_services.tournament_start(tournament_id=self.tournament.pk)
        self.match = Match.objects.filter(tournament=self.tournament).exclude(game=None).first()
        # Staff with every permission: a missing object must be a 404 in the admin's views too.
        self.staff = get_user_model().objects.create_superuser("dora", password=None)
        self.users = {"player": self.alice, "opponent": self.bob, "stranger": self.carol, "anonymous": None,
                      "staff": self.staff}

    def keep_playing(self) -> None:
        """A fuzzed request may end the game (a resign, an abort): start another for the next ones."""
        self.game.refresh_from_db()
        if self.game.status != Game.Status.ACTIVE:
            seek = services.game_create_seek(user=self.alice, rules=self.game.house_rules)
            self.game = services.game_accept(user=self.bob, game_id=seek.pk)

    def value(self, name: str, converter: str, template: str) -> object:
        """A real value for a path parameter (the fuzzer draws others)."""
        objects = {"game": self.game, "tournament": self.tournament, "match": self.match,
                   "entrant": Entrant.objects.first(), "user": self.alice}
        if name == "object_id":
            obj = objects.get(admin_model(template))
            return obj.pk if obj is not None else 1
        return {
            "game_id": self.game.pk, "tournament_id": self.tournament.pk, "match_id": self.match.pk,
            "username": self.alice.username, "token": self.seek.invite_token, "uidb64": "MQ",
        }.get(name, 1 if converter == "id" else 0 if converter == "index" else "x")

    def client(self, role: str, **kwargs) -> Client:
        client = Client(**kwargs)
        if self.users[role] is not None:
            client.force_login(self.users[role])
        return client

    def snapshot(self) -> tuple:
        """Everything a refused request must leave as it was."""
        return (
            tuple(Game.objects.order_by("pk").values_list("pk", "version", "status", "winner_seat")),
            Seat.objects.count(),
            Move.objects.count(),
            tuple(Entrant.objects.order_by("pk").values_list("pk", "withdrawn")),
            tuple(Tournament.objects.order_by("pk").values_list("pk", "status")),
            tuple(Match.objects.order_by("pk").values_list("pk", "status", "winner_id")),
        )

    def game_snapshot(self) -> tuple:
        self.game.refresh_from_db()
        return self.game.version, self.game.state, self.game.status, self.game.moves.count()


# What an id in a path must not be: each is a 404 (a refused handshake for a socket), whatever the view.
NOT_IDS = ["0", "-1", str(2**63), str(10**30), "abc", "ünï", "٣", "１", "007", "+1", "1e3", "-0"]
# Ids the converter takes but no object has: the lookups find nothing rather than overflow a column.
ABSENT_IDS = [str(2**31), str(MAX_ID)]
# Every path value of the walks (test_bad_path_values) and the fuzzer's ids; the last is a password-reset
# link's user id, base64 of 2**63.
PATH_VALUES = [*NOT_IDS, *ABSENT_IDS, urlsafe_base64_encode(str(2**63).encode())]


def socket_routes() -> list[Route]:
    """Every socket route the apps define (not the refusal that takes the other paths)."""
    return [Route("/" + str(p.pattern), p.name, tuple(p.pattern.converters.items()))
            for p in websocket_urlpatterns if isinstance(p.pattern, RoutePattern)]
