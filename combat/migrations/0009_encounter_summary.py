"""A finished encounter's story for the saga's charts, kept per reader (combat.archive.summaries)."""

import combat.archive.tagged
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("combat", "0008_encounter_last_seq"),
    ]

    operations = [
        migrations.CreateModel(
            name="EncounterSummary",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reader",
                    models.CharField(
                        help_text="Whose fold: the storyguide's, or one player's.", max_length=40
                    ),
                ),
                (
                    "inputs",
                    models.JSONField(
                        help_text="What it was folded from besides the log's rows: the log's last seq, the fold's version, and for a player the saga's NPC-rolls setting and whose combatants are whose."
                    ),
                ),
                (
                    "story",
                    models.JSONField(
                        decoder=combat.archive.tagged.TaggedDecoder,
                        help_text="The fold's story; null when it read no event.",
                        null=True,
                    ),
                ),
                (
                    "encounter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="summaries",
                        to="combat.encounter",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("encounter", "reader"), name="one_summary_per_reader")
                ],
            },
        ),
    ]
