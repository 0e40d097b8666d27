from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournament/<id:tournament_id>/", TournamentConsumer.as_asgi()),
]
