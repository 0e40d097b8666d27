"""Notices stored as data: what happened (``what``) and the users, numbers and names of rounds it
needs (``params``), worded when shown (``games.tournaments.notice_words``), so that a name is
looked up each time and an account deleted later needs nothing rewritten.

The notices already written are read back into data where their sentence is one the site wrote
and every name in it is a player's username; any other (an announcement, a name already replaced
by "a deleted player") keeps its text. Notes the site wrote on matches decided by a forfeit or a
withdrawal name their players as ``{1}`` and ``{2}`` (``Match.note_text``) in the same way."""

from __future__ import annotations

import re

from django.conf import settings
from django.db import migrations, models

NAME = r"([\w.@+-]+)"
PAUSED = ("The director has paused the tournament: nothing new starts until it resumes; games in play "
          "go on.")

PATTERNS = [
    ("started", re.compile(r"The tournament has started with (\d+) players\."), ("players",)),
    ("round_opened", re.compile(r"Round (\d+) has begun\."), ("round",)),
    ("round_opened", re.compile(r"Qualifying round (\d+) of (\d+) has begun\."), ("round", "of")),
    ("round_opened", re.compile(rf"Qualifying round (\d+) of (\d+) has begun\. {NAME} has the bye "
                                r"\(a win, no spread\)\."), ("round", "of", "@bye")),
    ("qualifying_ended", re.compile(r"The director ended the qualifying after round (\d+) of (\d+)\."),
     ("round", "total")),
    ("finished", re.compile(rf"The tournament is over: {NAME} is the champion\."), ("@champion",)),
    ("finished", re.compile(r"The tournament is over\."), ()),
    ("cancelled", re.compile(r"The tournament has been cancelled\."), ()),
    ("paused", re.compile(re.escape(PAUSED)), ()),
    ("resumed", re.compile(r"The director has resumed the tournament\."), ()),
    ("withdrew", re.compile(rf"{NAME} has withdrawn\."), ("@user",)),
    ("entered", re.compile(rf"{NAME} was entered by the organiser\."), ("@user",)),
    ("removed", re.compile(rf"{NAME} was removed from the entry list\."), ("@user",)),
    ("forfeited", re.compile(rf"{NAME} forfeited {NAME} v {NAME} \(round (\d+)\)\."),
     ("@user", "@users", "@users", "round")),
    ("extended", re.compile(rf"Forfeit time for {NAME} v {NAME} extended by (\d+) minutes\."),
     ("@users", "@users", "minutes")),
    ("results_entered", re.compile(r"The director entered (\d+) results? \((.+)\)\."), ("count", "rounds")),
    ("result_entered", re.compile(rf"Result (set|corrected) by the organiser: {NAME} v {NAME} \((.+)\): "
                                  rf"{NAME} wins (\d+)–(\d+)\."),
     ("corrected", "@users", "@users", "round_name", "@winner", "won", "lost")),
    ("result_entered", re.compile(rf"Result (set|corrected) by the organiser: {NAME} v {NAME} \((.+)\): "
                                  rf"{NAME} wins (\d+)–(\d+)\. {NAME} is now the champion\."),
     ("corrected", "@users", "@users", "round_name", "@winner", "won", "lost", "@champion")),
]
PLAYOFF = re.compile(r"Qualifying is over\. The playoff, seeded by qualifying rank: (.+)\.")


def _params(what: str, keys: tuple, groups: tuple, user_of) -> dict | None:
    params: dict = {}
    for key, value in zip(keys, groups, strict=True):
        if key.startswith("@"):
            user = user_of(value)
            if user is None:
                return None
            if key == "@users":
                params.setdefault("users", []).append(user)
            else:
                params[key[1:]] = user
        elif key == "corrected":
            params[key] = value == "corrected"
        elif key in ("rounds", "round_name"):
            params[key] = value
        else:
            params[key] = int(value)
    return params


def _read(text: str, user_of) -> tuple[str, dict] | None:
    for what, pattern, keys in PATTERNS:
        found = pattern.fullmatch(text)
        if found is not None:
            params = _params(what, keys, found.groups(), user_of)
            return None if params is None else (what, params)
    found = PLAYOFF.fullmatch(text)
    if found is not None:
        users = []
        for part in found.group(1).split(", "):
            rank, _, name = part.partition(". ")
            user = user_of(name) if rank.isdigit() else None
            if user is None:
                return None
            users.append(user)
        return "playoff_drawn", {"users": users}
    return None


def forward(apps, schema_editor) -> None:
    Notice = apps.get_model("tournaments", "Notice")
    Entrant = apps.get_model("tournaments", "Entrant")
    Match = apps.get_model("tournaments", "Match")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    entered: dict[int, dict[str, int]] = {}
    for tournament_id, user_id, username in Entrant.objects.values_list("tournament_id", "user_id",
                                                                         "user__username"):
        entered.setdefault(tournament_id, {})[username] = user_id
    for notice in Notice.objects.exclude(kind="announce").filter(what="").iterator():
        names = entered.get(notice.tournament_id, {})

        def user_of(name: str, names=names) -> int | None:
            if name in names:
                return names[name]
            return User.objects.filter(username=name).values_list("pk", flat=True).first()

        found = _read(notice.text, user_of)
        if found is None:
            continue
        what, params = found
        reason = notice.reason
        users = params.get("users") or []
        if what == "forfeited" and reason:
            reason = _tokens(reason, users, {v: k for k, v in names.items()})
        Notice.objects.filter(pk=notice.pk).update(what=what, params=params, text="", reason=reason)
    for m in Match.objects.filter(decided_by__in=["forfeit", "withdrawal"]).exclude(note="").select_related(
            "entrant1__user", "entrant2__user").iterator():
        users = [m.entrant1.user_id if m.entrant1_id else None, m.entrant2.user_id if m.entrant2_id else None]
        names = {e.user_id: e.user.username for e in (m.entrant1, m.entrant2) if e is not None}
        note = _tokens(m.note, users, names)
        if note != m.note:
            Match.objects.filter(pk=m.pk).update(note=note)


def _tokens(text: str, users: list, names: dict[int, str]) -> str:
    """The players' usernames in ``text`` as ``{1}`` and ``{2}`` (the first and second of ``users``)."""
    for i, user in enumerate(users[:2], start=1):
        name = names.get(user)
        if name:
            text = re.sub(rf"(?<![\w.@+-]){re.escape(name)}(?![\w@+-]|\.[\w@+-])", "{" + str(i) + "}", text)
    return text


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("tournaments", "0007_entered_results_on_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="notice",
            name="what",
            field=models.CharField(blank=True, max_length=20),
        ),
        migrations.AddField(
            model_name="notice",
            name="params",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name="notice",
            name="text",
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.RunPython(forward, migrations.RunPython.noop),
    ]
