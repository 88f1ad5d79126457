"""Chart colours follow the theme: each chart class takes a custom property, and the dark theme's value
keeps at least 3:1 contrast (WCAG 1.4.11, graphics) against the dark card the charts are drawn on."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMBAT_CSS = (ROOT / "combat/static/css/combat.css").read_text()
COVENANT_CSS = (ROOT / "campaign/static/css/covenant.css").read_text()
CHART_CLASSES = [f"series-{n}" for n in range(8)] + [f"measure-{n}" for n in range(7)]
CHART_CLASSES += ["mark-hit", "mark-wound", "mark-botch", "mark-correction"]


def _block(css: str, selector: str) -> dict[str, str]:
    body = css[css.index(selector + " {") :]
    body = body[: body.index("}")]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", body))


def _luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_chart_class_takes_its_colour_from_a_custom_property():
    for name in CHART_CLASSES:
        rules = re.findall(rf"\.{name} \{{([^}}]*)\}}", COMBAT_CSS)
        rules = [rule for rule in rules if "currentColor" not in rule]  # the keys' shared rule
        assert rules, name
        for rule in rules:
            assert "#" not in rule and f"var(--chart-{name})" in rule, (name, rule)


def test_the_dark_theme_keeps_chart_colours_readable_on_the_dark_card():
    dark_card = _block(COVENANT_CSS, ":root[data-theme=dark]")["card"]
    light = _block(COMBAT_CSS, ":root")
    dark = _block(COMBAT_CSS, ":root[data-theme=dark]")
    for name in CHART_CLASSES:
        assert dark[f"chart-{name}"] != light[f"chart-{name}"], name
        assert _contrast(dark[f"chart-{name}"], dark_card) >= 3, name
    media = COMBAT_CSS[COMBAT_CSS.index("@media (prefers-color-scheme: dark)") :]
    assert _block(media, ":root:not([data-theme])") == dark  # the same without JS
