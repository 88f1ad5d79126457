# Written by hand: a combatant's advantage columns become its rule system's JSON state.

from django.db import migrations, models

CARRIED = ("advantage_attack", "advantage_defense")


def columns_to_state(apps, schema_editor):
    Combatant = apps.get_model("combat", "Combatant")
    for combatant in Combatant.objects.all():
        state = {name: getattr(combatant, name) for name in CARRIED}
        if any(state.values()):  # a combatant that carries nothing reads as the system's defaults
            combatant.state = state
            combatant.save(update_fields=["state"])


def state_to_columns(apps, schema_editor):
    Combatant = apps.get_model("combat", "Combatant")
    for combatant in Combatant.objects.all():
        for name in CARRIED:
            setattr(combatant, name, (combatant.state or {}).get(name, 0))
        combatant.save(update_fields=list(CARRIED))


class Migration(migrations.Migration):

    dependencies = [
        ("combat", "0003_core_without_rule_systems"),
    ]

    operations = [
        migrations.AddField(
            model_name="combatant",
            name="state",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="What the rule system keeps of this combatant between rounds (advantage won, say).",
            ),
        ),
        migrations.RunPython(columns_to_state, state_to_columns),
        *(migrations.RemoveField(model_name="combatant", name=name) for name in CARRIED),
    ]
