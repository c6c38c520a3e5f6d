from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Account
from games.models import Player
from tests.games.conftest import Actor, alice, bob, carol, make_actor  # noqa: F401  (fixtures)

from .smtp import SmtpServer


@pytest.fixture
def smtp(settings: Any) -> Iterator[SmtpServer]:
    """A real SMTP server; the service's mail goes to it."""
    server = SmtpServer()
    server.start()
    for key, value in server.settings().items():
        setattr(settings, key, value)
    settings.SITE_URL = "http://testserver"
    try:
        yield server
    finally:
        server.stop()


def verified(actor: Actor, address: str | None = None) -> Actor:
    """Give the actor a confirmed e-mail address (as if they followed the link)."""
    user = actor.player.user
    user.email = address or f"{user.username}@example.org"
    user.save(update_fields=["email"])
    Account.objects.update_or_create(user=user, defaults={"email_verified_at": timezone.now()})
    Player.objects.filter(pk=actor.player.pk).update(email_verified=True)
    actor.player.refresh_from_db()
    return actor
