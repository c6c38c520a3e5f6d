from django.db import migrations


def create_ledgers(apps, schema_editor):
    RatingLedger = apps.get_model("ratings", "RatingLedger")
    for game in ("shacru", "azacru", "pacru"):
        RatingLedger.objects.get_or_create(game=game)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(create_ledgers, migrations.RunPython.noop)]
