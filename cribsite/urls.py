from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("games.urls_accounts")),
    path("tournaments/", include("games.tournaments.urls")),
    path("", include("games.history.urls")),
    path("", include("games.urls")),
]
