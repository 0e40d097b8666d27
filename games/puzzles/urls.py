from django.urls import path, re_path

from games.puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("puzzles/", views.today, name="today"),
    path("puzzles/archive/", views.archive, name="archive"),
    path("puzzles/mine/", views.mine, name="mine"),
    re_path(r"^puzzles/(?P<day>\d{4}-\d{2}-\d{2})/$", views.day, name="day"),
    re_path(r"^puzzles/(?P<day>\d{4}-\d{2}-\d{2})/answer/$", views.answer, name="answer"),
]
