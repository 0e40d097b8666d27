"""What the board knew by asking the tournament, each game now holds itself: that a tournament set it
up (``Game.organised``), and, where the tournament was cancelled while it was in play, that it no
longer counts (``Game.notice``)."""

from django.db import migrations


def organised_games_and_notices(apps, schema_editor):
    match = apps.get_model("tournaments", "Match")
    game = apps.get_model("play", "Game")
    game.objects.filter(pk__in=match.objects.filter(game__isnull=False).values("game_id")).update(organised=True)
    for m in match.objects.filter(status="void", game__isnull=False).select_related("tournament"):
        text = f"The tournament {m.tournament.name} was cancelled: this game no longer counts."
        game.objects.filter(pk=m.game_id, notice="").update(notice=text[:300])


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0009_organisers_word"),
        ("tournaments", "0002_turn_timer"),
    ]

    operations = [
        migrations.RunPython(organised_games_and_notices, migrations.RunPython.noop),
    ]
