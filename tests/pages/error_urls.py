"""The site's URLs plus three that fail, for the error pages' tests."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import path

from cribsite.urls import handler500
from cribsite.urls import urlpatterns as site_patterns

SECRET = "a detail of the failure no visitor may read"


def refused(request):
    raise PermissionDenied("Only the tournament's directors can do this.")


def refused_quietly(request):
    raise PermissionDenied


def missing(request):
    raise Http404(SECRET)


def broken(request):
    raise RuntimeError(SECRET)


urlpatterns = [
    path("fail/403/", refused),
    path("fail/403-quiet/", refused_quietly),
    path("fail/404/", missing),
    path("fail/500/", broken),
    *site_patterns,
]

__all__ = ["handler500", "urlpatterns"]
