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


def make_table(prefix: str, index: int, players: int, bandits: int = 3, rounds: int = 0) -> dict:
    """One saga and its encounter, ready for a round: {encounter, storyguide, players, combatants}; the
    bandits are the demo's three (Bandit 1 to 3), their weapons in turn for more. `rounds`: that many
    rounds played first (`play_rounds`), so the bench's commands come in round `rounds + 1`."""
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
    play_rounds(storyguide, encounter.pk, rounds)
    return {
        "encounter": encounter.pk,
        "storyguide": storyguide.username,
        "players": [f"{prefix}-t{index}-p{number}" for number in range(players)],
        "combatants": list(encounter.combatants.order_by("pk").values_list("pk", flat=True)),
    }


def play_rounds(storyguide, encounter_id: int, rounds: int) -> None:
    """Play `rounds` whole rounds through the services, no screen open (no push): everyone declares an
    attack on the other side's first who can be engaged, every phase is previewed and confirmed, anyone
    out of the fight is corrected back on their feet, and the round's end opens the next one's
    declarations (about thirty events a round at 8 players and 3 bandits)."""
    from unittest import mock

    from arsmagica import services as ars
    from combat import live
    from combat.errors import CombatError
    from combat.models import Combatant, Encounter

    def version() -> int:
        return Encounter.objects.values_list("version", flat=True).get(pk=encounter_id)

    combatants = list(Combatant.objects.filter(encounter_id=encounter_id).select_related("character"))
    with mock.patch.object(live, "broadcast", lambda *args, **kwargs: None):
        for _ in range(rounds):
            for combatant in combatants:
                foes = [c for c in combatants if c.side != combatant.side]
                weapon = combatant.character.weapons.order_by("pk").first()
                values = {"action": "attack", "weapon_id": weapon.pk, "engage": [foes[0].pk]}
                try:
                    ars.declare(combatant.character.owner or storyguide, encounter_id, combatant.pk, values)
                except CombatError:
                    pass  # down and out: no declaration
            ars.close_declarations(storyguide, encounter_id, version())
            while (phase := Encounter.objects.get(pk=encounter_id).phase) != "round_over":
                ars.preview_phase(storyguide, encounter_id, version(), phase)
                ars.confirm_phase(storyguide, encounter_id, version(), phase)
            for combatant in combatants:
                combatant.character.refresh_from_db(fields=["sheet"])
                sheet = combatant.character.sheet
                if sheet.get("fatigue_level") != "fresh" or sheet.get("body_level") != "unhurt":
                    changes = {"fatigue_level": "fresh", "body_level": "unhurt"}
                    why = "Back on their feet"
                    ars.correct(storyguide, encounter_id, version(), combatant.pk, changes, why)
            ars.end_round(storyguide, encounter_id, version())


def make_tables(tables: int, players: int, prefix: str, rounds: int = 0) -> list[dict]:
    """`tables` tables of `players` players each (see make_table), `rounds` rounds played in each."""
    return [make_table(prefix, index, players, rounds=rounds) for index in range(tables)]


def main() -> None:
    """Set Django up from the environment, make the tables, print them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument(
        "--prefix", required=True, help="unique per run: usernames and saga names start with it"
    )
    parser.add_argument("--rounds", type=int, default=0, help="rounds played in each before the bench")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    json.dump(make_tables(args.tables, args.players, args.prefix, args.rounds), sys.stdout)


if __name__ == "__main__":
    main()
