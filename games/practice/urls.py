from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.practice import views
from games.practice.lesson import views as lesson

app_name = "practice"

urlpatterns = [
    path("practice/counting/", views.counting, name="counting"),
    path("practice/lesson/", lesson.lesson, name="lesson"),
    path("practice/lesson/start/", lesson.lesson_start, name="lesson_start"),
    path("practice/lesson/<id:game_id>/coach/", lesson.lesson_coach, name="lesson_coach"),
    path("practice/lesson/normal-game/", lesson.lesson_normal_game, name="lesson_normal_game"),
]
