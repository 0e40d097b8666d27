"""Qualifying games against different opponents (the ACC's format): N rounds, each paired from the
rounds before it by standing or at random, never a rematch, a bye to one player in an odd field.
What the draw will do, said beforehand, and who is sure of a playoff place are read in
``games.tournaments.selectors``.

A field that pairing round by round cannot be sure to carry through N rounds (``pairing.safe_rounds``)
has its N rounds drawn at the start from a round robin's schedule instead (each round a different
opponent for everyone, as round by round would give), so that no round can be left unpaired; a
field too small for N (``pairing.max_rounds``) is refused at the start, with the numbers.
"""

from __future__ import annotations

import random

from django.utils import timezone

from games.tournaments import pairing
from games.tournaments.models import Entrant, Match, Tournament
from games.tournaments.selectors import drawn_in_advance, standings, too_many_games
from games.tournaments.services.errors import NotNow

STAGE = Tournament.Stage.QUALIFYING


def draw_at_start(t: Tournament, seeded: list[Entrant]) -> None:
    """Set up the qualifying for ``seeded`` (best seed first): refused if the field is too small
    for the event's games; the whole schedule drawn now only when it has to be."""
    refusal = too_many_games(len(seeded), t.qualifying_games)
    if refusal:
        raise NotNow(refusal)
    t.stage = STAGE
    t.current_round = 0
    if not drawn_in_advance(len(seeded), t.qualifying_games):
        return  # each round is paired when it is due (pair_next)
    order = list(seeded)
    if t.pairing == Tournament.Pairing.RANDOM:
        _rng(t, 0).shuffle(order)
    for r, pairs in enumerate(pairing.round_robin(order)[: t.qualifying_games], start=1):
        _create_round(t, r, pairs)


def pair_next(t: Tournament, round_no: int) -> None:
    """Pair qualifying round ``round_no`` from the rounds before it: the active players, by the
    standings (or at random), nobody meeting anyone again. Raises ``NotNow`` with the pairing
    module's reason when no pairing avoids a rematch."""
    entrants = list(t.entrants.active().order_by("seed", "registered_at", "pk"))
    if len(entrants) < 2:
        raise NotNow("Fewer than two players are left in the qualifying: start the playoff.")
    history = list(Match.objects.filter(tournament=t, stage=STAGE).values_list("entrant1_id", "entrant2_id"))
    table = [row.player.pk for row in standings(t, STAGE) if not row.withdrawn]
    try:
        pairs = pairing.pair_round(
            [e.pk for e in entrants], history, standing=table, method=t.pairing, rng=_rng(t, round_no)
        )
    except pairing.PairingError as exc:
        raise NotNow(f"Qualifying round {round_no}: {exc}") from None
    by_id = {e.pk: e for e in entrants}
    _create_round(t, round_no, [(by_id[a], by_id.get(b)) for a, b in pairs])


def _rng(t: Tournament, round_no: int) -> random.Random:
    """The draw of a random round: the same for the same event and round, so it can be replayed."""
    started = t.started_at.isoformat() if t.started_at else ""
    return random.Random(f"tournament:{t.pk}:{started}:round:{round_no}")


def _create_round(t: Tournament, round_no: int, pairs) -> None:
    # The matches at tables 1, 2, ... in the order given (the top table first), the bye after them.
    pairs = sorted(pairs, key=lambda pair: pair[1] is None)
    for slot, (a, b) in enumerate(pairs):
        bye = b is None
        Match.objects.create(
            tournament=t,
            stage=STAGE,
            round_no=round_no,
            slot=slot,
            entrant1=a,
            entrant2=b,
            match_games=t.match_games,
            status=Match.Status.BYE if bye else Match.Status.WAITING,
            decided_by=Match.Decided.BYE if bye else Match.Decided.NONE,
            winner=a if bye else None,
            finished_at=timezone.now() if bye else None,
        )
