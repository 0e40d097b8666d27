"""``manage.py cribbage score`` (no database needed)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(*args: str) -> list[str]:
    out = StringIO()
    call_command("cribbage", *args, stdout=out)
    return out.getvalue().splitlines()


def test_score_prints_every_item_and_the_total() -> None:
    lines = run("score", "5H", "5C", "5S", "JD", "--starter", "5D")
    assert lines[0] == "Hand: 5H 5C 5S JD  Starter: 5D"
    assert "Fifteen: 5H JD for 2" in lines
    assert "Fifteen: 5H 5C 5S for 2" in lines
    assert sum(line.startswith("Fifteen: ") for line in lines) == 8
    assert "Double pair royal: 5H 5C 5S 5D for 12" in lines
    assert "His nobs: JD for 1" in lines
    assert lines[-1] == "Total: 29"


def test_score_runs_and_crib_flush() -> None:
    lines = run("score", "2H", "3H", "4H", "5H", "--starter", "6S", "--crib")
    assert lines[0].startswith("Crib: ")
    assert "Run of 5: 2H 3H 4H 5H 6S for 5" in lines
    assert not any(line.startswith("Flush") for line in lines)
    assert lines[-1] == "Total: 9"
    lines = run("score", "2H", "3H", "4H", "5H", "--starter", "6S")
    assert "Flush: 2H 3H 4H 5H for 4" in lines
    assert lines[-1] == "Total: 13"


def test_zero_hand_prints_only_the_total() -> None:
    assert run("score", "2H", "4S", "6D", "8C", "--starter", "KH")[1:] == ["Total: 0"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("5H", "5X", "5S", "JD", "--starter", "5D"), "5X"),
        (("5H", "5C", "5S", "JD", "--starter", "ZZ"), "ZZ"),
        (("5H", "5C", "5S", "--starter", "5D"), "4 cards"),
        (("5H", "5C", "5S", "5D", "--starter", "5D"), "different"),
    ],
)
def test_bad_input_is_a_command_error(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run("score", *args)
