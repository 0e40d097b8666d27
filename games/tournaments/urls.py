from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.tournaments import printing, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<id:tournament_id>/", views.tournament_detail, name="detail"),
    path("<id:tournament_id>/register/", views.register, name="register"),
    path("<id:tournament_id>/unregister/", views.unregister, name="unregister"),
    path(
        "<id:tournament_id>/matches/<id:match_id>/claim-forfeit/", views.claim_forfeit, name="claim_forfeit"
    ),
    path("<id:tournament_id>/matches/<id:match_id>/watch/", views.watch, name="watch"),
    path("<id:tournament_id>/print/pairings/", printing.pairings, name="print_pairings"),
    path("<id:tournament_id>/print/standings/", printing.standings, name="print_standings"),
    path("<id:tournament_id>/print/bracket/", printing.bracket, name="print_bracket"),
]
