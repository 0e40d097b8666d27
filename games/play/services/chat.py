"""The table's quick messages: one of a fixed list, rate limited, pushed to the table."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from games.play import broadcast, chat
from games.play.models import Game
from games.play.services.errors import NotAPlayer, RateLimited, ServiceError


def game_say(*, user: AbstractBaseUser, game_id: int, message: str) -> None:
    """Send a quick message to the table (a key of ``chat.MESSAGES``), rate limited."""
    game = Game.objects.with_seats().filter(pk=game_id).first()
    seat = game.seat_of(user) if game else None
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if message not in chat.MESSAGES:
        raise ServiceError("Pick one of the quick messages.")
    if not chat.allow(game.pk, user.pk):
        raise RateLimited("Easy there: wait a few seconds before the next message.")
    broadcast.game_chat(game.pk, seat, message)
