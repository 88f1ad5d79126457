"""An encounter keeps its newest event's sequence number, so that a command numbers its events from the
row it has locked instead of asking the log for its largest (docs/performance.md): existing encounters
get theirs from their logs."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce


def last_seq_from_the_log(apps, schema_editor):
    Encounter = apps.get_model("combat", "Encounter")
    Event = apps.get_model("combat", "Event")
    newest = Event.objects.filter(encounter=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    Encounter.objects.update(last_seq=Coalesce(Subquery(newest), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("combat", "0007_sides_as_a_choice"),
    ]

    operations = [
        migrations.AddField(
            model_name="encounter",
            name="last_seq",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The newest event's sequence number (0 before any), kept with the log under the "
                "encounter's lock: the next event is one more.",
            ),
        ),
        migrations.RunPython(last_seq_from_the_log, migrations.RunPython.noop),
    ]
