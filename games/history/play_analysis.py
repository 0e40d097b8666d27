"""After-game analysis of the play: each card a person laid in the pegging against the best card by
the expert's search, in the play's points and in the chance to win.

The game is replayed from its log; at each card a person laid with a real choice (two or more
ranks that fit) the expert's search (``play_search.search_values``) values every card they could have
laid, from what that seat could see. What the card cost is the best card's value less its own:

* far from the end the search is run in the play's points (mine minus theirs over what it
  searched), so the cost reads in points as well; a point's worth in winning chances at the score
  of the moment (the win-probability table: half a point more for one side, half less for the
  other) turns that into "−x.x% to win". The expert itself plays in chances there; the two part only
  where a point is worth more to one side than to the other;
* near the end, with a table for the target, the search values a card by the chance to win it
  leads to, so the cost is in chances only;
* near the end without a table (the peg-out zone, another target) a value mixes points with won
  and lost games: neither figure is given.

Only two-player games are analysed; computers are not judged, nor a card the site laid for a
player whose clock ran out. The search is seeded from the game
and the step, so the analysis is the same each time it is made. It takes a while (a search per
card), so a task makes it once, when the game ends, and keeps it (``games.history.tasks``): a
finished game never changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine.actions import Play
from games.engine.players.choose import peg_situation
from games.engine.players.play_search import endgame_matters, search_values
from games.engine.players.situation import WIN
from games.engine.view import view
from games.engine.winprob import TARGETS, win_chance
from games.history.analysis import chance_lost
from games.history.replay import ReplayError, replay_steps
from games.play.models import Game

POINTS_BEST = 0.05  # a card within this many points of the best is the best (sampling noise)
WIN_BEST = 0.0005  # and near the end, within this share of the chance to win


@dataclass(frozen=True)
class PlayVerdict:
    game_no: int
    deal_no: int
    seat: int
    count: int  # the count the card was laid on
    held: str  # the cards the player held then
    chosen: str
    best: str
    points_loss: float | None = None  # None: not in points (see the module's doc)
    win_loss: float | None = None  # None: not computable

    @property
    def is_best(self) -> bool:
        return self.chosen == self.best

    @property
    def points_text(self) -> str:
        if self.points_loss is None:
            return ""
        return "best" if self.points_loss < POINTS_BEST else f"−{self.points_loss:.1f}"

    @property
    def win_loss_text(self) -> str:
        return chance_lost(self.win_loss)


def _point_worth(my_score: int, their_score: int, i_deal_next: bool, target: int) -> float:
    """A point of the play's margin in winning chances at these scores: half a point to me and half
    a point fewer to the other side, from the table at the next deal's start."""
    up = win_chance(my_score + 1, their_score, i_deal_next, target)
    down = win_chance(my_score, their_score + 1, i_deal_next, target)
    return max(0.0, (up - down) / 2)


def play_verdicts(game: Game) -> list[PlayVerdict]:
    """Every card a person laid with a choice, in a finished two-player game."""
    if game.players != 2 or game.status != Game.Status.FINISHED:
        return []
    people = {s.index for s in game.seats.all() if not s.is_computer}
    out = []
    try:
        for step in replay_steps(game, check=False):
            action = step.action
            if not isinstance(action, Play) or action.seat not in people or step.move.by_timeout:
                continue  # the site's card on a timeout is not the player's choice
            v = view(step.before, action.seat)
            sit = peg_situation(v)
            if len({c.rank for c in sit.playable()}) < 2:
                continue  # no choice: nothing to judge
            # Far from the end a card's cost reads in points (and their worth in chances); near it
            # in chances.
            rng = random.Random(f"{game.pk}:{step.number}")
            values = search_values(sit, rng, by_chances=endgame_matters(sit))
            best = values.best()
            cost = max(0.0, values.value(best.rank) - values.value(action.card.rank))
            points = win = None
            if values.in_chances:
                win = cost / (2 * WIN)
                if win < WIN_BEST:
                    win = 0.0  # as good as the best, within the sampling's noise
            elif not values.mixed:
                points = cost
                if cost < POINTS_BEST:
                    win = 0.0  # as good as the best, within the sampling's noise
                elif v.target in TARGETS:
                    win = cost * _point_worth(sit.my_score, sit.opp_score, not sit.i_am_dealer, v.target)
            # Cards of one rank peg alike: the one laid is the best if its rank is, or if it is as
            # good within the search's sampling noise.
            as_good = (points is not None and points < POINTS_BEST) or (
                points is None and win is not None and win < WIN_BEST)
            best_text = str(action.card) if action.card.rank == best.rank or as_good else str(best)
            out.append(PlayVerdict(
                step.before.game_no, step.before.deal_no, action.seat, v.count,
                " ".join(str(c) for c in v.hand), str(action.card), best_text, points, win,
            ))
    except ReplayError:
        return []
    return out


def play_report(game: Game) -> dict:
    """Verdicts and per-seat totals, worked out from the game (a search per card)."""
    verdicts = play_verdicts(game)
    totals: dict[int, dict] = {}
    for v in verdicts:
        t = totals.setdefault(v.seat, {"seat": v.seat, "cards": 0, "best": 0, "points": 0.0, "worst": 0.0})
        t["cards"] += 1
        t["best"] += v.is_best
        t["points"] += v.points_loss or 0.0
        t["worst"] = max(t["worst"], v.win_loss or 0.0)
    for t in totals.values():
        # The costliest card, not a sum: chances given away at different scores do not add up.
        t["worst_text"] = chance_lost(t["worst"]) if t["worst"] >= WIN_BEST else ""
    return {"verdicts": verdicts, "totals": sorted(totals.values(), key=lambda t: t["seat"])}
