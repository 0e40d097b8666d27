"""A player's board: the table as their seat sees it (``board.table``), with what they can do on it.

Views and the websocket consumer both draw it with :func:`render_board` (the template
``play/board/player.jinja``), so a pushed board and a reloaded one are the same HTML.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.urls import NoReverseMatch
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString

from games.engine.actions import CutForDeal, NextDeal
from games.engine.view import SeatView, view
from games.play import components, endings
from games.play.board.links import game_url
from games.play.board.pass_screen import pass_context
from games.play.board.status import presence_context
from games.play.board.table import (
    PHASE_TITLES,
    off_board,
    result_summary,
    seat_names,
    side_names,
    table_context,
    table_of,
    tracks,
    with_entered,
)
from games.play.game_result import final_result
from games.play.models import Game
from games.play.narration import LogLine, log_lines
from games.play.pass_play import pass_to
from games.play.registry import coach_for, correspondence_panel, organiser_of, page_url


def board_context(game: Game, user, *, error: str = "") -> dict:
    from games.play.services import abort_refusal, computer_to_act, load_state

    seat = game.seat_of(user)
    assert seat is not None, "only players get a board"
    if game.status == Game.Status.ABORTED:
        return aborted_context(game, seat, error)
    if game.pass_play is not None and (to := pass_to(game, load_state(game))) is not None:
        return pass_context(game, to, error)  # the device changes hands: no hand is drawn
    calls = game.last_events  # the latest move's note and events, kept on the game by the services
    state = load_state(game)
    v: SeatView = view(state, seat)
    # Passed round one device, the table is everyone's: each seat goes by its name, as at a
    # kitchen table, and no "You" changes meaning when the device changes hands.
    reader = None if game.pass_play is not None else seat
    names = seat_names(game, reader)
    table = table_of(game, names, reader)
    sides = side_names(v, names, reader)
    # Looked up only where it is shown (the result, the full page): a move asks no more of the
    # database than it did.
    organised = SimpleLazyObject(lambda: organiser_of(game)) if game.organised else None
    ending = endings.ending_of(game) if game.status == Game.Status.FINISHED else None
    final = final_result(game) if game.status == Game.Status.FINISHED else None
    result = result_summary(v, table, organised, ending, final)
    deal_log = endings.with_notes(v.log, endings.timeout_notes(game), v.game_no, v.deal_no)
    if ending is not None:
        deal_log = endings.with_claim(deal_log, calls)
    cut_taken = {p: names[s] for s, p in enumerate(v.cut_positions) if p is not None}
    cut_legal = {a.position for a in v.legal_actions if isinstance(a, CutForDeal)}
    return with_entered({
        **table_context(v, names, seat, log=off_board(log_lines(table, deal_log, ending), result),
                        result=result),
        "game": game,
        "tracks": tracks(v, sides, v.side, final),
        "my_score": min(v.my_score, v.target),  # a winner stands in the game hole
        "partner_name": names[v.partner] if v.partner is not None else "",
        # Passed round one device: the hand shown is named, for whoever glances at it.
        "my_name": game.seat_names()[seat] if game.pass_play is not None else "",
        "hints": _hints(game, v),
        "coach": coach_for(game, v, user),
        "record_url": _record_url(game),
        "tab_title": tab_title(v, seat, names),
        "my_turn": v.my_turn and v.phase not in ("game_over", "match_over"),
        "cut_deck": [  # fifty-two places to cut, drawn only while cutting for deal
            {"position": p, "taken_by": cut_taken.get(p), "legal": p in cut_legal} for p in range(52)
        ] if v.phase == "cut" else [],
        # The calls of the latest move, the last few only: a whole show is in the log beside it.
        "calls": (shown := folded(off_board([ln for ln in log_lines(table, calls, ending) if ln.loud][-4:],
                                             result))),
        "quiet_calls": said_by_the_result(shown, result),
        # At your own pace the computer moves from its task, and its moves come as pushes.
        "computer_pending": not game.days_per_move and computer_to_act(game),
        "computer_delay_ms": int(settings.COMPUTER_DELAY_SECONDS * 1000),
        "act_url": game_url("act", game.pk),
        "computer_url": game_url("computer_step", game.pk),
        "tournament": organised,
        # A finished tournament game's board says when the player's next match is ready (asked only
        # where the result is drawn: a move asks nothing of the organiser).
        "next_match_url": SimpleLazyObject(lambda: _next_match_url(organised, user)) if game.organised
        else "",
        # The opponent's waiting rematch offer: asked for only by a finished game's Rematch button.
        "rematch_offered": SimpleLazyObject(lambda: _rematch_offered(game, user)),
        # The rematch already started from this board (by this player or by the other's offer).
        "rematch_game": SimpleLazyObject(lambda: _rematch_in_play(game, user)),
        "rematch_waiting": SimpleLazyObject(lambda: _my_rematch_waiting(game, user)),
        "can_next_deal": any(isinstance(a, NextDeal) for a in v.legal_actions),
        **_waiting(v, names, seat),
        "play_order": _play_order(v, names),
        "online": not game.vs_computer,
        "can_abort": not abort_refusal(game, state),
        "turn_timer": turn_timer_panel(game, v, names),
        "correspondence": correspondence_panel(game, seat, names, user),
        "say_url": game_url("say", game.pk),
        "abort_url": game_url("abort", game.pk),
        # Who else is at the table, redrawn with a board while someone is away: whose turn it is
        # decides who may be claimed against. A game against the computer has nobody to wait for.
        "presence": presence_context(game, user) if not game.vs_computer else None,
        "error": error,
    }, final)


def _next_match_url(organised, user) -> str:
    game_id = organised.next_game_for(user.pk)
    return game_url("game", game_id) if game_id else ""


def folded(lines: list[LogLine]) -> list[LogLine]:
    """The calls with a repeated line said once (a claim and the win it gives can word alike)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for ln in lines:
        if (ln.who, ln.text) not in seen:
            seen.add((ln.who, ln.text))
            out.append(ln)
    return out


def said_by_the_result(lines: list[LogLine], result: dict | None) -> frozenset[str]:
    """The calls the result on the board already says (its headline, its note): read out by the
    live region, but not drawn a second time over the page beside the result and its links."""
    if not result:
        return frozenset()
    said = {result.get("headline", ""), result.get("note", "")} - {""}
    return frozenset(ln.text for ln in lines if ln.text in said or ln.kind in ("game_won", "match_won"))


def aborted_context(game: Game, seat: int, error: str = "") -> dict:
    """A game called off before it got going: who called it off, and nothing to play."""
    from games.play.services import ABORTED_EVENT

    names = seat_names(game, seat)
    by = next((e.get("seat") for e in game.last_events or () if e.get("kind") == ABORTED_EVENT), None)
    return {
        "game": game,
        "me": seat,
        "names": names,
        "aborted_by": "" if by is None else ("You" if by == seat else names[by]),
        "aborted_by_me": by == seat,  # from the seat: a player may be called "You…"
        "tab_title": f"Called off · {_table(names, seat)}",
        "online": False,  # no presence, no chat: there is no one to wait for
        "tournament": None,
        "error": error,
    }


def tab_title(v: SeatView, seat: int, names: list[str]) -> str:
    """The browser tab's title, which says when the player must act: a live game waits in another
    tab while the opponent thinks, and the tab is all the player sees of it."""
    mine = v.my_turn and v.phase not in ("game_over", "match_over")
    phase = PHASE_TITLES.get(v.phase, "")
    return " · ".join(part for part in ("Your move" if mine else "", phase, _table(names, seat)) if part)


def _table(names: list[str], seat: int) -> str:
    """"You v bob": the viewer first, for a tab's title."""
    return " v ".join([names[seat], *(name for i, name in enumerate(names) if i != seat)])


def _rematch_in_play(game: Game, user):
    from games.play.services import rematch_in_play

    return rematch_in_play(game, user)


def _my_rematch_waiting(game: Game, user) -> bool:
    from games.play.services import rematch_offer, table_rematch_waiting

    if game.players > 2:
        waiting = table_rematch_waiting(game)
        return waiting is not None and waiting.seat_of(user) is not None
    return not game.vs_computer and rematch_offer(game, by=user) is not None


def _rematch_offered(game: Game, user) -> bool:
    from games.play.services import rematch_offer, table_rematch_waiting

    if game.players > 2:
        waiting = table_rematch_waiting(game)
        return waiting is not None and waiting.seat_of(user) is None
    others = [s.user_id for s in game.seat_list() if s.user_id and s.user_id != user.pk]
    return len(others) == 1 and rematch_offer(game, by=others[0]) is not None


def _waiting(v: SeatView, names: list[str], seat: int) -> dict:
    """Where every seat acts at once (laying away, "Next hand"), who the table still waits for, and
    who is already ready for the next hand: a player who pressed it is not left guessing."""
    if not isinstance(v.turn, tuple):
        return {"waiting_for": "", "ready_names": "", "ready_count": 0}
    ready = [names[s] for s in range(v.players) if v.phase == "show" and v.acks[s] and s != seat]
    return {"waiting_for": _and([names[s] for s in v.turn if s != seat]),
            "ready_names": _and(ready), "ready_count": len(ready)}


def _and(names: list[str]) -> str:
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _play_order(v: SeatView, names: list[str]) -> list[str]:
    """Who leads and who follows, clockwise from the dealer's left (tables of three and four)."""
    if v.players == 2 or v.dealer is None:
        return []
    return [names[(v.dealer + k) % v.players] for k in range(1, v.players + 1)]


def turn_timer_panel(game: Game, v, names: list[str]) -> dict | None:
    """The turn timer: who is on the clock and how long they have left."""
    if not game.turn_timer or game.status != Game.Status.ACTIVE or v.phase in ("game_over", "match_over"):
        return None
    due = (v.turn,) if isinstance(v.turn, int) else tuple(v.turn or ())
    humans = [s.index for s in game.seat_list() if not s.is_computer and s.index in due]
    if not humans or game.turn_started_at is None:
        return None
    deadline = game.turn_started_at + timedelta(seconds=game.turn_timer)
    remaining = max(0.0, (deadline - timezone.now()).total_seconds())
    return {
        "who": " and ".join(names[i] for i in humans),
        "mine": getattr(v, "seat", None) in humans,
        "deadline": deadline.isoformat(),
        "remaining_s": int(remaining),
        "remaining_ms": int(remaining * 1000) + 250,  # ask a moment after the deadline, not before
        "url": game_url("timeout", game.pk),
        # Each player's strikes, once anyone has one: the last allowed timeout forfeits the game.
        "strikes": [f"{names[s.index]} {s.timeouts} of {settings.TIMEOUTS_TO_FORFEIT}"
                    for s in game.seat_list() if not s.is_computer]
        if any(s.timeouts for s in game.seat_list()) else [],
    }


def _hints(game: Game, v: SeatView):
    """The discard table, where the house rules allow hints and this seat has still to lay away."""
    if not game.hints or v.phase != "discard" or v.discarded[v.seat] or game.rated or v.players != 2:
        return None  # hints are a house rule of two-player games
    return expert_discards(v)


def expert_discards(v: SeatView) -> list[dict]:
    """Every way for this seat to lay away, ranked as the expert computer ranks the splits, so the
    first row is what the expert would lay away: with two players each split's chance to win at
    today's score beside its points, best chance first; where the expert does not weigh chances,
    the points table with its choice first. The hint table and a lesson's advice both read it."""
    from games.engine.players import choose_action, discard_table
    from games.engine.players.choose import discard_ranking

    chances = discard_ranking(v)
    if chances is None:
        # The expert's lay-away here uses no randomness; the seeded generator only satisfies the call.
        laid = frozenset(choose_action(v, "expert", random.Random(0)).cards)
        table = sorted(discard_table(v.hand, is_dealer=v.dealer == v.seat),
                       key=lambda o: frozenset(o.laid_away) != laid)
        return [{"option": o, "win": None, "lost": ""} for o in table]
    best = chances[0].win
    return [{"option": c.option, "win": f"{c.win:.0%}",
             "lost": "" if best - c.win < 0.0005 else f"−{(best - c.win) * 100:.1f}%"} for c in chances]


def _record_url(game: Game) -> str:
    if game.status != Game.Status.FINISHED:
        return ""
    try:
        return page_url("record", game.pk)
    except NoReverseMatch:
        return ""


def render_board(game: Game, user, *, error: str = "", oob: bool = False, csrf_token: str = "") -> str:
    context = board_context(game, user, error=error)
    context.update(oob=oob, csrf_token=csrf_token)
    return board_html(context)


def board_html(context: dict, request=None) -> SafeString:
    """The ``#board`` element for ``context`` (``board_context``'s): the page prints it, an htmx
    answer and a push are it. A request's board (``request``) takes its CSRF token from the
    request, and an htmx answer ends with the latest calls swapped in out of band, as a push does
    (``oob``)."""
    token = get_token(request) if request is not None else context.get("csrf_token", "")
    values = {**context, "csrf_token": token, "htmx": request is not None and bool(request.htmx)}
    template = ("play/board/aborted.jinja" if "aborted_by" in context
                else "play/board/pass.jinja" if "pass_to" in context else "play/board/player.jinja")
    return components.board(template, values)


def board_answer(board: SafeString, game: Game, *, status: int = 200) -> HttpResponse:
    """An htmx request's board, with the version it draws in the Board-Version header: the page
    (static/js/board.js) refuses an answer older than the board it shows without parsing it."""
    response = HttpResponse(board, status=status)
    response["Board-Version"] = str(game.version)
    return response


def announce_html(calls: list[LogLine]) -> SafeString:
    """The latest move's calls, for the page's status line (the board carries them afterwards)."""
    return components.render("play/parts/announce.jinja", {"calls": calls, "swap_oob": False})


def render_board_oob(game_id: int, user, csrf_token: str = "") -> str | None:
    """The board for a websocket push (``hx-swap-oob``), or None if the user no longer has a seat."""
    game = Game.objects.for_player(game_id, user)
    if game is None or game.state is None:
        return None
    return render_board(game, user, oob=True, csrf_token=csrf_token)
