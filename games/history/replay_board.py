"""The replay board: a finished game drawn at any step, both hands face up.

Only finished games are replayed (the views refuse others), so the full engine state may be shown:
every card it holds was seen by both players by the end, or is the crib's or a discard that the
record page shows anyway.
"""

from __future__ import annotations

from games.board import PHASE_TITLES, TRACK_COLORS, log_lines, personalise
from games.engine.cards import parse_card
from games.engine.game import GameState
from games.history.replay import Step, state_at
from games.models import Game, Move


def seat_names(game: Game) -> list[str]:
    return [s.display_name for s in sorted(game.seats.all(), key=lambda s: s.index)]


def _cards(tokens) -> str:
    return " and ".join(parse_card(t).name for t in tokens)


def describe(step: Step, names: list[str]) -> str:
    """The step's action in words: "Alice plays the Five of hearts"."""
    a = step.move.action
    who = names[step.move.seat] if step.move.seat < len(names) else f"Seat {step.move.seat}"
    kind = a.get("type")
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


def board_from_state(state: GameState, names: list[str]) -> dict:
    """Template context for one state: seats with their cards face up, the table, the show."""
    n = len(state.scores)
    seats = []
    for i in range(n):
        in_show = state.phase in ("show", "game_over", "match_over") and state.kept[i]
        seats.append({
            "seat": i,
            "name": names[i],
            "score": state.scores[i],
            "dealer": state.dealer == i,
            "to_play": state.phase == "play" and state.turn == i,
            "cards": state.kept[i] if in_show else state.hands[i],
            "cards_label": "Kept" if in_show else "Holds",
            "discards": state.discards[i],
        })
    tracks = [
        {"label": names[i], "front": state.scores[i], "back": state.back_pegs[i],
         "color": TRACK_COLORS[i % len(TRACK_COLORS)]}
        for i in range(n)
    ]
    played = len(state.plays) - len(state.series)
    return {
        "state": state,
        "phase_title": PHASE_TITLES.get(state.phase, ""),
        "seats": seats,
        "tracks": tracks,
        "target": state.rules.target,
        "dealer_name": names[state.dealer] if state.dealer is not None else "",
        "series": [{"name": names[s], "card": c} for s, c in state.series],
        "previous_plays": [{"name": names[s], "card": c} for s, c in state.plays[:played]],
        "show": [
            {"entry": e, "owner": names[e.seat], "groups": e.score.groups if e.score else ()}
            for e in state.show
        ],
        "log": log_lines(state.log, names, None),
        "cut_cards": [{"name": names[s], "card": c} for s, c in enumerate(state.cut_cards) if c is not None],
        "results": [
            {"game_no": r.game_no + 1, "winner": names[r.winner], "scores": list(r.scores),
             "skunk": r.skunk_name, "reason": r.reason}
            for r in state.results
        ],
        "match_winner": names[state.match_winner] if state.match_winner is not None else "",
    }


def replay_context(game: Game, number: int, moves: list[Move]) -> dict:
    """Everything the replay page shows at step ``number`` (0 = before the first move)."""
    total = len(moves)
    number = max(0, min(number, total))
    state, step = state_at(game, number, moves)
    names = seat_names(game)
    context = board_from_state(state, names)
    context.update(
        game=game,
        names=names,
        step=number,
        total=total,
        first=0,
        prev=max(0, number - 1),
        next=min(total, number + 1),
        last=total,
        what=describe(step, names) if step else "Before the cut for deal",
        events=[personalise(e.text, names) for e in step.events] if step else [],
        at=step.move.created_at if step else None,
    )
    return context
