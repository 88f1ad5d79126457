"""The fan-out bench's tables: T Ars Magica sagas, each with a storyguide, P players with a character
each, three bandits, and one encounter with declarations open, made through the app's own services.

Run as a script (`python bench/seed.py --tables T --players P --prefix NAME`) with DATABASE_URL and
DJANGO_SETTINGS_MODULE set, it prints the tables as JSON on stdout; `make_tables` does the same
inside a process where Django is already set up (the suite's check).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

PASSWORD = "bench-fanout-1220"


def make_user(username: str):
    """A user with the bench password (hashed by the settings' first hasher)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def make_character(saga, name: str, owner, is_npc: bool, scores: dict, weapons: list):
    """A character with its sheet and weapons, as the demo loader makes them."""
    from arsmagica.models import Weapon
    from arsmagica.sheet import new_sheet
    from campaign.models import Character

    character = Character.objects.create(
        saga=saga, name=name, owner=owner, is_npc=is_npc, sheet=new_sheet(**scores)
    )
    for weapon in weapons:
        Weapon.objects.create(character=character, **weapon)
    return character


def make_table(prefix: str, index: int, players: int, bandits: int = 3) -> dict:
    """One saga and its encounter, ready for a round: {encounter, storyguide, players, combatants}; the
    bandits are the demo's three (Bandit 1 to 3), their weapons in turn for more."""
    from arsmagica import services as ars
    from arsmagica.management.commands.load_demo import BANDITS, COMPANIONS, SHEET
    from arsmagica.system import KEY
    from campaign import services as campaign
    from combat import services as combat
    from combat.models import Encounter

    storyguide = make_user(f"{prefix}-t{index}-sg")
    saga = campaign.create_saga(storyguide, name=f"{prefix} table {index}", rule_system=KEY)
    companions = []
    for number in range(players):
        player = make_user(f"{prefix}-t{index}-p{number}")
        campaign.join_saga(player, saga)
        _, name, scores, weapons = COMPANIONS[number % len(COMPANIONS)]
        companions.append(
            make_character(saga, f"{name} {number}", player, False, {**SHEET, **scores}, weapons)
        )
    bandits = [
        make_character(saga, f"Bandit {n + 1}", None, True, dict(SHEET), [BANDITS[n % len(BANDITS)][1]])
        for n in range(bandits)
    ]
    encounter = combat.create_encounter(storyguide, saga.pk, "Ambush on the forest road", KEY)
    for side, members in (("Companions", companions), ("Bandits", bandits)):
        version = Encounter.objects.get(pk=encounter.pk).version
        combat.add_combatants(storyguide, encounter.pk, version, [c.pk for c in members], side)
    version = Encounter.objects.get(pk=encounter.pk).version
    ars.open_declarations(storyguide, encounter.pk, version)
    return {
        "encounter": encounter.pk,
        "storyguide": storyguide.username,
        "players": [f"{prefix}-t{index}-p{number}" for number in range(players)],
        "combatants": list(encounter.combatants.order_by("pk").values_list("pk", flat=True)),
    }


def make_tables(tables: int, players: int, prefix: str) -> list[dict]:
    """`tables` tables of `players` players each (see make_table)."""
    return [make_table(prefix, index, players) for index in range(tables)]


def main() -> None:
    """Set Django up from the environment, make the tables, print them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument(
        "--prefix", required=True, help="unique per run: usernames and saga names start with it"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    json.dump(make_tables(args.tables, args.players, args.prefix), sys.stdout)


if __name__ == "__main__":
    main()
