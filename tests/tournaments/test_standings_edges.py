"""Standings at the edges: before any round, and a round paired again (issue 29, finding 10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tournaments.competitions import services
from tournaments.standings import Unplayed, standings

from ..games.conftest import Actor
from .test_formats_flow import current_tables, make_event

pytestmark = pytest.mark.django_db


def test_a_player_listed_with_no_unplayed_round_changes_nothing() -> None:
    """An empty list of unplayed rounds (a late entry seen before any round) is no round at all."""
    assert standings([1, 2], [], 2, unplayed={1: []}, rounds=3) == standings([1, 2], [], 2, rounds=3)
    assert standings([1, 2], [], 2, unplayed={1: [], 2: [Unplayed(1, 1.0)]}, rounds=3)[0].player == 2


def _swiss_with_a_bye_and_a_late_entry(
    make_actor: Callable[..., Actor], capture: Any
) -> tuple[Actor, Any, Actor]:
    org, t, _ = make_event(make_actor, 3, seats=2, format="swiss", rounds=3)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    late = make_actor("edge-late")
    invitation = services.late_entry(tournament_id=t.pk, player=late.player, by=org.player)
    services.late_entry_answer(invitation_id=invitation.pk, by=late.player, accept=True)
    t.refresh_from_db()
    return org, t, late


def test_standings_after_round_zero_of_a_swiss_with_a_bye_and_a_late_entry(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, late = _swiss_with_a_bye_and_a_late_entry(make_actor, django_capture_on_commit_callbacks)
    r = org.get(f"/api/v1/tournaments/{t.pk}/standings/?round=0")
    assert r.status_code == 200, r.content
    rows = r.json()
    assert len(rows) == 4 and all(row["points"] == 0 and row["played"] == 0 for row in rows)
    assert late.player.pk in {row["player"] for row in rows}
    now = org.get(f"/api/v1/tournaments/{t.pk}/standings/")
    assert now.status_code == 200 and max(row["points"] for row in now.json()) == 1, "the bye counts now"


def test_a_first_round_with_a_late_entry_is_paired_again(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, late = _swiss_with_a_bye_and_a_late_entry(make_actor, django_capture_on_commit_callbacks)
    r = org.post(f"/api/v1/tournaments/{t.pk}/rounds/repair/")
    assert r.status_code == 200, r.content
    assert r.json()["current_round"] == 1
    seated = [p for tb in current_tables(t) for p in tb.seats.values_list("player", flat=True)]
    assert len(seated) == 2 and late.player.pk not in seated, "the late entry still starts in round 2"
    assert org.get(f"/api/v1/tournaments/{t.pk}/standings/").status_code == 200
