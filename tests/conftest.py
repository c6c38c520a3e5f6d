"""Test-wide configuration."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings

from tests.celery_worker import celery  # noqa: F401  (a real worker, as a fixture for any test)
from tests.games.conftest import alice, anon, bob, carol, make_actor  # noqa: F401  (accounts, for any test)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``postgres`` need PostgreSQL; scripts/test deselects them on SQLite."""
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: run with DATABASE_URL=postgres://…")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: object) -> None:
    """Real hashing costs a quarter second per account; tests need no strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Every test starts with no request counted: the throttles' counts live in the cache, and a
    test signing in twenty times must not leave the next one throttled. Only the in-process cache
    is cleared (a Redis cache may share its server with a broker)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    backend = caches["default"]
    if isinstance(backend, LocMemCache):
        backend.clear()


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A request activates its language in the thread (as Django's LocaleMiddleware does in every
    server); a test calling a service directly afterwards must not inherit the last request's."""
    from django.utils import translation

    yield
    translation.deactivate()
