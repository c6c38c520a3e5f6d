"""Organisers enter and correct results (with a reason, in the audit log), announce, and export."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable
from typing import Any

import pytest

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games import services as games
from games.models import Player, Seat, Table
from ratings.models import Rating
from tournaments.competitions import selectors, services
from tournaments.models import Announcement, AuditEntry, League, Round, Tournament
from tournaments.organising import actions

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables, finish_by_resignations

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Player, League]:
    org = as_organiser(make_actor("act-org").player)
    return org, services.league_create(organiser=org, name="Action Club")


def running(
    club: tuple[Player, League], make_actor: Callable[..., Actor], capture: Any, n: int, **settings: Any
) -> tuple[Tournament, list[Player]]:
    org, league = club
    settings.setdefault("seats", 2)
    t = services.tournament_create(organiser=org, league=league, name="Acts", game="shacru", **settings)
    players = [make_actor(f"a{i}").player for i in range(n)]
    for p in players:
        services.register(tournament_id=t.pk, player=p)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    return t, players


def seat_players(table: Table) -> dict[int, int]:
    return dict(table.seats.values_list("number", "player_id"))


def points(t: Tournament) -> dict[int, float]:
    return {row.player: row.points for row in selectors.current_standings(t)}


def test_a_correction_changes_standings_ratings_and_writes_the_audit(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t, _ = running(club, make_actor, django_capture_on_commit_callbacks, 4, rounds=2, rated=True)
    tables = current_tables(t)
    for table in tables:
        with django_capture_on_commit_callbacks(execute=True):
            finish_by_resignations(table.pk, [1, 2])  # seat 2 wins
    t.refresh_from_db()
    assert t.current_round == 2
    board1 = tables[0]
    seats = seat_players(board1)
    first, second = seats[1], seats[2]
    before = points(t)
    assert (before[first], before[second]) == (0.0, 1.0)
    rating = lambda p: Rating.objects.get(player_id=p, game="shacru").mu  # noqa: E731
    assert rating(second) > rating(first)
    with django_capture_on_commit_callbacks(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk, table_id=board1.pk, ranks={1: 1, 2: 2}, reason="wrong resignation", by=org
        )
    names = dict(Player.objects.filter(pk__in=[first, second]).values_list("pk", "display_name"))
    assert change.message == (
        f"Result of round 1, board 1 corrected: {names[first]} 1st, {names[second]} 2nd "
        "(reason: wrong resignation)"
    )
    after = points(t)
    assert (after[first], after[second]) == (1.0, 0.0)
    board1.refresh_from_db()
    assert board1.end_reason == "adjudicated" and board1.winner_seat == 1
    assert board1.result["ranking"] == {"1": 1, "2": 2}
    assert rating(first) > rating(second), "the game was re-rated with the corrected result"
    entry = AuditEntry.objects.get(tournament=t, action="result corrected")
    assert entry.reason == "wrong resignation" and entry.table_id == board1.pk and entry.by == org
    assert entry.detail["before"] == {str(first): 2, str(second): 1}
    assert entry.detail["after"] == {str(first): 1, str(second): 2}
    line = actions.audit_log(t=t)[0]
    assert "round 1, board 1" in line.what and f"{names[first]} 1st" in line.what


def test_corrections_are_refused_without_reason_by_others_and_for_bad_ranks(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t, players = running(club, make_actor, django_capture_on_commit_callbacks, 2, rounds=2, rated=False)
    (table,) = current_tables(t)
    with pytest.raises(InvalidInput, match="a reason is required"):
        actions.enter_result(tournament_id=t.pk, table_id=table.pk, ranks={1: 1, 2: 2}, reason=" ", by=org)
    with pytest.raises(Forbidden):
        actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 1, 2: 2}, reason="I won", by=players[0]
        )
    with pytest.raises(InvalidInput, match="not a ranking"):
        actions.enter_result(tournament_id=t.pk, table_id=table.pk, ranks={1: 2, 2: 2}, reason="x", by=org)
    with pytest.raises(InvalidInput, match="every seat needs a rank"):
        actions.enter_result(tournament_id=t.pk, table_id=table.pk, ranks={1: 1}, reason="x", by=org)
    other = make_actor("stranger-table").player
    loose = games.table_create(creator=other, game="shacru", players=2)
    with pytest.raises(NotFound):
        actions.enter_result(tournament_id=t.pk, table_id=loose.pk, ranks={1: 1, 2: 2}, reason="x", by=org)
    table.refresh_from_db()
    assert (
        table.status == Table.Status.ACTIVE
        and not AuditEntry.objects.filter(tournament=t).exclude(action="start").exists()
    )


def test_a_result_entered_ends_the_table_and_the_round_goes_on(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t, _ = running(club, make_actor, django_capture_on_commit_callbacks, 3, seats=3, rounds=2, rated=False)
    (table,) = current_tables(t)
    seats = seat_players(table)
    with django_capture_on_commit_callbacks(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 2, 2: 1, 3: 2}, reason="power cut", by=org
        )
    assert not change.corrected and "entered" in change.message and "=2nd" in change.message
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.end_reason == "adjudicated"
    assert dict(Seat.objects.filter(table=table).values_list("number", "rank")) == {1: 2, 2: 1, 3: 2}
    t.refresh_from_db()
    assert t.current_round == 2, "the round ended and the next was paired"
    assert points(t)[seats[2]] > points(t)[seats[1]]
    entry = AuditEntry.objects.get(tournament=t, action="result entered")
    assert entry.detail["before"] == {str(p): None for p in seats.values()}


def test_a_knockout_result_is_corrected_only_while_paused_or_in_the_final(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t, _ = running(club, make_actor, django_capture_on_commit_callbacks, 4, format="knockout", rated=False)
    first_round = current_tables(t)
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(first_round[0].pk, [1, 2])
    with pytest.raises(
        Conflict, match="only in the final round, or in the last round played while the event"
    ):
        actions.enter_result(
            tournament_id=t.pk, table_id=first_round[0].pk, ranks={1: 1, 2: 2}, reason="x", by=org
        )
    services.pause(tournament_id=t.pk, by=org)
    actions.enter_result(
        tournament_id=t.pk, table_id=first_round[0].pk, ranks={1: 1, 2: 2}, reason="misclick", by=org
    )
    winner = seat_players(first_round[0])[1]
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(first_round[1].pk, [1, 2])
    t.refresh_from_db()
    assert t.current_round == 1, "paused: the final is not paired"
    with django_capture_on_commit_callbacks(execute=True):
        services.resume(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    (final,) = current_tables(t)
    assert winner in seat_players(final).values(), "the corrected winner went through"
    # an earlier round cannot be corrected any more
    with pytest.raises(Conflict):
        actions.enter_result(
            tournament_id=t.pk, table_id=first_round[1].pk, ranks={1: 1, 2: 2}, reason="x", by=org
        )
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(final.pk, [1, 2])
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    actions.enter_result(tournament_id=t.pk, table_id=final.pk, ranks={1: 1, 2: 2}, reason="appeal", by=org)
    champion = seat_players(final)[1]
    assert selectors.current_standings(t)[0].player == champion


def test_announcements_are_posted_and_deleted_by_organisers_only(
    club: tuple[Player, League], make_actor: Callable[..., Actor]
) -> None:
    org, league = club
    t = services.tournament_create(organiser=org, league=league, name="News", game="shacru", seats=2)
    nosy = make_actor("nosy").player
    with pytest.raises(InvalidInput):
        actions.announce(tournament_id=t.pk, text="  ", by=org)
    with pytest.raises(Forbidden):
        actions.announce(tournament_id=t.pk, text="hello", by=nosy)
    item = actions.announce(tournament_id=t.pk, text="Round 2 starts at 8", by=org)
    assert Announcement.objects.get().text == "Round 2 starts at 8" and item.author == org
    with pytest.raises(Forbidden):
        actions.announcement_delete(tournament_id=t.pk, announcement_id=item.pk, by=nosy)
    actions.announcement_delete(tournament_id=t.pk, announcement_id=item.pk, by=org)
    assert not Announcement.objects.exists()


def test_standings_and_crosstable_csv_and_the_records_zip(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t, _ = running(club, make_actor, django_capture_on_commit_callbacks, 5, rounds=2, rated=False)
    tables = current_tables(t)
    for table in tables:
        with django_capture_on_commit_callbacks(execute=True):
            finish_by_resignations(table.pk, [1, 2])
    t.refresh_from_db()
    rows = list(csv.reader(io.StringIO(actions.standings_csv(t=t))))
    assert rows[0][:5] == ["place", "player", "points", "played", "wins"]
    assert len(rows) == 6
    expected = [(str(r.place), r.display_name, f"{r.points:g}") for r in selectors.tournament_standings(t)]
    assert [tuple(r[:3]) for r in rows[1:]] == expected
    cross = list(csv.reader(io.StringIO(actions.crosstable_csv(t=t))))
    assert cross[0] == ["place", "player", "points", "round 1", "round 2"]
    bye = Round.objects.get(tournament=t, number=1).byes[0]
    bye_name = Player.objects.get(pk=bye).display_name
    by_name = {r[1]: r for r in cross[1:]}
    assert by_name[bye_name][3] == "bye"
    winner_seat = seat_players(tables[0])
    names = dict(Player.objects.values_list("pk", "display_name"))
    assert by_name[names[winner_seat[2]]][3] == f"1st v {names[winner_seat[1]]}"
    assert by_name[names[winner_seat[1]]][3] == f"2nd v {names[winner_seat[2]]}"
    assert (
        by_name[names[winner_seat[1]]][4].startswith("playing v ")
        or by_name[names[winner_seat[1]]][4] == "bye"
    )
    archive = zipfile.ZipFile(io.BytesIO(actions.records_zip(t=t)))
    all_tables = [rt.table_id for r in Round.objects.filter(tournament=t) for rt in r.tables.all()]
    assert len(archive.namelist()) == len(all_tables) == 4
    first = archive.read(f"round-01-board-01-table-{tables[0].pk}.txt").decode()
    assert first == games.record_text(table=Table.objects.get(pk=tables[0].pk))


FORMULA_NAMES = ['=HYPERLINK("http://x","y")', "+1", "-2", "@SUM(A1)", "\tx", "\rx"]


def test_exports_quote_names_that_would_start_a_spreadsheet_formula(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    """CSV injection (OWASP): a text cell starting with = + - @ tab or CR gets a ' in front, in every
    export; ordinary names and the numbers the service writes are left as they are."""
    t, players = running(club, make_actor, django_capture_on_commit_callbacks, 7, rounds=2, rated=False)
    for player, name in zip(players, [*FORMULA_NAMES, "Ann Smith"], strict=True):
        Player.objects.filter(pk=player.pk).update(display_name=name)
    for table in current_tables(t):
        with django_capture_on_commit_callbacks(execute=True):
            finish_by_resignations(table.pk, [1, 2])
    t.refresh_from_db()
    expected = {f"'{name}" for name in FORMULA_NAMES} | {"Ann Smith"}
    for export in (actions.standings_csv, actions.crosstable_csv):
        rows = list(csv.reader(io.StringIO(export(t=t), newline="")))
        assert {row[1] for row in rows[1:]} == expected, export.__name__
        for row in rows[1:]:
            assert row[0].isdigit() and float(row[2]) in (0.0, 1.0), "numbers stay numbers"
    standings = list(csv.reader(io.StringIO(actions.standings_csv(t=t), newline="")))
    assert all(float(cell) >= 0 for row in standings[1:] for cell in row[2:]), "tie-breaks unquoted"


def test_the_csv_helper_quotes_text_cells_only() -> None:
    from common.spreadsheet import csv_text

    text = csv_text([[-1, -2.5, 3, "-2", "=1+1", "a,b", "plain", None, '@"q"']])
    assert list(csv.reader(io.StringIO(text, newline=""))) == [
        ["-1", "-2.5", "3", "'-2", "'=1+1", "a,b", "plain", "", '\'@"q"']
    ]
