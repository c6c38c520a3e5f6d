"""A revoked API token is refused by every process at once (issue 30, 7).

Each process caches the tokens it has seen for ``TOKEN_CACHE_SECONDS`` (common.auth). The process
that revokes one forgets its cache; before this, every other process went on accepting the token
from its own cache for up to 30 s. Now the revocation leaves a tombstone in the shared cache, which
a process asks for before trusting its cached copy.

"Another process" is simulated by giving this process's token cache back the entries it held
before the revocation (what a process that did not do it still holds), and shown once with a real
second process on a Redis of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection, transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from common import auth
from tests.games.conftest import Actor
from tests.ops.redis_server import own_redis

__all__ = ["own_redis"]

ROOT = Path(__file__).resolve().parents[2]


class CountingCache(LocMemCache):
    """A memory cache that counts its reads (to show what the common case costs)."""

    reads: list[str] = []

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        CountingCache.reads.append(key)
        return super().get(key, default, version)


@pytest.fixture
def other_process() -> Iterator[Callable[[], None]]:
    """Call it after a revocation: this process's token cache gets back the entries it held before
    the revocation, as another process (which did not revoke anything) still holds them."""
    held: dict[str, Any] = {}

    def hold() -> None:
        held.update(auth._CACHE)

    def restore() -> None:
        auth._CACHE.update(held)

    auth.forget_tokens()
    yield lambda: restore() if held else hold()
    auth.forget_tokens()


def log_out_everywhere(actor: Actor) -> None:
    browser = Client()
    browser.force_login(actor.player.user)
    assert browser.post("/accounts/settings/sessions/", {"action": "all"}).status_code in (200, 302)


def deactivate(actor: Actor) -> None:
    user = get_user_model().objects.get(pk=actor.player.user_id)
    user.is_active = False
    user.save()


def new_password(actor: Actor) -> None:
    user = get_user_model().objects.get(pk=actor.player.user_id)
    user.set_password("a-brand-new-secret-7")
    user.save()


def token_deleted_in_the_admin(actor: Actor) -> None:
    Token.objects.get(user_id=actor.player.user_id).delete()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("revoke", [log_out_everywhere, deactivate, new_password, token_deleted_in_the_admin])
def test_a_revoked_token_is_refused_by_a_process_that_still_holds_it(
    alice: Actor, other_process: Callable[[], None], revoke: Callable[[Actor], None]
) -> None:
    assert alice.get("/api/v1/notifications/").status_code == 200  # the token is cached now
    other_process()  # what another process holds: the token, valid
    revoke(alice)
    other_process()  # ... which it still holds after the revocation
    answer = alice.get("/api/v1/notifications/")
    assert answer.status_code == 401, answer.content
    assert alice.get("/api/v1/notifications/").status_code == 401


@pytest.mark.django_db(transaction=True)
def test_a_revocation_rolled_back_revokes_nothing(alice: Actor, other_process: Callable[[], None]) -> None:
    assert alice.get("/api/v1/notifications/").status_code == 200
    other_process()
    with pytest.raises(RuntimeError), transaction.atomic():
        Token.objects.filter(user_id=alice.player.user_id).delete()
        raise RuntimeError("the request failed")
    other_process()
    assert alice.get("/api/v1/notifications/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_another_token_of_the_same_user_works_at_once(
    alice: Actor, other_process: Callable[[], None]
) -> None:
    """A tombstone is per token: the user's new token (after "log out everywhere") is not refused."""
    assert alice.get("/api/v1/notifications/").status_code == 200
    other_process()
    log_out_everywhere(alice)
    other_process()
    fresh = Token.objects.create(user=alice.player.user).key
    alice.client.credentials(HTTP_AUTHORIZATION=f"Token {fresh}")
    assert alice.get("/api/v1/notifications/").status_code == 200


def test_the_common_case_costs_no_query_and_one_cache_read(
    db: None, alice: Actor, settings: Any, django_assert_num_queries: Any
) -> None:
    settings.CACHES = {"default": {"BACKEND": f"{__name__}.CountingCache"}}
    auth.forget_tokens()
    authenticate = auth.PlayerTokenAuthentication().authenticate_credentials
    user, _ = authenticate(alice.token)  # a miss: the database, no cache read
    assert user.pk == alice.player.user_id
    CountingCache.reads.clear()
    with django_assert_num_queries(0):
        for _ in range(3):
            assert authenticate(alice.token)[0].pk == alice.player.user_id
    assert len(CountingCache.reads) == 3, CountingCache.reads  # one read per request
    assert all(alice.token not in key for key in CountingCache.reads)  # the key is no credential


# ---------------------------------------------------------------- two real processes


SECOND_PROCESS = """
import sys
import django
django.setup()
from rest_framework import exceptions
from common.auth import PlayerTokenAuthentication
authenticate = PlayerTokenAuthentication().authenticate_credentials
for line in sys.stdin:
    try:
        authenticate(line.strip())
        print("accepted", flush=True)
    except exceptions.AuthenticationFailed:
        print("refused", flush=True)
"""


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_log_out_everywhere_is_refused_at_once_by_a_second_process(
    alice: Actor, own_redis: Any, settings: Any
) -> None:
    """Two processes sharing PostgreSQL and a Redis: the second caches the token, the first logs the
    user out everywhere, and the second refuses the token on its very next request."""
    settings.CACHES = {"default": {"BACKEND": "common.cache.FallbackRedisCache", "LOCATION": own_redis.url}}
    db = connection.settings_dict
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
        "REDIS_URL": own_redis.url,
        "TOKEN_CACHE_SECONDS": "30",
    }
    second = subprocess.Popen(
        [sys.executable, "-c", SECOND_PROCESS],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert second.stdin is not None and second.stdout is not None

    def ask() -> str:
        second.stdin.write(alice.token + "\n")  # type: ignore[union-attr]
        second.stdin.flush()  # type: ignore[union-attr]
        return second.stdout.readline().strip()  # type: ignore[union-attr]

    try:
        assert ask() == "accepted"  # read from the database, cached for 30 s
        assert ask() == "accepted"  # from its own cache
        log_out_everywhere(alice)
        assert ask() == "refused"
    finally:
        second.stdin.close()
        second.wait(timeout=30)
