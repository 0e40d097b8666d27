from django.urls import path

from games.tournaments.consumers import TournamentConsumer, WatchConsumer

websocket_urlpatterns = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/watch/<int:game_id>/", WatchConsumer.as_asgi()),
]
