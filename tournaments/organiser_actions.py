"""What an organiser does to a running event besides pairing it: results entered or corrected (with
a reason, in the audit log), announcements, and the exports (standings and crosstable as CSV, the
game records as one zip).

A result entered for a table still being played ends it with the organiser's ranks
(``games.services.table_adjudicate``): the tournament then reacts as for any finished table (the
round ends, the next is paired). A correction of a finished table (``table_correct_result``)
changes its ranks; the standings are computed on read from the tables, so they follow, and a
rated table's game is re-rated after the commit (``ratings.services.recompute``). A knockout's
bracket is built from the results, so its results are corrected only while the event is paused
before the next round is paired, or in its final round.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from common.tasks import send
from games import services as games
from games.models import Player, Seat, Table
from games.wording import ordinal
from ratings import services as rating_services

from .models import Announcement, AuditEntry, Registration, Round, RoundTable, Tournament
from .selectors import is_organiser, tournament_standings
from .services import audit, require_organiser

ELIMINATION_FORMATS = (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION)


@dataclass(frozen=True)
class ResultChange:
    """What :func:`enter_result` did, in words for the confirmation."""

    round: int
    board: int
    corrected: bool  # a finished result changed (else an unfinished table was ended)
    places: list[tuple[str, str]]  # (place word, display name), best first
    reason: str

    @property
    def message(self) -> str:
        verb = "corrected" if self.corrected else "entered"
        places = ", ".join(f"{name} {word}" for word, name in self.places)
        return f"Result of round {self.round}, board {self.board} {verb}: {places} (reason: {self.reason})"


def _locked_event(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(f"there is no tournament {tournament_id}")
    return t


def _place_words(ranks: dict[int, int]) -> dict[int, str]:
    """Seat -> "1st", "=2nd" (a shared place)."""
    counts: dict[int, int] = {}
    for rank in ranks.values():
        counts[rank] = counts.get(rank, 0) + 1
    return {seat: ("=" if counts[rank] > 1 else "") + ordinal(rank) for seat, rank in ranks.items()}


def correction_refusal(t: Tournament, rnd: Round) -> str | None:
    """Why a finished result of ``rnd`` may not be corrected (``None``: it may)."""
    if t.format not in ELIMINATION_FORMATS:
        return None
    final = t.status == Tournament.Status.FINISHED and rnd.number == t.current_round
    if final:
        return None
    if rnd.number == t.current_round and t.paused:
        return None
    return (
        f"a {t.get_format_display().lower()}'s later rounds are paired from its results: a finished result "
        "can be corrected only in the final round, or in the last round played while the event is paused "
        "(pause it before the round ends, so the next round is not paired yet)"
    )


@transaction.atomic
def enter_result(
    *, tournament_id: int, table_id: int, ranks: dict[int, int], reason: str, by: Player
) -> ResultChange:
    """Enter (unfinished table) or correct (finished table) the ranks of a round's table.

    ``ranks``: seat number -> rank (1 = best, ties share and skip: 1, 2, 2, 4). ``reason`` is
    required and kept in the audit log with the ranks before and after (player id -> rank)."""
    t = _locked_event(tournament_id)
    require_organiser(t.league, by)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("say why the result is entered or corrected: a reason is required")
    rt = RoundTable.objects.select_related("round").filter(round__tournament=t, table_id=table_id).first()
    if rt is None:
        raise NotFound(f"table {table_id} is not a table of {t.name}")
    status = Table.objects.filter(pk=table_id).values_list("status", flat=True).first()
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player").order_by("number"))
    before = {str(s.player_id): s.rank for s in seats}
    if status == Table.Status.ACTIVE:
        corrected = False
        games.table_adjudicate(table_id=table_id, ranks=ranks)
    elif status == Table.Status.FINISHED:
        refusal = correction_refusal(t, rt.round)
        if refusal:
            raise Conflict(refusal)
        corrected = True
        table = games.table_correct_result(table_id=table_id, ranks=ranks)
        if table.rated:
            game = table.game
            transaction.on_commit(lambda: _rerate(game))
    else:
        raise Conflict(f"board {rt.number} of round {rt.round.number} is not being played and has no result")
    after = {str(s.player_id): ranks[s.number] for s in seats}
    action = "result corrected" if corrected else "result entered"
    audit(
        t,
        by,
        action,
        table_id=table_id,
        reason=reason,
        detail={"round": rt.round.number, "board": rt.number, "before": before, "after": after},
    )
    words = _place_words(ranks)
    order = sorted(seats, key=lambda s: (ranks[s.number], s.number))
    return ResultChange(
        round=rt.round.number,
        board=rt.number,
        corrected=corrected,
        places=[(words[s.number], s.player.display_name) for s in order],
        reason=reason,
    )


# ------------------------------------------------------------- announcements


@transaction.atomic
def announce(*, tournament_id: int, text: str, by: Player) -> Announcement:
    t = _locked_event(tournament_id)
    require_organiser(t.league, by)
    text = (text or "").strip()
    if not text:
        raise InvalidInput("an announcement needs some text")
    if len(text) > 2000:
        raise InvalidInput(f"an announcement is at most 2000 characters, not {len(text)}")
    return Announcement.objects.create(tournament=t, author=by, text=text)


@transaction.atomic
def announcement_delete(*, tournament_id: int, announcement_id: int, by: Player) -> Announcement:
    t = _locked_event(tournament_id)
    require_organiser(t.league, by)
    item = Announcement.objects.filter(pk=announcement_id, tournament=t).first()
    if item is None:
        raise NotFound("there is no such announcement on this event")
    item.delete()
    return item


# ---------------------------------------------------------------------- reads


ACTION_WORDS = {
    "result entered": "entered a result",
    "result corrected": "corrected a result",
    "register": "registered",
    "remove": "removed",
    "check in": "checked in",
    "seeds": "set the seeds",
    "start": "started the event",
    "pause": "paused the event",
    "resume": "resumed the event",
}


@dataclass(frozen=True)
class AuditLine:
    at: Any
    by: str
    what: str
    reason: str


def audit_log(t: Tournament, limit: int = 100) -> list[AuditLine]:
    """The event's audit log, newest first, in words (names, places)."""
    entries = list(AuditEntry.objects.filter(tournament=t).select_related("by")[:limit])
    ids: set[int] = set()
    for e in entries:
        for key in ("before", "after"):
            ids.update(int(p) for p in (e.detail.get(key) or {}))
        ids.update(int(p) for p in (e.detail.get("seeds") or {}))
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    lines = []
    for e in entries:
        d = e.detail or {}
        what = ACTION_WORDS.get(e.action, e.action)
        if "after" in d:
            before = _ranks_words(d.get("before") or {}, names)
            after = _ranks_words(d["after"], names)
            what += f" for round {d.get('round')}, board {d.get('board')}: {before} → {after}"
        elif "name" in d:
            what += f" {d['name']}"
        elif "seeds" in d:
            seeds = sorted(d["seeds"].items(), key=lambda kv: (kv[1] is None, kv[1] or 0))
            what += ": " + ", ".join(
                f"{names.get(int(p), '?')} {seed if seed is not None else 'unseeded'}" for p, seed in seeds
            )
        elif e.action in ("pause", "resume") and d.get("round"):
            what += f" in round {d['round']}"
        lines.append(AuditLine(e.at, e.by.display_name if e.by else "someone", what, e.reason))
    return lines


def _ranks_words(ranks: dict[str, int | None], names: dict[int, str]) -> str:
    if not ranks or all(r is None for r in ranks.values()):
        return "not finished"
    known = {int(p): r for p, r in ranks.items() if r is not None}
    words = _place_words(known)
    order = sorted(known, key=lambda p: known[p])
    return ", ".join(f"{names.get(p, '?')} {words[p]}" for p in order)


def finished_events(leagues: Any, limit: int = 10) -> list[Tournament]:
    """The newest finished events of ``leagues`` (a queryset of leagues), with their league: one query."""
    rows = Tournament.objects.filter(league__in=leagues, status=Tournament.Status.FINISHED)
    return list(rows.select_related("league").order_by("-finished_at", "-pk")[:limit])


def require_organiser_of(t: Tournament, player: Player) -> None:
    if not is_organiser(t.league, player):
        raise Forbidden(f"only organisers of {t.league.name} may do this")


def matching_players(name: str, limit: int = 20) -> list[Player]:
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


def standings_csv(t: Tournament) -> str:
    """The standings as CSV: place, player, points, played, wins, then each tie-break."""
    rows = tournament_standings(t)
    out = io.StringIO()
    writer = csv.writer(out)
    breaks = list(rows[0].tiebreaks) if rows else []
    writer.writerow(["place", "player", "points", "played", "wins", *breaks])
    for row in rows:
        writer.writerow(
            [row.place, row.display_name, _num(row.points), row.played, row.wins]
            + [_num(row.tiebreaks.get(k, 0)) for k in breaks]
        )
    return out.getvalue()


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def crosstable_csv(t: Tournament) -> str:
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
    for seat in Seat.objects.filter(table_id__in=[tid for _, tid, _ in links]).select_related("player"):
        seats.setdefault(seat.table_id, []).append(seat)
    cell: dict[tuple[int, int], str] = {}
    for number, table_id, status in links:
        group = sorted(seats.get(table_id, []), key=lambda s: s.number)
        ranks = {s.number: s.rank for s in group if s.rank is not None}
        words = _place_words(ranks) if status == Table.Status.FINISHED and len(ranks) == len(group) else {}
        for s in group:
            others = ", ".join(o.player.display_name for o in group if o.pk != s.pk)
            what = words.get(s.number) or (
                "playing" if status == Table.Status.ACTIVE else Table.Status(status).label
            )
            cell[(s.player_id, number)] = f"{what} v {others}"
    for rnd in rounds:
        for player_id in rnd.byes:
            cell[(player_id, rnd.number)] = "bye"
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "player", "points", *[f"round {r.number}" for r in rounds]])
    for row in rows:
        writer.writerow(
            [row.place, row.display_name, _num(row.points)]
            + [cell.get((row.player, r.number), "") for r in rounds]
        )
    return out.getvalue()


def records_zip(t: Tournament) -> bytes:
    """Every table's game record (``games.services.record_text``), one file per table, zipped."""
    links = RoundTable.objects.filter(round__tournament=t).select_related("round", "table")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for rt in links.order_by("round__number", "number"):
            name = f"round-{rt.round.number:02d}-board-{rt.number:02d}-table-{rt.table_id}.txt"
            archive.writestr(name, games.record_text(rt.table))
    return buffer.getvalue()


def registrations(t: Tournament) -> list[Registration]:
    """The event's entrants (withdrawn last), with their players, for the roster."""
    regs = list(Registration.objects.filter(tournament=t).select_related("player"))
    return sorted(regs, key=lambda r: (r.status == Registration.Status.WITHDRAWN, r.seed or 10**6, r.pk))


def _rerate(game: str) -> None:
    """Re-rate ``game`` on a worker; where the broker cannot take the task, here and now (a
    corrected result must never leave the ratings on the old one)."""
    if not send("ratings.tasks.recompute_game", (game,)):
        rating_services.recompute([game])
