from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.history.views import games as views_games
from games.history.views import players as views_players
from games.history.views import record as views_record

urlpatterns = [
    path("games/mine/", views_games.my_games, name="my_games"),
    path("players/<str:username>/games/", views_games.player_games, name="player_games"),
    path("players/<str:username>/stats/", views_players.stats, name="player_stats"),
    path("games/<id:game_id>/record/", views_record.record, name="game_record"),
    path("games/<id:game_id>/record/deals/<index:game_no>-<index:deal_no>/", views_record.record_deal,
         name="game_record_deal"),
    path("games/<id:game_id>/record/fair-deals/", views_record.record_verify, name="game_record_verify"),
    path("games/<id:game_id>/record/analysis/<slug:kind>/", views_record.record_analysis,
         name="game_record_analysis"),
    path("games/<id:game_id>/replay/", views_games.replay, name="game_replay"),
    path("games/<id:game_id>/export.json", views_games.export_json, name="game_export_json"),
    path("games/<id:game_id>/export.txt", views_games.export_text, name="game_export_text"),
    path("leaderboard/", views_players.leaderboard, name="leaderboard"),
    path("fair-deals/", views_players.verify_help, name="fair_deals"),
]
