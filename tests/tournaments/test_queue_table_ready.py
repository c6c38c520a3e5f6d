"""When a ladder's queue forms a table, each queued player hears of it: after the commit the ladder
and each player's live topic are published (their queue page reads its fragment again and goes to
the table), each gets a notification "Your table in <ladder> is ready" linking to it, and the
ladder page (with or without JavaScript) links to their table instead of offering the queue."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from django.test import Client

from accounts import kinds
from accounts.models import Notification
from games import services as games
from games.models import Player, Table
from tests.live.conftest import REDIS
from tournaments import ladders
from tournaments.models import Ladder

from .test_ladder_pages import make_ladder, page, people

pytestmark = pytest.mark.django_db

__all__ = ["people"]  # the fixture, shared with the ladder page's tests

SEATED = ["ann", "ben", "cat"]


def queued_ladder(p: dict[str, Player]) -> Ladder:
    """A 3-seat ladder of ann, ben, cat and dan, with the first three queued (and no wait for a
    fair table: the next matchmaking seats them)."""
    ladder = make_ladder(p, [*SEATED, "dan"], seats=3)
    ladder.queue_wait_seconds = 0
    ladder.save()
    for name in SEATED:
        ladders.queue_join(ladder=ladder, player=p[name])
    return ladder


def published(channels: list[str], run: Callable[[], Any], settings: Any) -> tuple[Any, set[str]]:
    """``run()``'s result and which of ``channels`` (Redis pub/sub, the live layer's) were
    published while it ran, heard on a real subscription."""
    settings.REDIS_URL = REDIS  # this process publishes, as a web or worker process would
    sub = redis.Redis.from_url(REDIS).pubsub(ignore_subscribe_messages=True)
    sub.subscribe(*channels)
    try:
        while sub.get_message(timeout=0.5) is not None:
            pass  # settle the subscription
        result = run()
        heard: set[str] = set()
        end = time.monotonic() + 5
        while time.monotonic() < end and not set(channels) <= heard:
            message = sub.get_message(timeout=0.2)
            if message and message["type"] == "message":
                heard.add(message["channel"].decode())
        return result, heard
    finally:
        sub.close()


def queue_section(html: str) -> str:
    return html.split('<section id="queue">', 1)[1].split("</section>", 1)[0]


def test_a_formed_table_is_published_and_notified_to_each_queued_player_after_the_commit(
    people: dict[str, Player], settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    p = people
    ladder = queued_ladder(p)
    channels = [f"live:ladder:{ladder.pk}", *(f"live:player:{p[n].pk}" for n in SEATED)]

    def form() -> Table:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            (table,) = ladders.matchmake(ladder=ladder)
        # Nothing is told before the commit: no notification yet.
        assert not Notification.objects.filter(kind="queue_table").exists()
        for callback in callbacks:
            callback()
        return table

    table, heard = published(channels, form, settings)
    assert set(channels) <= heard, f"not published: {set(channels) - heard}"
    url = f"/tables/{table.pk}/"
    notices = {n.user_id: n for n in Notification.objects.filter(kind="queue_table")}
    assert set(notices) == {p[n].user_id for n in SEATED}
    for name in SEATED:
        n = notices[p[name].user_id]
        assert n.url == url
        assert kinds.title(n.kind, n.params) == "Your table in Club Ladder is ready"
        others = [o.capitalize() for o in SEATED if o != name]
        assert kinds.detail(n.kind, n.params) == (
            f"Shacru against {others[0]} and {others[1]} (table {table.pk})."
        )
    # The inbox lists it, with the link.
    client = Client()
    client.force_login(p["ann"].user)
    inbox = client.get("/notifications/").content.decode()
    assert "Your table in Club Ladder is ready" in inbox
    opened = client.get(f"/notifications/{notices[p['ann'].user_id].pk}/")
    assert opened.status_code == 302 and opened["Location"] == url


def test_the_ladder_page_links_each_seated_player_to_their_table_instead_of_the_queue(
    people: dict[str, Player], django_capture_on_commit_callbacks: Any
) -> None:
    p = people
    ladder = queued_ladder(p)
    with django_capture_on_commit_callbacks(execute=True):
        (table,) = ladders.matchmake(ladder=ladder)
    url = f"/tables/{table.pk}/"
    for name in SEATED:
        # The page as served (no JavaScript needed) and the live fragment the queue page reads.
        for html in (page(p[name], ladder), fragment(p[name], ladder)):
            queue = queue_section(html)
            assert f'data-go="{url}"' in queue
            assert re.search(
                rf'Your table is ready:</strong> <a class="button go" href="{url}">Go to table</a>', queue
            )
            assert 'id="join-queue"' not in queue and 'id="leave-queue"' not in queue
    # Someone not at the table still has the queue, and no link to anyone's table.
    for viewer in (p["dan"], None):
        queue = queue_section(page(viewer, ladder))
        assert "data-go" not in queue and url not in queue
    assert 'id="join-queue"' in queue_section(page(p["dan"], ladder))
    # Once a player is out of the game, or the game is over, they may queue again.
    games.game_resign(table_id=table.pk, player=p["ann"])
    queue = queue_section(page(p["ann"], ladder))
    assert 'id="join-queue"' in queue and "data-go" not in queue
    assert f'data-go="{url}"' in queue_section(page(p["ben"], ladder))
    games.game_resign(table_id=table.pk, player=p["ben"])
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    for name in SEATED:
        queue = queue_section(page(p[name], ladder))
        assert 'id="join-queue"' in queue and "data-go" not in queue


def fragment(player: Player, ladder: Ladder) -> str:
    client = Client()
    client.force_login(player.user)
    response = client.get(f"/ladders/{ladder.pk}/?fragment=1")
    assert response.status_code == 200
    return response.content.decode()


def test_joining_or_leaving_the_queue_is_published_to_the_ladders_pages(
    people: dict[str, Player], settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Every open page of the ladder shows who waits: a join or a leave publishes the ladder."""
    p = people
    ladder = make_ladder(p, [*SEATED, "dan"], seats=3)
    channels = [f"live:ladder:{ladder.pk}", f"live:player:{p['dan'].pk}"]

    def join() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            ladders.queue_join(ladder=ladder, player=p["dan"])

    def leave() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            ladders.queue_leave(ladder=ladder, player=p["dan"])

    assert published(channels, join, settings)[1] == set(channels)
    assert published(channels, leave, settings)[1] == set(channels)
    # Leaving a queue one is not in changes nothing, and tells nobody.
    assert published(channels, leave, settings)[1] == set()
