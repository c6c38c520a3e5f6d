"""Reports (``community.reports``): a message, a player or a game, with a reason; one open report
per reporter and thing; the club that handles it; the moderators mailed when reports about one
player reach ``CHAT_REPORT_MAIL_THRESHOLD``, once each time the count reaches it."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import kinds
from accounts.models import Notification
from common.errors import Forbidden, InvalidInput, NotFound
from community import chat, moderation, reports, rooms
from community.models import Message, Report
from games.models import Player
from tests.games.conftest import Actor

from .conftest import World


def _say(w: World, actor: Actor, text: str = "you are all terrible") -> Message:
    """``actor`` (made a member of the home club) writes in the home club's room."""
    w.league.members.add(actor.player)
    return chat.post(room=rooms.league_room(league=w.league), author=actor.player, text=text)


def _report_message(actor: Any, message: Message) -> Any:
    return actor.post("/api/v1/reports/", {"subject": "message", "message": message.pk, "reason": "abuse"})


def test_a_message_is_reported_once_per_reporter_and_its_club_handles_it(world: World) -> None:
    w = world
    message = _say(w, w.member)
    first = _report_message(w.spectator, message)
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["player"] == {"id": w.member.player.pk, "name": w.member.player.display_name}
    assert body["league"] == w.league.slug and body["status"] == "open" and body["message"] == message.pk
    again = _report_message(w.spectator, message)
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    assert Report.objects.count() == 1
    # another reporter's report is their own
    assert _report_message(w.cat, message).status_code == 201
    assert Report.objects.filter(player=w.member.player, league=w.league).count() == 2


def test_a_closed_report_does_not_stop_a_new_one(world: World) -> None:
    w = world
    message = _say(w, w.member)
    made, created = reports.report(
        reporter=w.spectator.player, subject="message", reason="spam", message_id=message.pk
    )
    moderation.report_dismiss(report_id=made.pk, by=w.org.player, reason="banter")
    again, created = reports.report(
        reporter=w.spectator.player, subject="message", reason="spam", message_id=message.pk
    )
    assert created and again.pk != made.pk


def test_refusals_say_why_and_report_nothing(world: World) -> None:
    w = world
    message = _say(w, w.member)
    players_room = rooms.table_room(table=w.event_table, kind="players")
    private = chat.post(room=players_room, author=w.ann.player, text="gl hf")
    cases = [
        (dict(reporter=w.member.player, subject="message", message_id=message.pk), InvalidInput, "yourself"),
        (dict(reporter=w.guest.player, subject="message", message_id=message.pk), Forbidden, "guest"),
        # the players' room of a table is not the spectator's to read: not named as existing
        (dict(reporter=w.spectator.player, subject="message", message_id=private.pk), NotFound, "no message"),
        (dict(reporter=w.spectator.player, subject="message", message_id=999999), NotFound, "no message"),
        (dict(reporter=w.spectator.player, subject="message"), InvalidInput, "which message"),
        (dict(reporter=w.spectator.player, subject="player", player_id=999999), NotFound, "no player"),
        (
            dict(reporter=w.spectator.player, subject="game", table_id=w.event_table.pk),
            InvalidInput,
            "which player",
        ),
        (
            dict(
                reporter=w.spectator.player,
                subject="game",
                table_id=w.event_table.pk,
                player_id=w.cat.player.pk,
            ),
            InvalidInput,
            "does not play",
        ),
        (
            dict(reporter=w.spectator.player, subject="letter", player_id=w.ann.player.pk),
            InvalidInput,
            "subject",
        ),
    ]
    for kw, error, words in cases:
        with pytest.raises(error) as refused:
            reports.report(reason=kw.pop("reason", "abuse"), **kw)
        assert words in refused.value.detail, (kw, refused.value.detail)
    with pytest.raises(InvalidInput, match="reason"):
        reports.report(
            reporter=w.spectator.player, subject="player", reason="ugly", player_id=w.ann.player.pk
        )
    assert Report.objects.count() == 0


def test_the_api_refuses_anonymous_and_guests(world: World, anon: Any) -> None:
    w = world
    message = _say(w, w.member)
    body = {"subject": "message", "message": message.pk, "reason": "abuse"}
    assert anon.post("/api/v1/reports/", body, format="json").status_code == 401
    refused = w.guest.post("/api/v1/reports/", body)
    assert refused.status_code == 403 and "guest" in refused.json()["detail"]
    assert w.spectator.post("/api/v1/reports/", {**body, "reason": "meh"}).status_code == 400
    assert Report.objects.count() == 0


def test_a_game_and_a_player_are_reported_to_the_right_moderators(world: World) -> None:
    w = world
    # the event's table: its club; the other player is named
    event_game, _ = reports.report(
        reporter=w.ann.player, subject="game", reason="cheating", table_id=w.event_table.pk
    )
    assert (event_game.player, event_game.table, event_game.league) == (w.ben.player, w.event_table, w.league)
    # a spectator names which player of the game
    named, _ = reports.report(
        reporter=w.spectator.player,
        subject="game",
        reason="cheating",
        table_id=w.event_table.pk,
        player_id=w.ann.player.pk,
    )
    assert named.player == w.ann.player
    # a casual table and a player: no club, staff handle them
    casual, _ = reports.report(reporter=w.cat.player, subject="game", reason="cheating", table_id=w.casual.pk)
    assert (casual.player, casual.league) == (w.ann.player, None)
    player, _ = reports.report(
        reporter=w.cat.player, subject="player", reason="name", player_id=w.ben.player.pk, details="rude name"
    )
    assert (player.player, player.league, player.details) == (w.ben.player, None, "rude name")


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Any:
    """Run a service call and what it announces after its commit (the test's transaction never
    commits: the callbacks are run by hand)."""

    def run(fn: Any, **kw: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(**kw)

    return run


def _piling(actor: Actor) -> list[Notification]:
    return list(
        Notification.objects.filter(user=actor.player.user, kind="moderation", key__startswith="piling:")
    )


def test_moderators_are_mailed_once_each_time_reports_reach_the_threshold(
    world: World, make_actor: Any, settings: Any, committed: Any
) -> None:
    settings.CHAT_REPORT_MAIL_THRESHOLD = 3
    w = world
    message = _say(w, w.member)
    reporters = [make_actor(f"reporter{i}") for i in range(5)]
    made = []
    for reporter in reporters[:2]:
        made.append(
            committed(
                reports.report,
                reporter=reporter.player,
                subject="message",
                reason="abuse",
                message_id=message.pk,
            )[0]
        )
    assert _piling(w.org) == []
    made.append(
        committed(
            reports.report,
            reporter=reporters[2].player,
            subject="message",
            reason="abuse",
            message_id=message.pk,
        )[0]
    )
    (note,) = _piling(w.org)
    assert note.url == f"/moderation/?player={w.member.player.pk}#report-{made[2].pk}"
    assert kinds.title(note.kind, note.params) == "3 open reports about Member wait in the moderation queue"
    # not the other club's organisers, not staff (the reports have a club)
    assert _piling(w.other_org) == [] and _piling(w.staff) == []
    # a fourth report: still past the threshold, no new mail
    committed(
        reports.report, reporter=reporters[3].player, subject="message", reason="abuse", message_id=message.pk
    )
    assert len(_piling(w.org)) == 1
    # handled down to two, then a new report reaches three again: mailed again
    committed(moderation.report_dismiss, report_id=made[0].pk, by=w.org.player)
    committed(moderation.report_dismiss, report_id=made[1].pk, by=w.org.player)
    committed(
        reports.report, reporter=reporters[4].player, subject="message", reason="abuse", message_id=message.pk
    )
    assert len(_piling(w.org)) == 2


def test_reports_without_a_club_mail_staff(
    world: World, make_actor: Any, settings: Any, committed: Any
) -> None:
    settings.CHAT_REPORT_MAIL_THRESHOLD = 2
    w = world
    for name in ("one", "two"):
        committed(
            reports.report,
            reporter=make_actor(name).player,
            subject="player",
            reason="name",
            player_id=w.cat.player.pk,
        )
    assert len(_piling(w.staff)) == 1 and _piling(w.org) == []
    assert Player.objects.filter(pk=w.cat.player.pk).exists()
