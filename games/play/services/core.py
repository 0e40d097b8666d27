"""What every state change shares: the locked game, its parsed state, applying one action (the Move
appended, the snapshot saved with ``version + 1``) and the push after commit."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import connections, transaction
from django.db.models import F
from django.utils import timezone

from games.engine import game as engine
from games.engine.actions import Action, action_to_dict
from games.engine.deck import commitment, deal_seed
from games.engine.errors import IllegalAction
from games.engine.events import Event
from games.engine.rules import HouseRules
from games.infra import rows
from games.play import broadcast
from games.play.house_rules import rule_fields
from games.play.models import Game, Move, Round
from games.play.services.errors import (
    IllegalMove,
    ServiceError,
    StaleVersion,
)
from games.play.signals import (
    computer_due,
    correspondence_moved,
    correspondence_started,
    deal_started,
    game_finished,
)

log = logging.getLogger("games.actions")

FINISHED_PHASES = {"match_over"}


@dataclass(frozen=True)
class Outcome:
    game: Game
    events: tuple


def _start(game: Game, *, by: int | None = None) -> None:
    """Turn a game with all seats filled into a live one (phase "cut"). ``by``: the player whose
    acceptance started it, at the table already (no turn notice for them)."""
    state = engine.new_game(game.house_rules, bytes.fromhex(game.secret))
    game.state = state.to_dict()
    game.status = Game.Status.ACTIVE
    game.version += 1
    game.turn_started_at = timezone.now()
    if game.days_per_move:
        # The clocks' rows name the game: the caller has saved it before starting it.
        correspondence_started.send(sender=Game, game=game, state=state, by=by)
        _send_for_computer(game, state, actor=None)
    if not game.private:
        transaction.on_commit(broadcast.watch_list_changed)


def _send_for_computer(game: Game, state: engine.GameState, *, actor: int | None) -> None:
    """At your own pace a computer's turns are made by a task, not in the request of the person who
    moved: a move that leaves a computer to act sends for it, but a computer's own move (its task
    plays on). Between games of a match the next one is the people's to start, as in a live game."""
    if state.phase in ("game_over", "match_over"):
        return
    computers = {seat.index for seat in game.seat_list() if seat.is_computer}
    if actor not in computers and not computers.isdisjoint(state.to_act):
        computer_due.send(sender=Game, game=game)


def redraw_boards(game_ids: list[int], *, changed: bool = False) -> None:
    """Each game's board is drawn again for everyone looking at it, for a change it shows that is
    not a move (a rematch offer, a cancelled tournament, more time given): its version moves on, so
    sockets send it and a form posted from the old board is answered with the new one. ``changed``:
    the game itself changed (its clock), so its ``updated_at`` moves on too (a computer's task the
    change made stale is sent for again a while after it, ``computers_left_waiting``)."""
    if not game_ids:
        return
    Game.objects.filter(pk__in=game_ids).update(
        version=F("version") + 1, **({"updated_at": timezone.now()} if changed else {}))
    versions = list(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))
    transaction.on_commit(lambda: [broadcast.game_changed(pk, version) for pk, version in versions])


def _rule_fields(rules: HouseRules) -> dict:
    return {**rule_fields(rules), "match_games": rules.match_games}


def _lock(game_id: int) -> Game:
    game = Game.objects.for_play(game_id, lock=True)
    if game is None:
        raise ServiceError("No such game.")
    return game


def load_state(game: Game) -> engine.GameState:
    """The engine state of the game's snapshot, parsed once per snapshot: one render asks for it
    from several places, and parsing every card of the deck each time was a tenth of a move's cost."""
    cached = game.__dict__.get("_engine_state")
    if cached is not None and cached[0] is game.state:
        return cached[1]
    return _remember_state(game, engine.GameState.from_dict(game.state))


def _remember_state(game: Game, state: engine.GameState) -> engine.GameState:
    """Keep ``state`` as the parsed form of ``game.state`` (GameState is immutable: share it)."""
    game.__dict__["_engine_state"] = (game.state, state)
    return state


def _next_seq(game: Game) -> int:
    return game.move_count + 1


def _apply(
    game: Game, action: Action, *, note: Event | dict | None = None, by_timeout: bool = False,
    origin: str = "", actor: int | None = None, ending: dict | None = None, entered: dict | None = None,
) -> Outcome:
    """Apply ``action``; ``note`` is an event of the site's own (a timeout, a claim) logged first
    (a dict may say more than an Event: see ``games.play.endings``); ``ending``: why the site ended the
    game, kept in its result; ``entered``: the result the director entered, which the game ends on
    (``games.play.game_result``)."""
    state = load_state(game)
    try:
        new_state, events = engine.apply(state, action)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    seen = game.version
    now = timezone.now()
    move = {
        "game_id": game.pk, "seq": _next_seq(game), "seat": action.seat, "action": action_to_dict(action),
        "events": [e.to_dict() for e in events], "note": note.to_dict() if isinstance(note, Event) else note,
        "created_at": now, "by_timeout": by_timeout,
    }
    _record_round(game, state, new_state)
    game.state = new_state.to_dict()
    _remember_state(game, new_state)
    game.version = seen + 1
    game.turn_started_at = now
    game.move_count = move["seq"]
    game.last_events = ([move["note"]] if move["note"] else []) + move["events"]
    fields = {"state": game.state, "version": game.version, "updated_at": now, "turn_started_at": now,
              "move_count": game.move_count, "last_events": game.last_events}
    if new_state.phase in FINISHED_PHASES:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.winner_seat = new_state.match_winner
        game.result = {
            "scores": list(new_state.scores),
            "match_scores": list(new_state.match_scores),
            "games": [r.to_dict() for r in new_state.results],
            **({"ending": ending} if ending else {}),
            **({"entered": entered} if entered else {}),
        }
        fields.update(status=game.status, finished_at=game.finished_at, winner_seat=game.winner_seat,
                      result=game.result)
    # The version in the WHERE clause is the optimistic check behind the row lock: a move built on
    # a board that has changed since writes nothing. Plain statements (games/infra/rows.py): the
    # ORM's update() and create() cost a move more than the writes themselves (performance.md).
    connection = connections[Game.objects.db]
    if rows.update(Game, connection, {"id": game.pk, "version": seen}, fields) != 1:
        raise StaleVersion("Someone else moved first; here is the board now.")
    rows.insert(Move, connection, move)
    if game.days_per_move:
        # The person whose request made the move (a computer's too) is at the board: no notice.
        correspondence_moved.send(sender=Game, game=game, state=new_state, actor=action.seat, quiet=actor)
        _send_for_computer(game, new_state, actor=action.seat)
    if game.status == Game.Status.FINISHED:
        game_finished.send(sender=Game, game=game)
    _after_commit(game, origin=origin, actor=actor)
    if not game.private and (game.status == Game.Status.FINISHED or new_state.scores != state.scores
                             or new_state.match_scores != state.match_scores):
        transaction.on_commit(broadcast.watch_list_changed)  # the scores the list of games shows
    return Outcome(game, events)


def _record_round(game: Game, before: engine.GameState, after: engine.GameState) -> None:
    # A new deal is a new deck: the cut for deal deals the first one without changing deal_no.
    if not after.deck or after.deck == before.deck:
        return
    # One INSERT that leaves a deal already recorded alone: get_or_create took four statements
    # (a read, a savepoint, the insert, its release) on every deal.
    Round.objects.bulk_create([_round(game, after.game_no, after.deal_no, after.dealer)],
                              ignore_conflicts=True)
    deal_started.send(sender=Game, game=game, game_no=after.game_no, deal_no=after.deal_no)


def _round(game: Game, game_no: int, deal_no: int, dealer: int, summary: dict | None = None) -> Round:
    seed = deal_seed(bytes.fromhex(game.secret), game_no, deal_no)
    return Round(game=game, game_no=game_no, deal_no=deal_no, dealer=dealer, commitment=commitment(seed),
                 summary=summary or {})


def rounds_summarise(*, game: Game, summaries: list[dict]) -> None:
    """Keep each deal's summary (what history worked out from the move log: a dict with its
    ``game_no``, ``deal_no`` and ``dealer``) on the deal's ``Round``. A deal without one (only a game
    set up by hand, bypassing the moves) gets it, with the commitment a move would have given it."""
    for deal in summaries:
        key = {"game_no": deal["game_no"], "deal_no": deal["deal_no"]}
        if not Round.objects.filter(game=game, **key).update(summary=deal):
            Round.objects.bulk_create([_round(game, dealer=deal["dealer"], summary=deal, **key)],
                                      ignore_conflicts=True)


def _after_commit(game: Game, *, origin: str = "", actor: int | None = None) -> None:
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: broadcast.game_changed(game_id, version, origin=origin, actor=actor))
