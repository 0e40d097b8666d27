"""Every websocket route of the site, gathered from the apps, and a refusal for any other path."""

from django.urls import re_path

from games.infra.sockets import refuse_unrouted
from games.pages import routing as pages
from games.play import routing as play
from games.tournaments import routing as tournaments

websocket_urlpatterns = [
    *play.websocket_urlpatterns,
    *tournaments.websocket_urlpatterns,
    *pages.websocket_urlpatterns,
    # Last, and it matches any path: channels' router would raise for a path no route above takes.
    re_path(r"", refuse_unrouted, name="no_route"),
]
