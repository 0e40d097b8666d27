from django.urls import path

from games.tournaments import printing, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/unregister/", views.unregister, name="unregister"),
    path(
        "<int:tournament_id>/matches/<int:match_id>/claim-forfeit/", views.claim_forfeit, name="claim_forfeit"
    ),
    path("<int:tournament_id>/matches/<int:match_id>/watch/", views.watch, name="watch"),
    path("<int:tournament_id>/print/pairings/", printing.pairings, name="print_pairings"),
    path("<int:tournament_id>/print/standings/", printing.standings, name="print_standings"),
    path("<int:tournament_id>/print/bracket/", printing.bracket, name="print_bracket"),
]
