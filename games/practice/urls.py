from django.urls import path

from games.practice import views

app_name = "practice"

urlpatterns = [
    path("practice/counting/", views.counting, name="counting"),
]
