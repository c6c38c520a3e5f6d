"""Moderation (``community.moderation``, its API and page): who may remove a message, mute (in a
room, a club's rooms, the whole site), lift a mute and close a report; what a mute stops and what
it does not; expiry; the log; the player told in their own language."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from accounts import kinds
from accounts.models import Account, Notification, OutgoingMail
from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from community import chat, moderation, moderation_selectors, reports, rooms
from community.events import moderated
from community.models import Message, ModerationAction, Mute, Report
from tests.accounts.conftest import verified
from tests.games.conftest import Actor

from .conftest import World

DAY = 24 * 60


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Any:
    """Run a call and what it announces after its commit (the test's transaction never commits)."""

    def run(fn: Any, **kw: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(**kw)

    return run


def _club_message(w: World, text: str = "you are all terrible") -> Message:
    return chat.post(room=rooms.league_room(league=w.league), author=w.member.player, text=text)


def _writes(w: World, room: Any, text: str = "hello") -> bool:
    """Whether the member may post in ``room`` now (through the chat's own post)."""
    try:
        chat.post(room=room, author=w.member.player, text=text)
    except Forbidden:
        return False
    return True


# ---------------------------------------------------------------- who may do what
def test_who_may_remove_a_message(world: World) -> None:
    w = world
    message = _club_message(w)
    for who in (w.other_org, w.spectator, w.member, w.ann):
        with pytest.raises(Forbidden, match="moderators"):
            moderation.message_delete(message_id=message.pk, by=who.player, reason="rude")
    for who in (w.org, w.staff):
        fresh = _club_message(w, "again")
        moderation.message_delete(message_id=fresh.pk, by=who.player, reason="rude")
        fresh.refresh_from_db()
        assert fresh.deleted_by == who.player and fresh.deleted_at is not None
    message.refresh_from_db()
    assert message.deleted_at is None
    # a table's players' room: a spectator cannot read it, so it does not exist for them
    private = chat.post(
        room=rooms.table_room(table=w.event_table, kind="players"), author=w.ann.player, text="x"
    )
    with pytest.raises(NotFound):
        moderation.message_delete(message_id=private.pk, by=w.spectator.player, reason="rude")
    # the event's club's organiser moderates it; a casual table's room is staff's alone
    moderation.message_delete(message_id=private.pk, by=w.org.player, reason="rude")
    casual = chat.post(room=rooms.table_room(table=w.casual, kind="players"), author=w.ann.player, text="x")
    with pytest.raises(NotFound):
        moderation.message_delete(message_id=casual.pk, by=w.org.player, reason="rude")
    moderation.message_delete(message_id=casual.pk, by=w.staff.player, reason="rude")


def test_who_may_mute_in_each_scope(world: World) -> None:
    w = world
    club_room = rooms.league_room(league=w.league)
    troll = w.member.player.pk
    cases = [
        # (actor, scope, where, allowed)
        (w.org, "room", {"room": club_room}, True),
        (w.other_org, "room", {"room": club_room}, False),
        (w.spectator, "room", {"room": club_room}, False),
        (w.guest, "room", {"room": club_room}, False),
        (w.org, "league", {"league": w.league}, True),
        (w.other_org, "league", {"league": w.league}, False),
        (w.org, "league", {"league": w.other_league}, False),
        (w.ann, "league", {"league": w.league}, False),
        (w.org, "site", {}, False),
        (w.other_org, "site", {}, False),
        (w.staff, "site", {}, True),
        (w.staff, "league", {"league": w.other_league}, True),
    ]
    for actor, scope, where, allowed in cases:
        if allowed:
            made = moderation.mute(
                by=actor.player, player_id=troll, scope=scope, minutes=60, reason="insults", **where
            )
            assert (made.scope, made.by, made.player_id) == (scope, actor.player, troll)
        else:
            with pytest.raises(Forbidden):
                moderation.mute(
                    by=actor.player, player_id=troll, scope=scope, minutes=60, reason="insults", **where
                )
    assert Mute.objects.count() == 4


def test_mute_input_is_checked(world: World) -> None:
    w = world
    room = rooms.league_room(league=w.league)
    base = dict(by=w.org.player, player_id=w.member.player.pk, scope="room", room=room, reason="insults")
    for change, words in [
        ({"minutes": 59}, "from 60 minutes"),
        ({"minutes": 30 * DAY + 1}, "from 60 minutes"),
        ({"minutes": 60, "reason": "  "}, "give a reason"),
        ({"minutes": 60, "scope": "planet"}, "scope"),
        ({"minutes": 60, "room": None}, "needs the room"),
        ({"minutes": 60, "player_id": w.org.player.pk}, "yourself"),
        ({"minutes": 60, "player_id": w.staff.player.pk}, "staff"),
    ]:
        with pytest.raises(InvalidInput, match=words):
            moderation.mute(**{**base, **change})
    with pytest.raises(NotFound):
        moderation.mute(**{**base, "minutes": 60, "player_id": 999999})
    assert Mute.objects.count() == 0 and ModerationAction.objects.count() == 0


# ---------------------------------------------------------------- what a mute stops
def test_a_room_mute_stops_that_room_only(world: World) -> None:
    w = world
    club, event = rooms.league_room(league=w.league), rooms.event_room(tournament=w.event)
    moderation.mute(
        by=w.org.player, player_id=w.member.player.pk, scope="room", room=club, minutes=60, reason="x"
    )
    with pytest.raises(Forbidden, match="muted in this chat"):
        chat.post(room=club, author=w.member.player, text="hello")
    assert _writes(w, event)


def test_a_club_mute_stops_the_clubs_rooms_and_not_others(world: World) -> None:
    w = world
    moderation.mute(
        by=w.org.player, player_id=w.member.player.pk, scope="league", league=w.league, minutes=60, reason="x"
    )
    for room in (
        rooms.league_room(league=w.league),
        rooms.event_room(tournament=w.event),
        rooms.ladder_room(ladder=w.ladder),
        rooms.table_room(table=w.event_table, kind="spectators"),
    ):
        assert not _writes(w, room), room
    # a casual table has no club; the other club's room is not this club's
    assert _writes(w, rooms.table_room(table=w.casual, kind="spectators"))
    w.other_league.members.add(w.member.player)
    assert _writes(w, rooms.league_room(league=w.other_league))


def test_a_site_mute_stops_every_room(world: World) -> None:
    w = world
    moderation.mute(by=w.staff.player, player_id=w.member.player.pk, scope="site", minutes=60, reason="x")
    for room in (rooms.table_room(table=w.casual, kind="spectators"), rooms.league_room(league=w.league)):
        with pytest.raises(Forbidden, match="whole site"):
            chat.post(room=room, author=w.member.player, text="hello")


def test_a_mute_ends_by_itself_or_when_lifted(world: World) -> None:
    w = world
    club = rooms.league_room(league=w.league)
    made = moderation.mute(
        by=w.org.player, player_id=w.member.player.pk, scope="room", room=club, minutes=60, reason="x"
    )
    assert not _writes(w, club)
    Mute.objects.filter(pk=made.pk).update(until=timezone.now() - timedelta(seconds=1))
    assert _writes(w, club, "back")
    with pytest.raises(Conflict, match="ended"):
        moderation.unmute(mute_id=made.pk, by=w.org.player)
    again = moderation.mute(
        by=w.org.player, player_id=w.member.player.pk, scope="room", room=club, minutes=DAY, reason="y"
    )
    with pytest.raises(Forbidden):
        moderation.unmute(mute_id=again.pk, by=w.other_org.player)
    lifted = moderation.unmute(mute_id=again.pk, by=w.org.player, reason="apologised")
    assert lifted.lifted_by == w.org.player and _writes(w, club, "sorry")
    # lifting it again changes nothing (no second log line)
    moderation.unmute(mute_id=again.pk, by=w.org.player)
    assert ModerationAction.objects.filter(action="unmute").count() == 1


def test_a_new_mute_replaces_the_one_in_force(world: World) -> None:
    w = world
    club = rooms.league_room(league=w.league)
    first = moderation.mute(
        by=w.org.player, player_id=w.member.player.pk, scope="room", room=club, minutes=30 * DAY, reason="x"
    )
    second = moderation.mute(
        by=w.org.player, player_id=w.member.player.pk, scope="room", room=club, minutes=60, reason="y"
    )
    first.refresh_from_db()
    assert first.lifted_at is not None and rooms.active_mute(player=w.member.player, room=club) == second


# ---------------------------------------------------------------- the log and the reports
def test_every_action_is_logged_with_who_why_and_when(world: World) -> None:
    w = world
    club = rooms.league_room(league=w.league)
    message = _club_message(w)
    report, _ = reports.report(
        reporter=w.spectator.player, subject="message", reason="abuse", message_id=message.pk
    )
    other, _ = reports.report(
        reporter=w.cat.player, subject="player", reason="name", player_id=w.member.player.pk
    )
    moderation.message_delete(message_id=message.pk, by=w.org.player, reason="insults")
    made = moderation.mute(
        by=w.org.player, player_id=w.member.player.pk, scope="room", room=club, minutes=60, reason="insults"
    )
    moderation.unmute(mute_id=made.pk, by=w.staff.player, reason="apologised")
    moderation.report_dismiss(report_id=other.pk, by=w.staff.player, reason="the name is fine")
    log = list(
        ModerationAction.objects.order_by("id").values_list("action", "actor", "player", "reason", "report")
    )
    assert log == [
        ("delete_message", w.org.player.pk, w.member.player.pk, "insults", None),
        ("resolve", w.org.player.pk, w.member.player.pk, "insults", report.pk),  # its report, acted on
        ("mute", w.org.player.pk, w.member.player.pk, "insults", None),
        ("unmute", w.staff.player.pk, w.member.player.pk, "apologised", None),
        ("dismiss", w.staff.player.pk, w.member.player.pk, "the name is fine", other.pk),
    ]
    assert all(a.created is not None for a in ModerationAction.objects.all())
    report.refresh_from_db()
    assert (report.status, report.handled_by) == ("resolved", w.org.player)
    # the organiser reads their club's part of the log; staff read it all
    assert [a.action for a in moderation_selectors.log(moderator=w.org.player)] == [
        "unmute",
        "mute",
        "resolve",
        "delete_message",
    ]
    assert len(moderation_selectors.log(moderator=w.staff.player)) == 5
    assert moderation_selectors.log(moderator=w.other_org.player) == []


def test_who_may_close_a_report(world: World) -> None:
    w = world
    message = _club_message(w)
    report, _ = reports.report(
        reporter=w.spectator.player, subject="message", reason="abuse", message_id=message.pk
    )
    for who in (w.other_org, w.spectator, w.member):
        with pytest.raises(Forbidden):
            moderation.report_dismiss(report_id=report.pk, by=who.player)
    moderation.report_dismiss(report_id=report.pk, by=w.org.player, reason="banter")
    with pytest.raises(Conflict, match="handled already"):
        moderation.report_resolve(report_id=report.pk, by=w.org.player)
    casual, _ = reports.report(reporter=w.cat.player, subject="game", reason="cheating", table_id=w.casual.pk)
    with pytest.raises(Forbidden):
        moderation.report_resolve(report_id=casual.pk, by=w.org.player)
    assert moderation.report_resolve(report_id=casual.pk, by=w.staff.player).status == "resolved"


def test_the_queue_shows_each_moderator_their_reports_with_context(world: World) -> None:
    w = world
    room = rooms.league_room(league=w.league)
    w.league.members.add(w.ann.player)
    for i in range(4):
        chat.post(room=room, author=w.ann.player, text=f"line {i}")
    bad = _club_message(w, "the bad one")
    chat.post(room=room, author=w.ann.player, text="calm down")
    report, _ = reports.report(reporter=w.ann.player, subject="message", reason="abuse", message_id=bad.pk)
    casual, _ = reports.report(reporter=w.cat.player, subject="game", reason="cheating", table_id=w.casual.pk)
    (item,) = moderation_selectors.reports(moderator=w.org.player)
    assert item.report == report and item.room_url == f"/leagues/{w.league.slug}/"
    assert [m.text for m in item.context] == ["line 1", "line 2", "line 3", "the bad one", "calm down"]
    assert {i.report.pk for i in moderation_selectors.reports(moderator=w.staff.player)} == {
        report.pk,
        casual.pk,
    }
    assert moderation_selectors.reports(moderator=w.other_org.player) == []


# ---------------------------------------------------------------- the player is told
def test_the_muted_player_is_told_in_their_language(world: World, committed: Any) -> None:
    w = world
    verified(w.member)
    Account.objects.filter(user=w.member.player.user).update(language="fr", time_zone="Europe/Paris")
    made = committed(
        moderation.mute,
        by=w.org.player,
        player_id=w.member.player.pk,
        scope="league",
        league=w.league,
        minutes=DAY,
        reason="insults",
    )
    note = Notification.objects.get(user=w.member.player.user, kind="moderation")
    assert note.params["action"] == "mute" and note.params["where"] == "Home Club"
    assert note.params["reason"] == "insults"
    paris = timezone.localtime(made.until, ZoneInfo("Europe/Paris"))
    with translation.override("fr"):
        french_date = formats.date_format(paris, translation.pgettext("date format", "D d M H:i"))
    with translation.override("en"):
        english_date = formats.date_format(paris, translation.pgettext("date format", "D d M H:i"))
    assert french_date != english_date
    mail = OutgoingMail.objects.get(user=w.member.player.user)
    assert french_date in mail.subject and english_date not in mail.subject
    assert "Home Club" in mail.subject and "insults" in mail.subject
    with translation.override("fr"), timezone.override(ZoneInfo("Europe/Paris")):
        assert mail.subject == kinds.title("moderation", note.params)
    # in English the words read as a sentence
    with translation.override("en"), timezone.override(ZoneInfo("UTC")):
        words = kinds.title("moderation", note.params)
    assert words.startswith("A moderator muted you in the chats of Home Club until ") and words.endswith(
        ": insults"
    )


def test_each_decision_tells_the_right_player(world: World, committed: Any) -> None:
    w = world
    heard: list[Any] = []

    def listen(*, decision: Any, **_: Any) -> None:
        heard.append(decision)

    moderated.connect(listen)
    try:
        message = _club_message(w)
        reports.report(reporter=w.spectator.player, subject="message", reason="abuse", message_id=message.pk)
        committed(moderation.message_delete, message_id=message.pk, by=w.org.player, reason="insults")
        committed(
            moderation.mute,
            by=w.staff.player,
            player_id=w.member.player.pk,
            scope="site",
            minutes=60,
            reason="spam",
        )
    finally:
        moderated.disconnect(listen)
    assert [(d.action, d.player.id) for d in heard] == [
        ("resolve", w.spectator.player.pk),  # the reporter: their report was acted on
        ("delete_message", w.member.player.pk),
        ("mute", w.member.player.pk),
    ]
    assert heard[0].where == w.member.player.display_name and heard[1].where == w.league.name
    assert heard[2].scope == "site" and heard[2].until is not None
    titles = [
        kinds.title(n.kind, n.params) for n in Notification.objects.filter(kind="moderation").order_by("id")
    ]
    assert titles[0] == "A moderator acted on your report about Member: thank you"
    assert titles[1] == "A moderator removed your message in the chat Home Club: insults"
    assert titles[2].startswith("A moderator muted you in every chat on the site until ")


# ---------------------------------------------------------------- the API and the page
def test_the_api_mutes_and_lifts(world: World, anon: Any) -> None:
    w = world
    body = {
        "player": w.member.player.pk,
        "scope": "league",
        "league": w.league.slug,
        "minutes": 60,
        "reason": "x",
    }
    assert anon.post("/api/v1/mutes/", body, format="json").status_code == 401
    assert w.other_org.post("/api/v1/mutes/", body).status_code == 403
    assert w.org.post("/api/v1/mutes/", {**body, "minutes": 20}).status_code == 400
    made = w.org.post("/api/v1/mutes/", body)
    assert made.status_code == 201, made.content
    assert made.json()["scope"] == "league" and made.json()["league"] == w.league.slug
    listed = w.org.get("/api/v1/mutes/").json()
    assert [m["id"] for m in listed] == [made.json()["id"]]
    assert w.spectator.get("/api/v1/mutes/").status_code == 403
    assert (
        w.org.client.delete(
            f"/api/v1/mutes/{made.json()['id']}/", {"reason": "ok"}, format="json"
        ).status_code
        == 204
    )
    assert w.org.get("/api/v1/mutes/").json() == []
    log = w.org.get("/api/v1/moderation/log/").json()
    assert [(a["action"], a["actor"]["id"], a["reason"]) for a in log] == [
        ("unmute", w.org.player.pk, "ok"),
        ("mute", w.org.player.pk, "x"),
    ]


def test_the_api_removes_a_message_and_lists_the_queue(world: World) -> None:
    w = world
    message = _club_message(w)
    w.spectator.post("/api/v1/reports/", {"subject": "message", "message": message.pk, "reason": "abuse"})
    queue = w.org.get("/api/v1/moderation/reports/")
    assert queue.status_code == 200
    (item,) = queue.json()
    assert item["report"]["reporter"]["id"] == w.spectator.player.pk
    assert item["room"]["url"] == f"/leagues/{w.league.slug}/"
    assert [m["text"] for m in item["context"]] == ["you are all terrible"]
    assert w.spectator.get("/api/v1/moderation/reports/").status_code == 403
    assert w.other_org.get("/api/v1/moderation/reports/").json() == []
    gone = w.org.client.delete(f"/api/v1/chat/messages/{message.pk}/", {"reason": "insults"}, format="json")
    assert gone.status_code == 204
    assert w.org.get("/api/v1/moderation/reports/").json() == []
    closed = w.org.get("/api/v1/moderation/reports/?status=resolved").json()
    assert closed[0]["context"][0]["removed"] is True


def _page_client(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_page_is_for_moderators_and_its_forms_work(world: World) -> None:
    w = world
    message = _club_message(w, "you are all <b>terrible</b>")
    report, _ = reports.report(
        reporter=w.spectator.player, subject="message", reason="abuse", message_id=message.pk
    )
    assert Client().get("/moderation/").status_code == 302  # to the login page
    assert _page_client(w.spectator).get("/moderation/").status_code == 403
    org = _page_client(w.org)
    page = org.get("/moderation/")
    html = page.content.decode()
    assert page.status_code == 200 and "you are all &lt;b&gt;terrible&lt;/b&gt;" in html
    assert f'id="report-{report.pk}"' in html and "Mute Member" in html
    assert 'value="site"' not in html  # an organiser cannot mute on the whole site
    assert 'value="site"' in _page_client(w.staff).get("/moderation/").content.decode()
    # the organiser dashboard links here for moderators only
    assert 'href="/moderation/"' in org.get("/organiser/").content.decode()
    assert 'href="/moderation/"' not in _page_client(w.spectator).get("/organiser/").content.decode()
    done = org.post(
        "/moderation/mute/",
        {
            "player": w.member.player.pk,
            "report": report.pk,
            "scope": "league",
            "league": w.league.pk,
            "minutes": DAY,
            "reason": "insults",
        },
        follow=True,
    )
    assert "The player is muted" in done.content.decode()
    mute = Mute.objects.get()
    assert (mute.scope, mute.league, mute.by) == ("league", w.league, w.org.player)
    assert timedelta(hours=23, minutes=59) < mute.until - timezone.now() <= timedelta(days=1)
    assert Report.objects.get().status == "resolved"
    mutes = org.get("/moderation/?tab=mutes").content.decode()
    assert "Muted in the chats of Home Club" in mutes
    org.post(f"/moderation/mutes/{mute.pk}/lift/", {"reason": "ok"})
    mute.refresh_from_db()
    assert mute.lifted_by == w.org.player
    assert "insults" in org.get("/moderation/?tab=log").content.decode()
    # a refusal comes back as the page's message, nothing changed
    refused = _page_client(w.other_org).post(
        f"/moderation/messages/{message.pk}/delete/", {"reason": "x"}, follow=True
    )
    assert "moderators" in refused.content.decode()
    message.refresh_from_db()
    assert message.deleted_at is None


def test_a_clubs_organiser_lets_its_chat_show_links_from_the_moderation_page(world: World) -> None:
    assert not world.league.chat_links
    page = _page_client(world.org)
    assert world.league.name in page.get("/moderation/?tab=clubs").content.decode()
    answer = page.post(f"/moderation/clubs/{world.league.slug}/links/", {"links": "on"})
    assert answer.status_code == 302
    world.league.refresh_from_db()
    assert world.league.chat_links
    api = world.member.client.get(f"/api/v1/leagues/{world.league.slug}/chat/")
    assert api.json()["room"]["links"] is True
    page.post(f"/moderation/clubs/{world.league.slug}/links/", {})
    world.league.refresh_from_db()
    assert not world.league.chat_links
    refused = _page_client(world.other_org).post(
        f"/moderation/clubs/{world.league.slug}/links/", {"links": "on"}
    )
    assert refused.status_code == 302
    world.league.refresh_from_db()
    assert not world.league.chat_links
