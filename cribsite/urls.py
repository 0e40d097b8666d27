from django.contrib import admin
from django.urls import include, path

from games.views_site import favicon

# Django tries the patterns in order and notes every miss: the play URLs, asked for on every move,
# come first (bench.load: resolving /games/<id>/act/ behind the others was 4% of a worker's CPU).
urlpatterns = [
    path("", include("games.urls")),
    path("", include("games.history.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("accounts/", include("games.urls_accounts")),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
]
