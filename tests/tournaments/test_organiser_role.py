"""The organiser role: granted by staff, asked for by players, limiting bot matches."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.test import Client

from common.errors import Conflict, Forbidden
from games.models import Table
from tournaments.models import League, OrganiserRequest, OrganiserRole
from tournaments.organising import botmatches
from tournaments.organising import roles as organisers

from ..games.conftest import Actor


def test_an_ordinary_player_cannot_create_a_league_until_staff_grant_the_role(
    make_actor: Callable[..., Actor],
) -> None:
    erin, staff = make_actor("erin"), make_actor("root", staff=True)
    refused = erin.post("/api/v1/leagues/", {"name": "Erin's Club"})
    assert refused.status_code == 403 and "for organisers" in refused.json()["detail"]
    assert not League.objects.exists()

    asked = erin.post("/api/v1/organiser-requests/", {"message": "I run the Tuesday club"})
    assert asked.status_code == 201 and asked.json()["status"] == "pending"
    again = erin.post("/api/v1/organiser-requests/", {"message": "please"})
    assert again.status_code == 409 and "pending" in again.json()["detail"]
    assert [r["message"] for r in erin.get("/api/v1/organiser-requests/").json()] == [
        "I run the Tuesday club"
    ]
    assert [r["player"] for r in staff.get("/api/v1/organiser-requests/").json()] == [erin.player.pk]

    rid = asked.json()["id"]
    assert erin.post(f"/api/v1/organiser-requests/{rid}/grant/").status_code == 403
    granted = staff.post(f"/api/v1/organiser-requests/{rid}/grant/")
    assert granted.status_code == 200 and granted.json()["status"] == "granted"
    assert staff.post(f"/api/v1/organiser-requests/{rid}/grant/").status_code == 409
    assert OrganiserRole.objects.get(player=erin.player).granted_by == staff.player
    created = erin.post("/api/v1/leagues/", {"name": "Erin's Club"})
    assert created.status_code == 201
    assert erin.post("/api/v1/organiser-requests/", {}).status_code == 409, "an organiser asks no more"


def test_a_refused_player_may_ask_again(make_actor: Callable[..., Actor]) -> None:
    erin, staff = make_actor("erin"), make_actor("root", staff=True)
    rid = erin.post("/api/v1/organiser-requests/", {}).json()["id"]
    refused = staff.post(f"/api/v1/organiser-requests/{rid}/refuse/")
    assert refused.status_code == 200 and refused.json()["status"] == "refused"
    assert staff.post(f"/api/v1/organiser-requests/{rid}/dance/").status_code == 404
    assert erin.post("/api/v1/organiser-requests/", {"message": "second try"}).status_code == 201
    assert not organisers.may_organise(player=erin.player)


def test_bot_matches_need_the_role_and_stay_within_the_daily_limit(make_actor: Callable[..., Actor]) -> None:
    erin = make_actor("erin")
    with pytest.raises(Forbidden, match="for organisers"):
        botmatches.bot_match_start(by=erin.player, game="shacru", levels=["random", "greedy"], games_count=1)
    organisers.grant(player=erin.player, by=None, bot_tables_per_day=3)
    assert (
        len(
            botmatches.bot_match_start(
                by=erin.player, game="shacru", levels=["random", "random"], games_count=2
            )
        )
        == 2
    )
    with pytest.raises(Conflict, match="your limit is 3 \\(1 left\\)"):
        botmatches.bot_match_start(by=erin.player, game="shacru", levels=["random", "random"], games_count=2)
    assert Table.objects.count() == 2, "the refused match opened nothing"
    botmatches.bot_match_start(by=erin.player, game="shacru", levels=["random", "random"], games_count=1)
    staff = make_actor("root", staff=True)
    assert (
        len(botmatches.bot_match_start(by=staff.player, game="shacru", levels=["random"] * 2, games_count=5))
        == 5
    )


def test_the_command_grants_revokes_and_lists(make_actor: Callable[..., Actor]) -> None:
    erin = make_actor("erin")
    out = io.StringIO()
    call_command("organiser", "grant", "ERIN", "--bot-tables", "50", stdout=out)
    assert "erin is an organiser (50 bot-match tables a day)" in out.getvalue().lower()
    call_command("organiser", "list", stdout=out)
    assert "organiser erin: 50" in out.getvalue()
    call_command("organiser", "revoke", "erin", stdout=out)
    assert not organisers.may_organise(player=erin.player)
    with pytest.raises(CommandError, match="not an organiser"):
        call_command("organiser", "revoke", "erin")
    with pytest.raises(CommandError, match="no account"):
        call_command("organiser", "grant", "nobody")


def test_staff_grant_requests_from_the_admin_and_players_ask_from_a_page(
    make_actor: Callable[..., Actor],
) -> None:
    erin, staff = make_actor("erin"), make_actor("root", staff=True)
    page = Client()
    page.force_login(erin.player.user)
    assert "ask to become one" in page.get("/organiser/").content.decode()
    assert page.post("/organiser/request/", {"message": "Chess club on Fridays"}).status_code == 302
    assert "have not answered yet" in page.get("/organiser/request/").content.decode()
    req = OrganiserRequest.objects.get(player=erin.player)

    staff.player.user.is_superuser = True  # the admin needs the model permissions too
    staff.player.user.save(update_fields=["is_superuser"])
    admin = Client()
    admin.force_login(staff.player.user)
    r = admin.post(
        "/admin/tournaments/organiserrequest/",
        {"action": "grant_role", "_selected_action": [req.pk]},
        follow=True,
    )
    assert r.status_code == 200 and "1 player(s) made organisers" in r.content.decode()
    assert organisers.may_organise(player=erin.player)
    assert "You are an organiser" in page.get("/organiser/request/").content.decode()


def test_who_organised_a_league_before_the_role_existed_keeps_organising(
    make_actor: Callable[..., Actor],
) -> None:
    from importlib import import_module

    erin, finn = make_actor("erin"), make_actor("finn")
    league = League.objects.create(name="Old Club", slug="old-club")
    league.organisers.add(erin.player)
    migration = import_module("tournaments.migrations.0006_organiser_role")
    migration.grant_existing_organisers(apps, None)
    assert organisers.may_organise(player=erin.player) and not organisers.may_organise(player=finn.player)
