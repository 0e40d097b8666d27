from django.urls import path

from games.pages.views import home, rules, site, watch

urlpatterns = [
    path("", home.home, name="home"),
    path("watch/", watch.watch, name="watch"),
    path("health/", site.health, name="health"),
    path("rules/", rules.how_to_play, name="how_to_play"),
    path("favicon.ico", site.favicon),
]
