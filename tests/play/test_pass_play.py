"""Pass and play: one device, a named seat per person, a pass screen between them that holds
nothing of any hand, and every move for the seat the server shows."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.cards import DECK, parse_card
from games.engine.game import legal_actions
from games.engine.rules import HouseRules
from games.engine.state import GameState
from games.history.models import PlayerGame
from games.history.stats import player_stats
from games.play import pass_play, services
from games.play.board.player import render_board_oob
from games.play.models import Game, Move
from tests.play.factories import as_form, logged_in, make_user
from tests.play.test_hidden_information import cards_in, hidden_from, without_last_deal

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def cuts_for_deal(game: Game) -> set:
    """Every card turned in the cut for deal, recuts too: the whole table saw them."""
    events = Move.objects.filter(game=game, action__type="cut_for_deal").values_list("events", flat=True)
    return {parse_card(c) for evs in events for e in evs if e["kind"] == "cut" for c in e["cards"]}


def public(state: GameState) -> set:
    """The cards the whole table has seen face up this deal."""
    seen = {c for c in state.cut_cards if c is not None} | {c for _, c in state.plays}
    if state.starter is not None:
        seen.add(state.starter)
    for entry in state.show:
        seen |= set(entry.cards) | {entry.starter}
    return seen


def form(players: int, seats: list[str], **rules) -> dict:
    data = {"pass-players": str(players), "pass-target": "61", "pass-skunks": "on", "pass-peg_out_zone": "0",
            "pass-match_games": "1"}
    for n, seat in enumerate(seats, start=1):
        if seat.startswith("computer:"):
            data[f"pass-seat_{n}"] = seat.split(":")[1]
        else:
            data[f"pass-seat_{n}"], data[f"pass-seat_{n}_name"] = "person", seat
    return {**data, **{f"pass-{k}": v for k, v in rules.items()}}


def start(client: Client, players: int, seats: list[str], **rules) -> Game:
    response = client.post(reverse("new_pass_play"), form(players, seats, **rules))
    assert response.status_code == 302, response.content.decode()[:800]
    return Game.objects.with_seats().get(pk=int(response.url.rstrip("/").split("/")[-1]))


def state_of(game: Game) -> GameState:
    game.refresh_from_db()
    return services.load_state(game)


def assert_pass_screen_hides_everything(game: Game, html: str, where: str) -> None:
    state = state_of(game)
    assert "phase-pass" in html and "Pass the device to" in html, where
    leaked = cards_in(html, set(DECK) - public(state) - cuts_for_deal(game))
    assert not leaked, f"{where}: the pass screen shows {sorted(map(str, leaked))} in phase {state.phase}"


def play_through(client: Client, game: Game, rng: random.Random, *, until=None, limit: int = 3000) -> dict:
    """Drive the game as the device's page does: tap each pass screen, play the shown seat, let the
    computers move; check every page for hidden cards. Returns what was counted on the way."""
    game_url, act_url = reverse("game", args=[game.pk]), reverse("act", args=[game.pk])
    show_url = reverse("show_hand", args=[game.pk])
    seen = {"passes": 0, "boards": 0, "shown": set()}
    for _ in range(limit):
        state = state_of(game)
        if game.status != Game.Status.ACTIVE or (until is not None and until(state)):
            return seen
        html = client.get(game_url, headers=HTMX).content.decode()
        to = pass_play.pass_to(game, state)
        if to is not None:
            assert_pass_screen_hides_everything(game, html, "pass screen")
            for push in (render_board_oob(game.pk, game.created_by),):
                assert_pass_screen_hides_everything(game, push, "pass screen pushed")
            seen["passes"] += 1
            html = client.post(show_url, {"seat": to}, headers=HTMX).content.decode()
            seen["shown"].add(to)
        shown = pass_play.shown_seat(game, state := state_of(game))
        assert shown is not None and "phase-pass" not in html
        leaked = cards_in(without_last_deal(html, state), hidden_from(state, shown) - cuts_for_deal(game))
        assert not leaked, f"seat {shown} was shown {sorted(map(str, leaked))} in phase {state.phase}"
        seen["boards"] += 1
        if services.computer_to_act(game):
            client.post(reverse("computer_step", args=[game.pk]), headers=HTMX)
            continue
        if shown not in state.to_act:
            continue  # the next person is due: the pass screen comes up on the next look
        action = as_form(rng.choice(legal_actions(state, shown)))
        response = client.post(act_url, {"version": game.version, **action}, headers=HTMX)
        assert response.status_code == 200, response.content.decode()[:500]
    raise AssertionError("the game did not end")


def test_the_form_seats_named_people_and_computers_unrated_and_counted_by_the_site():
    owner = make_user("mum")
    client = logged_in(owner)
    assert "Pass and play" in client.get(reverse("lobby")).content.decode()
    page = client.get(reverse("new_pass_play")).content.decode()
    assert "The site counts every hand" in page and "manual_counting" not in page
    game = start(client, 4, ["Ann", "computer:easy", "Ben", "computer:expert"])
    assert game.status == Game.Status.ACTIVE and not game.rated and not game.manual_counting
    assert game.seat_names() == ["Ann", "Computer (easy)", "Ben", "Computer (expert)"]
    assert [s.user_id for s in game.seat_list()] == [owner.pk, None, owner.pk, None]
    assert Game.objects.for_user(owner).get() == game
    # Bad seats change nothing and say why.
    for bad in (["Ann", "ann"], ["Ann", ""], ["computer:easy", "computer:expert"], ["You", "Ben"],
                ["Computer 1", "Ben"]):
        response = client.post(reverse("new_pass_play"), form(2, bad))
        assert response.status_code == 400 and b"errorlist" in response.content
    assert Game.objects.count() == 1
    with pytest.raises(services.ServiceError):
        services.game_create_pass_and_play(user=owner, rules=game.house_rules, seats=[{"kind": "person"}] * 4)
    with pytest.raises(services.ServiceError, match="a person or a computer"):
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
        services.game_create_pass_and_play(user=owner, rules=HouseRules(), seats=seats)
    with pytest.raises(services.ServiceError, match="the game itself uses"):
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "you"}]
        services.game_create_pass_and_play(user=owner, rules=HouseRules(), seats=seats)


def test_the_pass_screen_gates_every_hand_and_refuses_moves_for_a_seat_not_shown():
    owner, stranger = make_user("dad"), make_user("stranger")
    client = logged_in(owner)
    game = start(client, 2, ["Ann", "Ben"])
    page = client.get(reverse("game", args=[game.pk]))
    assert page.status_code == 200
    assert_pass_screen_hides_everything(game, page.content.decode(), "the first page")
    assert "I'm Ann, show my hand" in page.content.decode()
    act_url, show_url = reverse("act", args=[game.pk]), reverse("show_hand", args=[game.pk])
    state = state_of(game)
    move = as_form(legal_actions(state, 0)[0])
    # The pass screen is up: no move for anyone, and only the seat it names may be shown.
    refused = client.post(act_url, {"version": game.version, **move}, headers=HTMX)
    assert refused.status_code == 409 and "Pass the device to Ann" in refused.content.decode()
    wrong = client.post(show_url, {"seat": 1}, headers=HTMX)
    assert wrong.status_code == 409 and "The device goes to Ann now" in wrong.content.decode()
    assert_pass_screen_hides_everything(game, wrong.content.decode(), "a refused tap")
    assert logged_in(stranger).post(show_url, {"seat": 0}, headers=HTMX).status_code == 403
    assert state_of(game) == state
    # Ann taps: her board, her cut; then Ben's turn puts the pass screen back, and Ann's board,
    # still open, cannot move for him.
    board = client.post(show_url, {"seat": 0}, headers=HTMX)
    assert board.status_code == 200 and "phase-pass" not in board.content.decode()
    game.refresh_from_db()
    # Without JavaScript the move is answered by the page again: the pass screen, saying who is next.
    page = client.post(act_url, {"version": game.version, **move}, follow=True)
    assert page.status_code == 200 and page.redirect_chain[-1][1] == 302
    assert "I'm Ben, show my hand" in page.content.decode()
    assert_pass_screen_hides_everything(game, page.content.decode(), "after a move without JavaScript")
    bens = as_form(legal_actions(state_of(game), 1)[0])
    stale = client.post(act_url, {"version": game.version, **bens}, headers=HTMX)
    assert stale.status_code == 409 and "Pass the device to Ben" in stale.content.decode()
    assert_pass_screen_hides_everything(game, stale.content.decode(), "a refused move")


def test_two_people_play_to_the_end_and_the_game_is_kept_with_their_names():
    owner = make_user("gran")
    client = logged_in(owner)
    game = start(client, 2, ["Ann", "Ben"])
    seen = play_through(client, game, random.Random(5))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.rated
    assert seen["shown"] == {0, 1} and seen["passes"] > 10
    # Reopened: the finished board, the names in the lobby, the record and the export.
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    lobby = client.get(reverse("lobby")).content.decode()
    assert "Ann" in lobby and "Ben" in lobby
    record = client.get(reverse("game_record", args=[game.pk])).content.decode()
    assert "Ann" in record and "Ben" in record and "Pass and play" in record
    export = client.get(reverse("game_export_text", args=[game.pk])).content.decode()
    assert "Ann" in export and "Ben" in export
    replay = client.get(reverse("game_replay", args=[game.pk]))
    assert replay.status_code == 200 and "Ann" in replay.content.decode()
    history = client.get(reverse("my_games"), follow=True).content.decode()
    assert reverse("game_record", args=[game.pk]) in history
    # Listed once, and no win or loss of the owner's: they were every person at the table.
    assert PlayerGame.objects.filter(game=game, user=owner).count() == 1
    assert player_stats(owner, vs_computer=True)["games"] == 0


def test_four_in_partnerships_with_computers_and_a_resumed_game_reopens_at_the_pass_screen():
    owner = make_user("uncle")
    client = logged_in(owner)
    game = start(client, 4, ["Ann", "computer:easy", "Ben", "computer:easy"])
    seen = play_through(client, game, random.Random(6), until=lambda s: s.deal_no >= 2)
    assert seen["shown"] == {0, 2} and seen["passes"] >= 4
    # Mid-game the device is put down with a hand showing; opened again, the pass screen is first.
    state = state_of(game)
    if pass_play.pass_to(game, state) is not None:
        to = pass_play.pass_to(game, state)
        client.post(reverse("show_hand", args=[game.pk]), {"seat": to}, headers=HTMX)
    assert pass_play.shown_seat(game, state_of(game)) is not None
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert_pass_screen_hides_everything(game, page, "the resumed page")
    play_through(client, game, random.Random(7))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_the_board_names_every_seat_and_a_rematch_seats_the_same_table():
    owner = make_user("aunt")
    client = logged_in(owner)
    game = start(client, 2, ["Ann", "computer:easy"])
    client.post(reverse("show_hand", args=[game.pk]), {"seat": 0}, headers=HTMX)
    board = client.get(reverse("game", args=[game.pk]), headers=HTMX).content.decode()
    assert "Ann (you)" in board and "Computer (easy)" in board
    game.refresh_from_db()
    resign = {"version": game.version, "type": "resign"}
    resigned = client.post(reverse("act", args=[game.pk]), resign, headers=HTMX)
    assert resigned.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    rematch = services.game_rematch(user=owner, game_id=game.pk)
    assert rematch.pass_play == {"shown": None, "deal": None} and rematch.status == Game.Status.ACTIVE
    assert rematch.seat_names() == ["Ann", "Computer (easy)"]
    assert Game.objects.get(pk=rematch.pk).rematch_of_id == game.pk


def test_three_people_pass_the_device_through_a_whole_deal():
    owner = make_user("teacher")
    client = logged_in(owner)
    game = start(client, 3, ["Ann", "Ben", "Cal"])
    seen = play_through(client, game, random.Random(9), until=lambda s: s.deal_no >= 1)
    assert seen["shown"] == {0, 1, 2} and seen["passes"] >= 9
