"""Number the rating updates of each game in the order they were applied (their id order)."""

from django.db import migrations, models


def number_updates(apps, schema_editor):
    RatingLedger = apps.get_model("ratings", "RatingLedger")
    RatingUpdate = apps.get_model("ratings", "RatingUpdate")
    for game in RatingUpdate.objects.values_list("game", flat=True).distinct().order_by("game"):
        ids = list(RatingUpdate.objects.filter(game=game).order_by("id").values_list("id", flat=True))
        rows = [RatingUpdate(id=pk, seq=n) for n, pk in enumerate(ids, start=1)]
        RatingUpdate.objects.bulk_update(rows, ["seq"], batch_size=2000)
        RatingLedger.objects.update_or_create(game=game, defaults={"seq": len(ids)})


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_ledger_rows")]

    operations = [
        migrations.AddField(
            model_name="ratingledger",
            name="seq",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="ratingupdate",
            name="seq",
            field=models.PositiveBigIntegerField(
                null=True, help_text="order of application within the game (1, 2, …)"
            ),
        ),
        migrations.RunPython(number_updates, migrations.RunPython.noop),
    ]
