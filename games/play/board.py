"""The board as one viewer sees it: a template context built only from the engine's ``view``.

Views and the websocket consumer both draw the board with ``board_html`` (Jinja2,
``games/play/jinja2/play/board.jinja``), so a pushed board and a reloaded one are the same HTML.
"""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.template import engines
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, get_script_prefix, reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe

from games.engine.actions import CutForDeal, NextDeal
from games.engine.view import SeatView, view
from games.infra import csrf
from games.play import endings, narration
from games.play.chat import MESSAGES
from games.play.hooks import organiser_of
from games.play.models import Game
from games.play.narration import LogLine, Table, log_lines, reworded, win_phrase

TRACK_COLORS = ("red", "blue", "green")
PHASE_TITLES = {
    "cut": "Cut for deal",
    "discard": "Lay away to the crib",
    "play": "The play",
    "show": "The show",
    "game_over": "Game over",
    "match_over": "Game over",
}


def seat_names(game: Game, viewer_seat: int | None) -> list[str]:
    return ["You" if i == viewer_seat else name for i, name in enumerate(game.seat_names())]


def table_of(game: Game, names: list[str], viewer: int | None) -> Table:
    """Who sits where for one reader of ``game``'s events (``games.play.narration``)."""
    return Table(tuple(names), viewer, game.target, game.peg_out_zone)


@lru_cache(maxsize=4096)
def _game_url(prefix: str, name: str, game_id: int) -> str:
    return reverse(name, args=[game_id])


def game_url(name: str, game_id: int) -> str:
    """``reverse(name, args=[game_id])``, remembered: a board names five of its game's URLs and
    reversing them was half of building its context. Keyed by the script prefix, as reverse is."""
    return _game_url(get_script_prefix(), name, game_id)


def board_context(game: Game, user, *, error: str = "") -> dict:
    seat = game.seat_of(user)
    assert seat is not None, "only players get a board"
    if game.status == Game.Status.ABORTED:
        return aborted_context(game, seat, error)
    calls = game.last_events  # the latest move's note and events, kept on the game by the services
    state = _state(game)
    state_view: SeatView = view(state, seat)
    names = seat_names(game, seat)
    table = table_of(game, names, seat)
    n = state_view.players
    opponents = [i for i in range(n) if i != seat]
    sides = side_names(state_view, names)
    my_side = state_view.side
    tracks = [
        {
            "label": sides[side],
            "front": state_view.scores[side],
            "back": state_view.back_pegs[side],
            "color": TRACK_COLORS[k % len(TRACK_COLORS)],
        }
        for k, side in enumerate([my_side, *(s for s in range(state_view.sides) if s != my_side)])
    ]
    cut_taken = {p: names[s] for s, p in enumerate(state_view.cut_positions) if p is not None}
    cut_legal = {a.position for a in state_view.legal_actions if isinstance(a, CutForDeal)}
    from games.play.services import abort_refusal, computer_to_act

    tournament = None if game.vs_computer else SimpleLazyObject(lambda: organiser_of(game))
    ending = endings.ending_of(game) if game.status == Game.Status.FINISHED else None
    result = result_summary(state_view, sides, my_side, tournament, ending)
    deal_log = endings.with_notes(state_view.log, endings.timeout_notes(game), state_view.game_no,
                                  state_view.deal_no)
    if ending is not None:
        deal_log = endings.with_claim(deal_log, calls)
    return {
        "game": game,
        "v": state_view,
        "me": seat,
        "names": names,
        "opponents": [
            {
                "seat": i,
                "name": names[i],
                "score": state_view.scores[state_view.side_of(i)],
                "partner": i == state_view.partner,
                "count": state_view.hand_sizes[i],
                "cards": range(state_view.hand_sizes[i]),
                "shown": next((h.cards for h in state_view.show if h.seat == i and h.kind == "hand"), ()),
            }
            for i in opponents
        ],
        "my_score": state_view.my_score,
        "partner_name": names[state_view.partner] if state_view.partner is not None else "",
        "crib_backs": range(state_view.crib_size),
        "hints": _hints(game, state_view),
        "record_url": _record_url(game),
        "tracks": tracks,
        "phase_title": PHASE_TITLES.get(state_view.phase, ""),
        "tab_title": tab_title(state_view, seat, names),
        "cut_deck": [  # fifty-two places to cut, drawn only while cutting for deal
            {"position": p, "taken_by": cut_taken.get(p), "legal": p in cut_legal} for p in range(52)
        ] if state_view.phase == "cut" else [],
        "cut_cards": [
            {"name": names[s], "card": c} for s, c in enumerate(state_view.cut_cards) if c is not None
        ],
        "log": off_board(log_lines(table, deal_log, ending), result),
        # The calls of the latest move, the last few only: a whole show is in the log beside it.
        "calls": off_board([ln for ln in log_lines(table, calls, ending) if ln.loud][-4:], result),
        "show": [
            {"entry": h, "owner": names[h.seat], "mine": h.seat == seat} for h in state_view.show
        ],
        "series": [{"name": names[s], "card": c, "mine": s == seat} for s, c in state_view.series],
        "previous_plays": [
            {"name": names[s], "card": c, "mine": s == seat}
            for s, c in state_view.plays[: len(state_view.plays) - len(state_view.series)]
        ],
        "crib_owner_name": names[state_view.crib_owner] if state_view.crib_owner is not None else "",
        "dealer_name": names[state_view.dealer] if state_view.dealer is not None else "",
        "turn_name": names[state_view.turn] if isinstance(state_view.turn, int) else "",
        "turn_word": turn_word(state_view),
        "computer_pending": computer_to_act(game),
        "computer_delay_ms": int(settings.COMPUTER_DELAY_SECONDS * 1000),
        "act_url": game_url("act", game.pk),
        "computer_url": game_url("computer_step", game.pk),
        "result": result,
        # Looked up only where it is shown: the result (at a game's end) and the full page, so a
        # move and a push ask no more of the database than they did.
        "tournament": tournament,
        # The opponent's waiting rematch offer: asked for only by a finished game's Rematch button.
        "rematch_offered": SimpleLazyObject(lambda: _rematch_offered(game, user)),
        # The rematch already started from this board (by this player or by the other's offer).
        "rematch_game": SimpleLazyObject(lambda: _rematch_in_play(game, user)),
        "rematch_waiting": SimpleLazyObject(lambda: _my_rematch_waiting(game, user)),
        "can_next_deal": any(isinstance(a, NextDeal) for a in state_view.legal_actions),
        "play_order": _play_order(state_view, names),
        "online": not game.vs_computer,
        "can_abort": not abort_refusal(game, state),
        "clock": turn_clock(game, state_view, names),
        "say_url": game_url("say", game.pk),
        "abort_url": game_url("abort", game.pk),
        # Only the full page shows presence (the pushed board partial does not): a query per seat
        # that a push would pay for nothing.
        "presence": SimpleLazyObject(lambda: presence_context(game, user)) if not game.vs_computer else None,
        "error": error,
    }


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
        "tab_title": f"Called off · {_table(names, seat)}",
        "online": False,  # no presence, no chat: there is no one to wait for
        "tournament": None,
        "error": error,
    }


def turn_word(v: SeatView) -> str:
    """What the seat on turn is doing, for its badge: in the show it counts, or answers a count."""
    if v.phase != "show":
        return "to play"
    return "to answer" if any(h.status == "muggins" for h in v.show) else "to count"


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
    from games.play.services import rematch_offer

    return not game.vs_computer and rematch_offer(game, by=user) is not None


def _rematch_offered(game: Game, user) -> bool:
    from games.play.services import rematch_offer

    others = [s.user_id for s in game.seat_list() if s.user_id and s.user_id != user.pk]
    return len(others) == 1 and rematch_offer(game, by=others[0]) is not None


def _play_order(v: SeatView, names: list[str]) -> list[str]:
    """Who leads and who follows, clockwise from the dealer's left (tables of three and four)."""
    if v.players == 2 or v.dealer is None:
        return []
    return [names[(v.dealer + k) % v.players] for k in range(1, v.players + 1)]


def turn_clock(game: Game, v: SeatView, names: list[str]) -> dict | None:
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
        "mine": v.seat in humans,
        "deadline": deadline.isoformat(),
        "remaining_s": int(remaining),
        "remaining_ms": int(remaining * 1000) + 250,  # ask a moment after the deadline, not before
        "url": game_url("timeout", game.pk),
        "timeouts": {s.index: s.timeouts for s in game.seat_list()},
        # Each player's strikes, once anyone has one: the last allowed timeout forfeits the game.
        "strikes": [f"{names[s.index]} {s.timeouts} of {settings.TIMEOUTS_TO_FORFEIT}"
                    for s in game.seat_list() if not s.is_computer]
        if any(s.timeouts for s in game.seat_list()) else [],
    }


def _hints(game: Game, v: SeatView):
    """The discard table, where the house rules allow hints and this seat has still to lay away."""
    if not game.hints or v.phase != "discard" or v.discarded[v.seat] or game.rated:
        return None
    from games.engine.players import discard_table

    return discard_table(v.hand, is_dealer=v.dealer == v.seat)


def _record_url(game: Game) -> str:
    if game.status != Game.Status.FINISHED:
        return ""
    try:
        return reverse("game_record", args=[game.pk])
    except NoReverseMatch:
        return ""


def _state(game: Game):
    from games.play.services import load_state

    return load_state(game)


def side_names(v: SeatView, names: list[str]) -> list[str]:
    """One name per side: the player, or "You & Carol" for a partnership."""
    return narration.side_names(Table(tuple(names), v.seat))


def result_summary(
    v: SeatView, sides: list[str], viewer_side: int | None, tournament=None, ending: dict | None = None,
) -> dict | None:
    """The game's result in words for a viewer on ``viewer_side`` (None: a spectator).

    ``tournament``: who organised the game (``games.play.hooks.organiser_of``), a tournament whose
    match may have been decided off the board (a forfeit ends the game by a resignation made on the
    absent player's behalf): then the headline says so, and ``note`` says why. ``ending``: why the
    site ended the game (``games.play.endings``)."""
    if v.result is None:
        return None
    r = v.result
    winner = sides[r.winner]
    mine = r.winner == viewer_side
    verb = "win" if mine or "&" in winner else "wins"
    words = win_phrase(sides, r.winner, r.scores, r.reason, verb_word=verb, ending=ending)
    decided = tournament.ending(v.match_winner, r.reason == "resign") if tournament else None
    off = decided is not None and bool(decided.how)
    if off:
        words = f"{verb} {decided.how}"
    return {
        "off_board": off,
        "winner": winner,
        "i_won": mine,
        "headline": f"{winner} {words}" + (f" with a {r.skunk_name}" if r.skunk else ""),
        "note": decided.note if decided is not None else "",
        "tournament": tournament,
        "scores": " – ".join(f"{sides[i]} {s}" for i, s in enumerate(r.scores)),
        "skunk": r.skunk_name,
        # A house rule that changed the result is worth a word where the skunk would have been.
        "skunks_off": not v.rules.skunks and r.reason == "target" and r.loser_score < v.rules.skunk_line,
        "skunked": narration.skunked(sides, r.skunks) if len(sides) > 2 else "",
        "match_over": v.phase == "match_over",
        "match": v.rules.match_games > 1,
        "match_scores": " – ".join(f"{sides[i]} {s}" for i, s in enumerate(v.match_scores)),
        "match_winner": sides[v.match_winner] if v.match_winner is not None else "",
        "i_won_match": v.match_winner is not None and v.match_winner == viewer_side,
    }


def off_board(lines: list[LogLine], result: dict | None) -> list[LogLine]:
    """The log of a game whose match was decided off the board: the resignation made on the loser's
    behalf reads as what it stood for, and the win as the headline does."""
    if not result or not result["off_board"]:
        return lines
    return reworded(lines, {"resign": result["note"], "game_won": result["headline"]})


def render_board(game: Game, user, *, error: str = "", oob: bool = False, csrf_token: str = "") -> str:
    context = board_context(game, user, error=error)
    context.update(oob=oob, csrf_token=csrf_token)
    return board_html(context)


def board_html(context: dict, request=None) -> SafeString:
    """The ``#board`` element for ``context`` (``board_context``'s), drawn by Jinja2
    (``games/play/jinja2/play/board.jinja``): the page prints it, an htmx answer and a push are it.

    A request's board (``request``) takes its CSRF token from the request, and an htmx answer
    ends with the latest calls swapped in out of band, as a push does (``oob``)."""
    token = csrf.for_request(request) if request is not None else context.get("csrf_token", "")
    # Django's own {% csrf_token %} node, drawn once for the board's ten forms (each drawing it was
    # an eighth of the board's template time in Django's engine).
    values = {
        **context,
        "csrf_field": CsrfTokenNode().render({"csrf_token": token}),
        "htmx": request is not None and bool(request.htmx),
    }
    template = "play/board_aborted.jinja" if "aborted_by" in context else "play/board.jinja"
    return mark_safe(jinja_template(template).render(values))


def announce_html(calls: list[LogLine]) -> SafeString:
    """The latest move's calls, for the page's status line (the board carries them afterwards)."""
    return mark_safe(jinja_template("play/_announce.jinja").module.announce(calls, False))


def jinja_template(name: str):
    return engines["jinja2"].env.get_template(name)


def _players_game(game_id: int, user) -> Game | None:
    """The game with its seats, if ``user`` holds one of them (sockets render only for players)."""
    game = Game.objects.for_play(game_id)
    return game if game is not None and game.seat_of(user) is not None else None


def render_board_oob(game_id: int, user, csrf_token: str = "") -> str | None:
    """The board for a websocket push (``hx-swap-oob``), or None if the user no longer has a seat."""
    game = _players_game(game_id, user)
    if game is None or game.state is None:
        return None
    return render_board(game, user, oob=True, csrf_token=csrf_token)


def game_row(game: Game, user, organised=None) -> dict:
    """One line of a "my games" list: opponent, score, and whose turn or the result (``organised``:
    the event the game belongs to, from ``games.play.hooks.organised``)."""
    seat = game.seat_of(user)
    names = seat_names(game, seat)
    opponent = ", ".join(n for i, n in enumerate(names) if i != seat) or "—"
    if game.state is None:
        return {"game": game, "opponent": opponent, "score": "", "status": game.get_status_display()}
    row = {"game": game, "opponent": opponent, "organised": organised}
    v = view(_state(game), seat)
    score = f"{v.my_score}–" + "–".join(str(s) for i, s in enumerate(v.scores) if i != v.side)
    if game.status == Game.Status.FINISHED:
        status = "Won" if v.match_winner == v.side else "Lost"
        row["resigned"] = bool(v.results) and v.results[-1].reason == "resign"  # the list says how
    elif game.status == Game.Status.ABORTED:
        status = "Aborted"
    elif v.my_turn:
        status = "Your turn"
    else:
        status = "Waiting for " + ", ".join(n for i, n in enumerate(names) if i != seat)
    # Rows of the same opponent tell apart by their terms, the match so far and when each moved.
    details = [" · ".join(game.rules_summary())]
    if v.rules.match_games > 1:
        others = (str(s) for i, s in enumerate(v.match_scores) if i != v.side)
        details.append(f"games {v.match_scores[v.side]}–" + "–".join(others))
    return {**row, "score": score, "status": status, "details": details, "moved_at": game.updated_at}


def presence_context(game: Game, user) -> dict:
    from games.play import presence
    from games.play.services import load_state

    seat = game.seat_of(user)
    state = load_state(game) if game.state else None
    due = state.to_act if state is not None and state.phase not in ("game_over", "match_over") else ()
    others = presence.table(game, seat, due) if game.status == Game.Status.ACTIVE else []
    wait = min((p.claim_in for p in others if p.claim_in), default=0)
    return {
        "game": game,
        "others": others,
        "claim_url": reverse("claim_win", args=[game.pk]),
        "presence_url": reverse("presence", args=[game.pk]),
        "recheck_ms": wait * 1000,
        "absence_minutes": max(1, presence.absence_limit() // 60),
    }


def render_presence(game_id: int, user, *, oob: bool = False, csrf_token: str = "") -> str | None:
    game = _players_game(game_id, user)
    if game is None or game.vs_computer:  # a game against the computer has no #presence to update
        return None
    context = {**presence_context(game, user), "oob": oob, "csrf_token": csrf_token}
    return render_to_string("play/_presence.html", context)


def render_chat(game_id: int, user, seat: int, message: str) -> str | None:
    game = _players_game(game_id, user)
    if game is None or message not in MESSAGES:
        return None
    names = seat_names(game, game.seat_of(user))
    return render_to_string(
        "play/_chat_line.html", {"who": names[seat] if seat < len(names) else "", "text": MESSAGES[message]}
    )
