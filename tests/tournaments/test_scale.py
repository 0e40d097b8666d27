"""A club's ACC event at full size, through the desk's services: 64 entrants, 9 qualifying games
each against a different opponent, the top 16 into a seeded best-of-3 knockout, to a champion.
Results come from the desk's score sheets (game scores, so skunks and spreads are real)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

from games.engine.rules import HouseRules
from games.engine.working_copy import skunk_level
from games.tournaments import pairing, selectors, services
from games.tournaments.models import Entrant, Match, Tournament
from tests.play.factories import fixed_secrets

from .helpers import make_players, make_tournament, refresh
from .test_qualifying import enter_round

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

KO = Tournament.Stage.KNOCKOUT
Q = Tournament.Stage.QUALIFYING


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "scale")


def _acc_points(scores: str) -> tuple[list[int], list[int], list[int], int]:
    """Games, points and spread of a match from its game scores, counted here by hand (ACC: a win
    2, a skunk 3, a double skunk 3; the spread is 121 less the loser's score)."""
    rules = HouseRules()
    games, points, spread = [0, 0], [0, 0], 0
    for part in scores.split(","):
        a, b = (int(x) for x in part.split("-"))
        winner, loser = (0, b) if a > b else (1, a)
        games[winner] += 1
        points[winner] += {0: 2, 1: 3, 2: 3}[skunk_level(rules, loser)]
        spread += (121 - loser) * (1 if winner == 0 else -1)
    return games, points, [spread, -spread], winner


def test_sixty_four_players_nine_games_then_the_top_sixteen_to_a_champion() -> None:
    players = make_players(64)
    t = make_tournament(
        players,
        name="Grass Roots 64",
        format=Tournament.Format.ACC,
        qualifying_games=9,
        qualifiers=16,
        match_games=1,
        playoff_match_games=3,
    )
    services.tournament_start(tournament_id=t.pk)
    rng = random.Random(64)
    for round_no in range(1, 10):
        assert refresh(t).current_round == round_no
        assert enter_round(t, rng) == 32
    t = refresh(t)
    if t.stage == Q:  # a tie on everything across the line: the director cuts the cards for it
        tied = selectors.tie_across(selectors.standings(t), 16)
        services.entrants_record_cut(tournament_id=t.pk, cards={e.pk: str(i + 1) for i, e in enumerate(tied)})
        t = refresh(t)
    assert t.stage == KO

    # Qualifying: nine games each, nobody met twice, no byes in an even field.
    q = list(Match.objects.filter(tournament=t, stage=Q))
    assert len(q) == 9 * 32 and all(m.status == Match.Status.FINISHED for m in q)
    met = Counter(frozenset((m.entrant1_id, m.entrant2_id)) for m in q)
    assert max(met.values()) == 1
    played = Counter(e for m in q for e in (m.entrant1_id, m.entrant2_id))
    assert set(played.values()) == {9}

    # ACC scoring, counted by hand from the score sheets, is what the standings say.
    mine = defaultdict(lambda: {"points": 0, "games": 0, "spread": 0})
    beat = Counter()
    for m in q:
        games, points, spread, winner = _acc_points(m.game_scores)
        for side, e in enumerate((m.entrant1_id, m.entrant2_id)):
            mine[e]["points"] += points[side]
            mine[e]["games"] += games[side]
            mine[e]["spread"] += spread[side]
        beat[(m.winner_id, m.entrant2_id if m.winner_id == m.entrant1_id else m.entrant1_id)] += 1
    table = selectors.standings(t, Q)
    for row in table:
        line = mine[row.player.pk]
        assert (row.points, row.games_won, row.spread) == (line["points"], line["games"], line["spread"])
    assert any(row.points % 2 for row in table)  # skunks were scored

    # The tie-breaks (ACC: points, games won, spread, head-to-head, cut): the table never goes up.
    def key(row):
        return (-row.points, -row.games_won, -row.spread)

    for above, below in zip(table, table[1:], strict=False):
        assert key(above) <= key(below)
        if key(above) == key(below) and above.rank < below.rank:
            pair = (above.player.pk, below.player.pk)
            assert beat[pair] > beat[pair[::-1]] or above.player.cut_card  # head-to-head or a cut

    # The playoff: the top 16 by qualifying rank, seeded 1 v 16, 8 v 9, ... in bracket order.
    qualified = Entrant.objects.filter(tournament=t, qualifying_rank__isnull=False)
    seeds = {e.pk: e.qualifying_rank for e in qualified}
    assert sorted(seeds.values()) == list(range(1, 17))
    assert [seeds[row.player.pk] for row in table[:16]] == list(range(1, 17))
    first = list(Match.objects.filter(tournament=t, stage=KO, round_no=1).order_by("slot"))
    order = [seeds[e] for m in first for e in (m.entrant1_id, m.entrant2_id)]
    assert order == pairing.bracket_order(16)
    assert Match.objects.filter(tournament=t, stage=KO).count() == 15

    # The knockout, best of three, to a champion.
    for _ in range(4):
        assert enter_round(t, rng) > 0
    t = refresh(t)
    final = Match.objects.get(tournament=t, stage=KO, round_no=4)
    assert t.status == Tournament.Status.FINISHED and t.champion_id == final.winner.user_id
    for m in Match.objects.filter(tournament=t, stage=KO):
        assert max(m.games1, m.games2) == 2 and m.game_scores
    winners = {m.winner_id for m in Match.objects.filter(tournament=t, stage=KO, round_no=3)}
    assert {final.entrant1_id, final.entrant2_id} == winners
