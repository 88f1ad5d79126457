# The one-time command keys are campaign's now (campaign 0009): the model leaves combat's state, its table
# stays, campaign's.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('campaign', '0009_command_keys_below_the_table'),
        ('combat', '0010_encounter_evening_start'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='CommandKey')],
            database_operations=[],
        ),
    ]
