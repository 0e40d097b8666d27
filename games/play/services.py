"""The only write path for games. One function per state change, each in a transaction that locks
the game row, checks who acts and the version they saw, asks the engine, appends to the Move log,
saves the new snapshot with ``version + 1`` and pushes ``{game, version}`` after commit.

SQLite ignores ``select_for_update``, so the final write is also a compare-and-set on ``version``.
A move sent from an older version is refused as stale, except where everyone acts at once (the cut
for deal, laying away) and only other seats' actions of that kind came in between.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connections, router, transaction
from django.db.models import F
from django.utils import timezone

from games.engine import game as engine
from games.engine.actions import Action, Resign, action_from_dict, action_to_dict
from games.engine.deck import commitment, deal_seed
from games.engine.errors import IllegalAction
from games.engine.events import Event
from games.engine.rules import HouseRules
from games.engine.view import view
from games.infra import rows
from games.play import broadcast, endings
from games.play.hooks import organiser_of
from games.play.models import ComputerLevel, Game, Move, Round, Seat
from games.play.signals import deal_started, game_finished

log = logging.getLogger("games.actions")

FINISHED_PHASES = {"match_over"}


class ServiceError(Exception):
    """A refusal with a message fit for the player and the HTTP status to answer with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAPlayer(ServiceError):
    status = 403


class StaleVersion(ServiceError):
    status = 409


class IllegalMove(ServiceError):
    status = 422


class NotAvailable(ServiceError):
    status = 409


class RateLimited(ServiceError):
    status = 429


@dataclass(frozen=True)
class Outcome:
    game: Game
    events: tuple


# --- creating and joining -------------------------------------------------------------------------


def _start(game: Game) -> None:
    """Turn a game with all seats filled into a live one (phase "cut")."""
    state = engine.new_game(game.house_rules, bytes.fromhex(game.secret))
    game.state = state.to_dict()
    game.status = Game.Status.ACTIVE
    game.version += 1
    game.turn_started_at = timezone.now()


@transaction.atomic
def game_create_vs_computer(
    *, user: AbstractBaseUser, level: str, rules: HouseRules, hints: bool = False
) -> Game:
    if level not in ComputerLevel.values:
        raise ServiceError("Choose easy, standard or expert.")
    game = Game.objects.create(created_by=user, vs_computer=True, computer_level=level, hints=hints,
                               **_rule_fields(rules))
    Seat.objects.create(game=game, index=0, user=user)
    Seat.objects.create(game=game, index=1, computer_level=level)
    _start(game)
    game.save()
    log.info("game=%s user=%s action=create vs=computer level=%s", game.pk, user.pk, level)
    return game


@transaction.atomic
def game_create_seek(
    *,
    user: AbstractBaseUser,
    rules: HouseRules,
    rated: bool = False,
    invited: AbstractBaseUser | None = None,
    turn_timer: int = 0,
    hints: bool = False,
) -> Game:
    if invited is not None and invited.pk == user.pk:
        raise ServiceError("You cannot invite yourself.")
    if rated and rules.manual_counting:
        raise ServiceError("Rated games use automatic counting.")
    if rated and hints:
        raise ServiceError("Rated games have no discard hints.")
    if turn_timer not in (0, 30, 60, 180):
        raise ServiceError("The turn timer is off, 30 s, 60 s or 3 minutes.")
    game = Game.objects.create(
        created_by=user, rated=rated, invited=invited, turn_timer=turn_timer, hints=hints,
        **_rule_fields(rules),
    )
    Seat.objects.create(game=game, index=0, user=user)
    transaction.on_commit(broadcast.lobby_changed)
    log.info("game=%s user=%s action=seek invited=%s", game.pk, user.pk, getattr(invited, "pk", None))
    return game


@transaction.atomic
def game_create_between(
    *, players: list[AbstractBaseUser], rules: HouseRules, rated: bool = False,
    created_by: AbstractBaseUser | None = None, turn_timer: int = 0, organised: bool = False,
) -> Game:
    """A game between named people that starts at once (tournament pairings, for example).
    ``organised``: set up by an organiser (see ``games.play.hooks``), so it cannot be called off."""
    if len({p.pk for p in players}) != len(players) or len(players) != rules.players:
        raise ServiceError(f"A game needs {rules.players} different players.")
    game = Game.objects.create(
        created_by=created_by or players[0], rated=rated, turn_timer=turn_timer, organised=organised,
        **_rule_fields(rules),
    )
    for index, user in enumerate(players):
        Seat.objects.create(game=game, index=index, user=user)
    _start(game)
    game.save()
    _after_commit(game)
    log.info("game=%s action=create between=%s", game.pk, [p.pk for p in players])
    return game


@transaction.atomic
def game_create_table(
    *, user: AbstractBaseUser, rules: HouseRules, seats: list[dict], turn_timer: int = 0
) -> Game:
    """A table of three or four. ``seats`` describes seats 1..n-1 in order: ``{"kind": "computer",
    "level": "standard"}``, ``{"kind": "open"}`` or ``{"kind": "invite", "user": <User>}``. With four
    players seat 2 is the creator's partner. The table starts when every seat is filled."""
    n = rules.players
    if n not in (3, 4) or len(seats) != n - 1:
        raise ServiceError("A table has three or four seats.")
    if turn_timer not in (0, 30, 60, 180):
        raise ServiceError("The turn timer is off, 30 s, 60 s or 3 minutes.")
    plan: list[dict] = [{"kind": "creator", "user": user.pk}]
    invitees = []
    for spot in seats:
        kind = spot.get("kind")
        if kind == "computer" and spot.get("level") in ComputerLevel.values:
            plan.append({"kind": "computer", "level": spot["level"]})
        elif kind == "open":
            plan.append({"kind": "open"})
        elif kind == "invite" and spot.get("user") is not None:
            invitee = spot["user"]
            if invitee.pk == user.pk or invitee in invitees:
                raise ServiceError("Invite each player once, and not yourself.")
            invitees.append(invitee)
            plan.append({"kind": "invite", "user": invitee.pk})
        else:
            raise ServiceError("Each seat is a computer, an open seat or an invited player.")
    humans = 1 + sum(1 for spot in plan[1:] if spot["kind"] != "computer")
    game = Game.objects.create(
        created_by=user, players=n, seat_plan=plan, turn_timer=turn_timer, vs_computer=humans == 1,
        computer_level=next((s["level"] for s in plan if s["kind"] == "computer"), ""), **_rule_fields(rules),
    )
    game.invitees.set(invitees)
    Seat.objects.create(game=game, index=0, user=user)
    for index, spot in enumerate(plan):
        if spot["kind"] == "computer":
            Seat.objects.create(game=game, index=index, computer_level=spot["level"])
    if humans == 1:
        _start(game)
        game.save()
    transaction.on_commit(broadcast.lobby_changed)
    log.info("game=%s user=%s action=table players=%s", game.pk, user.pk, n)
    return game


@transaction.atomic
def game_accept(
    *, user: AbstractBaseUser, game_id: int, token: str | None = None, seat: int | None = None
) -> Game:
    """Take a seat: an open seek or table, or an invitation (being the invitee or holding the link).
    ``seat`` picks one of several free seats (at a table of four it picks your partner)."""
    game = _lock(game_id)
    if game.status != Game.Status.WAITING:
        raise NotAvailable("That game has already started or was withdrawn.")
    if game.created_by_id == user.pk:
        raise ServiceError("You cannot accept your own game.")
    if game.seat_of(user) is not None:
        raise ServiceError("You already have a seat at this table.")
    free = game.open_seat_indexes(user, with_link=token is not None and token == game.invite_token)
    if not free:
        raise NotAPlayer("That invitation is for someone else.")
    if seat is not None and seat not in free:
        raise NotAvailable("That seat is taken or not yours to take.")
    index = free[0] if seat is None else seat
    Seat.objects.create(game=game, index=index, user=user)
    game._prefetched_objects_cache.pop("seats", None)  # _lock read the seats before this one
    if game.invited_id is None and token and not game.seat_plan:
        game.invited = user
    if game.seats.count() == game.players:
        _start(game)
        game_id = game.pk
        others = tuple(s.user_id for s in game.seats.all() if s.user_id and s.user_id != user.pk)
        transaction.on_commit(lambda: broadcast.lobby_changed(started=game_id, players=others))
        _after_commit(game)
        if game.rematch_of_id:  # the finished game's boards now lead to this one
            redraw_boards([game.rematch_of_id])
    else:
        game.version += 1
        transaction.on_commit(broadcast.lobby_changed)
    game.save()
    log.info("game=%s user=%s action=accept seat=%s", game.pk, user.pk, index)
    return game


@transaction.atomic
def game_withdraw(*, user: AbstractBaseUser, game_id: int) -> Game:
    game = _lock(game_id)
    if game.created_by_id != user.pk:
        raise NotAPlayer("Only the player who posted it can withdraw it.")
    if game.status != Game.Status.WAITING:
        raise NotAvailable("That game has already started.")
    game.status = Game.Status.ABORTED
    game.version += 1
    game.save()
    transaction.on_commit(broadcast.lobby_changed)
    return game


@transaction.atomic
def game_leave(*, user: AbstractBaseUser, game_id: int) -> Game:
    """Give up a seat taken at a table that has not started; whoever posted it withdraws it instead.
    A seat kept for an invited player stays theirs to take again."""
    game = _lock(game_id)
    if game.status != Game.Status.WAITING:
        raise NotAvailable("That game has already started.")
    if game.created_by_id == user.pk:
        raise ServiceError("You posted this table: withdraw it instead.")
    if game.seat_of(user) is None:
        raise NotAPlayer("You have no seat at this table.")
    Seat.objects.filter(game=game, user=user).delete()
    game.version += 1
    game.save(update_fields=["version", "updated_at"])
    transaction.on_commit(broadcast.lobby_changed)
    log.info("game=%s user=%s action=leave", game.pk, user.pk)
    return game


class RematchWaiting(NotAvailable):
    """The player's own rematch offer is still waiting: pressing Rematch again adds nothing."""


@transaction.atomic
def game_rematch(*, user: AbstractBaseUser, game_id: int) -> Game:
    """The same game again: at once against the computer; between people an invitation to the
    opponent, or, if the opponent offered one already, theirs accepted (so both pressing Rematch
    starts one game, not two crossing invitations)."""
    old = Game.objects.for_play(game_id, lock=True)  # two presses at once: one after the other
    if old is None or old.seat_of(user) is None:
        raise NotAPlayer("You did not play in that game.")
    if old.status != Game.Status.FINISHED:
        raise NotAvailable("That game is not over yet.")
    made = rematch_in_play(old, user)
    if made is not None:
        return made
    if old.vs_computer:
        new = game_create_vs_computer(
            user=user, level=old.computer_level, rules=old.house_rules, hints=old.hints
        )
    else:
        opponent = next(s.user for s in old.seats.all() if s.user_id != user.pk)
        if rematch_offer(old, by=user) is not None:
            raise RematchWaiting(f"Your rematch offer is already waiting for {opponent.username}.")
        theirs = rematch_offer(old, by=opponent)
        if theirs is not None:
            return game_accept(user=user, game_id=theirs.pk)
        new = game_create_seek(
            user=user, rules=old.house_rules, rated=old.rated, invited=opponent, turn_timer=old.turn_timer,
            hints=old.hints,
        )
        # The opponent may still be looking at the finished board: it says "Accept rematch" at once.
        redraw_boards([old.pk])
    Game.objects.filter(pk=new.pk).update(rematch_of=old)
    return new


def rematch_in_play(old: Game, user: AbstractBaseUser | int) -> Game | None:
    """The rematch of ``old`` that ``user`` is playing now, if one was started (by either player)."""
    user_id = getattr(user, "pk", user)
    return (Game.objects.filter(rematch_of=old, status=Game.Status.ACTIVE, seats__user_id=user_id)
            .order_by("-pk").first())


def redraw_boards(game_ids: list[int]) -> None:
    """Each game's board is drawn again for everyone looking at it, for a change it shows that is
    not a move (a rematch offer, a cancelled tournament): its version moves on, so sockets send it
    and a form posted from the old board is answered with the new one."""
    if not game_ids:
        return
    Game.objects.filter(pk__in=game_ids).update(version=F("version") + 1)
    versions = list(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))
    transaction.on_commit(lambda: [broadcast.game_changed(pk, version) for pk, version in versions])


def organiser_notice(*, game_ids: list[int], text: str) -> None:
    """An organiser's word on its games in play (a tournament cancelled: they no longer count).
    Their boards say it from now on, and no clock runs on them any more: nothing rides on them."""
    Game.objects.filter(pk__in=game_ids, status=Game.Status.ACTIVE).update(notice=text[:300], turn_timer=0)
    redraw_boards(game_ids)


def rematch_offer(old: Game, *, by: AbstractBaseUser | int) -> Game | None:
    """The waiting rematch of the two-player game ``old`` that ``by`` offered: an invitation from
    them to the other player, on the same terms, made since ``old`` ended."""
    by_id = getattr(by, "pk", by)
    other = next((s.user_id for s in old.seat_list() if s.user_id != by_id), None)
    if other is None or old.players != 2:
        return None
    return Game.objects.filter(
        status=Game.Status.WAITING, created_by_id=by_id, invited_id=other, vs_computer=False,
        players=2, rated=old.rated, turn_timer=old.turn_timer, hints=old.hints,
        created_at__gte=old.finished_at or old.updated_at, **_rule_fields(old.house_rules),
    ).order_by("created_at").first()


def _rule_fields(rules: HouseRules) -> dict:
    return {
        "target": rules.target,
        "skunks": rules.skunks,
        "triple_skunk": rules.triple_skunk,
        "peg_out_zone": rules.peg_out_zone,
        "manual_counting": rules.manual_counting,
        "muggins": rules.muggins,
        "match_games": rules.match_games,
    }


# --- playing --------------------------------------------------------------------------------------


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


def parse_action(seat: int, data: dict) -> Action:
    """Build an engine action from untrusted form data; the seat always comes from the session."""
    try:
        return action_from_dict({**data, "seat": seat})
    except ValueError as exc:
        # The parser's text is for developers (card notation); a forged form gets a plain refusal.
        log.info("malformed action from seat %s: %s (%r)", seat, exc, data)
        raise IllegalMove(BAD_CARD_MESSAGE if "bad card" in str(exc) else "That is not a move.") from None


BAD_CARD_MESSAGE = "That card is not one you can play."


@transaction.atomic
def game_act(
    *, user: AbstractBaseUser, game_id: int, version: int, action: dict, origin: str = ""
) -> Outcome:
    """Apply one action for ``user`` if ``version`` is the game's current one.

    ``origin``: the board (page) that asked, which gets the new board in its answer, so its own
    socket need not be sent the same board again (see ``GameConsumer.game_changed``)."""
    started = time.perf_counter()
    game = _lock(game_id)
    seat = game.seat_of(user)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if game.status != Game.Status.ACTIVE:
        raise NotAvailable("This game is not in progress.")
    stale = version != game.version
    if stale and not _others_acted_alongside(game, seat, version, action):
        raise StaleVersion(STALE_MESSAGE)
    parsed = parse_action(seat, action)  # malformed data is the sender's mistake on any board: a 422
    try:
        outcome = _apply(game, parsed, origin=origin, actor=user.pk)
    except IllegalMove:
        if stale:  # legal on the board the player saw (a cut someone has taken since): a race, not a mistake
            raise StaleVersion(STALE_MESSAGE) from None
        raise
    log.info(
        "game=%s user=%s action=%s version=%s latency_ms=%.1f",
        game.pk, user.pk, action.get("type"), game.version, (time.perf_counter() - started) * 1000,
    )
    return outcome


STALE_MESSAGE = "The board changed since you last saw it; here it is now."

# Everyone lays away (and cuts for deal) at once, each from their own cards, and everyone says
# when they are ready for the next hand or game: another player's choice made meanwhile changes
# nothing this one decided on. Refusing it as stale made one player in four or so pick their two
# cards again (bench.load: 15% of moves came back 409), and made the slower of two players who
# both pressed "Next hand" press it again.
SIMULTANEOUS_ACTIONS = ("discard", "cut_for_deal", "next_deal", "next_game")


def _others_acted_alongside(game: Game, seat: int, version: int, action: dict) -> bool:
    """Whether every move since ``version`` is another seat's action of the same simultaneous kind
    as ``action``, so the board this seat decided on differs only by those. The engine still judges
    the action against the state as it is now."""
    gap = game.version - version
    if action.get("type") not in SIMULTANEOUS_ACTIONS or not 0 < gap < game.players:
        return False
    since = list(Move.objects.filter(game=game).order_by("-seq").values_list("seat", "action")[:gap])
    return len(since) == gap and all(s != seat and a.get("type") == action["type"] for s, a in since)


@transaction.atomic
def game_computer_step(*, game_id: int, origin: str = "", asked_by: int | None = None) -> Outcome | None:
    """Let one computer seat take one action, if one is due. Returns None when none is.
    ``origin`` and ``asked_by``: the page that asked and its user, as for ``game_act``."""
    started = time.perf_counter()
    game = _lock(game_id)
    if game.status != Game.Status.ACTIVE:
        return None
    action = _computer_action(game, load_state(game))
    if action is None:
        return None
    outcome = _apply(game, action, origin=origin, actor=asked_by)
    log.info(
        "game=%s user=computer action=%s version=%s latency_ms=%.1f",
        game.pk, action_to_dict(action)["type"], game.version, (time.perf_counter() - started) * 1000,
    )
    return outcome


def play_computer_turns(game_id: int, limit: int = 200) -> None:
    """Run computer actions until a person must act (for pages without JavaScript and for tests)."""
    for _ in range(limit):
        if game_computer_step(game_id=game_id) is None:
            return


def _computer_seats_due(game: Game, state: engine.GameState) -> list[Seat]:
    if not game.has_computer:
        return []
    # Between games any seat may start the next one: that is left to the people at the table.
    if state.phase in ("game_over", "match_over"):
        return []
    due = state.to_act
    return [s for s in game.seat_list() if s.is_computer and s.index in due]


def computer_to_act(game: Game) -> bool:
    return game.status == Game.Status.ACTIVE and bool(_computer_seats_due(game, load_state(game)))


def _computer_action(game: Game, state: engine.GameState) -> Action | None:
    due = _computer_seats_due(game, state)
    if not due:
        return None
    seat = due[0]
    from games.engine.players import choose_action  # the computer players load their tables lazily

    rng = random.Random(f"{game.secret}:{_next_seq(game)}")
    return choose_action(view(state, seat.index), seat.computer_level, rng)


def _next_seq(game: Game) -> int:
    return game.move_count + 1


def _apply(
    game: Game, action: Action, *, note: Event | dict | None = None, by_timeout: bool = False,
    origin: str = "", actor: int | None = None, ending: dict | None = None,
) -> Outcome:
    """Apply ``action``; ``note`` is an event of the site's own (a timeout, a claim) logged first
    (a dict may say more than an Event: see ``games.play.endings``); ``ending``: why the site ended the
    game, kept in its result."""
    state = load_state(game)
    try:
        new_state, events = engine.apply(state, action)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    seen = game.version
    now = timezone.now()
    # Plain statements (games/infra/rows.py): the ORM's compiler was most of a move's writing cost.
    move = {
        "game": game.pk, "seq": _next_seq(game), "seat": action.seat, "action": action_to_dict(action),
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
        }
        fields.update(status=game.status, finished_at=game.finished_at, winner_seat=game.winner_seat,
                      result=game.result)
    connection = connections[router.db_for_write(Game)]
    changed = (Game, {"id": game.pk, "version": seen}, fields)
    if rows.insert_and_update(connection, (Move, move), changed) != 1:
        raise StaleVersion("Someone else moved first; here is the board now.")
    if game.status == Game.Status.FINISHED:
        game_finished.send(sender=Game, game=game)
    _after_commit(game, origin=origin, actor=actor)
    return Outcome(game, events)


def _record_round(game: Game, before: engine.GameState, after: engine.GameState) -> None:
    # A new deal is a new deck: the cut for deal deals the first one without changing deal_no.
    if not after.deck or after.deck == before.deck:
        return
    seed = deal_seed(bytes.fromhex(game.secret), after.game_no, after.deal_no)
    # One INSERT that leaves a deal already recorded alone: get_or_create took four statements
    # (a read, a savepoint, the insert, its release) on every deal.
    Round.objects.bulk_create(
        [Round(game=game, game_no=after.game_no, deal_no=after.deal_no, dealer=after.dealer,
               commitment=commitment(seed))],
        ignore_conflicts=True,
    )
    deal_started.send(sender=Game, game=game, game_no=after.game_no, deal_no=after.deal_no)


def _after_commit(game: Game, *, origin: str = "", actor: int | None = None) -> None:
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: broadcast.game_changed(game_id, version, origin=origin, actor=actor))


# --- leaving, timers and claims -------------------------------------------------------------------


def _human_seats_due(game: Game, state: engine.GameState) -> list[Seat]:
    if state.phase in ("game_over", "match_over"):
        return []
    return [s for s in game.seat_list() if not s.is_computer and s.index in state.to_act]


ABORTED_EVENT = "aborted"
# The board only asks whether it may offer Abort; the organiser's own words are asked for (one
# query) when someone tries all the same.
ORGANISED_REFUSAL = "A game set up for an event cannot be called off; you can resign."


def abort_refusal(game: Game, state: engine.GameState | None) -> str:
    """Why ``game`` (in ``state``) cannot be called off, or "" if it can: the board offers Abort
    only when this is empty. Asks the database nothing when the game came from ``for_play``."""
    if game.status != Game.Status.ACTIVE or state is None:
        return "This game is not in progress."
    if state.plays or state.deal_no or state.game_no:
        return "Cards have been played: you can resign, but no longer abort."
    # Calling a rated game off once the hands are seen would let a player escape a bad deal unrated.
    if game.rated and state.phase != "cut":
        return "A rated game can be called off only before the deal; you can resign."
    if game.organised:
        return ORGANISED_REFUSAL
    return ""


@transaction.atomic
def game_abort(*, user: AbstractBaseUser, game_id: int) -> Game:
    """Call the game off before the first card is played: nobody wins, nothing is rated."""
    game = _lock(game_id)
    if game.seat_of(user) is None:
        raise NotAPlayer("You are not playing in this game.")
    refusal = abort_refusal(game, load_state(game) if game.state else None)
    if refusal == ORGANISED_REFUSAL:
        refusal = getattr(organiser_of(game), "abort_refusal", "") or refusal
    if refusal:
        raise NotAvailable(refusal)
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.version += 1
    game.last_events = [{"kind": ABORTED_EVENT, "seat": game.seat_of(user)}]  # who, for the others' boards
    game.save(update_fields=["status", "finished_at", "version", "last_events", "updated_at"])
    _after_commit(game)
    transaction.on_commit(broadcast.lobby_changed)
    log.info("game=%s user=%s action=abort", game.pk, user.pk)
    return game


@transaction.atomic
def game_claim_win(*, user: AbstractBaseUser, game_id: int) -> Outcome:
    """The other player has been away too long on their own turn: end the game in the claimer's favour."""
    from games.play import presence

    game = _lock(game_id)
    seat = game.seat_of(user)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if game.status != Game.Status.ACTIVE:
        raise NotAvailable("This game is not in progress.")
    state = load_state(game)
    absent = [
        s for s in _human_seats_due(game, state)
        if s.index != seat and presence.is_away_too_long(game, s.index)
    ]
    if not absent:
        raise NotAvailable("You can claim the win only when your opponent has been away on their turn "
                           f"for {presence.absence_limit() // 60} minutes.")
    gone = absent[0]
    minutes = max(1, presence.away_seconds(game, gone.index) // 60)
    note = endings.claim_note(seat, gone.index, minutes)
    outcome = _apply(game, Resign(gone.index), note=note, by_timeout=True,
                     ending=endings.by_claim(seat, gone.index, minutes))
    log.info("game=%s user=%s action=claim_win absent_seat=%s", game.pk, user.pk, gone.index)
    return outcome


@transaction.atomic
def game_timeout(*, user: AbstractBaseUser, game_id: int) -> Outcome:
    """The turn timer ran out: move for each seat that was due (the easy computer's choice).

    Either player's page asks for this when its clock reaches zero; the server checks the clock.
    The third timeout of a seat forfeits the game.
    """
    from games.engine.players import choose_action

    game = _lock(game_id)
    if game.seat_of(user) is None:
        raise NotAPlayer("You are not playing in this game.")
    if game.status != Game.Status.ACTIVE or not game.turn_timer:
        raise NotAvailable("This game has no turn timer running.")
    deadline = (game.turn_started_at or timezone.now()) + timedelta(seconds=game.turn_timer)
    if timezone.now() < deadline:
        raise NotAvailable("There is still time on the clock.")
    state = load_state(game)
    due = _human_seats_due(game, state)
    if not due:
        raise NotAvailable("Nobody is on the clock.")
    outcome = None
    for seat in due:
        seat.timeouts += 1
        seat.save(update_fields=["timeouts"])
        state = load_state(game)
        if seat.timeouts >= settings.TIMEOUTS_TO_FORFEIT:
            note = endings.timeout_note(seat.index, "resign", seat.timeouts, state)
            outcome = _apply(game, Resign(seat.index), note=note, by_timeout=True,
                             ending=endings.on_time(seat.index, seat.timeouts))
            break
        rng = random.Random(f"{game.secret}:timeout:{_next_seq(game)}")
        action = choose_action(view(state, seat.index), ComputerLevel.EASY, rng)
        note = endings.timeout_note(seat.index, action_to_dict(action)["type"], seat.timeouts, state)
        outcome = _apply(game, action, note=note, by_timeout=True)
    log.info("game=%s user=%s action=timeout seats=%s", game.pk, user.pk, [s.index for s in due])
    return outcome


def game_say(*, user: AbstractBaseUser, game_id: int, message: str) -> None:
    """Send a quick message to the table (a key of ``chat.MESSAGES``), rate limited."""
    from games.play import chat

    game = Game.objects.with_seats().filter(pk=game_id).first()
    seat = game.seat_of(user) if game else None
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if message not in chat.MESSAGES:
        raise ServiceError("Pick one of the quick messages.")
    if not chat.allow(game.pk, user.pk):
        raise RateLimited("Easy there: wait a few seconds before the next message.")
    broadcast.game_chat(game.pk, seat, message)
