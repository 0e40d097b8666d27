"""Every websocket route of the site, gathered from the apps."""

from games.pages import routing as pages
from games.play import routing as play
from games.tournaments import routing as tournaments

websocket_urlpatterns = [
    *play.websocket_urlpatterns,
    *tournaments.websocket_urlpatterns,
    *pages.websocket_urlpatterns,
]
