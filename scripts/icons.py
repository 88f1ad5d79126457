#!/usr/bin/env python3
"""Render Covenant's icons from their SVGs: the PNGs the web app manifest names, and favicon.ico.

    .venv/bin/python scripts/icons.py

Draws static/favicon.svg (rounded, transparent corners) at 192 and 512 px and into favicon.ico (16, 32
and 48 px), and static/icons/maskable.svg (full bleed, drawn in the middle 80 %) at 512 px and as the
180-px Apple touch icon, all into static/icons/. Chromium is Debian's (/usr/bin/chromium,
or COVENANT_CHROMIUM), driven by the project's Playwright. Commit the PNGs and the .ico it writes.
"""

from __future__ import annotations

import base64
import os
import struct
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "static"
ICONS = STATIC / "icons"
# (source SVG, output PNG, size in px, transparent corners?)
RENDERS = [
    (STATIC / "favicon.svg", ICONS / "icon-192.png", 192, True),
    (STATIC / "favicon.svg", ICONS / "icon-512.png", 512, True),
    (ICONS / "maskable.svg", ICONS / "maskable-512.png", 512, False),
    (ICONS / "maskable.svg", ICONS / "apple-touch-icon.png", 180, False),
]
FAVICON_SIZES = (16, 32, 48)


def render(page: Page, svg: Path, size: int, transparent: bool) -> bytes:
    """The SVG drawn to fill a size x size viewport, as PNG bytes."""
    page.set_viewport_size({"width": size, "height": size})
    data = base64.b64encode(svg.read_bytes()).decode()
    page.set_content(
        "<style>html,body{margin:0;background:transparent}img{display:block}</style>"
        f'<img src="data:image/svg+xml;base64,{data}" width="{size}" height="{size}">'
    )
    page.wait_for_function("document.images[0].complete")
    return page.screenshot(omit_background=transparent)


def ico(pngs: dict[int, bytes]) -> bytes:
    """An .ico holding each PNG as it is (the PNG-in-ICO form every browser since 2007 reads)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, images = b"", b""
    for size, png in sorted(pngs.items()):
        side = size % 256  # 256 px is written 0
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(images))
        images += png
    return header + entries + images


def main() -> None:
    """Write every PNG and favicon.ico, and say which."""
    executable = os.environ.get("COVENANT_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        page = browser.new_page(device_scale_factor=1)
        for svg, out, size, transparent in RENDERS:
            out.write_bytes(render(page, svg, size, transparent))
            print(out)
        favicon = {size: render(page, STATIC / "favicon.svg", size, True) for size in FAVICON_SIZES}
        (ICONS / "favicon.ico").write_bytes(ico(favicon))
        print(ICONS / "favicon.ico")
        browser.close()


if __name__ == "__main__":
    main()
