"""The cribbage state machine: :func:`new_game`, :func:`apply`, :func:`legal_actions`.

``apply(state, action)`` returns ``(new_state, events)`` or raises an :class:`IllegalAction`
subclass; the old state is never changed (states are frozen), so a refused action leaves
everything as it was. What a seat may see is :func:`games.engine.view.view`.

>>> from games.engine.rules import HouseRules
>>> state = new_game(HouseRules(), b"a private secret")
>>> state.phase
'cut'
>>> state, events = apply(state, CutForDeal(0, 10))
>>> state, events = apply(state, CutForDeal(1, 40))
>>> [e.kind for e in events][:3]
['cut', 'cut', 'dealer']
>>> state.phase, len(state.hands[0]), len(legal_actions(state, 0))
('discard', 6, 15)
>>> apply(state, Play(0, state.hands[0][0]))
Traceback (most recent call last):
...
games.engine.errors.WrongPhase: You can't play a card now: lay away two cards first

Flows (two, three or four players; everything goes clockwise, seat + 1 being the left; with four
players seats 0 and 2 play seats 1 and 3 and each partnership shares one score, see ``state.py``):

* **Cut**: every seat sends ``CutForDeal`` with a distinct position; when all have, the cards are
  revealed; the lowest rank deals; when two or more share the lowest rank every seat cuts again
  (``cut_attempt + 1``, a new deck).
* **Discard**: each seat sends ``Discard`` (two cards with two players, one with three or four; with
  three the deck's next card already lies in the crib); when all have, the seat right of the
  dealer cuts and the starter is turned (``deck[12]``, ``deck[16]`` or ``deck[20]``) and a jack
  scores his heels for the dealer at once. With ``pone_cuts`` the phase is ``starter`` until that
  seat (``turn``) sends ``CutStarter``; without it the starter turns as the last card is laid away.
* **Play**: ``turn`` is the seat to act; the seat left of the dealer (the pone) leads. It must
  ``Play`` a card that fits if it has one, else ``Go``. The turn passes clockwise; seats with no
  cards, or that have said go in this series, are passed over. When the turn would come back to
  the seat that laid the last card and it cannot play either, that seat scores the go at once (it
  never has to say go itself), the count resets and the next seat clockwise that still holds
  cards leads. Pairs and runs count whoever laid the earlier cards (a partner's too). 31 scores
  in the pegging and resets at once; the last card of the play scores 1 unless it made 31.
* **Show**: the hands from the dealer's left round to the dealer's, then the crib. Automatic
  counting scores them all at once. Manual counting asks each due seat for one ``Count``. An
  over-claim pegs the true worth (with muggins on, the seat on the counter's left pegs the
  excess); after an under-claim or an exact one, with muggins on, the next opponent clockwise
  (the seat on the counter's left) must ``CallMuggins`` or ``AcceptCount``. A seat in the
  peg-out zone is skipped. Then every seat sends ``NextDeal`` and the deal passes to the left.
* **End**: a side reaching the target ends the game at that instant (``game_over``, or
  ``match_over`` when the match is decided); ``NextGame`` starts the next game of a match with
  the loser dealing. ``Resign`` ends the match at once.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from itertools import combinations

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
    Resign,
)
from games.engine.cards import JACK, Card
from games.engine.deck import cut_seed, deal_seed, shuffle
from games.engine.errors import CardNotInHand, GameOver, IllegalAction, NotYourTurn, WrongPhase
from games.engine.events import Event
from games.engine.pegging import play_card, say_go
from games.engine.rules import HouseRules
from games.engine.show import MAX_CLAIM, accept_count, call_muggins, count_hand
from games.engine.state import DUE, GameState, dealt_count, discard_size, hand_size
from games.engine.working_copy import (
    NUMBER_WORDS,
    Draft,
    Ended,
    cards_word,
    finish_game,
    finish_match,
    left_of,
    peg,
    set_at,
)

__all__ = [
    "AcceptCount", "Action", "CallMuggins", "Count", "CutForDeal", "CutStarter", "Discard", "GameState", "Go",
    "NextDeal", "NextGame", "Play", "Resign", "apply", "legal_actions", "new_game",
]

CUT_DECK_SIZE = 52


def new_game(rules: HouseRules, secret: bytes, *, players: int | None = None) -> GameState:
    """A new match (one game or best of N) waiting for the cut for deal.

    ``secret`` is the game's private seed: every deck comes from it (see ``deck.py``), so the same
    secret and the same actions always give the same game. ``players`` (2, 3 or 4) defaults to
    ``rules.players`` and is stored in the rules.

    >>> new_game(HouseRules(target=61), b"s").rules.target
    61
    >>> state = new_game(HouseRules(), b"s", players=4)
    >>> state.players, state.scores, state.teams
    (4, (0, 0), ((0, 2), (1, 3)))
    """
    n = rules.players if players is None else players
    if n not in (2, 3, 4):
        raise ValueError("two, three or four players")
    if n != rules.players:
        rules = replace(rules, players=n)
    if not isinstance(secret, bytes | bytearray) or not secret:
        raise ValueError("the secret must be non-empty bytes")
    return GameState.initial(rules, bytes(secret))


# --- apply --------------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``action`` and return the new state and the events it produced, in order.

    Raises an :class:`IllegalAction` subclass (``WrongPhase``, ``NotYourTurn``, ``CardNotInHand``,
    ``CountExceeds31``, ``GameOver``) with a message fit to show the player; ``state`` is unchanged.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"Unknown action {action!r}")
    seat = action.seat
    if not isinstance(seat, int) or not 0 <= seat < state.rules.players:
        raise IllegalAction(f"There is no seat {seat!r} at this table")
    if state.phase == "match_over":
        raise GameOver("The match is over")
    draft = Draft(state)
    with suppress(Ended):  # the target was reached: the draft is the final state
        handler(draft, action)
    return draft.freeze(), tuple(draft.events)


# --- cut for deal -------------------------------------------------------------------------------


def _cut(d: Draft, action: CutForDeal) -> None:
    seat, position = action.seat, action.position
    if d.phase != "cut":
        raise WrongPhase("The cut for deal is over")
    if d.cut_positions[seat] is not None:
        raise NotYourTurn("You have already cut: waiting for the other cut"
                          if d.players == 2 else "You have already cut: waiting for the other cuts")
    if not isinstance(position, int) or not 0 <= position < CUT_DECK_SIZE:
        raise IllegalAction(f"Pick a card from 0 to {CUT_DECK_SIZE - 1}")
    if position in d.cut_positions:
        raise IllegalAction("That card has already been picked: choose another")
    d.cut_positions = set_at(d.cut_positions, seat, position)
    if None in d.cut_positions:
        return
    deck = shuffle(cut_seed(d.secret, d.game_no, d.cut_attempt))
    cards = tuple(deck[p] for p in d.cut_positions)
    d.cut_cards = cards
    for s, card in enumerate(cards):
        d.emit(Event(s, "cut", cards=(card,)))
    low = min(c.rank for c in cards)
    lows = [s for s, c in enumerate(cards) if c.rank == low]
    if len(lows) > 1:
        d.emit(Event(None, "recut", cards=tuple(cards[s] for s in lows)))
        d.cut_attempt += 1
        d.cut_positions = (None,) * len(cards)
        return
    dealer = lows[0]
    d.emit(Event(dealer, "dealer", cards=cards, detail="cut"))
    _start_deal(d, dealer)


# --- the deal -----------------------------------------------------------------------------------


def _start_deal(d: Draft, dealer: int) -> None:
    d.dealer = dealer
    _deal_from(d, shuffle(deal_seed(d.secret, d.game_no, d.deal_no)))


def _deal_from(d: Draft, deck: tuple[Card, ...]) -> None:
    """Deal ``deck`` (top first): one card at a time, pone first, ``hand_size`` each; with three
    players the next card goes straight to the crib; the starter is the card after those."""
    n = d.players
    size = hand_size(n)
    order = [(d.dealer + 1 + i) % n for i in range(n)]
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(n * size):
        hands[order[i % n]].append(deck[i])
    empty: tuple[tuple[Card, ...], ...] = ((),) * n
    d.deck = deck
    d.hands = tuple(tuple(sorted(h)) for h in hands)
    d.kept = empty
    d.discards = empty
    d.crib = (deck[n * size],) if n == 3 else ()
    d.starter = None
    d.turn = None
    d.count = 0
    d.series = ()
    d.plays = ()
    d.last_player = None
    d.gone = (False,) * n
    d.show = ()
    d.show_zoned = (False,) * n
    d.acks = (False,) * n
    d.phase = "discard"
    d.emit(Event(d.dealer, "deal"))


def _discard(d: Draft, action: Discard) -> None:
    seat, cards = action.seat, action.cards
    k = discard_size(d.players)
    if d.phase != "discard":
        raise WrongPhase("You can't lay away cards now")
    if d.discards[seat]:
        raise NotYourTurn("You have already laid away your cards")
    if not isinstance(cards, tuple) or len(cards) != k:
        raise IllegalAction(f"Lay away exactly {cards_word(k)}")
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"Choose {NUMBER_WORDS[k]} different cards")
    hand = d.hands[seat]
    for card in cards:
        if card not in hand:
            raise CardNotInHand(f"You don't hold the {getattr(card, 'name', card)}")
    kept = tuple(c for c in hand if c not in cards)
    d.hands = set_at(d.hands, seat, kept)
    d.kept = set_at(d.kept, seat, kept)
    d.discards = set_at(d.discards, seat, tuple(sorted(cards)))
    d.crib = tuple(sorted(d.crib + cards))
    d.emit(Event(seat, "discard"))
    if not all(d.discards):
        return
    if d.rules.pone_cuts:
        d.phase = "starter"
        d.turn = (d.dealer - 1) % d.players
    else:
        _turn_starter(d)


def _cut_starter(d: Draft, action: CutStarter) -> None:
    if d.phase != "starter":
        raise WrongPhase("There is no pack to cut now")
    if action.seat != d.turn:
        raise NotYourTurn("The seat right of the dealer cuts the pack")
    d.emit(Event(action.seat, "cut_pack"))
    _turn_starter(d)


def _turn_starter(d: Draft) -> None:
    starter = d.deck[dealt_count(d.players)]
    d.starter = starter
    d.phase = "play"
    d.turn = left_of(d, d.dealer)  # pone leads
    d.emit(Event(None, "starter", cards=(starter,)))
    if starter.rank == JACK:
        peg(d, d.dealer, 2, "his_heels", (starter,))


def _next_deal(d: Draft, action: NextDeal) -> None:
    seat = action.seat
    if d.phase != "show" or d.turn is not None:
        raise WrongPhase("The show is not over yet")
    if d.acks[seat]:
        raise NotYourTurn("You are ready: waiting for the other player"
                          if d.players == 2 else "You are ready: waiting for the other players")
    d.acks = set_at(d.acks, seat, True)
    if all(d.acks):
        d.deal_no += 1
        d.last_show = d.show
        d.log = ()
        _start_deal(d, left_of(d, d.dealer))


# --- between games ------------------------------------------------------------------------------


def _next_game(d: Draft, action: NextGame) -> None:
    if d.phase != "game_over":
        raise WrongPhase("The game is not over")
    n, sides = d.players, len(d.scores)
    last = d.results[-1]
    # The loser deals first: the losing side (the lowest score of the losers with three players,
    # ties to the first clockwise from the last dealer); of a partnership, the partner who comes
    # first clockwise from the last dealer.
    after = [(d.dealer + k) % n for k in range(1, n + 1)]
    losing = min((side for side in range(sides) if side != last.winner),
                 key=lambda side: (last.scores[side], after.index(side)))
    loser = next(s for s in after if s % sides == losing)
    d.game_no += 1
    d.deal_no = 0
    d.scores = (0,) * sides
    d.back_pegs = (0,) * sides
    d.cut_positions = (None,) * n
    d.cut_cards = (None,) * n
    d.cut_attempt = 0
    d.last_show = ()
    d.log = ()
    d.emit(Event(loser, "dealer", detail="lost"))
    _start_deal(d, loser)


def _resign(d: Draft, action: Resign) -> None:
    seat = action.seat
    sides = len(d.scores)
    mine = d.side_of(seat)
    # A seat resigns for its side. The other side wins; with three players, the best placed of
    # the others (on a tie, the first clockwise from the resigning seat).
    winner = max((side for side in range(sides) if side != mine),
                 key=lambda side: (d.scores[side], -((side - mine) % sides)))
    d.emit(Event(seat, "resign"))
    if d.phase == "game_over":  # between games: the match ends, the finished game stands
        finish_match(d, winner)
    else:
        finish_game(d, winner, "resign")


_HANDLERS = {
    CutForDeal: _cut,
    Discard: _discard,
    CutStarter: _cut_starter,
    Play: play_card,
    Go: say_go,
    Count: count_hand,
    CallMuggins: call_muggins,
    AcceptCount: accept_count,
    NextDeal: _next_deal,
    NextGame: _next_game,
    Resign: _resign,
}


# --- legal actions ------------------------------------------------------------------------------


def legal_actions(state: GameState, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now (empty when it must wait).

    ``Resign`` is always allowed before the match ends and is not listed, so a player choosing
    among these never resigns by accident. Discards are the combinations of the hand in hand
    order; ``Count`` is listed for every claim from 0 to 29, whatever the hand is worth (an
    over-claim is allowed and corrected), so the list never tells a seat what its hand is worth.

    >>> from games.engine.rules import HouseRules
    >>> legal_actions(new_game(HouseRules(), b"s"), 0)[:2]
    (CutForDeal(seat=0, position=0), CutForDeal(seat=0, position=1))
    """
    if not isinstance(seat, int) or not 0 <= seat < state.rules.players:
        raise ValueError(f"there is no seat {seat!r} at this table")
    phase = state.phase
    if phase == "cut":
        if state.cut_positions[seat] is not None:
            return ()
        taken = set(state.cut_positions)
        return tuple(CutForDeal(seat, p) for p in range(CUT_DECK_SIZE) if p not in taken)
    if phase == "discard":
        if state.discards[seat]:
            return ()
        k = discard_size(state.rules.players)
        return tuple(Discard(seat, combo) for combo in combinations(state.hands[seat], k))
    if phase == "starter":
        return (CutStarter(seat),) if state.turn == seat else ()
    if phase == "play":
        if state.turn != seat:
            return ()
        room = 31 - state.count
        plays = tuple(Play(seat, c) for c in state.hands[seat] if c.value <= room)
        return plays or (Go(seat),)
    if phase == "show":
        if state.turn is None:
            return () if state.acks[seat] else (NextDeal(seat),)
        if state.turn != seat:
            return ()
        entry = state.show[-1]
        if entry.status == DUE:
            return tuple(Count(seat, p) for p in range(MAX_CLAIM + 1))
        return (CallMuggins(seat), AcceptCount(seat))
    if phase == "game_over":
        return (NextGame(seat),)
    return ()
