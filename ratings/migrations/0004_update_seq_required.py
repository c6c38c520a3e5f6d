from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ratings", "0003_update_seq")]

    operations = [
        migrations.AlterField(
            model_name="ratingupdate",
            name="seq",
            field=models.PositiveBigIntegerField(help_text="order of application within the game (1, 2, …)"),
        ),
        migrations.AddConstraint(
            model_name="ratingupdate",
            constraint=models.UniqueConstraint(fields=("game", "seq"), name="rating_update_game_seq_unique"),
        ),
    ]
