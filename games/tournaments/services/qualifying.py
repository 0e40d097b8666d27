"""Qualifying games against different opponents (the ACC's format): N rounds, each paired from the
rounds before it by standing or at random, never a rematch, a bye to one player in an odd field;
and who is sure to qualify while it goes on.

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
from games.tournaments.services.common import standings
from games.tournaments.services.errors import NotNow

STAGE = Tournament.Stage.QUALIFYING


def games_words(n: int) -> str:
    return f"{n} game{'' if n == 1 else 's'}"


def too_many_games(n: int, games: int) -> str:
    """Why a field of ``n`` cannot play ``games`` qualifying games, or "" if it can."""
    most = pairing.max_rounds(n)
    if games <= most:
        return ""
    return (
        f"A field of {n} can play at most {games_words(most)} each against a different opponent; "
        f"this event is set to {games_words(games)}. Set {most} or fewer qualifying games "
        "(in the tournament's settings), or enter more players."
    )


def drawn_in_advance(n: int, games: int) -> bool:
    """Whether ``games`` rounds for a field of ``n`` are drawn at the start (more than pairing
    round by round is sure to reach)."""
    return pairing.safe_rounds(n) < games <= pairing.max_rounds(n)


def plan_text(t: Tournament, n: int) -> str:
    """What the start will do with the qualifying, said before it is done."""
    games = t.qualifying_games
    refusal = too_many_games(n, games)
    if refusal:
        return refusal
    if drawn_in_advance(n, games):
        how = "in seed order" if t.pairing == Tournament.Pairing.STANDING else "at random"
        return (
            f"With {n} players, pairing round by round is sure of only "
            f"{games_words(pairing.safe_rounds(n))} without a rematch, so all {games_words(games)} "
            f"are drawn now from a round robin's schedule ({how}); each round opens in turn."
        )
    way = "by standing" if t.pairing == Tournament.Pairing.STANDING else "at random"
    first = "seed order" if t.pairing == Tournament.Pairing.STANDING else "a random draw"
    return (
        f"Round 1 of {games} is paired now from {first}; each later round is paired {way} "
        "when the one before is complete, never a rematch."
    )


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


def is_drawn(t: Tournament, round_no: int) -> bool:
    return Match.objects.filter(tournament=t, stage=STAGE, round_no=round_no).exists()


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


def rounds_left(t: Tournament) -> int:
    """Qualifying rounds not paired yet."""
    if t.format != Tournament.Format.ACC:
        return 0
    drawn = (
        Match.objects.filter(tournament=t, stage=STAGE).order_by("-round_no")
        .values_list("round_no", flat=True).first() or 0
    )
    return max(0, t.qualifying_games - drawn)


def qualification(t: Tournament, table: list[pairing.Standing]) -> pairing.Qualification | None:
    """Who is sure to be in the playoff and who is sure not to be, from the standings so far and the
    matches and rounds still to come (``pairing.qualification``); None for an event with no playoff."""
    if not t.has_qualifying or not table:
        return None
    count = pairing.qualifier_count(sum(1 for row in table if not row.withdrawn), t.qualifiers)
    by_id = {row.player.pk: row.player for row in table}
    # Matches not decided yet, and byes of rounds drawn ahead (credited when their round opens).
    pending = Match.objects.filter(tournament=t, stage=t.rounds_stage).exclude(
        status__in=[Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID]
    ) | Match.objects.filter(
        tournament=t, stage=Tournament.Stage.QUALIFYING, status=Match.Status.BYE,
        round_no__gt=t.current_round if t.stage == STAGE else 10_000,
    )
    remaining = [
        (by_id[a], by_id.get(b)) for a, b in pending.values_list("entrant1_id", "entrant2_id") if a in by_id
    ]
    return pairing.qualification(
        table,
        count,
        remaining=remaining,
        rounds_left=rounds_left(t),
        max_points=t.scoring.most_match_points(t.match_games),
        bye_points=t.win_points if t.format == Tournament.Format.ACC else 0,
    )


def tie_across(table: list[pairing.Standing], places: int) -> list[Entrant]:
    """The players level on every criterion across the line after ``places`` of a final table (a
    cut of the cards still to record), or none."""
    final = pairing.qualification(table, places, max_points=0)
    return sorted((p for p in final.open), key=lambda e: e.name)
