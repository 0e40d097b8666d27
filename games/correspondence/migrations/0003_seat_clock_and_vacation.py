import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """The clocks of games at your own pace are this app's models; their tables are the ones
    play created (``play_seatclock``, ``play_vacation``), so only the state changes here."""

    dependencies = [
        ('correspondence', '0002_notice_send'),
        ('play', '0016_game_private'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Vacation',
                    fields=[
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='vacation', serialize=False, to=settings.AUTH_USER_MODEL)),
                        ('since', models.DateTimeField(blank=True, null=True)),
                        ('until', models.DateTimeField(blank=True, null=True)),
                        ('year', models.PositiveSmallIntegerField(default=0)),
                        ('seconds_used', models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        'db_table': 'play_vacation',
                        'ordering': ['user'],
                    },
                ),
                migrations.CreateModel(
                    name='SeatClock',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('index', models.PositiveSmallIntegerField()),
                        ('bank_seconds', models.PositiveIntegerField(default=0)),
                        ('deadline_at', models.DateTimeField(blank=True, null=True)),
                        ('extended', models.PositiveSmallIntegerField(default=0)),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='clocks', to='play.game')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='clocks', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'play_seatclock',
                        'ordering': ['game', 'index'],
                        'indexes': [models.Index(fields=['user', 'deadline_at'], name='seatclock_user_deadline')],
                        'constraints': [models.UniqueConstraint(fields=('game', 'index'), name='seatclock_unique_index')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
