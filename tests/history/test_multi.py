"""Tables of three and four: round summaries, per-seat rows, the record, the replay, statistics,
downloads, filters and the browser's deal check all cover every seat; ratings stay two-player.

Games are made only through the services (``game_create_table`` / ``game_accept``), the people
playing random legal moves against easy computers.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections import defaultdict
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.template import Context, Template

from games.engine.actions import action_from_dict
from games.engine.cards import parse_card, parse_cards
from games.engine.deck import commitment, deal_seed, shuffle
from games.engine.game import GameState, apply, new_game
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.engine.view import view
from games.history.models import PlayerGame, Rating, RatingChange
from games.history.ratings import is_rated, rate_game, rebuild_ratings
from games.history.replay import replay_steps
from games.history.stats import player_stats
from games.play import services
from games.play.models import Game, Move, Round
from tests.history.helpers import play_table, resign_after, whole_record
from tests.play.factories import play_out

pytestmark = pytest.mark.django_db

EASY = {"kind": "computer", "level": "easy"}
PEGGING = {"fifteen", "thirty_one", "pair", "run", "go", "last_card"}


@pytest.fixture
def three(alice):
    """Alice and two easy computers, 61 points; with the live snapshot after every move."""
    return play_table(alice, [EASY, EASY], rules=HouseRules(players=3, target=61), seed=3)


@pytest.fixture
def four(alice, bob, carol):
    """Alice (seat 0) and carol (seat 2, invited: her partner) against bob (seat 1, took the open
    seat) and an easy computer (seat 3), 61 points: two people take their seats with game_accept."""
    seats = [{"kind": "open"}, {"kind": "invite", "user": carol}, EASY]
    return play_table(alice, seats, rules=HouseRules(players=4, target=61), seed=4,
                      accept=((bob, 1), (carol, 2)))


def _deal_ends(game: Game) -> dict[tuple[int, int], GameState]:
    """The engine's last state of every deal, replaying the log here (not with the history code)."""
    state = new_game(game.house_rules, bytes.fromhex(game.secret))
    ends = {}
    for move in Move.objects.filter(game=game).order_by("seq"):
        state, events = apply(state, action_from_dict(move.action))
        assert [e.to_dict() for e in events] == move.events
        if state.deck:
            ends[(state.game_no, state.deal_no)] = state
    return ends


def _check_deal(game: Game, rnd: Round, end: GameState) -> None:
    s = rnd.summary
    n = game.players
    sides, size = (2 if n == 4 else n), (6 if n == 2 else 5)
    teams = [list(range(side, n, sides)) for side in range(sides)]
    assert (s["players"], s["teams"], s["dealer"]) == (n, teams, rnd.dealer)
    assert s["pone"] == (s["dealer"] + 1) % n
    # As dealt: one card at a time from the seed's deck, starting left of the dealer; with three
    # players the next card to the crib; the starter after those.
    seed = deal_seed(bytes.fromhex(game.secret), rnd.game_no, rnd.deal_no)
    assert commitment(seed) == rnd.commitment
    deck = [str(c) for c in shuffle(seed)]
    assert [len(h) for h in s["hands"]] == [size] * n
    for i in range(n * size):
        assert deck[i] in s["hands"][(s["dealer"] + 1 + i) % n]
    assert s["crib_card"] == (deck[15] if n == 3 else None)
    if s["starter"]:
        assert s["starter"] == deck[16 if n == 3 else n * size]
        for seat in range(n):
            assert len(s["discards"][seat]) == (2 if n == 2 else 1)
            assert sorted(s["kept"][seat] + s["discards"][seat]) == sorted(s["hands"][seat])
        laid = [c for d in s["discards"] for c in d] + ([s["crib_card"]] if n == 3 else [])
        assert sorted(s["crib"]) == sorted(laid) and len(s["crib"]) == 4
    # The same as the engine's own state at the end of the deal.
    assert s["hands"] == [[str(c) for c in h] for h in end.hands_dealt]
    assert s["scores_after"] == list(end.scores) and len(s["scores_after"]) == sides
    plays = [(line["seat"], line["card"]) for line in s["pegging"] if line["kind"] == "play"]
    assert plays == [(seat, str(card)) for seat, card in end.plays]
    for seat, card in plays:
        assert card in s["kept"][seat]
    assert [(e["seat"], e["kind"], e["cards"]) for e in s["show"]] == [
        (e.seat, e.kind, [str(c) for c in e.cards]) for e in end.show]
    # Every show: the hands clockwise from the dealer's left, then the dealer's crib; each total is
    # the scoring of those cards and its breakdown adds up.
    order = [(s["dealer"] + k) % n for k in range(1, n + 1)] + [s["dealer"]]
    assert [e["seat"] for e in s["show"]] == order[: len(s["show"])]
    if s["complete"]:
        assert [e["kind"] for e in s["show"]] == ["hand"] * n + ["crib"]
    for entry in s["show"]:
        if entry["status"] == "skipped":
            continue
        crib = entry["kind"] == "crib"
        total = score_hand(parse_cards(entry["cards"]), parse_card(entry["starter"]), crib=crib)
        assert entry["total"] == total.total == sum(g["points"] for g in entry["groups"])
    # Points are the seat's (who laid the card, counted the hand); scores the side's.
    for side, seats in enumerate(teams):
        made = sum(sum(s["points"][seat].values()) for seat in seats)
        assert s["scores_before"][side] + made == s["scores_after"][side]
    assert (s["timeline"][-1] if s["timeline"] else s["scores_before"]) == s["scores_after"]


def _check_summaries(game: Game) -> list[Round]:
    rounds = list(Round.objects.filter(game=game))
    ends = _deal_ends(game)
    assert rounds and [(r.game_no, r.deal_no) for r in rounds] == sorted(ends)
    for rnd in rounds:
        _check_deal(game, rnd, ends[(rnd.game_no, rnd.deal_no)])
    assert rounds[-1].summary["scores_after"] == game.result["scores"]
    assert rounds[-1].summary["won_by"] == game.winner_seat
    assert all(r.summary["complete"] for r in rounds[:-1])
    return rounds


# --- summaries and rows -------------------------------------------------------------------------


def test_a_three_player_game_is_summarised_seat_by_seat(three, alice):
    game, _ = three
    assert game.status == Game.Status.FINISHED and game.players == 3 and game.vs_computer
    _check_summaries(game)
    rows = {r.seat: r for r in PlayerGame.objects.filter(game=game)}
    final = game.result["scores"]
    result = game.result["games"][0]
    assert sorted(rows) == [0, 1, 2] and rows[0].user == alice and rows[1].user is rows[2].user is None
    for seat, row in rows.items():
        assert row.players == 3 and row.opponent is None and row.partner is None and row.partner_name == ""
        assert row.result == ("win" if seat == game.winner_seat else "loss")
        assert row.score == final[seat]
        assert row.opponent_score == max(s for i, s in enumerate(final) if i != seat)
        assert row.margin == min(row.score, 61) - min(row.opponent_score, 61)  # the spread from the hole
        assert row.skunks_taken == (result["skunks"][seat] >= 1)
        assert row.skunks_given == (seat == game.winner_seat and result["skunk"] >= 1)
        assert row.replayed and row.deals == Round.objects.filter(game=game).count()
    # Computers of one level are numbered so the record can tell them apart.
    assert rows[0].opponent_name == "Computer 1 (easy) and Computer 2 (easy)"
    assert rows[1].opponent_name == "alice and Computer 2 (easy)"
    shown = [min(s, game.target) for s in final]  # the winner stands in the game hole
    assert rows[0].score_line == "–".join(str(shown[(0 + k) % 3]) for k in range(3))
    assert rows[2].score_line == "–".join(str(shown[(2 + k) % 3]) for k in range(3))
    assert sum(r.won for r in rows.values()) == 1


def test_a_four_player_game_has_partners_sharing_a_result(four, alice, bob, carol):
    game, _ = four
    assert game.players == 4 and not game.vs_computer and game.winner_seat in (0, 1)
    _check_summaries(game)
    rows = {r.seat: r for r in PlayerGame.objects.filter(game=game)}
    final = game.result["scores"]
    shown = [min(s, game.target) for s in final]  # the winner stands in the game hole
    assert [rows[i].user for i in range(4)] == [alice, bob, carol, None]
    assert (rows[0].partner, rows[0].partner_name) == (carol, "carol")
    assert (rows[2].partner, rows[2].partner_name) == (alice, "alice")
    assert (rows[1].partner, rows[3].partner_name) == (None, "bob")
    assert rows[0].opponent_name == rows[2].opponent_name == "bob & Computer (easy)"
    assert rows[1].opponent_name == "alice & carol"
    for seat, row in rows.items():
        side = seat % 2
        assert row.players == 4 and row.opponent is None
        assert row.result == ("win" if side == game.winner_seat else "loss")
        assert (row.score, row.opponent_score) == (final[side], final[1 - side])
        assert row.margin == shown[side] - shown[1 - side]
        assert row.score_line == f"{shown[side]}–{shown[1 - side]}"
    # Each partner's per-deal figures are their own points, which add up to the side's.
    deals = [r.summary for r in Round.objects.filter(game=game) if r.summary["complete"]]
    for seat, row in rows.items():
        assert row.complete_deals_dealer + row.complete_deals_pone == len(deals)
        assert row.pegging_dealer + row.pegging_pone == sum(d["points"][seat]["pegging"] for d in deals)
        assert row.crib == sum(d["points"][seat]["crib"] for d in deals)


def test_the_replay_equals_the_live_game_at_every_step(three, four):
    for game, snapshots in (three, four):
        steps = list(replay_steps(game))
        assert len(steps) == Move.objects.filter(game=game).count() == len(snapshots) - 1
        assert GameState.from_dict(snapshots[0]) == steps[0].before
        for step in steps:
            assert step.after.to_dict() == snapshots[step.number], f"game {game.pk} step {step.number}"


def test_the_rebuild_command_rebuilds_tables_the_same(three, four):
    def rows() -> list[tuple]:
        return sorted(tuple(sorted((k, str(v)) for k, v in r.items() if k != "id"))
                      for r in PlayerGame.objects.values())

    before = (list(Round.objects.order_by("pk").values_list("summary", flat=True)), rows())
    Round.objects.update(summary={})
    PlayerGame.objects.all().delete()
    call_command("history_rebuild", stdout=StringIO())
    assert (list(Round.objects.order_by("pk").values_list("summary", flat=True)), rows()) == before


# --- pages ---------------------------------------------------------------------------------------


def _seats_shown(html: str) -> list[int]:
    pattern = r'class="seat seat--opponent seat--side-\d+[^"]*" aria-label="[^"]*" data-seat="(\d+)"'
    return [int(n) for n in re.findall(pattern, html)]


def _verify_data(html: str) -> list[dict]:
    script = html.split('<script id="verify-data" type="application/json">')[1]
    return json.loads(script.split("</script>")[0])


def test_every_seat_sees_the_record_replay_and_downloads_of_a_table_of_four(four, alice, bob, carol, client):
    game, _ = four
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    rounds = list(Round.objects.filter(game=game))
    sides = [min(s, game.target) for s in game.result["scores"]]  # the winner stands in the game hole
    for user in (alice, bob, carol):
        client.force_login(user)
        record = whole_record(client, game)
        assert "<h1>alice &amp; carol v bob &amp; Computer (easy)</h1>" in record
        assert f"alice &amp; carol {sides[0]} – bob &amp; Computer (easy) {sides[1]}" in record
        assert "chart-line--0" in record and "chart-line--1" in record and "chart-line--2" not in record
        assert "Partners' score" in record
        for rnd in rounds:
            assert f'id="deal-{rnd.game_no}-{rnd.deal_no}"' in record
            for name in ("alice", "bob", "carol", "Computer (easy)"):
                assert f'aria-label="{name} was dealt"' in record
        data = _verify_data(record)
        assert [d["players"] for d in data] == [4] * len(rounds)
        assert data[0]["hands"] == rounds[0].summary["hands"] and data[0]["crib_card"] is None
        end = client.get(f"/games/{game.pk}/replay/?step={len(moves)}").content.decode()
        mine = game.seat_of(user)  # every seat, once, the reader's own nearest them
        assert _seats_shown(end) == [*(s for s in range(4) if s != mine), mine]
        assert "with carol" in end and "with alice" in end  # partners named on the board
        assert re.search(r"(alice &amp; carol|bob &amp; Computer \(easy\)) win \d+–\d+", end)
        assert client.get(f"/games/{game.pk}/export.json").status_code == 200
        assert client.get(f"/games/{game.pk}/export.txt").status_code == 200
    # Mid-game the replay shows every hand face up and one peg track per side.
    state = new_game(game.house_rules, bytes.fromhex(game.secret))
    checked = 0
    for number, move in enumerate(moves, start=1):
        state, _ = apply(state, action_from_dict(move.action))
        if state.phase != "play" or number % 5:
            continue
        url = f"/games/{game.pk}/replay/?step={number}"
        html = client.get(url, headers={"HX-Request": "true"}).content.decode()
        for seat in range(4):
            for card in state.hands[seat]:
                assert f'data-card="{card}"' in html
        label = (f'aria-label="alice &amp; carol {state.scores[0]}, '
                 f'bob &amp; Computer (easy) {state.scores[1]}, game to 61"')
        assert label in html
        checked += 1
    assert checked


def test_the_downloads_list_every_seat(four, three, alice, client):
    client.force_login(alice)
    for game, _ in (four, three):
        n = game.players
        data = json.loads(client.get(f"/games/{game.pk}/export.json").content)
        sides = 2 if n == 4 else n
        assert [(p["seat"], p["side"]) for p in data["players"]] == [(i, i % sides) for i in range(n)]
        assert data["teams"] == ([[0, 2], [1, 3]] if n == 4 else [[0], [1], [2]])
        assert HouseRules.from_dict(data["house_rules"]).players == n
        state = new_game(HouseRules.from_dict(data["house_rules"]), bytes.fromhex(data["secret"]))
        for move in data["moves"]:
            state, _ = apply(state, action_from_dict(move["action"]))
        assert state.to_dict() == game.state
        text = client.get(f"/games/{game.pk}/export.txt").content.decode()
        first = Round.objects.filter(game=game).first().summary
        names = (["alice", "bob", "carol", "Computer (easy)"] if n == 4
                 else ["alice", "Computer 1 (easy)", "Computer 2 (easy)"])
        for seat, name in enumerate(names):
            assert f"{name}: dealt {' '.join(first['hands'][seat])}" in text
        header = "alice & carol v bob & Computer (easy)" if n == 4 else " v ".join(names)
        assert text.startswith(f"Cribbage Hall, game {game.pk}\n{header}\n")
        assert ("Crib card from the deck: " + str(first["crib_card"]) in text) == (n == 3)
        last = Round.objects.filter(game=game).last().summary
        after = zip(header.split(" v "), last["scores_after"], strict=True)
        score = ", ".join(f"{name} {min(s, game.target)}" for name, s in after)  # the game hole is the last
        assert f"Score: {score}" in text


def test_a_three_player_record_shows_the_crib_card_and_three_lines(three, alice, bob, client):
    game, _ = three
    assert client.get(f"/games/{game.pk}/record/").status_code == 404  # against the computer: private
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404
    client.force_login(alice)
    record = whole_record(client, game)
    assert "<h1>alice v Computer 1 (easy) v Computer 2 (easy)</h1>" in record
    assert all(f"chart-line--{k}" in record for k in range(3))
    first = Round.objects.filter(game=game).first().summary
    assert "Dealt straight to the crib:" in record and parse_card(first["crib_card"]).name in record
    data = _verify_data(record)
    assert data[0]["players"] == 3 and data[0]["crib_card"] == first["crib_card"]
    total = Move.objects.filter(game=game).count()
    end = client.get(f"/games/{game.pk}/replay/?step={total}").content.decode()
    assert _seats_shown(end) == [1, 2, 0] and "wins" in end  # alice's own seat nearest her
    # Just after the first deal the crib already holds the deck's card, shown and labelled.
    deal_step = next(n for n, m in enumerate(Move.objects.filter(game=game).order_by("seq"), start=1)
                     if any(e["kind"] == "deal" for e in m.events))
    html = client.get(f"/games/{game.pk}/replay/?step={deal_step}").content.decode()
    assert f"({parse_card(first['crib_card']).name} from the deck)" in html


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_browser_check_rederives_tables_of_three_and_four(three, four, alice, client):
    """verify.js (run by Node, Web Crypto built in) deals each seed as the engine did."""
    client.force_login(alice)
    deals = []
    for game, _ in (three, four):
        deals += _verify_data(whole_record(client, game))
    tampered = [dict(deals[0], crib_card=deals[0]["hands"][0][0]),
                dict(deals[-1], starter=deals[-1]["hands"][1][0])]
    script = Path(settings.BASE_DIR, "static/js/verify.js").read_text()
    runner = (
        "globalThis.window = globalThis; globalThis.document = {addEventListener() {}};\n" + script + "\n"
        "const deals = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "Promise.all(deals.map((d) => CribbageVerify.check(d))).then((r) => "
        "console.log(JSON.stringify(r.map((x) => x.ok))));\n"
    )
    out = subprocess.run(["node", "-e", runner], input=json.dumps(deals + tampered), capture_output=True,
                         text=True, check=True, timeout=60)
    assert json.loads(out.stdout) == [True] * len(deals) + [False, False]


# --- ratings, lists, statistics ----------------------------------------------------------------


def test_tables_never_touch_ratings(four, alice, bob):
    game, _ = four
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    Game.objects.filter(pk=game.pk).update(rated=True)  # even flagged rated, a table is not rated
    game.refresh_from_db()
    assert not is_rated(game) and rate_game(game) == []
    rated = resign_after(alice, bob, 0, resigner=1, rated=True)
    assert RatingChange.objects.filter(game=rated).count() == 2
    assert rebuild_ratings() == 1
    assert not RatingChange.objects.filter(game=game).exists()
    assert Rating.objects.get(user=alice, pool=121).games == 1


def test_the_leaderboard_says_tables_do_not_count(client):
    html = client.get("/leaderboard/").content.decode()
    assert "<title>Leaderboard · 121 points · Cribbage Hall</title>" in html
    assert html.count('id="how-ratings-work"') == 1 and "tables of three or four do not count" in html


def _rows_shown(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-game="(\d+)"', html)]


def test_filters_by_players_and_opponent(three, four, alice, bob, carol, client):
    table3, table4 = three[0], four[0]
    duel = resign_after(alice, bob, 0, resigner=1)
    client.force_login(alice)
    cases = {
        "": [duel, table4, table3],
        "players=2": [duel],
        "players=3": [table3],
        "players=4": [table4],
        "players=5": [duel, table4, table3],  # a bad value is ignored
        "opponent=bob": [duel, table4],  # bob sat against alice at the table of four
        "opponent=carol": [],  # carol was her partner
        "opponent=alice": [],
        "opponent=computer": [table3],
        "kind=online&players=4": [table4],
    }
    for query, expected in cases.items():
        html = client.get(f"/players/alice/games/?{query}").content.decode()
        assert _rows_shown(html) == [g.pk for g in expected], query
    html = client.get("/players/alice/games/").content.decode()
    assert "partner carol" in html and "bob &amp; Computer (easy)" in html
    assert 'name="players"' in html and "Four (partners)" in html
    final = table3.result["scores"]
    assert f'<td class="num"><span class="nowrap">{"–".join(str(s) for s in final)}</span></td>' in html
    # carol's own list: alice was her partner, bob her opponent.
    client.force_login(carol)
    assert _rows_shown(client.get("/players/carol/games/?opponent=bob").content.decode()) == [table4.pk]
    assert _rows_shown(client.get("/players/carol/games/?opponent=alice").content.decode()) == []
    # Someone else sees alice's online games only: the table of three was against the computer.
    client.force_login(bob)
    assert _rows_shown(client.get("/players/alice/games/").content.decode()) == [duel.pk, table4.pk]


def recompute(user, players: int) -> dict:
    """Table statistics straight from the logged events, without the history app's code."""
    out: dict = defaultdict(int)
    out["best_hand"] = None
    partners: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    sides = 2 if players == 4 else players
    for game in Game.objects.filter(status=Game.Status.FINISHED, players=players, seats__user=user):
        seats = {s.index: s for s in game.seats.all()}
        me = next(i for i, s in seats.items() if s.user_id == user.pk)
        deal, winner = None, None
        for move in Move.objects.filter(game=game).order_by("seq"):
            for e in move.events:
                kind, seat, points = e["kind"], e["seat"], e["points"]
                if kind == "deal":
                    deal = {"dealer": seat, "pegging": 0, "hand": 0, "crib": 0, "shows": 0}
                elif kind in PEGGING and seat == me:
                    deal["pegging"] += points
                elif kind in ("hand", "crib"):
                    if seat == me:
                        deal[kind] += points
                    if kind == "hand" and seat == me:
                        cards = parse_cards(e["cards"])
                        total = score_hand(cards[:4], cards[4]).total
                        out["best_hand"] = max(out["best_hand"] or 0, total)
                    deal["shows"] += 1
                    if deal["shows"] == players + 1:  # every hand and the crib: a complete deal
                        role = "dealer" if deal["dealer"] == me else "pone"
                        out[f"deals_{role}"] += 1
                        out[f"pegging_{role}"] += deal["pegging"]
                        out[f"hand_{role}"] += deal["hand"]
                        out["crib"] += deal["crib"]
                elif kind in ("game_won", "match_won"):
                    winner = seat  # the winning side
        out["games"] += 1
        out["wins"] += winner == me % sides
        if players == 4:
            partner = seats[(me + 2) % 4]
            partners[partner.display_name][0] += 1
            partners[partner.display_name][1] += winner == me % sides
    out["partners"] = dict(partners)
    return out


def test_statistics_have_a_section_per_table_size_and_two_player_figures_stay(three, four, alice, bob,
                                                                              carol, client):
    # alice's two-player figures before and after one more table: unchanged, the tables apart.
    resign_after(alice, bob, 40, resigner=1)
    duel_only = player_stats(alice, vs_computer=False)
    assert duel_only["games"] == 1 and duel_only["complete_deals"] >= 1
    assert [o["name"] for o in duel_only["opponents"]] == ["bob"]
    more, _ = play_table(alice, [EASY, EASY], rules=HouseRules(players=3, target=61), seed=33)
    assert player_stats(alice, vs_computer=False) == duel_only
    assert player_stats(alice, vs_computer=True)["games"] == 0
    for user, players in ((alice, 3), (alice, 4), (bob, 4), (carol, 4)):
        site, mine = player_stats(user, players=players), recompute(user, players)
        assert (site["games"], site["wins"]) == (mine["games"], mine["wins"])
        assert site["best_hand"] == mine["best_hand"]
        assert (site["complete_deals_dealer"], site["complete_deals_pone"]) == (mine["deals_dealer"],
                                                                                mine["deals_pone"])
        for key in ("pegging_dealer", "pegging_pone", "hand_dealer", "hand_pone", "crib"):
            assert site[key] == mine[key], key
        assert site["opponents"] == []  # a record against one opponent is for games of two
        assert {p["name"]: [p["games"], p["wins"]] for p in site["partners"]} == mine["partners"]
    assert player_stats(alice, players=3)["games"] == 2
    html = client.get("/players/alice/stats/").content.decode()
    assert 'id="stats-four-online"' in html and "Record with each partner" in html
    assert 'data-partner="carol"' in html and "Not dealing" in html
    # Her tables of three were against the computer: hers to see, apart from the online ones.
    assert 'id="stats-three' not in html
    client.force_login(alice)
    html = client.get("/players/alice/stats/").content.decode()
    assert 'id="stats-three-computer"' in html and 'id="stats-three-online"' not in html
    assert 'id="stats-four-online"' in html and 'id="stats-four-computer"' not in html
    # bob has no table of three: no empty section for it.
    html = client.get("/players/bob/stats/").content.decode()
    assert 'id="stats-four-online"' in html and 'id="stats-three' not in html
    assert more.players == 3
    profile = client.get("/accounts/u/alice/").content.decode()
    assert 'data-testid="table-games"' in profile


# --- the live board ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_the_board_shows_each_deals_shuffle_commitment(alice, client, players):
    game = services.game_create_table(user=alice, rules=HouseRules(players=players, target=61),
                                      seats=[EASY] * (players - 1))
    play_out(game, {0: alice}, random.Random(players), stop=lambda s: s.phase == "discard")
    rnd = Round.objects.get(game=game)
    assert (rnd.game_no, rnd.deal_no) == (0, 0)
    assert rnd.commitment == commitment(deal_seed(bytes.fromhex(game.secret), 0, 0))
    client.force_login(alice)
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-testid="commitment"' in board and rnd.commitment in board and "Deal 1 · shuffle" in board
    assert deal_seed(bytes.fromhex(game.secret), 0, 0).hex() not in board
    state = services.load_state(game)
    tag = Template("{% load cribbage %}{% deal_commitment game v %}")
    assert rnd.commitment in tag.render(Context({"game": game, "v": view(state, 1)}))
