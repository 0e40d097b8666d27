"""House rules, chosen when a game is created and stored with it (see RULES.md, "House rules")."""

from __future__ import annotations

from dataclasses import asdict, dataclass

PEG_OUT_ZONES = (0, 1, 5)
MATCH_LENGTHS = (1, 3, 5, 7)
TARGETS = (121, 61)


@dataclass(frozen=True)
class HouseRules:
    """All per-game options. Defaults are the ACC game: 121, skunks on, automatic counting.

    >>> HouseRules().skunk_line, HouseRules(target=61).skunk_line, HouseRules(target=61).double_skunk_line
    (91, 31, None)
    """

    target: int = 121
    skunks: bool = True
    triple_skunk: bool = False
    peg_out_zone: int = 0
    manual_counting: bool = False
    muggins: bool = False
    match_games: int = 1  # best of N games (1 = a single game)
    players: int = 2  # 2, 3, or 4 (two partnerships)
    # The pone cuts the pack for the starter (``CutStarter``); off, the starter turns by itself
    # once the crib is laid away. Off by default so a bare engine game needs no extra action.
    pone_cuts: bool = False

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise ValueError(f"game length must be one of {TARGETS}")
        if self.peg_out_zone not in PEG_OUT_ZONES:
            raise ValueError(f"peg-out zone must be one of {PEG_OUT_ZONES}")
        if self.match_games not in MATCH_LENGTHS:
            raise ValueError(f"match length must be one of {MATCH_LENGTHS}")
        if self.muggins and not self.manual_counting:
            raise ValueError("muggins needs manual counting")
        if self.triple_skunk and not self.skunks:
            raise ValueError("triple skunk needs skunks on")
        if self.players not in (2, 3, 4):
            raise ValueError("two, three or four players")

    @property
    def skunk_line(self) -> int:
        """The loser must reach this score to avoid a skunk (91 in a 121 game, 31 in a 61 game)."""
        return 91 if self.target == 121 else 31

    @property
    def double_skunk_line(self) -> int | None:
        return 61 if self.target == 121 else None

    @property
    def triple_skunk_line(self) -> int | None:
        return 31 if self.target == 121 and self.triple_skunk else None

    @property
    def games_to_win_match(self) -> int:
        return self.match_games // 2 + 1

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> HouseRules:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
