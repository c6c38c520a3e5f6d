"""What an organiser does to a running event besides pairing it: results entered or corrected (with
a reason, in the audit log), announcements, and the exports (standings and crosstable as CSV, the
game records as one zip).

A result entered for a table still being played ends it with the organiser's ranks
(``games.services.table_adjudicate``): the tournament then reacts as for any finished table (the
round ends, the next is paired). A correction of a finished table (``table_correct_result``)
changes its ranks; the standings are computed on read from the tables, so they follow, and a
rated table's game is re-rated after the commit (``ratings.services.recompute``). A knockout's
bracket is built from the results, so its results are corrected only while the event is paused
before the next round is paired, or in its final round; a final round's correction that gives the
bracket more to play (a double elimination's grand final now won by the losers-bracket champion)
reopens the finished event and pairs the bracket reset (``services.reopen_if_undecided``). A
result entered is counted in its round at once, so the answer can say that it completed the round
and what followed (the next round paired, the event finished). Neither may rank a withdrawn player's seat
level with or above a seat still in the game (:func:`withdrawn_refusal`).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from common.errors import Conflict, InvalidInput, NotFound
from common.spreadsheet import csv_text
from common.tasks import send
from games import services as games
from games.models import Player, Seat, Table
from games.services.adjudicate import check_ranks
from ratings import services as rating_services
from ratings.task_names import RECOMPUTE_GAME

from ..competitions import services
from ..competitions.selectors import tournament_standings
from ..competitions.services import audit, require_organiser
from ..models import Announcement, Registration, Round, RoundTable, Tournament
from .audit_log import AuditLine, audit_log, place_words, places_text

__all__ = ["AuditLine", "audit_log"]  # the console and tests read the log from here

ELIMINATION_FORMATS = (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION)


@dataclass(frozen=True)
class ResultChange:
    """What :func:`enter_result` did, in words for the confirmation."""

    round: int
    board: int
    corrected: bool  # a finished result changed (else an unfinished table was ended)
    places: list[tuple[str, str]]  # (place word, display name), best first
    reason: str
    then: str = ""  # what followed: the round complete, the next paired, the event finished or reopened

    @property
    def message(self) -> str:
        done = self._done()
        return f"{done} {self.then}" if self.then else done

    def _done(self) -> str:
        words = {
            "round": self.round,
            "board": self.board,
            "places": places_text(self.places),
            "reason": self.reason,
        }
        if self.corrected:
            return (
                _("Result of round %(round)s, board %(board)s corrected: %(places)s (reason: %(reason)s)")
                % words
            )
        return (
            _("Result of round %(round)s, board %(board)s entered: %(places)s (reason: %(reason)s)") % words
        )


def _locked_event(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
    return t


def correction_refusal(*, t: Tournament, rnd: Round) -> str | None:
    """Why a finished result of ``rnd`` may not be corrected (``None``: it may)."""
    if t.format not in ELIMINATION_FORMATS:
        return None
    final = t.status == Tournament.Status.FINISHED and rnd.number == t.current_round
    if final:
        return None
    if rnd.number == t.current_round and t.paused:
        return None
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        return _(
            "a double elimination's later rounds are paired from its results: a finished result "
            "can be corrected only in the final round, or in the last round played while the event is paused "
            "(pause it before the round ends, so the next round is not paired yet)"
        )
    return _(
        "a knockout's later rounds are paired from its results: a finished result "
        "can be corrected only in the final round, or in the last round played while the event is paused "
        "(pause it before the round ends, so the next round is not paired yet)"
    )


def withdrawn_refusal(*, t: Tournament, seats: list[Seat], ranks: dict[int, int], active: bool) -> str | None:
    """Why ``ranks`` may not stand because they put a withdrawn player's seat level with or above a
    seat still in the game (``None``: they may).

    A withdrawn seat is one whose player withdrew from the event (themself, removed by the organiser,
    or two no-shows) and left this table: a withdrawal resigns the player's running games, so the seat
    is out. It ranks below every seat still in the game: at a table being played, the seats still
    playing; at a finished one, the seats that played to the end. A player who withdrew after finishing
    the table keeps the result they played (the seat was not out), and it may be corrected as any other.
    """
    withdrawn = set(
        Registration.objects.filter(
            tournament=t, player_id__in=[s.player_id for s in seats], status=Registration.Status.WITHDRAWN
        ).values_list("player_id", flat=True)
    )
    gone = [s for s in seats if s.player_id in withdrawn and (active or s.state == Seat.State.OUT)]
    staying = [s for s in seats if s not in gone and s.state == Seat.State.PLAYING]
    for seat in gone:
        above = [s for s in staying if ranks[seat.number] <= ranks[s.number]]
        if above:
            return _(
                "%(name)s withdrew from %(event)s: a withdrawn seat must rank below every seat still in "
                "the game (%(others)s)"
            ) % {
                "name": seat.player.display_name,
                "event": t.name,
                "others": ", ".join(s.player.display_name for s in above),
            }
    return None


@transaction.atomic
def enter_result(
    *, tournament_id: int, table_id: int, ranks: dict[int, int], reason: str, by: Player
) -> ResultChange:
    """Enter (unfinished table) or correct (finished table) the ranks of a round's table.

    ``ranks``: seat number -> rank (1 = best, ties share and skip: 1, 2, 2, 4). ``reason`` is
    required and kept in the audit log with the ranks before and after (player id -> rank)."""
    t = _locked_event(tournament_id)
    require_organiser(league=t.league, player=by)
    if t.format == Tournament.Format.ARENA:  # no rounds: its tables count as played (``tournaments.arena``)
        raise Conflict(
            _("%(event)s is an arena: each table counts the result played at it, not one entered by hand")
            % {"event": t.name}
        )
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(_("say why the result is entered or corrected: a reason is required"))
    rt = RoundTable.objects.select_related("round").filter(round__tournament=t, table_id=table_id).first()
    if rt is None:
        raise NotFound(
            _("table %(table)s is not a table of %(event)s") % {"table": table_id, "event": t.name}
        )
    status = Table.objects.filter(pk=table_id).values_list("status", flat=True).first()
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player").order_by("number"))
    before = {str(s.player_id): s.rank for s in seats}
    if status in (Table.Status.ACTIVE, Table.Status.FINISHED):
        check_ranks(ranks=ranks, seats=[s.number for s in seats])
        refusal = withdrawn_refusal(t=t, seats=seats, ranks=ranks, active=status == Table.Status.ACTIVE)
        if refusal:
            raise InvalidInput(refusal)
    number, finished = t.current_round, t.status == Tournament.Status.FINISHED
    if status == Table.Status.ACTIVE:
        corrected = False
        games.table_adjudicate(table_id=table_id, ranks=ranks)
        # Counted here rather than by the task ``game_finished`` sends after the commit (which then
        # finds it done): the answer can say whether the round is complete and what was paired.
        services.table_finished(table_id=table_id)
    elif status == Table.Status.FINISHED:
        refusal = correction_refusal(t=t, rnd=rt.round)
        if refusal:
            raise Conflict(refusal)
        corrected = True
        table = games.table_correct_result(table_id=table_id, ranks=ranks)
        if table.rated:
            game = table.game
            transaction.on_commit(lambda: _rerate(game))
        services.reopen_if_undecided(t=t, by=by)
    else:
        raise Conflict(
            _("board %(board)s of round %(round)s is not being played and has no result")
            % {"board": rt.number, "round": rt.round.number}
        )
    after = {str(s.player_id): ranks[s.number] for s in seats}
    action = "result corrected" if corrected else "result entered"
    audit(
        t=t,
        by=by,
        action=action,
        table_id=table_id,
        reason=reason,
        detail={"round": rt.round.number, "board": rt.number, "before": before, "after": after},
    )
    words = place_words(ranks)
    order = sorted(seats, key=lambda s: (ranks[s.number], s.number))
    t.refresh_from_db()
    return ResultChange(
        round=rt.round.number,
        board=rt.number,
        corrected=corrected,
        places=[(words[s.number], s.player.display_name) for s in order],
        reason=reason,
        then="" if corrected and not finished else _what_followed(t, rt.round, number, finished),
    )


def _what_followed(t: Tournament, rnd: Round, number: int, finished: bool) -> str:
    """What the result set off, in words: for a result entered, the round complete and the next one
    paired or the event finished; for a finished event's correction, the event running again
    (``number``, ``finished``: the event's round and state before)."""
    words = {"round": rnd.number, "next": t.current_round}
    if finished:
        if t.status == Tournament.Status.FINISHED:
            return ""
        if t.current_round > number:
            return (
                _(
                    "This changes who plays next: the event is running again, and round %(next)s "
                    "has been paired."
                )
                % words
            )
        return _(
            "This changes who plays next: the event is running again; it is paused, so round %(next)s is "
            "paired when you resume it."
        ) % {**words, "next": t.current_round + 1}
    rnd.refresh_from_db()
    if rnd.number != number or rnd.status != Round.Status.FINISHED:
        return ""
    if t.status == Tournament.Status.FINISHED:
        return _("Round %(round)s is complete; the event is finished.") % words
    if t.current_round > number:
        return _("Round %(round)s is complete; round %(next)s has been paired.") % words
    if t.next_round_at is not None and not t.paused:
        when = formats.date_format(timezone.localtime(t.next_round_at), "DATETIME_FORMAT")
        return _("Round %(round)s is complete; round %(next)s starts at its set time, %(when)s.") % {
            **words,
            "next": number + 1,
            "when": when,
        }
    return _(
        "Round %(round)s is complete; the event is paused, so round %(next)s is paired when you resume it."
    ) % {
        **words,
        "next": number + 1,
    }


# ------------------------------------------------------------- announcements


@transaction.atomic
def announce(*, tournament_id: int, text: str, by: Player) -> Announcement:
    t = _locked_event(tournament_id)
    require_organiser(league=t.league, player=by)
    text = (text or "").strip()
    if not text:
        raise InvalidInput(_("an announcement needs some text"))
    if len(text) > 2000:
        raise InvalidInput(_("an announcement is at most 2000 characters, not %(n)d") % {"n": len(text)})
    return Announcement.objects.create(tournament=t, author=by, text=text)


@transaction.atomic
def announcement_delete(*, tournament_id: int, announcement_id: int, by: Player) -> Announcement:
    t = _locked_event(tournament_id)
    require_organiser(league=t.league, player=by)
    item = Announcement.objects.filter(pk=announcement_id, tournament=t).first()
    if item is None:
        raise NotFound(_("there is no such announcement on this event"))
    item.delete()
    return item


# ---------------------------------------------------------------------- reads


def finished_events(*, leagues: Any, limit: int = 10) -> list[Tournament]:
    """The newest finished events of ``leagues`` (a queryset of leagues), with their league: one query."""
    rows = Tournament.objects.filter(league__in=leagues, status=Tournament.Status.FINISHED)
    return list(rows.select_related("league").order_by("-finished_at", "-pk")[:limit])


def matching_players(*, name: str, limit: int = 20) -> list[Player]:
    """People (not bots, not guests) whose display name contains ``name`` (case-insensitive); an
    exact match (case-insensitive) alone if there is one."""
    name = (name or "").strip()
    if not name:
        return []
    people = Player.objects.filter(is_bot=False, is_guest=False)
    exact = list(people.filter(display_name__iexact=name)[:2])
    if len(exact) == 1:
        return exact
    return list(people.filter(display_name__icontains=name).order_by("display_name")[:limit])


# -------------------------------------------------------------------- exports


def standings_csv(*, t: Tournament) -> str:
    """The standings as CSV: place, player, points, played, wins, then each tie-break (text cells
    that would start a spreadsheet formula are quote-prefixed: ``common.spreadsheet``)."""
    rows = tournament_standings(t)
    breaks = list(rows[0].tiebreaks) if rows else []
    header = [*_columns(), pgettext("CSV column", "played"), pgettext("CSV column", "wins"), *breaks]
    return csv_text(
        [header]
        + [
            [row.place, row.display_name, row.points, row.played, row.wins]
            + [row.tiebreaks.get(k, 0) for k in breaks]
            for row in rows
        ]
    )


def _columns() -> list[str]:
    """The first columns of both exports (tie-breaks keep their keys, as in the API)."""
    return [
        pgettext("CSV column", "place"),
        pgettext("CSV column", "player"),
        pgettext("CSV column", "points"),
    ]


def crosstable_csv(*, t: Tournament) -> str:
    """Player by round: each cell the player's place at their table and who they met ("1st v Bob,
    Carol"), "bye", "playing" or empty; players in the standings' order."""
    rows = tournament_standings(t)
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    links = list(
        RoundTable.objects.filter(round__tournament=t)
        .select_related("table")
        .values_list("round__number", "table_id", "table__status")
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table_id__in=[tid for _number, tid, _status in links]).select_related(
        "player"
    ):
        seats.setdefault(seat.table_id, []).append(seat)
    cell: dict[tuple[int, int], str] = {}
    for number, table_id, status in links:
        group = sorted(seats.get(table_id, []), key=lambda s: s.number)
        ranks = {s.number: s.rank for s in group if s.rank is not None}
        words = place_words(ranks) if status == Table.Status.FINISHED and len(ranks) == len(group) else {}
        for s in group:
            others = ", ".join(o.player.display_name for o in group if o.pk != s.pk)
            what = words.get(s.number) or (
                pgettext("crosstable", "playing")
                if status == Table.Status.ACTIVE
                else str(Table.Status(status).label)
            )
            # Translators: a crosstable cell: the player's place (or the table's state) and whom they met.
            cell[(s.player_id, number)] = _("%(what)s v %(others)s") % {"what": what, "others": others}
    for rnd in rounds:
        for player_id in rnd.byes:
            cell[(player_id, rnd.number)] = pgettext("crosstable", "bye")
    header = [*_columns(), *[pgettext("CSV column", "round %(n)s") % {"n": r.number} for r in rounds]]
    return csv_text(
        [header]
        + [
            [row.place, row.display_name, row.points] + [cell.get((row.player, r.number), "") for r in rounds]
            for row in rows
        ]
    )


def records_zip(*, t: Tournament) -> bytes:
    """Every table's game record (``games.services.record_text``), one file per table, zipped."""
    links = RoundTable.objects.filter(round__tournament=t).select_related("round", "table")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for rt in links.order_by("round__number", "number"):
            name = f"round-{rt.round.number:02d}-board-{rt.number:02d}-table-{rt.table_id}.txt"
            archive.writestr(name, games.record_text(table=rt.table))
    return buffer.getvalue()


def registrations(*, t: Tournament) -> list[Registration]:
    """The event's entrants (withdrawn last), with their players, for the roster."""
    regs = list(Registration.objects.filter(tournament=t).select_related("player"))
    return sorted(regs, key=lambda r: (r.status == Registration.Status.WITHDRAWN, r.seed or 10**6, r.pk))


def _rerate(game: str) -> None:
    """Re-rate ``game`` on a worker; where the broker cannot take the task, here and now (a
    corrected result must never leave the ratings on the old one)."""
    if not send(RECOMPUTE_GAME, (game,)):
        rating_services.recompute(games=[game])
