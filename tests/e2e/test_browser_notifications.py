"""The account page's "Browser notifications" switch in Chromium, at a laptop's and a phone's size.

Chromium here has no push service to reach, so the browser's push manager is replaced by one that
hands out a subscription (what a browser makes) and records what it was asked; everything after it
(the permission, the page, the site's view, the row) is the real thing. A real subscribe, which
fails here, must leave the switch off and say why."""

from __future__ import annotations

import base64
import json

import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect

from games.webpush.models import PushSubscription
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import make_user
from tests.webpush.push_service import Browser as PushBrowser

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

ENDPOINT = "https://push.example.org/send/e2e-"

FAKE_PUSH_MANAGER = """(sub) => {
  let current = null;
  const made = {
    endpoint: sub.endpoint,
    toJSON() { return {endpoint: sub.endpoint, expirationTime: null, keys: sub.keys}; },
    unsubscribe() { current = null; return Promise.resolve(true); },
  };
  PushManager.prototype.subscribe = function (options) {
    window.subscribedWith = Array.from(new Uint8Array(options.applicationServerKey));
    current = made;
    return Promise.resolve(made);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
}"""

# The browser already holds a subscription, made with some other key (its applicationServerKey).
HELD_WITH_ANOTHER_KEY = """(old) => {
  const held = {
    endpoint: old.endpoint,
    options: {applicationServerKey: new Uint8Array(65).fill(7).buffer},
    toJSON() { return old; },
    unsubscribe() { window.oldDropped = true; return Promise.resolve(true); },
  };
  const subscribe = PushManager.prototype.subscribe;
  let current = held;
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
  PushManager.prototype.subscribe = function (options) {
    return subscribe.call(this, options).then((sub) => { current = sub; return sub; });
  };
}"""


def _open_account_page(browser: Browser, live_daphne: str, user, viewport: dict, **context_options):
    context = browser.new_context(viewport=viewport, **context_options)
    context.add_cookies([{"name": "sessionid", "value": session_key(user), "url": live_daphne}])
    page = context.new_page()
    return context, page


@pytest.mark.parametrize(("name", "viewport"), [("laptop", {"width": 1280, "height": 720}),
                                                ("phone", {"width": 390, "height": 844})])
def test_the_switch_subscribes_this_browser_and_says_so(browser: Browser, live_daphne: str, name: str,
                                                        viewport: dict):
    ann = make_user(f"ann{name}")
    sub = PushBrowser().subscription(ENDPOINT + name)
    context, page = _open_account_page(browser, live_daphne, ann, viewport, permissions=["notifications"])
    context.add_init_script(f"({FAKE_PUSH_MANAGER})({json.dumps(sub)})")
    page.goto(f"{live_daphne}/accounts/u/{ann.username}/")
    panel = page.locator("#browser-notifications")
    switch = panel.get_by_role("switch", name="Notify me in this browser")
    status = panel.locator("[data-push-status]")
    expect(status).to_have_text("Off in this browser.")
    expect(switch).not_to_be_checked()
    expect(switch).to_be_enabled()
    panel.scroll_into_view_if_needed()
    screenshot(page, f"account-notifications-off-{name}", full_page=False)

    switch.check()
    expect(status).to_have_text("On in this browser.")
    row = PushSubscription.objects.get()
    assert (row.user, row.endpoint, row.p256dh, row.auth) == (ann, sub["endpoint"], sub["keys"]["p256dh"],
                                                              sub["keys"]["auth"])
    # Subscribed with the site's own public key: the push service takes only its signed messages.
    key = base64.urlsafe_b64decode(settings.VAPID_PUBLIC_KEY + "==")
    assert bytes(page.evaluate("window.subscribedWith")) == key
    assert serious_axe_violations(page) == []
    screenshot(page, f"account-notifications-on-{name}", full_page=False)

    switch.uncheck()
    expect(status).to_have_text("Off in this browser.")
    assert not PushSubscription.objects.exists()

    # Logging out takes this browser's subscription with it: the next player here gets no notice of ann's.
    switch.check()
    expect(status).to_have_text("On in this browser.")
    if page.get_by_role("button", name="Menu").is_visible():  # the phone's folded menu
        page.get_by_role("button", name="Menu").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_text("You are logged out.")).to_be_visible()
    assert not PushSubscription.objects.exists()
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())") is None
    context.close()


def test_a_subscribe_the_browser_cannot_make_leaves_the_switch_off(browser: Browser, live_daphne: str):
    """Chromium without a push service to reach: the page shows the failure, the site keeps nothing."""
    ann = make_user("annreal")
    context, page = _open_account_page(browser, live_daphne, ann, {"width": 1280, "height": 720},
                                       permissions=["notifications"])
    page.goto(f"{live_daphne}/accounts/u/{ann.username}/")
    panel = page.locator("#browser-notifications")
    switch = panel.get_by_role("switch", name="Notify me in this browser")
    expect(panel.locator("[data-push-status]")).to_have_text("Off in this browser.")
    switch.click()  # not check(): the box is unticked again as soon as the browser refuses
    status = panel.locator("[data-push-status]")
    expect(status).to_contain_text("Off in this browser. Could not turn them on:")
    expect(switch).not_to_be_checked()
    assert not PushSubscription.objects.exists()
    context.close()


@pytest.mark.parametrize(("state", "script", "words"), [
    ("blocked", 'Object.defineProperty(Notification, "permission", {get: () => "denied"});',
     "blocked for this site"),
    ("unsupported", "delete window.PushManager;", "This browser cannot show notifications"),
])
def test_a_browser_that_cannot_be_notified_gets_no_switch_to_press(browser: Browser, live_daphne: str,
                                                                   state: str, script: str, words: str):
    ann = make_user(f"ann{state}")
    context, page = _open_account_page(browser, live_daphne, ann, {"width": 390, "height": 844})
    context.add_init_script(script)
    page.goto(f"{live_daphne}/accounts/u/{ann.username}/")
    panel = page.locator("#browser-notifications")
    expect(panel.locator("[data-push-status]")).to_contain_text(words)
    expect(panel.get_by_role("switch", name="Notify me in this browser")).to_be_disabled()
    expect(panel.locator("[data-push]")).to_have_attribute("data-state", state)
    context.close()


def test_a_subscription_made_with_an_old_key_is_made_again(browser: Browser, live_daphne: str):
    """After the site's key pair changed, the browser's old subscription would receive nothing: the
    page replaces it on the next visit, and the site sends to the new one."""
    ann = make_user("annrotated")
    old = PushBrowser().subscription(ENDPOINT + "old")
    new = PushBrowser().subscription(ENDPOINT + "new")
    context, page = _open_account_page(browser, live_daphne, ann, {"width": 1280, "height": 720},
                                       permissions=["notifications"])
    context.add_init_script(f"({FAKE_PUSH_MANAGER})({json.dumps(new)})")
    context.add_init_script(f"({HELD_WITH_ANOTHER_KEY})({json.dumps(old)})")
    page.goto(f"{live_daphne}/accounts/u/{ann.username}/")
    expect(page.locator("#browser-notifications [data-push-status]")).to_have_text("On in this browser.")
    assert page.evaluate("window.oldDropped") is True
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [new["endpoint"]]
    context.close()
