"""Every write operation of the API × every role, with the status each role must get.

The operations are read from the served OpenAPI schema: a new write endpoint without rows in
``MATRIX`` fails :func:`test_every_write_operation_of_the_schema_is_in_the_matrix`. Operations
whose path has an ``{action}`` are listed once per action.

Roles: ``anon`` (no header), ``guest`` (``Player.is_guest``), ``player`` (an ordinary account),
``seated`` (the participant of the target: seated at the table, registered in the tournament,
member of the ladder, the challenged player of a challenge, the asker of an organiser request),
``org`` (in ``League.organisers`` of the target's league, with the organiser role), ``other_org``
(organiser of another league, with the role) and ``staff``.

Each case builds a fresh world, issues one real request, asserts the exact status and, for a
refusal (4xx), that the rows the operation would change did not change.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import time, timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import Notification
from engine.playout import random_step
from games import services as games
from games.models import Block, Player, Seat, Table
from tournaments import ladders
from tournaments.arena import services as arena
from tournaments.arena import wave as arena_wave
from tournaments.calendar import recurring
from tournaments.competitions import services
from tournaments.models import (
    ArenaPlayer,
    ArenaTable,
    Challenge,
    EventSeries,
    Ladder,
    LadderMember,
    LateEntryInvitation,
    League,
    OrganiserRequest,
    OrganiserRole,
    Pool,
    PoolEntry,
    QueueEntry,
    Registration,
    Round,
    Tournament,
)
from tournaments.pools import services as pools

from .analysis.analysis_matrix import ANALYSIS_MATRIX, ANALYSIS_OPERATIONS
from .analysis.explorer_matrix import EXPLORER_MATRIX, EXPLORER_OPERATIONS
from .community.chat_matrix import CHAT_MATRIX, CHAT_OPERATIONS
from .community.friends_matrix import FRIENDS_MATRIX, FRIENDS_OPERATIONS
from .community.moderation_matrix import MODERATION_MATRIX, MODERATION_OPERATIONS
from .games.conftest import Actor, as_organiser
from .games.vacation_matrix import VACATION_MATRIX, VACATION_OPERATIONS
from .tournaments.team_events_matrix import TEAM_EVENT_MATRIX, TEAM_EVENT_OPERATIONS
from .tournaments.team_seasons_matrix import TEAM_SEASON_MATRIX, TEAM_SEASON_OPERATIONS
from .tournaments.teams_matrix import TEAM_MATRIX, TEAM_OPERATIONS

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]


class GuestActor:
    def __init__(self) -> None:
        self.player = games.guest_create()
        self.token = Token.objects.create(user=self.player.user).key


@dataclass
class World:
    org: Actor
    other_org: Actor
    staff: Actor
    player: Actor
    seated: Actor
    guest: GuestActor
    league: League

    def actor(self, role: str) -> Any:
        return None if role == "anon" else getattr(self, role)


def make_world() -> World:
    org = Actor("org")
    other = Actor("otherorg")
    league = services.league_create(organiser=as_organiser(org.player), name="Home Club")
    services.league_create(organiser=as_organiser(other.player), name="Away Club")
    return World(
        org=org,
        other_org=other,
        staff=Actor("staffer", staff=True),
        player=Actor("plain"),
        seated=Actor("seated"),
        guest=GuestActor(),
        league=league,
    )


# ------------------------------------------------------------------ targets
def _table(w: World, seats: int = 2, start: bool = False, **kw: Any) -> Table:
    table = games.table_create(creator=w.seated.player, game="shacru", players=seats, **kw)
    if start:
        filler = Actor("filler")
        games.seat_join(table_id=table.pk, player=filler.player)
    table.refresh_from_db()
    return table


def _tournament(w: World, status: str = "draft", n: int = 0, **kw: Any) -> Tournament:
    kw.setdefault("rounds", 3)
    t = services.tournament_create(
        organiser=w.org.player,
        league=w.league,
        name="Cup",
        game="shacru",
        seats=2,
        open_registration=status != "draft",
        **kw,
    )
    if status == "draft":
        return t
    services.register(tournament_id=t.pk, player=w.seated.player)
    for i in range(n):
        services.register(tournament_id=t.pk, player=Actor(f"entrant{i}").player)
    if status == "running":
        services.start(tournament_id=t.pk, by=w.org.player)
    t.refresh_from_db()
    return t


def _ladder(w: World, seats: int = 2) -> Ladder:
    kind = "position" if seats == 2 else "rating"
    ladder = ladders.ladder_create(
        organiser=w.org.player, league=w.league, game="shacru", kind=kind, seats=seats
    )
    ladders.ladder_join(ladder=ladder, player=w.seated.player)
    return ladder


def _challenge(w: World) -> Challenge:
    ladder = ladders.ladder_create(organiser=w.org.player, league=w.league, game="shacru", kind="position")
    challenger = Actor("challenger").player
    ladders.ladder_join(ladder=ladder, player=w.seated.player)
    ladders.ladder_join(ladder=ladder, player=challenger)
    return ladders.challenge_create(ladder=ladder, challenger=challenger, challenged=w.seated.player)


def _record(w: World) -> str:
    table = _table(w, start=True, rated=False)
    seat_of = {s.number: s.player for s in Seat.objects.filter(table=table)}
    rng = random.Random(3)
    for _ in range(4):
        state = games.current_state(table)
        _, text = random_step(state, rng)
        table = games.move_submit(
            table_id=table.pk, player=seat_of[state.to_move], ply=table.ply, move=text
        ).table
    games.game_resign(table_id=table.pk, player=seat_of[1])
    table.refresh_from_db()
    return games.record_text(table=table)


def _legal_move(table: Table) -> dict[str, Any]:
    state = games.current_state(table)
    _, text = random_step(state, random.Random(1))
    return {"ply": table.ply, "move": text}


# A case: (url, body, snapshot) where snapshot() is the state a refusal must leave unchanged.
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _table_state(pk: int) -> Callable[[], Any]:
    return lambda: (
        Table.objects.filter(pk=pk).values_list("status", "ply").first(),
        sorted(Seat.objects.filter(table_id=pk).values_list("number", "player_id", "state")),
    )


def _tournament_state(pk: int) -> Callable[[], Any]:
    return lambda: (
        Tournament.objects.filter(pk=pk).values_list("status", "current_round", "starts_at").first(),
        sorted(
            Registration.objects.filter(tournament_id=pk).values_list(
                "player_id", "status", "manual_byes", "joined_round"
            )
        ),
        Round.objects.filter(tournament_id=pk).count(),
        Table.objects.count(),
    )


def _ladder_state(pk: int) -> Callable[[], Any]:
    return lambda: (
        sorted(LadderMember.objects.filter(ladder_id=pk).values_list("player_id", "position")),
        QueueEntry.objects.filter(ladder_id=pk).count(),
        sorted(Challenge.objects.filter(ladder_id=pk).values_list("pk", "status")),
        Table.objects.count(),
    )


def case_register(w: World, role: str) -> Case:
    return (
        "/api/v1/auth/register/",
        {"username": f"new-{role}", "password": "correct-horse-9", "display_name": f"New {role}"},
        lambda: Player.objects.count(),
    )


def case_token(w: World, role: str) -> Case:
    return (
        "/api/v1/auth/token/",
        {"username": "plain", "password": "correct-horse-9"},
        lambda: Token.objects.count(),
    )


def case_notifications_read(w: World, role: str) -> Case:
    """The seated player has an unread notification; everyone marks their own (all) read."""
    user = w.seated.player.user
    Notification.objects.create(user=user, kind="your_turn", key="turn:1:0", params={})
    return (
        "/api/v1/notifications/read/",
        {},
        lambda: Notification.objects.filter(user=user, read_at__isnull=True).count(),
    )


def case_account_bot(w: World, role: str) -> Case:
    """The seated player has sat at a table: no longer a fresh account that may become a bot."""
    _table(w, rated=False)
    return (
        "/api/v1/account/bot/",
        {},
        lambda: sorted(Player.objects.filter(is_bot=True).values_list("pk", "bot_level")),
    )


def case_table_create(w: World, role: str) -> Case:
    return "/api/v1/tables/", {"game": "shacru", "players": 2, "rated": False}, Table.objects.count


def case_table_import(w: World, role: str) -> Case:
    return "/api/v1/tables/import/", {"record": _record(w), "rated": False}, Table.objects.count


def case_invite_bot(w: World, role: str) -> Case:
    t = _table(w, seats=2, rated=False)
    return f"/api/v1/tables/{t.pk}/invite-bot/", {"level": "random"}, _table_state(t.pk)


def case_invite_bot_fills_bots_only(w: World, role: str) -> Case:
    """Each role fills a table of its own that holds house bots only (opened without taking a
    seat, one bot seated; anon: the seated player's): a bot match, for organisers only."""
    actor = w.actor(role) or w.seated
    t = games.table_create(creator=actor.player, game="shacru", players=2, rated=False, join=False)
    games.bot_invite(table_id=t.pk, player=actor.player, level="random")
    return f"/api/v1/tables/{t.pk}/invite-bot/", {"level": "greedy"}, _table_state(t.pk)


def case_join(w: World, role: str) -> Case:
    t = _table(w, seats=3, rated=False)
    return f"/api/v1/tables/{t.pk}/join/", {}, _table_state(t.pk)


def case_leave(w: World, role: str) -> Case:
    t = _table(w, seats=2, rated=False)
    return f"/api/v1/tables/{t.pk}/leave/", {}, _table_state(t.pk)


def case_move(w: World, role: str) -> Case:
    t = _table(w, start=True, rated=False)
    return f"/api/v1/tables/{t.pk}/moves/", _legal_move(t), _table_state(t.pk)


def case_resign(w: World, role: str) -> Case:
    t = _table(w, start=True, rated=False)
    return f"/api/v1/tables/{t.pk}/resign/", {}, _table_state(t.pk)


def case_league_create(w: World, role: str) -> Case:
    return "/api/v1/leagues/", {"name": f"New league {role}"}, League.objects.count


def case_league_join(w: World, role: str) -> Case:
    return f"/api/v1/leagues/{w.league.slug}/join/", {}, w.league.members.count


def case_organiser_request(w: World, role: str) -> Case:
    return "/api/v1/organiser-requests/", {"message": "my club"}, OrganiserRequest.objects.count


def _decide(action: str) -> Callable[[World, str], Case]:
    def case(w: World, role: str) -> Case:
        req = OrganiserRequest.objects.create(player=w.seated.player, message="please")
        return (
            f"/api/v1/organiser-requests/{req.pk}/{action}/",
            {},
            lambda: (
                OrganiserRequest.objects.filter(pk=req.pk).values_list("status", flat=True).first(),
                OrganiserRole.objects.count(),
            ),
        )

    return case


def case_ladder_create(w: World, role: str) -> Case:
    return "/api/v1/ladders/", {"league": w.league.slug, "game": "shacru"}, Ladder.objects.count


def _ladder_action(action: str) -> Callable[[World, str], Case]:
    def case(w: World, role: str) -> Case:
        ladder = _ladder(w, seats=3 if action in ("queue", "unqueue") else 2)
        body: dict[str, Any] = {}
        if action == "unqueue":
            ladders.queue_join(ladder=ladder, player=w.seated.player)
        if action == "challenge":
            # the seated player (second on the ladder) challenges the first
            top = Actor("top").player
            LadderMember.objects.filter(ladder=ladder).delete()
            ladders.ladder_join(ladder=ladder, player=top)
            ladders.ladder_join(ladder=ladder, player=w.seated.player)
            body = {"player": top.pk}
        return f"/api/v1/ladders/{ladder.pk}/{action}/", body, _ladder_state(ladder.pk)

    return case


def _challenge_action(action: str) -> Callable[[World, str], Case]:
    def case(w: World, role: str) -> Case:
        # for cancel the participant is the challenger, otherwise the challenged player
        c = _swap_challenge(w) if action == "cancel" else _challenge(w)
        return f"/api/v1/challenges/{c.pk}/{action}/", {}, _ladder_state(c.ladder_id)

    return case


def _swap_challenge(w: World) -> Challenge:
    ladder = ladders.ladder_create(organiser=w.org.player, league=w.league, game="shacru", kind="position")
    target = Actor("target").player
    ladders.ladder_join(ladder=ladder, player=target)
    ladders.ladder_join(ladder=ladder, player=w.seated.player)
    return ladders.challenge_create(ladder=ladder, challenger=w.seated.player, challenged=target)


def case_tournament_create(w: World, role: str) -> Case:
    return (
        "/api/v1/tournaments/",
        {"league": w.league.slug, "name": "New cup", "game": "shacru", "seats": 2},
        Tournament.objects.count,
    )


def _tournament_case(
    suffix: str, status: str, n: int = 0, body: Callable[[World], dict[str, Any]] | None = None, **kw: Any
) -> Callable[[World, str], Case]:
    def case(w: World, role: str) -> Case:
        t = _tournament(w, status=status, n=n, **kw)
        return (
            f"/api/v1/tournaments/{t.pk}/{suffix}/",
            body(w) if body else {},
            _tournament_state(t.pk),
        )

    return case


def case_next_round(w: World, role: str) -> Case:
    # round 1 is over but round 2 not paired yet (as after a hand-finished round)
    t = _tournament(w, status="running", n=1, rounds=2)
    Round.objects.filter(tournament=t, number=1).update(status=Round.Status.FINISHED)
    return f"/api/v1/tournaments/{t.pk}/rounds/next/", {}, _tournament_state(t.pk)


def _late_body(w: World) -> dict[str, Any]:
    return {"player": Actor("late").player.pk}


def _late_answer(action: str) -> Callable[[World, str], Case]:
    """The organiser invited the seated player into a running Swiss; only they may answer."""

    def case(w: World, role: str) -> Case:
        t = services.tournament_create(
            organiser=w.org.player, league=w.league, name="Late cup", game="shacru", seats=2, rounds=3
        )
        for i in range(2):
            services.register(tournament_id=t.pk, player=Actor(f"entrant{i}").player, by=w.org.player)
        services.start(tournament_id=t.pk, by=w.org.player)
        invitation = services.late_entry(tournament_id=t.pk, player=w.seated.player, by=w.org.player)
        state = _tournament_state(t.pk)
        return (
            f"/api/v1/late-entry-invitations/{invitation.pk}/{action}/",
            {},
            lambda: (
                state(),
                LateEntryInvitation.objects.filter(pk=invitation.pk).values_list("status").first(),
            ),
        )

    return case


def _series(w: World) -> EventSeries:
    return recurring.series_create(
        league=w.league,
        by=w.org.player,
        name="Friday Swiss",
        event={"game": "shacru", "seats": 2, "rounds": 3},
        frequency="weekly",
        local_time=time(19, 0),
        time_zone="Europe/Madrid",
        first_date=timezone.localdate() + timedelta(days=30),
    )


def _series_state(league_id: int) -> Callable[[], Any]:
    return lambda: sorted(
        EventSeries.objects.filter(league_id=league_id).values_list("pk", "name", "active", "skipped")
    )


def case_series_create(w: World, role: str) -> Case:
    body = {
        "name": "Sunday Swiss",
        "event": {"game": "shacru", "seats": 2, "rounds": 3},
        "frequency": "weekly",
        "local_time": "18:00",
        "time_zone": "Europe/Madrid",
        "first_date": (timezone.localdate() + timedelta(days=3)).isoformat(),
    }
    return f"/api/v1/leagues/{w.league.slug}/series/", body, _series_state(w.league.pk)


def case_series_change(w: World, role: str) -> Case:
    return f"/api/v1/series/{_series(w).pk}/", {"name": "Renamed"}, _series_state(w.league.pk)


def case_series_skip(w: World, role: str) -> Case:
    series = _series(w)
    return (
        f"/api/v1/series/{series.pk}/skip/",
        {"date": series.first_date.isoformat()},
        _series_state(w.league.pk),
    )


def case_block(w: World, role: str) -> Case:
    """Everyone blocks the seated player (the seated player: themselves)."""
    return f"/api/v1/players/{w.seated.player.pk}/block/", {}, lambda: sorted(Block.objects.values_list())


def case_unblock(w: World, role: str) -> Case:
    """Each role with an account had blocked the seated player, and lifts it."""
    actor = w.actor(role)
    if actor is not None and role != "seated":
        Block.objects.create(player=actor.player, blocked=w.seated.player)
    return f"/api/v1/players/{w.seated.player.pk}/block/", {}, lambda: sorted(Block.objects.values_list())


def case_quick_pairing(w: World, role: str) -> Case:
    """The seated player waits in the pool already: joining it again keeps their place, leaving
    takes them out; nobody else waits anywhere (leaving is then a no-op)."""
    pool = Pool.objects.create(game="shacru", players=3, time_control={"kind": "fischer", "base": 300.0})
    pools.pool_join(player=w.seated.player, pool_id=pool.pk)
    return (
        "/api/v1/quick-pairing/",
        {"pool": pool.pk},
        lambda: sorted(PoolEntry.objects.values_list("player_id", "pool_id", "joined")),
    )


def _arena(w: World, *, running: bool = True, table: bool = False) -> Tournament:
    """A two-seat arena with a clock and berserk, the seated player and one more in it; started,
    and paired once (``table``)."""
    t = services.tournament_create(
        organiser=w.org.player,
        league=w.league,
        name="Arena",
        game="shacru",
        seats=2,
        format="arena",
        duration_minutes=30,
        time_control={"kind": "fischer", "base": 300.0},
    )
    arena.arena_join(tournament_id=t.pk, player=w.seated.player)
    arena.arena_join(tournament_id=t.pk, player=Actor("arenamate").player)
    if running:
        services.start(tournament_id=t.pk, by=w.org.player)
    if table:
        arena_wave.pair_arena(tournament_id=t.pk, now=timezone.now())
    return t


def _arena_state(pk: int) -> Callable[[], Any]:
    return lambda: (
        _tournament_state(pk)(),
        sorted(
            ArenaPlayer.objects.filter(tournament_id=pk).values_list(
                "player_id", "paused", "withdrawn", "free_since", "table_id"
            )
        ),
        sorted(ArenaTable.objects.filter(tournament_id=pk).values_list("table_id", "berserk")),
    )


def _arena_case(action: str, paused: bool = False) -> Callable[[World, str], Case]:
    """A running arena the seated player plays in (paused first, for resume)."""

    def case(w: World, role: str) -> Case:
        t = _arena(w)
        if paused:
            arena.arena_pause(tournament_id=t.pk, player=w.seated.player)
        return f"/api/v1/tournaments/{t.pk}/arena/{action}/", {}, _arena_state(t.pk)

    return case


def case_berserk(w: World, role: str) -> Case:
    """The seated player's arena table, nobody has moved yet."""
    t = _arena(w, table=True)
    table_id = ArenaTable.objects.get(tournament=t).table_id
    return (
        f"/api/v1/tables/{table_id}/berserk/",
        {},
        lambda: (
            Table.objects.filter(pk=table_id).values_list("clocks", "deadline").first(),
            _arena_state(t.pk)(),
        ),
    )


def _tomorrow(w: World) -> dict[str, Any]:
    return {"starts_at": (timezone.now() + timedelta(days=1)).isoformat()}


# (operation id, case builder, {role: expected status})
OPERATIONS: list[tuple[str, str, Callable[[World, str], Case]]] = [
    ("POST /api/v1/auth/register/", "", case_register),
    ("POST /api/v1/auth/token/", "", case_token),
    ("POST /api/v1/notifications/read/", "", case_notifications_read),
    ("POST /api/v1/account/bot/", "", case_account_bot),
    ("POST /api/v1/tables/", "", case_table_create),
    ("POST /api/v1/tables/import/", "", case_table_import),
    ("POST /api/v1/tables/{table_id}/invite-bot/", "", case_invite_bot),
    ("POST /api/v1/tables/{table_id}/invite-bot/", "bots only", case_invite_bot_fills_bots_only),
    ("POST /api/v1/tables/{table_id}/join/", "", case_join),
    ("POST /api/v1/tables/{table_id}/leave/", "", case_leave),
    ("POST /api/v1/tables/{table_id}/moves/", "", case_move),
    ("POST /api/v1/tables/{table_id}/resign/", "", case_resign),
    ("POST /api/v1/leagues/", "", case_league_create),
    ("POST /api/v1/leagues/{slug}/join/", "", case_league_join),
    ("POST /api/v1/organiser-requests/", "", case_organiser_request),
    ("POST /api/v1/organiser-requests/{request_id}/{action}/", "grant", _decide("grant")),
    ("POST /api/v1/organiser-requests/{request_id}/{action}/", "refuse", _decide("refuse")),
    ("POST /api/v1/ladders/", "", case_ladder_create),
    ("POST /api/v1/ladders/{ladder_id}/{action}/", "join", _ladder_action("join")),
    ("POST /api/v1/ladders/{ladder_id}/{action}/", "leave", _ladder_action("leave")),
    ("POST /api/v1/ladders/{ladder_id}/{action}/", "queue", _ladder_action("queue")),
    ("POST /api/v1/ladders/{ladder_id}/{action}/", "unqueue", _ladder_action("unqueue")),
    ("POST /api/v1/ladders/{ladder_id}/{action}/", "challenge", _ladder_action("challenge")),
    ("POST /api/v1/challenges/{challenge_id}/{action}/", "accept", _challenge_action("accept")),
    ("POST /api/v1/challenges/{challenge_id}/{action}/", "decline", _challenge_action("decline")),
    ("POST /api/v1/challenges/{challenge_id}/{action}/", "cancel", _challenge_action("cancel")),
    ("POST /api/v1/tournaments/", "", case_tournament_create),
    ("POST /api/v1/tournaments/{tournament_id}/open/", "", _tournament_case("open", "draft")),
    (
        "POST /api/v1/tournaments/{tournament_id}/register/",
        "",
        _tournament_case("register", "registration"),
    ),
    (
        "POST /api/v1/tournaments/{tournament_id}/check-in/",
        "",
        _tournament_case("check-in", "registration", check_in=True),
    ),
    (
        "POST /api/v1/tournaments/{tournament_id}/withdraw/",
        "",
        _tournament_case("withdraw", "registration", body=lambda w: {"player": w.seated.player.pk}),
    ),
    ("POST /api/v1/tournaments/{tournament_id}/start/", "", _tournament_case("start", "registration", n=1)),
    ("POST /api/v1/tournaments/{tournament_id}/rounds/next/", "", case_next_round),
    (
        "POST /api/v1/tournaments/{tournament_id}/rounds/repair/",
        "",
        _tournament_case("rounds/repair", "running", n=1),
    ),
    (
        "POST /api/v1/tournaments/{tournament_id}/bye/",
        "",
        _tournament_case("bye", "running", n=2, body=lambda w: {"player": w.seated.player.pk}),
    ),
    (
        "POST /api/v1/tournaments/{tournament_id}/late-entry/",
        "",
        _tournament_case("late-entry", "running", n=1, body=_late_body),
    ),
    ("POST /api/v1/late-entry-invitations/{invitation_id}/{action}/", "accept", _late_answer("accept")),
    ("POST /api/v1/late-entry-invitations/{invitation_id}/{action}/", "decline", _late_answer("decline")),
    (
        "POST /api/v1/tournaments/{tournament_id}/postpone/",
        "",
        _tournament_case("postpone", "registration", body=_tomorrow),
    ),
    ("POST /api/v1/tournaments/{tournament_id}/call-off/", "", _tournament_case("call-off", "registration")),
    ("POST /api/v1/tournaments/{tournament_id}/arena/join/", "", _arena_case("join")),
    ("POST /api/v1/tournaments/{tournament_id}/arena/pause/", "", _arena_case("pause")),
    ("POST /api/v1/tournaments/{tournament_id}/arena/resume/", "", _arena_case("resume", paused=True)),
    ("POST /api/v1/tournaments/{tournament_id}/arena/withdraw/", "", _arena_case("withdraw")),
    ("POST /api/v1/tables/{table_id}/berserk/", "", case_berserk),
    ("POST /api/v1/leagues/{slug}/series/", "", case_series_create),
    ("PATCH /api/v1/series/{series_id}/", "", case_series_change),
    ("DELETE /api/v1/series/{series_id}/", "", case_series_change),
    ("POST /api/v1/series/{series_id}/skip/", "", case_series_skip),
    ("POST /api/v1/quick-pairing/", "", case_quick_pairing),
    ("DELETE /api/v1/quick-pairing/", "", case_quick_pairing),
    ("POST /api/v1/players/{player_id}/block/", "", case_block),
    ("DELETE /api/v1/players/{player_id}/block/", "", case_unblock),
]

#: Write operations whose matrix is in another file, with the world and roles of this one.
ELSEWHERE = {
    # tests/tournaments/test_seasons_permissions.py
    "POST /api/v1/leagues/{slug}/seasons/",
    "PATCH /api/v1/seasons/{season_id}/",
    "POST /api/v1/seasons/{season_id}/register/",
    "POST /api/v1/seasons/{season_id}/withdraw/",
    "POST /api/v1/seasons/{season_id}/unavailable/",
    "POST /api/v1/seasons/{season_id}/start/",
    "POST /api/v1/seasons/{season_id}/close/",
}


def _row(*statuses: int) -> dict[str, int]:
    """Statuses in ROLES order: anon, guest, player, seated, org, other_org, staff."""
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


ORGANISERS_ONLY = _row(401, 403, 403, 403, 200, 403, 200)  # org of this league, or staff
PARTICIPANT_ONLY = _row(401, 403, 403, 200, 403, 403, 403)

#: Expected status per operation (test id) and role.
MATRIX: dict[str, dict[str, int]] = {
    # open to everybody (AllowAny); registering while signed in makes a second account
    "POST /api/v1/auth/register/": _row(201, 201, 201, 201, 201, 201, 201),
    "POST /api/v1/auth/token/": _row(200, 200, 200, 200, 200, 200, 200),
    # one's own notifications only (accounts.apis): nobody else's change
    "POST /api/v1/notifications/read/": _row(401, 200, 200, 200, 200, 200, 200),
    # a fresh account becomes an outside bot (live.bot_api); one that has played (seated),
    # organisers and staff are refused with the reason (409); a guest needs an account first
    "POST /api/v1/account/bot/": _row(401, 403, 200, 409, 409, 409, 409),
    # any account, guests included (casual tables)
    "POST /api/v1/tables/": _row(401, 201, 201, 201, 201, 201, 201),
    "POST /api/v1/tables/import/": _row(401, 403, 403, 403, 403, 403, 201),
    # seated players or the creator (here the seated player), and staff (games.services.tables)
    "POST /api/v1/tables/{table_id}/invite-bot/": _row(401, 403, 403, 200, 403, 403, 200),
    # filling one's own table with house bots only is a bot match: organisers (the role) and staff
    # (tournaments.organising.botmatches.bot_only_table_allowed); a guest, a player, a seated player never
    "POST /api/v1/tables/{table_id}/invite-bot/ bots only": _row(401, 403, 403, 403, 200, 200, 200),
    # a guest may join a casual table; the seated player has a seat already
    "POST /api/v1/tables/{table_id}/join/": _row(401, 200, 200, 409, 200, 200, 200),
    "POST /api/v1/tables/{table_id}/leave/": PARTICIPANT_ONLY,
    "POST /api/v1/tables/{table_id}/moves/": _row(401, 403, 403, 201, 403, 403, 403),
    "POST /api/v1/tables/{table_id}/resign/": PARTICIPANT_ONLY,
    # the organiser role (or staff); guests never
    "POST /api/v1/leagues/": _row(401, 403, 403, 403, 201, 201, 201),
    "POST /api/v1/leagues/{slug}/join/": _row(401, 403, 200, 200, 200, 200, 200),
    # holders of the role (staff count as organisers) have nothing to ask for
    "POST /api/v1/organiser-requests/": _row(401, 403, 201, 201, 409, 409, 409),
    "POST /api/v1/organiser-requests/{request_id}/{action}/ grant": _row(401, 403, 403, 403, 403, 403, 200),
    "POST /api/v1/organiser-requests/{request_id}/{action}/ refuse": _row(401, 403, 403, 403, 403, 403, 200),
    "POST /api/v1/ladders/": _row(401, 403, 403, 403, 201, 403, 201),
    "POST /api/v1/ladders/{ladder_id}/{action}/ join": _row(401, 403, 200, 409, 200, 200, 200),
    "POST /api/v1/ladders/{ladder_id}/{action}/ leave": _row(401, 409, 409, 200, 409, 409, 409),
    "POST /api/v1/ladders/{ladder_id}/{action}/ queue": PARTICIPANT_ONLY,
    # leaving a queue one is not in is a no-op answered 200 (checked: nothing changes)
    "POST /api/v1/ladders/{ladder_id}/{action}/ unqueue": _row(401, 200, 200, 200, 200, 200, 200),
    "POST /api/v1/ladders/{ladder_id}/{action}/ challenge": _row(401, 403, 403, 201, 403, 403, 403),
    "POST /api/v1/challenges/{challenge_id}/{action}/ accept": PARTICIPANT_ONLY,
    "POST /api/v1/challenges/{challenge_id}/{action}/ decline": PARTICIPANT_ONLY,
    "POST /api/v1/challenges/{challenge_id}/{action}/ cancel": PARTICIPANT_ONLY,
    "POST /api/v1/tournaments/": _row(401, 403, 403, 403, 201, 403, 201),
    "POST /api/v1/tournaments/{tournament_id}/open/": ORGANISERS_ONLY,
    "POST /api/v1/tournaments/{tournament_id}/register/": _row(401, 403, 200, 409, 200, 200, 200),
    "POST /api/v1/tournaments/{tournament_id}/check-in/": PARTICIPANT_ONLY,
    # the player themself, or the league's organisers (or staff)
    "POST /api/v1/tournaments/{tournament_id}/withdraw/": _row(401, 403, 403, 200, 200, 403, 200),
    "POST /api/v1/tournaments/{tournament_id}/start/": ORGANISERS_ONLY,
    "POST /api/v1/tournaments/{tournament_id}/rounds/next/": ORGANISERS_ONLY,
    "POST /api/v1/tournaments/{tournament_id}/rounds/repair/": ORGANISERS_ONLY,
    "POST /api/v1/tournaments/{tournament_id}/bye/": ORGANISERS_ONLY,
    # an organiser's late entry of another player is an invitation (201, "pending"): they are
    # entered only when they accept it (issue 29), and nobody else may answer for them
    "POST /api/v1/tournaments/{tournament_id}/late-entry/": _row(401, 403, 403, 403, 201, 403, 201),
    "POST /api/v1/late-entry-invitations/{invitation_id}/{action}/ accept": PARTICIPANT_ONLY,
    "POST /api/v1/late-entry-invitations/{invitation_id}/{action}/ decline": PARTICIPANT_ONLY,
    "POST /api/v1/tournaments/{tournament_id}/postpone/": ORGANISERS_ONLY,
    "POST /api/v1/tournaments/{tournament_id}/call-off/": ORGANISERS_ONLY,
    # anyone with an account joins a running arena (guests never); the seated player is in already
    "POST /api/v1/tournaments/{tournament_id}/arena/join/": _row(401, 403, 200, 409, 200, 200, 200),
    # one's own place in the arena: whoever is not in it has nothing to pause, resume or leave (409)
    "POST /api/v1/tournaments/{tournament_id}/arena/pause/": _row(401, 409, 409, 200, 409, 409, 409),
    "POST /api/v1/tournaments/{tournament_id}/arena/resume/": _row(401, 409, 409, 200, 409, 409, 409),
    "POST /api/v1/tournaments/{tournament_id}/arena/withdraw/": _row(401, 409, 409, 200, 409, 409, 409),
    # one's own clock at one's own arena table
    "POST /api/v1/tables/{table_id}/berserk/": PARTICIPANT_ONLY,
    "POST /api/v1/leagues/{slug}/series/": _row(401, 403, 403, 403, 201, 403, 201),
    "PATCH /api/v1/series/{series_id}/": ORGANISERS_ONLY,
    "DELETE /api/v1/series/{series_id}/": ORGANISERS_ONLY,
    "POST /api/v1/series/{series_id}/skip/": ORGANISERS_ONLY,
    # any account but a guest (guests play bots); the seated player waits there already (kept)
    "POST /api/v1/quick-pairing/": _row(401, 403, 200, 200, 200, 200, 200),
    # leaving: only the seated player waits anywhere; for the others a no-op (checked)
    "DELETE /api/v1/quick-pairing/": _row(401, 204, 204, 204, 204, 204, 204),
    # any account blocks anyone but themselves (400) and house bots (games.blocks)
    "POST /api/v1/players/{player_id}/block/": _row(401, 201, 201, 400, 201, 201, 201),
    "DELETE /api/v1/players/{player_id}/block/": _row(401, 204, 204, 400, 204, 204, 204),
}

# Teams: the cases and statuses are in tests/tournaments/teams_matrix.py (this world and roles).
OPERATIONS += TEAM_OPERATIONS
MATRIX |= TEAM_MATRIX
# Team seasons: tests/tournaments/team_seasons_matrix.py.
OPERATIONS += TEAM_SEASON_OPERATIONS
MATRIX |= TEAM_SEASON_MATRIX
# Team events: tests/tournaments/team_events_matrix.py.
OPERATIONS += TEAM_EVENT_OPERATIONS
MATRIX |= TEAM_EVENT_MATRIX
# Friends and challenges: tests/community/friends_matrix.py.
OPERATIONS += FRIENDS_OPERATIONS
MATRIX |= FRIENDS_MATRIX
# Chat: tests/community/chat_matrix.py.
OPERATIONS += CHAT_OPERATIONS
MATRIX |= CHAT_MATRIX
# Reports and moderation: tests/community/moderation_matrix.py.
OPERATIONS += MODERATION_OPERATIONS
MATRIX |= MODERATION_MATRIX
# Correspondence vacation: tests/games/vacation_matrix.py.
OPERATIONS += VACATION_OPERATIONS
MATRIX |= VACATION_MATRIX
# Hints: tests/analysis/explorer_matrix.py.
OPERATIONS += EXPLORER_OPERATIONS
MATRIX |= EXPLORER_MATRIX
# Game analysis: tests/analysis/analysis_matrix.py.
OPERATIONS += ANALYSIS_OPERATIONS
MATRIX |= ANALYSIS_MATRIX

#: Operations a non-participant may call with a 2xx answer that must change nothing.
NO_OPS = {
    "POST /api/v1/ladders/{ladder_id}/{action}/ unqueue",
    "POST /api/v1/notifications/read/",
    "DELETE /api/v1/quick-pairing/",
}


def _key(op: str, action: str) -> str:
    return f"{op} {action}".strip()


@pytest.fixture(autouse=True)
def _no_throttles(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_CLASSES": [],
    }


def test_every_write_operation_of_the_schema_is_in_the_matrix(db: None) -> None:
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    served = {
        f"{method.upper()} {path}"
        for path, ops in schema["paths"].items()
        for method in ops
        if method in ("post", "put", "patch", "delete")
    }
    listed = {op for op, _, _ in OPERATIONS}
    assert served == listed | ELSEWHERE
    assert set(MATRIX) == {_key(op, action) for op, action, _ in OPERATIONS}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("op,action,build", OPERATIONS, ids=[_key(op, a) for op, a, _ in OPERATIONS])
def test_permission(db: None, op: str, action: str, build: Callable[[World, str], Case], role: str) -> None:
    w = make_world()
    url, body, snapshot = build(w, role)
    before = snapshot()
    client = APIClient()
    actor = w.actor(role)
    if actor is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {actor.token}")
    method = op.split()[0].lower()  # "POST /api/..." -> client.post
    response = getattr(client, method)(url, body, format="json")
    key = _key(op, action)
    assert response.status_code == MATRIX[key][role], response.content
    if response.status_code >= 400 or (key in NO_OPS and role != "seated"):
        assert snapshot() == before
