"""Chat at a table in the browser (issue 36): two players at a running table talk in their room,
each seeing the other's message appear without a reload; a spectator talks in the spectators' room
and sees it there; the players never see what the spectators say while they play, nor the spectator
what the players say. An anonymous visitor reads the spectators' room and is asked to sign in. When
the game ends, the players' page opens the spectators' room beside theirs. One player on a laptop,
the other on a phone. Then a club's room: links, a report, a removal and a mute from a message's
menu, and the chat switched off and on.

The first two run on pytest-django's live server (WSGI: no push stream), where the panel polls the
API every few seconds; the last on the ASGI server of tests/live, where each room's stream
(``/live/chat/<room>/``) brings the messages themselves and the panel asks the API nothing more.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from community import moderation, rooms
from community.models import Message, Report
from games import services as games
from games.models import Table
from tests.games.conftest import as_organiser
from tests.live import conftest as live
from tests.live.conftest import Uvicorn
from tournaments import ladders
from tournaments.competitions import services as clubs
from tournaments.models import League

from .conftest import Browsers, for_docs
from .test_live_push_pg import signed_in

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The uvicorn server of tests/live (a module-scoped fixture): pages served by it offer push.
uvicorn_server = live.uvicorn_server

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def say(page: Page, room: str, text: str) -> None:
    box = page.locator(f"#chat-text-{room}")
    box.fill(text)
    expect(page.locator(f"#chat-pane-{room} .chat-count")).to_contain_text(f"{len(text)} / 500")
    box.press("Enter")
    expect(box).to_have_value("")


def log(page: Page, room: str) -> Any:
    return page.locator(f"#chat-pane-{room} .chat-log")


def test_players_and_spectators_chat_live_each_in_their_own_room(
    people: Browsers, live_server: Any, artifacts: Path, make_actor: Any
) -> None:
    ann, ben = make_actor("ann"), make_actor("ben")
    make_actor("spec")
    table = games.table_create(creator=ann.player, game="pacru", players=2, rated=False)
    games.seat_join(table_id=table.pk, player=ben.player)
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE
    url = f"{live_server.url}/tables/{table.pk}/"

    a = people.open("ann")
    b = people.open("ben", **PHONE)
    s = people.open("spec")
    for page in (a, b, s):
        page.goto(url)
    # Players see their room only; the spectator the spectators' room only.
    for page in (a, b):
        expect(page.locator("#chat-pane-players")).to_be_visible()
        expect(page.locator("#chat-tab-spectators")).to_be_hidden()
        expect(page.locator("#chat-pane-spectators")).to_be_hidden()
    expect(s.locator("#chat-pane-spectators")).to_be_visible()
    assert s.locator("#chat-pane-players").count() == 0
    expect(a.locator("#chat-pane-players .chat-empty")).to_be_visible()

    say(a, "players", "Good luck @Ben, have fun")
    expect(log(a, "players")).to_contain_text("Good luck @Ben, have fun")
    # Ben sees it without a reload, his name marked as a mention.
    expect(log(b, "players")).to_contain_text("Good luck @Ben, have fun")
    expect(log(b, "players").locator("li.mention mark.chat-mention")).to_have_text("@Ben")
    say(b, "players", "Thanks, you too <b>not bold</b>")
    expect(log(a, "players")).to_contain_text("Thanks, you too <b>not bold</b>")  # text, never HTML
    assert log(a, "players").locator("b").count() == 0

    say(s, "spectators", "Nice opening by Ann")
    expect(log(s, "spectators")).to_contain_text("Nice opening by Ann")
    anonymous = people.open()
    anonymous.goto(url)
    expect(log(anonymous, "spectators")).to_contain_text("Nice opening by Ann")
    expect(anonymous.locator("#chat .chat-signin")).to_contain_text("Sign in to chat.")
    assert anonymous.locator("#chat textarea").count() == 0

    # A few polling rounds later: nobody saw the other room's messages.
    say(a, "players", "Your move")
    expect(log(b, "players")).to_contain_text("Your move")
    a.wait_for_timeout(3500)
    for page in (a, b):
        assert "Nice opening" not in page.locator("#chat").inner_text()
    assert "Good luck" not in s.locator("#chat").inner_text()
    assert "Your move" not in s.locator("#chat").inner_text()

    a.locator("#chat").scroll_into_view_if_needed()
    shot = artifacts / "chat-game.png"
    a.screenshot(path=str(shot), full_page=False)
    for_docs(shot, "chat-game.png")
    b.locator("#chat").scroll_into_view_if_needed()
    b.screenshot(path=str(artifacts / "chat-game-phone.png"), full_page=False)
    b.screenshot(path=str(artifacts / "chat-game-phone-full.png"), full_page=True)
    width = b.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the game page with its chat scrolls sideways on a phone ({width} px)"

    # The game ends: the players' page opens the spectators' room beside theirs.
    games.game_resign(table_id=table.pk, player=ben.player)
    expect(a.locator("#end")).to_be_visible()
    expect(a.locator("#chat-tab-spectators")).to_be_visible()
    a.locator("#chat-tab-spectators").click()
    expect(log(a, "spectators")).to_contain_text("Nice opening by Ann")
    expect(a.locator("#chat-pane-players")).to_be_hidden()
    say(a, "spectators", "Thank you all for watching")
    expect(log(s, "spectators")).to_contain_text("Thank you all for watching")


def open_menu(page: Page, text: str) -> Any:
    message = page.locator("#chat .chat-msg", has_text=text)
    message.locator(".chat-menu-btn").click()
    return message.locator(".chat-menu")


def test_a_club_room_links_reports_removes_mutes_and_switches_off(
    people: Browsers, live_server: Any, artifacts: Path, make_actor: Any
) -> None:
    """A club that allows links: an address becomes a link (never markup); a member reports a
    message, the organiser removes it and mutes its author from the message's menu; the author is
    told why she cannot write; a member switches the room off and on again."""
    org, mia, max_ = make_actor("org"), make_actor("mia"), make_actor("max")
    league = clubs.league_create(organiser=as_organiser(org.player), name="Castle Club", slug="castle-club")
    League.objects.filter(pk=league.pk).update(chat_links=True)
    for actor in (mia, max_):
        clubs.league_join(league=league, player=actor.player)
    url = f"{live_server.url}/leagues/castle-club/"
    m = people.open("mia")
    x = people.open("max", **PHONE)
    o = people.open("org")
    for page in (m, x, o):
        page.goto(url)
        expect(page.locator("#chat-pane-league .chat-send")).to_be_visible()

    spam = 'Cheap wins at https://example.org/win. <img src=x onerror="alert(1)">'
    say(m, "league", spam)
    link = log(x, "league").locator("a.chat-link")
    expect(link).to_have_attribute("href", "https://example.org/win")
    expect(link).to_have_attribute("rel", "nofollow noopener ugc")
    expect(log(x, "league")).to_contain_text('<img src=x onerror="alert(1)">')
    assert log(x, "league").locator("img").count() == 0
    message = Message.objects.get(text=spam)

    menu = open_menu(x, "Cheap wins")
    menu.get_by_role("button", name="Report").click()
    menu.locator("select").select_option("spam")
    menu.get_by_role("button", name="Confirm").click()
    expect(x.locator("#chat-pane-league .chat-status")).to_contain_text(
        "the moderators will look at this message"
    )
    assert Report.objects.filter(message=message, reporter=max_.player, reason="spam").exists()
    x.screenshot(path=str(artifacts / "chat-club-phone.png"), full_page=True)
    width = x.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the club page with its chat scrolls sideways on a phone ({width} px)"

    menu = open_menu(o, "Cheap wins")
    menu.get_by_role("button", name="Remove").click()
    menu.locator("input").fill("advertising")
    menu.get_by_role("button", name="Confirm").click()
    expect(log(o, "league")).to_contain_text("message removed by a moderator")
    # Without push, a removal shows at the panel's next full read (every few polls).
    expect(log(x, "league")).to_contain_text("message removed by a moderator", timeout=15_000)
    expect(log(x, "league")).not_to_contain_text("Cheap wins")

    say(m, "league", "That was only a joke")
    menu = open_menu(o, "only a joke")
    menu.get_by_role("button", name="Mute").click()
    menu.locator("select").first.select_option("room")
    menu.locator("input").fill("spam in the club's chat")
    menu.get_by_role("button", name="Confirm").click()
    expect(o.locator("#chat-pane-league .chat-status")).to_contain_text("Mia is muted until")
    m.locator("#chat-text-league").fill("Let me speak")
    m.locator("#chat-text-league").press("Enter")
    expect(m.locator("#chat-pane-league .chat-status")).to_contain_text("you are muted in this chat until")
    o.screenshot(path=str(artifacts / "chat-club.png"), full_page=True)

    x.locator("#chat-pane-league .chat-toggle").click()
    expect(x.locator("#chat-pane-league .chat-off")).to_be_visible()
    expect(x.locator("#chat-pane-league .chat-send")).to_be_hidden()
    expect(log(x, "league")).not_to_contain_text("only a joke")
    x.locator("#chat-pane-league .chat-toggle").click()
    expect(log(x, "league")).to_contain_text("That was only a joke")
    expect(x.locator("#chat-pane-league .chat-send")).to_be_visible()

    # The club's ladder and event have a room each, where its members write (on a phone too).
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="pacru", kind="position")
    event = clubs.tournament_create(
        organiser=org.player, league=league, name="Castle Open", game="pacru", seats=2, rounds=3
    )
    for name, path, kind in (
        ("chat-ladder", f"/ladders/{ladder.pk}/", "ladder"),
        ("chat-event", f"/tournaments/{event.pk}/", "event"),
    ):
        x.goto(live_server.url + path)
        expect(x.locator(f"#chat-pane-{kind} .chat-send")).to_be_visible()
        say(x, kind, f"Hello {kind}")
        expect(log(x, kind)).to_contain_text(f"Hello {kind}")
        x.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)
        width = x.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} with its chat scrolls sideways on a phone ({width} px)"


def test_with_push_a_message_reaches_the_other_player_through_the_stream_not_by_polling(
    browser: Browser, uvicorn_server: Uvicorn, make_actor: Any, settings: Any
) -> None:
    """On pages served by the ASGI server the panel reads its room once, then opens the room's
    stream (``/live/chat/<room>/``), which brings the messages themselves: while nothing is said it
    asks the API nothing, a message shows on the other player's page with no read of theirs, and
    a moderator's removal shows at once too."""
    settings.REDIS_URL = live.REDIS  # the removal below is made in this process: it publishes
    server = uvicorn_server
    ann, ben = make_actor("ann"), make_actor("ben")
    boss = make_actor("boss", staff=True)
    table = games.table_create(creator=ann.player, game="pacru", players=2, rated=False)
    games.seat_join(table_id=table.pk, player=ben.player)
    api = f"/api/v1/tables/{table.pk}/chat/"
    people = Browsers(browser, server.url)
    try:
        pages: dict[str, Page] = {}
        reads: dict[str, list[str]] = {}
        room = rooms.table_room(table=table, kind="players")
        for name, actor in (("ann", ann), ("ben", ben)):
            page = signed_in(people, actor)
            reads[name] = []
            page.on(
                "request",
                lambda r, log=reads[name]: log.append(r.method) if urlsplit(r.url).path == api else None,
            )
            stream = f"/live/chat/{room.pk}/"
            with page.expect_response(lambda r, stream=stream: urlsplit(r.url).path == stream) as pushed:
                page.goto(f"{server.url}/tables/{table.pk}/")
            assert pushed.value.status == 200
            expect(page.locator("#chat-pane-players .chat-empty")).to_be_visible()
            assert reads[name] == ["GET"], (name, reads[name])  # the one first read, before the stream
            pages[name] = page
        pages["ben"].wait_for_timeout(4000)  # more than a poll's interval: none may happen
        assert reads == {"ann": ["GET"], "ben": ["GET"]}, "the panel polled while pushed"

        box = pages["ann"].locator("#chat-text-players")
        box.fill("Pushed, not polled")
        started = time.monotonic()
        box.press("Enter")
        expect(log(pages["ben"], "players")).to_contain_text("Pushed, not polled", timeout=2500)
        assert time.monotonic() - started < 2.5
        said = Message.objects.get(room=room)
        moderation.message_delete(message_id=said.pk, by=boss.player, reason="a test of the stream")
        for page in pages.values():
            removed = page.locator(f'#chat-pane-players .chat-msg[data-id="{said.pk}"].removed')
            expect(removed).to_be_visible(timeout=2500)
            expect(log(page, "players")).not_to_contain_text("Pushed, not polled")
        # The stream brought both: no reads but the first, and ann's message sent.
        assert reads == {"ann": ["GET", "POST"], "ben": ["GET"]}, reads
    finally:
        people.close()
    assert not people.errors, people.errors
