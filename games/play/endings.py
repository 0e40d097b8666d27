"""Why a game ended, where the engine's word for it ("Seat 1 resigns") is not the whole story.

The site ends a game for a player by a resignation made on their behalf: on their last allowed
timeout (a forfeit on time), or when the other player claims the win after their absence. The
engine knows only the resignation, and the logged events must stay as it wrote them (a replay checks
every event against the log), so the why is kept beside them, in ``game.result["ending"]``
(``{"how": "time", "seat": 1, "timeouts": 3}`` or ``{"how": "claim", "seat": 1, "by": 0}``), and
the words are changed where they are shown. Timeouts that did not end the game are the notes of
their moves (``timeout_note``), placed in the deal's log where they happened (``with_notes``).
"""

from __future__ import annotations

import re

from django.conf import settings

TIME, CLAIM = "time", "claim"
# What the site did for a seat whose clock ran out, by the action's type.
DID = {
    "cut_for_deal": "cut for deal for", "discard": "laid away for", "play": "played for",
    "go": "said go for", "count": "counted for", "accept_count": "accepted the count for",
    "call_muggins": "called muggins for", "next_deal": "readied the next deal for",
    "next_game": "started the next game for",
}
_OLD_TIMES_RE = re.compile(r"ran out of time (\d+) times")
_OLD_CLAIMER_RE = re.compile(r"[Ss]eat (\d) claims")


def ending_of(game) -> dict | None:
    """The stored ending of a finished game, or None (played out, or a player's own resignation).

    A game finished before the ending was stored has it in its last move's note."""
    result = game.result or {}
    if result.get("ending"):
        return result["ending"]
    calls = game.last_events or []
    if not result or not calls or not any(e.get("kind") == "resign" for e in calls[1:]):
        return None
    note = calls[0]
    if note.get("kind") == "timeout":
        found = _OLD_TIMES_RE.search(note.get("text", ""))
        count = int(found.group(1)) if found else settings.TIMEOUTS_TO_FORFEIT
        return on_time(note["seat"], count)
    if note.get("kind") == "abandon":
        found = _OLD_CLAIMER_RE.search(note.get("text", ""))
        return {"how": CLAIM, "seat": note["seat"], "by": int(found.group(1)) if found else None}
    return None


def win_words(ending: dict, verb: str) -> str:
    """What follows the winner's name: "wins on time (3 timeouts)", "wins by claim (opponent absent)"."""
    if ending["how"] == TIME:
        return f"{verb} on time ({ending['timeouts']} timeouts)"
    return f"{verb} by claim (opponent absent)"


def resign_text(ending: dict) -> str:
    """The engine's "Seat 1 resigns", as it happened (seat words, for ``board.personalise``)."""
    if ending["how"] == TIME:
        return f"Seat {ending['seat']} loses on time"
    return f"Seat {ending['seat']} loses by claim (away from the table)"


def list_word(ending: dict | None) -> str:
    """How a list of games says it ended ("Won (on time)"); empty: a resignation."""
    if ending is None:
        return ""
    return "on time" if ending["how"] == TIME else "claim: opponent absent"


def timeout_note(seat: int, action_type: str, count: int, state) -> dict:
    """The note of a move the site made for ``seat`` when its clock ran out (``state``: before it),
    with where it happened: the deal, and the place in that deal's log (``at``)."""
    limit = settings.TIMEOUTS_TO_FORFEIT
    if count >= limit:
        text = f"Seat {seat} ran out of time (timeout {count} of {limit}) and the game is forfeit"
    else:
        did = DID.get(action_type, "moved for")
        text = f"Seat {seat} ran out of time: the site {did} seat {seat} (timeout {count} of {limit})"
    return {"seat": seat, "kind": "timeout", "points": 0, "text": text, "cards": [],
            "timeouts": count, "limit": limit, "game_no": state.game_no, "deal_no": state.deal_no,
            "at": len(state.log)}


def on_time(seat: int, timeouts: int) -> dict:
    """The stored ending of a game forfeit by ``seat`` on its last allowed timeout."""
    return {"how": TIME, "seat": seat, "timeouts": timeouts}


def by_claim(seat: int, gone: int, minutes: int) -> dict:
    """The stored ending of a game won by ``seat``'s claim after ``gone`` was away ``minutes``."""
    return {"how": CLAIM, "seat": gone, "by": seat, "minutes": minutes}


def claim_note(seat: int, gone: int, minutes: int) -> dict:
    away = f"{minutes} minute{'s' if minutes != 1 else ''}"
    return {"seat": gone, "kind": "abandon", "points": 0, "cards": [],
            "text": f"Seat {seat} claims the win: seat {gone} was away for {away}"}


def is_placed_timeout(note: dict | None) -> bool:
    """Whether a move's note is a timeout that says where in its deal it happened (older notes
    do not, and cannot be placed in the log)."""
    return bool(note) and note.get("kind") == "timeout" and "deal_no" in note


def timeout_notes(game) -> list[dict]:
    """Every timeout note of ``game``, in order (a query only when a seat has timed out)."""
    if not any(s.timeouts for s in game.seat_list()):
        return []
    from games.play.models import Move

    notes = Move.objects.filter(game=game, by_timeout=True).order_by("seq").values_list("note", flat=True)
    return [n for n in notes if is_placed_timeout(n)]


def with_claim(log, calls: list[dict]) -> list:
    """The deal's log with the claim that ended the game (the last move's note) before the
    resignation made for the absent player."""
    if not calls or calls[0].get("kind") != "abandon":
        return log
    kinds = [e.get("kind") if isinstance(e, dict) else e.kind for e in log]
    if "resign" not in kinds:
        return log
    at = len(kinds) - 1 - kinds[::-1].index("resign")
    return [*log[:at], calls[0], *log[at:]]


def with_notes(log, notes: list[dict], game_no: int, deal_no: int) -> list:
    """The deal's log with its timeout notes where they happened."""
    out = list(log)
    mine = [n for n in notes if n["game_no"] == game_no and n["deal_no"] == deal_no]
    for note in sorted(mine, key=lambda n: n["at"], reverse=True):
        out.insert(min(note["at"], len(out)), note)
    return out
