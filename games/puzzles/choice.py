"""Which deal makes a day's puzzle: one from a finished two-player game played here when one has a
clear answer, otherwise one dealt for the day. The same day always gives the same deal.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import date

from games.engine.cards import DECK, format_cards, parse_cards
from games.engine.players.discard_chances import SplitChance, discard_chances
from games.history.replay import ReplayError
from games.history.summaries import summaries_for
from games.play.models import Game

# The best split must win at least one game in a hundred more than the second best. Below that the
# two are a matter of taste (in random deals about half are under it, many exactly tied), and the
# engine's win table, measured from sampled deals, is not sure of differences much smaller; a point
# in a hundred is what a regular player feels over a month of games.
MARGIN = 0.01
# How many of the latest finished games are looked at, and how many deals valued (each about 40 ms).
RECENT_GAMES = 200
DEALS_TRIED = 60
GENERATED_TRIES = 400

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Deal:
    hand: tuple
    is_dealer: bool
    my_score: int
    their_score: int
    target: int
    game_id: int | None = None
    deal_ref: str = ""


@dataclass(frozen=True)
class Choice:
    deal: Deal
    table: list[dict]
    margin: float


def split_rows(chances: list[SplitChance]) -> list[dict]:
    """The engine's table as stored with the puzzle, best first."""
    return [{
        "laid_away": format_cards(c.option.laid_away), "kept": format_cards(c.option.kept),
        "expected_hand": round(c.option.expected_hand, 3), "expected_crib": round(c.option.expected_crib, 3),
        "net": round(c.option.net, 3), "win": round(c.win, 5),
    } for c in chances]


def valued(deal: Deal) -> Choice:
    chances = discard_chances(deal.hand, deal.is_dealer, deal.my_score, deal.their_score, deal.target)
    return Choice(deal, split_rows(chances), chances[0].win - chances[1].win)


def played_deals(*, exclude: set[tuple[int, str]] = frozenset()) -> list[Deal]:
    """Both seats' six cards of every deal of the latest finished two-player games (summaries kept by
    history), but for the deals already used."""
    deals = []
    games = Game.objects.finished().filter(players=2).order_by("-pk")[:RECENT_GAMES]
    for game in games:
        try:
            summaries = summaries_for(game)
        except ReplayError:
            # A log that no longer replays (an old game of a changed engine) has no deals to offer.
            log.warning("puzzle choice skips game=%s: its moves do not replay", game.pk)
            continue
        for summary in summaries:
            if summary.get("players", len(summary.get("hands", []))) != 2:
                continue
            before = summary.get("scores_before") or [0, 0]
            if max(before) >= game.target:
                continue
            for seat, cards in enumerate(summary.get("hands", [])):
                ref = f"{summary['game_no']}.{summary['deal_no']}.{seat}"
                if len(cards) != 6 or (game.pk, ref) in exclude:
                    continue
                deals.append(Deal(tuple(parse_cards(" ".join(cards))), summary["dealer"] == seat,
                                  before[seat], before[1 - seat], game.target, game.pk, ref))
    return deals


def dealt_for(rng: random.Random) -> Deal:
    """A deal for the day: the scores spread over the whole game, often near the end, where the
    chance to win and the points part ways."""
    target = 121
    hand = tuple(rng.sample(DECK, 6))
    late = rng.random() < 0.5
    low = target - 35 if late else 0
    scores = rng.randrange(low, target - 1), rng.randrange(low, target - 1)
    return Deal(hand, rng.random() < 0.5, *scores, target)


def choose(day: date, *, used: set[tuple[int, str]] = frozenset()) -> Choice:
    """The day's puzzle: the first deal, in an order fixed by the day, whose margin is ``MARGIN``."""
    rng = random.Random(day.toordinal())
    deals = played_deals(exclude=used)
    rng.shuffle(deals)
    for deal in deals[:DEALS_TRIED]:
        choice = valued(deal)
        if choice.margin >= MARGIN:
            return choice
    best: Choice | None = None
    for _ in range(GENERATED_TRIES):
        choice = valued(dealt_for(rng))
        if choice.margin >= MARGIN:
            return choice
        best = choice if best is None or choice.margin > best.margin else best
    return best  # not reached in practice: about half of all deals clear the margin
