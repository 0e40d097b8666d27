"""Computer players, discard hints and after-game analysis (pure Python, no Django).

>>> import random
>>> from games.engine.game import new_game, apply
>>> from games.engine.rules import HouseRules
>>> from games.engine.view import view
>>> state = new_game(HouseRules(), b"players doc")
>>> rng = random.Random(1)
>>> for seat in (0, 1):
...     state, _ = apply(state, choose_action(view(state, seat), "expert", rng))
>>> state.phase
'discard'
"""

from __future__ import annotations

from .choose import LEVELS, choose_action
from .discard import DiscardAnalysis, DiscardOption, analyse_discard, discard_table, hand_table

__all__ = [
    "LEVELS", "DiscardAnalysis", "DiscardOption", "analyse_discard", "choose_action", "discard_table",
    "hand_table",
]
