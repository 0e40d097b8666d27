"""A round's one name, said the same way on the desk, its messages, the log, the public pages and
the printed sheets: "Round 3", "Qualifying round 3 of 9", "Semi-finals", "Playoff semi-finals".

The tournament says which round it is (``Tournament.round_name``: its stage, its format, the
bracket's size); this module words it from those plain facts, and needs nothing back."""

from __future__ import annotations

from games.tournaments import pairing


def round_name(
    round_no: int, *, knockout_rounds: int | None = None, playoff: bool = False, qualifying_of: int = 0
) -> str:
    """Round ``round_no``, capitalised to head a line: of a bracket of ``knockout_rounds`` (a
    playoff's after qualifying), of ``qualifying_of`` qualifying rounds, or of a round robin.

    >>> round_name(3), round_name(3, qualifying_of=9)
    ('Round 3', 'Qualifying round 3 of 9')
    >>> round_name(2, knockout_rounds=3), round_name(2, knockout_rounds=3, playoff=True)
    ('Semi-finals', 'Playoff semi-finals')
    """
    if knockout_rounds is not None:
        name = pairing.round_name(round_no, max(knockout_rounds, round_no))
        return f"Playoff {lower_first(name)}" if playoff else name
    if qualifying_of:
        return f"Qualifying round {round_no} of {qualifying_of}"
    return f"Round {round_no}"


def lower_first(text: str) -> str:
    """The name inside a sentence: "Moved on: playoff semi-finals"."""
    return text[:1].lower() + text[1:]
