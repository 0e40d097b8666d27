"""The board page's status line: who else is at the table (and the claim of a win when a player has
been away on their turn too long), and the quick messages players send."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone

from games.play import components, presence
from games.play.board.links import game_url
from games.play.board.table import seat_names
from games.play.chat import MESSAGES
from games.play.jinja import morph_key
from games.play.models import Game
from games.play.narration import and_list


def presence_context(game: Game, user) -> dict:
    """Each other player at the table or away, and when the page should ask again: when a present
    player would count as gone without another heartbeat, or when a claim becomes possible."""
    from games.play.services import load_state

    seat = game.seat_of(user)
    state = load_state(game) if game.state else None
    due = state.to_act if state is not None and state.phase not in ("game_over", "match_over") else ()
    others = presence.table(game, seat, due) if game.status == Game.Status.ACTIVE else []
    now = timezone.now()
    moments = [p.seen_until for p in others if p.seen_until] + [
        p.claim_at for p in others if p.claim_at and not p.can_claim]
    wait = min(((m - now).total_seconds() for m in moments), default=0)
    here = [p.name for p in others if p.here]
    gone = [p for p in others if not p.here]
    # At your own pace being away is how the game is played: one plain line, no warning.
    paced = [p.name for p in gone] if game.days_per_move else []
    # Those who never came and cannot be claimed against yet share a line.
    unseen = [] if paced else [p for p in gone if not p.arrived and p.claim_at is None]
    return {
        "game": game,
        "here_line": f"{and_list(here)} {'is' if len(here) == 1 else 'are'} at the table" if here else "",
        "paced_line": f"{and_list(paced)} {'is' if len(paced) == 1 else 'are'} not at the table just now"
        if paced else "",
        "unseen_line": f"{and_list([p.name for p in unseen])} {'has' if len(unseen) == 1 else 'have'} "
                       "not opened the game yet" if unseen else "",
        "away": [] if paced else [p for p in gone if p not in unseen],
        "claim_url": game_url("claim_win", game.pk),
        "presence_url": game_url("presence", game.pk),
        "recheck_ms": int(max(wait, 0) * 1000) + 500 if moments else 0,
        "absence_minutes": max(1, presence.absence_limit() // 60),
    }


def render_presence(game_id: int, user, *, oob: bool = False, csrf_token: str = "") -> str | None:
    game = Game.objects.for_player(game_id, user)
    if game is None or game.vs_computer:  # a game against the computer has no #presence to update
        return None
    context = {**presence_context(game, user), "oob": oob, "csrf_token": csrf_token}
    return morph_key(components.render("play/_presence.jinja", context))


def render_chat(game_id: int, user, seat: int, message: str) -> str | None:
    game = Game.objects.for_player(game_id, user)
    if game is None or message not in MESSAGES:
        return None
    names = seat_names(game, game.seat_of(user))
    return render_to_string(
        "play/_chat_line.html", {"who": names[seat] if seat < len(names) else "", "text": MESSAGES[message]}
    )
