"""Events as data: every stored event is rewritten in the engine's new shape (a kind, a seat, points,
cards and the numbers a sentence needs; no words), so old games replay and read as new ones do.

The Move log is the truth: each game's actions are replayed through the engine from its secret, and
each move's events, the snapshot's log and the game's latest events are taken from the replay. The
site's own notes (a timeout, a claimed win) carried their facts in a sentence: the facts are read
out of it here, the one place such text is ever read, and the result of a game the site ended
keeps its ending, as games ended from now on do.

Old code cannot read the new shape, so going back is only for a database without games.
"""

import logging

from django.conf import settings
from django.db import migrations

from games.engine.actions import action_from_dict
from games.engine.errors import IllegalAction
from games.engine.game import apply, new_game
from games.engine.rules import HouseRules

log = logging.getLogger("games.migrations")


def _number_after(text: str, words: str) -> int | None:
    """The whole number just after ``words`` in ``text`` ("timeout 2 of 3" → 2 after "timeout ")."""
    at = text.find(words)
    if at < 0:
        return None
    digits = ""
    for ch in text[at + len(words):]:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits) if digits else None


def _seat_before(text: str, words: str) -> int | None:
    """The seat named just before ``words`` ("Seat 0 claims" → 0 before " claims")."""
    at = text.find(words)
    if at < 2 or not text[at - 1].isdigit():
        return None
    return int(text[at - 1])


def _note(note: dict | None, action_type: str) -> dict | None:
    """A site's note in the new shape: its facts, no sentence."""
    if not note or "text" not in note:
        return note
    text = note["text"]
    base = {"seat": note["seat"], "kind": note["kind"], "points": 0, "cards": []}
    if note["kind"] == "timeout":
        limit = settings.TIMEOUTS_TO_FORFEIT
        count = note.get("timeouts") or _number_after(text, "timeout ") or _number_after(text, "out of time ")
        base.update(action=action_type, timeouts=count or (limit if action_type == "resign" else 1),
                    limit=note.get("limit") or _number_after(text, " of ") or limit)
        for key in ("game_no", "deal_no", "at"):
            if key in note:
                base[key] = note[key]
        return base
    if note["kind"] == "abandon":
        base.update(by=_seat_before(text, " claims"), minutes=_number_after(text, "away for ") or 0)
        return base
    return {k: v for k, v in note.items() if k != "text"}


def _ending(game, last_note: dict | None) -> dict | None:
    """The ending of a game the site resigned for a player, for a result stored without one."""
    if not last_note or game.status != "finished" or (game.result or {}).get("ending"):
        return None
    if last_note["kind"] == "timeout" and last_note.get("action") == "resign":
        return {"how": "time", "seat": last_note["seat"], "timeouts": last_note["timeouts"]}
    if last_note["kind"] == "abandon":
        return {"how": "claim", "seat": last_note["seat"], "by": last_note.get("by"),
                "minutes": last_note.get("minutes", 0)}
    return None


def _rules(game) -> HouseRules:
    return HouseRules(target=game.target, skunks=game.skunks, triple_skunk=game.triple_skunk,
                      peg_out_zone=game.peg_out_zone, manual_counting=game.manual_counting,
                      muggins=game.muggins, match_games=game.match_games, players=game.players)


def events_as_data(apps, schema_editor):
    db = schema_editor.connection.alias
    game_model = apps.get_model("play", "Game")
    move_model = apps.get_model("play", "Move")
    for game in game_model.objects.using(db).exclude(state=None).order_by("pk").iterator():
        state = new_game(_rules(game), bytes.fromhex(game.secret))
        moves = list(move_model.objects.using(db).filter(game_id=game.pk).order_by("seq"))
        last_note = None
        try:
            for move in moves:
                state, events = apply(state, action_from_dict(move.action))
                note = _note(move.note, move.action.get("type", ""))
                move_model.objects.using(db).filter(pk=move.pk).update(
                    events=[e.to_dict() for e in events], note=note)
                last_note, last_events = note, [e.to_dict() for e in events]
        except (IllegalAction, ValueError, KeyError):
            # A log that does not replay was broken before; it is left as it was, and said so.
            log.warning("game=%s: its move log does not replay; its events are left as they were", game.pk)
            continue
        fields = {"state": {**game.state, "log": [e.to_dict() for e in state.log]}}
        if moves and game.status != "aborted":  # a game called off keeps who called it off
            fields["last_events"] = ([last_note] if last_note else []) + last_events
        ending = _ending(game, last_note)
        if ending is not None:
            fields["result"] = {**game.result, "ending": ending}
        game_model.objects.using(db).filter(pk=game.pk).update(**fields)


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0009_organisers_word"),
    ]

    operations = [
        migrations.RunPython(events_as_data, migrations.RunPython.noop),
    ]
