"""Shared fixtures for the service tests: players with API clients, tables, games."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from engine.playout import random_step
from games import services
from games.models import Player, Table


class Actor:
    """A registered player and an API client logged in as them."""

    def __init__(self, username: str, staff: bool = False):
        self.player = services.player_register(
            username=username, password="correct-horse-9", display_name=username.title()
        )
        if staff:
            get_user_model().objects.filter(pk=self.player.user_id).update(is_staff=True)
            self.player.user.refresh_from_db()
        self.token = Token.objects.create(user=self.player.user).key
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")

    def post(self, url: str, data: Any = None, **kw: Any) -> Any:
        return self.client.post(url, data if data is not None else {}, format="json", **kw)

    def get(self, url: str, **kw: Any) -> Any:
        return self.client.get(url, **kw)


@pytest.fixture
def make_actor(db: None) -> Callable[..., Actor]:
    def make(username: str, staff: bool = False) -> Actor:
        return Actor(username, staff=staff)

    return make


@pytest.fixture
def alice(make_actor: Callable[..., Actor]) -> Actor:
    return make_actor("alice")


@pytest.fixture
def bob(make_actor: Callable[..., Actor]) -> Actor:
    return make_actor("bob")


@pytest.fixture
def carol(make_actor: Callable[..., Actor]) -> Actor:
    return make_actor("carol")


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


def started_table(actors: list[Actor], game: str = "pacru", **options: Any) -> Table:
    """A table with every actor seated in order (so it has started)."""
    table = services.table_create(creator=actors[0].player, game=game, players=len(actors), **options)
    for actor in actors[1:]:
        services.seat_join(table_id=table.pk, player=actor.player)
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE
    return table


def play_random(table: Table, players: dict[int, Player], plies: int | None, seed: int = 1) -> Table:
    """Play random legal moves through the service until ``plies`` or the end."""
    rng = random.Random(seed)
    while table.status == Table.Status.ACTIVE and (plies is None or table.ply < plies):
        state = services.current_state(table)
        _, text = random_step(state, rng)
        table = services.move_submit(
            table_id=table.pk, player=players[state.to_move], ply=table.ply, move=text
        ).table
    return table


def every_seat_moves(table: Table, seed: int = 1) -> Table:
    """Each seat of a started table plays one random legal move, in turn: a rated table that ends
    before every seat has moved is aborted and rated for nobody (issue 29), so a test that resigns
    to get a rated result moves first."""
    table.refresh_from_db()
    players = {s.number: s.player for s in table.seats.select_related("player")}
    return play_random(table, players, plies=table.ply + table.players, seed=seed)


def as_organiser(player: Any) -> Any:
    """Grant ``player`` the organiser role (staff do that in the service) and return them."""
    from tournaments.models import OrganiserRole

    OrganiserRole.objects.get_or_create(player=player)
    return player


def ladder_for(*actors: Actor) -> Any:
    """A league and a position ladder (organised by the first actor) with the actors on it."""
    from tournaments import ladders
    from tournaments.competitions import services as clubs

    org = as_organiser(actors[0].player)
    league = clubs.league_create(organiser=org, name="Correspondence Club")
    ladder = ladders.ladder_create(
        organiser=org, league=league, name="Club ladder", game="pacru", kind="position"
    )
    for a in actors:
        ladders.ladder_join(ladder=ladder, player=a.player)
    return ladder
