"""Creating a game, taking and leaving a seat, withdrawing a seek, a rematch."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.engine.rules import HouseRules
from games.play import broadcast, signals
from games.play.house_rules import DAYS_PER_MOVE_CHOICES
from games.play.models import ComputerLevel, Game, Seat
from games.play.services.core import (
    _after_commit,
    _lock,
    _rule_fields,
    _start,
    redraw_boards,
)
from games.play.services.errors import (
    NotAPlayer,
    NotAvailable,
    RematchWaiting,
    ServiceError,
)
from games.play.services.pass_play import pass_play_rematch

log = logging.getLogger("games.actions")

@transaction.atomic
def game_create_vs_computer(
    *, user: AbstractBaseUser, level: str, rules: HouseRules, hints: bool = False, lesson: bool = False,
    secret: str | None = None, private: bool = False,
) -> Game:
    """A game against the computer. ``lesson``: a game that teaches (its board has the coach);
    ``secret``: the game's private seed, chosen by the caller (a lesson's, for its first deals).
    What a game the player chose was started with is announced (``signals.computer_game_created``)
    so the next one can start the same way."""
    if level not in ComputerLevel.values:
        raise ServiceError("Choose easy, standard or expert.")
    chosen = {"secret": secret} if secret else {}
    game = Game.objects.create(created_by=user, vs_computer=True, computer_level=level, hints=hints,
                               lesson=lesson, private=private, **chosen, **_rule_fields(rules))
    Seat.objects.create(game=game, index=0, user=user)
    Seat.objects.create(game=game, index=1, computer_level=level)
    _start(game)
    game.save()
    if not lesson:  # a lesson's rules are the lesson's, not the player's choice
        signals.computer_game_created.send(sender=Game, game=game, user=user)
    log.info("game=%s user=%s action=create vs=computer level=%s", game.pk, user.pk, level)
    return game


def _check_pace(days_per_move: int, turn_timer: int) -> None:
    """A turn timer offered, or days a move offered: not both."""
    if turn_timer not in (0, 30, 60, 180):
        raise ServiceError("The turn timer is off, 30 s, 60 s or 3 minutes.")
    if days_per_move and days_per_move not in dict(DAYS_PER_MOVE_CHOICES):
        raise ServiceError("A correspondence game has 1, 2, 3, 5 or 7 days a move.")
    if days_per_move and turn_timer:
        raise ServiceError("A correspondence game has days a move, not a turn timer.")


@transaction.atomic
def game_create_seek(
    *,
    user: AbstractBaseUser,
    rules: HouseRules,
    rated: bool = False,
    invited: AbstractBaseUser | None = None,
    turn_timer: int = 0,
    hints: bool = False,
    days_per_move: int = 0,
    private: bool = False,
) -> Game:
    """An open seek, or an invitation to ``invited``. ``days_per_move``: a correspondence game,
    played at each player's own pace, days for each move. ``private``: not listed to watch, and no
    stranger may open it."""
    if invited is not None and invited.pk == user.pk:
        raise ServiceError("You cannot invite yourself.")
    _check_pace(days_per_move, turn_timer)
    if rated and rules.manual_counting:
        raise ServiceError("Rated games use automatic counting.")
    if rated and hints:
        raise ServiceError("Rated games have no discard hints.")
    game = Game.objects.create(
        created_by=user, rated=rated, invited=invited, turn_timer=turn_timer, hints=hints,
        days_per_move=days_per_move, private=private, **_rule_fields(rules),
    )
    Seat.objects.create(game=game, index=0, user=user)
    transaction.on_commit(broadcast.lobby_changed)
    log.info("game=%s user=%s action=seek invited=%s days=%s", game.pk, user.pk, getattr(invited, "pk", None),
             days_per_move)
    return game


@transaction.atomic
def game_create_between(
    *, players: list[AbstractBaseUser], rules: HouseRules, rated: bool = False,
    created_by: AbstractBaseUser | None = None, turn_timer: int = 0, organised: bool = False,
) -> Game:
    """A game between named people that starts at once (tournament pairings, for example).
    ``organised``: set up by an organiser (see ``games.play.registry``), so it cannot be called off."""
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
    *, user: AbstractBaseUser, rules: HouseRules, seats: list[dict], turn_timer: int = 0,
    days_per_move: int = 0, private: bool = False,
) -> Game:
    """A table of three or four. ``seats`` describes seats 1..n-1 in order: ``{"kind": "computer",
    "level": "standard"}``, ``{"kind": "open"}`` or ``{"kind": "invite", "user": <User>}``. With four
    players seat 2 is the creator's partner. The table starts when every seat is filled.
    ``days_per_move``: played at each one's own pace, a clock for each person; a computer's moves are
    made by a task as soon as a move leaves it due (``games.play.tasks``), board open or not."""
    n = rules.players
    if n not in (3, 4) or len(seats) != n - 1:
        raise ServiceError("A table has three or four seats.")
    _check_pace(days_per_move, turn_timer)
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
        created_by=user, players=n, seat_plan=plan, turn_timer=turn_timer, days_per_move=days_per_move,
        vs_computer=humans == 1, private=private,
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
        _start(game, by=user.pk)
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
def game_decline(*, user: AbstractBaseUser, game_id: int) -> Game:
    """An invited player turns the invitation down. The game was set up for them (a seat kept for
    them, at a table, could never be filled by anyone else), so it is called off, as its poster's
    withdrawal would."""
    game = _lock(game_id)
    if game.status != Game.Status.WAITING:
        raise NotAvailable("That game has already started or was withdrawn.")
    if not any(spot["kind"] == "invite" and spot.get("user") == user.pk for spot in game.plan):
        raise NotAPlayer("That invitation is for someone else.")
    game.status = Game.Status.ABORTED
    game.version += 1
    game.save(update_fields=["status", "version", "updated_at"])
    transaction.on_commit(broadcast.lobby_changed)
    log.info("game=%s user=%s action=decline", game.pk, user.pk)
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


@transaction.atomic
def game_rematch(*, user: AbstractBaseUser, game_id: int) -> Game:
    """The same game again: at once against the computer; between people an invitation to the
    opponent, or, if the opponent offered one already, theirs accepted (so both pressing Rematch
    starts one game, not two crossing invitations); at a table of three or four, the same table
    (``_table_rematch``)."""
    old = Game.objects.for_play(game_id, lock=True)  # two presses at once: one after the other
    if old is None or old.seat_of(user) is None:
        raise NotAPlayer("You did not play in that game.")
    if old.status != Game.Status.FINISHED:
        raise NotAvailable("That game is not over yet.")
    made = rematch_in_play(old, user)
    if made is not None:
        return made
    if old.pass_play is not None:
        new = pass_play_rematch(old)
        Game.objects.filter(pk=new.pk).update(rematch_of=old)
        return new
    if old.players > 2:
        return _table_rematch(old, user)
    if old.vs_computer:
        new = game_create_vs_computer(
            user=user, level=old.computer_level, rules=old.house_rules, hints=old.hints, private=old.private,
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
            hints=old.hints, days_per_move=old.days_per_move, private=old.private,
        )
        # The opponent may still be looking at the finished board: it says "Accept rematch" at once.
        redraw_boards([old.pk])
    Game.objects.filter(pk=new.pk).update(rematch_of=old)
    return new


def _table_rematch(old: Game, user: AbstractBaseUser) -> Game:
    """The same table again: the first to ask opens it with everyone in the same places around it
    (the computers in theirs, the people invited), and each of the others who asks takes their
    seat in it. It starts when the last seat is taken, at once when the others are computers."""
    waiting = table_rematch_waiting(old)
    if waiting is not None:
        if waiting.seat_of(user) is not None:
            raise RematchWaiting("Your rematch is waiting for the others to take their seats.")
        return game_accept(user=user, game_id=waiting.pk)
    n, mine = old.players, old.seat_of(user)
    around = {s.index: s for s in old.seat_list()}
    # The one who asks sits first; everyone keeps their place relative to them (partners stay opposite).
    seats = []
    for k in range(1, n):
        seat = around[(mine + k) % n]
        seats.append({"kind": "computer", "level": seat.computer_level} if seat.is_computer
                     else {"kind": "invite", "user": seat.user})
    new = game_create_table(user=user, rules=old.house_rules, seats=seats, turn_timer=old.turn_timer,
                            days_per_move=old.days_per_move, private=old.private)
    Game.objects.filter(pk=new.pk).update(rematch_of=old)
    redraw_boards([old.pk])  # the others' finished boards offer to take their seats in it
    return new


def table_rematch_waiting(old: Game) -> Game | None:
    """The rematch of the table ``old`` that someone opened and not everyone has joined yet."""
    return (Game.objects.with_seats().filter(rematch_of=old, status=Game.Status.WAITING)
            .order_by("pk").first())


def rematch_in_play(old: Game, user: AbstractBaseUser | int) -> Game | None:
    """The rematch of ``old`` that ``user`` is playing now, if one was started (by either player)."""
    user_id = getattr(user, "pk", user)
    return (Game.objects.filter(rematch_of=old, status=Game.Status.ACTIVE, seats__user_id=user_id)
            .order_by("-pk").first())


def organiser_notice(*, game_ids: list[int], text: str, stop_turn_timer: bool = True) -> None:
    """An organiser's word on its games in play. Their boards say it from now on. ``stop_turn_timer``
    (a tournament cancelled: they no longer count): no clock runs on them any more, since nothing
    rides on them; an announcement leaves the clocks alone."""
    fields = {"notice": text[:300], **({"turn_timer": 0} if stop_turn_timer else {})}
    Game.objects.filter(pk__in=game_ids, status=Game.Status.ACTIVE).update(**fields)
    redraw_boards(game_ids)


@transaction.atomic
def organiser_start_turn_timer(*, game_id: int, seconds: int) -> bool:
    """An organiser starts the turn timer of one of its games in play, made without one so that
    nobody lost time before both players were at the table: from now each decision has
    ``seconds``. Returns whether it started (not for a game over, or one whose clock runs)."""
    if seconds not in (30, 60, 180):
        raise ServiceError("The turn timer is 30 s, 60 s or 3 minutes.")
    game = _lock(game_id)
    if game.status != Game.Status.ACTIVE or not game.organised or game.turn_timer:
        return False
    game.turn_timer = seconds
    game.turn_started_at = timezone.now()
    game.version += 1
    game.save(update_fields=["turn_timer", "turn_started_at", "version", "updated_at"])
    _after_commit(game)
    log.info("game=%s action=start_turn_timer seconds=%s", game.pk, seconds)
    return True


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
        days_per_move=old.days_per_move,
        created_at__gte=old.finished_at or old.updated_at, **_rule_fields(old.house_rules),
    ).order_by("created_at").first()
