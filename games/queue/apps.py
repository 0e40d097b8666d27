from django.apps import AppConfig


class QueueConfig(AppConfig):
    """The site's task queue: Django's task framework on django-tasks-db's database backend, run by
    ``manage.py task_worker`` (heartbeats, tasks of a dead worker run again, retries with back-off)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.queue"
    label = "queue"
    verbose_name = "Task queue"
