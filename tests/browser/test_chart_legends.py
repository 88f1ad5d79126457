"""Issue 35, item 14: a chart's series are named above it, before any line ends. On the encounter's and the
saga's charts of both systems, for the storyguide on a laptop and a player on a phone, in both themes: every
line and every bar colour has a legend entry above the chart, and each entry's key is drawn as its series is
(the same colour and dash, as the page computes them). Takes the screenshots of docs/looks.md, "Charts"."""

import itertools
import os
from pathlib import Path

import pytest
from playwright.sync_api import Page

from arsmagica.rules import RandomDiceBox
from arsmagica.services import dice as ars_dice
from combat.rules.dice import RandomDice
from d6.services import dice as d6_dice
from tests.arsmagica.conftest import Table as ArsTable
from tests.arsmagica.test_replay import play_a_fight
from tests.d6.conftest import D6Table
from tests.d6.test_replay import play as play_d6

from .people import PHONE, outside_the_event_loop

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("COVENANT_LOOKS", "/tmp/covenant-looks"))
# For each chart with a legend: where the legend and the chart are, whether the legend comes first in the
# page, and each series as the chart draws it and as its legend's key does (stroke, dash), by name.
LEGENDS = """() => Array.from(document.querySelectorAll('figure.chart-figure')).map((figure) => {
  const legend = figure.querySelector('.chart-legend');
  const chart = figure.querySelector('svg.chart');
  const drawn = (el) => { const s = getComputedStyle(el);
    return [s.stroke === 'none' ? s.fill : s.stroke, s.strokeDasharray]; };
  const lines = Array.from(chart.querySelectorAll('path.series'))
    .map((p) => [p.querySelector('title').textContent, drawn(p)]);
  const bars = Array.from(chart.querySelectorAll('rect.bar')).map((r) => [r.getAttribute('class'), drawn(r)]);
  const keys = legend ? Array.from(legend.querySelectorAll('li')).map((li) => [li.textContent.trim(),
    drawn(li.querySelector('svg.key line, svg.key rect'))]) : [];
  return {
    id: figure.dataset.testid,
    legend: legend ? legend.getBoundingClientRect().toJSON() : null,
    chart: chart.getBoundingClientRect().toJSON(),
    first: legend ? Boolean(legend.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING) : null,
    lines, bars, keys,
  };
})"""


def seeded_ars():
    seeds = itertools.count(1220)
    ars_dice.server_box = lambda: RandomDiceBox(next(seeds))
    table = ArsTable()
    play_a_fight(table)
    return table


def seeded_d6():
    seeds = itertools.count(1220)
    d6_dice.server_dice = lambda: RandomDice(next(seeds))
    table = D6Table()
    play_d6(table)
    return table


def legends_come_first(page: Page, where: str) -> int:
    """Every chart on the page with a series has its legend above it, naming each line (or each bar's colour),
    with a key drawn as the series is; the number of charts checked."""
    checked = 0
    for figure in page.evaluate(LEGENDS):
        if not figure["lines"] and not figure["bars"]:
            continue  # the timeline: a lane for each mark, named at its start
        checked += 1
        assert figure["legend"] and figure["first"], (where, figure["id"])
        assert figure["legend"]["bottom"] <= figure["chart"]["top"] + 1, (where, figure["id"])
        keys = dict((name, look) for name, look in figure["keys"])
        for name, look in figure["lines"]:
            assert keys.get(name) == look, (where, figure["id"], name, keys.get(name), look)
        if figure["bars"]:
            looks = {tuple(look) for _, look in figure["keys"]}
            assert {tuple(look) for _, look in figure["bars"]} <= looks, (where, figure["id"])
            assert len(looks) == len(figure["keys"]), (where, "two measures drawn alike")
    return checked


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("system", ["arsmagica", "d6"])
def test_every_chart_names_its_series_above_it_in_both_themes(table, settings, monkeypatch, system):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    for module, name in ((ars_dice, "server_box"), (d6_dice, "server_dice")):
        monkeypatch.setattr(module, name, getattr(module, name))  # put back after the test
    played = outside_the_event_loop(seeded_ars if system == "arsmagica" else seeded_d6)
    pages = {
        "encounter": f"/encounters/{played.encounter.pk}/charts/",
        "saga": f"/sagas/{played.saga.pk}/charts/",
    }
    for who, user, viewport in (("storyguide", played.storyguide, None), ("player", played.alice, PHONE)):
        person = table.person(who, viewport=viewport)
        person.enter_as(user)
        for where, path in pages.items():
            page = person.goto(path)
            for theme in ("light", "dark"):
                page.emulate_media(color_scheme=theme)
                page.evaluate("(t) => document.documentElement.dataset.theme = t", theme)
                charts = legends_come_first(page, f"{who} {where} {theme}")
                assert charts == (3 if system == "arsmagica" else 2) - (where == "encounter"), (who, where)
                if who == "player" or where == "saga":
                    shoot(page, f"charts-{system}-{where}-{who}-{theme}")
    assert table.page_errors() == []
