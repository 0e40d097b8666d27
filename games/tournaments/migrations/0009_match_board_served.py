"""Each player's mark of the match's board they were served (``Match.opened1``/``opened2``), which
takes down their "Your match is ready". A match whose board a player had already opened (a socket
there, open or closed) is marked as served, so its news does not come back."""

from django.db import migrations, models


def mark_boards_opened(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    Connection = apps.get_model("play", "Connection")
    opened = set(Connection.objects.values_list("game_id", "user_id").distinct())
    if not opened:
        return
    active = Match.objects.filter(game__isnull=False, status="active").values_list(
        "pk", "game_id", "entrant1__user_id", "entrant2__user_id")
    for pk, game_id, user1, user2 in active.iterator():
        sides = ((1, user1), (2, user2))
        marks = {f"opened{side}": game_id for side, user in sides if (game_id, user) in opened}
        if marks:
            Match.objects.filter(pk=pk).update(**marks)


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0012_correspondence"),
        ("tournaments", "0008_notices_as_data"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="opened1",
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="match",
            name="opened2",
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(mark_boards_opened, migrations.RunPython.noop),
    ]
