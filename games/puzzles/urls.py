from django.urls import path

from games.puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("puzzles/", views.today, name="today"),
    path("puzzles/archive/", views.archive, name="archive"),
    path("puzzles/mine/", views.mine, name="mine"),
    # A day as 2026-12-04, checked by the view (one address per day: no other ISO spelling).
    path("puzzles/<str:day>/", views.day, name="day"),
    path("puzzles/<str:day>/answer/", views.answer, name="answer"),
]
