# Written by hand: a d6 saga's sheets keep the fields d6.sheet declares.

from django.db import migrations

FIELDS = ("attributes", "abilities", "fatigue")


def keep_declared(apps, schema_editor):
    Character = apps.get_model("campaign", "Character")
    for character in Character.objects.filter(saga__rule_system="d6fatigue"):
        character.sheet = {name: value for name, value in character.sheet.items() if name in FIELDS}
        character.save(update_fields=["sheet"])


class Migration(migrations.Migration):

    dependencies = [
        ("d6table", "0002_players_act"),
        ("campaign", "0005_sheets_belong_to_rule_systems"),
    ]

    operations = [migrations.RunPython(keep_declared, migrations.RunPython.noop)]
