from django.urls import path

from games.correspondence import views

app_name = "correspondence"

urlpatterns = [
    path("your-turn/", views.your_turn, name="your_turn"),
    path("your-turn/settings/", views.settings_page, name="settings"),
    path("your-turn/vacation/", views.vacation, name="vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
