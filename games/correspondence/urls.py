from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.correspondence import views

app_name = "correspondence"

urlpatterns = [
    path("your-turn/", views.your_turn, name="your_turn"),
    path("your-turn/settings/", views.settings_page, name="settings"),
    path("your-turn/vacation/", views.vacation, name="vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("games/<id:game_id>/claim-on-time/", views.claim_on_time, name="claim_on_time"),
    path("games/<id:game_id>/give-time/", views.give_time, name="give_time"),
]
