"""What a table shows, as one reader sees it: the context every board is drawn from.

A player's board (``board.player``), a spectator's (``tournaments.watch``) and a replayed step
(``history.replay_board``) are the same table for different readers: the engine's view of it (a
seat's :class:`~games.engine.view.SeatView` or the table's own
:class:`~games.engine.view.TableView`), the names by seat ("You" for the reader's own) and, for a
game that is over, the hands laid open. ``table_context`` turns that into what the templates under
``play/parts/`` draw, so a seat, a pile, a counted hand or the log is drawn the same way on each.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.safestring import SafeString

from games.engine.cards import Card
from games.engine.events import Event
from games.engine.state import SKUNK_NAMES
from games.engine.view import TableView
from games.play import components, narration
from games.play.game_result import ENTERED
from games.play.narration import (
    ENTERED_MARK,
    LogLine,
    Seating,
    line,
    match_line,
    on_board,
    result_line,
    reworded,
)

TRACK_COLORS = ("red", "blue", "green")
PHASE_TITLES = {
    "cut": "Cut for deal",
    "discard": "Lay away to the crib",
    "starter": "Cut the pack",
    "play": "The play",
    "show": "The show",
    "game_over": "Game over",
    "match_over": "Game over",
}


def seat_names(game, viewer_seat: int | None) -> list[str]:
    """Each seat's name, the reader's own as "You"."""
    return ["You" if i == viewer_seat else name for i, name in enumerate(game.seat_names())]


def table_of(game, names: list[str], viewer: int | None) -> Seating:
    """Who sits where for one reader of ``game``'s events (``games.play.narration``)."""
    return Seating(tuple(names), viewer, game.target, game.peg_out_zone)


def side_names(v: TableView, names: list[str], viewer: int | None = None) -> list[str]:
    """One name per side: the player, or "You & carol" for a partnership."""
    return narration.side_names(Seating(tuple(names), viewer))


def turn_word(v: TableView) -> str:
    """What the seat on turn is doing, for its badge: it cuts the pack, plays, counts in the show
    or answers a count."""
    if v.phase == "starter":
        return "to cut"
    if v.phase != "show":
        return "to play"
    return "to answer" if any(h.status == "muggins" for h in v.show) else "to count"


def tracks(v: TableView, sides: list[str], first: int | None = None, final: dict | None = None) -> list[dict]:
    """One peg track per side, the reader's (``first``) nearest; a winner stands in the game hole.
    ``final``: a result the director entered puts the pegs at its last game's scores."""
    order = list(range(v.sides)) if first is None else [first, *(s for s in range(v.sides) if s != first)]
    entered = entered_scores(v, final)
    front, back = entered or v.scores, entered or v.back_pegs
    return [
        {"label": sides[side], "front": min(front[side], v.target),
         "back": min(back[side], v.target), "color": TRACK_COLORS[k % len(TRACK_COLORS)]}
        for k, side in enumerate(order)
    ]


def entered_scores(v: TableView, final: dict | None) -> tuple[int, ...] | None:
    """The last game's scores of a result the director entered, at the game hole (None: none given)."""
    if not final or not final.get("entered") or not final["games"]:
        return None
    return on_board(final["scores"], v.target)


def with_entered(context: dict, final: dict | None) -> dict:
    """A table whose result the director entered shows it: each seat's score at the last game's
    entered score, and the header's match at the games entered."""
    if not final or not final.get("entered"):
        return context
    v = context["v"]
    scores = entered_scores(v, final)
    if scores is not None:
        context["seats"] = [{**seat, "score": scores[seat["side"]]} for seat in context["seats"]]
        if "my_score" in context:
            context["my_score"] = scores[v.side_of(context["me"])]
    context["match_shown"] = final["match_scores"]
    return context


def result_summary(
    v: TableView, table: Seating, organised=None, ending: dict | None = None, final: dict | None = None,
) -> dict | None:
    """The game's result in words for ``table``'s reader (its ``viewer``: None for a spectator).

    ``organised``: who organised the game (``games.play.registry``), whose match may have been decided
    off the board (a forfeit ends the game by a resignation made on the absent player's behalf): then
    the headline says so, and ``note`` says why. ``ending``: why the site ended the game
    (``games.play.endings``). ``final``: the game's result as every screen shows it
    (``games.play.game_result``): one the director entered stands in place of the board's."""
    if v.result is None:
        return None
    sides = narration.side_names(table)
    viewer_side = v.side_of(table.viewer) if table.viewer is not None else None
    entered = bool(final and final.get("entered"))
    decided = organised.ending(v.match_winner, v.result.reason == "resign") if organised else None
    if entered:
        last = final["games"][-1] if final["games"] else None
        winner, match_winner, match_scores = final["winner"], final["winner"], final["match_scores"]
        scores = on_board(last["scores"], v.target) if last else ()
        skunks, skunk = (last["skunks"], last["skunk"]) if last else ((), 0)
        words = result_line(table, winner, scores, ENTERED, skunks=skunks, entered=True)
        skunks_off = False
    else:
        r = v.result
        winner, match_winner, match_scores = r.winner, v.match_winner, v.match_scores
        scores, skunks, skunk = on_board(r.scores, v.target), r.skunks, r.skunk
        how = decided.how if decided is not None else ""
        words = result_line(table, winner, scores, r.reason, skunks=skunks, ending=ending, how=how)
        # A house rule that changed the result is worth a word where the skunk would have been.
        skunks_off = not v.rules.skunks and r.reason == "target" and r.loser_score < v.rules.skunk_line
    return {
        # Decided off the board: the log's resignation and win read as the result does.
        "off_board": entered or (decided is not None and bool(decided.how)),
        "entered": entered,
        "winner": sides[winner],
        "i_won": winner == viewer_side,
        "headline": str(words),
        "note": decided.note if decided is not None else "",
        "tournament": organised,
        "scores": " – ".join(f"{sides[i]} {s}" for i, s in enumerate(scores)),
        "skunk": SKUNK_NAMES[skunk],
        "skunks_off": skunks_off,
        "skunked": narration.skunked(table, skunks) if len(sides) > 2 else "",
        "match_over": v.phase == "match_over",
        "match": v.rules.match_games > 1,
        "match_scores": " – ".join(f"{sides[i]} {s}" for i, s in enumerate(match_scores)),
        "match_winner": sides[match_winner] if match_winner is not None else "",
        "match_line": match_line(table, match_winner, match_scores, entered=entered)
        if match_winner is not None else "",
        "match_won": _match_won(table, match_winner) if match_winner is not None else "",
        "i_won_match": match_winner is not None and match_winner == viewer_side,
    }


def _match_won(table: Seating, side: int) -> str:
    """"You win the match", "bob wins the match"."""
    who = narration.side_who(table, side, start=True)
    return f"{who} {narration.verb(who, 'wins')} the match"


def off_board(lines: list[LogLine], result: dict | None) -> list[LogLine]:
    """The log of a game whose match was decided off the board: the resignation made on the loser's
    behalf reads as what it stood for, and the win (and the match) as the result does."""
    if not result or not result["off_board"]:
        return lines
    texts = {"resign": result["note"] or ("Result " + ENTERED_MARK if result["entered"] else ""),
             "game_won": result["headline"]}
    if result["entered"] and result["match_line"]:
        texts["match_won"] = result["match_line"]
    return reworded(lines, {kind: text for kind, text in texts.items() if text})


def count_calls(v: TableView, table: Seating) -> list[LogLine]:
    """What stands by the count for as long as it matters: each seat that has said go in this
    series, and the go, 31 or last card just scored, until the next card is laid."""
    if v.phase not in ("play", "game_over", "match_over"):
        return []
    scored = []
    for e in reversed(v.log):
        if e.kind == "play":
            break
        if e.kind in ("go", "thirty_one", "last_card"):
            scored.append(line(table, e))
    gone = [line(table, Event(s, "say_go")) for s, said in enumerate(v.gone) if said]
    return [*reversed(scored), *gone]


def _shown(h, names: list[str], viewer: int | None) -> dict:
    """A hand or crib of the show, with what its heading and its total say to this reader."""
    mine = h.seat == viewer
    owner = names[h.seat]
    return {
        "entry": h, "owner": owner, "mine": mine,
        "title": ("Your " if mine else f"{owner}'s ") + h.kind,
        "scored_label": "You scored" if mine else f"{owner} scored",
    }


@lru_cache(maxsize=256)  # a fold per reader of each game in play, a few KB each
def _last_deal_html(entries: tuple, names: tuple[str, ...], viewer: int | None, fold_id: str) -> SafeString:
    """The fold of the last deal's show: the same for a reader all through the deal, and drawn on
    every move of it, so drawn once."""
    return components.render("play/parts/last_deal.jinja", {
        "last_show": [_shown(h, list(names), viewer) for h in entries], "last_deal_id": fold_id,
    })


def _shown_hand(v: TableView, seat: int) -> tuple[Card, ...]:
    return next((h.cards for h in v.show if h.seat == seat and h.kind == "hand"), ())


def _scored(v: TableView, kind: str, seat: int | None = None) -> int | None:
    """What a hand (``seat``'s) or the crib scored in this show, once counted; else None."""
    return next((h.awarded for h in v.show
                 if h.kind == kind and h.status == "done" and (seat is None or h.seat == seat)), None)


def table_context(
    v: TableView, names: list[str], viewer: int | None, *, log: list[LogLine], result: dict | None,
    open_hands: tuple[tuple[Card, ...], ...] | None = None, nearest: int | None = None,
) -> dict:
    """The table for one reader: the seats (each with its name, score, badges and its cards, face
    down until shown), the crib and starter, the cards played and the count, the show, the log and
    the result. The reader's own seat (``viewer``) is theirs to draw. ``open_hands``: every seat's
    cards laid open, for a game that is over (the replay), where ``nearest`` is drawn last, nearest
    the reader."""
    partner = (viewer + 2) % 4 if viewer is not None and v.players == 4 else None
    order = [s for s in range(v.players) if s not in (viewer, nearest)]
    if nearest is not None:
        order.append(nearest)
    seats = []
    for s in order:
        shown = _shown_hand(v, s)
        # A replay names every partnership; a live board badges the reader's own partner.
        opposite = (s + 2) % 4 if v.players == 4 and open_hands is not None else None
        seats.append({
            "seat": s,
            "side": v.side_of(s),
            "name": names[s],
            "score": min(v.scores[v.side_of(s)], v.target),  # a winner stands in the game hole
            "partner": s == partner,
            "partner_name": names[opposite] if opposite is not None else "",
            "dealer": v.dealer == s,
            "to_play": v.turn == s,
            "count": v.hand_sizes[s],
            "shown": shown,
            "scored": _scored(v, "hand", s),
            "open": open_hands[s] if open_hands is not None and not shown else (),
        })
    played = len(v.plays) - len(v.series)
    table = Seating(tuple(names), viewer)
    return {
        "v": v,
        "me": viewer,
        "names": names,
        "seats": seats,
        "phase_title": PHASE_TITLES.get(v.phase, ""),
        "turn_word": turn_word(v),
        "dealer_name": names[v.dealer] if v.dealer is not None else "",
        "crib_owner_name": names[v.crib_owner] if v.crib_owner is not None else "",
        "turn_name": names[v.turn] if isinstance(v.turn, int) else "",
        "crib_open": (),  # a replay lays the crib open before its count
        "crib_card": None,
        # The cards played this deal, those laid before the count went back to 0 set apart.
        "pile": [{"name": names[s], "seat": s, "card": c, "mine": s == viewer, "earlier": i < played}
                 for i, (s, c) in enumerate(v.plays)],
        "cut_cards": [{"name": names[s], "card": c, "deals": v.dealer == s and v.phase != "cut"}
                      for s, c in enumerate(v.cut_cards) if c is not None],
        # The play stays on the table when the game was won in it: the winning card, the count.
        "pile_shown": v.phase == "play" or (v.phase in ("game_over", "match_over") and not v.show
                                            and bool(v.plays)),
        "count_calls": count_calls(v, table),
        "show": [_shown(h, names, viewer) for h in v.show],
        # The previous deal's show stays one click away until this deal's show begins, and after
        # a game won in the play, which has no show of its own.
        "last_deal": _last_deal_html(v.last_show, tuple(names), viewer, f"last-deal-{v.game_no}-{v.deal_no}")
        if v.last_show and (v.phase in ("discard", "starter", "play")
                            or (v.phase in ("game_over", "match_over") and not v.show)) else "",
        "crib_counted": any(h.kind == "crib" for h in v.show),
        # Beside each hand and the crib laid open on the table: what it scored.
        "my_scored": _scored(v, "hand", viewer) if viewer is not None else None,
        "crib_scored": _scored(v, "crib"),
        "log": log,
        "result": result,
    }
