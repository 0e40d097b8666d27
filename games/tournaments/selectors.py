"""Reads of a tournament that the services, the desk and the pages share: the seeding order, the
standings, what a stage waits for, who is sure of a playoff place, and what the qualifying's draw
will do. Nothing here writes."""

from __future__ import annotations

from collections.abc import Callable

from games.play import registry
from games.tournaments import naming, pairing
from games.tournaments.models import Entrant, Match, Tournament

DECIDED = (Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID)
QUALIFYING = Tournament.Stage.QUALIFYING


def games_to_win(match_games: int) -> int:
    """
    >>> games_to_win(1), games_to_win(3), games_to_win(5)
    (1, 2, 3)
    """
    return match_games // 2 + 1


def rating_function(t: Tournament) -> Callable | None:
    """``rate(user)``: a player's rating in games of ``t``'s length, if the site rates players
    (``games.play.registry.register_rating``), else None (seeding then falls back to registration
    order)."""
    return registry.rating_for(t.target)


def seeding_order(t: Tournament) -> list[Entrant]:
    """Active entrants best seed first: seeds set by hand, then by rating if the site has ratings,
    then in registration order."""
    entrants = list(t.entrants.active().select_related("user"))
    rate = rating_function(t)

    def rating(e: Entrant) -> float:
        if rate is None:
            return 0.0
        value = rate(e.user)
        return -float(value) if value is not None else float("inf")

    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, rating(e), e.registered_at, e.pk))


def undecided(t: Tournament):
    """``t``'s matches still to be decided (waiting or in play), with their players."""
    return (
        Match.objects.filter(tournament=t)
        .exclude(status__in=DECIDED)
        .select_related("entrant1__user", "entrant2__user")
    )


def started_count(t: Tournament) -> int:
    return Match.objects.filter(tournament=t).exclude(status=Match.Status.WAITING).count()


def waiting_text(t: Tournament) -> str:
    """What the stage waits for: the matches in play; a bracket match whose players are not known
    yet waits for them, and is no more than counted."""
    waiting = list(undecided(t).filter(stage=t.stage))
    playing = [m.label for m in waiting if m.status == Match.Status.ACTIVE]
    later = sum(1 for m in waiting if m.status != Match.Status.ACTIVE)
    parts = [f"waiting for {', '.join(playing)} to finish"] if playing else []
    if later:
        parts.append(f"{later} later match{'es' if later > 1 else ''} cannot start until "
                     f"{'their' if later > 1 else 'its'} players are known")
    return "; ".join(parts) or "no match is waiting to start"


def stage_name(t: Tournament) -> str:
    """Where the event stands, inside a sentence: "qualifying round 3 of 9", "finished"."""
    if t.status == Tournament.Status.FINISHED:
        return "finished"
    return naming.lower_first(t.round_name(t.stage, t.current_round))


def last_drawn(t: Tournament, stage: str) -> int:
    """The last round of ``stage`` with matches that count (0 before the draw)."""
    return (
        Match.objects.filter(tournament=t, stage=stage).exclude(status=Match.Status.VOID)
        .order_by("-round_no").values_list("round_no", flat=True).first() or 0
    )


def rounds_complete(t: Tournament) -> int:
    """The last round before any bracket with every result in, and every round before it (0 before
    any): what standings are "after". A round paired but still in play does not count yet."""
    rounds = Match.objects.filter(tournament=t, stage=t.rounds_stage).values_list("round_no", "status")
    still_open = {r for r, status in rounds if status not in DECIDED}
    done = 0
    for round_no in sorted({r for r, _ in rounds}):
        if round_no in still_open:
            break
        done = round_no
    return done


def ready_knockout_matches(t: Tournament):
    """The bracket matches whose two players are known and whose game is not made yet."""
    return Match.objects.filter(
        tournament=t, stage=Tournament.Stage.KNOCKOUT, status=Match.Status.WAITING,
        entrant1__isnull=False, entrant2__isnull=False, game__isnull=True,
    ).select_related("entrant1__user", "entrant2__user")


def standings(t: Tournament, stage: str | None = None) -> list[pairing.Standing]:
    """The table of the rounds before any bracket (``stage``: the event's ``rounds_stage``), ordered
    by the event's criteria (``Tournament.criteria``); ``Standing.player`` is the Entrant. A bye in
    qualifying games counts as a plain win without spread; a round robin's byes (one each) count
    for nothing."""
    stage = stage or t.rounds_stage
    entrants = list(t.entrants.select_related("user"))
    by_id = {e.pk: e for e in entrants}
    in_stage = set()
    rows = list(
        Match.objects.filter(tournament=t, stage=stage).values_list(
            "entrant1_id", "entrant2_id", "status", "winner_id", "games1", "games2", "points1", "points2",
            "spread", "round_no",
        )
    )
    for row in rows:
        in_stage.update(row[:2])
    # Before the draw: everyone entered; after it, whoever the schedule holds (withdrawn or not).
    players = (
        [e for e in entrants if e.pk in in_stage] if in_stage else [e for e in entrants if not e.withdrawn]
    )
    results = [
        pairing.MatchResult(by_id[a], by_id[b], by_id.get(w), g1, g2, p1, p2, spread)
        for a, b, status, w, g1, g2, p1, p2, spread, _ in rows
        if status == Match.Status.FINISHED and b is not None
    ]
    # A bye counts once its round has begun (a schedule drawn in advance holds later ones).
    opened = t.current_round if t.stage == stage else 10_000
    byes = (
        [by_id[row[0]] for row in rows
         if row[2] == Match.Status.BYE and row[1] is None and row[-1] <= opened]
        if stage == QUALIFYING
        else []
    )
    order = {e: (e.seed or 10_000, e.registered_at.timestamp(), e.pk) for e in players}
    ranked = {e: i for i, e in enumerate(sorted(players, key=lambda e: order[e]))}
    cut = {e: e.cut_card for e in players if e.cut_card and is_card(e.cut_card)}
    return pairing.standings(
        players, results, order=ranked, withdrawn=[e for e in players if e.withdrawn], byes=byes,
        bye=pairing.ByeCredit.win(t.scoring), criteria=t.criteria(), cut=cut,
    )


def is_card(text: str) -> bool:
    """
    >>> is_card("10"), is_card("K"), is_card("11")
    (True, True, False)
    """
    try:
        pairing.card_rank(text)
    except ValueError:
        return False
    return True


# --- the qualifying -------------------------------------------------------------------------------


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


def is_drawn(t: Tournament, round_no: int) -> bool:
    return Match.objects.filter(tournament=t, stage=QUALIFYING, round_no=round_no).exists()


def rounds_left(t: Tournament) -> int:
    """Qualifying rounds not paired yet."""
    if t.format != Tournament.Format.ACC:
        return 0
    drawn = (
        Match.objects.filter(tournament=t, stage=QUALIFYING).order_by("-round_no")
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
        status__in=DECIDED
    ) | Match.objects.filter(
        tournament=t, stage=QUALIFYING, status=Match.Status.BYE,
        round_no__gt=t.current_round if t.stage == QUALIFYING else 10_000,
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


def cut_tie(t: Tournament, table: list[pairing.Standing]) -> list[Entrant]:
    """Once the rounds before any bracket are all decided: the players level on everything across
    the playoff line (or for first place), whose cut of the cards is still to be recorded."""
    active = [row for row in table if not row.withdrawn]
    places = pairing.qualifier_count(len(active), t.qualifiers) if t.has_qualifying else 1
    return tie_across(table, places) if len(active) > places else []
