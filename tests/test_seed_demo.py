"""The demo data ``scripts/run`` loads: events in every state and ladders, and every page of them
answers (as a visitor and as a demo player)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime as parse

from community.models import Follow, Message, Report, Room
from games.models import Player, Table
from tournaments.models import (
    ArenaPlayer,
    Challenge,
    EventSeries,
    Ladder,
    League,
    Pool,
    PoolEntry,
    QueueEntry,
    Season,
    Team,
    TeamEvent,
    TeamMatch,
    Tournament,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_demo_has_events_in_every_state_and_every_page_of_them_answers() -> None:
    call_command("seed_demo", verbosity=0)
    states = dict(Tournament.objects.filter(series=None).values_list("name", "status"))
    assert states == {
        "Demo Club Swiss": "registration",
        "Demo Club Round Robin": "running",
        "Demo Club Cup": "finished",
        "Summer season: Division 1": "finished",
        "Summer season: Division 2": "finished",
        "Autumn season: Division 1": "running",
        "Autumn season: Division 2": "running",
        "Friday Night Arena": "running",
        "Demo Club Team Battle": "registration",
    }
    # The seasons: Summer played and closed, Autumn (which it opened) running, round 1 played.
    summer, autumn = Season.objects.order_by("pk")
    assert (summer.name, summer.status, autumn.name, autumn.status) == (
        "Summer season",
        "finished",
        "Autumn season",
        "running",
    )
    assert autumn.previous_id == summer.pk
    assert [d.entries.count() for d in autumn.divisions.order_by("level")] == [4, 4]
    assert {e.movement for e in summer.entries.all()} >= {"up", "down"}
    for division in autumn.tournaments.all():  # round 2 waits for its time, four days from now
        assert (division.current_round, division.next_round_at) == (1, parse(autumn.round_times[1]))
        assert division.round_set.get(number=1).tables.filter(table__status="finished").count() == 2
    # The recurring event: one occurrence created, open, two players registered.
    series = EventSeries.objects.get(name="Friday Blitz Swiss")
    (occurrence,) = series.occurrences.all()
    assert occurrence.status == "registration" and occurrence.registrations.count() == 2
    assert Challenge.objects.filter(status="pending", challenged__user__username="alice").exists()
    assert QueueEntry.objects.count() == 1
    # Play now: an unrated arena under way, house bots of every level and two demo players in it;
    # the preset pools, with a demo player waiting in two of them.
    arena = Tournament.objects.get(name="Friday Night Arena")
    assert (arena.format, arena.rated, arena.duration_minutes) == ("arena", False, 60)
    assert arena.started_at < timezone.now() < arena.ends_at, "under way"
    entered = ArenaPlayer.objects.filter(tournament=arena)
    assert {p.player.bot_level for p in entered if p.player.is_bot} == {"random", "greedy", "search"}
    assert sorted(p.player.user.username for p in entered if not p.player.is_bot) == ["erin", "frank"]
    assert all(p.free_since is not None and p.table_id is None for p in entered)
    assert Pool.objects.count() == 15
    waiting = PoolEntry.objects.select_related("pool")
    assert sorted((e.player.user.username, e.pool.game, e.pool.players) for e in waiting) == [
        ("grace", "pacru", 2),
        ("heidi", "azacru", 3),
    ]

    # Teams: four club teams with captains and vice-captains, Old Town in its captain's board order
    # with an alternate; their team round robin's round 1 being played, some boards decided.
    teams = {t.name: t for t in Team.objects.all()}
    assert sorted(teams) == ["Harbour", "Hilltop", "Old Town", "Riverside"]
    assert all(t.league.slug == "demo-club" and t.vice_captain_id for t in teams.values())
    assert all(4 <= t.members.count() <= 5 for t in teams.values())
    old_town = teams["Old Town"]
    assert (old_town.captain.user.username, old_town.board_order) == ("alice", "captain")
    assert [m.player.user.username for m in old_town.members.filter(alternate=True)] == ["mallory"]
    league = TeamEvent.objects.get(name="Demo Club Team League")
    assert (league.status, league.current_round, league.boards, league.time_control["kind"]) == (
        "running",
        1,
        4,
        "correspondence",
    )
    (rnd,) = league.round_set.all()
    assert rnd.status == "playing"
    assert sorted((lu.team.name, lu.submitted_by is None) for lu in rnd.lineups.all()) == [
        ("Harbour", False),
        ("Hilltop", True),
        ("Old Town", False),
        ("Riverside", False),
    ]
    matches = TeamMatch.objects.filter(round=rnd).order_by("number")
    scores = [{s.team.name: s.game_points for s in m.sides.all()} for m in matches]
    assert scores == [{"Old Town": 2.0, "Hilltop": 1.0}, {"Riverside": 0.0, "Harbour": 1.0}]
    for m in matches:
        assert m.status == "playing"
        boards = list(m.boards.select_related("table"))
        assert {b.table.status for b in boards} == {"active", "finished"}, "decided and in play"
        assert all(b.counted == (b.table.status == "finished") for b in boards)
        assert all(b.table.ply > 0 for b in boards)
    battle = Tournament.objects.get(name="Demo Club Team Battle")
    assert (battle.format, battle.team_battle_top) == ("arena", 3)
    assert sorted(battle.battle_teams.values_list("name", flat=True)) == ["Old Town", "Riverside"]
    assert ArenaPlayer.objects.filter(tournament=battle, team__isnull=False).count() == 5

    visitor = Client()
    alice = Client()
    alice.force_login(Player.objects.get(user__username="alice").user)
    pages = ["/", "/tournaments/", "/ladders/", "/leagues/", "/ratings/pacru/", "/ratings/shacru/"]
    pages += [f"/tournaments/{pk}/" for pk in Tournament.objects.values_list("pk", flat=True)]
    pages += [f"/ladders/{pk}/" for pk in Ladder.objects.values_list("pk", flat=True)]
    pages += [f"/leagues/{slug}/" for slug in League.objects.values_list("slug", flat=True)]
    pages += [f"/players/{pk}/" for pk in Player.objects.filter(is_bot=False).values_list("pk", flat=True)]
    pages += [f"/leagues/demo-club/seasons/{pk}/" for pk in Season.objects.values_list("pk", flat=True)]
    pages += [
        "/leagues/demo-club/seasons/",
        "/leagues/demo-club/calendar/",
        "/leagues/demo-club/calendar.ics",
        "/teams/",
        "/team-events/",
        f"/team-events/{league.pk}/",
    ]
    pages += [f"/teams/{slug}/" for slug in Team.objects.values_list("slug", flat=True)]
    pages += [f"/team-matches/{pk}/" for pk in matches.values_list("pk", flat=True)]
    for client in (visitor, alice):
        for url in pages:
            assert client.get(url).status_code == 200, url
    # Running a second time changes nothing.
    call_command("seed_demo", verbosity=0)
    assert Tournament.objects.count() == 10
    assert (Season.objects.count(), EventSeries.objects.count()) == (2, 1)
    assert (ArenaPlayer.objects.count(), PoolEntry.objects.count(), Pool.objects.count()) == (13, 2, 15)
    assert (Team.objects.count(), TeamEvent.objects.count(), TeamMatch.objects.count()) == (4, 1, 2)


def test_demo_data_from_before_the_calendar_gets_the_recurring_event_and_the_seasons_once() -> None:
    call_command("seed_demo", verbosity=0)
    calendar = Tournament.objects.exclude(season=None) | Tournament.objects.exclude(series=None)
    calendar.delete()
    Season.objects.all().delete()
    EventSeries.objects.all().delete()

    call_command("seed_demo", verbosity=0)
    assert (Season.objects.count(), EventSeries.objects.count(), Tournament.objects.count()) == (2, 1, 10)
    assert Season.objects.get(name="Autumn season").status == "running"
    call_command("seed_demo", verbosity=0)
    assert (Season.objects.count(), EventSeries.objects.count()) == (2, 1)


def test_demo_data_from_before_play_now_gets_the_arena_and_the_waiting_players_once() -> None:
    call_command("seed_demo", verbosity=0)
    Tournament.objects.filter(name="Friday Night Arena").delete()
    PoolEntry.objects.all().delete()
    Pool.objects.all().delete()

    call_command("seed_demo", verbosity=0)
    assert Tournament.objects.get(name="Friday Night Arena").status == "running"
    assert (ArenaPlayer.objects.count(), PoolEntry.objects.count(), Pool.objects.count()) == (13, 2, 15)
    call_command("seed_demo", verbosity=0)
    assert (ArenaPlayer.objects.count(), PoolEntry.objects.count(), Tournament.objects.count()) == (13, 2, 10)


def test_demo_data_from_before_teams_gets_the_teams_their_league_and_battle_once() -> None:
    call_command("seed_demo", verbosity=0)
    TeamEvent.objects.all().delete()
    Tournament.objects.filter(name="Demo Club Team Battle").delete()
    Team.objects.all().delete()

    call_command("seed_demo", verbosity=0)
    assert Team.objects.count() == 4
    assert TeamEvent.objects.get(name="Demo Club Team League").status == "running"
    assert TeamMatch.objects.filter(status="playing").count() == 2
    assert Tournament.objects.get(name="Demo Club Team Battle").status == "registration"
    call_command("seed_demo", verbosity=0)
    assert (Team.objects.count(), TeamEvent.objects.count(), Tournament.objects.count()) == (4, 1, 10)
    assert Player.objects.filter(user__username="ivan").count() == 1


def test_once_the_demo_arena_is_over_the_next_seed_starts_another() -> None:
    """``scripts/run`` seeds at every start: an hour later the demo's arena is over, and the next
    start has a new one running (the finished one stays, with its podium)."""
    call_command("seed_demo", verbosity=0)
    Tournament.objects.filter(name="Friday Night Arena").update(status="finished", finished_at=timezone.now())
    call_command("seed_demo", verbosity=0)
    arenas = Tournament.objects.filter(name="Friday Night Arena")
    assert sorted(arenas.values_list("status", flat=True)) == ["finished", "running"]
    call_command("seed_demo", verbosity=0)
    assert arenas.count() == 2


def test_the_demo_community_has_talk_friends_a_challenge_a_report_and_a_vacation_once() -> None:
    call_command("seed_demo", verbosity=0)
    club = Room.objects.get(kind="league", league__slug="demo-club")
    assert club.messages.count() == 7
    assert Room.objects.filter(kind="players").count() == 1 == Room.objects.filter(kind="spectators").count()
    alice = Player.objects.get(user__username="alice")
    assert sorted(Follow.objects.filter(player=alice).values_list("followed__user__username", flat=True)) == [
        "bob",
        "carol",
        "ivan",
    ]
    assert Table.objects.filter(invited=alice, status="open").count() == 1
    assert Report.objects.filter(status="open", player__user__username="mallory").count() == 1
    dave = Player.objects.get(user__username="dave")
    assert dave.vacation_until is not None and dave.vacation_until > timezone.now()
    organiser = Client()
    organiser.force_login(Player.objects.get(user__username="organiser").user)
    queue = organiser.get("/moderation/")
    assert queue.status_code == 200 and "You are all hopeless" in queue.content.decode()
    # Demo data from before the community gets it once.
    Room.objects.all().delete()
    Report.objects.all().delete()
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)
    assert Message.objects.filter(room__kind="league").count() == 7
    assert Table.objects.filter(invited=alice, status="open").count() == 1
    assert Report.objects.filter(status="open").count() == 1
