"""Names and usernames are unique by their confusables skeleton (``games.names.name_key``).

The display names' keys are made again as skeletons, and every player gets its username's key.
Two existing players whose names (or usernames) now share a key both keep their names: the older
keeps the key, each later one gets a held key (``games.names.HELD`` + its id), which no name
can take away from it and which leaves its name as it is.
"""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from games.names import HELD, name_key

    Player = apps.get_model("games", "Player")
    names: set[str] = set()
    usernames: set[str] = set()
    keys: dict[int, tuple[str, str]] = {}
    for player in Player.objects.select_related("user").order_by("created", "pk").iterator():
        key = name_key(player.display_name)
        if key is None or key in names:
            key = f"{HELD}{player.pk}:{key or ''}"[:200]
        ukey = name_key(player.user.username)
        if ukey is None or ukey in usernames:
            ukey = f"{HELD}{player.pk}:{ukey or ''}"[:200]
        names.add(key)
        usernames.add(ukey)
        keys[player.pk] = (key, ukey)
    Player.objects.update(name_key=None)  # an old key may equal another player's new one
    for pk, (key, ukey) in keys.items():
        Player.objects.filter(pk=pk).update(name_key=key, username_key=ukey)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_player_email_verified"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="username_held_until",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="username_key",
            field=models.CharField(blank=True, editable=False, max_length=200, null=True, unique=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
