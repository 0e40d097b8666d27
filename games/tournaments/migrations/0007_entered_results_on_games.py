"""Results the director entered before a game kept them: each such match's result is put on its
game (``Game.result["entered"]``, see ``games.play.game_result``) and the game's history rows are
written again from it, so an old match reads as entered everywhere, as a new one does. Ratings
already moved by those games stay as they were."""

from __future__ import annotations

from django.db import migrations

from games.engine.rules import HouseRules
from games.play.game_result import entered_result


def _scores(text: str) -> list[list[int]]:
    return [[int(n) for n in part.strip().split("-")] for part in text.split(",") if part.strip()]


def _margin(game: dict, side: int, target: int) -> int:
    scores = [min(s, target) for s in game["scores"]]
    diff = scores[side] - scores[1 - side]
    return max(diff, 0) if game["winner"] == side else min(diff, 0)


def _rows(PlayerGame, game, entered: dict) -> None:
    games, won_games = entered["games"], entered["match_scores"]
    last = games[-1]["scores"] if games else [0, 0]
    for row in PlayerGame.objects.filter(game_id=game.pk):
        side = row.seat
        won = [g for g in games if g["winner"] == side]
        lost = [g for g in games if g["winner"] != side]
        row.result = "win" if entered["winner"] == side else "loss"
        row.entered, row.resigned = True, False
        row.score, row.opponent_score = last[side], last[1 - side]
        row.margin = sum(_margin(g, side, game.target) for g in games)
        row.games_won, row.games_lost = won_games[side], won_games[1 - side]
        row.skunks_given = sum(g["skunk"] >= 1 for g in won)
        row.double_skunks_given = sum(g["skunk"] >= 2 for g in won)
        row.skunks_taken = sum(g["skunks"][side] >= 1 for g in lost)
        row.double_skunks_taken = sum(g["skunks"][side] >= 2 for g in lost)
        row.save()


def forwards(apps, schema_editor) -> None:
    Match = apps.get_model("tournaments", "Match")
    Game = apps.get_model("play", "Game")
    PlayerGame = apps.get_model("history", "PlayerGame")
    for m in Match.objects.filter(decided_by="admin", game__isnull=False, status="finished").order_by("pk"):
        game = Game.objects.get(pk=m.game_id)
        if game.status != "finished" or game.players != 2 or (game.result or {}).get("entered"):
            continue
        winner = 0 if m.winner_id == m.entrant1_id else 1
        rules = HouseRules(target=game.target, skunks=game.skunks, triple_skunk=game.triple_skunk)
        entered = entered_result(rules, winner, [m.games1, m.games2], _scores(m.game_scores))
        game.result = {**(game.result or {}), "entered": entered}
        game.winner_seat = winner
        game.save(update_fields=["result", "winner_seat"])
        _rows(PlayerGame, game, entered)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_pone_cuts"),
        ("history", "0006_playergame_entered"),
        ("play", "0011_pone_cuts"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
