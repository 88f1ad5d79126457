# Troupe play (issue 38): each encounter's storyguide's seat, held by one of its saga's storyguides. Every
# encounter made before is held by its saga's storyguide (the lead), who ran it: a saga of one storyguide
# reads as it did.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def seat_the_storyguide(apps, schema_editor):
    """Each encounter's seat to its saga's storyguide."""
    Encounter = apps.get_model("combat", "Encounter")
    Saga = apps.get_model("campaign", "Saga")
    storyguide = Saga.objects.filter(pk=models.OuterRef("saga_id")).values("storyguide_id")
    Encounter.objects.update(seat_holder_id=models.Subquery(storyguide))


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('campaign', '0011_saga_lead'),
        ('combat', '0011_command_keys_below_the_table'),
    ]

    operations = [
        migrations.AddField(
            model_name='encounter',
            name='seat_holder',
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name='+',
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(seat_the_storyguide, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='encounter',
            name='seat_holder',
            field=models.ForeignKey(
                help_text="Who holds this encounter's storyguide's seat: one of its saga's storyguides, its "
                "controls and the storyguide's version of it theirs (combat.access.holds_seat).",
                on_delete=django.db.models.deletion.PROTECT,
                related_name='+',
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
