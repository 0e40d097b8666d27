"""The puzzle's page (no answer before answering), the engine's table and words after, the archive,
and a player's record: streaks across days, driven by the puzzles' clock."""

from __future__ import annotations

import json
from datetime import date

import pytest

from games.play.templatetags.cribbage import card_short
from games.puzzles import services
from games.puzzles.explain import explanation
from games.puzzles.models import Puzzle
from games.puzzles.record import record_of
from tests.play.factories import make_user

pytestmark = pytest.mark.django_db


def _answer(client, puzzle: Puzzle, row: int = 0):
    cards = puzzle.table[row]["laid_away"].split()
    return client.post(f"{puzzle.get_absolute_url()}answer/", {"puzzle": puzzle.pk, "cards": cards})


def _answer_shown(html: str) -> bool:
    return "Every split" in html or "data-split=" in html or "The engine lays away" in html


def test_nothing_of_the_answer_before_answering(client):
    puzzle = services.puzzle_of_today()
    html = client.get(puzzle.get_absolute_url()).content.decode()
    assert not _answer_shown(html)
    assert html.count('name="cards"') == 6 and f'value="{puzzle.pk}"' in html
    # Today's answer cannot be asked for; a past day's can.
    assert not _answer_shown(client.get(puzzle.get_absolute_url() + "?reveal=1").content.decode())
    past = services.puzzle_for(date(2026, 3, 1))
    assert not _answer_shown(client.get(past.get_absolute_url()).content.decode())
    revealed = client.get(past.get_absolute_url() + "?reveal=1").content.decode()
    assert _answer_shown(revealed) and 'name="cards"' not in revealed


def test_after_answering_the_table_the_shares_and_the_words(client):
    puzzle = services.puzzle_of_today()
    for n in range(3):
        other = type(client)()
        _answer(other, puzzle, row=0 if n < 2 else 1)
    _answer(client, puzzle, row=1)
    html = client.get(puzzle.get_absolute_url()).content.decode()
    assert html.count("data-split=") == 15
    for row in puzzle.table:
        assert f'data-split="{row["laid_away"]}"' in html
        assert f"{100 * row['win']:.1f}%" in html and f"{row['expected_hand']:.2f}" in html
    assert "4 answers" in html
    assert "50%" in html and "(2)" in html  # two of four laid away each of the two best
    words = explanation(puzzle, puzzle.table[1]["laid_away"])
    assert words["against_chosen"] and words["against_chosen"].split(".")[0] in html
    assert words["against_second"] == ""  # the one chosen was the second best: said once
    assert "Against the second best" not in html
    agreed = explanation(puzzle, puzzle.best["laid_away"])
    assert agreed["against_chosen"] == ""
    assert "Laying away " + _written(puzzle.best["laid_away"]) in agreed["against_second"]
    assert f"after laying away {_written(puzzle.table[1]['laid_away'])}." in agreed["against_second"]


def _written(notation: str) -> str:
    return " ".join(card_short(c) for c in notation.split())


def test_the_words_follow_the_score():
    puzzle = services.puzzle_of_today()
    early = Puzzle(**{**_fields(puzzle), "my_score": 10, "their_score": 12})
    assert "Far from the end" in explanation(early, None)["score"]
    late = Puzzle(**{**_fields(puzzle), "my_score": 111, "their_score": 115})
    assert "10 to go for you and 6 for your opponent" in explanation(late, None)["score"]
    assert explanation(puzzle, puzzle.best["laid_away"])["against_chosen"] == ""


def _fields(puzzle: Puzzle) -> dict:
    return {f.name: getattr(puzzle, f.name) for f in Puzzle._meta.concrete_fields if f.name != "id"}


def test_streaks_count_days_answered_on_the_day(client, clock):
    user = make_user("alice")
    client.force_login(user)
    for _ in range(3):
        _answer(client, services.puzzle_of_today())
        clock.advance(days=1)
    # The morning after, the streak still stands: today's puzzle is open.
    assert record_of(user=user).streak == 3
    _answer(client, services.puzzle_of_today(), row=1)
    record = record_of(user=user)
    assert (record.streak, record.longest, record.answered) == (4, 4, 4)
    assert (record.agreed, record.agreement) == (3, 75)
    # A day missed breaks it; answering that day's puzzle later does not mend it.
    clock.advance(days=2)
    assert record_of(user=user).streak == 0
    _answer(client, services.puzzle_for(date(2026, 3, 14)))
    _answer(client, services.puzzle_of_today())
    record = record_of(user=user)
    assert (record.streak, record.longest, record.answered) == (1, 4, 6)
    page = client.get("/puzzles/mine/").content.decode()
    assert "6</span> answered" in page and "4</span> longest streak" in page
    today = client.get(services.puzzle_of_today().get_absolute_url()).content.decode()
    assert "Your streak: <strong>1 day</strong>" in today


def test_a_visitor_has_a_record_in_their_browser(client):
    _answer(client, services.puzzle_of_today())
    page = client.get("/puzzles/mine/").content.decode()
    assert "1</span> answered" in page and "100%" in page and "move to your account" in page


def test_the_archive_lists_past_puzzles_with_stable_addresses(client, clock):
    first = services.puzzle_of_today()
    _answer(client, first)
    clock.advance(days=1)
    second = services.puzzle_of_today()
    services.puzzle_for(date(2026, 3, 12))  # chosen early by hand: not listed before its day
    html = client.get("/puzzles/archive/").content.decode()
    assert first.get_absolute_url() == "/puzzles/2026-03-10/"
    assert first.get_absolute_url() in html and second.get_absolute_url() in html
    assert "/puzzles/2026-03-12/" not in html
    assert "agreed" in html and "not answered" in html
    assert client.get("/puzzles/2026-03-12/").status_code == 404
    assert client.get("/puzzles/2026-03-05/").status_code == 404
    for other_spelling in ("20260310", "2026-W11-2", "2026-3-10", "2026-03-10x"):
        assert client.get(f"/puzzles/{other_spelling}/").status_code == 404
    assert client.get(first.get_absolute_url()).status_code == 200


def test_the_menu_leads_to_the_puzzle(client):
    assert 'href="/puzzles/"' in client.get("/leaderboard/").content.decode()


def test_a_players_answers_are_in_their_data_download(client):
    user = make_user("alice")
    client.force_login(user)
    puzzle = services.puzzle_of_today()
    _answer(client, puzzle, row=1)
    data = json.loads(client.get("/accounts/u/alice/data.json").content)
    assert data["puzzle_answers"] == [{
        "day": "2026-03-10", "hand": puzzle.hand, "dealer": puzzle.is_dealer, "score": puzzle.my_score,
        "opponent_score": puzzle.their_score, "target": puzzle.target,
        "laid_away": puzzle.table[1]["laid_away"], "engine_laid_away": puzzle.best["laid_away"],
        "agreed": False, "on_day": True, "answered_at": "2026-03-10T09:00:00+00:00",
    }]
