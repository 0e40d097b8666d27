"""What a player sees of a board page, measured inside the page in one go (so no box is read at
another moment of an update): the page against the screen, the calls' lane against what it must
never cover, and labels against two lines."""

from __future__ import annotations

from playwright.sync_api import Page

# Three long calls: more than a move makes, and longer than most.
LONG_CALLS = ["Computer (expert): fifteen two, fifteen four and a pair is six",
              "You: thirty-one for 2", "Computer (expert): go for 1, and the last card"]

# What a call must never cover: a card or an empty place for one, a score, the pegboard, the count
# and the count box, and anything a player presses.
UNCOVERED = ("#board .card, #board .card-slot, .seat__score, .board-scores, .board-svg, #board .count, "
             ".count-controls, .shown-score, button, input, select, a, summary, label")


def settled(page: Page) -> None:
    """Fonts loaded and nothing sliding (pegs, cards): boxes are where they stay. A call's slow
    fade is no motion of the table."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.animationName === 'announce-fade')"
    )


def page_height(page: Page) -> dict:
    return page.evaluate(
        "() => ({scroll: document.scrollingElement.scrollHeight, screen: window.innerHeight})")


def assert_page_is_the_screen(page: Page, where: str) -> None:
    height = page_height(page)
    assert height["scroll"] <= height["screen"], (
        f"{where}: the page is {height['scroll']} px high on a {height['screen']} px screen")


def show_calls(page: Page, texts: list[str]) -> None:
    """Calls as a move's answer brings them: the live region's content, swapped in."""
    page.evaluate("""(texts) => document.getElementById("announce").replaceChildren(...texts.map((text) => {
        const span = document.createElement("span"); span.className = "call"; span.textContent = text;
        return span;
    }))""", texts)


# The calls as drawn: each line of each call, clipped to the lane that shows them (the older calls
# kept only for screen readers draw nothing), and each thing any of them covers.
CALLS_SEEN = """(uncovered) => {
        const lane = document.getElementById("announce").getBoundingClientRect();
        const drawn = [];
        for (const call of document.querySelectorAll("#announce .call")) {
            if (getComputedStyle(call).visibility === "hidden") continue;
            for (const r of call.getClientRects()) {
                const box = {left: Math.max(r.left, lane.left), right: Math.min(r.right, lane.right),
                             top: Math.max(r.top, lane.top), bottom: Math.min(r.bottom, lane.bottom)};
                if (box.right - box.left > 2 && box.bottom - box.top > 2) drawn.push([call.textContent, box]);
            }
        }
        const name = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === "string"
            ? "." + el.className.trim().split(/\\s+/).join(".") : "") + (el.id ? "#" + el.id : "");
        const covered = [];
        for (const el of document.querySelectorAll(uncovered)) {
            const r = el.getBoundingClientRect();
            if (r.width <= 2 || r.height <= 2 || el.closest("#announce")) continue;
            for (const [text, k] of drawn) {
                if (k.left < r.right && r.left < k.right && k.top < r.bottom && r.top < k.bottom) {
                    covered.push(`${name(el)} under "${text}"`);
                }
            }
        }
        const onScreen = lane.top >= 0 && lane.left >= 0
            && lane.bottom <= innerHeight && lane.right <= innerWidth;
        return {count: drawn.length, covered, onScreen};
    }"""


def calls_seen(page: Page) -> dict:
    return page.evaluate(CALLS_SEEN, UNCOVERED)


def watch_calls(page: Page) -> None:
    """From now on, each time calls come (a move's answer, a push), they are measured on the next
    frame, as the player first sees them with the board they came with."""
    page.evaluate("(uncovered) => { const measure = " + CALLS_SEEN + """;
        window.__calls = [];
        new MutationObserver(() => requestAnimationFrame(() => {
            if (document.querySelector("#announce .call")) window.__calls.push(measure(uncovered));
        })).observe(document.getElementById("announce"), {childList: true, subtree: true});
    }""", UNCOVERED)


def watched_calls(page: Page) -> list[dict]:
    """Every measure taken since ``watch_calls``, once calls have come at least once."""
    page.wait_for_function("() => window.__calls.some((seen) => seen.count > 0)")
    return page.evaluate("() => window.__calls")


def assert_covers_nothing(seen: dict, where: str) -> None:
    assert seen["onScreen"], f"{where}: a call is off the screen"
    assert seen["covered"] == [], f"{where}: a call covers {seen['covered']}"


def assert_calls_cover_nothing(page: Page, where: str) -> None:
    seen = calls_seen(page)
    assert seen["count"] > 0, f"{where}: no call is drawn"
    assert_covers_nothing(seen, where)


def labels_past_two_lines(page: Page, selector: str) -> list[str]:
    """Every label under ``selector`` drawn on more than two lines, or cut short."""
    return page.evaluate("""(selector) => {
        const out = [];
        for (const el of document.querySelectorAll(selector)) {
            const box = el.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) continue;
            const range = document.createRange();
            range.selectNodeContents(el);
            const rects = [...range.getClientRects()]
                .filter((r) => r.width > 1 && r.height > 4 && r.top < box.bottom - 2)
                .sort((a, b) => a.top - b.top);
            let lines = 0, bottom = -Infinity;
            for (const r of rects) {
                if (r.top >= bottom - 2) { lines += 1; bottom = r.bottom; }
                else { bottom = Math.max(bottom, r.bottom); }
            }
            const text = el.textContent.trim().replace(/\\s+/g, " ");
            if (lines > 2) out.push(`"${text}" on ${lines} lines`);
            if (el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== "visible") {
                out.push(`"${text}" cut short`);
            }
        }
        return out;
    }""", selector)


# The table's labels: the seats' and the crib's headings, the headings of the middle, the hand's
# prompt, the phase's title and the pegboard's names.
LABELS = ("#board .table h2, #board .table h3, #board .table legend, #board .table label, "
          "#board .game-header h1, #board .board-score")
