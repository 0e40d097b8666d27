"""Round history: what happened in each deal, worked out by replaying the Move log.

:func:`deal_summaries` replays a game and describes every deal as a JSON-safe dict (stored in
``Round.summary``): the hands as dealt, the discards, the starter, the pegging card by card with
each score, each show with its breakdown, and the points each seat made by category; two, three
or four seats (scores by side, see :func:`summarize_deal`).
:func:`record_game` stores those and the per-seat :class:`PlayerGame` rows; it runs when a game
finishes and from ``manage.py history_rebuild``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db import transaction

from games.engine.events import Event
from games.engine.game import GameState
from games.engine.state import DONE, SKIPPED, dealt_count, side_count
from games.history.models import PlayerGame, final_scores
from games.history.replay import moves_of, replay_steps
from games.play import services as game_services
from games.play.game_result import final_result
from games.play.models import Game, Move, Round

SUMMARY_VERSION = 1
PEGGING_KINDS = frozenset({"fifteen", "thirty_one", "pair", "run", "go", "last_card"})
CATEGORIES = ("pegging", "heels", "hand", "crib", "muggins")
CATEGORY_OF = {
    **dict.fromkeys(PEGGING_KINDS, "pegging"),
    "his_heels": "heels", "hand": "hand", "crib": "crib", "muggins": "muggins",
    "over_count_penalty": "muggins",  # the traditional muggins penalty for an over-count
}
# Points stuck to the card just laid (the go is a line of its own: it follows the other's "go").
ON_CARD_KINDS = frozenset({"fifteen", "thirty_one", "pair", "run", "last_card"})


def _cards(cards: Iterable) -> list[str]:
    return [str(c) for c in cards]


def _pegging(log: Iterable[Event]) -> list[dict]:
    """The play as lines: a card laid (with the count and what it scored), a go said, a go scored,
    the count reset."""
    lines: list[dict] = []
    count = 0
    for e in log:
        if e.kind == "play":
            count += e.cards[0].value
            lines.append({"kind": "play", "seat": e.seat, "card": str(e.cards[0]), "count": count,
                          "points": 0, "scores": []})
        elif e.kind in ON_CARD_KINDS and lines and lines[-1]["kind"] == "play":
            lines[-1]["points"] += e.points
            lines[-1]["scores"].append({"kind": e.kind, "points": e.points})
        elif e.kind == "say_go":
            lines.append({"kind": "say_go", "seat": e.seat})
        elif e.kind == "go":
            lines.append({"kind": "go", "seat": e.seat, "points": e.points})
        elif e.kind == "reset":
            count = 0
            lines.append({"kind": "reset"})
    return lines


def _show(state: GameState) -> list[dict]:
    out = []
    for entry in state.show:
        score = entry.score
        out.append({
            "seat": entry.seat, "kind": entry.kind, "cards": _cards(entry.cards),
            "starter": str(entry.starter), "status": entry.status, "claimed": entry.claimed,
            "awarded": entry.awarded, "muggins": entry.muggins,
            "total": None if score is None else score.total,
            "groups": [] if score is None else [
                {"kind": g.kind, "cards": _cards(g.cards), "points": g.points, "text": g.text}
                for g in score.groups
            ],
        })
    return out


def summarize_deal(start: GameState, end: GameState) -> dict:
    """One deal, from its first state (just dealt) and its last (before the next deal or game).

    Cards and points made are per seat (``hands``, ``discards``, ``kept``, ``points``: who laid the
    card or counted the hand); scores are per side (``scores_before``/``scores_after``/``timeline``,
    the partners' shared score with four players). ``crib_card``: with three players, the deck's
    card dealt straight to the crib. ``won_by``: the winning side, if the game ended in this deal.
    """
    players = end.players
    points = [dict.fromkeys(CATEGORIES, 0) for _ in range(players)]
    scores = list(start.scores)
    timeline: list[list[int]] = []
    won_by = None
    for e in end.log:
        if e.kind == "game_won":
            won_by = e.seat
        category = CATEGORY_OF.get(e.kind)
        if category is None or not e.points:
            continue
        points[e.seat][category] += e.points
        scores[end.side_of(e.seat)] += e.points
        timeline.append(list(scores))
    hands_plus_crib = players + 1
    complete = len(end.show) == hands_plus_crib and all(e.status in (DONE, SKIPPED) for e in end.show)
    return {
        "version": SUMMARY_VERSION,
        "game_no": end.game_no,
        "deal_no": end.deal_no,
        "players": players,
        "teams": [list(team) for team in end.teams],
        "dealer": end.dealer,
        "pone": end.pone,
        "hands": [_cards(h) for h in end.hands_dealt],
        "crib_card": str(end.deck[dealt_count(players) - 1]) if players == 3 else None,
        "discards": [_cards(d) for d in end.discards],
        "kept": [_cards(k) for k in end.kept],
        "crib": _cards(end.crib),
        "starter": None if end.starter is None else str(end.starter),
        "pegging": _pegging(end.log),
        "show": _show(end),
        "points": points,
        "scores_before": list(start.scores),
        "scores_after": list(end.scores),
        "timeline": timeline,
        "complete": complete,
        "won_by": won_by,
    }


def deal_players(deal: dict) -> int:
    """The seats in a summary (one stored before three and four players has no ``players``)."""
    return deal.get("players") or len(deal["hands"])


def deal_summaries(game: Game, moves: list[Move] | None = None) -> list[dict]:
    """Every deal of ``game`` in order (raises ``ReplayError`` if the log does not replay)."""
    first: dict[tuple[int, int], GameState] = {}
    last: dict[tuple[int, int], GameState] = {}
    for step in replay_steps(game, moves):
        state = step.after
        if not state.deck:  # still cutting for deal
            continue
        key = (state.game_no, state.deal_no)
        first.setdefault(key, state)
        last[key] = state
    return [summarize_deal(first[key], last[key]) for key in sorted(first)]


def summaries_for(game: Game) -> list[dict]:
    """The stored summaries, or (for a game finished before they were kept) worked out now."""
    rounds = list(Round.objects.filter(game=game).order_by("game_no", "deal_no"))
    if rounds and all(r.summary.get("version") == SUMMARY_VERSION for r in rounds):
        return [r.summary for r in rounds]
    return deal_summaries(game)


# --- the per-seat rows -----------------------------------------------------------------------------


def _deal_stats(seat: int, summaries: list[dict]) -> dict:
    """What ``seat`` itself scored, by its role: dealing, or not ("pone", any other seat)."""
    stats = dict.fromkeys(
        ("complete_deals_dealer", "complete_deals_pone", "pegging_dealer", "pegging_pone", "hand_dealer",
         "hand_pone", "crib", "hands_28", "hands_29"), 0)
    best = None
    for deal in summaries:
        for entry in deal["show"]:
            if entry["seat"] == seat and entry["kind"] == "hand" and entry["total"] is not None:
                total = entry["total"]
                best = total if best is None else max(best, total)
                stats["hands_28"] += total == 28
                stats["hands_29"] += total == 29
        if not deal["complete"]:
            continue
        points = deal["points"][seat]
        role = "dealer" if deal["dealer"] == seat else "pone"
        stats[f"complete_deals_{role}"] += 1
        stats[f"pegging_{role}"] += points["pegging"]
        stats[f"hand_{role}"] += points["hand"]
        stats["crib"] += points["crib"]
    stats["best_hand"] = best
    return stats


def _skunks(result: dict) -> list[int]:
    """Each side's skunk level in one game's result (stored before ``skunks``: two players, derived)."""
    skunks = result.get("skunks")
    if skunks is None:
        skunks = [0 if side == result["winner"] else result["skunk"] for side in range(len(result["scores"]))]
    return list(skunks)


def _best_other(scores: list[int], side: int) -> int:
    """The best score among the other sides (with two sides, simply the opponent's)."""
    return max((s for i, s in enumerate(scores) if i != side), default=0)


def game_margin(g: dict, side: int, target: int) -> int:
    """``side``'s score less the best other side's in one game of ``result["games"]``, as the ACC
    counts a spread: the winner at the target, however many points the last count came to. A game
    won by a resignation made while behind (or lost while ahead) counts 0, not a margin of the
    wrong sign."""
    scores = [min(s, target) for s in g["scores"]]
    diff = scores[side] - _best_other(scores, side)
    return max(diff, 0) if g["winner"] == side else min(diff, 0)


def opponents_name(names: list[str], players: int) -> str:
    """How a row names the opposing seats: a name, "bob and carol" (three) or "bob & dave" (four)."""
    return (" & " if players == 4 else " and ").join(names)


def row_names(game: Game) -> dict[int, tuple[str, str]]:
    """Each seat's ``(opponent_name, partner_name)``, as its PlayerGame row keeps them (``game`` with
    its seats' users loaded)."""
    seats = game.seat_list()
    names = dict(zip((s.index for s in seats), game.seat_names(), strict=True))
    players = len(seats)
    sides = side_count(players)
    out = {}
    for seat in seats:
        side = seat.index % sides
        opponents = [names[s.index] for s in seats if s.index % sides != side]
        partner = next((s for s in seats if s.index != seat.index and s.index % sides == side), None)
        out[seat.index] = (opponents_name(opponents, players), names[partner.index] if partner else "")
    return out


def rename_players(game_ids: Iterable[int]) -> int:
    """Write the names in these games' PlayerGame rows again from their seats, as ``record_game``
    would: the rows keep copies of the other players' names, and a name changes when its account is
    deleted. Returns the rows changed."""
    # Names come from the seats alone: not loading each game's snapshot keeps a long history cheap.
    games = Game.objects.filter(pk__in=list(game_ids)).only("pk").prefetch_related("seats__user")
    names = {game.pk: row_names(game) for game in games}
    changed = []
    for row in PlayerGame.objects.filter(game_id__in=names):
        opponent_name, partner_name = names[row.game_id].get(row.seat, (row.opponent_name, row.partner_name))
        if (row.opponent_name, row.partner_name) != (opponent_name, partner_name):
            row.opponent_name, row.partner_name = opponent_name, partner_name
            changed.append(row)
    PlayerGame.objects.bulk_update(changed, ["opponent_name", "partner_name"])
    return len(changed)


def player_rows(game: Game, summaries: list[dict] | None, moves: list[Move]) -> list[PlayerGame]:
    """Unsaved PlayerGame rows, one per seat (``summaries`` None: the log did not replay)."""
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.index)
    names = row_names(game)
    players = len(seats)
    sides = side_count(players)
    result = final_result(game) or {}
    games = result.get("games") or []
    entered = bool(result.get("entered"))
    final = final_scores(game.result) or [0] * sides
    match_scores = result.get("match_scores") or []
    resigned = not entered and any(m.action.get("type") == "resign" for m in moves)
    duration = game.finished_at - moves[0].created_at if moves and game.finished_at else None
    deals = len(summaries) if summaries is not None else Round.objects.filter(game=game).count()
    rows = []
    for seat in seats:
        me = seat.index
        side = me % sides
        opponents = [s for s in seats if s.index % sides != side]
        partner = next((s for s in seats if s.index != me and s.index % sides == side), None)
        won = [g for g in games if g["winner"] == side]
        lost = [g for g in games if g["winner"] != side]
        # An entered result may give the games won without their scores.
        games_won = match_scores[side] if entered else len(won)
        games_lost = sum(match_scores) - games_won if entered else len(lost)
        stats = _deal_stats(me, summaries) if summaries is not None else {}
        rows.append(PlayerGame(
            game=game, seat=me, user=_listed_user(game, seat), players=players,
            opponent=opponents[0].user if players == 2 else None,
            opponent_name=names[me][0], partner=partner.user if partner else None, partner_name=names[me][1],
            vs_computer=game.vs_computer, rated=game.rated, target=game.target,
            finished_at=game.finished_at or game.updated_at,
            duration=duration if duration is None or duration >= timedelta(0) else None,
            result=PlayerGame.Result.WIN if result.get("winner", game.winner_seat) == side
            else PlayerGame.Result.LOSS,
            resigned=resigned, entered=entered, score=final[side], opponent_score=_best_other(final, side),
            margin=sum(game_margin(g, side, game.target) for g in games if g["scores"]),
            games_won=games_won, games_lost=games_lost,
            skunks_given=sum(g["skunk"] >= 1 for g in won),
            skunks_taken=sum(_skunks(g)[side] >= 1 for g in lost),
            double_skunks_given=sum(g["skunk"] >= 2 for g in won),
            double_skunks_taken=sum(_skunks(g)[side] >= 2 for g in lost),
            deals=deals, replayed=summaries is not None, **stats,
        ))
    return rows


def _listed_user(game: Game, seat):
    """Whose list a seat's row is in. A game passed round one device is in its owner's list once
    (by its first named seat), not once for every person who played on it."""
    if game.pass_play is not None and seat.index != next(s.index for s in game.seat_list() if s.user_id):
        return None
    return seat.user


@transaction.atomic
def record_game(game: Game) -> list[PlayerGame]:
    """Store every deal's summary in its Round and (re)write the game's PlayerGame rows.

    A log that does not replay (only possible for games set up by hand in tests) still gets its
    PlayerGame rows, without the per-deal figures, so it shows up in lists with its result.
    """
    from games.history.replay import ReplayError

    moves = moves_of(game)
    try:
        summaries: list[dict] | None = deal_summaries(game, moves)
    except ReplayError:
        summaries = None
    if summaries is not None:
        game_services.rounds_summarise(game=game, summaries=summaries)
    PlayerGame.objects.filter(game=game).delete()
    return PlayerGame.objects.bulk_create(player_rows(game, summaries, moves))
