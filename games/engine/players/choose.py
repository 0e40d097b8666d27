"""The one entry point for computer players: :func:`choose_action` picks an action from a SeatView.

A computer player gets exactly what a human at that seat would see (``view(state, seat)``) and
answers with one of ``view.legal_actions``, so it cannot cheat by construction. Randomness comes
only from the ``random.Random`` passed in, so a seeded game replays identically.

Levels:

* ``easy``: random legal discards and plays (it still plays whenever it can: Go is only legal
  when nothing fits).
* ``standard``: keeps the four with the best average hand over the 46 starters (crib ignored);
  pegs greedily (``play_search.greedy_play``).
* ``expert``: lays away by the chance to win the game after the deal, in every position
  (``discard_chances``: the hand over the 46 starters, the crib's odds, the play as
  measured, shifted by what the kept four pegs and gives away, ``kept_four_pegging``; with the peg-out
  zone house rule or a target without a table, ``endgame``); pegs by lookahead over the
  opponent's possible hands (``play_search.search_play``), every line valued by the chance to win
  it leaves, at every score. At tables of three or four: the standard player's keep plus
  or minus what the card laid away is worth to the crib (``crib_card``), and a lookahead over
  deals of the unseen cards to the other seats (``table_play_search.table_play``).

``REFERENCE`` is the expert as it was before it played by winning chances (expected points, then
``endgame`` near the end; pegging valued in points): a fixed yardstick for ``bench.ai``, not a
level offered to players (it is not in ``LEVELS``); at tables of three and four it pegs greedily,
as the expert did then.

Every level counts its own hand truly (manual counting), calls muggins exactly when the
opponent under-counted, acknowledges the show and starts the next game; it never resigns.
"""

from __future__ import annotations

import random

from games.engine.actions import (
    AcceptCount,
    Action,
    CallMuggins,
    Count,
    CutForDeal,
    CutStarter,
    Discard,
    Go,
    NextDeal,
    NextGame,
    Play,
)
from games.engine.cards import DECK, Card
from games.engine.players import crib_card
from games.engine.scoring import hand_total
from games.engine.view import SeatView

from . import play_end_chances
from .discard import discard_table, hand_table
from .discard_chances import SplitChance, discard_chances
from .endgame import endgame_choice
from .play_search import PegSituation, greedy_play, search_play
from .table_play_search import table_play, table_situation

LEVELS = ("easy", "standard", "expert")
REFERENCE = "reference"


def choose_action(view: SeatView, level: str, rng: random.Random) -> Action:
    """The action the computer at ``view.seat`` takes now; always one of ``view.legal_actions``.

    Raises ``ValueError`` for an unknown level or when the seat has nothing to do.
    """
    if level not in LEVELS and level != REFERENCE:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    legal = view.legal_actions
    if not legal:
        raise ValueError("this seat has nothing to do now")
    first = legal[0]
    if isinstance(first, CutForDeal):
        return rng.choice(legal)
    if isinstance(first, Discard):
        return _discard(view, level, rng)
    if isinstance(first, Play | Go):
        return _play(view, level, rng)
    if isinstance(first, Count):
        return _true_count(view)
    if isinstance(first, CallMuggins | AcceptCount):
        return _muggins(view)
    if isinstance(first, CutStarter | NextDeal | NextGame):
        return first
    raise ValueError(f"no rule for {first!r}")  # pragma: no cover - every listed action is handled


# --- discard ----------------------------------------------------------------------------------


def _discard(view: SeatView, level: str, rng: random.Random) -> Action:
    legal = view.legal_actions
    if level == "easy":
        return rng.choice(legal)
    if view.players != 2:
        return _keep_best_four(view, crib_aware=level != "standard")
    hand6 = view.hand
    is_dealer = view.dealer == view.seat
    if level == "standard":
        laid = hand_table(hand6)[0].laid_away
    elif level == "expert" and (ranked := discard_ranking(view)) is not None:
        laid = ranked[0].option.laid_away
    else:
        table = discard_table(hand6, is_dealer)
        my_score, opp_score = _scores(view)
        laid = endgame_choice(
            table, hand6, is_dealer=is_dealer, my_score=my_score, opp_score=opp_score,
            target=view.target, peg_out_zone=view.rules.peg_out_zone,
        ).laid_away
    wanted = frozenset(laid)
    return next(a for a in legal if frozenset(a.cards) == wanted)


def discard_ranking(view: SeatView) -> list[SplitChance] | None:
    """Every split of a two-player hand by its chance to win, as the expert ranks them (its first
    is the expert's lay-away): the play shifted by what each four pegs. None where the expert does
    not lay away by winning chances (more players, the peg-out zone, a target without a table)."""
    if view.players != 2 or not play_end_chances.applies(view.target, view.rules.peg_out_zone):
        return None
    my_score, opp_score = _scores(view)
    is_dealer = view.dealer == view.seat
    return discard_chances(view.hand, is_dealer, my_score, opp_score, view.target, pegging=True)


def _keep_best_four(view: SeatView, *, crib_aware: bool = False) -> Action:
    """Three or four players (five cards, one laid away): keep the four with the best average hand
    over the 47 starters. ``crib_aware`` (the expert): plus what the card laid away is worth to the
    crib (``crib_card``), for the crib's owner and against everyone else (a partner's crib is
    one's own)."""
    hand = view.hand
    unseen = [c for c in DECK if c not in hand]
    sign = 0
    if crib_aware:
        ours = view.dealer == view.seat or (view.partner is not None and view.dealer == view.partner)
        sign = 1 if ours else -1
    values = crib_card.VALUES if sign else {}

    def worth(action: Discard) -> float:
        kept = [c for c in hand if c not in action.cards]
        laid = sum(values.get(c.rank, 0.0) for c in action.cards)
        return sum(hand_total(kept, s) for s in unseen) / len(unseen) + sign * laid

    return max(view.legal_actions, key=worth)


def _scores(view: SeatView) -> tuple[int, int]:
    """My side's score and the best of the other sides' (the one to fear near the end)."""
    mine = view.side_of(view.seat)
    return view.scores[mine], max(s for side, s in enumerate(view.scores) if side != mine)


# --- the play ---------------------------------------------------------------------------------


def _play(view: SeatView, level: str, rng: random.Random) -> Action:
    plays = [a for a in view.legal_actions if isinstance(a, Play)]
    if not plays:
        return view.legal_actions[0]  # Go: nothing fits
    if len(plays) == 1:
        return plays[0]
    if level == "easy":
        return rng.choice(plays)
    if level == "expert" and view.players != 2:
        card = table_play(table_situation(view), rng)
        return next(a for a in plays if a.card == card)
    sit = peg_situation(view)
    if level == "standard" or view.players != 2:
        card = greedy_play(sit)
    else:
        card = search_play(sit, rng, by_chances=level == "expert")
    return next(a for a in plays if a.card == card)


def peg_situation(view: SeatView) -> PegSituation:
    """What ``view.seat`` knows about the play, in the form the pegging code wants."""
    seat = view.seat
    opp = (seat + 1) % view.players  # with more players: the next to play (only greedy is used then)
    starter = view.starter
    seen: set[Card] = set(view.kept) | set(view.discards) | set(view.hand)
    seen.update(c for _, c in view.plays)
    if starter is not None:
        seen.add(starter)
    unseen = tuple(c for c in DECK if c not in seen)
    kept = view.kept
    my_score, opp_score = _scores(view)
    return PegSituation(
        hand=view.hand,
        opp_cards=view.hand_sizes[opp],
        series=tuple(c for _, c in view.series),
        count=view.count,
        opp_gone=view.gone[opp],
        unseen=unseen,
        opp_min_value=_opp_min_value(view, opp) if view.players == 2 else 1,
        my_score=my_score,
        opp_score=opp_score,
        target=view.target,
        i_am_dealer=view.dealer == seat,
        my_show=hand_total(kept, starter) if starter is not None and len(kept) == 4 else None,
        opp_played=tuple(c for s, c in view.plays if s == opp),
        starter=starter,
        peg_out_zone=view.rules.peg_out_zone,
        opp_history=_opp_history(view, opp) if view.players == 2 else (),
    )


def _opp_history(view: SeatView, opp: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The opponent's plays this deal: (ranks of the series before the card, the card's rank)."""
    series: list[int] = []
    out = []
    for event in view.log:
        if event.kind == "play":
            rank = event.cards[0].rank
            if event.seat == opp:
                out.append((tuple(series), rank))
            series.append(rank)
        elif event.kind == "reset":
            series = []
    return tuple(out)


def _opp_min_value(view: SeatView, opp: int) -> int:
    """The least a card still in the opponent's hand can be worth, from the deal's log.

    When the opponent says go, or a go is scored (nobody could play), every card the opponent
    held was worth more than 31 minus the count; those cards are still all they hold.
    """
    count = 0
    least = 1
    for event in view.log:
        if event.kind == "play":
            count += event.cards[0].value
        elif event.kind == "reset":
            count = 0
        elif (event.kind == "say_go" and event.seat == opp) or event.kind == "go":
            least = max(least, 32 - count)
    return least


# --- the show ---------------------------------------------------------------------------------


def _true_count(view: SeatView) -> Action:
    entry = view.show[-1]
    points = hand_total(entry.cards, entry.starter, crib=entry.kind == "crib")
    counts = [a for a in view.legal_actions if isinstance(a, Count)]
    return next((a for a in counts if a.points == points), counts[-1])


def _muggins(view: SeatView) -> Action:
    entry = view.show[-1]
    points = hand_total(entry.cards, entry.starter, crib=entry.kind == "crib")
    if entry.claimed is not None and entry.claimed < points:
        return CallMuggins(view.seat)
    return AcceptCount(view.seat)
