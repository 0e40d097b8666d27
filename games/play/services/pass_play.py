"""Pass and play: starting a game on one device, showing a seat's hand after its pass screen, and
which seat a move from that device is for."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.engine.actions import action_from_dict
from games.engine.rules import HouseRules
from games.play import pass_play
from games.play.models import ComputerLevel, Game, Seat
from games.play.models.seats import NAME_LENGTH
from games.play.names import reserved_name_reason
from games.play.services.core import _after_commit, _apply, _lock, _rule_fields, _start, load_state
from games.play.services.errors import NotAPlayer, NotAvailable, ServiceError

log = logging.getLogger("games.actions")


@transaction.atomic
def game_create_pass_and_play(*, user: AbstractBaseUser, rules: HouseRules, seats: list[dict]) -> Game:
    """A game on ``user``'s device. ``seats``, one per seat in order: ``{"kind": "person", "name":
    "Ann"}`` or ``{"kind": "computer", "level": "standard"}``; at least one person, names told
    apart. Unrated, counted by the site (a hand's count is typed by nobody), and started at once."""
    if len(seats) != rules.players or rules.players not in (2, 3, 4):
        raise ServiceError("Pass and play seats two, three or four.")
    names = [str(s.get("name", "")).strip() for s in seats if s.get("kind") == "person"]
    if not names:
        raise ServiceError("Someone has to hold the device: name at least one player.")
    if any(not n or len(n) > NAME_LENGTH for n in names):
        raise ServiceError(f"Give each player a name of 1 to {NAME_LENGTH} characters.")
    if reason := next((r for n in names if (r := reserved_name_reason(n))), None):
        raise ServiceError(reason)
    if len({n.casefold() for n in names}) != len(names):
        raise ServiceError("Give each player a different name, so the pass screen can tell them apart.")
    computers = [s for s in seats if s.get("kind") != "person"]
    if any(s.get("kind") != "computer" or s.get("level") not in ComputerLevel.values for s in computers):
        raise ServiceError("Each seat is a person or a computer.")
    fields = {**_rule_fields(rules), "manual_counting": False, "muggins": False}
    levels = [s["level"] for s in seats if s.get("kind") == "computer"]
    game = Game.objects.create(
        created_by=user, players=rules.players, vs_computer=True, rated=False,
        computer_level=levels[0] if levels else "", pass_play={"shown": None, "deal": None}, **fields,
    )
    for index, spot in enumerate(seats):
        if spot.get("kind") == "computer":
            Seat.objects.create(game=game, index=index, computer_level=spot["level"])
        else:
            Seat.objects.create(game=game, index=index, user=user, name=str(spot["name"]).strip())
    _start(game)
    game.save()
    _after_commit(game)
    log.info("game=%s user=%s action=pass_and_play players=%s", game.pk, user.pk, rules.players)
    return game


@transaction.atomic
def game_show_hand(*, user: AbstractBaseUser, game_id: int, seat: int, origin: str = "") -> Game:
    """The player at ``seat`` has the device and taps to see their hand: the board shows it from now
    on, until the device must go to someone else. Only the seat the pass screen names may be shown.
    ``origin``: the page that asked, answered with the board (as for ``game_act``)."""
    game = _lock(game_id)
    if game.pass_play is None or game.created_by_id != user.pk:
        raise NotAPlayer("This game is not being passed round your device.")
    if game.status != Game.Status.ACTIVE:
        raise NotAvailable("This game is over.")
    state = load_state(game)
    wanted = pass_play.pass_to(game, state)
    if wanted is None:
        raise NotAvailable("A hand is shown already; play on.")
    if seat != wanted:
        raise NotAvailable(f"The device goes to {_name(game, wanted)} now.")
    _set_shown(game, {"shown": seat, "deal": [state.game_no, state.deal_no], "last": seat},
               origin=origin, actor=user.pk)
    return game


@transaction.atomic
def game_cover_hands(*, user: AbstractBaseUser, game_id: int) -> None:
    """The game is opened afresh on the device (resumed later, or by someone else): whoever holds it
    now taps the pass screen again before a hand is shown."""
    game = _lock(game_id)
    if game.pass_play is None or game.created_by_id != user.pk or game.status != Game.Status.ACTIVE:
        return
    if game.pass_play.get("shown") is not None:
        _set_shown(game, {**game.pass_play, "shown": None})


def _set_shown(game: Game, shown: dict, *, origin: str = "", actor: int | None = None) -> None:
    game.pass_play = shown
    game.version += 1
    # The version moves on: a board drawn before the device changed hands cannot move for anyone.
    Game.objects.filter(pk=game.pk).update(pass_play=game.pass_play, version=game.version)
    _after_commit(game, origin=origin, actor=actor)


def pass_play_rematch(old: Game) -> Game:
    """The same table on the same device again, everyone in the same seat."""
    seats = [{"kind": "computer", "level": s.computer_level} if s.is_computer
             else {"kind": "person", "name": s.name} for s in old.seat_list()]
    return game_create_pass_and_play(user=old.created_by, rules=old.house_rules, seats=seats)


def acting_seat(game: Game) -> int:
    """The seat a move from the owner's device is for: the one shown. With the pass screen up (or a
    board left over from before the device changed hands) the move is refused, naming who is next."""
    state = load_state(game)
    shown = pass_play.shown_seat(game, state)
    if shown is None:
        wanted = pass_play.pass_to(game, state)
        raise NotAvailable(f"Pass the device to {_name(game, wanted)}: their hand is not shown yet.")
    return shown


def act_for_the_table(game: Game, action: dict, *, origin: str = "", actor: int | None = None) -> None:
    """After "Next hand" (or "Next game") from the device, the other people at it are ready too:
    they are round the same table, and one tap says it for all."""
    kind = action.get("type")
    if kind not in pass_play.TABLE_ACTIONS:
        return
    phase = "show" if kind == "next_deal" else "game_over"
    people = pass_play.people(game)
    while (state := load_state(game)).phase == phase and (waiting := pass_play.due(state, people)):
        _apply(game, action_from_dict({"type": kind, "seat": waiting[0]}), origin=origin, actor=actor)


def _name(game: Game, seat: int | None) -> str:
    names = game.seat_names()
    return names[seat] if seat is not None else "the next player"
