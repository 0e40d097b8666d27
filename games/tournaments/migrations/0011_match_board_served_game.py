"""``Match.opened1``/``opened2`` hold the id of the game whose board each player was last served:
named for it. The marks are kept as they are."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0010_result_entered_by_the_director"),
    ]

    operations = [
        migrations.RenameField(model_name="match", old_name="opened1", new_name="board_served_game1"),
        migrations.RenameField(model_name="match", old_name="opened2", new_name="board_served_game2"),
    ]
