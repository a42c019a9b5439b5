"""Draw the installed app's PNG icons from the project's SVG ones, with Debian's chromium.

Run once after changing an icon's SVG, and commit the PNGs it writes into
``src/rummykit/web/`` (the manifest, ``manifest.webmanifest``, lists them)::

    PYTHONPATH=src python tools/make_icons.py

Each SVG is opened in chromium at the PNG's size and taken as a screenshot, so the
PNGs are the SVGs exactly as a browser draws them. Nothing is downloaded.
"""

from __future__ import annotations

import sys
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "src" / "rummykit" / "web"
CHROMIUM = "/usr/bin/chromium"

ICONS = (
    ("icon-app.svg", "icon-192.png", 192),
    ("icon-app.svg", "icon-512.png", 512),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
    ("icon-maskable.svg", "icon-180.png", 180),  # apple-touch-icon: square, its own mask
)


def main() -> int:
    """Write every PNG of ICONS; 0 when done."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for source, target, size in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (WEB / source).read_text(encoding="utf-8")
            page.set_content(
                "<!doctype html><style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(WEB / target), omit_background=True, type="png")
            page.close()
            print(f"{target}: {size}x{size} from {source}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
