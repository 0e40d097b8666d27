"""Events in words (``lines``), read by the board, the log, the replay, the record and the export."""

from __future__ import annotations

from .lines import *  # noqa: F403
from .lines import _line  # noqa: F401
