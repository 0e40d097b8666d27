"""Browser-test helpers: signing up through the UI, checking pages with axe-core, waiting for what
Playwright's own handlers see."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PASSWORD = "a-Long-pass-phrase-42"


def sign_up(page: Page, base_url: str, username: str) -> None:
    page.goto(base_url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill(username)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()


def log_in(page: Page, base_url: str, user) -> None:
    """The browser holds ``user``'s session, made by Django's test client (no log-in form to fill)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base_url,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])


def serious_axe_violations(page: Page) -> list[dict]:
    """axe-core's violations of impact serious or critical on the current page."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """Saved under tests/e2e/artifacts/ to be looked at; ``full_page=False`` keeps only what the
    screen shows without scrolling."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def phase_and_version(board: Locator) -> tuple[str, str]:
    """The board's classes (its phase) and its version, read together: read one after the other, a
    push landing between the two reads pairs a phase with the next board's version, and a wait for
    "a version other than this one" then waits for a move nobody is due to make."""
    classes, version = board.evaluate("b => [b.className, b.dataset.version || '']")
    return classes, version


def until_handled(page: Page, done: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    """Until ``done()`` is true, where a Playwright handler (a held route's) makes it so. The sync API
    runs handlers only inside its own calls: each round trip to the page lets those of events that
    have arrived run, so this waits on the event itself, not on a guessed time."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not seen within {timeout:.0f} s")
        page.evaluate("() => new Promise(requestAnimationFrame)")
