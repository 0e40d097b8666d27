"""The teacher's words for what the engine counted: pegging scores and a hand counted at the show.

Every number here is the engine's (an event's points, a score group's points); the words only name
them, as a player says them aloud: "fifteen two", "a pair for two", "fifteen four, a pair is six".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine.events import Event
from games.play.templatetags.cribbage import card_short

NUMBER_WORDS = ("nothing", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve")
PEGGING_KINDS = ("his_heels", "fifteen", "thirty_one", "pair", "run", "go", "last_card")
PAIRS = {2: "a pair for two", 6: "a pair royal (three alike) for six",
         12: "a double pair royal (four alike) for twelve"}


def number(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def cards(seq: Iterable) -> str:
    return " ".join(card_short(c) for c in seq)


def score_words(event: Event) -> str:
    """One pegging score as it is called: ``fifteen two``, ``a pair for two``, ``a run of three for
    three``, ``one for the go``."""
    kind, points = event.kind, event.points
    if kind == "fifteen":
        return f"fifteen {number(points)}"
    if kind == "thirty_one":
        return f"thirty-one for {number(points)}"
    if kind == "pair":
        return PAIRS.get(points, f"pairs for {number(points)}")
    if kind == "run":
        return f"a run of {number(len(event.cards))} for {number(points)}"
    if kind == "go":
        return f"{number(points)} for the go"
    if kind == "last_card":
        return f"{number(points)} for the last card"
    if kind == "his_heels":
        return f"his heels (a jack turned as the starter) for {number(points)}"
    return f"{kind.replace('_', ' ')} for {number(points)}"


def joined(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


@dataclass(frozen=True)
class Step:
    """One card laid (or a go said) in the play and what it scored, for whom."""

    seat: int
    kind: str  # "play" or "say_go"
    card: str  # the card laid, as players write it ("" for a go)
    count: int | None  # the count the card made
    scores: tuple[Event, ...]  # the engine's scoring events that followed it
    reset: bool  # the count went back to 0 after it

    @property
    def points(self) -> int:
        return sum(e.points for e in self.scores)


def play_steps(log: Iterable[Event]) -> list[Step]:
    """The deal's play as steps: each card laid or go said, with the scores the engine pegged on it."""
    steps: list[dict] = []
    for e in log:
        if e.kind in ("play", "say_go"):
            steps.append({"seat": e.seat, "kind": e.kind, "card": cards(e.cards), "count": e.count,
                          "scores": [], "reset": False})
        elif steps and e.kind in PEGGING_KINDS and e.kind != "his_heels":
            steps[-1]["scores"].append(e)
        elif steps and e.kind == "reset":
            steps[-1]["reset"] = True
    return [Step(**{**s, "scores": tuple(s["scores"])}) for s in steps]


def step_sentence(step: Step, me: int, other: str) -> str:
    """``You played 5♥: the count is 15. You peg 4: fifteen two and a pair for two.``"""
    who = "You" if step.seat == me else other
    if step.kind == "say_go":
        said = (f"{who} cannot lay a card without passing 31, so {'you say' if step.seat == me else 'says'} "
                f"“go”.")
    else:
        said = f"{who} played {step.card}: the count is {step.count}."
    by_seat: dict[int, list[Event]] = {}
    for e in step.scores:
        by_seat.setdefault(e.seat, []).append(e)
    for seat, events in by_seat.items():
        total = sum(e.points for e in events)
        name = "You peg" if seat == me else f"{other} pegs"
        said += f" {name} {total}: {joined([score_words(e) for e in events])}."
    if step.reset:
        said += " The count starts again from 0."
    return said


# How each item of a counted hand is called, with the running total after it.
def show_calls(groups: Sequence) -> list[str]:
    """A hand's breakdown (the engine's score groups) called line by line with the running total:
    ``Fifteen two (5♥ 10♦)``, ``fifteen four (…)``, ``a pair is six (5♥ 5♠)``."""
    calls, running = [], 0
    for g in groups:
        running += g.points
        made = cards(g.cards)
        if g.kind == "fifteen":
            call = f"fifteen {number(running)}"
        elif g.kind == "pair":
            what = {2: "a pair", 6: "a pair royal", 12: "a double pair royal"}.get(g.points, "pairs")
            call = f"{what} is {number(running)}"
        elif g.kind == "run":
            call = f"a run of {number(len(g.cards))} is {number(running)}"
        elif g.kind == "flush":
            call = f"a flush of {number(len(g.cards))} is {number(running)}"
        elif g.kind == "nobs":
            call = f"his nobs (the jack of the starter's suit) is {number(running)}"
        else:
            call = f"{g.text.lower()}, {number(running)}"
        calls.append(f"{call[0].upper()}{call[1:]} ({made})")
    return calls
