# The one-time command keys become campaign's (the plain forms of every floor claim them): the model moves,
# its table stays as it is (combat_commandkey), so nothing is copied; combat 0011 drops it from combat.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaign', '0008_reset_links'),
        ('combat', '0010_encounter_evening_start'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='CommandKey',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=40, unique=True)),
                        ('result', models.CharField(blank=True, help_text="Where a plain form's first post led: a repeat goes there too.", max_length=200)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('saga', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='campaign.saga')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={'db_table': 'combat_commandkey'},
                ),
            ],
            database_operations=[],
        ),
    ]
