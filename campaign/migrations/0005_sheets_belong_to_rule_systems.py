# Written by hand: the sheet columns become the rule systems' JSON sheet; Weapon moved to arsmagica.

from django.db import migrations, models

# Every column a sheet had, with the default it had; each rule system's own migration then keeps
# only the fields its sheet declares (arsmagica 0003, d6table 0003).
LEGACY = {
    "quickness": 0,
    "stamina": 0,
    "finesse": 0,
    "athletics": 0,
    "ride": 0,
    "brawling": 0,
    "soak": 0,
    "dodge_defense": 0,
    "combat_fatigue": 0,
    "encumbrance": 0,
    "fatigue_level": "fresh",
    "body_level": "unhurt",
    "fatigue_state": {},
    "attributes": {},
    "abilities": [],
    "fatigue": 1,
}
DEFAULT_ATTRIBUTES = ["strength", "dexterity", "stamina", "intelligence", "perception", "charisma"]


def columns_to_sheets(apps, schema_editor):
    Character = apps.get_model("campaign", "Character")
    Saga = apps.get_model("campaign", "Saga")
    for character in Character.objects.all():
        character.sheet = {name: getattr(character, name) for name in LEGACY}
        character.save(update_fields=["sheet"])
    for saga in Saga.objects.all():
        saga.options = {"attributes": saga.d6_attributes}
        saga.save(update_fields=["options"])


def sheets_to_columns(apps, schema_editor):
    Character = apps.get_model("campaign", "Character")
    Saga = apps.get_model("campaign", "Saga")
    for character in Character.objects.all():
        for name, default in LEGACY.items():
            setattr(character, name, (character.sheet or {}).get(name, default))
        character.save(update_fields=list(LEGACY))
    for saga in Saga.objects.all():
        saga.d6_attributes = (saga.options or {}).get("attributes", DEFAULT_ATTRIBUTES)
        saga.save(update_fields=["d6_attributes"])


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0004_saga_rule_system_from_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="character",
            name="sheet",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The sheet as the saga's rule system declares it: scores, rows and current levels.",
            ),
        ),
        migrations.AddField(
            model_name="saga",
            name="options",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The saga's options as its rule system declares them (its sheets' attributes, say).",
            ),
        ),
        migrations.RunPython(columns_to_sheets, sheets_to_columns),
        *(migrations.RemoveField(model_name="character", name=name) for name in LEGACY),
        migrations.RemoveField(model_name="saga", name="d6_attributes"),
        # Weapon is arsmagica's now (arsmagica 0002, run before this one); its table stays.
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Weapon")]),
    ]
