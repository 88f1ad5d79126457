"""Chart colours (issue 35, item 14): each chart class takes its colour from the palette's custom properties;
the palette, in both themes, keeps at least 3:1 contrast (WCAG 1.4.11, graphics) against the card the charts
are drawn on, and its series can be told apart with normal colour vision and with each kind of colour
blindness (simulated with Machado, Oliveira and Fernandes' 2009 matrices, full severity); each series has a
dash of its own besides."""

import itertools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMBAT_CSS = (ROOT / "combat/static/css/combat.css").read_text()
COVENANT_CSS = (ROOT / "static/css/covenant.css").read_text()
SERIES = [f"series-{n}" for n in range(8)]
CHART_CLASSES = SERIES + [f"measure-{n}" for n in range(7)]
CHART_CLASSES += ["mark-hit", "mark-wound", "mark-botch", "mark-correction", "mark-undo"]

# Linear RGB to what a dichromat sees (Machado et al. 2009, severity 1.0).
VISIONS = {
    "normal": None,
    "protanopia": (
        (0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)
    ),
}  # fmt: skip
NEIGHBOURS = 15  # CIE76 distance of series next to each other (and among the first four), in every vision
ANY_TWO = 10  # between any two series, with normal colour vision


def _block(css: str, selector: str) -> dict[str, str]:
    body = css[css.index(selector + " {") :]
    body = body[: body.index("}")]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", body))


def _linear(colour: str) -> list[float]:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def _luminance(colour: str) -> float:
    r, g, b = _linear(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _lab(colour: str, vision: str) -> tuple[float, float, float]:
    rgb = _linear(colour)
    matrix = VISIONS[vision]
    if matrix:
        rgb = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix]
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116  # noqa: E731
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _distance(a: str, b: str, vision: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a, vision), _lab(b, vision), strict=True)) ** 0.5


def _palettes() -> dict[str, tuple[list[str], str]]:
    """Each theme's series colours in order, and the card they are drawn on."""
    light, dark = _block(COMBAT_CSS, ":root"), _block(COMBAT_CSS, ":root[data-theme=dark]")
    cards = _block(COVENANT_CSS, ":root")["card"], _block(COVENANT_CSS, ":root[data-theme=dark]")["card"]
    return {
        "light": ([light[f"chart-{name}"] for name in SERIES], cards[0]),
        "dark": ([dark[f"chart-{name}"] for name in SERIES], cards[1]),
    }


def test_every_chart_class_takes_its_colour_from_the_palette():
    for name in CHART_CLASSES:
        rules = re.findall(rf"\.{name} \{{([^}}]*)\}}", COMBAT_CSS)
        colours = [rule for rule in rules if "stroke-dasharray" not in rule]
        assert colours, name
        for rule in colours:
            assert "#" not in rule and re.search(r"var\(--chart-series-\d\)", rule), (name, rule)


def test_each_series_has_a_dash_of_its_own():
    dashes = {"series-0": "none"}
    dashes.update(re.findall(r"\.(series-\d) \{ stroke-dasharray: ([\d ]+); \}", COMBAT_CSS))
    assert sorted(dashes) == SERIES and len(set(dashes.values())) == len(SERIES), dashes


def test_the_palette_keeps_3_to_1_against_the_card_in_both_themes():
    for theme, (colours, card) in _palettes().items():
        for name, colour in zip(SERIES, colours, strict=True):
            assert _contrast(colour, card) >= 3, (theme, name, colour, round(_contrast(colour, card), 2))


def test_neighbouring_series_differ_with_every_kind_of_colour_vision():
    """Two series next to each other (a chart's first lines, a group's next bar) differ in every vision, as
    do any two of the first four (most sagas' parties); any two of all eight with normal colour vision."""
    for theme, (colours, _) in _palettes().items():
        assert len(set(colours)) == len(colours), theme
        pairs = set(itertools.pairwise(range(len(colours)))) | set(itertools.combinations(range(4), 2))
        for vision in VISIONS:
            for i, j in sorted(pairs):
                apart = _distance(colours[i], colours[j], vision)
                assert apart >= NEIGHBOURS, (theme, vision, SERIES[i], SERIES[j], round(apart, 1))
        for i, j in itertools.combinations(range(len(colours)), 2):
            assert _distance(colours[i], colours[j], "normal") >= ANY_TWO, (theme, SERIES[i], SERIES[j])


def test_a_groups_bars_differ_from_the_next_with_every_kind_of_colour_vision():
    """The bars of a character's group in the saga's numbers, each against the next, in every vision."""
    bar = r"\.measure-{} {{ fill: var\(--chart-series-(\d)\); }}"
    bars = [int(re.search(bar.format(n), COMBAT_CSS).group(1)) for n in range(7)]
    assert len(set(bars)) == len(bars), bars
    for theme, (colours, _) in _palettes().items():
        for vision in VISIONS:
            for i, j in itertools.pairwise(bars):
                apart = _distance(colours[i], colours[j], vision)
                assert apart >= NEIGHBOURS, (theme, vision, SERIES[i], SERIES[j], round(apart, 1))


def test_the_dark_theme_is_the_same_without_javascript():
    dark = _block(COMBAT_CSS, ":root[data-theme=dark]")
    media = COMBAT_CSS[COMBAT_CSS.index("@media (prefers-color-scheme: dark)") :]
    assert _block(media, ":root:not([data-theme])") == dark
    light = _block(COMBAT_CSS, ":root")
    assert all(dark[key] != light[key] for key in light), "each colour has a dark variant"
