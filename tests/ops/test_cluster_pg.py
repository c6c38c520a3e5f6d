"""Beyond one machine, on loopback, at a tiny size (``bench/cluster.py`` gives the figures): two
gunicorn web nodes and two uvicorn live nodes behind a proxy routing as ``docker/nginx.conf``, one
Redis of the test's own, the PostgreSQL test database.

Only arrival and counts are asserted, never how fast.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection

from bench.cluster import Cluster, cross_node_moves, same_player_streams, signin_throttle

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LOGIN_LIMIT = 5


@pytest.fixture(scope="module")
def cluster(django_db_setup: None) -> Iterator[Cluster]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    nodes = Cluster(url, web_workers=1, login_limit=LOGIN_LIMIT)
    try:
        with nodes:
            yield nodes
    finally:
        nodes.cleanup()


def test_a_move_through_either_web_node_reaches_table_streams_on_both_live_nodes(cluster: Cluster) -> None:
    out = cross_node_moves(cluster, moves=4)
    assert out["moves"] == 4 and out["statuses"] == {201: 4}
    assert out["missing"] == [], "every move's state arrives on the stream of each live node"
    assert set(out["latency"]) == {(w, lv) for w in ("web-a", "web-b") for lv in ("live-a", "live-b")}


def test_one_players_topic_stream_and_event_stream_both_work_on_one_live_process(cluster: Cluster) -> None:
    out = same_player_streams(cluster)
    assert out["topic_node"] == out["events_node"], "both streams are held by one live process"
    assert out["table"] in out["state_tables"]
    assert out["changed"] == [f"player:{out['player']}"], "the page's topic stream hears the turn"
    assert out["your_turn_table"] == out["table"], "the event stream hears it too"
    assert out["node_errors"] == [], "neither stream broke the other's channel"


def test_wrong_passwords_from_parallel_clients_through_both_web_nodes_stop_at_the_account_limit(
    cluster: Cluster,
) -> None:
    out = signin_throttle(cluster, clients=8, attempts=3)
    assert out["statuses"] == {400: LOGIN_LIMIT, 429: 8 * 3 - LOGIN_LIMIT}
    assert {node for node, _ in out["nodes"]} == {"web-a", "web-b"}, "both web nodes took attempts"
    # Each client was told apart by the address the proxy appended to X-Forwarded-For.
    assert set(out["addresses"]) >= {f"127.0.0.{20 + i}" for i in range(8)}
