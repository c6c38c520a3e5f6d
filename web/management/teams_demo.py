"""Teams in the demo (``seed_demo``): four teams of the demo club, with captains, vice-captains,
an alternate and one captain's board order; a team round robin under way, round 1's two matches
being played (some boards decided, the others in play, so a match page shows a live partial
score); and a team battle arena open for registration with two of the teams.

The boards are correspondence games (days per move), as the demo's other events in progress:
under a running clock the boards left in play would be lost on time minutes after ``scripts/run``
starts, and the match would be over before anyone looks at it."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from engine.playout import random_step
from games import services as games
from games.models import Player, Table
from tournaments.arena import services as arena
from tournaments.competitions import services as clubs
from tournaments.models import League, Team, TeamBoard, TeamEvent, TeamMatch, TeamRound, Tournament
from tournaments.teams import events, finished, lineups, rounds, services

#: Players made for the teams, after the demo's eight (username, display name).
TEAM_PLAYERS = [
    ("ivan", "Ivan"),
    ("judy", "Judy"),
    ("mallory", "Mallory"),
    ("niaj", "Niaj"),
    ("olivia", "Olivia"),
    ("peggy", "Peggy"),
    ("rupert", "Rupert"),
    ("sybil", "Sybil"),
    ("trent", "Trent"),
]
#: (name, captain, vice-captain, the other members), seeded in this order.
TEAMS = [
    ("Old Town", "alice", "erin", ["ivan", "judy", "mallory"]),
    ("Riverside", "bob", "frank", ["niaj", "olivia"]),
    ("Harbour", "carol", "grace", ["peggy", "rupert"]),
    ("Hilltop", "dave", "heidi", ["sybil", "trent"]),
]
#: Old Town's captain sets its boards herself, Mallory the team's alternate.
BOARD_ORDER = ["ivan", "alice", "judy", "erin"]
ALTERNATES = ["mallory"]
#: Round 1's line-ups (who sets it, board 1 first); Hilltop's captain set none: the default plays.
LINEUPS = {
    "Old Town": ("alice", ["ivan", "alice", "judy", "mallory"]),
    "Riverside": ("frank", ["bob", "niaj", "frank", "olivia"]),
    "Harbour": ("carol", ["carol", "grace", "peggy", "rupert"]),
}
#: Boards decided in round 1, by resignation: (the winner's team, board); the others are in play.
#: (Round 1 is Old Town against Hilltop and Riverside against Harbour.)
WON = [("Old Town", 1), ("Hilltop", 2), ("Old Town", 3), ("Harbour", 2)]
EVENT = "Demo Club Team League"
BATTLE = "Demo Club Team Battle"
#: Who joins the team battle, for their team.
BATTLE_PLAYERS = {"Old Town": ["alice", "ivan", "judy"], "Riverside": ["bob", "niaj"]}
CORRESPONDENCE = {"kind": "correspondence", "days": 3, "bank_days": 7}
#: How long ago the team league started (round 1 started ten minutes later).
STARTED_AGO = timedelta(minutes=30)


@transaction.atomic
def seed_teams(*, organiser: Player, league: League, make_player: Callable[[str, str], Player]) -> bool:
    """The teams, the team league and the team battle, once (False: the teams exist already).
    ``make_player(username, display name)``: a new demo player, as ``seed_demo`` makes them."""
    if Team.objects.filter(league=league, name=TEAMS[0][0]).exists():
        return False
    people = {p.user.username: p for p in Player.objects.filter(is_bot=False).select_related("user")}
    for username, display in TEAM_PLAYERS:
        if username not in people:
            people[username] = make_player(username, display)
    teams = {
        name: _team(league, people, name, captain, vice, others) for name, captain, vice, others in TEAMS
    }
    old_town = teams["Old Town"]
    services.set_board_order(
        team_id=old_town.pk,
        by=people["alice"],
        board_order=Team.BoardOrder.CAPTAIN,
        order=[people[n].pk for n in BOARD_ORDER],
        alternates=[people[n].pk for n in ALTERNATES],
    )
    _league(organiser, league, people, teams)
    _battle(organiser, league, people, teams)
    return True


def _team(
    league: League, people: dict[str, Player], name: str, captain: str, vice: str, others: list[str]
) -> Team:
    """A club team made by its captain, who invites the others (they accept) and names a vice."""
    for username in [captain, vice, *others]:
        clubs.league_join(league=league, player=people[username])
    team = services.team_create(by=people[captain], name=name, league=league, game="pacru")
    for username in [vice, *others]:
        invitation = services.invite(team_id=team.pk, by=people[captain], player_id=people[username].pk)
        services.answer(invitation_id=invitation.pk, by=people[username], accept=True)
    return services.set_roles(team_id=team.pk, by=people[captain], vice_captain_id=people[vice].pk)


def _league(organiser: Player, league: League, people: dict[str, Player], teams: dict[str, Team]) -> None:
    """The team round robin: started half an hour ago, round 1's line-ups set (but Hilltop's),
    its boards opened, some decided and the others a few moves in."""
    now = timezone.now()
    started = now - STARTED_AGO
    event = events.team_event_create(
        league=league,
        by=organiser,
        name=EVENT,
        game="pacru",
        seats=2,
        boards=4,
        format=TeamEvent.Format.ROUND_ROBIN,
        time_control=CORRESPONDENCE,
        rated=True,
    )
    for name, captain, _vice, _others in TEAMS:
        events.team_event_enter(event_id=event.pk, team_id=teams[name].pk, by=people[captain])
    events.team_event_start(event_id=event.pk, by=organiser, now=started)
    rnd = TeamRound.objects.get(event=event, number=1)
    for name, (by, players) in LINEUPS.items():
        lineups.lineup_submit(
            round_id=rnd.pk,
            team_id=teams[name].pk,
            by=people[by],
            players=[people[n].pk for n in players],
            now=started + timedelta(minutes=5),
        )
    rounds.open_round(round_id=rnd.pk, now=now)
    rng = random.Random(38)
    names = {t.pk: name for name, t in teams.items()}
    for match in TeamMatch.objects.filter(round=rnd).order_by("number"):
        sides = [names[t] for t in match.sides.order_by("order").values_list("team_id", flat=True)]
        for board in TeamBoard.objects.filter(match=match).exclude(table=None).order_by("number"):
            _board(rng, board, sides)


def _board(rng: random.Random, board: TeamBoard, sides: list[str]) -> None:
    """A few random legal moves; a decided board ends in a resignation and is counted."""
    table = Table.objects.get(pk=board.table_id)
    winner = next((team for team, number in WON if team in sides and number == board.number), None)
    _play(rng, table, plies=rng.choice([4, 6]) if winner else rng.choice([5, 7, 9]))
    table.refresh_from_db()
    if winner and table.status == Table.Status.ACTIVE:
        loser = board.players[1 - sides.index(winner)]
        games.game_resign(table_id=table.pk, player=Player.objects.get(pk=loser))
    finished.board_finished(table_id=table.pk)


def _play(rng: random.Random, table: Table, *, plies: int) -> None:
    """Random legal moves through the service, each by the player on turn (as ``seed_demo``)."""
    by_seat = {s.number: s.player for s in table.seats.all()}
    while table.status == Table.Status.ACTIVE and table.ply < plies:
        state = games.current_state(table)
        _, text = random_step(state, rng)
        table = games.move_submit(
            table_id=table.pk, player=by_seat[state.to_move], ply=table.ply, move=text
        ).table


def _battle(organiser: Player, league: League, people: dict[str, Player], teams: dict[str, Team]) -> None:
    """A team battle arena open for registration: Old Town against Riverside, each team's best
    three scorers counting; a few of their players have joined."""
    if Tournament.objects.filter(league=league, name=BATTLE).exists():
        return
    t = clubs.tournament_create(
        organiser=organiser,
        league=league,
        name=BATTLE,
        game="pacru",
        seats=2,
        format=Tournament.Format.ARENA,
        duration_minutes=60,
        rated=False,
        time_control={"kind": "fischer", "base": 180, "increment": 2},
        team_battle_top=3,
        battle_teams=[teams[name].pk for name in BATTLE_PLAYERS],
    )
    for name, usernames in BATTLE_PLAYERS.items():
        for username in usernames:
            arena.arena_join(tournament_id=t.pk, player=people[username], team=teams[name].pk)
