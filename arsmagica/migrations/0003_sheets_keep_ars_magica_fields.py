# Written by hand: an Ars Magica saga's sheets keep the fields arsmagica.sheet declares.

from django.db import migrations

FIELDS = (
    "quickness",
    "stamina",
    "finesse",
    "athletics",
    "ride",
    "brawling",
    "soak",
    "dodge_defense",
    "combat_fatigue",
    "encumbrance",
    "fatigue_level",
    "body_level",
    "fatigue_state",
)


def keep_declared(apps, schema_editor):
    Character = apps.get_model("campaign", "Character")
    Saga = apps.get_model("campaign", "Saga")
    for character in Character.objects.filter(saga__rule_system="arsmagica"):
        character.sheet = {name: value for name, value in character.sheet.items() if name in FIELDS}
        character.save(update_fields=["sheet"])
    Saga.objects.filter(rule_system="arsmagica").update(options={})


class Migration(migrations.Migration):

    dependencies = [
        ("arsmagica", "0002_weapon_from_campaign"),
        ("campaign", "0005_sheets_belong_to_rule_systems"),
    ]

    operations = [migrations.RunPython(keep_declared, migrations.RunPython.noop)]
