"""A finished game's pages: the record (score chart, deals and seeds, rating changes, the score said
once), the replay stepping through the game, the JSON and text downloads, none of them while the game
is in progress; the fair-deals page and the finished board's link to the record."""

from __future__ import annotations

import json

import pytest

from games.engine.actions import action_from_dict
from games.engine.deck import deal_seed
from games.engine.game import apply, new_game
from games.engine.rules import HouseRules
from games.history.tasks import analyse
from games.play import services
from games.play.models import Move, Round
from tests.history.helpers import finish_between, finish_vs_computer, resign_after, whole_record
from tests.play.factories import act, human_game

pytestmark = pytest.mark.django_db


# --- the record ------------------------------------------------------------------------------------


def test_the_record_shows_score_chart_deals_and_seeds(alice, bob, client):
    game = finish_between(alice, bob, seed=44, rules=HouseRules(target=61))
    response = client.get(f"/games/{game.pk}/record/")
    assert response.status_code == 200
    html = whole_record(client, game)
    assert "alice v bob" in html and 'data-testid="final-score"' in html
    assert '<svg class="chart--wide" viewBox="0 0 640 240" role="img"' in html
    assert "Scores through the game" in html
    secret = bytes.fromhex(game.secret)
    rounds = Round.objects.filter(game=game)
    for rnd in rounds:
        assert f'id="deal-{rnd.game_no}-{rnd.deal_no}"' in html
        assert deal_seed(secret, rnd.game_no, rnd.deal_no).hex() in html and rnd.commitment in html
    script = html.split('<script id="verify-data" type="application/json">')[1]
    data = json.loads(script.split("</script>")[0])
    assert [d["id"] for d in data] == [f"verify-{r.game_no}-{r.deal_no}" for r in rounds]
    assert data[0]["hands"] == rounds[0].summary["hands"] and data[0]["dealer"] == rounds[0].dealer
    assert "The play" in html and "The show" in html and "Fifteen for 2" in html
    assert "/static/js/verify.js" in html


def test_a_game_in_progress_has_no_record_replay_or_download(alice, bob, client):
    game = human_game(alice, bob)
    act(game, alice, {"type": "cut_for_deal", "position": 1})
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    client.force_login(alice)  # not even for its players: that would show the hidden cards
    for page in ("record/", "replay/", "replay/?step=3", "export.json", "export.txt"):
        assert client.get(f"/games/{game.pk}/{page}").status_code == 404
    board = client.get(f"/games/{game.pk}/").content.decode()
    rnd = Round.objects.get(game=game)
    assert rnd.commitment[:16] in board and rnd.commitment in board  # the board shows the commitment
    assert deal_seed(bytes.fromhex(game.secret), 0, 0).hex() not in board  # never the seed


def test_a_computer_game_record_is_private_to_its_player(alice, bob, client):
    game = finish_vs_computer(alice, seed=45, rules=HouseRules(target=61))
    assert client.get(f"/games/{game.pk}/record/").status_code == 404
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/record/").status_code == 200


def test_a_match_record_has_a_chart_per_game(alice, bob, client):
    game = finish_between(alice, bob, seed=46, rules=HouseRules(target=61, match_games=3))
    html = client.get(f"/games/{game.pk}/record/").content.decode()
    for result in game.result["games"]:
        assert f"Scores in game {result['game_no'] + 1}" in html
    assert "won the match" in html


def test_a_game_resigned_during_the_cut_has_a_record_without_deals(alice, bob, client):
    game = resign_after(alice, bob, 0)
    html = client.get(f"/games/{game.pk}/record/").content.decode()
    assert "No deal was played" in html and "won by resignation" in html


def test_the_record_shows_rating_changes(alice, bob, client):
    game = resign_after(alice, bob, 0, resigner=1, rated=True)
    html = client.get(f"/games/{game.pk}/record/").content.decode()
    assert "alice</a>: 1500 → " in html and "(121 points)" not in html or "121 points" in html


def test_a_played_out_record_says_the_score_once(alice, bob, client):
    game = finish_between(alice, bob, seed=44, rules=HouseRules(target=61))
    html = " ".join(client.get(f"/games/{game.pk}/record/").content.decode().split())
    line = html.split('<p class="record-game">')[1].split("</p>")[0]
    winner, loser = sorted(game.result["scores"], reverse=True)
    assert f"{winner}–{loser}" not in line and "won; final score" in line
    resigned = resign_after(alice, bob, 16, resigner=1)
    html = " ".join(client.get(f"/games/{resigned.pk}/record/").content.decode().split())
    assert "won by resignation; final score" in html, html.split("record-game")[1][:300]


def test_show_breakdowns_and_the_analysis_write_cards_as_players_do(alice, bob, client):
    game = finish_between(alice, bob, seed=44, rules=HouseRules(target=61))
    analyse(game)
    client.force_login(alice)
    html = whole_record(client, game)
    assert 'class="card-text card-text--red" title="' in html
    analysis = client.get(f"/games/{game.pk}/record/analysis/discards/", headers={"HX-Request": "true"})
    analysis = analysis.content.decode()
    assert "T\u2665" not in analysis and "card-text" in analysis


# --- the replay ------------------------------------------------------------------------------------


def test_the_replay_steps_through_the_game(alice, bob, client):
    game = finish_between(alice, bob, seed=47, rules=HouseRules(target=61))
    total = Move.objects.filter(game=game).count()
    start = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert 'data-step="0"' in start and "Before the cut for deal" in start and "/static/js/replay.js" in start
    # The first cut for deal shows nothing until the second: Forward goes to the second.
    assert 'data-replay="prev"' in start and 'value="2" data-replay="next"' in start
    step = client.get(f"/games/{game.pk}/replay/?step=5").content.decode()
    assert 'data-step="5"' in step and 'value="4" data-replay="prev"' in step and "?step=5" in step
    last = client.get(f"/games/{game.pk}/replay/?step={total}").content.decode()
    assert f'data-step="{total}"' in last and "wins" in last
    assert f'data-step="{total}"' in client.get(f"/games/{game.pk}/replay/?step=100000").content.decode()
    assert 'data-step="0"' in client.get(f"/games/{game.pk}/replay/?step=-4").content.decode()
    assert 'data-step="0"' in client.get(f"/games/{game.pk}/replay/?step=x").content.decode()


def test_the_replay_board_shows_both_hands_and_the_live_scores(alice, bob, client):
    game = finish_between(alice, bob, seed=48, rules=HouseRules(target=61))
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    state = new_game(game.house_rules, bytes.fromhex(game.secret))
    for number, move in enumerate(moves, start=1):
        state, _ = apply(state, action_from_dict(move.action))
        if state.phase != "play" or number % 3:
            continue
        url = f"/games/{game.pk}/replay/?step={number}"
        html = client.get(url, headers={"HX-Request": "true"}).content.decode()
        assert html.lstrip().startswith('<div id="replay"')  # htmx gets the partial only
        for seat in (0, 1):
            for card in state.hands[seat]:
                assert f'data-card="{card}"' in html  # both hands face up
        assert f'data-testid="count">{state.count}<' in html
        assert f'aria-label="alice {state.scores[0]}, bob {state.scores[1]}, game to 61"' in html


def test_the_replay_log_puts_the_step_just_taken_on_top(alice, bob, client):
    """The log box scrolls: oldest first, the cut and deal filled it and hid the plays being stepped."""
    import re

    from django.utils.html import conditional_escape

    from games.play.narration import Seating, log_lines

    game = finish_between(alice, bob, seed=49, rules=HouseRules(target=61))
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    state = new_game(game.house_rules, bytes.fromhex(game.secret))
    checked = 0
    for number, move in enumerate(moves, start=1):
        state, _ = apply(state, action_from_dict(move.action))
        lines = log_lines(Seating(("alice", "bob"), None, 61), state.log)
        if state.phase != "play" or len({str(line.text) for line in lines}) < 3:
            continue
        html = client.get(f"/games/{game.pk}/replay/?step={number}").content.decode()
        box = html.split('aria-labelledby="log-heading"><ol>', 1)[1].split("</ol>", 1)[0]
        items = re.findall(r"<li[^>]*>(.*?)</li>", box)
        assert len(items) == len(lines)
        assert str(conditional_escape(lines[-1].text)) in items[0]
        assert str(conditional_escape(lines[0].text)) in items[-1]
        checked += 1
    assert checked > 5


def test_the_replay_names_the_cards_played_before_the_count_went_back(alice, bob, client):
    import re

    game = finish_between(alice, bob, seed=50, rules=HouseRules(target=61))
    total = Move.objects.filter(game=game).count()
    seen = 0
    for step in range(1, total + 1):
        html = client.get(f"/games/{game.pk}/replay/?step={step}", headers={"HX-Request": "true"})
        html = html.content.decode()
        earlier = re.findall(r'<li[^>]* class="pile__old"><span class="visually-hidden">([^<]*)</span>', html)
        if not earlier:
            continue
        # Each names its player and its card: "alice: Seven of spades (earlier count)", not "7S".
        assert all(re.fullmatch(r"(alice|bob): \w+ of \w+ \(earlier count\)", e) for e in earlier), earlier
        seen += 1
    assert seen


def test_a_move_that_shows_nothing_new_is_folded_into_the_next(alice, bob, client):
    """"Ready for the next deal" by one player while the other has yet to say so, or the first cut
    for deal, changes nothing on the table: the replay steps over it, and names each step by its
    move in the log, as its address does."""
    from games.history.replay_board import shown_moves

    game = finish_between(alice, bob, seed=49, rules=HouseRules(target=61))
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    quiet = [n for n, m in enumerate(moves, start=1) if m.action["type"] in ("next_deal", "cut_for_deal")
             and not m.events]
    assert quiet[0] == 1 and len(quiet) > 2  # the first cut for deal, a first "ready" of each deal
    shown = shown_moves(moves)
    assert not set(quiet) & set(shown) and len(shown) == len(moves) + 1 - len(quiet)
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/replay/?step={quiet[0]}").content.decode()
    assert f'data-step="{quiet[0] + 1}"' in html  # a quiet move asked for shows the move that follows
    assert f'Move <strong data-testid="step">{quiet[0] + 1}</strong> of {len(moves)}' in html
    assert "The cut for deal</span>" in html  # both cuts, shown together
    before = client.get(f"/games/{game.pk}/replay/?step={quiet[0] - 1}").content.decode()
    assert f'value="{quiet[0] + 1}" data-replay="next"' in before  # Forward steps over it


# --- downloads -------------------------------------------------------------------------------------


def test_the_json_download_is_the_full_log_and_replays(alice, bob, client):
    game = finish_between(alice, bob, seed=49, rules=HouseRules(target=61, match_games=3))
    response = client.get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["format"] == "cribbage-hall-game/1"
    assert [p["name"] for p in data["players"]] == ["alice", "bob"]
    assert len(data["moves"]) == Move.objects.filter(game=game).count()
    rules = HouseRules.from_dict(data["house_rules"])
    state = new_game(rules, bytes.fromhex(data["secret"]))
    for move in data["moves"]:
        state, events = apply(state, action_from_dict(move["action"]))
        assert [e.to_dict() for e in events] == move["events"]
    assert state.to_dict() == game.state
    secret = bytes.fromhex(data["secret"])
    for deal in data["deals"]:
        assert deal["seed"] == deal_seed(secret, deal["game_no"], deal["deal_no"]).hex()


def test_the_text_download_reads_as_a_game(alice, bob, client):
    game = finish_between(alice, bob, seed=50, rules=HouseRules(target=61))
    response = client.get(f"/games/{game.pk}/export.txt")
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert text.startswith(f"Cribbage Hall, game {game.pk}\nalice v bob\n")
    result = game.result["games"][0]
    winner, scores = result["winner"], [min(s, 61) for s in result["scores"]]  # the winner in the hole
    in_order = "–".join(str(scores[(winner + k) % 2]) for k in range(2))  # the winner's first, as the record
    assert f"won {in_order}" in text
    first = Round.objects.filter(game=game).first().summary
    assert "== Deal 1: " in text and f"dealt {' '.join(first['hands'][0])}" in text
    assert f"Starter: {first['starter']}" in text and "The play:" in text and "Fifteen for 2" in text
    assert "&amp;" not in text and "&#x27;" not in text  # plain text, not escaped HTML


# --- other pages -----------------------------------------------------------------------------------


def test_the_fair_deals_page_spells_out_the_algorithm(client):
    html = client.get("/fair-deals/").content.decode()
    assert "Fisher–Yates" in html and "SHA-256" in html and 'id="verify-form"' in html
    assert "2<sup>32</sup> − (2<sup>32</sup> mod <var>n</var>)" in html


def test_the_finished_board_links_to_the_record(alice, client):
    game = services.game_create_vs_computer(user=alice, level="easy", rules=HouseRules(target=61))
    act(game, alice, {"type": "resign"})
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/record/" in html
