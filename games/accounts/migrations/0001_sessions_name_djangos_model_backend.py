"""Sessions logged in through the site's former backend (``games.infra.auth.ModelBackend``) name
Django's own instead, so nobody is logged out when that backend goes: Django treats a session whose
backend is not among ``AUTHENTICATION_BACKENDS`` as logged out. A cached copy is dropped, so the
next request reads the rewritten row."""

from importlib import import_module

from django.conf import settings
from django.db import migrations

OLD = "games.infra.auth.ModelBackend"
NEW = "django.contrib.auth.backends.ModelBackend"
BACKEND_KEY = "_auth_user_backend"


def rename_backend(apps, schema_editor):
    Session = apps.get_model("sessions", "Session")
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    codec = import_module("django.contrib.sessions.backends.db").SessionStore()
    for session in Session.objects.using(schema_editor.connection.alias).iterator():
        data = codec.decode(session.session_data)
        if data.get(BACKEND_KEY) != OLD:
            continue
        data[BACKEND_KEY] = NEW
        session.session_data = codec.encode(data)
        session.save(update_fields=["session_data"])
        cached = store_class(session_key=session.session_key)
        if hasattr(cached, "_cache"):
            try:
                cached._cache.delete(cached.cache_key)
            except Exception:  # noqa: BLE001 - a cache that does not answer keeps no copy to read
                pass


class Migration(migrations.Migration):
    dependencies = [("sessions", "0001_initial")]

    operations = [migrations.RunPython(rename_backend, migrations.RunPython.noop)]
