from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_late_entries"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="format",
            field=models.CharField(
                choices=[
                    ("swiss", "Swiss"),
                    ("round_robin", "round robin"),
                    ("knockout", "knockout"),
                    ("double_elim", "Double elimination"),
                ],
                default="swiss",
                max_length=12,
            ),
        ),
    ]
