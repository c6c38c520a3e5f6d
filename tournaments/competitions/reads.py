"""What the event page shows, read in a number of queries that does not grow with the event.

Built on :func:`selectors.tournament_detail` (the event, its registrations, rounds, tables, seats
and standings), plus one ``describe_tables`` call for every table's result in words, one query for
the players' ratings in the event's game and one for the announcements. The page's parts are in
:mod:`.views`, :mod:`.your_part` and :mod:`.bracket_view`.
"""

from __future__ import annotations

from collections.abc import Collection

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.models import Player, Table
from games.wording import ResultText, describe_tables, ordinal
from ratings.models import Rating

from .. import crosstable
from ..models import Registration, Round, Tournament
from ..pairing import bracket as knockout_plan
from ..standings import bye_value, requested_bye_value
from . import selectors
from .bracket_view import _bracket
from .views import (
    TIEBREAK_HELP,
    EventPage,
    RosterRow,
    RoundView,
    SeatView,
    StandingView,
    TableView,
    _num,
    _points,
    sitting_out,
)
from .your_part import _with_invitation, _your_game, _your_part


def format_words(t: Tournament) -> str:
    words = str(t.get_format_display())
    if t.format == Tournament.Format.KNOCKOUT and t.seats > 2:
        if t.advance == 1:
            return _("%(format)s (the winner of each table goes through)") % {"format": words}
        return ngettext(
            "%(format)s (the best %(n)d of each table goes through)",
            "%(format)s (the best %(n)d of each table go through)",
            t.advance,
        ) % {"format": words, "n": t.advance}
    return words


def status_words(t: Tournament) -> str:
    if t.status == Tournament.Status.RUNNING:
        if t.rounds:
            words = _("round %(round)s of %(rounds)s being played") % {
                "round": t.current_round,
                "rounds": t.rounds,
            }
        else:
            words = pgettext("event status", "running")
        if t.paused:
            # Translators: the event's status, when the organisers paused it ("round 3 of 5 being played").
            words = _("%(status)s · paused by the organisers") % {"status": words}
        return words
    if t.status == Tournament.Status.DRAFT:
        return _("not yet open for registration")
    if t.status == Tournament.Status.REGISTRATION:
        return pgettext("event status", "registration open")
    if t.status == Tournament.Status.FINISHED:
        return pgettext("event status", "finished")
    return str(t.get_status_display())


def event_page(tournament_id: int, viewer: Player | None, labels: dict[str, str] | None = None) -> EventPage:
    """Everything the event page shows (raises ``NotFound``); ``labels``: each tiebreak's heading."""
    t = selectors.tournament_detail(tournament_id, standings_after_rounds=True)
    registrations = list(t.registrations.all())
    rounds = list(t.round_set.all())
    names = {r.player_id: r.player.display_name for r in registrations}
    for rnd in rounds:
        for rt in rnd.tables.all():
            for seat in rt.table.seats.all():
                names.setdefault(seat.player_id, seat.player.display_name)
    table_ids = [rt.table_id for rnd in rounds for rt in rnd.tables.all()]
    results = describe_tables(table_ids, names)
    wanted = set(names) | ({viewer.pk} if viewer else set())
    ratings = {r.player_id: r for r in Rating.objects.filter(game=t.game, player_id__in=wanted)}
    announcements = list(t.announcements.select_related("author"))
    seed_of = {p: i + 1 for i, p in enumerate(t.seeds or [])}
    me = viewer.pk if viewer else None

    gone = {r.player_id for r in registrations if r.status == Registration.Status.WITHDRAWN}
    round_views = [_round_view(t, rnd, results, names, seed_of, me, gone) for rnd in rounds]
    standings, tiebreaks, points_header = _standings(t, me, labels or {})
    registered = sum(1 for r in registrations if r.status != Registration.Status.WITHDRAWN)
    winners = [row.name for row in standings if row.place == 1] if t.status == "finished" else []
    podium = (
        [(ordinal(row.place), row.name) for row in standings if row.place <= 3]
        if t.status == "finished"
        else []
    )
    return EventPage(
        t=t,
        format_words=format_words(t),
        status_words=status_words(t),
        announcements=announcements,
        you=_with_invitation(t, viewer, _your_part(t, viewer, registrations, ratings, registered, standings)),
        your_game=_your_game(t, round_views, rounds, names, me),
        roster=_roster(registrations, ratings, seed_of),
        rounds=list(reversed(round_views)),
        standings=standings,
        tiebreaks=tiebreaks,
        points_header=points_header,
        winners=winners,
        podium=podium,
        crosstable=_crosstable(t, rounds, results, standings),
        bracket=_bracket(t, round_views, rounds, names),
        registered=registered,
        bye_rule=bye_rule(t),
        points_help=points_help(t),
        wins_column=t.format != Tournament.Format.DOUBLE_ELIMINATION
        and all(key != "wins" for key, _label, _help in tiebreaks),
    )


def points_help(t: Tournament) -> str:
    """What the points column counts (its ``title``)."""
    if t.format == Tournament.Format.KNOCKOUT:
        return _("rounds survived (a bye counts; the champion survived the final too)")
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        return _("tables won")
    return _("points scored: the tables' points, byes and unplayed rounds included")


def bye_rule(t: Tournament) -> str:
    """What a bye pays, in words: the organiser's (the event's ``requested_bye``) and the pairing's."""
    if t.format not in (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN):
        return ""
    words = {
        "asked": _points(requested_bye_value(t.seats, t.points_scale, t.requested_bye)),
        "given": _points(bye_value(t.seats, t.points_scale)),
    }
    if t.format == Tournament.Format.ROUND_ROBIN:
        # The schedule's sit-outs are no byes: everyone sits out as often, and it scores nothing.
        if t.requested_bye == "zero":
            return _(
                "a bye the organisers give pays nothing; a round the schedule sits you out scores nothing"
            )
        return (
            _(
                "a bye the organisers give pays %(asked)s, as a draw; a round the schedule sits you "
                "out scores nothing"
            )
            % words
        )
    if t.requested_bye == "zero":
        return (
            _(
                "a bye the organisers give pays nothing; the pairing's own bye "
                "(the odd player out) pays %(given)s"
            )
            % words
        )
    return (
        _(
            "a bye the organisers give pays %(asked)s, as a draw; the pairing's own bye "
            "(the odd player out) pays %(given)s"
        )
        % words
    )


# ------------------------------------------------------------------------------------------ rounds
def _advancing(t: Tournament, rnd: Round, ranks: dict[int, int], seed_of: dict[int, int]) -> list[int]:
    if t.format == Tournament.Format.KNOCKOUT:
        if t.rounds and rnd.number >= t.rounds:
            return knockout_plan.table_order(ranks, seed_of)[:1]  # the champion
        return knockout_plan.table_advancers(ranks, t.advance, seed_of)
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        return knockout_plan.table_order(ranks, seed_of)[:1]
    return []


def _table_status(table: Table) -> str:
    if table.status == Table.Status.ACTIVE:
        return _("playing, ply %(ply)s") % {"ply": table.ply}
    if table.status == Table.Status.OPEN:
        return _("waiting for the players to sit down")
    if table.status == Table.Status.ABORTED:
        return _("aborted: no result")
    return pgettext("table status", "finished")


def _round_view(
    t: Tournament,
    rnd: Round,
    results: dict[int, ResultText],
    names: dict[int, str],
    seed_of: dict[int, int],
    me: int | None,
    gone: Collection[int] = (),
) -> RoundView:
    tables = []
    done = 0
    seated: set[int] = set()
    for rt in rnd.tables.all():
        table = rt.table
        result = results.get(rt.table_id)
        seats = [SeatView(s.player_id, names.get(s.player_id, "?")) for s in table.seats.all()]
        seated.update(s.player for s in seats)
        if result is not None:
            done += 1
            ranks = {p.player_id: p.place for p in result.places}
            up = set(_advancing(t, rnd, ranks, seed_of))
            by_player = {p.player_id: p for p in result.places}
            for s in seats:
                place = by_player.get(s.player)
                if place is not None:
                    s.note, s.ending, s.markers = place.word, place.ending, place.markers
                s.advanced = s.player in up
        elif table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
            done += 1
        for s in seats:
            s.mine = s.player == me
        tables.append(
            TableView(
                number=rt.number,
                table_id=rt.table_id,
                label=getattr(rt, "bracket", ""),
                bracket=getattr(rt, "bracket_kind", ""),
                state=table.status,
                seats=seats,
                status=_table_status(table),
                finished=result is not None,
                result=result,
                mine=any(s.mine for s in seats),
                places=_places(result),
                ply=table.ply,
            )
        )
    if rnd.status == Round.Status.FINISHED:
        status = pgettext("round status", "finished")
    elif tables:
        status = ngettext(
            "being played: %(done)d of %(n)d table finished",
            "being played: %(done)d of %(n)d tables finished",
            len(tables),
        ) % {"done": done, "n": len(tables)}
    else:
        status = pgettext("round status", "being played")
    final = bool(t.format == Tournament.Format.KNOCKOUT and t.rounds and rnd.number == t.rounds)
    title = pgettext("knockout round", "final") if final else ""
    return RoundView(
        number=rnd.number,
        status=status,
        current=rnd.number == t.current_round,
        tables=tables,
        byes=[names.get(p, "?") for p in [*rnd.byes, *sitting_out(t, rnd, seated, gone)]],
        standings=getattr(rnd, "standings", []),
        title=title,
        final=final,
    )


def _places(result: ResultText | None) -> list[tuple[str, str, int, str, bool]]:
    if result is None:
        return []
    out = []
    for p in result.places:
        said = bool(p.ending) and p.name in result.ending and p.ending in result.ending
        out.append((p.word, p.name, p.markers, "" if said else p.ending, p.place == 1))
    return out


def _roster(
    registrations: list[Registration], ratings: dict[int, Rating], seed_of: dict[int, int]
) -> list[RosterRow]:
    rows = []
    for reg in registrations:
        notes = []
        if reg.joined_round > 1:
            notes.append(
                _("entered late: plays from round %(round)s, %(points)s per missed round")
                % {"round": reg.joined_round, "points": _points(reg.missed_points)}
            )
        if reg.no_shows:
            notes.append(ngettext("%(n)d no-show", "%(n)d no-shows", reg.no_shows) % {"n": reg.no_shows})
        if reg.manual_byes:
            notes.append(
                ngettext(
                    "bye given in round %(rounds)s", "byes given in rounds %(rounds)s", len(reg.manual_byes)
                )
                % {"rounds": ", ".join(str(n) for n in reg.manual_byes)}
            )
        rows.append(
            RosterRow(
                name=reg.player.display_name,
                player=reg.player_id,
                rating=ratings.get(reg.player_id),
                status=reg.get_status_display(),
                seed=reg.seed if reg.seed is not None else seed_of.get(reg.player_id),
                notes=notes,
                withdrawn=reg.status == Registration.Status.WITHDRAWN,
            )
        )

    def order(row: RosterRow) -> tuple[int, int, float]:
        r = row.rating
        return (row.withdrawn, row.seed if row.seed is not None else 10**6, -(r.conservative if r else -99))

    return sorted(rows, key=order)


# --------------------------------------------------------------------------------------- standings
def _tiebreak_value(key: str, v: float) -> str:
    if key in ("exit_place",):
        return pgettext("tie-break value", "still in") if not v else ordinal(int(v))
    if key == "eliminated_in":
        return pgettext("tie-break value", "still in") if not v else _("round %(n)d") % {"n": int(v)}
    if key in ("seed", "losses", "wins"):
        return "–" if key == "seed" and not v else str(int(v))
    return _num(v)


def _standings(
    t: Tournament, me: int | None, labels: dict[str, str]
) -> tuple[list[StandingView], list[tuple[str, str, str]], str]:
    rows = list(t.standings)  # type: ignore[attr-defined]
    keys: list[str] = []
    for row in rows:
        for k in row.tiebreaks:
            if k not in keys:
                keys.append(k)
    knock = t.format in (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION)
    out = [
        StandingView(
            place=row.place,
            player=row.player,
            name=row.display_name,
            points=str(int(row.points)) if knock else _num(row.points),
            played=row.played,
            wins=row.wins,
            tiebreaks=[(k, _tiebreak_value(k, row.tiebreaks[k]) if k in row.tiebreaks else "") for k in keys],
            mine=row.player == me,
        )
        for row in rows
    ]
    if t.format == Tournament.Format.KNOCKOUT:
        header = pgettext("standings column", "Rounds survived")
    elif t.format == Tournament.Format.DOUBLE_ELIMINATION:
        header = pgettext("standings column", "Tables won")
    else:
        header = pgettext("standings column", "Points")
    columns = [(k, labels.get(k, k.replace("_", " ")), TIEBREAK_HELP.get(k, "")) for k in keys]
    return out, columns, header


# ------------------------------------------------------------------------------------- your part


def _crosstable(
    t: Tournament, rounds: list[Round], results: dict[int, ResultText], standings: list[StandingView]
) -> crosstable.Crosstable | None:
    if t.format != Tournament.Format.ROUND_ROBIN or not rounds:
        return None
    played = []
    for rnd in rounds:
        for rt in rnd.tables.all():
            result = results.get(rt.table_id)
            players = tuple(s.player_id for s in rt.table.seats.all())
            if result is None:
                played.append(crosstable.Played(rnd.number, rt.table_id, players, None))
            else:
                places = {p.player_id: p.place for p in result.places}
                words = {p.player_id: p.word for p in result.places}
                played.append(crosstable.Played(rnd.number, rt.table_id, players, places, words))
    byes = {rnd.number: list(rnd.byes) for rnd in rounds}
    order = [(row.player, row.name) for row in standings]
    totals = {row.player: row.points for row in standings}
    return crosstable.build(order, played, byes, t.seats, t.rounds, totals)
