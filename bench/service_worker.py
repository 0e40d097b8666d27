"""What the service worker costs a move: ``python -m bench.service_worker [--requests N] [--json]``.

A move is a POST from the board's page (htmx). Once the service worker controls a page, Chromium
hands each of the page's requests to the worker's ``fetch`` handler first; this one lets POSTs go
untouched, but the handler still runs. The benchmark serves the site's own ``/sw.js`` and a
small answer from a server on 127.0.0.1, and times N sequential POSTs from a page the worker
controls and from one where service workers are blocked, in the same Chromium: it prints both
medians and their ratio. Needs Debian's Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
os.environ.setdefault("DEBUG", "true")

PAGE = b"""<!doctype html><title>bench</title><script>
navigator.serviceWorker && navigator.serviceWorker.register("/sw.js", {scope: "/"});
</script>"""
ROUNDS = 5
TIMED = """async (n) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const answer = await fetch("/games/1/act/", {method: "POST", body: "type=go&version=" + i});
    await answer.text();
    times.push(performance.now() - start);
  }
  return times;
}"""


def _server(worker_source: bytes) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def _send(self, body: bytes, content_type: str, extra: dict | None = None) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path == "/sw.js":
                self._send(worker_source, "text/javascript", {"Service-Worker-Allowed": "/"})
            else:
                self._send(PAGE if self.path == "/" else b"", "text/html")

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self._send(b"<div id=board></div>", "text/html")

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run(requests: int) -> dict:
    import django

    django.setup()
    from django.test import Client
    from playwright.sync_api import sync_playwright

    # The site's worker as it is served; every other GET (what it keeps) gets an empty page here.
    server = _server(Client().get("/sw.js", HTTP_HOST="127.0.0.1").content)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    times: dict[str, list[float]] = {"without": [], "with": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        pages = {}
        for name, workers in (("without", "block"), ("with", "allow")):
            page = browser.new_context(service_workers=workers).new_page()
            page.goto(base + "/")
            if workers == "allow":
                page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15000)
            page.evaluate(TIMED, 20)  # warm-up: connections, the worker started
            pages[name] = page
        # In turns, so that a slower moment of the machine falls on both.
        for _ in range(ROUNDS):
            for name, page in pages.items():
                times[name] += page.evaluate(TIMED, requests // ROUNDS)
        browser.close()
    results = {name: statistics.median(values) for name, values in times.items()}
    server.shutdown()
    return {"requests": requests, "post_ms_p50_without_worker": round(results["without"], 3),
            "post_ms_p50_with_worker": round(results["with"], 3),
            "ratio": round(results["with"] / results["without"], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = run(args.requests)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['requests']} sequential POSTs from the page, median:")
        print(f"  without the service worker  {figures['post_ms_p50_without_worker']:.3f} ms")
        print(f"  with the service worker     {figures['post_ms_p50_with_worker']:.3f} ms"
              f"  ({figures['ratio']}x)")


if __name__ == "__main__":
    main()
