"""A revoked API token is refused by every process at once (issue 30, 7).

Each process caches the tokens it has seen for ``TOKEN_CACHE_SECONDS`` (common.auth). The process
that revokes one forgets its cache; before this, every other process went on accepting the token
from its own cache for up to 30 s. Now the revocation leaves a tombstone in the shared cache, which
a process asks for before trusting its cached copy, and is told on a Redis channel, which every
process using the shared cache listens to: while it listens, it trusts its cached copies as they
are and empties its cache on each message (the last part of this file).

"Another process" is simulated by giving this process's token cache back the entries it held
before the revocation (what a process that did not do it still holds), and shown once with a real
second process on a Redis of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection, transaction
from django.test import Client
from rest_framework import exceptions
from rest_framework.authtoken.models import Token

from common import auth
from common.cache import FallbackRedisCache
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


# ---------------------------------------------------------------- hearing revocations


class CountingRedisCache(FallbackRedisCache):
    """The shared cache, counting its reads."""

    reads: list[str] = []

    def get(self, *args: Any, **kwargs: Any) -> Any:
        CountingRedisCache.reads.append(args[0])
        return super().get(*args, **kwargs)


def wait_until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def shared_cache(own_redis: Any, settings: Any) -> Iterator[Any]:
    """The default cache on a Redis of this test's own, as every web process has it."""
    settings.CACHES = {"default": {"BACKEND": f"{__name__}.CountingRedisCache", "LOCATION": own_redis.url}}
    yield own_redis
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def delete_behind_the_back(actor: Actor) -> None:
    """The token gone from the database with no signal in this process: what this process sees when
    another one revokes it (the message, if any, is sent by the test)."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [actor.token])


@pytest.mark.django_db(transaction=True)
def test_while_listening_a_cached_token_asks_nothing_of_redis(
    alice: Actor, shared_cache: Any, django_assert_num_queries: Any
) -> None:
    authenticate = auth.PlayerTokenAuthentication().authenticate_credentials
    assert authenticate(alice.token)[0].pk == alice.player.user_id
    assert wait_until(auth._listening), "the process never subscribed to the revocations"
    authenticate(alice.token)  # the subscription emptied the cache: read once more
    CountingRedisCache.reads.clear()
    with django_assert_num_queries(0):
        for _ in range(3):
            assert authenticate(alice.token)[0].pk == alice.player.user_id
    assert CountingRedisCache.reads == []


@pytest.mark.django_db(transaction=True)
def test_a_revocation_heard_from_another_process_empties_the_cache(alice: Actor, shared_cache: Any) -> None:
    authenticate = auth.PlayerTokenAuthentication().authenticate_credentials
    assert wait_until(auth._listening)
    authenticate(alice.token)
    delete_behind_the_back(alice)
    assert authenticate(alice.token)[0].pk == alice.player.user_id  # still trusted: nothing heard
    forgotten = auth._forgotten
    redis.Redis.from_url(shared_cache.url).publish(auth.CHANNEL, b"")  # another process tells
    assert wait_until(lambda: auth._forgotten != forgotten)
    with pytest.raises(exceptions.AuthenticationFailed):
        authenticate(alice.token)


@pytest.mark.django_db(transaction=True)
def test_a_revocation_in_this_process_is_told_to_the_others(alice: Actor, shared_cache: Any) -> None:
    """The message and the tombstone both go out once the revocation commits."""
    listener = redis.Redis.from_url(shared_cache.url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(auth.CHANNEL)
    try:
        with transaction.atomic():
            Token.objects.filter(user_id=alice.player.user_id).delete()
            assert listener.get_message(timeout=0.3) is None  # nothing before the commit
        message = listener.get_message(timeout=5)
        assert message is not None and message["channel"] == auth.CHANNEL.encode()
    finally:
        listener.close()
    assert cache.get(auth._tombstone_key(alice.token)) == 1


def test_a_token_read_while_a_revocation_is_heard_is_not_kept(db: None, alice: Actor) -> None:
    """A read that began before another process's revocation committed may see the old token: if a
    revocation was heard while it ran, the answer serves this request and is not kept."""
    auth.forget_tokens()

    def revocation_heard_meanwhile(execute: Any, sql: str, *args: Any) -> Any:
        result = execute(sql, *args)
        if "authtoken_token" in sql:
            auth.forget_tokens()  # what the listener does on a message
        return result

    with connection.execute_wrapper(revocation_heard_meanwhile):
        assert auth.authenticated(alice.token)[0].pk == alice.player.user_id
    assert alice.token not in auth._CACHE
    auth.authenticated(alice.token)
    assert alice.token in auth._CACHE  # a quiet read is kept


@pytest.mark.django_db(transaction=True)
def test_a_lost_subscription_falls_back_to_tombstones_and_comes_back(alice: Actor, shared_cache: Any) -> None:
    authenticate = auth.PlayerTokenAuthentication().authenticate_credentials
    assert wait_until(auth._listening)
    shared_cache.kill()
    assert wait_until(lambda: not auth._listening()), "the listener did not notice Redis going away"
    authenticate(alice.token)  # read from the database (the cache was emptied)
    CountingRedisCache.reads.clear()
    authenticate(alice.token)
    assert len(CountingRedisCache.reads) == 1  # a cached token is trusted only after its tombstone
    shared_cache.start()
    assert wait_until(auth._listening, seconds=20), "the listener did not subscribe again"
