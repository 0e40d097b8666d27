"""Test-support and replay tooling: start a deal from a chosen deck order. Never used by live games.

A live game's decks always come from its secret (``deck.py``), so replaying its Move log rebuilds
it exactly. States made here do not follow that rule: a replay of their actions from ``new_game``
gives other cards. Use them to set up particular situations in tests, or in tools that re-run a
recorded deal from its known cards.

>>> from games.engine.cards import parse_card, parse_cards
>>> from games.engine.rules import HouseRules
>>> state = start_deal(HouseRules(), dealer=0,
...                    hands=("2H 3H 4H 5H 6H 7H", "2S 3S 4S 5S 6S 7S"), starter="JD", scores=(100, 110))
>>> state.phase, state.dealer, state.hands[1][:2], state.scores
('discard', 0, (Card(rank=2, suit='S'), Card(rank=3, suit='S')), (100, 110))
>>> state.deck[12] == parse_card("JD") and state.deck[0] == parse_card("2S")  # pone gets the first card
True
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import Card, full_deck, parse_card, parse_cards
from games.engine.game import _deal_from, new_game
from games.engine.rules import HouseRules
from games.engine.state import GameState, dealt_count, hand_size
from games.engine.working_copy import Draft


def _cards(cards: str | Sequence[Card] | Sequence[str]) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(c if isinstance(c, Card) else parse_card(c) for c in cards)


def complete_deck(top: str | Sequence[Card]) -> tuple[Card, ...]:
    """``top`` followed by every other card in ``full_deck()`` order: a 52-card deck."""
    head = _cards(top)
    if len(set(head)) != len(head):
        raise ValueError("a card appears twice in the deck")
    rest = tuple(c for c in full_deck() if c not in set(head))
    return head + rest


def stacked_deck(dealer: int, hands: Sequence, starter: str | Card, players: int | None = None,
                 crib_card: str | Card | None = None) -> tuple[Card, ...]:
    """The deck (top first) that deals ``hands[seat]`` to each seat and turns ``starter``.

    Cards are dealt one at a time, pone (the seat left of the dealer) first, so the deck
    interleaves the hands; with three players ``crib_card`` comes next (it goes to the crib); the
    starter follows (``deck[12]``, ``deck[16]`` or ``deck[20]``). ``players`` defaults to
    ``len(hands)``.

    >>> from games.engine.cards import format_cards
    >>> deck = stacked_deck(2, ["2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S", "2D 3D 4D 5D 6D"], "JC", crib_card="KD")
    >>> format_cards(deck[:3]), deck[15], deck[16]
    ('2H 2S 2D', Card(rank=13, suit='D'), Card(rank=11, suit='C'))
    """
    players = len(hands) if players is None else players
    size = hand_size(players)
    per_seat = [_cards(h) for h in hands]
    if len(per_seat) != players or any(len(h) != size for h in per_seat):
        raise ValueError(f"give {players} hands of {size} cards")
    order = [(dealer + 1 + i) % players for i in range(players)]
    top = [per_seat[order[i % players]][i // players] for i in range(players * size)]
    if (players == 3) != (crib_card is not None):
        raise ValueError("give a crib_card with three players, and only then")
    if crib_card is not None:
        top.append(crib_card if isinstance(crib_card, Card) else parse_card(crib_card))
    starter_card = starter if isinstance(starter, Card) else parse_card(starter)
    deck = complete_deck([*top, starter_card])
    assert deck[dealt_count(players)] == starter_card
    return deck


def deal_with_deck(state: GameState, deck: str | Sequence[Card]) -> GameState:
    """Redo the current deal (phase ``discard``, nobody has laid away yet) from ``deck``, top
    first; a partial deck is completed by :func:`complete_deck`. Tests and replay tooling only."""
    if state.phase != "discard" or any(state.discards):
        raise ValueError("deal_with_deck needs a fresh deal (phase 'discard', nothing laid away)")
    full = complete_deck(deck)
    draft = Draft(state)
    _deal_from(draft, full)
    draft.log = state.log  # the deal was already announced
    draft.events.clear()
    return draft.freeze()


def start_deal(
    rules: HouseRules,
    *,
    dealer: int,
    hands: Sequence,
    starter: str | Card,
    scores: Sequence[int] | None = None,
    secret: bytes = b"test",
    match_scores: Sequence[int] | None = None,
    game_no: int = 0,
    deal_no: int = 0,
    crib_card: str | Card | None = None,
) -> GameState:
    """A state at the start of a deal (phase ``discard``) with the given hands, starter and
    scores (per side: see ``state.py``): skips the cut for deal. The number of players is
    ``rules.players``; three players need the ``crib_card``. Tests and replay tooling only."""
    state = new_game(rules, secret)
    n = state.players
    draft = Draft(state)
    draft.dealer = dealer
    draft.game_no = game_no
    draft.deal_no = deal_no
    if scores is not None:
        draft.scores = tuple(scores)
        draft.back_pegs = tuple(scores)
    if match_scores is not None:
        draft.match_scores = tuple(match_scores)
    _deal_from(draft, stacked_deck(dealer, hands, starter, n, crib_card))
    return draft.freeze()


def with_scores(state: GameState, scores: Sequence[int]) -> GameState:
    """``state`` with the scores (and back pegs, per side) set: to reach end-game situations in tests."""
    draft = Draft(state)
    draft.scores = tuple(scores)
    draft.back_pegs = tuple(scores)
    return draft.freeze()
