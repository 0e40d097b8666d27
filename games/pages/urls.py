from django.urls import path

from games.pages.views import rules, site

urlpatterns = [
    path("", site.home, name="home"),
    path("health/", site.health, name="health"),
    path("rules/", rules.how_to_play, name="how_to_play"),
    path("favicon.ico", site.favicon),
]
