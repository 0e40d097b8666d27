"""Two people in two browsers: one posts a seek, the other accepts it from the lobby, and they play
a whole game through the UI. Every move one makes reaches the other's screen over the websocket,
with no reload: the other page keeps its URL and a marker set on its ``window`` before the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.helpers import screenshot, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(300)]

MAX_ACTIONS = 400
WAIT_MS = 15000

# Records which of the page's sockets (static/js/socket.js) have opened, by their data-socket path,
# from before any script of the page runs: every page also has its news socket, which opens on its
# own time, so a test waits for the one socket it needs.
RECORD_SOCKETS = (
    "window.__wsOpened = [];"
    " document.addEventListener('socket:open', function (e) {"
    " const el = e.target.closest('[data-socket]');"
    " window.__wsOpened.push(el ? el.dataset.socket : ''); });"
)


@dataclass
class Player:
    name: str
    page: Page
    marker: str = ""
    url: str = ""
    cards_seen_from_other: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    told_your_move: int = 0  # pushes after which the tab's title said "Your move"

    def version(self) -> int:
        return int(self.page.locator("#board").get_attribute("data-version"))

    def mark(self) -> None:
        """Remember the page: a reload or a navigation would lose the marker or change the URL."""
        self.marker = f"live-{self.name}"
        self.page.evaluate("(m) => { window.__liveMarker = m; }", self.marker)
        self.url = self.page.url

    def assert_not_reloaded(self) -> None:
        assert self.page.url == self.url, f"{self.name}'s page navigated to {self.page.url}"
        assert self.page.evaluate("() => window.__liveMarker") == self.marker, f"{self.name}'s page reloaded"

    def wait_for_version(self, version: int) -> None:
        self.page.wait_for_function(
            "(v) => { const b = document.querySelector('#board');"
            " return b && Number(b.dataset.version) >= v; }",
            arg=version,
            timeout=WAIT_MS,
        )


def _enabled(locator: Locator) -> Locator | None:
    return locator.first if locator.count() and locator.first.is_enabled() else None


def next_action(player: Player) -> tuple[str, Locator, str] | None:
    """What this player can do now on their board: (kind, control, card name for a play)."""
    page = player.page
    if control := _enabled(page.locator("#board .cut-deck button.fan__card:not([disabled])")):
        return "cut", control, ""
    if page.locator("#board .discard-form input[name=cards]").count() == 6:
        return "discard", page.get_by_role("button", name="Lay away to the crib"), ""
    if control := _enabled(page.locator("#board .cut-starter-form button")):
        return "cut the pack", control, ""
    if control := _enabled(page.locator("#board").get_by_role("button", name="Go", exact=True)):
        return "go", control, ""
    if control := _enabled(page.locator("#board .play-form button.playable:not([disabled])")):
        return "play", control, control.get_attribute("aria-label") or ""
    if control := _enabled(page.locator("#board").get_by_role("button", name="Next hand")):
        return "next hand", control, ""
    return None


def take_turn(me: Player, other: Player) -> bool:
    """``me`` makes one move if they have one; ``other``'s screen must follow without a reload."""
    found = next_action(me)
    if found is None:
        return False
    kind, control, card = found
    before = me.version()
    assert other.version() == before
    if kind == "cut":
        control.click(position={"x": 6, "y": 20})  # the fanned deck overlaps: click the visible edge
    elif kind == "discard":
        boxes = me.page.locator("#board .discard-form input[name=cards]")
        boxes.nth(0).check()
        boxes.nth(1).check()
        control.click()
    else:
        control.click()
    me.wait_for_version(before + 1)
    assert me.version() == before + 1
    expect(me.page.locator("#board .board-error")).to_have_count(0)
    # The other screen follows over the websocket.
    other.wait_for_version(before + 1)
    assert other.version() == before + 1
    other.assert_not_reloaded()
    # The tab's title follows the pushed board, so a player in another tab sees it is their move.
    title = other.page.locator("#board").get_attribute("data-title")
    expect(other.page).to_have_title(title)
    other.told_your_move += title.startswith("Your move · ")
    if kind == "play":
        board = other.page.locator("#board")
        if "phase-play" in (board.get_attribute("class") or ""):
            expect(board.locator(".pile")).to_contain_text(f"{me.name}: {card}")
        expect(board.locator(".score-log")).to_contain_text(card)  # "alice: Five of hearts: 15"
        other.cards_seen_from_other += 1
    me.actions[kind] = me.actions.get(kind, 0) + 1
    return True


def open_context(browser: Browser) -> Page:
    context = browser.new_context()
    context.add_init_script(RECORD_SOCKETS)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def wait_for_socket(page: Page, path: str) -> None:
    """Until the page's socket at ``path`` is open (its consumer has joined its group by then)."""
    page.wait_for_function(
        "(p) => window.__wsOpened.some(u => u.startsWith(p))", arg=path, timeout=WAIT_MS
    )


def test_two_people_play_a_whole_game_live(live_daphne: str, browser: Browser):
    alice = Player("alice", open_context(browser))
    bob = Player("bob", open_context(browser))
    try:
        _play(live_daphne, alice, bob)
    finally:
        for player in (alice, bob):
            player.page.context.close()


def _play(base_url: str, alice: Player, bob: Player) -> None:
    sign_up(alice.page, base_url, alice.name)
    sign_up(bob.page, base_url, bob.name)
    wait_for_socket(bob.page, "/ws/lobby/")  # Bob watches the lobby before Alice posts
    bob.mark()
    expect(bob.page.get_by_text("Nobody is seeking a game right now.")).to_be_visible()

    # Alice posts an open seek for a 61-point game.
    wait_for_socket(alice.page, "/ws/lobby/")
    seek_panel = alice.page.locator("section[aria-labelledby=seek-h]")
    if not seek_panel.locator("#id_seek-target").is_visible():  # the house rules are folded away
        seek_panel.locator("details.house-rules-fields > summary").click()
    seek_panel.locator("#id_seek-target").select_option("61")
    alice.page.get_by_role("button", name="Post seek or invite").click()
    expect(alice.page.get_by_text("Your seek is posted")).to_be_visible()
    wait_for_socket(alice.page, "/ws/lobby/")  # the post loaded a new lobby page: it must hear the accept
    alice.mark()

    # It appears in Bob's lobby without a reload, and its pushed Accept form carries a CSRF token.
    accept = bob.page.get_by_role("button", name="Accept alice's seek")
    expect(accept).to_be_visible()
    bob.assert_not_reloaded()
    expect(bob.page.locator("form[action$='/accept/'] input[name=csrfmiddlewaretoken]")).to_have_count(1)
    accept.click()
    expect(bob.page.get_by_role("heading", name="Cut for deal")).to_be_visible()

    # Alice's lobby follows her seek to the board by itself (the lobby socket sends the link).
    alice.page.wait_for_url(bob.page.url)
    expect(alice.page.get_by_role("heading", name="Cut for deal")).to_be_visible()
    assert alice.page.url == bob.page.url

    for player in (alice, bob):
        expect(player.page.locator("#connection")).to_have_attribute("data-state", "open")
        player.mark()

    for _ in range(MAX_ACTIONS):
        if alice.page.locator("#board section.result").count():
            break
        if not (take_turn(alice, bob) or take_turn(bob, alice)):
            pytest.fail(f"neither player can act at version {alice.version()}")
    else:
        pytest.fail("the game did not end")

    assert alice.told_your_move > 5 and bob.told_your_move > 5

    # Both see the result: one won, and the other is told who did.
    headings = {}
    for player in (alice, bob):
        result = player.page.locator("#board section.result")
        expect(result).to_contain_text("Final score")
        headings[player.name] = result.get_by_role("heading").inner_text()
        player.assert_not_reloaded()
        screenshot(player.page, f"live-two-players-{player.name}")
    winners = [name for name, heading in headings.items() if heading.startswith("You win")]
    assert len(winners) == 1, headings
    loser = next(name for name in headings if name != winners[0])
    assert headings[loser].startswith(f"{winners[0]} wins"), headings
    for player in (alice, bob):
        assert player.cards_seen_from_other >= 8, (player.name, player.cards_seen_from_other)
    assert {"cut", "discard", "play", "next hand"} <= set(alice.actions) | set(bob.actions)

    # Alice offers a rematch from the finished board and waits there; Bob's board offers to accept
    # it at once, and when he does, Alice's page follows him into the new game by itself.
    old_url = alice.page.url
    alice.page.get_by_role("button", name="Rematch").click()
    expect(alice.page.get_by_text("Rematch offered: it starts when bob accepts.")).to_be_visible()
    assert alice.page.url == old_url
    bob.page.get_by_role("button", name="Accept rematch").click()
    expect(bob.page.get_by_role("heading", name="Cut for deal")).to_be_visible()
    new_url = bob.page.url
    assert new_url != old_url
    alice.page.wait_for_url(new_url, timeout=WAIT_MS)
    expect(alice.page.get_by_role("heading", name="Cut for deal")).to_be_visible()
