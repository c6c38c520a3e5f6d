"""Reads of tournaments: lists, an event with its rounds and standings, the history pairing needs,
final places, late-entry invitations.

Services use these too (pairing needs the history of the rounds so far). Results come from
games' public result contract (``games.selectors.game_results``), never from its tables.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import OuterRef, Prefetch, QuerySet
from django.utils.translation import gettext as _

from common.errors import NotFound
from games import selectors as games
from games.models import Player, Seat
from games.results import GameResult

from ..arena.selectors import leaderboard as arena_leaderboard
from ..models import LateEntryInvitation, League, Registration, Round, RoundTable, Tournament
from ..pairing import double_elim
from ..pairing.bracket import RoundRecord, TableRecord, knockout_standings
from ..selectors import _count, league_list
from ..standings import StandingRow, TableResult, Unplayed, bye_value, requested_bye_value, standings


@dataclass
class History:
    """What the rounds so far (or up to a round) have been: who met whom, who sat where, the
    finished results and the byes; ``rounds``: each round's byes and tables (a knockout's standings)."""

    meetings: dict[int, Counter[int]]
    seat_history: dict[int, list[int]]
    results: list[TableResult]
    byes: Counter[int]
    rounds: list[RoundRecord] = field(default_factory=list)
    #: Rounds each player sat at a table smaller than that round's largest (the Swiss rotates them).
    small_tables: Counter[int] = field(default_factory=Counter)
    #: Rounds each player sat in the last seat of their table (the 3-4 seat Swiss rotates it).
    last_seats: Counter[int] = field(default_factory=Counter)


def history(t: Tournament, after_round: int | None = None) -> History:
    """The history of an event's rounds in three queries, however many rounds and tables."""
    rounds = Round.objects.filter(tournament=t).order_by("number")
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    round_list = list(rounds)
    links = list(
        RoundTable.objects.filter(round__in=round_list)
        .order_by("round__number", "number")
        .values_list("round__number", "table_id")
    )
    table_ids = [table_id for _, table_id in links]
    seated = games.seatings(table_ids)
    finished = games.game_results(table_ids)
    out = History({}, {}, [], Counter())
    tables: dict[int, list[TableRecord]] = {}
    for rnd in round_list:
        out.byes.update(rnd.byes)
    for number, table_id in links:
        order = seated.get(table_id, [])
        out.last_seats.update(order[-1:])
        for i, p in enumerate(order):
            out.seat_history.setdefault(p, []).append(i + 1)
            out.meetings.setdefault(p, Counter()).update(q for q in order if q != p)
        result = finished.get(table_id)
        if result is not None:
            out.results.append(table_result(number, result))
        ranks = result.ranks() if result is not None else None
        tables.setdefault(number, []).append(TableRecord(tuple(order), ranks))
    out.rounds = [
        RoundRecord(rnd.number, tuple(rnd.byes), tuple(tables.get(rnd.number, []))) for rnd in round_list
    ]
    for round_tables in tables.values():
        largest = max(len(table.players) for table in round_tables)
        for table in round_tables:
            if len(table.players) < largest:
                out.small_tables.update(table.players)
    return out


def current_standings(t: Tournament, after_round: int | None = None) -> list[StandingRow]:
    """Standings now, or as they stood after round ``after_round``."""
    players = list(Registration.objects.filter(tournament=t).values_list("player_id", flat=True))
    past = history(t, after_round)
    if t.format == Tournament.Format.KNOCKOUT:
        return _knockout_rows(t, players, past.rounds)
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        return _double_elim_rows(t, players, past.rounds)
    unplayed = unplayed_rounds(t, past.rounds, late_entries(t), requested=requested_byes(t))
    return standings(players, past.results, t.seats, scale=t.points_scale, unplayed=unplayed, rounds=t.rounds)


def table_result(number: int, result: GameResult) -> TableResult:
    """A finished table of round ``number`` as the standings read it (its no-shows included)."""
    return TableResult(
        round=number, ranks=result.ranks(), markers=result.markers(), no_shows=frozenset(result.no_shows())
    )


def requested_byes(t: Tournament) -> dict[int, list[int]]:
    """Player id -> the rounds the organiser gave them a bye in (``Registration.manual_byes``)."""
    rows = Registration.objects.filter(tournament=t).values_list("player_id", "manual_byes")
    return {p: list(rounds) for p, rounds in rows if rounds}


def late_entries(t: Tournament) -> dict[int, tuple[int, float]]:
    """Players entered after the start: player id -> (first round they play, points per missed round)."""
    late = Registration.objects.filter(tournament=t, joined_round__gt=1)
    rows = late.values_list("player_id", "joined_round", "missed_points")
    return {p: (joined, pts) for p, joined, pts in rows}


def unplayed_rounds(
    t: Tournament,
    rounds: list[RoundRecord],
    late: dict[int, tuple[int, float]],
    upto: int | None = None,
    requested: dict[int, list[int]] | None = None,
) -> dict[int, list[Unplayed]]:
    """Each player's unplayed rounds up to round ``upto`` (default: every round so far): byes, and
    the rounds a late entry missed, at the points the organiser chose. A bye in one of the player's
    ``requested`` rounds (given by the organiser) pays the event's ``requested_bye``; any other
    (the pairing's odd player out) pays a pairing bye's value, a win at two seats."""
    bye = bye_value(t.seats, t.points_scale)
    asked = requested_bye_value(t.seats, t.points_scale, t.requested_bye)
    requested = requested or {}
    last = upto if upto is not None else max((r.number for r in rounds), default=0)
    out: dict[int, list[Unplayed]] = {}
    for p, (joined, pts) in late.items():
        missed = [Unplayed(r, pts) for r in range(1, min(joined, last + 1))]
        if missed:  # none before the first round: such a player has no unplayed round yet
            out[p] = missed
    for rnd in rounds:
        if rnd.number <= last:
            for p in rnd.byes:
                pays = asked if rnd.number in requested.get(p, ()) else bye
                out.setdefault(p, []).append(Unplayed(rnd.number, pays))
    return out


def _knockout_rows(t: Tournament, players: list[int], rounds: list[RoundRecord]) -> list[StandingRow]:
    """A knockout's standings (``tournaments.pairing.bracket.knockout_standings``) as standings rows:
    ``points`` are the rounds survived, ``tiebreaks`` ``exit_place`` (the place at the table where
    the player went out, the final's for finalists; 0 while still in) and ``seed`` (1 best; 0 for a
    player who did not start)."""
    seeds = t.seeds if t.seeds is not None else players  # events started before seeds were kept
    last = t.rounds or (max((r.number for r in rounds), default=0) if t.status == "finished" else 0)
    rows = knockout_standings(players, seeds, rounds, t.advance, last)
    return [
        StandingRow(
            player=r.player,
            place=r.place,
            points=float(r.survived),
            tiebreaks={"exit_place": float(r.exit_place), "seed": float(r.seed)},
            played=r.played,
            wins=r.wins,
        )
        for r in rows
    ]


def _double_elim_rows(t: Tournament, players: list[int], rounds: list[RoundRecord]) -> list[StandingRow]:
    """A double elimination's standings (``tournaments.pairing.double_elim.standings``) as standings
    rows: ``points`` are the tables won, ``tiebreaks`` ``losses``, ``eliminated_in`` (the round of the
    second loss; 0 while still in) and ``seed`` (1 best; 0 for a player who did not start)."""
    left = set(
        Registration.objects.filter(tournament=t, status=Registration.Status.WITHDRAWN).values_list(
            "player_id", flat=True
        )
    )
    seeds = t.seeds if t.seeds is not None else []
    active = [p for p in [*seeds, *players] if p not in left]
    return [
        StandingRow(
            player=r.player,
            place=r.place,
            points=float(r.wins),
            tiebreaks={"losses": float(r.losses), "eliminated_in": float(r.out_round), "seed": float(r.seed)},
            played=r.played,
            wins=r.wins,
        )
        for r in double_elim.standings(players, seeds, rounds, active)
    ]


def _label_brackets(t: Tournament, rounds: list[RoundRecord]) -> None:
    """Set ``bracket`` on each prefetched round table of a double elimination: "Winners bracket round
    2", "Losers bracket round 1", "Grand final"... (the bracket its players were in when paired, in
    the reader's language), and ``bracket_kind``: its key (``double_elim.WINNERS``...)."""
    if t.format != Tournament.Format.DOUBLE_ELIMINATION or t.seeds is None:
        return
    kinds = double_elim.replay(t.seeds, rounds).brackets
    for rnd in t.round_set.all():
        for i, rt in enumerate(rnd.tables.all()):
            kind = kinds.get((rnd.number, i))
            rt.bracket = double_elim.table_label(kind, rnd.number) if kind else ""  # type: ignore[attr-defined]
            rt.bracket_kind = kind or ""  # type: ignore[attr-defined]


# --------------------------------------------------------------- the read side of the API and pages
#
# What the API and the pages show, read in a number of queries that does not grow with the rows:
# querysets with their ``select_related``/``prefetch_related`` and annotations, or model instances
# with computed attributes set here (documented on each function), like ``Prefetch(to_attr=…)``.


@dataclass(frozen=True)
class Standing:
    """One line of the standings as shown: :class:`StandingRow` with the player's name."""

    place: int
    player: int
    display_name: str
    points: float
    played: int
    wins: int
    tiebreaks: dict[str, float]


def league_detail(slug: str) -> League:
    """A league as :func:`league_list` has it, with its tournaments as :func:`tournament_list` has them."""
    found = (
        league_list()
        .filter(slug=slug)
        .prefetch_related(Prefetch("tournaments", queryset=tournament_list()))
        .first()
    )
    if found is None:
        raise NotFound(_("there is no league %(slug)s") % {"slug": repr(slug)})
    return found


# tournaments
def tournament_list(
    *,
    status: str | None = None,
    game: str | None = None,
    format: str | None = None,
    league: str | None = None,
) -> QuerySet[Tournament]:
    """Tournaments, newest first, with their league and ``registered`` (players not withdrawn);
    filtered by whichever of the arguments is given (``league``: the league's slug)."""
    # ``registered`` a subquery per row: a page of the list counts its own registrations only.
    not_withdrawn = Registration.objects.filter(tournament=OuterRef("pk")).exclude(
        status=Registration.Status.WITHDRAWN
    )
    qs = Tournament.objects.select_related("league").annotate(registered=_count(not_withdrawn))
    qs = qs.order_by("-created")
    for key, value in (("status", status), ("game", game), ("format", format)):
        if value is not None:
            qs = qs.filter(**{key: value})
    if league is not None:
        qs = qs.filter(league__slug=league)
    return qs


def tournament(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
    return t


def _rounds() -> QuerySet[Round]:
    """Rounds by number with their tables by number, each table's ``games.Table`` and its seats by
    number with their players: three queries for any number of rounds and tables."""
    return Round.objects.order_by("number").prefetch_related(
        Prefetch("tables", queryset=RoundTable.objects.select_related("table").order_by("number")),
        Prefetch("tables__table__seats", queryset=Seat.objects.select_related("player").order_by("number")),
    )


def round_detail(tournament_id: int, number: int) -> Round:
    """One round as :func:`_rounds` reads it."""
    rnd = _rounds().filter(tournament_id=tournament_id, number=number).first()
    if rnd is None:
        raise NotFound(
            _("tournament %(id)s has no round %(number)s") % {"id": tournament_id, "number": number}
        )
    return rnd


def tournament_detail(tournament_id: int, *, standings_after_rounds: bool = False) -> Tournament:
    """A tournament as :func:`tournament_list` has it, with ``registrations`` (players selected, in
    the order they registered) and ``round_set`` (as :func:`_rounds` reads them) prefetched, and
    ``standings``: its current standings (list of :class:`Standing`).

    ``standings_after_rounds``: also set ``standings`` on each round: after a finished round the
    standings as they were then, otherwise ``[]`` (from the same reads: no query per round).
    """
    t = (
        tournament_list()
        .filter(pk=tournament_id)
        .prefetch_related(
            Prefetch("registrations", queryset=Registration.objects.select_related("player")),
            Prefetch("round_set", queryset=_rounds()),
        )
        .first()
    )
    if t is None:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
    registrations = list(t.registrations.all())
    players = [r.player_id for r in registrations]
    names = {r.player_id: r.player.display_name for r in registrations}
    late = {r.player_id: (r.joined_round, r.missed_points) for r in registrations if r.joined_round > 1}
    asked = {r.player_id: list(r.manual_byes) for r in registrations if r.manual_byes}
    past = history(t)
    t.standings = _standings(t, players, names, past.results, late, past.rounds, asked)  # type: ignore[attr-defined]
    _label_brackets(t, past.rounds)
    if standings_after_rounds:
        for rnd in t.round_set.all():
            results = [r for r in past.results if r.round <= rnd.number]
            so_far = [r for r in past.rounds if r.number <= rnd.number]
            finished = rnd.status == Round.Status.FINISHED
            rnd.standings = _standings(t, players, names, results, late, so_far, asked) if finished else []  # type: ignore[attr-defined]
    return t


def _standings(
    t: Tournament,
    players: list[int],
    names: dict[int, str],
    results: list[TableResult],
    late: dict[int, tuple[int, float]],
    rounds: list[RoundRecord],
    requested: dict[int, list[int]] | None = None,
) -> list[Standing]:
    """As :func:`current_standings` computes them, with names (``players`` in registration order),
    after the ``rounds`` given (late entries as :func:`late_entries` lists them, the organiser's
    byes as :func:`requested_byes`). An arena has no rounds: its leaderboard (performance as its
    one tiebreak)."""
    if t.format == Tournament.Format.ARENA:
        return [
            Standing(
                row.rank,
                row.player.pk,
                row.player.display_name,
                row.points,
                row.games,
                row.wins,
                {"performance": row.performance or 0},
            )
            for row in arena_leaderboard(t)
        ]
    if t.format == Tournament.Format.KNOCKOUT:
        rows = _knockout_rows(t, players, rounds)
    elif t.format == Tournament.Format.DOUBLE_ELIMINATION:
        rows = _double_elim_rows(t, players, rounds)
    else:
        unplayed = unplayed_rounds(t, rounds, late, requested=requested)
        rows = standings(players, results, t.seats, scale=t.points_scale, unplayed=unplayed, rounds=t.rounds)
    return [
        Standing(r.place, r.player, names.get(r.player, ""), r.points, r.played, r.wins, r.tiebreaks)
        for r in rows
    ]


def final_places(tours: list[Tournament]) -> dict[int, dict[int, int]]:
    """Tournament id → {player id: place} as the event's standings have it
    (``tournaments.selectors.tournament_standings``), read for all the events at once: the
    history of every event in the same six queries or fewer, however many events and rounds."""
    if not tours:
        return {}
    ids = [t.pk for t in tours]
    players: dict[int, list[int]] = {}
    late: dict[int, dict[int, tuple[int, float]]] = {}
    asked: dict[int, dict[int, list[int]]] = {}
    for tid, pid, joined, missed, given in Registration.objects.filter(tournament_id__in=ids).values_list(
        "tournament_id", "player_id", "joined_round", "missed_points", "manual_byes"
    ):
        players.setdefault(tid, []).append(pid)
        if given:
            asked.setdefault(tid, {})[pid] = list(given)
        if joined > 1:
            late.setdefault(tid, {})[pid] = (joined, missed)
    rounds = list(Round.objects.filter(tournament_id__in=ids).order_by("tournament_id", "number"))
    links = list(
        RoundTable.objects.filter(round__in=rounds)
        .order_by("round__number", "number")
        .values_list("round__tournament_id", "round__number", "table_id")
    )
    table_ids = [table_id for _, _, table_id in links]
    seated = games.seatings(table_ids)
    results = games.game_results(table_ids)
    done: dict[int, list[TableResult]] = {}
    tables: dict[tuple[int, int], list[TableRecord]] = {}
    for tid, number, table_id in links:
        result = results.get(table_id)
        if result is not None:
            done.setdefault(tid, []).append(table_result(number, result))
        ranks = result.ranks() if result is not None else None
        tables.setdefault((tid, number), []).append(TableRecord(tuple(seated.get(table_id, [])), ranks))
    out = {}
    for t in tours:
        if t.format == Tournament.Format.ARENA:  # no rounds: its leaderboard's ranks (``tournaments.arena``)
            out[t.pk] = {row.player.pk: row.rank for row in arena_leaderboard(t) if row.games}
            continue
        records = [
            RoundRecord(r.number, tuple(r.byes), tuple(tables.get((t.pk, r.number), [])))
            for r in rounds
            if r.tournament_id == t.pk
        ]
        # The event's own standings rule, from the reads made here for every event at once.
        rows = _standings(
            t, players.get(t.pk, []), {}, done.get(t.pk, []), late.get(t.pk, {}), records, asked.get(t.pk)
        )
        out[t.pk] = {row.player: row.place for row in rows}
    return out


def tournament_standings(t: Tournament, after_round: int | None = None) -> list[Standing]:
    """The standings now, or after round ``after_round``, with names (as :func:`current_standings`)."""
    registered = list(
        Registration.objects.filter(tournament=t).values_list("player_id", "player__display_name")
    )
    past = history(t, after_round)
    players, names = [p for p, _ in registered], dict(registered)
    return _standings(t, players, names, past.results, late_entries(t), past.rounds, requested_byes(t))


def late_entry_invitations(player: Player, limit: int = 50) -> list[LateEntryInvitation]:
    """A player's invitations to enter events late, newest first (``LateEntryInvitation``)."""
    rows = LateEntryInvitation.objects.filter(player=player).select_related("tournament", "player")
    return list(rows[:limit])


def pending_late_invitation(t: Tournament, player: Player | None) -> LateEntryInvitation | None:
    """The invitation into ``t`` that waits for ``player``'s answer, if any."""
    if player is None:
        return None
    rows = LateEntryInvitation.objects.filter(
        tournament=t, player=player, status=LateEntryInvitation.Status.PENDING
    )
    return rows.select_related("invited_by").first()
