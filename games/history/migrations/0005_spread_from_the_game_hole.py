"""A game's margin is the ACC's spread: the winner counted at the target, not at whatever the last
count took them to. The stored rows of games won past the target are recomputed with
``summaries.game_margin``'s rule."""

from django.db import migrations


def _margin(games: list[dict], side: int, target: int) -> int:
    total = 0
    for g in games:
        scores = [min(s, target) for s in g["scores"]]
        diff = scores[side] - max((s for i, s in enumerate(scores) if i != side), default=0)
        total += max(diff, 0) if g["winner"] == side else min(diff, 0)
    return total


def recompute(apps, schema_editor):
    player_game = apps.get_model("history", "PlayerGame")
    db = schema_editor.connection.alias
    for row in player_game.objects.using(db).select_related("game").iterator(chunk_size=500):
        games = (row.game.result or {}).get("games") or []
        if not any(max(g["scores"]) > row.target for g in games):
            continue
        sides = 3 if row.players == 3 else 2
        margin = _margin(games, row.seat % sides, row.target)
        if margin != row.margin:
            player_game.objects.using(db).filter(pk=row.pk).update(margin=margin)


class Migration(migrations.Migration):
    dependencies = [("history", "0004_pegging_without_words")]
    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
