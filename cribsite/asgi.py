"""ASGI entry point: HTTP goes to Django, websockets through auth to the games' consumers."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
# Django must be set up before the consumers (which import models) are imported.
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402

from games.infra.threads import PooledASGIHandler  # noqa: E402

django_asgi_app = PooledASGIHandler(settings.HTTP_THREADS)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from cribsite.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

from games.infra.serving import tune_process  # noqa: E402

tune_process()  # last: what start-up built is frozen out of the garbage collector's passes
