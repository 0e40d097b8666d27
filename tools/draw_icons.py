"""Draw the app icons (static/icons/*.png) from the favicon's club, in Chromium.

Run after changing the artwork: ``.venv/bin/python tools/draw_icons.py``. The PNGs are committed;
the site does not need this script or a browser to serve them.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
BRAND = "#14532d"  # --brand in static/css/site.css
CLUB = ("M16 6a4.5 4.5 0 0 0-4.3 5.8A4.5 4.5 0 1 0 13.5 20h1l-1.5 6h6l-1.5-6h1"
        "a4.5 4.5 0 1 0 1.8-8.2A4.5 4.5 0 0 0 16 6z")  # static/favicon.svg's club


def svg(*, rounded: bool, scale: float, background: str | None, ink: str = "#fff") -> str:
    """The club on a 32-unit square, drawn at ``scale`` of the square about its centre."""
    rect = (f'<rect width="32" height="32" rx="{7 if rounded else 0}" fill="{background}"/>'
            if background else "")
    offset = 16 * (1 - scale)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="100%" height="100%">{rect}'
            f'<path fill="{ink}" transform="translate({offset} {offset}) scale({scale})" d="{CLUB}"/></svg>')


# name: (size, artwork). "any" icons keep the favicon's rounded square; maskable and Apple's icons
# fill the square (the system cuts its own shape) with the club inside the middle 80% safe zone.
ICONS = {
    "icon-192.png": (192, svg(rounded=True, scale=1.0, background=BRAND)),
    "icon-512.png": (512, svg(rounded=True, scale=1.0, background=BRAND)),
    "maskable-192.png": (192, svg(rounded=False, scale=0.72, background=BRAND)),
    "maskable-512.png": (512, svg(rounded=False, scale=0.72, background=BRAND)),
    "apple-touch-icon.png": (180, svg(rounded=False, scale=0.9, background=BRAND)),
    "badge-96.png": (96, svg(rounded=False, scale=1.1, background=None)),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        for name, (size, artwork) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f'<html><body style="margin:0;background:transparent">{artwork}</body></html>')
            page.screenshot(path=str(OUT / name), omit_background=True)
            page.close()
            print(OUT / name)
        browser.close()


if __name__ == "__main__":
    main()
