"""The move path writes less: two indexes that others already cover go (a move's insert and a
table's status change maintain one index fewer each), and on PostgreSQL the tables' pages keep a
fifth free, so a move's update of its table (a new position every move) can stay on its page
without touching the indexes (a HOT update) instead of adding an entry to each of them."""

import django.db.models.deletion
from django.db import migrations, models


def leave_room(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_table SET (fillfactor = 80)")


def keep_full(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_table RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_mail_username_key_skeleton"),
    ]

    operations = [
        migrations.RunPython(leave_room, keep_full, elidable=False),
        migrations.AlterField(
            model_name="move",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="moves",
                to="games.table",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="status",
            field=models.CharField(
                choices=[
                    ("open", "open (waiting for players)"),
                    ("active", "active"),
                    ("finished", "finished"),
                    ("aborted", "aborted"),
                ],
                default="open",
                max_length=8,
            ),
        ),
    ]
