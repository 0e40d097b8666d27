"""Stored events carry the version of their shape, so a later change of a kind's fields is an upgrade
of the stored dicts, not a replay of every game through the engine of the day."""

from __future__ import annotations

import pytest

from games.engine import events
from games.engine.cards import parse_cards
from games.engine.events import EVENT_VERSION, Event, upgrade


def test_an_event_is_stored_with_the_version_of_its_shape() -> None:
    stored = Event(0, "pair", 2, parse_cards("5H 5S")).to_dict()
    assert stored["v"] == EVENT_VERSION
    assert Event.from_dict(stored) == Event(0, "pair", 2, parse_cards("5H 5S"))


def test_an_event_stored_before_versions_reads_as_version_one() -> None:
    old = {"seat": 1, "kind": "play", "points": 0, "cards": ["5H"], "count": 15}
    assert upgrade(old) == {**old, "v": 1}
    assert Event.from_dict(old) == Event(1, "play", cards=parse_cards("5H"), count=15)
    assert "v" not in old  # the stored dict is left as it is


def test_each_version_is_upgraded_in_turn(monkeypatch) -> None:
    # A later shape: version 2 names the count "total", version 3 drops "points" when it is 0.
    def to_two(data: dict) -> dict:
        data = {**data, "v": 2}
        if "count" in data:
            data["total"] = data.pop("count")
        return data

    def to_three(data: dict) -> dict:
        return {key: value for key, value in data.items() if not (key == "points" and value == 0)} | {"v": 3}

    monkeypatch.setattr(events, "EVENT_VERSION", 3)
    monkeypatch.setattr(events, "UPGRADES", {1: to_two, 2: to_three})
    old = {"seat": 1, "kind": "play", "points": 0, "cards": ["5H"], "count": 15}
    want = {"seat": 1, "kind": "play", "cards": ["5H"], "total": 15, "v": 3}
    assert upgrade(old) == want
    assert upgrade({**old, "v": 1}) == want
    assert upgrade(to_two(old)) == want
    assert upgrade(want) == want


def test_an_event_from_a_newer_version_is_refused() -> None:
    with pytest.raises(ValueError, match="version 2"):
        Event.from_dict({"seat": 0, "kind": "go", "points": 1, "cards": [], "v": EVENT_VERSION + 1})


def test_every_version_below_todays_has_its_upgrade() -> None:
    assert set(events.UPGRADES) == set(range(1, EVENT_VERSION))
