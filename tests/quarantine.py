"""Tests allowed one rerun, each with the reason it needs one.

A test lands here only while the cause of its failing now and then is being found; the fix takes
it off again. Everything else fails the run at its first failure. Keys are node ids as pytest
prints them (``tests/e2e/test_x.py::test_y[chromium]``); the reason is printed with the rerun.
"""

from __future__ import annotations

QUARANTINE: dict[str, str] = {
    "tests/history/test_e2e_history.py::test_replay_presses_as_a_step_lands_are_steps_by_htmx[chromium]":
        "once in five whole-suite runs on a busy machine, the Right arrow pressed just after the last"
        " quick pair of steps asked for no step within 15 s (passes alone, 6 of 6): a press queued"
        " behind a step whose settle replay.js did not hear is the suspect",
}
