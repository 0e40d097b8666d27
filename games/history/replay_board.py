"""The replay board: a finished game drawn at any step, every seat's cards laid open.

Only finished games are replayed (the views refuse others), so the full engine state may be shown:
every card it holds was seen by the players by the end, or is the crib's (the three-player crib
card included) or a discard that the record page shows anyway. It is the table every board is
drawn from (``games.play.board.table``), its hands open, its reader's own seat nearest them.
"""

from __future__ import annotations

from games.engine.game import GameState
from games.engine.view import public_view
from games.history.replay import Step, state_at
from games.play import endings
from games.play.board.table import side_names, table_context, tracks, with_entered
from games.play.game_result import ENTERED, final_result
from games.play.models import Game, Move
from games.play.narration import (
    ENTERED_MARK,
    Seating,
    action_words,
    line,
    log_lines,
    match_line,
    result_line,
    reworded,
    side_who,
    verb,
)
from games.play.registry import organiser_of


def describe(step: Step, names: list[str], ending: dict | None = None) -> str:
    """The step's action in words: "alice plays the Five of hearts" (``ending``: why the site
    resigned for a player, see ``games.play.endings``)."""
    a = step.move.action
    if a.get("type") == "resign" and ending is not None:
        event = {"seat": step.move.seat, "kind": "resign", "points": 0, "cards": []}
        return line(Seating(tuple(names)), event, ending).text
    if a.get("type") == "next_deal" and step.events:
        # The last "ready" of the table begins the deal; the earlier ones are folded into it, so
        # "X is ready" would contradict a viewer who pressed Next hand first.
        return "The next deal begins"
    if a.get("type") == "cut_for_deal" and step.events:
        # The last cut shows every seat's card at once (the earlier cuts are folded into it).
        return "The cut for deal"
    said = action_words(names[step.move.seat], a)
    by_site = step.move.by_timeout and (step.move.note or {}).get("kind") == "timeout"
    return f"{said} (the site, on a timeout)" if by_site else said


def board_from_state(state: GameState, names: list[str], ending: dict | None = None,
                     notes: list[dict] = (), nearest: int | None = None) -> dict:
    """The table at one step: every seat's cards open (the four kept once the show begins), one
    peg track per side; ``nearest``: the reader's own seat, drawn last, nearest them (``ending``
    and ``notes``: see ``games.play.endings``)."""
    v = public_view(state)
    sides = side_names(v, names)
    table = Seating(tuple(names), None, state.rules.target, state.rules.peg_out_zone)
    # Once the show began a seat's four are on the table again; a game won in the play shows what
    # each still held, the winning card on the pile.
    in_show = bool(state.show)
    open_hands = tuple(state.kept[i] if in_show and state.kept[i] else state.hands[i]
                       for i in range(state.players))
    log = log_lines(table, endings.with_notes(state.log, list(notes), state.game_no, state.deal_no), ending)
    context = table_context(v, names, None, log=log, result=None, open_hands=open_hands, nearest=nearest)
    for seat in context["seats"]:
        seat["discards"] = state.discards[seat["seat"]]
        seat["to_play"] = state.phase == "play" and state.turn == seat["seat"]
    context.update(
        state=state,
        sides=sides,
        tracks=tracks(v, sides, None if nearest is None else v.side_of(nearest)),
        crib_open=state.crib,
        crib_card=state.deck[state.starter_index - 1] if state.players == 3 and state.deck else None,
        results=[
            {"game_no": r.game_no + 1,
             "line": str(result_line(table, r.winner, r.scores, r.reason, skunks=r.skunks, ending=ending))}
            for r in state.results
        ],
        match_won=_match_won(table, state.match_winner) if state.match_winner is not None else "",
    )
    return context


def shown_moves(moves: list[Move]) -> list[int]:
    """The moves the replay steps through (0 = before the first): every move but one that the
    engine answered with no event. Those are the moves everyone makes at once and that show only
    when the last of them is made (a cut for deal, "ready for the next deal"): until then the table
    is drawn exactly as before, so each is folded into the move that reveals it."""
    return [0, *(n for n, m in enumerate(moves, start=1) if m.events)]


def replay_context(game: Game, number: int, moves: list[Move], viewer: int | None = None) -> dict:
    """Everything the replay page shows at move ``number`` (0 = before the first move), with the
    ``viewer``'s own seat nearest them, where the live board had it. A move that shows nothing new
    is folded into the next one."""
    shown = shown_moves(moves)
    number = max(0, min(number, len(moves)))
    number = next((n for n in shown if n >= number), shown[-1])
    at = shown.index(number)
    state, step = state_at(game, number, moves)
    names = game.seat_names()
    ending = endings.ending_of(game)
    notes = [m.note for m in moves[:number] if m.by_timeout and endings.is_placed_timeout(m.note)]
    context = board_from_state(state, names, ending, notes, nearest=viewer)
    table = Seating(tuple(names), None, game.target, game.peg_out_zone)
    said = [step.move.note] if step and step.move.note else []
    context.update(
        game=game,
        names=names,
        step=number,
        # The page names a step by its move in the game's log, as its address does (?step=N): a
        # move folded into the next is skipped, so the numbers it shows may jump.
        position=number,
        total=shown[-1],
        first=0,
        prev=shown[max(0, at - 1)],
        next=shown[min(len(shown) - 1, at + 1)],
        last=shown[-1],
        what=describe(step, names, ending) if step else "Before the cut for deal",
        events=log_lines(table, [*said, *step.events], ending) if step else [],
        at=step.move.created_at if step else None,
    )
    if state.phase == "match_over" and context["results"]:  # the end: the director or an event may say more
        organised = organiser_of(game)
        decided = organised.ending_of(game) if organised else None
        final = final_result(game)
        if final is not None and final["entered"]:
            context["results"] = _entered_lines(table, final)
            context["match_won"] = _match_won(table, final["winner"], final["match_scores"], entered=True)
            # The resignation made on the loser's behalf reads as what it stood for, as on the board.
            texts = {"resign": (decided.note if decided is not None else "") or f"Result {ENTERED_MARK}",
                     "game_won": context["results"][-1]["line"], "match_won": context["match_won"]}
            context["log"] = reworded(context["log"], texts)
            v = context["v"]
            nearest = None if viewer is None else v.side_of(viewer)
            context["tracks"] = tracks(v, context["sides"], nearest, final)
            with_entered(context, final)
            if step is not None and step.move.action.get("type") == "resign":
                context["what"] = texts["resign"]
            context["events"] = reworded(context["events"], texts)
        elif decided is not None and decided.how:
            last = context["results"][-1]
            last["line"] = str(result_line(table, game.winner_seat, (), "resign", how=decided.how))
        if decided is not None:
            context["note"] = decided.note
    context["events"] = [ln.text for ln in context["events"]]
    return context


def _entered_lines(table: Seating, final: dict) -> list[dict]:
    """The games of a result the director entered, or the match alone when no game's score was given."""
    if not final["games"]:
        return [{"game_no": 0, "line": str(result_line(table, final["winner"], (), ENTERED, entered=True))}]
    return [{"game_no": g["game_no"] + 1,
             "line": str(result_line(table, g["winner"], g["scores"], ENTERED, skunks=g["skunks"],
                                     entered=True))}
            for g in final["games"]]


def _match_won(table: Seating, side: int, match_scores=(), *, entered: bool = False) -> str:
    """"alice wins the match", with the games when the director entered them."""
    if entered:
        return match_line(table, side, match_scores, entered=True)
    who = side_who(table, side, start=True)
    return f"{who} {verb(who, 'wins')} the match"
