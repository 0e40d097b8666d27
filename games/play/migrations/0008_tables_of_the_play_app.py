"""The play app's tables take its name (they kept the "games_" prefix of the app that held them),
and its content types follow, so permissions and the admin's history stay with the models."""

from django.db import migrations

MODELS = ("game", "seat", "move", "round", "connection")


def content_types_to_play(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if not content_type.objects.using(db).filter(app_label="play", model=model).exists():
            content_type.objects.using(db).filter(app_label="games", model=model).update(app_label="play")


def content_types_to_games(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    content_type.objects.using(db).filter(app_label="play", model__in=MODELS).update(app_label="games")


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("play", "0007_connection_closed_at"),
    ]

    operations = [
        migrations.RenameIndex(
            model_name="connection",
            new_name="connection_game_user_seen",
            old_name="games_conne_game_id_9657d8_idx",
        ),
        migrations.AlterModelTable(name="connection", table=None),
        migrations.AlterModelTable(name="game", table=None),
        migrations.AlterModelTable(name="move", table=None),
        migrations.AlterModelTable(name="round", table=None),
        migrations.AlterModelTable(name="seat", table=None),
        migrations.RunPython(content_types_to_play, content_types_to_games),
    ]
