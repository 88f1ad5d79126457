# Troupe play (issue 38): `Saga.storyguide` is the saga's lead storyguide; its troupe is its memberships of
# role "storyguide" (the lead's among them). Only the field's help text changes.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('campaign', '0010_npc_rolls_words_are_the_systems'),
    ]

    operations = [
        migrations.AlterField(
            model_name='saga',
            name='storyguide',
            field=models.ForeignKey(
                help_text="The saga's lead storyguide: who changes who its storyguides are, archives and "
                "deletes it.",
                on_delete=django.db.models.deletion.PROTECT,
                related_name='+',
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
