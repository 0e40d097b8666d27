"""The pone cuts the pack for the starter: a house rule, on for new games."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0010_events_as_data'),
    ]

    # Rows made before the cut was a move keep the starter turning by itself, as their games'
    # stored rules say; new ones default to the ACC's way.
    operations = [
        migrations.AddField(
            model_name='game',
            name='pone_cuts',
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name='game',
            name='pone_cuts',
            field=models.BooleanField(default=True),
        ),
    ]
