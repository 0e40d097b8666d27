"""Every kind of event in words, as a player and as a spectator read it (games.play.narration)."""

from __future__ import annotations

import pytest

from games.engine.events import EVENT_KINDS, Event
from games.play.narration import Seating, line, log_lines, score_words

ALICE = Seating(("You", "bob"), viewer=0)
SPECTATOR = Seating(("alice", "bob"))
THREE = Seating(("alice", "You", "carol"), viewer=1)
FOUR = Seating(("You", "bob", "carol", "dave"), viewer=0)


def ev(seat, kind, points=0, cards=(), **data) -> dict:
    return {"seat": seat, "kind": kind, "points": points, "cards": list(cards), **data}


CASES = [
    (ALICE, ev(0, "cut", cards=["2H"]), "You", "Cut: Two of hearts"),
    (SPECTATOR, ev(None, "recut", cards=["3H", "3S"]), "", "Both cut a Three: cut again"),
    (THREE, ev(None, "recut", cards=["3H", "3S"]), "", "Equal low cards (Three): cut again"),
    (ALICE, ev(0, "dealer", cards=["AH", "9S"], detail="cut"), "", "Ace is low: you deal"),
    (SPECTATOR, ev(1, "dealer", cards=["KH", "2S"], detail="cut"), "", "Two is lower than King: bob deals"),
    (FOUR, ev(2, "dealer", cards=["TH", "QS", "9C", "KD"], detail="cut"), "",
     "Nine is lower than Ten, Queen and King: carol deals"),
    (ALICE, ev(0, "dealer", detail="lost"), "", "You lost the last game and deal first"),
    (SPECTATOR, ev(1, "dealer", detail="lost"), "", "bob lost the last game and deals first"),
    (FOUR, ev(1, "dealer", detail="lost"), "", "bob & dave lost the last game: bob deals first"),
    (FOUR, ev(2, "dealer", detail="lost"), "", "You & carol lost the last game: carol deals first"),
    (ALICE, ev(1, "deal"), "", "bob deals"),
    (ALICE, ev(0, "deal"), "", "You deal"),
    (ALICE, ev(0, "discard"), "", "You lay away two cards"),
    (THREE, ev(0, "discard"), "", "alice lays away one card"),
    (ALICE, ev(1, "cut_pack"), "", "bob cuts the pack"),
    (ALICE, ev(0, "cut_pack"), "", "You cut the pack"),
    (ALICE, ev(None, "starter", cards=["JC"]), "", "Starter: Jack of clubs"),
    (ALICE, ev(1, "his_heels", 2, ["JC"]), "bob", "His heels for 2"),
    (ALICE, ev(1, "play", cards=["5H"], count=15), "bob", "Five of hearts: 15"),
    (ALICE, ev(0, "say_go"), "You", "Go"),
    (ALICE, ev(0, "fifteen", 2, ["5H", "TS"]), "You", "Fifteen for 2"),
    (ALICE, ev(0, "thirty_one", 2, ["AH"]), "You", "31 for 2"),
    (ALICE, ev(0, "pair", 6, ["5H", "5S", "5D"]), "You", "Pair royal for 6"),
    (ALICE, ev(0, "pair", 12, ["5H", "5S", "5D", "5C"]), "You", "Double pair royal for 12"),
    (ALICE, ev(1, "run", 4, ["2H", "3S", "4D", "5C"]), "bob", "Run of 4 for 4"),
    (ALICE, ev(1, "go", 1), "bob", "Go for 1"),
    (ALICE, ev(1, "last_card", 1, ["KH"]), "bob", "Last card for 1"),
    (ALICE, ev(None, "reset"), "", "The count goes back to 0"),
    (ALICE, ev(1, "hand", 12, ["5H", "5S", "JD", "QC", "5D"]), "bob", "Hand: 12"),
    (ALICE, ev(0, "crib", 8, ["5H", "5S", "JD", "QC", "5D"]), "You", "Crib: 8"),
    (Seating(("You", "bob"), 0, 121, 1), ev(0, "peg_out_zone", cards=["5H"], detail="hand"), "",
     "You were in the stink hole when the show began: the hand scores nothing"),
    (Seating(("alice", "bob"), None, 121, 5), ev(1, "peg_out_zone", detail="crib"), "",
     "bob was within 5 of 121 when the show began: the crib scores nothing"),
    (ALICE, ev(0, "muggins", 3), "You", "Muggins! 3"),
    (ALICE, ev(0, "muggins", 0), "You", "Muggins called: nothing was missed"),
    (ALICE, ev(1, "accept"), "bob", "Count accepted"),
    (ALICE, ev(1, "over_count", count=12, detail="hand"), "bob",
     "Counted 12 for the hand: too many, the true count is pegged"),
    (ALICE, ev(0, "over_count_penalty", 8, detail="crib"), "You", "Penalty for the over-count: 8"),
    (ALICE, ev(0, "game_won", scores=[121, 87], skunks=[0, 1], detail="target"), "",
     "You win 121–87 (skunk)"),
    (SPECTATOR, ev(1, "game_won", scores=[40, 121], skunks=[2, 0], detail="target"), "",
     "bob wins 121–40 (double skunk)"),
    (THREE, ev(0, "game_won", scores=[121, 60, 90], skunks=[0, 2, 1], detail="target"), "",
     "alice wins 121–60–90 (you double skunked, carol skunked)"),
    (FOUR, ev(0, "game_won", scores=[121, 97], skunks=[0, 0], detail="target"), "", "You & carol win 121–97"),
    (Seating(("alice", "bob", "You", "dave")), ev(1, "game_won", scores=[30, 45], skunks=[0, 0],
                                                  detail="resign"), "",
     "bob & dave win by resignation (bob & dave led 45–30)"),
    (ALICE, ev(1, "game_won", scores=[60, 40], skunks=[0, 0], detail="resign"), "",
     "bob wins by resignation (you led 60–40)"),
    (ALICE, ev(0, "match_won", scores=[2, 1]), "", "You win the match 2–1"),
    (ALICE, ev(1, "resign"), "", "bob resigns"),
    (ALICE, ev(0, "resign"), "", "You resign"),
]


@pytest.mark.parametrize(("table", "event", "who", "text"), CASES)
def test_each_event_in_words(table, event, who, text) -> None:
    said = line(table, event)
    assert (said.who, said.text) == (who, text)
    assert line(table, Event.from_dict(event)) == said  # the engine's Event reads as its dict does


def test_every_kind_the_engine_emits_has_words() -> None:
    tested = {event["kind"] for _, event, _, _ in CASES}
    assert tested >= EVENT_KINDS


def test_a_resignation_the_site_made_says_why() -> None:
    on_time = {"how": "time", "seat": 1, "timeouts": 3}
    claim = {"how": "claim", "seat": 0, "by": 1, "minutes": 4}
    assert line(ALICE, ev(1, "resign"), on_time).text == "bob loses on time"
    assert line(ALICE, ev(0, "resign"), claim).text == "You lose by claim (away from the table)"
    won = ev(0, "game_won", scores=[30, 50], skunks=[0, 0], detail="resign")
    assert line(ALICE, won, on_time).text == "You win on time (3 timeouts)"


def test_the_sites_notes_in_words() -> None:
    timeout = {"seat": 1, "kind": "timeout", "points": 0, "cards": [], "action": "discard", "timeouts": 1,
               "limit": 3, "game_no": 0, "deal_no": 0, "at": 2}
    assert line(ALICE, timeout).text == "bob ran out of time: the site laid away for bob (timeout 1 of 3)"
    mine = {**timeout, "seat": 0, "action": "play"}
    assert line(ALICE, mine).text == "You ran out of time: the site played for you (timeout 1 of 3)"
    forfeit = {**timeout, "action": "resign", "timeouts": 3}
    assert line(SPECTATOR, forfeit).text == "bob ran out of time (timeout 3 of 3) and the game is forfeit"
    claim = {"seat": 0, "kind": "abandon", "points": 0, "cards": [], "by": 1, "minutes": 1}
    assert line(ALICE, claim).text == "bob claims the win: you were away for 1 minute"
    assert line(Seating(("alice", "You"), 1), claim).text == "You claim the win: alice was away for 1 minute"


def test_the_cut_says_who_deals_once() -> None:
    lines = log_lines(ALICE, [ev(0, "dealer", cards=["AH", "9S"], detail="cut"), ev(0, "deal")])
    assert [ln.text for ln in lines] == ["Ace is low: you deal"]


def test_scores_in_the_play_in_words() -> None:
    assert [score_words(k, p) for k, p in (("go", 1), ("last_card", 1), ("pair", 2), ("run", 3))] == [
        "Go for 1", "Last card for 1", "Pair for 2", "Run of 3 for 3"]


def test_a_loud_line_is_one_worth_a_call() -> None:
    assert line(ALICE, ev(0, "pair", 2, ["5H", "5S"])).loud
    assert line(ALICE, ev(1, "resign")).loud and not line(ALICE, ev(1, "deal")).loud


YOUNGER = Seating(("Younger", "You"), viewer=1)
YOUNGER_WATCHED = Seating(("Younger", "bob"))
PARTNERS = Seating(("Younger", "bob", "Yolanda", "You"), 3)


@pytest.mark.parametrize(
    ("table", "event", "text"),
    [
        (YOUNGER, ev(0, "deal"), "Younger deals"),
        (YOUNGER_WATCHED, ev(0, "deal"), "Younger deals"),
        (YOUNGER, ev(0, "discard"), "Younger lays away two cards"),
        (YOUNGER, ev(0, "cut_pack"), "Younger cuts the pack"),
        (YOUNGER, ev(0, "dealer", cards=["AH", "9S"], detail="cut"), "Ace is low: Younger deals"),
        (YOUNGER, ev(0, "dealer", detail="lost"), "Younger lost the last game and deals first"),
        (YOUNGER, ev(0, "game_won", scores=[121, 97], skunks=[0, 0], detail="target"), "Younger wins 121–97"),
        (YOUNGER_WATCHED, ev(0, "game_won", scores=[121, 97], skunks=[0, 0], detail="target"),
         "Younger wins 121–97"),
        (YOUNGER, ev(1, "game_won", scores=[40, 50], skunks=[0, 0], detail="resign"),
         "You win by resignation (you led 50–40)"),
        (YOUNGER, ev(0, "game_won", scores=[30, 50], skunks=[0, 0], detail="resign"),
         "Younger wins by resignation (you led 50–30)"),
        (YOUNGER, ev(1, "game_won", scores=[20, 121], skunks=[2, 0], detail="target"),
         "You win 121–20 (double skunk)"),
        (YOUNGER, ev(0, "match_won", scores=[2, 1]), "Younger wins the match 2–1"),
        (YOUNGER, ev(0, "resign"), "Younger resigns"),
        (Seating(("Younger", "You"), 1, 121, 1), ev(0, "peg_out_zone", detail="hand"),
         "Younger was in the stink hole when the show began: the hand scores nothing"),
        (PARTNERS, ev(0, "game_won", scores=[121, 97], skunks=[0, 0], detail="target"),
         "Younger & Yolanda win 121–97"),
        (PARTNERS, ev(1, "game_won", scores=[97, 121], skunks=[0, 0], detail="target"),
         "You & bob win 121–97"),
    ],
)
def test_grammar_comes_from_who_reads_not_from_the_name(table, event, text) -> None:
    assert line(table, event).text == text


def test_a_name_younger_never_reads_as_the_reader() -> None:
    claim = {"seat": 0, "kind": "abandon", "points": 0, "cards": [], "by": 1, "minutes": 2}
    assert line(YOUNGER, claim).text == "You claim the win: Younger was away for 2 minutes"
    timeout = {"seat": 0, "kind": "timeout", "points": 0, "cards": [], "action": "play", "timeouts": 1,
               "limit": 3, "game_no": 0, "deal_no": 0, "at": 1}
    said = "Younger ran out of time: the site played for Younger (timeout 1 of 3)"
    assert line(YOUNGER, timeout).text == said
