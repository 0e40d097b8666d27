"""What the director's desk offers next, each step said in words before it is taken: seed, start, pair the
next round, start the playoff, pause or resume, cancel. Read only: the steps are taken by the
services, through ``admin.desk_actions`` (the desk's forms and the changelist's shortcuts alike)."""

from __future__ import annotations

from dataclasses import dataclass

from games.tournaments import pairing, selectors
from games.tournaments.models import Match, Tournament


@dataclass(frozen=True)
class Step:
    """One thing the director can do now: ``what`` it will do, said before it is done; ``refusal``
    why it cannot be done yet (then the button is off)."""

    key: str
    label: str
    what: str
    refusal: str = ""
    danger: bool = False
    needs_reason: bool = False
    confirm: bool = False  # asked "are you sure" first: it cannot be taken back

    @property
    def enabled(self) -> bool:
        return not self.refusal


def _plural(n: int, word: str) -> str:
    """ "1 match", "2 matches", "2 bracket matches", "3 players"."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('ch', 'sh', 's', 'x')) else 's'}"


def _names(matches) -> str:
    labels = [m.label for m in matches[:4]]
    more = len(matches) - len(labels)
    return ", ".join(labels) + (f" and {more} more" if more > 0 else "")


def _bracket_text(players: int) -> str:
    size = pairing.next_power_of_two(players)
    byes = size - players
    text = f"a bracket of {size}"
    if byes:
        text += f" with {_plural(byes, 'bye')} to the top seed{'s' if byes > 1 else ''}"
    return text


def seed_steps(t: Tournament) -> list[Step]:
    """Number the seeds now, before the start (which keeps seeds already set)."""
    n = t.entrants.active().count()
    refusal = "" if n else "Nobody is entered yet."
    rated = selectors.rating_function(t) is not None
    by_rating = (
        f"Numbers the seeds of the {_plural(n, 'player')} 1 to {n} by rating, the unrated after the rated, "
        "each in registration order."
        if rated
        else "This site has no ratings yet: numbers the seeds in registration order."
    )
    return [
        Step("seed_rating", "Seed by rating", by_rating, refusal),
        Step("seed_order", "Seed in registration order",
             f"Numbers the seeds of the {_plural(n, 'player')} 1 to {n} in the order they registered.",
             refusal),
    ]


def start_step(t: Tournament) -> Step:
    seeded = selectors.seeding_order(t)
    n = len(seeded)
    refusal = "" if n >= 2 else "A tournament needs at least two players."
    clock = " Each game's turn timer starts once both its players are at the board." if t.turn_timer else ""
    seeds = (
        "numbers the seeds (the seeds you set, then by rating where the site has ratings, then in "
        "registration order)"
    )
    if t.format == Tournament.Format.KNOCKOUT:
        plan = f"draws {_bracket_text(n)} and starts the first round's games" if n >= 2 else ""
    elif t.format == Tournament.Format.ACC:
        plan = selectors.plan_text(t, n) if n >= 2 else ""
        refusal = refusal or selectors.too_many_games(n, t.qualifying_games)
    else:
        rounds = pairing.max_rounds(n)
        plan = (
            (
                f"draws the whole round robin ({_plural(rounds, 'round')}; everyone meets everyone) and "
                "opens round 1"
            )
            if n >= 2
            else ""
        )
    sentences = [f"Closes the entry list at {_plural(n, 'player')}, {seeds}."]
    if plan:
        sentences.append(f"{plan[:1].upper()}{plan[1:].rstrip('.')}.")
    if t.has_qualifying and n >= 2:
        count = pairing.qualifier_count(n, t.qualifiers)
        sentences.append(f"The top {count} then go on to a seeded playoff ({_bracket_text(count)}).")
    return Step("start", "Start the tournament", " ".join(sentences) + clock, refusal, confirm=True)


def round_steps(t: Tournament) -> list[Step]:
    """Pair the next round (or open the next one drawn) and start the playoff, in the rounds stage."""
    stage = t.stage
    undecided = list(selectors.undecided(t).filter(stage=stage, round_no__lte=t.current_round))
    drawn = selectors.last_drawn(t, stage)
    last = t.qualifying_games if stage == Tournament.Stage.QUALIFYING else drawn
    nxt = t.current_round + 1
    steps = []
    auto = " (This event pairs each round by itself as the one before completes.)" if t.auto_advance else ""
    if t.current_round < last:
        if stage == Tournament.Stage.QUALIFYING and not selectors.is_drawn(t, nxt):
            way = (
                "by standing: the leader meets the best player they have not met, and so on down"
                if t.pairing == Tournament.Pairing.STANDING
                else "at random"
            )
            active = t.entrants.active().count()
            bye = (
                " One player has the bye (a win, no spread), never a second while anyone has none."
                if active % 2
                else ""
            )
            what = (
                f"Pairs qualifying round {nxt} of {last} {way}, never a rematch, and starts its "
                f"{_plural(active // 2, 'game')}.{bye}{auto}"
            )
            refusal = (
                (
                    f"Round {t.current_round} is not complete: waiting for {_names(undecided)}. Each "
                    "round is paired from the results of the one before."
                )
                if undecided
                else ""
            )
            steps.append(Step("advance", f"Pair round {nxt}", what, refusal))
        else:
            count = Match.objects.filter(
                tournament=t, stage=stage, round_no=nxt, status=Match.Status.WAITING
            ).count()
            what = f"Opens round {nxt} of {last}: its {_plural(count, 'game')} start now."
            if undecided:
                unfinished = _names(undecided)
                what += f" Round {t.current_round}'s unfinished matches ({unfinished}) go on and still count."
            steps.append(Step("advance", f"Open round {nxt}", what + auto))
    if t.has_qualifying:
        steps.append(playoff_step(t, undecided, last))
    return steps


def playoff_step(t: Tournament, undecided: list[Match], last: int) -> Step:
    table = selectors.standings(t)
    active = [row for row in table if not row.withdrawn]
    count = pairing.qualifier_count(len(active), t.qualifiers)
    early = t.current_round < last
    what = (
        f"Ends the qualifying after round {t.current_round}"
        + (f" of {last}: the rounds still to come are not played" if early else "")
        + f". Ranks the players by points, then {t.tie_break_text()}, and seeds the top {count} into "
        f"{_bracket_text(count)}; its first matches start "
        + ("now." if t.auto_advance else "when you pair them.")
    )
    refusal = ""
    if t.current_round == 0:
        refusal = "No qualifying round has been played yet."
    elif undecided:
        refusal = f"Round {t.current_round} is not complete: waiting for {_names(undecided)}."
    elif len(active) > count and (tied := selectors.tie_across(table, count)):
        refusal = (
            f"{', '.join(e.name for e in tied)} are level on every tie-break across the playoff line: "
            "record their cut of the cards below first."
        )
    return Step("playoff", "Start the playoff", what, refusal)


def knockout_step(t: Tournament) -> Step:
    ready = list(selectors.ready_knockout_matches(t))
    what = (
        f"Starts the {_plural(len(ready), 'bracket match')} whose players are known now: {_names(ready)}."
        if ready
        else "Starts each bracket match as soon as its players are known."
    )
    refusal = "" if ready else "No bracket match is waiting to start: " + selectors.waiting_text(t) + "."
    return Step("advance", "Start the ready matches", what, refusal)


def steps(t: Tournament) -> list[Step]:
    """Everything the director can do with ``t`` now, in the order a desk shows them."""
    found: list[Step] = []
    if t.status == Tournament.Status.UPCOMING:
        found += seed_steps(t)
        found.append(start_step(t))
    if t.status == Tournament.Status.RUNNING:
        if t.stage in (Tournament.Stage.ROUND_ROBIN, Tournament.Stage.QUALIFYING):
            found += round_steps(t)
        elif t.stage == Tournament.Stage.KNOCKOUT:
            found.append(knockout_step(t))
        if t.paused:
            active = Match.objects.filter(tournament=t, status=Match.Status.ACTIVE).count()
            found.append(
                Step(
                    "resume",
                    "Resume",
                    "Ends the pause: whatever fell due meanwhile (a round "
                    "to pair, the playoff) happens now, forfeits can be claimed again, and each of "
                    f"the {_plural(active, 'match')} in play gets the pause's length added to its "
                    "forfeit grace.",
                )
            )
        else:
            found.append(
                Step(
                    "pause",
                    "Pause",
                    "Holds the event: no round is paired or opened and no "
                    "playoff starts by itself, and no forfeit is claimed or applied, until you "
                    "resume. Games in play go on and count.",
                )
            )
    if t.status in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING):
        found.append(
            Step(
                "cancel",
                "Cancel the tournament",
                "Ends the event for good: nothing more is "
                "paired, and games in play go on but no longer count. Players see your reason.",
                danger=True,
                needs_reason=True,
            )
        )
    return found
