"""The text download shows every manual count: the claim, the true count, what was pegged, and the
over-count penalty or the muggins with the seat that pegged it."""

from __future__ import annotations

import pytest

from games.engine.rules import HouseRules
from games.history.export import claim_lines, game_text
from games.history.summaries import summaries_for

from .helpers import finish_between

NAMES = ["alice", "bob"]


def entry(seat: int = 0, *, claimed: int | None, total: int, muggins: int = 0, kind: str = "hand",
          status: str = "done") -> dict:
    awarded = total if claimed is None or claimed > total else claimed
    return {"seat": seat, "kind": kind, "status": status, "claimed": claimed, "total": total,
            "awarded": awarded, "muggins": muggins}


def test_an_exact_claim_says_what_was_pegged() -> None:
    assert claim_lines(entry(claimed=6, total=6), NAMES, muggins=True) == [
        "alice claims 6, true count 6: 6 pegged"]


def test_an_over_count_shows_the_true_count_and_the_penalty_to_the_opponent() -> None:
    assert claim_lines(entry(claimed=10, total=6, muggins=4), NAMES, muggins=True) == [
        "alice claims 10, true count 6: 4 too many, 6 pegged",
        "Over-count penalty: bob pegs 4",
    ]


def test_an_over_count_without_muggins_has_no_penalty() -> None:
    assert claim_lines(entry(claimed=10, total=6), NAMES, muggins=False) == [
        "alice claims 10, true count 6: 4 too many, 6 pegged"]


def test_an_over_count_that_takes_its_counter_out_comes_before_the_penalty() -> None:
    lines = claim_lines(entry(claimed=10, total=6, muggins=4), NAMES, muggins=True, won_by=0)
    assert lines[-1] == "Over-count penalty: none, alice went out first"


def test_an_under_count_with_muggins_called_by_the_dealer() -> None:
    assert claim_lines(entry(seat=1, claimed=4, total=6, muggins=2), NAMES, muggins=True) == [
        "bob claims 4, true count 6: 2 missed, 4 pegged",
        "Muggins: alice calls it and pegs 2",
    ]


def test_an_under_count_of_the_crib_with_muggins_called_by_the_pone() -> None:
    crib = entry(seat=0, claimed=0, total=8, muggins=8, kind="crib")
    assert claim_lines(crib, NAMES, muggins=True) == [
        "alice claims 0, true count 8: 8 missed, 0 pegged",
        "Muggins: bob calls it and pegs 8",
    ]


def test_an_under_count_the_opponent_lets_stand_loses_the_rest() -> None:
    assert claim_lines(entry(claimed=4, total=6), NAMES, muggins=True)[-1] == (
        "Muggins: bob lets the count stand; the 2 missed are lost")
    assert claim_lines(entry(claimed=4, total=6), NAMES, muggins=False)[-1] == (
        "No muggins in this game: the 2 missed are lost")


def test_with_four_players_the_seat_on_the_counters_left_takes_the_muggins() -> None:
    names = ["ann", "ben", "cat", "dan"]
    assert claim_lines(entry(seat=3, claimed=2, total=5, muggins=3), names, muggins=True)[-1] == (
        "Muggins: ann calls it and pegs 3")


def test_a_count_by_the_site_or_skipped_has_no_claim_line() -> None:
    assert claim_lines(entry(claimed=None, total=12), NAMES, muggins=False) == []
    skipped = {"seat": 0, "status": "skipped", "claimed": None, "total": None, "awarded": 0, "muggins": 0}
    assert claim_lines(skipped, NAMES, muggins=True) == []


@pytest.mark.django_db
def test_the_download_of_a_manual_game_lists_every_claim(alice, bob) -> None:
    game = finish_between(alice, bob, seed=3, rules=HouseRules(target=61, manual_counting=True, muggins=True))
    text = game_text(game)
    shows = [s for deal in summaries_for(game) for s in deal["show"] if s["claimed"] is not None]
    assert any(s["claimed"] > s["total"] for s in shows), "the random play over-counted at least once"
    assert any(s["claimed"] < s["total"] for s in shows), "and under-counted at least once"
    for s in shows:
        assert f"{NAMES[s['seat']]} claims {s['claimed']}, true count {s['total']}: " in text
    penalties = [s for s in shows if s["claimed"] > s["total"] and s["muggins"]]
    assert text.count("Over-count penalty: ") >= len(penalties) > 0
    assert "(worth " not in text
