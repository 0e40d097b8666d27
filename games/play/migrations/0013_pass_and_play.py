"""Pass and play: a typed name per seat (the device's owner holds every named seat) and, on the
game, which seat's hand the device shows."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0012_correspondence'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='seat',
            name='seat_unique_user',
        ),
        migrations.AddField(
            model_name='game',
            name='pass_play',
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='name',
            field=models.CharField(blank=True, help_text="Pass and play: the name typed for this seat; the device's owner holds every such seat.", max_length=20),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(condition=models.Q(('name', '')), fields=('game', 'user'), name='seat_unique_user'),
        ),
    ]
