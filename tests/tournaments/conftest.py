from tests.games.conftest import alice, anon, bob, carol, make_actor  # noqa: F401  (shared fixtures)
