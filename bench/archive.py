"""The archive at length: a saga of 200 encounters x 20 Ars Magica rounds, built through the services,
then the history's first page, a replay step, the charts and the exports timed, for the storyguide and a
player.

Run: `.venv/bin/python bench/archive.py` (`--encounters`, `--rounds`, `--repeat`; `--db PATH` keeps the
built saga in that SQLite file and reuses it on the next run; default a file in /tmp). Each timing goes
through Django's test client with the site's own middleware, in this one process: the first page, a
replay step (the middle step of the last encounter, 640 events folded) and an encounter's charts are
the median of `--repeat` requests; the saga's charts the median of three, each way (every event of the
saga folded, as before the finished encounters' summaries; the first view, which writes them; from
them; with the process's CPU time beside each); each export is read to its last byte, its size and the
peak of Python's memory while it was made (tracemalloc, on a separate run, since tracing slows it)
printed beside it. `make test` runs it at one encounter of one round (tests/test_benches.py).
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(db: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The pages render in this process with the apps' static files as they are (no collectstatic), as every
    # figure in docs/performance.md was measured; DEBUG=false in the shell measures the hashed names instead.
    os.environ.setdefault("DEBUG", "true")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build(encounters: int, rounds: int) -> None:
    """The saga, played through the services with the server's random dice: two companions and three
    bandits in every encounter; anyone out of the fight is corrected back on their feet at the end of
    a round (a correction event, as a storyguide would make), and between encounters everyone's levels
    are set back to fresh and unhurt (a bench's shortcut for a season of rest). No screen is open, so the
    live push after each command is skipped."""
    from django.contrib.auth import get_user_model

    from arsmagica import services
    from arsmagica.models import Weapon
    from arsmagica.sheet import new_sheet
    from campaign.models import Character, Membership, Saga
    from combat import live
    from combat.errors import CombatError
    from combat.models import Encounter

    live.broadcast = lambda *args, **kwargs: None  # nobody is watching: no frames to render while building
    User = get_user_model()
    storyguide = User.objects.create_user("bench-sg")
    players = [User.objects.create_user(f"bench-p{n}") for n in (1, 2)]
    saga = Saga.objects.create(name="Bench saga", storyguide=storyguide, rule_system="arsmagica")
    Membership.objects.create(saga=saga, user=storyguide, role="storyguide")
    for player in players:
        Membership.objects.create(saga=saga, user=player, role="player")
    fresh = new_sheet(soak=12, combat_fatigue=3, dodge_defense=3)
    people = [
        (players[0], "Sir Boris"),
        (players[1], "Brother Anselm"),
        (None, "Bandit 1"),
        (None, "Bandit 2"),
    ]
    people.append((None, "Bandit 3"))
    characters = []
    for owner, name in people:
        character = Character.objects.create(
            saga=saga, name=name, owner=owner, is_npc=owner is None, sheet=fresh
        )
        Weapon.objects.create(character=character, name="Sword", initiative=5, attack=7, defense=6, damage=6)
        characters.append(character)

    def version(encounter_id):
        return Encounter.objects.values_list("version", flat=True).get(pk=encounter_id)

    started = time.perf_counter()
    for number in range(encounters):
        Character.objects.filter(saga=saga).update(sheet=fresh)
        encounter = services.create_encounter(storyguide, saga.pk, f"Encounter {number + 1}")
        services.add_combatants(
            storyguide, encounter.pk, version(encounter.pk), [c.pk for c in characters[:2]], "Companions"
        )
        services.add_combatants(
            storyguide, encounter.pk, version(encounter.pk), [c.pk for c in characters[2:]], "Bandits"
        )
        combatants = list(encounter.combatants.select_related("character"))
        companions = [c for c in combatants if not c.character.is_npc]
        bandits = [c for c in combatants if c.character.is_npc]
        weapons = {c.pk: c.character.weapons.first().pk for c in combatants}
        services.open_declarations(storyguide, encounter.pk, version(encounter.pk))
        for _ in range(rounds):  # ending a round opens the next one's declarations
            for combatant in combatants:
                foes = bandits if combatant in companions else companions
                who = combatant.character.owner or storyguide
                values = {"action": "attack", "weapon_id": weapons[combatant.pk], "engage": [foes[0].pk]}
                try:
                    services.declare(who, encounter.pk, combatant.pk, values)
                except CombatError:
                    pass  # down and out: no declaration
            services.close_declarations(storyguide, encounter.pk, version(encounter.pk))
            # phases nobody acts in pass by themselves; the others are rolled and confirmed
            while (phase := Encounter.objects.get(pk=encounter.pk).phase) != "round_over":
                services.preview_phase(storyguide, encounter.pk, version(encounter.pk), phase)
                services.confirm_phase(storyguide, encounter.pk, version(encounter.pk), phase)
            back_on_their_feet(storyguide, encounter.pk, combatants, version)
            services.end_round(storyguide, encounter.pk, version(encounter.pk))
        services.end_encounter(storyguide, encounter.pk, version(encounter.pk))
        if (number + 1) % 20 == 0:
            print(f"  built {number + 1} encounters in {time.perf_counter() - started:.0f} s", flush=True)


DOWN = {"fatigue_level": ("unconscious",), "body_level": ("incapacitated", "dead")}


def back_on_their_feet(storyguide, encounter_id, combatants, version) -> None:
    """The storyguide's correction for anyone out of the fight, so that all five fight every round."""
    from arsmagica import services

    for combatant in combatants:
        combatant.character.refresh_from_db(fields=["sheet"])
        sheet = combatant.character.sheet
        if any(sheet.get(level) in values for level, values in DOWN.items()):
            changes = {"fatigue_level": "fresh", "body_level": "unhurt"}
            services.correct(
                storyguide, encounter_id, version(encounter_id), combatant.pk, changes, "Back on their feet"
            )


def client_for(username: str):
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def first_page(client, saga_id: int, repeat: int) -> tuple[float, int]:
    from django.urls import reverse

    return timed(client, reverse("saga_history", args=[saga_id]), repeat)


def timed(client, url: str, repeat: int) -> tuple[float, int]:
    """The median seconds of `repeat` GETs of a page, and its size."""
    times, size = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url)
        size = len(response.content)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200
    return statistics.median(times), size


def download(client, url: str) -> tuple[float, int, int]:
    """Seconds to the last byte, bytes, and Python's peak memory (MiB) on a second, traced run."""
    started = time.perf_counter()
    response = client.get(url)
    size = sum(len(piece) for piece in response) if response.streaming else len(response.content)
    seconds = time.perf_counter() - started
    tracemalloc.start()
    response = client.get(url)
    if response.streaming:
        collections.deque(response, maxlen=0)  # read it all, keep nothing
    else:
        len(response.content)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, size, peak // (1024 * 1024)


def main_of(page: bytes) -> bytes:
    """A page's <main>: what it shows, without the head's CSRF token, new on every page."""
    return page[page.index(b"<main>") : page.index(b"</main>")]


def saga_charts(client, url: str, who: str) -> None:
    """The saga's charts three ways, each the median of three: every event of the saga folded (as before
    the summaries), the first view with none of this reader's summaries kept (it folds every encounter
    and writes them), and with the finished encounters' summaries read; the pages must be the same.
    Beside each, the process's CPU time (median): on a shared machine, what the page costs itself."""
    from unittest import mock

    from combat.archive import summaries
    from combat.archive.charts import saga_stories
    from combat.models import EncounterSummary

    def measured(times: int) -> tuple[float, float, int]:
        cpu = []
        for _ in range(times):
            started = time.process_time()
            seconds, size = timed(client, url, 1)
            cpu.append((seconds, time.process_time() - started))
        return statistics.median(s for s, _ in cpu), statistics.median(c for _, c in cpu), size

    with mock.patch.object(summaries, "saga_stories_kept", saga_stories):
        before = measured(3)
        whole = main_of(client.get(url).content)
    reader = "storyguide" if who == "bench-sg" else f"player {client.session['_auth_user_id']}"
    EncounterSummary.objects.filter(reader=reader).delete()
    first = measured(1)
    after = measured(3)
    assert main_of(client.get(url).content) == whole, "the charts from the summaries are not the fold's"
    for label, (seconds, cpu, size) in (
        ("every event folded", before),
        ("first view, summaries written", first),
        ("from the summaries", after),
    ):
        print(
            f"{who:9} saga charts, {label + ':':31} {seconds * 1000:7.1f} ms (CPU {cpu * 1000:6.1f} ms), "
            f"{size / 1024:8.1f} KiB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encounters", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--pages-only", action="store_true", help="time the pages, not the exports")
    args = parser.parse_args()
    db = (
        args.db
        or Path(tempfile.gettempdir()) / f"covenant-bench-archive-{args.encounters}x{args.rounds}.sqlite3"
    )
    existed = db.exists()
    setup_django(db)
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from campaign.models import Saga
    from combat.models import Event

    setup_test_environment()  # the test client's hosts; nothing else of the test runner
    if not existed:
        print(f"Building {args.encounters} encounters x {args.rounds} rounds in {db} ...", flush=True)
        build(args.encounters, args.rounds)
    saga = Saga.objects.get(name="Bench saga")
    events = Event.objects.filter(encounter__saga=saga).count()
    print(f"Saga: {saga.encounters.count()} encounters, {events} events ({db})")
    for who in ("bench-sg", "bench-p1"):
        client = client_for(who)
        seconds, size = first_page(client, saga.pk, args.repeat)
        median = f"{seconds * 1000:7.1f} ms (median of {args.repeat})"
        print(f"{who:9} history, first page: {median}, {size / 1024:8.1f} KiB")
        last = saga.encounters.order_by("-id").first()
        seqs = list(Event.objects.filter(encounter=last).order_by("seq").values_list("seq", flat=True))
        pages = (
            (
                "replay step",
                f"{reverse('encounter_replay', args=[last.pk])}?seq={seqs[len(seqs) // 2]}",
                args.repeat,
            ),
            ("encounter charts", reverse("encounter_charts", args=[last.pk]), args.repeat),
        )
        for label, url, times in pages:
            seconds, size = timed(client, url, times)
            median = f"{seconds * 1000:7.1f} ms (median of {times})"
            print(f"{who:9} {label + ':':21} {median}, {size / 1024:8.1f} KiB")
        saga_charts(client, reverse("saga_charts", args=[saga.pk]), who)
        if args.pages_only:
            continue
        for name, label in (
            ("saga_archive_json", "archive.json (format 2, streamed)"),
            ("saga_recap", "recap.md (streamed)"),
            ("saga_history_json", "history.json (format 1, whole)"),
        ):
            seconds, size, peak = download(client, reverse(name, args=[saga.pk]))
            print(
                f"{who:9} {label:34} {seconds:6.1f} s, {size / 2**20:7.1f} MiB, peak Python memory {peak} MiB"
            )


if __name__ == "__main__":
    main()
