"""A notice of the tournament's log in words, worded when it is shown.

A notice is stored as data (``Notice.what`` and ``Notice.params``: ids of users, a game, a few
numbers), never as a sentence with a name in it, so a player's name is looked up each time it is
shown: an account deleted since reads as "a deleted player" (``games.play.names.public_name``)
without anything rewritten. ``{1}`` and ``{2}`` in a reason name the first and the second of the
notice's ``users`` (a match's two players), as they do in a match's note (``Match.note_text``).
The director's own words (an announcement, a reason) are kept as written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.apps import apps
from django.contrib.auth import get_user_model

from games.play.names import public_name

# A notice words itself through this module, so the models are reached through the app registry
# (the titles of source events), never by import.
if TYPE_CHECKING:
    from games.tournaments.models import Notice

USER_KEYS = ("user", "champion", "winner", "bye")
USERS_KEYS = ("users",)
SHOWN = 12  # names listed in one notice, "and 3 more" after them


def user_ids(params: dict) -> set[int]:
    """The users a notice's params name (by id)."""
    found = {params[k] for k in USER_KEYS if params.get(k)}
    for key in USERS_KEYS:
        found.update(u for u in params.get(key) or () if u)
    found.update(u for u, _ in params.get("cards") or () if u)
    return found


def names_of(ids: Iterable[int]) -> dict[int, str]:
    """Each user's public name, in one query."""
    rows = get_user_model().objects.filter(pk__in=set(ids)).values_list("pk", "username")
    return {pk: public_name(username) for pk, username in rows}


def with_names(text: str, users: list, name: Callable[[int | None], str]) -> str:
    """``{1}`` and ``{2}`` in ``text`` as the names of ``users``' first and second.

    >>> with_names("{1} made no move; claimed by {2}.", [1, 2], {1: "al", 2: "bo"}.get)
    'al made no move; claimed by bo.'
    """
    for i, user in enumerate(users[:2], start=1):
        text = text.replace("{" + str(i) + "}", name(user) if user else "?")
    return text


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def sentence(what: str, p: dict, name: Callable[[int | None], str], sources: dict[int, str]) -> str | None:
    """The notice ``what`` with ``p`` in words; None for a ``what`` with no words (shown as its text)."""
    users = p.get("users") or []
    label = " v ".join(name(u) if u else "?" for u in users[:2]) if users else ""
    if what == "started":
        return f"The tournament has started with {p['players']} players."
    if what == "round_opened":
        if p.get("of"):
            text = f"Qualifying round {p['round']} of {p['of']} has begun."
        else:
            text = f"Round {p['round']} has begun."
        if p.get("bye"):
            text += f" {name(p['bye'])} has the bye (a win, no spread)."
        return text
    if what == "qualifying_ended":
        return f"The director ended the qualifying after round {p['round']} of {p['total']}."
    if what == "tie_for_cut":
        place = "the last playoff places" if p.get("playoff") else "first place"
        return (f"{', '.join(name(u) for u in users)} are level on every tie-break for {place}: the "
                "director records a cut of the cards to separate them.")
    if what == "playoff_drawn":
        seeded = ", ".join(f"{i}. {name(u)}" for i, u in enumerate(users, start=1))
        return f"Qualifying is over. The playoff, seeded by qualifying rank: {seeded}."
    if what == "finished":
        if p.get("champion"):
            return f"The tournament is over: {name(p['champion'])} is the champion."
        return "The tournament is over."
    if what == "cancelled":
        return "The tournament has been cancelled."
    if what == "paused":
        return ("The director has paused the tournament: nothing new starts until it resumes; games in play "
                "go on.")
    if what == "resumed":
        return "The director has resumed the tournament."
    if what == "game_void":
        return (f"Game {p['game']} ({label}) no longer counts: a result before it was corrected, and the "
                "match starts again.")
    if what == "cut_recorded":
        cards = ", ".join(f"{name(u)} {card or '(cleared)'}" for u, card in p.get("cards") or [])
        return f"The director recorded a cut of the cards: {cards}."
    if what == "forfeited":
        return f"{name(p['user'])} forfeited {label} (round {p['round']})."
    if what == "extended":
        return f"Forfeit time for {label} extended by {p['minutes']} minutes."
    if what == "withdrew":
        return f"{name(p['user'])} has withdrawn."
    if what == "entered":
        return f"{name(p['user'])} was entered by the organiser."
    if what == "removed":
        return f"{name(p['user'])} was removed from the entry list."
    if what == "entered_many":
        source = p.get("source")
        how = f"from {sources.get(source, 'another event')}" if source else "by the director"
        return f"{_plural(len(users), 'player')} entered {how}: {_listed([name(u) for u in users])}."
    if what == "result_entered":
        text = (f"Result {'corrected' if p.get('corrected') else 'entered'} by the director: {label} "
                f"({p['round_name']}): {name(p['winner'])} wins {p['won']}–{p['lost']}.")
        if p.get("champion"):
            text += f" {name(p['champion'])} is now the champion."
        return text
    if what == "results_entered":
        return f"The director entered {_plural(p['count'], 'result')} ({p['rounds']})."
    return None


def word(notices: Iterable[Notice]) -> list[Notice]:
    """``notices``, each worded (``Notice.words``, ``Notice.reason_words``): every name they hold
    looked up at once."""
    notices = list(notices)
    ids = set()
    sources = set()
    for n in notices:
        ids |= user_ids(n.params or {})
        if (n.params or {}).get("source"):
            sources.add(n.params["source"])
    names = names_of(ids) if ids else {}
    tournaments = apps.get_model("tournaments", "Tournament").objects
    titles = dict(tournaments.filter(pk__in=sources).values_list("pk", "name")) if sources else {}

    def name(user_id: int | None) -> str:
        return names.get(user_id, "?") if user_id else "?"

    for n in notices:
        params = n.params or {}
        said = sentence(n.what, params, name, titles) if n.what else None
        reason = with_names(n.reason, params.get("users") or [], name) if n.reason else ""
        n.__dict__["worded"] = (n.text if said is None else said, reason)
    return notices
