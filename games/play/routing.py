from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.play import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/game/<id:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/watch/<id:game_id>/", consumers.SpectatorConsumer.as_asgi()),
    path("ws/news/", consumers.NewsConsumer.as_asgi()),
]
