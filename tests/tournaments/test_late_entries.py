"""Late entries into a running Swiss, and Buchholz with a virtual opponent for unplayed rounds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from accounts import kinds
from accounts.models import Notification
from common.errors import Conflict, Forbidden, InvalidInput
from games.models import Table
from tournaments.competitions import selectors, services
from tournaments.models import AuditEntry, LateEntryInvitation, Registration, Round
from tournaments.organising import actions
from tournaments.standings import TableResult, Unplayed, standings

from ..games.conftest import Actor
from .test_formats_flow import current_tables, finish_by_resignations, make_event

# ------------------------------------------------------------------ the virtual opponent (pure)


def test_a_bye_counts_as_a_game_against_fides_virtual_opponent() -> None:
    # Four rounds, two seats. Player 1 beats 2 in round 1, has a bye in round 2, beats 3 in round 3,
    # loses to 4 in round 4. Before round 2 player 1 had 1 point and the bye paid 1, so the virtual
    # opponent ends with 1 + (1 - 1) + 0.5 * (4 - 2) = 2 points; the game against them is a win.
    results = [
        TableResult(1, {1: 1, 2: 2}),
        TableResult(1, {3: 1, 4: 2}),
        TableResult(2, {2: 1, 3: 2}),
        TableResult(3, {1: 1, 3: 2}),
        TableResult(3, {2: 1, 4: 2}),
        TableResult(4, {4: 1, 1: 2}),
        TableResult(4, {2: 1, 3: 2}),
    ]
    unplayed = {1: [Unplayed(2, 1.0)], 4: [Unplayed(2, 1.0)]}
    rows = {r.player: r for r in standings([1, 2, 3, 4], results, 2, unplayed=unplayed, rounds=4)}
    points = {p: r.points for p, r in rows.items()}
    assert points == {1: 3.0, 2: 3.0, 3: 1.0, 4: 2.0}
    virtual_1 = 1 + (1 - 1) + 0.5 * (4 - 2)
    # Opponents' points count their own unplayed rounds as draws (FIDE): 4's bye (1) counts ½, 1's too.
    counted_4, counted_1 = points[4] - 0.5, points[1] - 0.5
    assert rows[1].tiebreaks["buchholz"] == points[2] + points[3] + counted_4 + virtual_1
    # Sonneborn-Berger: the beaten 2 and 3, and the virtual opponent (a bye is a win).
    assert rows[1].tiebreaks["sonneborn_berger"] == points[2] + points[3] + virtual_1
    assert rows[1].played == 3, "a bye is not a game played"
    # Player 4 lost round 1 (0 points before round 2): 0 + 0 + 0.5 * 2 = 1.
    assert rows[4].tiebreaks["buchholz"] == points[3] + points[2] + counted_1 + 1.0


def test_a_missed_round_at_zero_is_a_loss_against_a_stronger_virtual_opponent() -> None:
    # A late entry who missed rounds 1 and 2 at zero, in a 3-round event, then won round 3.
    results = [TableResult(1, {1: 1, 2: 2}), TableResult(2, {1: 1, 2: 2}), TableResult(3, {9: 1, 1: 2})]
    unplayed = {9: [Unplayed(1, 0.0), Unplayed(2, 0.0)]}
    rows = {r.player: r for r in standings([1, 2, 9], results, 2, unplayed=unplayed, rounds=3)}
    assert rows[9].points == 1.0
    # Round 1: 0 before, paid 0 -> 0 + 1 + 0.5 * 2 = 2; round 2: 0 + 1 + 0.5 * 1 = 1.5.
    assert rows[9].tiebreaks["buchholz"] == rows[1].points + 2 + 1.5
    assert rows[9].tiebreaks["sonneborn_berger"] == rows[1].points  # lost to both virtual opponents


def test_virtual_opponents_at_four_seats_use_the_events_scale() -> None:
    # Four seats, default scale 3,2,1,0 (average 1.5). A bye (worth 2) in round 1 of 2.
    results = [TableResult(2, {1: 1, 2: 2, 3: 3, 4: 4})]
    unplayed = {1: [Unplayed(1, 2.0)]}
    rows = {r.player: r for r in standings([1, 2, 3, 4], results, 4, unplayed=unplayed, rounds=2)}
    # Each of three virtual opponents: 0 + (4 * 1.5 - 2) / 3 + 1.5 * (2 - 1).
    virtual = (6 - 2) / 3 + 1.5
    assert rows[1].points == 5.0
    assert rows[1].tiebreaks["opponents_points"] == pytest.approx(2 + 1 + 0 + 3 * virtual)


def test_without_unplayed_rounds_the_tiebreaks_are_unchanged() -> None:
    results = [TableResult(1, {1: 1, 2: 2}), TableResult(2, {2: 1, 1: 2})]
    assert standings([1, 2], results, 2) == standings([1, 2], results, 2, unplayed={}, rounds=2)


# ------------------------------------------------------------------ late entries through the services


def play_round(t: Any, capture: Any) -> None:
    for table in current_tables(t):
        with capture(execute=True):
            finish_by_resignations(table.pk, [2, 1])  # seat 1 wins
    t.refresh_from_db()


@pytest.mark.parametrize("missed, points", [("zero", 0.0), ("half", 0.5)])
def test_an_organiser_enters_a_player_late_and_they_are_paired_from_the_next_round(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, missed: str, points: float
) -> None:
    org, t, _ = make_event(make_actor, 5, seats=2, format="swiss", rounds=4)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    late = make_actor("latecomer")
    # During round 1: the entry starts with round 2; round 1 counts as missed.
    invitation = services.late_entry(tournament_id=t.pk, player=late.player, by=org.player, missed=missed)
    assert invitation.status == "pending" and not Registration.objects.filter(player=late.player).exists()
    services.late_entry_answer(invitation_id=invitation.pk, by=late.player, accept=True)
    reg = Registration.objects.get(tournament=t, player=late.player)
    assert (reg.joined_round, reg.missed_points, reg.status) == (2, points, "checked_in")
    row = {r.player: r for r in selectors.current_standings(t)}[late.player.pk]
    assert row.points == points and row.played == 0
    seated = [p for tb in current_tables(t) for p in tb.seats.values_list("player", flat=True)]
    assert late.player.pk not in seated
    play_round(t, django_capture_on_commit_callbacks)
    assert t.current_round == 2
    seated = [p for tb in current_tables(t) for p in tb.seats.values_list("player", flat=True)]
    assert late.player.pk in seated, "six players now: everyone plays round 2"
    assert Round.objects.get(tournament=t, number=2).byes == []
    while t.status == "running":
        play_round(t, django_capture_on_commit_callbacks)
    row = {r.player: r for r in selectors.current_standings(t)}[late.player.pk]
    assert row.played == 3
    won = Table.objects.filter(round_table__round__tournament=t, winner_seat__isnull=False)
    wins = sum(1 for tb in won if tb.seats.get(number=tb.winner_seat).player_id == late.player.pk)
    assert row.points == points + wins


def test_late_entries_are_refused_where_they_cannot_work(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, people = make_event(make_actor, 4, seats=2, format="swiss", rounds=2)
    late = make_actor("late2")
    with pytest.raises(Conflict, match="running event"):
        services.late_entry(tournament_id=t.pk, player=late.player, by=org.player)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    with pytest.raises(Forbidden):
        services.late_entry(tournament_id=t.pk, player=late.player, by=people[0].player)
    with pytest.raises(InvalidInput, match="zero' or 'half"):
        services.late_entry(tournament_id=t.pk, player=late.player, by=org.player, missed="all")
    with pytest.raises(Conflict, match="already playing"):
        services.late_entry(tournament_id=t.pk, player=people[1].player, by=org.player)
    t.refresh_from_db()
    play_round(t, django_capture_on_commit_callbacks)
    assert t.current_round == 2
    with pytest.raises(Conflict, match="no round left"):
        services.late_entry(tournament_id=t.pk, player=late.player, by=org.player)
    assert not Registration.objects.filter(tournament=t, player=late.player).exists()
    assert not LateEntryInvitation.objects.exists(), "a refused late entry invites nobody"

    rr = services.tournament_create(
        organiser=org.player,
        league=t.league,
        name="Round robin",
        game="shacru",
        seats=2,
        format="round_robin",
    )
    for p in people[:3]:
        services.register(tournament_id=rr.pk, player=p.player)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=rr.pk, by=org.player)
    with pytest.raises(Conflict, match="only a Swiss"):
        services.late_entry(tournament_id=rr.pk, player=late.player, by=org.player)


def test_late_entry_through_the_api_and_the_dashboard(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, client: Any
) -> None:
    org, t, people = make_event(make_actor, 4, seats=2, format="swiss", rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    late = make_actor("late3")
    url = f"/api/v1/tournaments/{t.pk}/late-entry/"
    assert people[0].post(url, {"player": late.player.pk}).status_code == 403
    bad = org.post(url, {"player": late.player.pk, "missed": "double"})
    assert bad.status_code == 400 and "missed" in str(bad.json())
    assert org.post(url, {"player": 999999}).status_code == 404
    ok = org.post(url, {"player": late.player.pk, "missed": "half"})
    assert ok.status_code == 201, ok.json()
    assert (ok.json()["status"], ok.json()["player"], ok.json()["missed"]) == (
        "pending",
        late.player.pk,
        "half",
    )
    assert org.post(url, {"player": late.player.pk}).status_code == 409, "invited already"
    mine = late.get("/api/v1/late-entry-invitations/").json()
    assert [i["id"] for i in mine] == [ok.json()["id"]] and mine[0]["event"] == t.name
    answer = late.post(f"/api/v1/late-entry-invitations/{ok.json()['id']}/accept/")
    assert answer.status_code == 200 and answer.json()["status"] == "accepted", answer.json()
    detail = org.get(f"/api/v1/tournaments/{t.pk}/").json()
    entry = next(r for r in detail["registrations"] if r["player"] == late.player.pk)
    assert (entry["joined_round"], entry["missed_points"]) == (2, 0.5)
    assert org.post(url, {"player": late.player.pk}).status_code == 409

    # The dashboard offers the league's other members, and enters them.
    other = make_actor("late4")
    t.league.members.add(other.player)
    client.force_login(org.player.user)
    page = client.get("/organiser/").content.decode()
    assert "Enter late" in page and other.player.display_name in page
    form = {"player": other.player.pk, "missed": "zero"}
    done = client.post(reverse("dashboard-action", args=[t.pk, "late-entry"]), form, follow=True)
    assert "is invited to enter" in done.content.decode()
    assert not Registration.objects.filter(tournament=t, player=other.player).exists()
    # The invited member answers on the event page.
    client.force_login(other.player.user)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="late-invitation"' in page and "You are entered only if you accept" in page
    done = client.post(reverse("event-late-entry", args=[t.pk, "accept"]), follow=True)
    assert "You are entered into" in done.content.decode()
    assert Registration.objects.get(tournament=t, player=other.player).joined_round == 2
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "entered late: plays from round 2, 0.5 points per missed round" in page
    assert "entered late: plays from round 2, no points per missed round" in page


# ------------------------------------------------------------------ consent (issue 29, finding 13)


def _running_swiss(make_actor: Callable[..., Actor], capture: Any, rounds: int = 3) -> tuple[Actor, Any]:
    org, t, _ = make_event(make_actor, 4, seats=2, format="swiss", rounds=rounds)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return org, t


def test_an_organisers_late_entry_is_an_invitation_told_audited_and_answered_by_the_player_only(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t = _running_swiss(make_actor, django_capture_on_commit_callbacks)
    late, nosy, staff = make_actor("consent-late"), make_actor("consent-nosy"), make_actor("consent-st", True)
    with django_capture_on_commit_callbacks(execute=True):
        r = org.post(f"/api/v1/tournaments/{t.pk}/late-entry/", {"player": late.player.pk})
    assert r.status_code == 201 and r.json()["status"] == "pending"
    invitation = r.json()["id"]
    assert not Registration.objects.filter(tournament=t, player=late.player).exists(), "not without consent"
    entry = AuditEntry.objects.get(tournament=t, action="late entry invited")
    assert entry.by == org.player and entry.detail["player"] == late.player.pk
    line = actions.audit_log(t=t)[0]
    assert line.what.startswith(f"invited {late.player.display_name} to enter late, from round 2")
    told = Notification.objects.get(user=late.player.user, kind="late_entry")
    assert told.url == f"/tournaments/{t.pk}/" and told.params["invitation"] == invitation
    assert (
        kinds.title(told.kind, told.params)
        == f"{org.player.display_name} invites you to enter Event late, from round 2"
    )
    for someone in (nosy, org, staff):
        refused = someone.post(f"/api/v1/late-entry-invitations/{invitation}/accept/")
        assert refused.status_code == 403, (someone.player.display_name, refused.json())
    assert late.post(f"/api/v1/late-entry-invitations/{invitation}/maybe/").status_code == 404
    assert late.post("/api/v1/late-entry-invitations/999999/accept/").status_code == 404
    assert LateEntryInvitation.objects.get(pk=invitation).status == "pending"
    assert not Registration.objects.filter(tournament=t, player=late.player).exists()

    with django_capture_on_commit_callbacks(execute=True):
        r = late.post(f"/api/v1/late-entry-invitations/{invitation}/decline/")
    assert r.status_code == 200 and r.json()["status"] == "declined"
    assert not Registration.objects.filter(tournament=t, player=late.player).exists()
    assert AuditEntry.objects.filter(tournament=t, action="late entry declined", by=late.player).exists()
    answer = Notification.objects.get(user=org.player.user, kind="late_entry")
    assert kinds.title(answer.kind, answer.params).startswith(f"{late.player.display_name} declined")
    assert late.post(f"/api/v1/late-entry-invitations/{invitation}/accept/").status_code == 409
    again = org.post(f"/api/v1/tournaments/{t.pk}/late-entry/", {"player": late.player.pk})
    assert again.status_code == 409 and "will not be asked again" in again.json()["detail"]


def test_an_accepted_invitation_enters_from_the_round_after_the_one_then_played(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t = _running_swiss(make_actor, django_capture_on_commit_callbacks, rounds=4)
    late = make_actor("slow-answer")
    invitation = services.late_entry(tournament_id=t.pk, player=late.player, by=org.player)
    play_round(t, django_capture_on_commit_callbacks)
    assert t.current_round == 2
    with django_capture_on_commit_callbacks(execute=True):
        services.late_entry_answer(invitation_id=invitation.pk, by=late.player, accept=True)
    reg = Registration.objects.get(tournament=t, player=late.player)
    assert (reg.joined_round, reg.status) == (3, "checked_in")
    entry = AuditEntry.objects.get(tournament=t, action="late entry accepted")
    assert entry.by == late.player and entry.detail["round"] == 3
    told = Notification.objects.get(user=org.player.user, kind="late_entry")
    assert told.params["status"] == "accepted" and told.params["round"] == 3
    row = {r.player: r for r in selectors.current_standings(t)}[late.player.pk]
    assert row.played == 0 and row.points == 0


def test_an_invitation_accepted_too_late_enters_nobody(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t = _running_swiss(make_actor, django_capture_on_commit_callbacks, rounds=2)
    late = make_actor("too-late")
    invitation = services.late_entry(tournament_id=t.pk, player=late.player, by=org.player)
    play_round(t, django_capture_on_commit_callbacks)
    assert t.current_round == 2, "the last round is paired: no round left to join"
    r = late.post(f"/api/v1/late-entry-invitations/{invitation.pk}/accept/")
    assert r.status_code == 409 and "no round left" in r.json()["detail"]
    assert not Registration.objects.filter(tournament=t, player=late.player).exists()
    assert LateEntryInvitation.objects.get(pk=invitation.pk).status == "pending"


def test_an_organiser_entering_themself_late_needs_no_invitation(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t = _running_swiss(make_actor, django_capture_on_commit_callbacks)
    r = org.post(f"/api/v1/tournaments/{t.pk}/late-entry/", {"player": org.player.pk, "missed": "half"})
    assert r.status_code == 201 and r.json()["status"] == "accepted", r.json()
    reg = Registration.objects.get(tournament=t, player=org.player)
    assert (reg.joined_round, reg.missed_points) == (2, 0.5)
    entry = AuditEntry.objects.get(tournament=t, action="late entry")
    assert entry.by == org.player and entry.detail["missed"] == "half"
