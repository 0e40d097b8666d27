"""Every change to a player's lessons, in a transaction with the player's lesson record locked.
The games themselves are made by the play app's services."""

from __future__ import annotations

from django.db import transaction

from games.engine.rules import HouseRules
from games.play import services as play
from games.play.models import ComputerLevel, Game
from games.practice.lesson.deals import lesson_secret
from games.practice.models import LessonRecord
from games.practice.services import PracticeError

# The friendly computer of a lesson; the normal game offered at its end is the lobby's default.
LESSON_LEVEL = ComputerLevel.EASY
NORMAL_LEVEL = ComputerLevel.STANDARD


class NotALesson(PracticeError):
    status = 404


def _record(user) -> LessonRecord:
    LessonRecord.objects.get_or_create(user=user)
    return LessonRecord.objects.select_for_update().get(user=user)


def lesson_data(user) -> dict | None:
    """The player's lessons as their data download gives them; None if they never took one."""
    row = LessonRecord.objects.filter(user=user).first()
    if row is None:
        return None
    return {"lessons_started": row.lessons_started, "explanations_hidden": row.coach_hidden,
            "latest_game": row.game_id, "updated_at": row.updated_at.isoformat()}


def lesson_in_hand(user) -> Game | None:
    """The player's lesson game still being played, to resume; None if there is none."""
    record = LessonRecord.objects.filter(user=user).select_related("game").first()
    game = record.game if record else None
    return game if game is not None and game.status == Game.Status.ACTIVE else None


@transaction.atomic
def lesson_start(*, user) -> Game:
    """A new lesson: a game to 121 against the friendly computer whose first deals teach."""
    record = _record(user)
    game = play.game_create_vs_computer(user=user, level=LESSON_LEVEL, rules=HouseRules(), hints=True,
                                        lesson=True, secret=lesson_secret())
    record.game = game
    record.lessons_started += 1
    record.save(update_fields=["game", "lessons_started", "updated_at"])
    return game


@transaction.atomic
def lesson_coach_toggle(*, user, game_id: int) -> Game:
    """Hide the coach's explanations, or show them again, on the player's lesson boards."""
    game = Game.objects.for_player(game_id, user)
    if game is None or not game.lesson:
        raise NotALesson("That is not one of your lessons.")
    record = _record(user)
    record.coach_hidden = not record.coach_hidden
    record.save(update_fields=["coach_hidden", "updated_at"])
    return game


def normal_game(*, user) -> Game:
    """The game a finished lesson offers: against the computer, as the lobby starts one."""
    return play.game_create_vs_computer(user=user, level=NORMAL_LEVEL, rules=HouseRules())
