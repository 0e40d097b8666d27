"""Each event as a line for one reader: the board's log, the replay, the record and the text export
read them here; and a logged action in words, for the replay.

>>> seating = Seating(("You", "bob"), viewer=0)
>>> pair = line(seating, {"seat": 1, "kind": "pair", "points": 2, "cards": []})
>>> pair.who, pair.text, pair.loud
('bob', 'Pair for 2', True)
>>> action_words("alice", {"type": "play", "card": "5H"})
'alice plays the Five of hearts'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from django.utils.safestring import SafeData

from games.engine.cards import RANK_NAMES, Card, parse_card
from games.engine.events import Event
from games.engine.scoring import score_text

from .results import match_line, result_line
from .seating import Seating, Who, and_list, said, seat_name, seat_who, side_name, verb

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
