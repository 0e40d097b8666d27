"""The replay board: a finished game drawn at any step, every seat's hand face up.

Only finished games are replayed (the views refuse others), so the full engine state may be shown:
every card it holds was seen by the players by the end, or is the crib's (the three-player crib
card included) or a discard that the record page shows anyway. Two, three or four seats; one peg
track per side (a partnership of four shares one).
"""

from __future__ import annotations

from games.engine.cards import parse_card
from games.engine.game import GameState
from games.engine.state import teams
from games.history.replay import Step, state_at
from games.play import endings
from games.play.board import PHASE_TITLES, TRACK_COLORS
from games.play.hooks import organiser_of
from games.play.models import Game, Move
from games.play.narration import Table, line, log_lines, win_phrase


def seat_names(game: Game) -> list[str]:
    """Each seat's name (see ``Game.seat_names``)."""
    return game.seat_names()


def side_names(names: list[str]) -> list[str]:
    """One name per side (scores, results, the peg tracks): the seat's, or "alice & carol" for a
    partnership of four (as the live board names them)."""
    return [" & ".join(names[s] for s in team) for team in teams(len(names))]


def _by_site(step: Step) -> bool:
    return step.move.by_timeout and (step.move.note or {}).get("kind") == "timeout"


def _cards(tokens) -> str:
    return " and ".join(parse_card(t).name for t in tokens)


def describe(step: Step, names: list[str], ending: dict | None = None) -> str:
    """The step's action in words: "Alice plays the Five of hearts" (``ending``: why the site
    resigned for a player, see ``games.play.endings``)."""
    a = step.move.action
    who = names[step.move.seat] if step.move.seat < len(names) else f"Seat {step.move.seat}"
    kind = a.get("type")
    if kind == "resign" and ending is not None:
        event = {"seat": step.move.seat, "kind": "resign", "points": 0, "cards": []}
        return line(Table(tuple(names)), event, ending).text
    said = _said(who, kind, a)
    return f"{said} (the site, on a timeout)" if _by_site(step) else said


def _said(who: str, kind: str, a: dict) -> str:
    if kind == "cut_for_deal":
        return f"{who} cuts for deal (card {a['position'] + 1})"
    if kind == "discard":
        return f"{who} lays away the {_cards(a['cards'])}"
    if kind == "play":
        return f"{who} plays the {parse_card(a['card']).name}"
    texts = {
        "go": "says go",
        "call_muggins": "calls muggins",
        "accept_count": "accepts the count",
        "next_deal": "is ready for the next deal",
        "next_game": "starts the next game",
        "resign": "resigns",
    }
    if kind == "count":
        return f"{who} counts {a['points']}"
    return f"{who} {texts.get(kind, kind)}"


def board_from_state(state: GameState, names: list[str], ending: dict | None = None,
                     notes: list[dict] = ()) -> dict:
    """Template context for one state: every seat with its cards face up, one peg track per side,
    the table, the show (``ending`` and ``notes``: see ``games.play.endings``)."""
    sides = side_names(names)
    table = Table(tuple(names), None, state.rules.target, state.rules.peg_out_zone)
    seats = []
    for i in range(state.players):
        in_show = state.phase in ("show", "game_over", "match_over") and state.kept[i]
        partner = (i + 2) % 4 if state.players == 4 else None
        seats.append({
            "seat": i,
            "name": names[i],
            "side": state.side_of(i),
            "partner": names[partner] if partner is not None else "",
            "score": state.scores[state.side_of(i)],
            "dealer": state.dealer == i,
            "to_play": state.phase == "play" and state.turn == i,
            "cards": state.kept[i] if in_show else state.hands[i],
            "cards_label": "Kept" if in_show else "Holds",
            "discards": state.discards[i],
        })
    tracks = [
        {"label": sides[side], "front": state.scores[side], "back": state.back_pegs[side],
         "color": TRACK_COLORS[side % len(TRACK_COLORS)]}
        for side in range(state.sides)
    ]
    played = len(state.plays) - len(state.series)
    crib_card = state.deck[state.starter_index - 1] if state.players == 3 and state.deck else None
    return {
        "state": state,
        "phase_title": PHASE_TITLES.get(state.phase, ""),
        "seats": seats,
        "sides": sides,
        "tracks": tracks,
        "target": state.rules.target,
        "dealer_name": names[state.dealer] if state.dealer is not None else "",
        "crib_card": crib_card,
        "series": [{"name": names[s], "card": c} for s, c in state.series],
        "previous_plays": [{"name": names[s], "card": c} for s, c in state.plays[:played]],
        "show": [
            {"entry": e, "owner": names[e.seat], "groups": e.score.groups if e.score else ()}
            for e in state.show
        ],
        "log": log_lines(table, endings.with_notes(state.log, list(notes), state.game_no, state.deal_no),
                         ending),
        "cut_cards": [{"name": names[s], "card": c} for s, c in enumerate(state.cut_cards) if c is not None],
        "results": [
            {"game_no": r.game_no + 1, "winner": sides[r.winner], "scores": list(r.scores),
             "words": win_phrase(sides, r.winner, r.scores, r.reason, ending=ending,
                                 verb_word="win" if len(state.teams[r.winner]) > 1 else "wins"),
             "skunk": r.skunk_name, "reason": r.reason}
            for r in state.results
        ],
        "match_winner": sides[state.match_winner] if state.match_winner is not None else "",
        "match_verb": "win" if state.match_winner is not None and len(state.teams[state.match_winner]) > 1
        else "wins",
    }


def replay_context(game: Game, number: int, moves: list[Move]) -> dict:
    """Everything the replay page shows at step ``number`` (0 = before the first move)."""
    total = len(moves)
    number = max(0, min(number, total))
    state, step = state_at(game, number, moves)
    names = seat_names(game)
    ending = endings.ending_of(game)
    notes = [m.note for m in moves[:number] if m.by_timeout and endings.is_placed_timeout(m.note)]
    context = board_from_state(state, names, ending, notes)
    table = Table(tuple(names), None, game.target, game.peg_out_zone)
    said = [step.move.note] if step and step.move.note else []
    context.update(
        game=game,
        names=names,
        step=number,
        total=total,
        first=0,
        prev=max(0, number - 1),
        next=min(total, number + 1),
        last=total,
        what=describe(step, names, ending) if step else "Before the cut for deal",
        events=[ln.text for ln in log_lines(table, [*said, *step.events], ending)] if step else [],
        at=step.move.created_at if step else None,
    )
    if state.phase == "match_over" and context["results"]:  # the end: a tournament may say more
        tournament = organiser_of(game)
        ending = tournament.ending_of(game) if tournament else None
        if ending is not None:
            last = context["results"][-1]
            if ending.how:
                last["words"] = f"{'win' if ' & ' in last['winner'] else 'wins'} {ending.how}"
            context["note"] = ending.note
    return context
