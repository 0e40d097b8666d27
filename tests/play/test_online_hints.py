"""Discard hints in a casual game between two people (a house rule, never in rated or
tournament games): each player sees the table for their own hand only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from games.play.templatetags.cribbage import card_short
from tests.play.factories import act, load, logged_in

pytestmark = pytest.mark.django_db

SEEK = {"seek-target": "121", "seek-match_games": "1", "seek-peg_out_zone": "0", "seek-turn_timer": "0",
        "seek-skunks": "on"}


def _cut_to_discard(game: Game, alice, bob) -> None:
    for user in (alice, bob):
        state = load(game)
        if state.phase != "cut":
            break
        seat = game.seat_of(user)
        if seat in state.to_act:
            services.game_act(user=user, game_id=game.pk, version=game.version,
                              action={"type": "cut_for_deal", "position": str(3 + seat * 10)})
            game.refresh_from_db()
    while load(game).phase == "cut":  # equal cards: cut again
        state = load(game)
        user = [alice, bob][state.to_act[0]]
        services.game_act(user=user, game_id=game.pk, version=game.version,
                          action={"type": "cut_for_deal", "position": str(20 + game.version)})
        game.refresh_from_db()


def test_a_casual_seek_with_hints_shows_each_player_their_own_table(alice, bob):
    page = logged_in(alice).post(reverse("new_seek"), {**SEEK, "seek-opponent": "bob", "seek-hints": "on"})
    assert page.status_code == 302
    seek = Game.objects.get(created_by=alice)
    assert seek.hints and "discard hints" in seek.rules_summary()
    game = services.game_accept(user=bob, game_id=seek.pk)
    _cut_to_discard(game, alice, bob)
    state = load(game)
    assert state.phase == "discard"
    for user in (alice, bob):
        html = logged_in(user).get(reverse("game", args=[game.pk])).content.decode()
        assert 'class="hints"' in html
        own = state.hands[game.seat_of(user)]
        other = state.hands[1 - game.seat_of(user)]
        table = html.split('class="hints"', 1)[1].split("</details>", 1)[0]
        assert all(card_short(c) in table for c in own)  # 10♠, as players write it, not T♠
        assert not any(card_short(c) in table for c in other if c not in own)


def test_a_rated_seek_cannot_have_hints(alice):
    page = logged_in(alice).post(reverse("new_seek"), {**SEEK, "seek-rated": "on", "seek-hints": "on"})
    assert page.status_code == 400 and "Rated games have no discard hints." in page.content.decode()
    assert not Game.objects.filter(created_by=alice).exists()
    with pytest.raises(services.ServiceError):
        services.game_create_seek(user=alice, rules=HouseRules(), rated=True, hints=True)


def test_a_rematch_keeps_the_hints(alice, bob):
    seek = services.game_create_seek(user=alice, rules=HouseRules(target=61), invited=bob, hints=True)
    game = services.game_accept(user=bob, game_id=seek.pk)
    act(game, bob, {"type": "resign"})
    again = services.game_rematch(user=alice, game_id=game.pk)
    assert again.hints and again.invited_id == bob.pk


def test_the_hint_gives_each_split_s_chance_to_win_best_first(alice, bob):
    from games.engine.players.discard_chances import discard_chances

    seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob, hints=True)
    game = services.game_accept(user=bob, game_id=seek.pk)
    _cut_to_discard(game, alice, bob)
    state = load(game)
    seat = game.seat_of(alice)
    html = logged_in(alice).get(reverse("game", args=[game.pk])).content.decode()
    table = html.split('class="hints"', 1)[1].split("</details>", 1)[0]
    assert "To win" in table
    chances = discard_chances(state.hands[seat], state.dealer == seat, 0, 0, pegging=True)
    rows = table.split("<tr")[2:]  # the header row first
    assert len(rows) == 15
    assert f"{chances[0].win:.0%}" in rows[0] and "−" not in rows[0]  # the best gives nothing away
    lost = chances[0].win - chances[-1].win
    assert f"−{lost * 100:.1f}%" in rows[-1]



@pytest.mark.parametrize("rules", [
    HouseRules(), HouseRules(target=61), HouseRules(peg_out_zone=5),
], ids=["121", "61", "peg-out-zone"])
def test_the_hint_s_first_split_is_the_expert_s_lay_away(rules: HouseRules):
    # The hint ranks the splits as the expert does, so over many deals and scores its first row is
    # the expert's own lay-away.
    import random
    from types import SimpleNamespace

    from games.engine.cards import DECK
    from games.engine.players import choose_action
    from games.engine.testing import start_deal
    from games.engine.view import view
    from games.play.board.player import _hints

    table = SimpleNamespace(hints=True, rated=False)
    rng = random.Random(f"hints:{rules}")
    for i in range(30):
        cards = rng.sample(DECK, 13)
        hands = [cards[:6], cards[6:12]]
        scores = [rng.randrange(0, rules.target - 1) for _ in range(2)]
        state = start_deal(rules, dealer=i % 2, hands=hands, starter=cards[-1], scores=scores)
        for seat in range(2):
            v = view(state, seat)
            laid = frozenset(choose_action(v, "expert", random.Random(i)).cards)
            assert frozenset(_hints(table, v)[0]["option"].laid_away) == laid, (hands[seat], scores, seat)
