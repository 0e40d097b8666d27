"""Tables of three and four in the history: every deal's summary covers every seat and agrees with
the engine, per-seat rows (partners sharing a result), the replay equal to the live game at every
step, and the rebuild command rebuilding them the same.

Games are made only through the services (``game_create_table`` / ``game_accept``), the people
playing random legal moves against easy computers (the ``three`` and ``four`` fixtures of
``tests/history/conftest.py``).
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.engine.actions import action_from_dict
from games.engine.cards import parse_card, parse_cards
from games.engine.deck import commitment, deal_seed, shuffle
from games.engine.game import GameState, apply, new_game
from games.engine.scoring import score_hand
from games.history.models import PlayerGame
from games.history.replay import replay_steps
from games.play.models import Game, Move, Round

pytestmark = pytest.mark.django_db


def _deal_ends(game: Game) -> dict[tuple[int, int], GameState]:
    """The engine's last state of every deal, replaying the log here (not with the history code)."""
    state = new_game(game.house_rules, bytes.fromhex(game.secret))
    ends = {}
    for move in Move.objects.filter(game=game).order_by("seq"):
        state, events = apply(state, action_from_dict(move.action))
        assert [e.to_dict() for e in events] == move.events
        if state.deck:
            ends[(state.game_no, state.deal_no)] = state
    return ends


def _check_deal(game: Game, rnd: Round, end: GameState) -> None:
    s = rnd.summary
    n = game.players
    sides, size = (2 if n == 4 else n), (6 if n == 2 else 5)
    teams = [list(range(side, n, sides)) for side in range(sides)]
    assert (s["players"], s["teams"], s["dealer"]) == (n, teams, rnd.dealer)
    assert s["pone"] == (s["dealer"] + 1) % n
    # As dealt: one card at a time from the seed's deck, starting left of the dealer; with three
    # players the next card to the crib; the starter after those.
    seed = deal_seed(bytes.fromhex(game.secret), rnd.game_no, rnd.deal_no)
    assert commitment(seed) == rnd.commitment
    deck = [str(c) for c in shuffle(seed)]
    assert [len(h) for h in s["hands"]] == [size] * n
    for i in range(n * size):
        assert deck[i] in s["hands"][(s["dealer"] + 1 + i) % n]
    assert s["crib_card"] == (deck[15] if n == 3 else None)
    if s["starter"]:
        assert s["starter"] == deck[16 if n == 3 else n * size]
        for seat in range(n):
            assert len(s["discards"][seat]) == (2 if n == 2 else 1)
            assert sorted(s["kept"][seat] + s["discards"][seat]) == sorted(s["hands"][seat])
        laid = [c for d in s["discards"] for c in d] + ([s["crib_card"]] if n == 3 else [])
        assert sorted(s["crib"]) == sorted(laid) and len(s["crib"]) == 4
    # The same as the engine's own state at the end of the deal.
    assert s["hands"] == [[str(c) for c in h] for h in end.hands_dealt]
    assert s["scores_after"] == list(end.scores) and len(s["scores_after"]) == sides
    plays = [(line["seat"], line["card"]) for line in s["pegging"] if line["kind"] == "play"]
    assert plays == [(seat, str(card)) for seat, card in end.plays]
    for seat, card in plays:
        assert card in s["kept"][seat]
    assert [(e["seat"], e["kind"], e["cards"]) for e in s["show"]] == [
        (e.seat, e.kind, [str(c) for c in e.cards]) for e in end.show]
    # Every show: the hands clockwise from the dealer's left, then the dealer's crib; each total is
    # the scoring of those cards and its breakdown adds up.
    order = [(s["dealer"] + k) % n for k in range(1, n + 1)] + [s["dealer"]]
    assert [e["seat"] for e in s["show"]] == order[: len(s["show"])]
    if s["complete"]:
        assert [e["kind"] for e in s["show"]] == ["hand"] * n + ["crib"]
    for entry in s["show"]:
        if entry["status"] == "skipped":
            continue
        crib = entry["kind"] == "crib"
        total = score_hand(parse_cards(entry["cards"]), parse_card(entry["starter"]), crib=crib)
        assert entry["total"] == total.total == sum(g["points"] for g in entry["groups"])
    # Points are the seat's (who laid the card, counted the hand); scores the side's.
    for side, seats in enumerate(teams):
        made = sum(sum(s["points"][seat].values()) for seat in seats)
        assert s["scores_before"][side] + made == s["scores_after"][side]
    assert (s["timeline"][-1] if s["timeline"] else s["scores_before"]) == s["scores_after"]


def _check_summaries(game: Game) -> list[Round]:
    rounds = list(Round.objects.filter(game=game))
    ends = _deal_ends(game)
    assert rounds and [(r.game_no, r.deal_no) for r in rounds] == sorted(ends)
    for rnd in rounds:
        _check_deal(game, rnd, ends[(rnd.game_no, rnd.deal_no)])
    assert rounds[-1].summary["scores_after"] == game.result["scores"]
    assert rounds[-1].summary["won_by"] == game.winner_seat
    assert all(r.summary["complete"] for r in rounds[:-1])
    return rounds


# --- summaries and rows -------------------------------------------------------------------------


def test_a_three_player_game_is_summarised_seat_by_seat(three, alice):
    game, _ = three
    assert game.status == Game.Status.FINISHED and game.players == 3 and game.vs_computer
    _check_summaries(game)
    rows = {r.seat: r for r in PlayerGame.objects.filter(game=game)}
    final = game.result["scores"]
    result = game.result["games"][0]
    assert sorted(rows) == [0, 1, 2] and rows[0].user == alice and rows[1].user is rows[2].user is None
    for seat, row in rows.items():
        assert row.players == 3 and row.opponent is None and row.partner is None and row.partner_name == ""
        assert row.result == ("win" if seat == game.winner_seat else "loss")
        assert row.score == final[seat]
        assert row.opponent_score == max(s for i, s in enumerate(final) if i != seat)
        assert row.margin == min(row.score, 61) - min(row.opponent_score, 61)  # the spread from the hole
        assert row.skunks_taken == (result["skunks"][seat] >= 1)
        assert row.skunks_given == (seat == game.winner_seat and result["skunk"] >= 1)
        assert row.replayed and row.deals == Round.objects.filter(game=game).count()
    # Computers of one level are numbered so the record can tell them apart.
    assert rows[0].opponent_name == "Computer 1 (easy) and Computer 2 (easy)"
    assert rows[1].opponent_name == "alice and Computer 2 (easy)"
    shown = [min(s, game.target) for s in final]  # the winner stands in the game hole
    assert rows[0].score_line == "–".join(str(shown[(0 + k) % 3]) for k in range(3))
    assert rows[2].score_line == "–".join(str(shown[(2 + k) % 3]) for k in range(3))
    assert sum(r.won for r in rows.values()) == 1


def test_a_four_player_game_has_partners_sharing_a_result(four, alice, bob, carol):
    game, _ = four
    assert game.players == 4 and not game.vs_computer and game.winner_seat in (0, 1)
    _check_summaries(game)
    rows = {r.seat: r for r in PlayerGame.objects.filter(game=game)}
    final = game.result["scores"]
    shown = [min(s, game.target) for s in final]  # the winner stands in the game hole
    assert [rows[i].user for i in range(4)] == [alice, bob, carol, None]
    assert (rows[0].partner, rows[0].partner_name) == (carol, "carol")
    assert (rows[2].partner, rows[2].partner_name) == (alice, "alice")
    assert (rows[1].partner, rows[3].partner_name) == (None, "bob")
    assert rows[0].opponent_name == rows[2].opponent_name == "bob & Computer (easy)"
    assert rows[1].opponent_name == "alice & carol"
    for seat, row in rows.items():
        side = seat % 2
        assert row.players == 4 and row.opponent is None
        assert row.result == ("win" if side == game.winner_seat else "loss")
        assert (row.score, row.opponent_score) == (final[side], final[1 - side])
        assert row.margin == shown[side] - shown[1 - side]
        assert row.score_line == f"{shown[side]}–{shown[1 - side]}"
    # Each partner's per-deal figures are their own points, which add up to the side's.
    deals = [r.summary for r in Round.objects.filter(game=game) if r.summary["complete"]]
    for seat, row in rows.items():
        assert row.complete_deals_dealer + row.complete_deals_pone == len(deals)
        assert row.pegging_dealer + row.pegging_pone == sum(d["points"][seat]["pegging"] for d in deals)
        assert row.crib == sum(d["points"][seat]["crib"] for d in deals)


def test_the_replay_equals_the_live_game_at_every_step(three, four):
    for game, snapshots in (three, four):
        steps = list(replay_steps(game))
        assert len(steps) == Move.objects.filter(game=game).count() == len(snapshots) - 1
        assert GameState.from_dict(snapshots[0]) == steps[0].before
        for step in steps:
            assert step.after.to_dict() == snapshots[step.number], f"game {game.pk} step {step.number}"


def test_the_rebuild_command_rebuilds_tables_the_same(three, four):
    def rows() -> list[tuple]:
        return sorted(tuple(sorted((k, str(v)) for k, v in r.items() if k != "id"))
                      for r in PlayerGame.objects.values())

    before = (list(Round.objects.order_by("pk").values_list("summary", flat=True)), rows())
    Round.objects.update(summary={})
    PlayerGame.objects.all().delete()
    call_command("history_rebuild", stdout=StringIO())
    assert (list(Round.objects.order_by("pk").values_list("summary", flat=True)), rows()) == before
