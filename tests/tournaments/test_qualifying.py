"""The ACC's format through the services: N qualifying games against different opponents, paired a
round at a time (or drawn at the start when round by round cannot be sure of N), byes, the event's
tie-breaks with a cut of the cards, qualifiers marked only once sure, the pause, the playoff."""

from __future__ import annotations

import random

import pytest

from games.tournaments import selectors, services
from games.tournaments.models import Entrant, Match, Notice, Tournament
from tests.play.factories import fixed_secrets

from .helpers import active_matches, make_players, make_tournament, refresh, said

pytestmark = pytest.mark.django_db

Q = Tournament.Stage.QUALIFYING


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "qualifying")


def acc(n: int, games: int = 3, prefix: str = "p", **fields) -> Tournament:
    fields.setdefault("name", "Grass Roots")
    players = make_players(n, prefix)
    return make_tournament(players, format=Tournament.Format.ACC, qualifying_games=games, **fields)


def enter_round(t: Tournament, rng: random.Random, *, winner=None) -> int:
    """Every undecided match of the current round gets a result from the desk's score sheet: a
    random winner (or ``winner(match)``) and a loser's score drawn so that skunks happen."""
    t = refresh(t)
    matches = [m for m in active_matches(t) if m.round_no == t.current_round and m.stage == t.stage]
    entries = []
    for m in matches:
        first_wins = rng.random() < 0.5 if winner is None else winner(m) == m.entrant1_id
        need = m.match_games // 2 + 1
        games = []
        for g in range(need):
            loser = rng.choice([rng.randint(45, 60), rng.randint(61, 90), rng.randint(91, 120)])
            if g == 0 and need > 1 and rng.random() < 0.5:  # the loser of the match takes a game
                games.append((loser, 121) if first_wins else (121, loser))
            games.append((121, loser) if first_wins else (loser, 121))
        scores = ", ".join(f"{a}-{b}" for a, b in games)
        entries.append(services.Entry(m.pk, m.entrant1_id if first_wins else m.entrant2_id, scores=scores))
    if entries:
        services.round_set_results(tournament_id=t.pk, entries=entries)
    return len(entries)


def pairs_of(t: Tournament, stage: str = Q) -> list[tuple[int, int | None]]:
    return list(Match.objects.filter(tournament=t, stage=stage).values_list("entrant1_id", "entrant2_id"))


def test_the_start_refuses_more_games_than_the_field_can_play_and_says_the_numbers() -> None:
    t = acc(5, games=6)
    with pytest.raises(services.NotNow) as refused:
        services.tournament_start(tournament_id=t.pk)
    assert "A field of 5 can play at most 5 games each against a different opponent" in refused.value.message
    assert "set to 6 games" in refused.value.message
    t = refresh(t)
    assert t.status == Tournament.Status.UPCOMING and not Match.objects.filter(tournament=t).exists()
    assert not Entrant.objects.filter(tournament=t, seed__isnull=False).exists()  # nothing changed


def test_rounds_are_paired_one_at_a_time_without_a_rematch_and_the_bye_goes_round() -> None:
    t = acc(7, games=4)  # safe_rounds(7) == 4: paired round by round
    services.tournament_start(tournament_id=t.pk)
    t = refresh(t)
    assert (t.stage, t.current_round) == (Q, 1)
    assert not Match.objects.filter(tournament=t, round_no=2).exists()  # not drawn ahead
    rng = random.Random(5)
    for _ in range(4):
        enter_round(t, rng)
    t = refresh(t)
    assert t.stage == Tournament.Stage.KNOCKOUT  # qualifying over, the playoff drawn
    met = [frozenset(p) for p in pairs_of(t) if p[1] is not None]
    assert len(met) == len(set(met)) == 12  # 4 rounds of 3 games, no rematch
    byes = [a for a, b in pairs_of(t) if b is None]
    assert len(byes) == len(set(byes)) == 4  # a bye each round, never twice to one player
    table = selectors.standings(t, Q)
    for row in table:
        assert row.played + row.byes == 4
    bye_row = next(row for row in table if row.byes)
    assert bye_row.match_wins >= 1 and bye_row.points >= 2  # a bye counts as a win
    assert said(t, "has the bye") == 4


def test_pairing_by_standing_puts_the_leaders_together() -> None:
    t = acc(8, games=3)
    services.tournament_start(tournament_id=t.pk)
    seeds = {e.pk: e.seed for e in Entrant.objects.filter(tournament=t)}
    # The better seed wins every round-one game: the four winners meet each other in round two.
    enter_round(t, random.Random(1), winner=lambda m: min((m.entrant1_id, m.entrant2_id), key=seeds.get))
    winners = {m.winner_id for m in Match.objects.filter(tournament=t, round_no=1)}
    second = Match.objects.filter(tournament=t, round_no=2)
    assert second.count() == 4
    top_tables = second.order_by("slot")[:2]
    assert {m.entrant1_id for m in top_tables} | {m.entrant2_id for m in top_tables} == winners


def test_a_field_too_small_to_pair_round_by_round_has_its_rounds_drawn_at_the_start() -> None:
    t = acc(8, games=6)  # safe 4 < 6 <= max 7
    text = selectors.plan_text(t, 8)
    assert "pairing round by round is sure of only 4 games" in text and "drawn now" in text
    services.tournament_start(tournament_id=t.pk)
    assert Match.objects.filter(tournament=t, stage=Q).count() == 6 * 4
    rng = random.Random(2)
    for _ in range(6):
        enter_round(t, rng)
    met = [frozenset(p) for p in pairs_of(t)]
    assert len(met) == len(set(met)) == 24
    assert refresh(t).stage == Tournament.Stage.KNOCKOUT


def test_game_scores_give_skunks_and_spread_and_the_tie_breaks_are_the_directors() -> None:
    t = acc(4, games=1, tie_breaks="spread,games_won,cut")
    services.tournament_start(tournament_id=t.pk)
    first, second = sorted(active_matches(t), key=lambda m: m.slot)
    services.round_set_results(
        tournament_id=t.pk,
        entries=[
            services.Entry(first.pk, first.entrant1_id, scores="121-85"),  # a skunk: 3 points, spread 36
            services.Entry(second.pk, second.entrant2_id, scores="100-121"),  # 2 points, spread 21
        ],
    )
    first, second = refresh(first), refresh(second)
    assert (first.points1, first.points2, first.spread, first.game_scores) == (3, 0, 36, "121-85")
    assert (second.points1, second.points2, second.spread) == (0, 2, -21)
    table = selectors.standings(t, Q)
    assert [row.player.pk for row in table][:2] == [first.entrant1_id, second.entrant2_id]
    assert t.criteria() == ("points", "spread", "games_won", "cut")
    assert refresh(t).tie_break_text() == (
        "point spread, then games won, then a cut of the cards (low card ranks first)"
    )


def test_a_tie_across_the_playoff_line_waits_for_the_directors_cut() -> None:
    td = make_players(1, "td")[0]
    # Two of four qualify and two win alike: level on everything, but both inside the line.
    t = acc(4, games=1, qualifiers=2)
    services.tournament_start(tournament_id=t.pk)
    services.round_set_results(
        tournament_id=t.pk,
        entries=[services.Entry(m.pk, m.entrant1_id, scores="121-100") for m in active_matches(t)],
    )
    assert refresh(t).stage == Tournament.Stage.KNOCKOUT
    # Three of six win alike for two places: the playoff waits for their cut of the cards.
    t = acc(6, games=1, prefix="s", qualifiers=2)
    services.tournament_start(tournament_id=t.pk)
    level = sorted(active_matches(t), key=lambda m: m.slot)
    services.round_set_results(
        tournament_id=t.pk, entries=[services.Entry(m.pk, m.entrant1_id, scores="121-100") for m in level]
    )
    t = refresh(t)
    assert t.stage == Q and t.status == Tournament.Status.RUNNING
    assert selectors.tie_across(selectors.standings(t), 2) == sorted(
        (m.entrant1 for m in level), key=lambda e: e.name
    )
    assert said(t, "records a cut of the cards") == 1
    with pytest.raises(services.NotNow, match="cut of the cards"):
        services.tournament_start_playoff(tournament_id=t.pk)
    with pytest.raises(services.TournamentError, match="not a card"):
        services.entrants_record_cut(tournament_id=t.pk, cards={level[0].entrant1_id: "Z"}, by=td)
    cards = {m.entrant1_id: card for m, card in zip(level, ("9", "3", "K"), strict=True)}
    services.entrants_record_cut(tournament_id=t.pk, cards=cards, by=td)
    t = refresh(t)
    assert t.stage == Tournament.Stage.KNOCKOUT
    seeded = dict(
        Entrant.objects.filter(tournament=t, qualifying_rank__isnull=False).values_list(
            "qualifying_rank", "pk"
        )
    )
    assert seeded == {1: level[1].entrant1_id, 2: level[0].entrant1_id}  # the 3 and the 9; the king is out


def test_qualifiers_are_marked_only_once_sure() -> None:
    t = acc(8, games=3, qualifiers=2)
    services.tournament_start(tournament_id=t.pk)
    t = refresh(t)
    assert not selectors.qualification(t, selectors.standings(t)).qualified
    seeds = {e.pk: e.seed for e in Entrant.objects.filter(tournament=t)}
    better = lambda m: min((m.entrant1_id, m.entrant2_id), key=seeds.get)  # noqa: E731
    enter_round(t, random.Random(3), winner=better)
    enter_round(t, random.Random(3), winner=better)
    t = refresh(t)
    found = selectors.qualification(t, selectors.standings(t))
    # Two rounds of three: the two players on 4+ points with one round left are not yet sure.
    assert not found.settled
    eliminated = found.eliminated
    assert eliminated and all(row.points == 0 for row in selectors.standings(t) if row.player in eliminated)


def test_the_director_pauses_and_nothing_starts_by_itself_until_the_resume() -> None:
    t = acc(4, games=2)
    services.tournament_start(tournament_id=t.pk)
    services.tournament_pause(tournament_id=t.pk, reason="Lunch")
    with pytest.raises(services.NotNow, match="already paused"):
        services.tournament_pause(tournament_id=t.pk)
    m = active_matches(t)[0]
    with pytest.raises(services.NotNow, match="paused"):
        services.match_claim_forfeit(user=m.entrant1.user, match_id=m.pk)
    enter_round(t, random.Random(4))
    t = refresh(t)
    assert t.current_round == 1 and not Match.objects.filter(tournament=t, round_no=2).exists()
    services.tournament_resume(tournament_id=t.pk)
    t = refresh(t)
    assert t.current_round == 2 and not t.paused
    assert Notice.objects.filter(tournament=t, kind=Notice.Kind.PAUSE).count() == 2


def test_the_director_pairs_the_next_round_only_once_the_round_is_complete() -> None:
    t = acc(6, games=3, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    with pytest.raises(services.NotNow, match="paired from the results of the one before"):
        services.tournament_advance(tournament_id=t.pk)
    enter_round(t, random.Random(6))
    assert refresh(t).current_round == 1  # no auto-advance: it waits for the director
    services.tournament_advance(tournament_id=t.pk)
    assert refresh(t).current_round == 2


def test_the_director_ends_the_qualifying_early() -> None:
    t = acc(8, games=5, qualifiers=4)
    services.tournament_start(tournament_id=t.pk)
    with pytest.raises(services.NotNow, match="not over"):
        services.tournament_start_playoff(tournament_id=t.pk)
    seeds = {e.pk: e.seed for e in Entrant.objects.filter(tournament=t)}
    enter_round(t, random.Random(7), winner=lambda m: min((m.entrant1_id, m.entrant2_id), key=seeds.get))
    t = refresh(t)
    t.auto_advance = False
    t.save(update_fields=["auto_advance"])
    # Round 2 is open already (it paired itself); play it, then stop after it.
    enter_round(t, random.Random(8), winner=lambda m: min((m.entrant1_id, m.entrant2_id), key=seeds.get))
    services.tournament_start_playoff(tournament_id=t.pk)
    t = refresh(t)
    assert t.stage == Tournament.Stage.KNOCKOUT and t.qualifying_games == 2
    assert said(t, "ended the qualifying after round 2 of 5")
    assert Entrant.objects.filter(tournament=t, qualifying_rank__isnull=False).count() == 4


def test_a_withdrawal_leaves_the_player_out_of_later_rounds() -> None:
    t = acc(6, games=3)
    services.tournament_start(tournament_id=t.pk)
    gone = Entrant.objects.get(tournament=t, seed=6)
    services.entrant_withdraw(entrant_id=gone.pk, reason="Called away")
    enter_round(t, random.Random(9))
    later = Match.objects.filter(tournament=t, round_no=2)
    assert later.count() == 3  # five left: two games and a bye
    assert not (later.filter(entrant1=gone) | later.filter(entrant2=gone)).exists()


def test_manual_counting_muggins_and_the_stink_hole_reach_every_game_and_the_page() -> None:
    from django.test import Client

    from games.play.models import Game

    t = acc(4, games=2, manual_counting=True, muggins=True, peg_out_zone=1)
    services.tournament_start(tournament_id=t.pk)
    for m in active_matches(t):
        game = Game.objects.get(pk=m.game_id)
        assert (game.manual_counting, game.muggins, game.peg_out_zone) == (True, True, 1)
        assert game.house_rules.muggins and game.house_rules.peg_out_zone == 1
    page = Client().get(t.get_absolute_url()).content.decode()
    assert "121 points, stink hole, manual counting with muggins" in page
