from django.contrib import admin
from django.urls import include, path

# Django tries the patterns in order: the play URLs, asked for on every move, come first.
urlpatterns = [
    path("", include("games.play.urls")),
    path("", include("games.history.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("accounts/", include("games.accounts.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.pages.urls")),
]
