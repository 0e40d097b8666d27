"""The paired-deal benchmark of an expert setting: the same player makes no difference, a changed
setting plays on the changed seat's turns only and is put back."""

import pytest

from bench import ai_variant
from games.engine.players import play_search


def test_the_expert_against_itself_makes_no_difference():
    assert ai_variant._chunk((3, 0, 4, [], "standard", (0, 115))) == [0.0] * 4


def test_a_changed_setting_changes_play_and_is_put_back():
    before = (play_search.MAX_SAMPLES, play_search.MIN_SAMPLES)
    one_hand = ["play_search.MAX_SAMPLES=1", "play_search.MIN_SAMPLES=1"]
    diffs = ai_variant._chunk((1, 0, 40, one_hand, "expert", (60, 115)))
    assert any(d != 0 for d in diffs)
    assert all(-1 <= d <= 1 for d in diffs)
    assert before == (play_search.MAX_SAMPLES, play_search.MIN_SAMPLES)


def test_a_setting_that_does_not_exist_is_refused_before_any_deal():
    with pytest.raises(SystemExit, match="no setting"):
        ai_variant.settings(["play_search.NO_SUCH_SETTING=1"])
