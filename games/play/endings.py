"""Why a game ended, where the engine's word for it (a resignation) is not the whole story.

The site ends a game for a player by a resignation made on their behalf: on their last allowed
timeout (a forfeit on time), or when the other player claims the win after their absence. The engine
knows only the resignation, and the logged events stay as it produced them (a replay checks every
event against the log), so the why is kept beside them, in ``game.result["ending"]``
(``{"how": "time", "seat": 1, "timeouts": 3}`` or ``{"how": "claim", "seat": 1, "by": 0}``), and the
words change where they are shown (``games.play.narration``). A move the site made for a player is
logged with a note of the same shape as an event (``timeout_note``, ``claim_note``); timeouts that
did not end the game are placed in their deal's log where they happened (``with_notes``).
"""

from __future__ import annotations

from django.conf import settings

TIME, CLAIM = "time", "claim"


def ending_of(game) -> dict | None:
    """The stored ending of a finished game, or None (played out, or a player's own resignation)."""
    return (game.result or {}).get("ending") or None


def list_word(ending: dict | None) -> str:
    """How a list of games says it ended ("Won (on time)"); empty: a resignation."""
    if ending is None:
        return ""
    if ending["how"] == TIME:
        return "on time, abandoned" if ending.get("abandoned") else "on time"
    return "claim: opponent absent"


def timeout_note(seat: int, action_type: str, count: int, state) -> dict:
    """The note of a move the site made for ``seat`` when its clock ran out (``state``: before it),
    with where it happened: the deal, and the place in that deal's log (``at``)."""
    return {"seat": seat, "kind": "timeout", "points": 0, "cards": [], "action": action_type,
            "timeouts": count, "limit": settings.TIMEOUTS_TO_FORFEIT, "game_no": state.game_no,
            "deal_no": state.deal_no, "at": len(state.log)}


def on_time(seat: int, timeouts: int) -> dict:
    """The stored ending of a game forfeit by ``seat`` on its last allowed timeout."""
    return {"how": TIME, "seat": seat, "timeouts": timeouts}


def out_of_time(seat: int, *, by: int | None = None) -> dict:
    """The stored ending of a correspondence game ``seat`` lost when its clock ran out: claimed by
    the opponent seat ``by``, or, left alone, ended by the site as abandoned."""
    return {"how": TIME, "seat": seat, "clock": "correspondence", **({"by": by} if by is not None else
                                                                        {"abandoned": True})}


def time_detail(ending: dict) -> str:
    """What a loss on time was: "3 timeouts", "out of correspondence time", "game abandoned".

    >>> time_detail(on_time(1, 3))
    '3 timeouts'
    >>> time_detail(out_of_time(1, by=0))
    'out of correspondence time'
    >>> time_detail(out_of_time(1))
    'game abandoned'
    """
    if "timeouts" in ending:
        return f"{ending['timeouts']} timeouts"
    return "game abandoned" if ending.get("abandoned") else "out of correspondence time"


def by_claim(seat: int, gone: int, minutes: int) -> dict:
    """The stored ending of a game won by ``seat``'s claim after ``gone`` was away ``minutes``."""
    return {"how": CLAIM, "seat": gone, "by": seat, "minutes": minutes}


def claim_note(seat: int, gone: int, minutes: int) -> dict:
    """The note of the resignation the site made for ``gone`` when ``seat`` claimed the win."""
    return {"seat": gone, "kind": "abandon", "points": 0, "cards": [], "by": seat, "minutes": minutes}


def is_placed_timeout(note: dict | None) -> bool:
    """Whether a move's note is a timeout that says where in its deal it happened."""
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
