from django.db import migrations, models


def fill_from_move_log(apps, schema_editor):
    """Games played before these fields existed: take them from each game's latest Move."""
    Game = apps.get_model("play", "Game")
    Move = apps.get_model("play", "Move")
    for game_id in Game.objects.filter(moves__isnull=False).distinct().values_list("pk", flat=True).iterator():
        last = Move.objects.filter(game_id=game_id).order_by("-seq").first()
        Game.objects.filter(pk=game_id).update(
            move_count=last.seq, last_events=([last.note] if last.note else []) + list(last.events),
        )


class Migration(migrations.Migration):
    # Applied as the "games" app before the site was split into apps: the records of a database
    # migrated then say "games", and this migration counts as applied where they are.
    replaces = [("games", "0004_game_move_count_last_events")]


    dependencies = [
        ('play', "0003_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="move_count",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="game",
            name="last_events",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.RunPython(fill_from_move_log, migrations.RunPython.noop),
    ]
