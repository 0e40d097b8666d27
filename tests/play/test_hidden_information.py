"""No response ever shows a player a card they may not see.

Whole games are played through the HTTP client (against the computer, and between two people who
each act through their own logged-in client). After every request, every response a player gets
(board pages, htmx partials, computer steps, the websocket push render, the lobby) is scanned for
each card that player must not see at that moment, worked out from the private engine state:

* the opponent's unplayed cards,
* the undealt deck (the starter excepted once it is turned),
* the crib before its count begins (the player's own two discards excepted),
* during the cut for deal, every card of the cut deck not yet turned face up,

less anything legitimately visible (own cards, cards laid in the play, the starter, hands and crib
in the show, the cut cards). A card can appear in HTML as notation (``5H`` in a value or
``data-card``), as a name (``Five of hearts`` in an aria-label or hidden text), or as rank and
suit symbol (``5♥`` in a score breakdown): all three are looked for.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.actions import Count, action_to_dict
from games.engine.cards import DECK, RANK_CHARS, RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, Card
from games.engine.game import GameState, legal_actions, new_game
from games.engine.rules import HouseRules
from games.play import services
from games.play.board.player import render_board_oob
from games.play.models import Game
from games.play.templatetags.cribbage import card_face
from games.play.views import game as views_game
from tests.play.factories import fixed_secrets, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "hidden")


# --- what a seat may not see -------------------------------------------------------------------------


def visible_to(state: GameState, seat: int) -> set[Card]:
    seen = set(state.hands[seat]) | set(state.kept[seat]) | set(state.discards[seat])
    seen |= {c for c in state.cut_cards if c is not None}
    seen |= {c for _, c in state.plays}
    if state.starter is not None:
        seen.add(state.starter)
    for entry in state.show:
        seen |= set(entry.cards) | {entry.starter}
    return seen


def hidden_from(state: GameState, seat: int) -> set[Card]:
    """Every card ``seat`` must not see now (never including one it may see)."""
    if state.phase == "cut":
        hidden = set(DECK)  # the cut deck is face down but for the cards last turned up
    else:
        others = [s for s in range(len(state.scores)) if s != seat]
        hidden = {c for s in others for c in state.hands[s]}
        hidden |= set(state.deck_remainder)
        if not any(e.kind == "crib" for e in state.show):
            hidden |= set(state.crib)
    return hidden - visible_to(state, seat)


# --- finding cards in HTML -----------------------------------------------------------------------


_NOTATION = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK])([SHDC])(?![A-Za-z0-9])")  # 5H, TD
_NAME = re.compile(  # Five of hearts
    r"\b(" + "|".join(RANK_NAMES) + r") of (" + "|".join(SUIT_NAMES.values()) + r")\b", re.IGNORECASE
)
_SYMBOL = re.compile(  # 5♥, T♦ or 10♦ (a score breakdown)
    r"(?<![A-Za-z0-9])(10|[A2-9TJQK])\s*([" + "".join(SUIT_SYMBOLS.values()) + "])"
)
_SUIT_BY_NAME = {name: suit for suit, name in SUIT_NAMES.items()}
_SUIT_BY_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_RANK_BY_NAME = {name.lower(): i + 1 for i, name in enumerate(RANK_NAMES)}


def _rank(char: str) -> int:
    return 10 if char == "10" else RANK_CHARS.index(char) + 1


def cards_in(html: str, cards) -> dict[Card, str]:
    """The cards of ``cards`` that ``html`` shows, each with a little context to debug a failure."""
    wanted = set(cards)
    found: dict[Card, str] = {}

    def note(card: Card, match: re.Match) -> None:
        if card in wanted and card not in found:
            found[card] = html[max(0, match.start() - 120): match.end() + 60]

    for m in _NOTATION.finditer(html):
        note(Card(_rank(m.group(1)), m.group(2)), m)
    for m in _NAME.finditer(html):
        note(Card(_RANK_BY_NAME[m.group(1).lower()], _SUIT_BY_NAME[m.group(2).lower()]), m)
    for m in _SYMBOL.finditer(html):
        note(Card(_rank(m.group(1)), _SUIT_BY_SYMBOL[m.group(2)]), m)
    return found


def test_the_scanner_finds_every_form_of_a_card():
    five, ten = Card(5, "H"), Card(10, "D")
    assert set(cards_in(str(card_face(five)), [five, ten])) == {five}
    assert set(cards_in(str(card_face(ten, "small")), [five, ten])) == {ten}
    assert set(cards_in('<button value="TD">', [five, ten])) == {ten}
    assert set(cards_in('<li aria-label="five of hearts">', [five, ten])) == {five}
    assert set(cards_in("<td>Fifteen: 5\u2665 T\u2666</td>", [five, ten])) == {five, ten}
    assert set(cards_in("<td>10\u2666</td>", [five, ten])) == {ten}
    # Not a card: other words and numbers that share letters.
    assert cards_in('<p class="x5H">15H TDX, ASK</p>', [five, ten, Card(1, "S")]) == {}


_LAST_DEAL = re.compile(r'<details class="last-deal".*?</details>', re.S)


def without_last_deal(html: str, state: GameState) -> str:
    """``html`` without the fold of the last deal's show, once that fold is checked to hold only
    the cards that show laid open: a card dealt again this deal may be in it, and is no leak."""
    shown = {c for e in state.last_show for c in (*e.cards, e.starter)}
    for fold in _LAST_DEAL.findall(html):
        extra = cards_in(fold, set(DECK) - shown)
        assert not extra, f"the last deal's fold shows {sorted(map(str, extra))}, not of its show"
    return _LAST_DEAL.sub("", html)


def test_the_last_deals_fold_is_checked_then_set_aside():
    state = GameState.from_dict({**new_game(HouseRules(), b"s").to_dict(), "last_show": [
        {"seat": 0, "kind": "hand", "cards": ["5H", "5S", "5D", "JC"], "starter": "5C", "status": "done",
         "claimed": None, "awarded": 29, "muggins": 0}]})
    fold = '<details class="last-deal" id="x"><li>Five of hearts</li></details>'
    assert without_last_deal(f"<p>a</p>{fold}<p>b</p>", state) == "<p>a</p><p>b</p>"
    with pytest.raises(AssertionError, match="TD"):
        without_last_deal('<details class="last-deal"><td>T\u2666</td></details>', state)


# --- playing through the client ------------------------------------------------------------------


class Table:
    """Logged-in clients for the human seats of one game, and the checks after every response."""

    def __init__(self, game: Game, clients: dict[int, Client]) -> None:
        self.game = game
        self.clients = clients
        self.users = {seat: client_user(c) for seat, c in clients.items()}
        self.responses = 0
        self.own_cards_seen = 0

    def state(self) -> GameState:
        self.game.refresh_from_db()
        return services.load_state(self.game)

    def check(self, seat: int, html: str, where: str) -> None:
        """``html`` just went to ``seat``: it must show no card hidden from that seat now."""
        state = self.state()
        html = without_last_deal(html, state)
        leaked = cards_in(html, hidden_from(state, seat))
        assert not leaked, (
            f"{where}: seat {seat} was shown {sorted(map(str, leaked))} in phase {state.phase}:\n"
            + "\n---\n".join(leaked.values())
        )
        self.responses += 1
        # The scanner must see what the seat does hold, or it is not looking at the real markup.
        own = set(state.hands[seat])
        if own and state.phase in ("discard", "play") and 'id="board"' in html:
            assert cards_in(html, own), f"{where}: own hand {sorted(map(str, own))} not found"
            self.own_cards_seen += 1

    def get(self, seat: int, url: str, *, htmx: bool) -> str:
        response = self.clients[seat].get(url, headers=HTMX if htmx else {})
        assert response.status_code == 200, response.status_code
        html = response.content.decode()
        self.check(seat, html, f"GET {url}{' (htmx)' if htmx else ''}")
        return html

    def post(self, seat: int, url: str, data: dict | None = None) -> str:
        response = self.clients[seat].post(url, data or {}, headers=HTMX)
        assert response.status_code == 200, (response.status_code, response.content.decode()[:300])
        html = response.content.decode()
        self.check(seat, html, f"POST {url} {data}")
        return html

    def look_everywhere(self, step: int) -> None:
        """Every seat gets the push (as its socket would render it) and, in turns, reloads the board
        (htmx partial), the whole page and the lobby."""
        for seat, user in self.users.items():
            push = render_board_oob(self.game.pk, user)
            assert push is not None
            self.check(seat, push, "websocket push")
            if step % 2 == seat % 2:
                self.get(seat, reverse("game", args=[self.game.pk]), htmx=True)
            if step % 11 == 0:
                self.get(seat, reverse("game", args=[self.game.pk]), htmx=False)
            if step % 29 == 0:
                self.get(seat, reverse("lobby"), htmx=False)


def client_user(client: Client):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def form_data(action) -> dict:
    data = action_to_dict(action)
    del data["seat"]
    return data


def choose(state: GameState, seat: int, rng: random.Random):
    legal = legal_actions(state, seat)
    counts = [a for a in legal if isinstance(a, Count)]
    if counts:  # mostly the truth (games stay short), sometimes a wrong count for muggins
        worth = state.show[-1].score.total
        return Count(seat, worth if rng.random() < 0.7 else rng.randint(max(0, worth - 4), worth + 4))
    return rng.choice(legal)


def play_whole_game(table: Table, rng: random.Random, limit: int = 2500, stop=None) -> GameState:
    act_url = reverse("act", args=[table.game.pk])
    step_url = reverse("computer_step", args=[table.game.pk])
    for step in range(limit):
        state = table.state()
        if table.game.status != Game.Status.ACTIVE or (stop is not None and stop(state)):
            table.look_everywhere(0)
            return state
        if services.computer_to_act(table.game):
            # The board asks for the computer's moves one at a time (htmx), as the browser does.
            table.post(next(iter(table.clients)), step_url)
        else:
            due = [s for s in state.to_act if s in table.clients]
            assert due, f"nobody to act in phase {state.phase}"
            seat = rng.choice(due)
            table.post(seat, act_url, {"version": table.game.version, **form_data(choose(state, seat, rng))})
        table.look_everywhere(step)
    raise AssertionError("the game did not finish")


def new_computer_game(client: Client, level: str, rules: dict) -> Game:
    form = {"cpu-level": level, "cpu-target": "121", "cpu-peg_out_zone": "0", "cpu-match_games": "1",
            "cpu-skunks": "on"}
    form.update({f"cpu-{k}": v for k, v in rules.items()})
    response = client.post(reverse("new_computer_game"), form)
    assert response.status_code == 302, response.content.decode()[:500]
    return Game.objects.get(pk=int(response.url.rstrip("/").split("/")[-1]))


@pytest.mark.parametrize(
    ("level", "rules", "seed"),
    [
        ("easy", {"target": "61"}, 1),
        ("expert", {"target": "61", "manual_counting": "on", "muggins": "on", "hints": "on",
                    "pone_cuts": "on"}, 2),
        ("standard", {"target": "61", "match_games": "3", "peg_out_zone": "5", "pone_cuts": "on"}, 3),
    ],
)
def test_no_hidden_card_reaches_a_player_against_the_computer(level, rules, seed):
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    game = new_computer_game(client, level, rules)
    table = Table(game, {0: client})
    table.get(0, reverse("game", args=[game.pk]), htmx=False)  # the no-JS page plays the computer's cut
    final = play_whole_game(table, random.Random(seed))
    assert final.phase == "match_over"
    assert table.responses > 100 and table.own_cards_seen > 20


def test_no_hidden_card_reaches_either_person_in_a_game_between_people():
    alice, bob = make_user("alice"), make_user("bob")
    a, b = Client(), Client()
    a.force_login(alice)
    b.force_login(bob)
    form = {"seek-target": "61", "seek-skunks": "on", "seek-peg_out_zone": "0", "seek-match_games": "1",
            "seek-manual_counting": "on", "seek-muggins": "on", "seek-pone_cuts": "on"}
    assert a.post(reverse("new_seek"), form).status_code == 302
    seek = Game.objects.get()
    lobby = b.get(reverse("lobby")).content.decode()
    assert reverse("accept", args=[seek.pk]) in lobby
    response = b.post(reverse("accept", args=[seek.pk]))
    assert response.status_code == 302 and response.url == reverse("game", args=[seek.pk])
    table = Table(Game.objects.get(pk=seek.pk), {0: a, 1: b})
    table.look_everywhere(0)
    final = play_whole_game(table, random.Random(4))
    assert final.phase == "match_over"
    assert table.responses > 200 and table.own_cards_seen > 50


@pytest.mark.parametrize("phase", ["discard", "play"])
def test_resigning_mid_deal_reveals_nothing(phase):
    """The result screen after a resignation still hides the computer's hand, the crib and the deck."""
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    table = Table(new_computer_game(client, "standard", {}), {0: client})
    rng = random.Random(6)
    state = play_whole_game(table, rng, stop=lambda s: s.phase == phase and 0 in s.to_act and s.deal_no == 1)
    assert state.phase == phase and state.hands[1]
    table.post(0, reverse("act", args=[table.game.pk]), {"version": table.game.version, "type": "resign"})
    table.look_everywhere(0)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED


@pytest.mark.parametrize(
    "leak",
    [
        lambda state: " ".join(str(c) for c in state.hands[1]),  # the computer's hand, in notation
        lambda state: ", ".join(c.name for c in state.hands[1]),  # ... by name
        lambda state: " ".join(c.rank_char + c.symbol for c in state.crib),  # the crib, as in a breakdown
        lambda state: str(state.deck_remainder[-1]) if state.deck else "",  # the bottom of the deck
    ],
    ids=["notation", "name", "symbol", "deck"],
)
def test_the_scan_catches_a_leak(monkeypatch, leak):
    """The check is live: a board that slips one hidden card into its error line fails it."""
    original = views_game.board_context

    def leaky(game, user, **kwargs):
        context = original(game, user, **kwargs)
        context["error"] = leak(services.load_state(game))
        return context

    monkeypatch.setattr(views_game, "board_context", leaky)
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    table = Table(new_computer_game(client, "easy", {"target": "61"}), {0: client})
    with pytest.raises(AssertionError, match="was shown"):
        play_whole_game(table, random.Random(5))
