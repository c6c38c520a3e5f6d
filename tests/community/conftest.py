"""A small world for the chat's tests: a club (``Home Club``, organised by ``org``, with a member),
another club (organised by ``other_org``), an event of the home club with one table in play
(``ann`` against ``ben``, both entered), a ladder of the home club, a casual table (``ann`` against ``cat``),
a spectator, a guest and a member of staff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services as games
from games.models import Player, Table
from tests.games.conftest import Actor, as_organiser
from tournaments import ladders
from tournaments.competitions import services as clubs
from tournaments.models import Ladder, League, Registration, Round, RoundTable, Tournament


class GuestActor:
    """A guest account with an API client."""

    def __init__(self) -> None:
        self.player = games.guest_create()
        self.token = Token.objects.create(user=self.player.user).key
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")

    def post(self, url: str, data: Any = None, **kw: Any) -> Any:
        return self.client.post(url, data if data is not None else {}, format="json", **kw)

    def get(self, url: str, **kw: Any) -> Any:
        return self.client.get(url, **kw)


@dataclass
class World:
    org: Actor
    other_org: Actor
    staff: Actor
    member: Actor
    ann: Actor
    ben: Actor
    cat: Actor
    spectator: Actor
    guest: GuestActor
    league: League
    other_league: League
    event: Tournament
    ladder: Ladder
    #: The event's table in play: ann against ben.
    event_table: Table
    #: A casual table in play: ann against cat.
    casual: Table


def seated_table(creator: Player, other: Player, game: str = "shacru") -> Table:
    table = games.table_create(creator=creator, game=game, players=2, rated=False)
    games.seat_join(table_id=table.pk, player=other)
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE
    return table


def make_world() -> World:
    org, other_org = Actor("org"), Actor("otherorg")
    league = clubs.league_create(organiser=as_organiser(org.player), name="Home Club")
    other_league = clubs.league_create(organiser=as_organiser(other_org.player), name="Away Club")
    member = Actor("member")
    league.members.add(member.player)
    ann, ben, cat = Actor("ann"), Actor("ben"), Actor("cat")
    event = clubs.tournament_create(
        organiser=org.player, league=league, name="Spring Swiss", game="shacru", seats=2, rounds=3
    )
    for entrant in (ann, ben):
        Registration.objects.create(tournament=event, player=entrant.player)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.RUNNING, current_round=1)
    event.refresh_from_db()
    event_table = seated_table(ann.player, ben.player)
    RoundTable.objects.create(
        round=Round.objects.create(tournament=event, number=1), table=event_table, number=1
    )
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="shacru", kind="position")
    return World(
        org=org,
        other_org=other_org,
        staff=Actor("staffer", staff=True),
        member=member,
        ann=ann,
        ben=ben,
        cat=cat,
        spectator=Actor("spec"),
        guest=GuestActor(),
        league=league,
        other_league=other_league,
        event=event,
        ladder=ladder,
        event_table=event_table,
        casual=seated_table(ann.player, cat.player),
    )


@pytest.fixture
def world(db: None) -> World:
    return make_world()
