"""What a page showed over a stretch of time, recorded by the page itself.

A test that must show a state held through an outage (never "Connected" while the server was away)
records every change of it in the page, as it happens, instead of sampling it now and then: a
change between two samples cannot slip by, and no test sleeps to take a sample.
"""

from __future__ import annotations

from playwright.sync_api import Page

RECORD = """([selector, name]) => {
  const el = document.querySelector(selector);
  const log = window.__recorded = window.__recorded || {};
  const key = selector + "@" + name;
  log[key] = [[performance.now(), el.getAttribute(name)]];
  new MutationObserver(() => log[key].push([performance.now(), el.getAttribute(name)]))
    .observe(el, {attributes: true, attributeFilter: [name]});
  return performance.now();
}"""


def record(page: Page, selector: str, name: str) -> float:
    """Start recording ``name`` of ``selector``; returns the page's time now (ms)."""
    return page.evaluate(RECORD, [selector, name])


def now(page: Page) -> float:
    return page.evaluate("() => performance.now()")


def values(page: Page, selector: str, name: str, since: float = 0, until: float | None = None) -> list[str]:
    """Every value ``name`` had from ``since`` to ``until`` (page times): the one it had at
    ``since`` first."""
    changes = page.evaluate("(key) => window.__recorded[key]", f"{selector}@{name}")
    held = [v for t, v in changes if t <= since][-1:]
    return held + [v for t, v in changes if since < t and (until is None or t <= until)]


def until_page_time(page: Page, at: float, timeout: float = 60000) -> None:
    """Let the page's own time reach ``at``: a stretch the scenario needs (an outage of ten
    seconds), measured by the page, with every change in it recorded."""
    page.wait_for_function("(t) => performance.now() >= t", arg=at, timeout=timeout)
