from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.history.views import games as views_games
from games.history.views import players as views_players

urlpatterns = [
    path("games/mine/", views_games.my_games, name="my_games"),
    path("players/<str:username>/games/", views_games.player_games, name="player_games"),
    path("players/<str:username>/stats/", views_players.stats, name="player_stats"),
    path("games/<id:game_id>/record/", views_games.record, name="game_record"),
    path("games/<id:game_id>/record/play-analysis/", views_games.play_analysis, name="game_play_analysis"),
    path("games/<id:game_id>/replay/", views_games.replay, name="game_replay"),
    path("games/<id:game_id>/export.json", views_games.export_json, name="game_export_json"),
    path("games/<id:game_id>/export.txt", views_games.export_text, name="game_export_text"),
    path("leaderboard/", views_players.leaderboard, name="leaderboard"),
    path("fair-deals/", views_players.verify_help, name="fair_deals"),
]
