from django.urls import path

from games.pages.consumers import HealthConsumer, WatchListConsumer

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    path("ws/watch-list/", WatchListConsumer.as_asgi()),
]
