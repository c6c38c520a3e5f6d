"""Correcting a double elimination's finals after the event finished (issue 31, item 4): a grand
final corrected so that the losers-bracket champion won reopens the event and pairs the bracket
reset; a correction of the reset final, or one that leaves the winners champion the winner, keeps
the event finished with the standings following the bracket."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import Notification
from common.errors import Conflict
from games.models import Table
from tournaments.competitions import selectors, services
from tournaments.models import AuditEntry, Round, Tournament
from tournaments.organising import actions
from tournaments.pairing import double_elim as de

from ..games.conftest import Actor
from .test_double_elimination import play_out, started
from .test_formats_flow import current_tables, finish_by_resignations

pytestmark = pytest.mark.django_db


def seat_players(table: Table) -> dict[int, int]:
    return dict(table.seats.values_list("number", "player_id"))


def finalists(t: Tournament, table: Table) -> tuple[int, int]:
    """(winners champion, losers champion) at a grand final table, from the rounds before it."""
    before = [r for r in selectors.history(t).rounds if r.number < t.current_round]
    state = de.replay(t.seeds, before)
    a, b = seat_players(table).values()
    return (a, b) if state.players[a].losses == 0 else (b, a)


def ranks_for(table: Table, winner: int) -> dict[int, int]:
    return {n: 1 if p == winner else 2 for n, p in seat_players(table).items()}


def organiser(t: Tournament) -> Any:
    return t.created_by


def test_a_grand_final_corrected_for_the_losers_champion_reopens_the_event_and_pairs_the_reset(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, 4)
    play_out(t, django_capture_on_commit_callbacks, reset=False)  # the winners champion wins the final
    t.refresh_from_db()
    planned = de.planned_rounds(4)
    assert t.status == Tournament.Status.FINISHED and t.current_round == planned
    (final,) = current_tables(t)
    champion, challenger = finalists(t, final)
    assert selectors.current_standings(t)[0].player == champion
    org = organiser(t)

    with django_capture_on_commit_callbacks(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk,
            table_id=final.pk,
            ranks=ranks_for(final, challenger),
            reason="the resignation was misclicked",
            by=org,
        )
    assert change.corrected
    assert change.message.endswith(
        f"This changes who plays next: the event is running again, and round {planned + 1} has been paired."
    )
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.finished_at is None
    assert t.current_round == t.rounds == planned + 1
    (reset,) = current_tables(t)
    assert set(seat_players(reset).values()) == {champion, challenger}
    assert reset.status == Table.Status.ACTIVE
    state = de.replay(t.seeds, selectors.history(t).rounds)
    assert state.brackets[(planned + 1, 0)] == de.RESET
    with pytest.raises(Conflict, match="still being played"):
        services.next_round(tournament_id=t.pk, by=org)
    rows = selectors.current_standings(t)
    assert {rows[0].player, rows[1].player} == {champion, challenger}
    assert not any(r.tiebreaks["eliminated_in"] == 0 for r in rows[2:]), "the others stay eliminated"
    entry = AuditEntry.objects.get(tournament=t, action="reopen")
    assert entry.by == org and entry.detail == {"round": planned}
    assert "reopened the event after round" in actions.audit_log(t=t)[0].what + actions.audit_log(t=t)[1].what
    told = Notification.objects.filter(kind="event", key=f"event:{t.pk}:reopened:{planned}")
    assert told.count() == 4 and told.first().params["state"] == "reopened"
    # a round entered for the reset is told as the event's end once played
    with django_capture_on_commit_callbacks(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk, table_id=reset.pk, ranks=ranks_for(reset, challenger), reason="played", by=org
        )
    assert change.message.endswith(f"Round {planned + 1} is complete; the event is finished.")
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.finished_at is not None
    rows = selectors.current_standings(t)
    assert [rows[0].player, rows[1].player] == [challenger, champion], "the reset's winner first"
    assert rows[0].tiebreaks["losses"] == 1 and rows[1].tiebreaks["eliminated_in"] == planned + 1
    again = Notification.objects.filter(kind="event", key=f"event:{t.pk}:finished:{planned + 1}")
    assert again.count() == 4, "the second finish is told, with the new places"
    assert {n.params["place"] for n in again.filter(user__player__pk__in=[challenger])} == {1}


def test_a_correction_that_keeps_the_winners_champion_keeps_the_event_finished(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, 4)
    play_out(t, django_capture_on_commit_callbacks, reset=False)
    t.refresh_from_db()
    finished_at, rounds = t.finished_at, t.current_round
    (final,) = current_tables(t)
    champion, challenger = finalists(t, final)
    change = actions.enter_result(
        tournament_id=t.pk,
        table_id=final.pk,
        ranks=ranks_for(final, champion),
        reason="confirmed",
        by=t.created_by,
    )
    assert change.then == ""
    t.refresh_from_db()
    assert (t.status, t.finished_at, t.current_round) == (Tournament.Status.FINISHED, finished_at, rounds)
    assert [r.player for r in selectors.current_standings(t)[:2]] == [champion, challenger]
    assert not AuditEntry.objects.filter(tournament=t, action="reopen").exists()


def test_a_corrected_reset_final_keeps_the_event_finished_with_the_new_winner_first(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, 4)
    play_out(t, django_capture_on_commit_callbacks, reset=True)  # the losers champion wins both finals
    t.refresh_from_db()
    planned = de.planned_rounds(4)
    assert t.status == Tournament.Status.FINISHED and t.current_round == planned + 1
    finished_at = t.finished_at
    (reset,) = current_tables(t)
    before = [r.player for r in selectors.current_standings(t)]
    first, second = before[:2]
    with django_capture_on_commit_callbacks(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk,
            table_id=reset.pk,
            ranks=ranks_for(reset, second),
            reason="appeal",
            by=t.created_by,
        )
    assert change.corrected and change.then == ""
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.finished_at == finished_at
    assert Round.objects.filter(tournament=t).count() == planned + 1, "nothing more is paired"
    rows = selectors.current_standings(t)
    assert [r.player for r in rows] == [second, first, *before[2:]]
    assert rows[0].tiebreaks["losses"] == 1 and rows[1].tiebreaks["eliminated_in"] == planned + 1
    with pytest.raises(Conflict, match="finished"):
        services.next_round(tournament_id=t.pk, by=t.created_by)
    # the grand final before it can no longer be corrected: the reset was played from it
    (grand,) = [rt.table for rt in Round.objects.get(tournament=t, number=planned).tables.all()]
    with pytest.raises(Conflict, match="only in the final round"):
        actions.enter_result(
            tournament_id=t.pk, table_id=grand.pk, ranks=ranks_for(grand, first), reason="x", by=t.created_by
        )


def test_a_paused_event_reopened_by_a_correction_pairs_the_reset_on_resume(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, 2)
    org = t.created_by
    # two players: the winners final (round 1), then the grand final (round 2) between the same two
    (table,) = current_tables(t)
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(table.pk, [2, 1])
    t.refresh_from_db()
    services.pause(tournament_id=t.pk, by=org)
    (final,) = current_tables(t)
    champion, challenger = finalists(t, final)
    with django_capture_on_commit_callbacks(execute=True):
        actions.enter_result(
            tournament_id=t.pk, table_id=final.pk, ranks=ranks_for(final, champion), reason="played", by=org
        )
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.paused
    with django_capture_on_commit_callbacks(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk, table_id=final.pk, ranks=ranks_for(final, challenger), reason="fix", by=org
        )
    assert "it is paused, so round 3 is paired when you resume it" in change.message
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.current_round == 2
    with django_capture_on_commit_callbacks(execute=True):
        services.resume(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    (reset,) = current_tables(t)
    assert t.current_round == 3 and set(seat_players(reset).values()) == {champion, challenger}
