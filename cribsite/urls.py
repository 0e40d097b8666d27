from django.contrib import admin
from django.urls import include, path

# Before any URL is built: the apps' patterns and the admin's own (a match's result page) use <id:...>.
import games.play.converters  # noqa: F401

# The admin is the site's: its directors run tournaments from it (games/tournaments/admin).
admin.site.site_header = "Cribbage Hall administration"
admin.site.site_title = "Cribbage Hall admin"
admin.site.index_title = "Site administration"

# Django tries the patterns in order: the play URLs, asked for on every move, come first.
urlpatterns = [
    path("", include("games.play.urls")),
    path("", include("games.history.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("", include("games.puzzles.urls")),
    path("", include("games.practice.urls")),
    path("", include("games.correspondence.urls")),
    path("accounts/", include("games.accounts.urls")),
    path("", include("games.webpush.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.pages.urls")),
]

# Django's 403 and 404 handlers draw 403.html and 404.html with the request; its 500 handler has no
# request and nothing to fall back on.
handler500 = "games.pages.views.errors.server_error"
