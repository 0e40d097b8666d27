"""After-game analysis: each player's discard against the expert's best, in expected points.

The expectation is the same one the expert computer and the discard hint use (``discard_table``),
so a player can see, deal by deal, what their lay-aways cost them on average. A lay-away the site
made for a player whose clock ran out is shown as such and not counted against them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

from games.engine.cards import parse_cards
from games.engine.players import analyse_discard
from games.play.models import Game, Move, Round


@dataclass(frozen=True)
class DiscardVerdict:
    game_no: int
    deal_no: int
    seat: int
    dealer: bool
    hand: str
    chosen: str
    best: str
    chosen_net: float
    best_net: float
    loss: float
    by_site: bool = False  # laid away by the site on a timeout, not by the player


def _fmt(cards) -> str:
    """Notation ("TH 5C"), which the record shows as players write cards (``cards_text``)."""
    return " ".join(str(c) for c in cards)


def _site_discards(game: Game) -> set[tuple]:
    """The lay-aways the site made on a timeout: by deal and seat where the note says the deal
    (``games.play.endings.timeout_note``), else by seat and cards."""
    out: set[tuple] = set()
    for m in Move.objects.filter(game=game, by_timeout=True):
        if m.action.get("type") != "discard":
            continue
        note = m.note or {}
        if "deal_no" in note:
            out.add((note["game_no"], note["deal_no"], m.seat))
        else:
            out.add((m.seat, frozenset(m.action.get("cards", ()))))
    return out


def discard_verdicts(game: Game) -> list[DiscardVerdict]:
    """Every person's discard in a finished two-player game (computers are not judged)."""
    if game.players != 2 or game.status != Game.Status.FINISHED:
        return []
    people = {s.index for s in game.seats.all() if not s.is_computer}
    by_site = _site_discards(game)
    out = []
    for rnd in Round.objects.filter(game=game).order_by("game_no", "deal_no"):
        deal = rnd.summary or {}
        hands, discards = deal.get("hands") or [], deal.get("discards") or []
        for seat in sorted(people):
            if seat >= len(hands) or seat >= len(discards) or len(discards[seat]) != 2:
                continue  # the deal ended before this seat laid away
            hand6, laid = parse_cards(hands[seat]), parse_cards(discards[seat])
            a = analyse_discard(hand6, laid, is_dealer=rnd.dealer == seat)
            site = (rnd.game_no, rnd.deal_no, seat) in by_site or (seat, frozenset(discards[seat])) in by_site
            out.append(DiscardVerdict(
                rnd.game_no, rnd.deal_no, seat, rnd.dealer == seat, _fmt(hand6), _fmt(a.chosen.laid_away),
                _fmt(a.best.laid_away), a.chosen.net, a.best.net, a.loss, site,
            ))
    return out


def discard_report(game: Game) -> dict:
    """Verdicts and per-seat totals, cached: a finished game never changes."""
    key = f"discard-report:3:{game.pk}:{game.version}"  # 3: cards in notation
    report = cache.get(key)
    if report is None:
        verdicts = discard_verdicts(game)
        totals = {}
        for v in verdicts:
            t = totals.setdefault(v.seat, {"seat": v.seat, "deals": 0, "best": 0, "loss": 0.0, "by_site": 0})
            if v.by_site:
                t["by_site"] += 1
                continue
            t["deals"] += 1
            t["best"] += v.loss < 1e-9
            t["loss"] += v.loss
        report = {"verdicts": verdicts, "totals": sorted(totals.values(), key=lambda t: t["seat"])}
        cache.set(key, report, timeout=24 * 3600)
    return report
