"""Events in words, for the person reading them: "Pair for 2", "Ace is low: you deal", "alice wins 121–97".

The engine says what happened as data (``games.engine.events.Event``: a kind, a seat, points, cards
and the numbers a sentence needs); the site's own moves (a timeout, a claimed win) are notes of the
same shape (``games.play.endings``). This is the one place either becomes words: the board and its
log, the replay, the game record and the text export all read them here. A player reads their own
seat as "You" (and a partnership as "You & carol"); a spectator (no viewer) reads every name.

>>> seating = Seating(("You", "bob"), viewer=0)
>>> line(seating, {"seat": 1, "kind": "deal", "points": 0, "cards": []}).text
'bob deals'
>>> line(seating, {"seat": 0, "kind": "play", "points": 0, "cards": ["5H"], "count": 15}).text
'Five of hearts: 15'
>>> line(seating, {"seat": 0, "kind": "game_won", "points": 0, "cards": [], "scores": [121, 87],
...              "skunks": [0, 1], "detail": "target"}).text
'You win 121–87 (skunk)'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from django.utils.safestring import SafeData

from games.engine.cards import RANK_NAMES, Card, parse_card
from games.engine.events import Event
from games.engine.scoring import score_text
from games.engine.state import SKUNK_NAMES, teams
from games.play import endings

DASH = "–"
# Worth a call across the table: points, a go said, or something the site did for a player.
LOUD_KINDS = frozenset({"timeout", "abandon", "resign", "game_won", "match_won", "say_go", "over_count"})
# What the site did for a seat whose clock ran out, by the action's type.
DID = {
    "cut_for_deal": "cut for deal for", "discard": "laid away for", "cut_starter": "cut the pack for",
    "play": "played for",
    "go": "said go for", "count": "counted for", "accept_count": "accepted the count for",
    "call_muggins": "called muggins for", "next_deal": "readied the next deal for",
    "next_game": "started the next game for",
}


@dataclass(frozen=True)
class Seating:
    """Who sits where, as one reader sees it: ``names`` by seat ("You" for the reader's own),
    ``viewer`` the reader's seat (None: a spectator), and what a sentence may need of the rules."""

    names: tuple[str, ...]
    viewer: int | None = None
    target: int = 121
    peg_out_zone: int = 0

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def sides(self) -> int:
        return len(teams(self.players))


@dataclass(frozen=True)
class LogLine:
    """One event for one reader: ``who`` did it (empty when the text names them), ``text`` what."""

    who: str
    text: str
    points: int
    kind: str
    cards: tuple[Card, ...]
    mine: bool

    @property
    def loud(self) -> bool:
        return self.points > 0 or self.kind in LOUD_KINDS


# --- names and verbs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Who:
    """Who a sentence is about, as its reader reads it: ``text`` ("You", "bob", "You & carol") and
    whether it takes the plain verb (``plural``: the reader, or a partnership). Grammar comes from
    the seats and the reader, never from the text: a player may be called "Younger"."""

    text: str
    plural: bool

    def __str__(self) -> str:
        return self.text


def seat_who(seating: Seating, seat: int, *, start: bool = False) -> Who:
    """One seat: "You" (or "you" inside a sentence) for the reader's own, else its name."""
    if seat == seating.viewer:
        return Who("You" if start else "you", True)
    return Who(seating.names[seat], False)


def side_who(seating: Seating, side: int, *, start: bool = False) -> Who:
    """One side: the player, or "You & carol" for a partnership (the reader first)."""
    seats = sorted(teams(seating.players)[side], key=lambda s: s != seating.viewer)
    text = " & ".join(seat_who(seating, s, start=start and i == 0).text for i, s in enumerate(seats))
    return Who(text, len(seats) > 1 or seating.viewer in seats)


def seat_name(seating: Seating, seat: int, *, start: bool = False) -> str:
    return seat_who(seating, seat, start=start).text


def side_name(seating: Seating, side: int, *, start: bool = False) -> str:
    return side_who(seating, side, start=start).text


def side_names(seating: Seating) -> list[str]:
    return [side_name(seating, side, start=True) for side in range(seating.sides)]


def verb(subject: Who, third: str, plain: str | None = None) -> str:
    """``third`` ("deals") for one other person, ``plain`` ("deal") for the reader or a partnership."""
    if not subject.plural:
        return third
    return plain if plain is not None else third[:-1] if third.endswith("s") else third


def said(subject: Who, third: str, plain: str | None = None) -> str:
    """"bob deals", "You deal"."""
    return f"{subject.text} {verb(subject, third, plain)}"


def on_board(scores, target: int) -> tuple[int, ...]:
    """Scores as the board shows them: the winner stands in the game hole, at ``target``, however
    many points took them there (a 29 hand from 119 is still a game won at 121).

    >>> on_board((124, 108), 121)
    (121, 108)
    """
    return tuple(min(s, target) for s in scores)


def scores_line(scores, first: int) -> str:
    """Scores by side, ``first`` side's first, then clockwise: "121–95–60"."""
    sides = len(scores)
    return DASH.join(str(scores[(first + k) % sides]) for k in range(sides))


def and_list(words: list[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --- results ---------------------------------------------------------------------------------------

ENTERED_MARK = "entered by the director"


@dataclass(frozen=True)
class ResultLine:
    """A game's result for one reader: ``who`` won and the ``words`` that follow ("wins 121–97
    (skunk)"); as text, the two together."""

    who: str
    words: str

    def __str__(self) -> str:
        return f"{self.who} {self.words}"


def result_line(
    seating: Seating, winner: int, scores, reason: str, *, skunks=(), ending: dict | None = None,
    how: str = "", entered: bool = False, past: bool = False, score_beside: bool = False,
) -> ResultLine:
    """A game's result in words: the one wording of it for the log, the board's result, the replay
    and the record. The winner's score comes first, at the game hole.

    ``reason``: "target" (played out) or "resign". After a resignation the winner may have been
    behind, so it says who led; ``ending`` (``games.play.endings``): the site ended the game for
    the loser, and it says why. ``how``: the organiser's own word for a match decided off the
    board ("by forfeit"). ``entered``: the director entered the result (``scores`` may then be
    empty: not given). ``past``: "won", for the record; ``score_beside``: the final score is
    printed beside the line, so the line does not say it, nor who led before a resignation.

    >>> bob = Seating(("alice", "bob"))
    >>> str(result_line(bob, 0, [121, 87], "target", skunks=[0, 1]))
    'alice wins 121–87 (skunk)'
    >>> str(result_line(Seating(("You", "bob"), 0), 0, [25, 28], "resign"))
    'You win by resignation (bob led 28–25)'
    >>> str(result_line(Seating(("alice", "You"), 1), 0, [40, 60], "resign", past=True))
    'alice won by resignation (you led 60–40)'
    >>> str(result_line(bob, 1, [97, 121], "resign", entered=True))
    'bob wins 121–97 (entered by the director)'
    >>> str(result_line(bob, 0, [25, 28], "resign", ending={"how": "time", "seat": 1, "timeouts": 3}))
    'alice wins on time (3 timeouts)'
    >>> str(result_line(bob, 0, [121, 87], "target", skunks=[0, 1], past=True, score_beside=True))
    'alice won (skunk)'
    """
    who = side_who(seating, winner, start=True)
    word = "won" if past else verb(who, "wins")
    score = "" if score_beside or not scores else f" {scores_line(on_board(scores, seating.target), winner)}"
    if entered:
        notes = [_skunk_note(seating, winner, skunks) if scores else "", ENTERED_MARK]
        return ResultLine(who.text, f"{word}{score} ({', '.join(n for n in notes if n)})")
    if how:
        return ResultLine(who.text, f"{word} {how}")
    if reason == "resign":
        if ending is not None:
            return ResultLine(who.text, ending_words(ending, word))
        led = "" if score_beside else f" ({_who_led(seating, winner, scores)})"
        return ResultLine(who.text, f"{word} by resignation{led}")
    note = _skunk_note(seating, winner, skunks)
    return ResultLine(who.text, f"{word}{score}" + (f" ({note})" if note else ""))


def _who_led(seating: Seating, winner: int, scores) -> str:
    """Who was ahead when the game was resigned: "bob led 28–25", "level at 40–40"."""
    sides = len(scores)
    order = [(winner + k) % sides for k in range(sides)]
    top = max(scores)
    leaders = [s for s in order if scores[s] == top]
    if len(leaders) > 1:
        return "level at " + DASH.join(str(scores[s]) for s in order)
    lead = leaders[0]
    line_ = DASH.join(str(scores[s]) for s in [lead, *(s for s in order if s != lead)])
    return f"{side_name(seating, lead)} led {line_}"


def _skunk_note(seating: Seating, winner: int, skunks) -> str:
    """"skunk" (two sides), "you double skunked, carol skunked" (each loser of three); empty for none."""
    if not skunks or not max(skunks):
        return ""
    if seating.sides == 2:
        return SKUNK_NAMES[max(skunks)]
    losers = [(winner + k) % seating.sides for k in range(1, seating.sides)]
    return ", ".join(f"{side_name(seating, s)} {SKUNK_NAMES[skunks[s]]}ed" for s in losers if skunks[s])


def match_line(seating: Seating, winner: int, match_scores, *, entered: bool = False) -> str:
    """"You win the match 2–1", the winner's games first."""
    who = side_who(seating, winner, start=True)
    mark = f" ({ENTERED_MARK})" if entered else ""
    return f"{who.text} {verb(who, 'wins')} the match {scores_line(match_scores, winner)}{mark}"


def ending_words(ending: dict, verb_word: str) -> str:
    """What follows the winner's name when the site ended the game for the loser: "wins on time
    (3 timeouts)", "wins by claim (opponent absent)"."""
    if ending["how"] == "time":
        return f"{verb_word} on time ({endings.time_detail(ending)})"
    return f"{verb_word} by claim (opponent absent)"


def skunked(seating: Seating, skunks, *, with_verb: bool = True) -> str:
    """Who was skunked, where more than one player lost: "Computer 2 is skunked", "You are double
    skunked"; without the verb, for a bracket: "Computer 2 skunked"."""

    def be(who: Who) -> str:
        if not with_verb:
            return ""
        return "are " if who.plural else "is "

    return ", ".join(f"{who.text} {be(who)}{SKUNK_NAMES[k]}ed"
                     for who, k in ((side_who(seating, s, start=True), k) for s, k in enumerate(skunks)) if k)


# --- one event -------------------------------------------------------------------------------------


def _game_won(seating: Seating, e: Event, ending: dict | None) -> str:
    return str(result_line(seating, e.seat, e.scores, e.detail, skunks=e.skunks, ending=ending))


def _dealer(seating: Seating, e: Event) -> str:
    if e.detail == "lost":
        if seating.sides == seating.players:
            loser = seat_who(seating, e.seat, start=True)
            return f"{loser} lost the last game and {verb(loser, 'deals')} first"
        side = side_name(seating, e.seat % seating.sides, start=True)
        return f"{side} lost the last game: {said(seat_who(seating, e.seat), 'deals')} first"
    low = e.cards[e.seat]
    if low.rank == 1:
        why = "Ace is low"
    else:
        higher = sorted({c.rank for s, c in enumerate(e.cards) if s != e.seat})
        why = f"{RANK_NAMES[low.rank - 1]} is lower than {and_list([RANK_NAMES[r - 1] for r in higher])}"
    return f"{why}: {said(seat_who(seating, e.seat), 'deals')}"


def _sentence(seating: Seating, e: Event, ending: dict | None) -> str | None:
    """Events that name their seat in a sentence of their own; None for the others."""
    kind = e.kind
    if kind == "deal":
        return said(seat_who(seating, e.seat, start=True), "deals")
    if kind == "dealer":
        return _dealer(seating, e)
    if kind == "recut":
        rank = RANK_NAMES[e.cards[0].rank - 1]
        if seating.players == 2:
            return f"Both cut a {rank}: cut again"
        return f"Equal low cards ({rank}): cut again"
    if kind == "discard":
        cards = "two cards" if seating.players == 2 else "one card"
        return f"{said(seat_who(seating, e.seat, start=True), 'lays away', 'lay away')} {cards}"
    if kind == "cut_pack":
        return said(seat_who(seating, e.seat, start=True), "cuts the pack", "cut the pack")
    if kind == "starter":
        return f"Starter: {e.cards[0].name}"
    if kind == "reset":
        return "The count goes back to 0"
    if kind == "peg_out_zone":
        who = seat_who(seating, e.seat, start=True)
        zone = seating.peg_out_zone
        where = "in the stink hole" if zone == 1 else f"within {zone} of {seating.target}"
        return f"{who} {verb(who, 'was', 'were')} {where} when the show began: the {e.detail} scores nothing"
    if kind == "game_won":
        return _game_won(seating, e, ending)
    if kind == "match_won":
        return match_line(seating, e.seat, e.scores)
    if kind == "resign":
        who = seat_who(seating, e.seat, start=True)
        if ending is None:
            return said(who, "resigns")
        if ending["how"] == "time":
            abandoned = " (game abandoned)" if ending.get("abandoned") else ""
            return f"{said(who, 'loses', 'lose')} on time{abandoned}"
        return f"{said(who, 'loses', 'lose')} by claim (away from the table)"
    return None


def score_words(kind: str, points: int) -> str:
    """A score in the play in words: "Fifteen for 2", "Go for 1", "Last card for 1"."""
    fixed = {"go": "Go for 1", "last_card": "Last card for 1", "his_heels": "His heels for 2"}
    return fixed.get(kind) or score_text(kind, points)


def _what(e: Event) -> str:
    """What a seat did, said after its name ("bob: Pair for 2")."""
    kind = e.kind
    if kind == "cut":
        return f"Cut: {e.cards[0].name}"
    if kind == "play":
        return f"{e.cards[0].name}: {e.count}"
    if kind == "say_go":
        return "Go"
    if kind in ("hand", "crib"):
        return f"{kind.capitalize()}: {e.points}"
    if kind == "muggins":
        return f"Muggins! {e.points}" if e.points else "Muggins called: nothing was missed"
    if kind == "over_count":
        return f"Counted {e.count} for the {e.detail}: too many, the true count is pegged"
    if kind == "over_count_penalty":
        return f"Penalty for the over-count: {e.points}"
    if kind == "accept":
        return "Count accepted"
    return score_words(kind, e.points)


def _note(seating: Seating, note: dict) -> str:
    """The site's own note on a move (see ``games.play.endings``) in words."""
    who = seat_who(seating, note["seat"], start=True)
    if note["kind"] == "timeout":
        count, limit = note["timeouts"], note["limit"]
        if count >= limit:
            return f"{who} ran out of time (timeout {count} of {limit}) and the game is forfeit"
        did = DID.get(note.get("action", ""), "moved for")
        for_whom = seat_name(seating, note["seat"])
        return f"{who} ran out of time: the site {did} {for_whom} (timeout {count} of {limit})"
    minutes = note.get("minutes", 0)
    away = f"{minutes} minute{'s' if minutes != 1 else ''}"
    by = note.get("by")
    claimer = seat_who(seating, by, start=True) if by is not None else Who("The other player", False)
    gone = seat_who(seating, note["seat"])
    return f"{said(claimer, 'claims', 'claim')} the win: {gone} {verb(gone, 'was', 'were')} away for {away}"


NOTE_KINDS = frozenset({"timeout", "abandon"})


def line(seating: Seating, event: Event | dict, ending: dict | None = None) -> LogLine:
    """One event (or its dict from the log, or a site's note) as ``seating``'s reader reads it.
    ``ending``: why the site ended the game (``games.play.endings``), for the resignation it made."""
    if isinstance(event, dict):
        if event.get("kind") in NOTE_KINDS:
            own = event.get("seat") == seating.viewer
            return LogLine("", _note(seating, event), 0, event["kind"], (), own)
        event = Event.from_dict(event)
    # Names given as trusted markup are worded afresh: a cached line must never hand a plain
    # name's text back as markup, or the other way round (equal strings share a cache entry).
    build = _line.__wrapped__ if any(isinstance(n, SafeData) for n in seating.names) else _line
    return build(seating, event, _freeze(ending))


def _freeze(ending: dict | None) -> tuple | None:
    return None if ending is None else tuple(sorted(ending.items()))


# A deal's log is drawn on every board, twice a move, and grows by a line or two: each line is
# worded once per reader (an Event is immutable: it is its own key).
@lru_cache(maxsize=8192)
def _line(seating: Seating, e: Event, ending: tuple | None) -> LogLine:
    text = _sentence(seating, e, None if ending is None else dict(ending))
    who = ""
    if text is None:
        who = seating.names[e.seat] if e.seat is not None else ""
        text = _what(e)
    return LogLine(who, text, e.points, e.kind, e.cards, e.seat is not None and e.seat == seating.viewer)


def log_lines(seating: Seating, events, ending: dict | None = None) -> list[LogLine]:
    """Each event as a line for ``seating``'s reader. The cut's "Ace is low: you deal" already says
    who deals: the deal's own "You deal" just after it is left out."""
    lines = [line(seating, e, ending) for e in events]
    return [ln for i, ln in enumerate(lines)
            if not (ln.kind == "deal" and i and lines[i - 1].kind == "dealer")]


def reworded(lines: list[LogLine], texts: dict[str, str]) -> list[LogLine]:
    """``lines`` with the text of each line of a kind in ``texts`` replaced (a match decided off
    the board reads as the organiser has it)."""
    return [replace(ln, text=texts[ln.kind], who="") if ln.kind in texts else ln for ln in lines]


def action_words(who: str, action: dict) -> str:
    """A logged action in words, after who took it: "alice plays the Five of hearts"."""
    kind = action.get("type")
    if kind == "cut_for_deal":
        return f"{who} cuts for deal (card {action['position'] + 1})"
    if kind == "discard":
        return f"{who} lays away the {' and '.join(parse_card(c).name for c in action['cards'])}"
    if kind == "play":
        return f"{who} plays the {parse_card(action['card']).name}"
    if kind == "count":
        return f"{who} counts {action['points']}"
    texts = {
        "go": "says go",
        "cut_starter": "cuts the pack",
        "call_muggins": "calls muggins",
        "accept_count": "accepts the count",
        "next_deal": "is ready for the next deal",
        "next_game": "starts the next game",
        "resign": "resigns",
    }
    return f"{who} {texts.get(kind, kind)}"
