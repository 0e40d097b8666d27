"""Tests allowed one rerun, each with the reason it needs one.

A test lands here only while the cause of its failing now and then is being found; the fix takes
it off again. Everything else fails the run at its first failure. Keys are node ids as pytest
prints them (``tests/e2e/test_x.py::test_y[chromium]``); the reason is printed with the rerun.
"""

from __future__ import annotations

QUARANTINE: dict[str, str] = {}
