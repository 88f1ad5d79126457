"""An encounter can start an evening of the recaps, or keep with the one before (combat.archive.evenings)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("combat", "0009_encounter_summary"),
    ]

    operations = [
        migrations.AddField(
            model_name="encounter",
            name="evening_start",
            field=models.BooleanField(
                blank=True,
                help_text="The storyguide's regrouping of the evening recaps (combat.archive.evenings): True starts a new evening here, False keeps it with the one before; empty leaves it to the time between events.",
                null=True,
            ),
        ),
    ]
