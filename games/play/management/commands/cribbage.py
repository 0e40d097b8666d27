"""``manage.py cribbage``: engine tools on the command line.

    python manage.py cribbage score 5H 5C 5S JD --starter 5D [--crib]
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.cards import format_cards, parse_card
from games.engine.scoring import score_hand

# How a group's kind reads at the start of its line; pairs and runs name their size instead.
LABELS = {"fifteen": "Fifteen", "flush": "Flush", "nobs": "His nobs"}
PAIR_LABELS = {2: "Pair", 3: "Pair royal", 4: "Double pair royal"}


class Command(BaseCommand):
    help = "Cribbage engine tools. `score`: the show breakdown of a hand (or crib) and starter."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        score = actions.add_parser("score", help="score 4 cards with a starter, item by item")
        score.add_argument("cards", nargs="+", help="the 4 hand cards, e.g. 5H 5C 5S JD")
        score.add_argument("--starter", required=True, help="the starter card, e.g. 5D")
        score.add_argument("--crib", action="store_true", help="score as the crib (only 5-card flushes)")

    def handle(self, *args: object, **options: object) -> None:
        if options["action"] == "score":
            self.score(options["cards"], options["starter"], bool(options["crib"]))

    def score(self, tokens: list[str], starter_token: str, crib: bool) -> None:
        hand = tuple(_card(token) for token in tokens)
        starter = _card(starter_token)
        try:
            result = score_hand(hand, starter, crib=crib)
        except ValueError as error:
            raise CommandError(str(error)) from error
        what = "Crib" if crib else "Hand"
        self.stdout.write(f"{what}: {format_cards(hand)}  Starter: {starter}")
        for group in result.groups:
            label = _label(group.kind, group.cards)
            self.stdout.write(f"{label}: {format_cards(group.cards)} for {group.points}")
        self.stdout.write(f"Total: {result.total}")


def _card(token: str):
    try:
        return parse_card(token)
    except ValueError as error:
        raise CommandError(f"bad card {token!r}: write rank A23456789TJQK then suit SHDC, e.g. 5H") from error


def _label(kind: str, cards: tuple) -> str:
    if kind == "pair":
        return PAIR_LABELS[len(cards)]
    if kind == "run":
        return f"Run of {len(cards)}"
    return LABELS[kind]
