from django.conf import settings
from django.db import migrations


def players_for_users(apps, schema_editor):
    """Accounts made before every account got its player (e.g. by createsuperuser) get one now."""
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Player = apps.get_model("games", "Player")
    Player.objects.bulk_create(
        Player(user_id=user.pk, display_name=user.username[:40])
        for user in User.objects.filter(player__isnull=True)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_bots"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(players_for_users, migrations.RunPython.noop)]
