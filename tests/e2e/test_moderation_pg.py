"""An organiser mutes a player from the moderation queue, in the browser (issue 36): two members
reported a message in the club's chat; the organiser opens /moderation/, sees the reported message
among the messages around it, and mutes its author in the club's rooms for a day with a reason. The
muted player's next message is refused (through the API), and the mute shows under "Mutes in force"
and in the log. At desktop and phone sizes (the phone page never scrolls sideways).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from community import chat, reports, rooms
from community.models import Mute, Report
from tests.community.conftest import make_world

from .conftest import Browsers, for_docs, shoot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.mark.parametrize("size", list(SIZES))
def test_an_organiser_mutes_a_reported_player_from_the_queue(
    people: Browsers, artifacts: Path, size: str, live_server: Any
) -> None:
    w = make_world()
    room = rooms.league_room(league=w.league)
    for actor in (w.ann, w.ben):
        w.league.members.add(actor.player)
    chat.post(room=room, author=w.ann.player, text="Good game yesterday, everyone!")
    chat.post(room=room, author=w.ben.player, text="Anyone up for a rematch tonight?")
    bad = chat.post(room=room, author=w.member.player, text="You are all hopeless, quit the club.")
    chat.post(room=room, author=w.ann.player, text="That is not how we talk here.")
    reports.report(reporter=w.ann.player, subject="message", reason="abuse", message_id=bad.pk)
    reports.report(
        reporter=w.ben.player,
        subject="message",
        reason="abuse",
        message_id=bad.pk,
        details="Third time this week.",
    )
    reports.report(reporter=w.ben.player, subject="game", reason="cheating", table_id=w.event_table.pk)

    page = people.open("org", **SIZES[size])
    page.goto(people.base_url + "/organiser/")
    page.get_by_role("link", name="Moderation: reports").click()
    expect(page.locator("h1")).to_have_text("Moderation")
    card = page.locator(f"#report-{Report.objects.filter(message=bad).order_by('id').first().pk}")
    expect(card.locator("li.reported")).to_contain_text("You are all hopeless, quit the club.")
    expect(card.locator(".mod-context li")).to_have_count(4)
    expect(card).to_contain_text("Home Club")
    shot = shoot(page, artifacts, "moderation-queue", size)
    if size == "desktop":
        for_docs(shot, "moderation-queue.png")
    else:
        for_docs(shot, "moderation-queue-phone.png")

    form = card.locator("form.mod-form")
    form.locator("select[name=scope]").select_option("league")
    expect(form.locator("select[name=minutes]")).to_have_value("1440")  # a day, the default
    form.locator("input[name=reason]").fill("insults in the club's chat")
    form.get_by_role("button", name="Mute Member").click()
    expect(page.locator(".messages")).to_contain_text("The player is muted")

    mute = Mute.objects.get(player=w.member.player)
    assert (mute.scope, mute.league_id, mute.by_id) == ("league", w.league.pk, w.org.player.pk)
    assert (mute.until - mute.created).total_seconds() == pytest.approx(24 * 3600, abs=5)
    # the report the organiser acted from is closed; the other one stays open (the message is there)
    assert Report.objects.filter(message=bad, status="resolved").count() == 1

    # the muted player's next message is refused, in words
    refused = w.member.post(f"/api/v1/leagues/{w.league.slug}/chat/", {"text": "sorry not sorry"})
    assert refused.status_code == 403, refused.content
    assert "muted" in refused.json()["detail"]
    # elsewhere (a casual table's spectators' room, no club) they still write
    elsewhere = w.member.post(f"/api/v1/tables/{w.casual.pk}/chat/?room=spectators", {"text": "nice move"})
    assert elsewhere.status_code == 201, elsewhere.content

    page.get_by_role("link", name="Mutes in force").click()
    expect(page.locator(f"#mute-{mute.pk}")).to_contain_text("Muted in the chats of Home Club")
    page.get_by_role("link", name="Log").click()
    expect(page.locator(".mod-log li").first).to_contain_text("insults in the club's chat")
    shoot(page, artifacts, "moderation-log", size)
