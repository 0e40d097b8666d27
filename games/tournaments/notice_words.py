"""A notice of the tournament's log in words, worded when it is shown.

A notice is stored as data (``Notice.what_happened`` and ``Notice.details``: ids of users, a game, a
few numbers), never as a sentence with a name in it, so a player's name is looked up each time it is
shown: an account deleted since reads as "a deleted player" (``games.play.names.public_name``)
without anything rewritten. ``{1}`` and ``{2}`` in a reason name the first and the second of the
notice's ``users`` (a match's two players), as they do in a match's note (``Match.note_text``).
The director's own words (an announcement, a reason) are kept as written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from games.play.names import public_name
from games.tournaments.models import Notice, Tournament

USER_KEYS = ("user", "champion", "winner", "bye")
USERS_KEYS = ("users",)
SHOWN = 12  # names listed in one notice, "and 3 more" after them


@dataclass(frozen=True)
class WordedNotice:
    """A notice as a page shows it: its sentence and its reason, with today's names put in."""

    notice: Notice
    words: str
    reason_words: str

    @property
    def created_at(self):
        return self.notice.created_at

    @property
    def kind(self) -> str:
        return self.notice.kind


def user_ids(details: dict) -> set[int]:
    """The users a notice's details name (by id)."""
    found = {details[k] for k in USER_KEYS if details.get(k)}
    for key in USERS_KEYS:
        found.update(u for u in details.get(key) or () if u)
    found.update(u for u, _ in details.get("cards") or () if u)
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


def sentence(
    what_happened: str, details: dict, name: Callable[[int | None], str], sources: dict[int, str]
) -> str | None:
    """What happened, with its ``details``, in words (``name``: a user's name by id; ``sources``: the
    names of the events entrants were taken from); None for what has no words (a notice shown as its
    text)."""
    users = details.get("users") or []
    label = " v ".join(name(u) if u else "?" for u in users[:2]) if users else ""
    if what_happened == "started":
        return f"The tournament has started with {details['players']} players."
    if what_happened == "round_opened":
        if details.get("of"):
            text = f"Qualifying round {details['round']} of {details['of']} has begun."
        else:
            text = f"Round {details['round']} has begun."
        if details.get("bye"):
            text += f" {name(details['bye'])} has the bye (a win, no spread)."
        return text
    if what_happened == "qualifying_ended":
        return f"The director ended the qualifying after round {details['round']} of {details['total']}."
    if what_happened == "tie_for_cut":
        place = "the last playoff places" if details.get("playoff") else "first place"
        return (f"{', '.join(name(u) for u in users)} are level on every tie-break for {place}: the "
                "director records a cut of the cards to separate them.")
    if what_happened == "playoff_drawn":
        seeded = ", ".join(f"{i}. {name(u)}" for i, u in enumerate(users, start=1))
        return f"Qualifying is over. The playoff, seeded by qualifying rank: {seeded}."
    if what_happened == "finished":
        if details.get("champion"):
            return f"The tournament is over: {name(details['champion'])} is the champion."
        return "The tournament is over."
    if what_happened == "cancelled":
        return "The tournament has been cancelled."
    if what_happened == "paused":
        return ("The director has paused the tournament: nothing new starts until it resumes; games in play "
                "go on.")
    if what_happened == "resumed":
        return "The director has resumed the tournament."
    if what_happened == "game_void":
        return (f"Game {details['game']} ({label}) no longer counts: a result before it was corrected, "
                "and the match starts again.")
    if what_happened == "cut_recorded":
        cards = ", ".join(f"{name(u)} {card or '(cleared)'}" for u, card in details.get("cards") or [])
        return f"The director recorded a cut of the cards: {cards}."
    if what_happened == "forfeited":
        return f"{name(details['user'])} forfeited {label} (round {details['round']})."
    if what_happened == "extended":
        return f"Forfeit time for {label} extended by {details['minutes']} minutes."
    if what_happened == "withdrew":
        return f"{name(details['user'])} has withdrawn."
    if what_happened == "entered":
        return f"{name(details['user'])} was entered by the organiser."
    if what_happened == "removed":
        return f"{name(details['user'])} was removed from the entry list."
    if what_happened == "entered_many":
        source = details.get("source")
        how = f"from {sources.get(source, 'another event')}" if source else "by the director"
        return f"{_plural(len(users), 'player')} entered {how}: {_listed([name(u) for u in users])}."
    if what_happened == "result_entered":
        text = (f"Result {'corrected' if details.get('corrected') else 'entered'} by the director: {label} "
                f"({details['round_name']}): {name(details['winner'])} wins "
                f"{details['won']}–{details['lost']}.")
        if details.get("champion"):
            text += f" {name(details['champion'])} is now the champion."
        return text
    if what_happened == "results_entered":
        return f"The director entered {_plural(details['count'], 'result')} ({details['rounds']})."
    return None


def in_words(notices: Iterable[Notice]) -> list[WordedNotice]:
    """``notices`` in words, in their order: every name they hold looked up at once."""
    notices = list(notices)
    ids = set()
    sources = set()
    for n in notices:
        ids |= user_ids(n.details or {})
        if (n.details or {}).get("source"):
            sources.add(n.details["source"])
    names = names_of(ids) if ids else {}
    titles = dict(Tournament.objects.filter(pk__in=sources).values_list("pk", "name")) if sources else {}

    def name(user_id: int | None) -> str:
        return names.get(user_id, "?") if user_id else "?"

    worded = []
    for n in notices:
        details = n.details or {}
        said = sentence(n.what_happened, details, name, titles) if n.what_happened else None
        reason = with_names(n.reason, details.get("users") or [], name) if n.reason else ""
        worded.append(WordedNotice(n, n.text if said is None else said, reason))
    return worded
