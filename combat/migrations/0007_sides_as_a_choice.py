"""Sides become a choice (the players' side, the opponents, or a named third side): the free-text sides of
existing encounters are renamed. In each encounter the largest side with a player character becomes
"Players" and the largest side of NPCs only becomes "Opponents"; any other side keeps its name as a
named third side. The log's events are never edited: they keep the names they were written with."""

from django.db import migrations

PLAYERS, OPPONENTS = "Players", "Opponents"


def renamed_sides(sides: dict[str, dict]) -> dict[str, str]:
    """{old name: new name} for one encounter's sides, each given as {"size", "first", "players"}."""
    names = set(sides)
    renamed: dict[str, str] = {}
    for role, with_players in ((PLAYERS, True), (OPPONENTS, False)):
        if role in names:
            continue
        candidates = [
            name
            for name, side in sides.items()
            if side["players"] == with_players and name not in (PLAYERS, OPPONENTS) and name not in renamed
        ]
        if candidates:
            chosen = max(candidates, key=lambda name: (sides[name]["size"], -sides[name]["first"]))
            renamed[chosen] = role
    return renamed


def sides_as_a_choice(apps, schema_editor):
    Combatant = apps.get_model("combat", "Combatant")
    by_encounter: dict[int, dict[str, dict]] = {}
    for combatant in Combatant.objects.order_by("order", "id").values(
        "id", "encounter_id", "side", "character__is_npc"
    ):
        side = by_encounter.setdefault(combatant["encounter_id"], {}).setdefault(
            combatant["side"], {"size": 0, "first": combatant["id"], "players": False}
        )
        side["size"] += 1
        side["players"] = side["players"] or not combatant["character__is_npc"]
    for encounter_id, sides in by_encounter.items():
        for old, new in renamed_sides(sides).items():
            Combatant.objects.filter(encounter_id=encounter_id, side=old).update(side=new)


class Migration(migrations.Migration):
    dependencies = [("combat", "0006_archive_keys_and_sides")]

    operations = [migrations.RunPython(sides_as_a_choice, migrations.RunPython.noop)]
