from django.urls import path

from games import views_site

urlpatterns = [
    path("", views_site.home, name="home"),
    path("health/", views_site.health, name="health"),
    path("lobby/", views_site.home, name="lobby"),  # replaced by the lobby view
]
