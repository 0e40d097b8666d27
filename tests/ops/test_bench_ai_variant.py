"""The paired-deal benchmark of an expert setting: the same player makes no difference, a changed
setting plays on the changed seat's turns only and is put back."""

import pytest

from bench import ai_variant
from games.engine.players import pegging


def test_the_expert_against_itself_makes_no_difference():
    assert ai_variant._chunk((3, 0, 4, [], "standard", (0, 115))) == [0.0] * 4


def test_a_changed_setting_changes_play_and_is_put_back():
    before = (pegging.MAX_SAMPLES, pegging.MIN_SAMPLES)
    one_hand = ["pegging.MAX_SAMPLES=1", "pegging.MIN_SAMPLES=1"]
    diffs = ai_variant._chunk((1, 0, 40, one_hand, "expert", (60, 115)))
    assert any(d != 0 for d in diffs)
    assert all(-1 <= d <= 1 for d in diffs)
    assert before == (pegging.MAX_SAMPLES, pegging.MIN_SAMPLES)


def test_a_setting_that_does_not_exist_is_refused_before_any_deal():
    with pytest.raises(SystemExit, match="no setting"):
        ai_variant.settings(["pegging.NO_SUCH_SETTING=1"])
