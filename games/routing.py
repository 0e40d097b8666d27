from django.urls import path

from games import consumers
from games.tournaments.consumers import TournamentConsumer, WatchConsumer

websocket_urlpatterns = [
    path("ws/health/", consumers.HealthConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/watch/<int:game_id>/", WatchConsumer.as_asgi()),
]
