from tests.games.conftest import alice, bob, make_actor  # noqa: F401  (the players fixtures)
