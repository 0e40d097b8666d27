"""A notice's fields named for what they hold: what happened (was ``what``), its details (was
``params``) and who posted it (was ``by``). The notices are kept as they are."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0011_match_board_served_game"),
    ]

    operations = [
        migrations.RenameField(model_name="notice", old_name="what", new_name="what_happened"),
        migrations.RenameField(model_name="notice", old_name="params", new_name="details"),
        migrations.RenameField(model_name="notice", old_name="by", new_name="posted_by"),
    ]
