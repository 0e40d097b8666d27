"""A finished game as a download: JSON (the full log, enough to replay it with the engine) or text.

Every seat is listed (two, three or four; ``side`` is the seat's side, ``teams`` the seats of
each side: scores, results and ``winner_seat``, the winning side, are by side). The JSON holds
the game's secret, revealed once the game is over: with it and the actions, ``new_game(rules,
secret)`` and ``apply`` rebuild every state, and each deal's seed is ``deal_seed(secret,
game_no, deal_no)`` (``games/engine/deck.py``).
"""

from __future__ import annotations

from django.template.loader import render_to_string

from games.engine.deck import deal_seed
from games.engine.state import side_count, teams
from games.history.summaries import deal_players, summaries_for
from games.play import endings
from games.play.game_result import ENTERED, final_result
from games.play.models import Game, Move, Round
from games.play.names import is_deleted
from games.play.narration import Seating, line, on_board, result_line, score_words, side_names

FORMAT = "cribbage-hall-game/1"


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def game_json(game: Game) -> dict:
    if game.status != Game.Status.FINISHED:
        raise ValueError("only a finished game is exported")
    secret = bytes.fromhex(game.secret)
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.index)
    sides = side_count(len(seats))
    names = game.seat_names()  # computers of one level numbered, as the board names them
    return {
        "format": FORMAT,
        "game": game.pk,
        "players": [
            {"seat": s.index, "side": s.index % sides, "name": names[s.index],
             # A deleted player's handle would tie their games together: they are only a name now.
             "username": s.user.username if s.user_id and not is_deleted(s.user.username) else None,
             "computer": s.computer_level or None}
            for s in seats
        ],
        "teams": [list(team) for team in teams(len(seats))],
        "house_rules": game.house_rules.to_dict(),
        "rated": game.rated,
        "vs_computer": game.vs_computer,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "winner_seat": game.winner_seat,
        "result": game.result,
        "secret": game.secret,
        "deals": [
            {"game_no": r.game_no, "deal_no": r.deal_no, "dealer": r.dealer, "commitment": r.commitment,
             "seed": deal_seed(secret, r.game_no, r.deal_no).hex()}
            for r in Round.objects.filter(game=game).order_by("game_no", "deal_no")
        ],
        "moves": [
            {"seq": m.seq, "seat": m.seat, "action": m.action, "events": m.events, "at": _iso(m.created_at),
             "by_timeout": m.by_timeout}
            for m in Move.objects.filter(game=game).order_by("seq")
        ],
    }


def game_text(game: Game) -> str:
    """The game as plain text: players, result, then every deal with its pegging and shows."""
    names = game.seat_names()
    table = Seating(tuple(names), None, game.target, game.peg_out_zone)
    final = final_result(game) or {"games": [], "entered": False, "winner": None}
    results = [
        {"game_no": r["game_no"] + 1,
         "line": result_line(table, r["winner"], r["scores"], r["reason"], skunks=r.get("skunks") or (),
                             ending=endings.ending_of(game), entered=final["entered"], past=True)}
        for r in final["games"]
    ]
    if final["entered"] and not results:
        line_ = result_line(table, final["winner"], (), ENTERED, entered=True, past=True)
        results = [{"game_no": 0, "line": line_}]
    return render_to_string("history/export.txt", {
        "game": game, "names": names, "sides": side_names(table), "deals": deal_views(game, names),
        "results": results,
    })


def timeouts_by_deal(game: Game, names: list[str]) -> dict[tuple[int, int], list[str]]:
    """Each deal's timeouts in words: "alice ran out of time: the site laid away for alice (timeout 1
    of 3)"."""
    out: dict[tuple[int, int], list[str]] = {}
    table = Seating(tuple(names))
    for note in endings.timeout_notes(game):
        out.setdefault((note["game_no"], note["deal_no"]), []).append(line(table, note).text)
    return out


def deal_views(game: Game, names: list[str]) -> list[dict]:
    """The summaries with seat numbers turned into names, for the record page and the text export.

    They reveal every deal's seed, so only a finished game has them.
    """
    if game.status != Game.Status.FINISHED:
        raise ValueError("a game's deals are revealed only once it is finished")
    secret = bytes.fromhex(game.secret)
    commitments = {
        (r.game_no, r.deal_no): r.commitment for r in Round.objects.filter(game=game)
    }
    timeouts = timeouts_by_deal(game, names)
    out = []
    muggins = game.house_rules.muggins
    for deal in summaries_for(game):
        players = deal_players(deal)
        sides = side_count(players)
        side_name = side_names(Seating(tuple(names)))
        last_show = len(deal["show"]) - 1
        # The game hole is the last hole: a count past it still ends there, as on the board.
        before = on_board(deal["scores_before"], game.target)
        after = on_board(deal["scores_after"], game.target)
        out.append({
            **deal,
            "number": deal["deal_no"] + 1,
            "game_number": deal["game_no"] + 1,
            "players_count": players,
            "dealer_name": names[deal["dealer"]],
            "pone_name": names[deal["pone"]],
            "heels": deal["points"][deal["dealer"]]["heels"],
            "crib_card": deal.get("crib_card"),
            "players": [
                {"seat": s, "name": names[s], "hand": deal["hands"][s], "discards": deal["discards"][s],
                 "points": deal["points"][s], "total": sum(deal["points"][s].values()),
                 "before": before[s % sides], "after": after[s % sides]}
                for s in range(players)
            ],
            "sides": [
                {"side": k, "name": side_name[k], "before": before[k], "after": after[k]}
                for k in range(sides)
            ],
            "pegging_lines": [_pegging_line(line, names) for line in deal["pegging"]],
            "shows": [
                {**e, "owner": names[e["seat"]],
                 # Only the deal's last count can be the one that ended the game.
                 "claim_lines": claim_lines(e, names, muggins=muggins,
                                            won_by=deal.get("won_by") if i == last_show else None)}
                for i, e in enumerate(deal["show"])
            ],
            "seed": deal_seed(secret, deal["game_no"], deal["deal_no"]).hex(),
            "commitment": commitments.get((deal["game_no"], deal["deal_no"]), ""),
            "timeouts": timeouts.get((deal["game_no"], deal["deal_no"]), []),
        })
    return out


def _taker(seat: int, players: int) -> int:
    """The seat that calls muggins on ``seat``'s count or pegs its over-count penalty: the first seat
    clockwise on the other side (the engine's ``next_opponent``)."""
    sides = side_count(players)
    return next(s for s in ((seat + k) % players for k in range(1, players)) if s % sides != seat % sides)


def claim_lines(show: dict, names: list[str], *, muggins: bool, won_by: int | None = None) -> list[str]:
    """A manual count in words: the claim against the true count, then the over-count penalty or the
    muggins, and who pegged it. Nothing for a hand counted by the site or skipped.

    ``won_by``: the side that won the game at this count, if it ended there (a count that takes its
    owner out ends the game before any penalty or muggins).

    >>> entry = {"seat": 0, "status": "done", "claimed": 10, "total": 6, "awarded": 6, "muggins": 4}
    >>> claim_lines(entry, ["alice", "bob"], muggins=True)
    ['alice claims 10, true count 6: 4 too many, 6 pegged', 'Over-count penalty: bob pegs 4']
    """
    players = len(names)
    owner, taker = names[show["seat"]], names[_taker(show["seat"], players)]
    if show["status"] == "due":
        return [f"{owner} never counted it: the game was over"]
    claimed, true = show.get("claimed"), show.get("total")
    if claimed is None or true is None:
        return []
    owner_won = won_by is not None and won_by == show["seat"] % side_count(players)
    head = f"{owner} claims {claimed}, true count {true}: "
    if claimed > true:
        lines = [head + f"{claimed - true} too many, {true} pegged"]
        if not muggins:
            return lines
        if owner_won:
            return [*lines, f"Over-count penalty: none, {owner} went out first"]
        return [*lines, f"Over-count penalty: {taker} pegs {show['muggins']}"]
    if claimed == true:
        return [head + f"{claimed} pegged"]
    missed = true - claimed
    lines = [head + f"{missed} missed, {claimed} pegged"]
    if not muggins:
        return [*lines, f"No muggins in this game: the {missed} missed are lost"]
    if show["status"] == "muggins":
        return [*lines, f"Muggins: {taker} had not answered when the game ended; the {missed} are lost"]
    if show["muggins"]:
        return [*lines, f"Muggins: {taker} calls it and pegs {show['muggins']}"]
    if owner_won:
        return [*lines, f"Muggins: none, {owner} went out on the count"]
    return [*lines, f"Muggins: {taker} lets the count stand; the {missed} missed are lost"]


def _pegging_line(line: dict, names: list[str]) -> dict:
    """A line of a deal's play with its player's name and each score in words."""
    named = {**line, "name": names[line["seat"]] if "seat" in line else ""}
    if line["kind"] == "go":
        named["text"] = score_words("go", line["points"])
    if line["kind"] == "play":
        named["scores"] = [{**s, "text": score_words(s["kind"], s["points"])} for s in line["scores"]]
    return named
