"""After-game analysis: each player's discard against the expert's best, in expected points and
in winning chances.

The expectation is the same one the expert computer and the discard hint use (``discard_table``),
so a player can see, deal by deal, what their lay-aways cost them on average; the winning chances
(``discard_chances``, with the play shifted by what each four pegs, as the expert weighs them)
weigh the same splits at the score they were played, where near the end a split with fewer points
can be the one that wins. A lay-away the site made for a player whose clock
ran out is shown as such and not counted against them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from games.engine.cards import parse_cards
from games.engine.players import analyse_discard
from games.engine.players.discard_chances import discard_chances
from games.engine.winprob import TARGETS
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
    win_best: str = ""  # the split with the best chance to win, where the table has the game's target
    chosen_win: float | None = None
    best_win: float | None = None

    @property
    def win_loss(self) -> float | None:
        """The chance to win given away by the split chosen (0 for the best)."""
        if self.chosen_win is None or self.best_win is None:
            return None
        return max(0.0, self.best_win - self.chosen_win)

    @property
    def win_loss_text(self) -> str:
        return chance_lost(self.win_loss)


def chance_lost(loss: float | None) -> str:
    """"−3.1%": a share of the chance to win given away, in the record's words ("" where unknown)."""
    if loss is None:
        return ""
    return "best" if loss < 0.0005 else f"−{loss * 100:.1f}%"


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
                **_in_chances(hand6, laid, rnd.dealer == seat, deal.get("scores_before"), seat, game.target),
            ))
    return out


def _in_chances(hand6, laid, is_dealer: bool, scores, seat: int, target: int) -> dict:
    """The chosen split's and the best split's chance to win, at the score the deal started."""
    if target not in TARGETS or not scores or len(scores) != 2:
        return {}
    chances = discard_chances(hand6, is_dealer, scores[seat], scores[1 - seat], target, pegging=True)
    chosen = next(c for c in chances if frozenset(c.option.laid_away) == frozenset(laid))
    best = chances[0]
    return {"win_best": _fmt(best.option.laid_away), "chosen_win": chosen.win, "best_win": best.win}


def discard_report(game: Game) -> dict:
    """Verdicts and per-seat totals, worked out from the game: a task does it once, when the game
    ends, and keeps it (``games.history.tasks``), since a finished game never changes."""
    verdicts = discard_verdicts(game)
    totals = {}
    for v in verdicts:
        t = totals.setdefault(v.seat, {"seat": v.seat, "deals": 0, "best": 0, "loss": 0.0, "by_site": 0,
                                       "win_loss": None})
        if v.by_site:
            t["by_site"] += 1
            continue
        t["deals"] += 1
        t["best"] += v.loss < 1e-9
        t["loss"] += v.loss
        if v.win_loss is not None:
            t["win_loss"] = (t["win_loss"] or 0.0) + v.win_loss
    for t in totals.values():
        t["win_loss_text"] = "" if t["win_loss"] is None else f"−{t['win_loss'] * 100:.1f}%"
    return {"verdicts": verdicts, "totals": sorted(totals.values(), key=lambda t: t["seat"])}


def as_data(report: dict) -> dict:
    """A report as JSON keeps it (``GameAnalysis``): each verdict a dict of its fields."""
    return {"verdicts": [asdict(v) for v in report["verdicts"]], "totals": report["totals"]}


def from_data(data: dict, verdict: type) -> dict:
    """The report kept by ``as_data``, its verdicts ``verdict`` again (a field the kept row lacks
    takes its default, one it has and the class no longer knows is left out)."""
    known = {f.name for f in fields(verdict)}
    return {"verdicts": [verdict(**{k: v for k, v in d.items() if k in known}) for d in data["verdicts"]],
            "totals": [{**t, "seat": int(t["seat"])} for t in data["totals"]]}
