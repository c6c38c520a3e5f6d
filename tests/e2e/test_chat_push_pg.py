"""A busy room's chat pushed to the browser (issue 36): an event page served by the ASGI server
reads its room once from the chat API (the page learns the room's id from that read), then opens
the room's stream ``/live/chat/<room>/`` and asks the API nothing more: messages and a moderator's
removal arrive in the stream. A reader who blocked a player never sees that player's messages,
although the room's stream is read once for everyone. One reader on a laptop, one on a phone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from community import chat, moderation, rooms
from games import blocks
from tests.community.conftest import make_world
from tests.live import conftest as live
from tests.live.conftest import Uvicorn

from .conftest import Browsers, shoot
from .test_live_push_pg import signed_in

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The uvicorn server of tests/live (a module-scoped fixture): pages served by it offer push.
uvicorn_server = live.uvicorn_server

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_an_event_pages_chat_comes_through_the_rooms_stream(
    browser: Browser, uvicorn_server: Uvicorn, settings: Any, artifacts: Path
) -> None:
    settings.REDIS_URL = live.REDIS  # the messages below are posted in this process: it publishes
    world = make_world()
    blocks.block(player=world.ben.player, other_id=world.ann.player.pk)
    api = f"/api/v1/tournaments/{world.event.pk}/chat/"
    people = Browsers(browser, uvicorn_server.url)
    try:
        pages: dict[str, Page] = {}
        reads: dict[str, list[str]] = {}
        for name, page in (("anyone", people.open(**PHONE)), ("ben", signed_in(people, world.ben))):
            reads[name] = []
            page.on(
                "request",
                lambda r, log=reads[name]: log.append(r.method) if urlsplit(r.url).path == api else None,
            )
            with page.expect_response(lambda r: urlsplit(r.url).path.startswith("/live/chat/")) as pushed:
                page.goto(f"{uvicorn_server.url}/tournaments/{world.event.pk}/")
            assert pushed.value.status == 200
            pages[name] = page
        room = rooms.event_room(tournament=world.event)
        assert urlsplit(pushed.value.url).path == f"/live/chat/{room.pk}/"
        assert reads == {"anyone": ["GET"], "ben": ["GET"]}  # the one first read, which names the room

        hidden = chat.post(room=room, author=world.ann.player, text="Ann says hello")
        chat.post(room=room, author=world.member.player, text="The member says hello, https://example.org")
        for page in pages.values():
            expect(page.locator("#chat .chat-log")).to_contain_text("The member says hello")
        expect(pages["anyone"].locator("#chat .chat-log")).to_contain_text("Ann says hello")
        assert "Ann says hello" not in pages["ben"].locator("#chat .chat-log").inner_text()
        assert pages["ben"].locator(f'#chat .chat-msg[data-id="{hidden.pk}"]').count() == 0

        moderation.message_delete(message_id=hidden.pk, by=world.org.player, reason="a test of the stream")
        removed = pages["anyone"].locator(f'#chat .chat-msg[data-id="{hidden.pk}"].removed')
        expect(removed).to_be_visible()
        expect(pages["anyone"].locator("#chat .chat-log")).not_to_contain_text("Ann says hello")
        assert pages["ben"].locator(f'#chat .chat-msg[data-id="{hidden.pk}"]').count() == 0
        assert reads == {"anyone": ["GET"], "ben": ["GET"]}, "the panel read the API while pushed"
        pages["anyone"].locator("#chat").scroll_into_view_if_needed()
        shoot(pages["anyone"], artifacts, "chat-pushed-event", "phone")
    finally:
        people.close()
    assert not people.errors, people.errors
