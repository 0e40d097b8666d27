"""A round's one name, said the same way on the desk, its messages, the log, the public pages and
the printed sheets: "Round 3", "Qualifying round 3 of 9", "Semi-finals", "Playoff semi-finals"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.tournaments import pairing

# The models name their rounds through this module, so it reaches them only through the
# tournament it is given (its ``Stage``, ``Format`` and ``matches``), never by import.
if TYPE_CHECKING:
    from games.tournaments.models import Tournament


def knockout_rounds(t: Tournament) -> int:
    """How many rounds the bracket has (0 before it is drawn)."""
    return (
        t.matches.filter(stage=t.Stage.KNOCKOUT)
        .order_by("-round_no").values_list("round_no", flat=True).first() or 0
    )


def round_name(t: Tournament, stage: str, round_no: int, ko_rounds: int | None = None) -> str:
    """The name of ``t``'s round ``round_no`` of ``stage``, capitalised to head a line; ``ko_rounds``
    (the bracket's rounds) saves a query where the caller knows it."""
    if stage == t.Stage.KNOCKOUT:
        rounds = knockout_rounds(t) if ko_rounds is None else ko_rounds
        name = pairing.round_name(round_no, max(rounds, round_no))
        return f"Playoff {lower_first(name)}" if t.has_qualifying else name
    if t.format == t.Format.ACC:
        return f"Qualifying round {round_no} of {t.qualifying_games}"
    return f"Round {round_no}"


def lower_first(text: str) -> str:
    """The name inside a sentence: "Moved on: playoff semi-finals"."""
    return text[:1].lower() + text[1:]
