from django.urls import path

from games.webpush import app_views, views

urlpatterns = [
    path("sw.js", app_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", app_views.manifest, name="web_manifest"),
    path("offline/", app_views.offline, name="offline"),
    path("push/subscribe/", views.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.unsubscribe, name="push_unsubscribe"),
]
