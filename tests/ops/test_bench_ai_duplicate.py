"""The duplicate-games harness behind ``bench.ai --duplicate``: seeds run together are the same
games as seeds run alone, and the report adds up."""

from __future__ import annotations

from bench.ai import wilson
from bench.ai_duplicate import duplicate


def test_seeds_run_together_report_each_seed_as_run_alone():
    together = duplicate("easy", "standard", pairs=3, seed=11, processes=1, wilson=wilson, seeds=2)
    alone = [duplicate("easy", "standard", pairs=3, seed=s, processes=1, wilson=wilson) for s in (11, 12)]
    assert together["rate_by_seed"] == {11: alone[0]["rate"], 12: alone[1]["rate"]}
    assert together["games"] == 12 and together["pairs"] == 6
    assert together["wins"] == alone[0]["wins"] + alone[1]["wins"]
    assert sum(together["pair_counts"]) == 6
    lo, hi = together["ci95"]
    assert lo <= together["rate"] <= hi
