from django.db import migrations


class Migration(migrations.Migration):
    """``SeatClock`` and ``Vacation`` are the correspondence app's models; their tables stay as they
    are (that app's models name them), so only the state changes here."""

    dependencies = [
        ('play', '0016_game_private'),
        ('correspondence', '0003_seat_clock_and_vacation'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='SeatClock'),
                migrations.DeleteModel(name='Vacation'),
            ],
            database_operations=[],
        ),
    ]
