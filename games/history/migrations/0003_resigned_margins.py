"""A game won by a resignation made while the resigner was ahead no longer counts a margin of the
wrong sign (a loss that sorted among the wins): the stored rows of resigned games are recomputed
with ``summaries.game_margin``'s rule."""

from django.db import migrations


def _margin(games: list[dict], side: int) -> int:
    total = 0
    for g in games:
        scores = g["scores"]
        diff = scores[side] - max((s for i, s in enumerate(scores) if i != side), default=0)
        total += max(diff, 0) if g["winner"] == side else min(diff, 0)
    return total


def recompute(apps, schema_editor):
    PlayerGame = apps.get_model("history", "PlayerGame")
    for row in PlayerGame.objects.filter(resigned=True).select_related("game").iterator(chunk_size=500):
        games = (row.game.result or {}).get("games") or []
        sides = 3 if row.players == 3 else 2
        margin = _margin(games, row.seat % sides)
        if margin != row.margin:
            PlayerGame.objects.filter(pk=row.pk).update(margin=margin)


class Migration(migrations.Migration):
    dependencies = [("history", "0002_players_and_partners")]
    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
