"""Tables of three and four on the pages: every seat sees the record, the replay and the downloads,
the record of three shows the crib card and three score lines, the browser's deal check rederives
every seat's cards, and the live board shows each deal's shuffle commitment.

Games are made only through the services (``game_create_table`` / ``game_accept``), the people
playing random legal moves against easy computers (the ``three`` and ``four`` fixtures of
``tests/history/conftest.py``).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template

from games.engine.actions import action_from_dict
from games.engine.cards import parse_card
from games.engine.deck import commitment, deal_seed
from games.engine.game import apply, new_game
from games.engine.rules import HouseRules
from games.engine.view import view
from games.play import services
from games.play.models import Move, Round
from tests.history.helpers import EASY, whole_record
from tests.play.factories import play_out

pytestmark = pytest.mark.django_db


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
