"""What the event page shows, read in a number of queries that does not grow with the event.

Built on :func:`selectors.tournament_detail` (the event, its registrations, rounds, tables, seats
and standings), plus one ``describe_tables`` call for every table's result in words, one query for
the players' ratings in the event's game and one for the announcements.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.models import Player, Table
from games.wording import ResultText, describe_tables, names_list, ordinal
from ratings import display
from ratings.models import Rating

from . import bracket_svg, crosstable, selectors
from .models import Registration, Round, Tournament
from .pairing import bracket as knockout_plan
from .pairing import double_elim
from .standings import bye_value, requested_bye_value

#: How each tiebreak is headed, and what it means (the column's ``title``).
TIEBREAK_HELP = {
    "buchholz": gettext_lazy(
        "Buchholz: sum of the opponents' points, an opponent's unplayed rounds (byes, forfeits, rounds "
        "before a late entry) counted as draws; each of your own unplayed rounds counts as a game "
        "against a virtual opponent"
    ),
    "median_buchholz": gettext_lazy(
        "Median Buchholz: the Buchholz without the opponent with the most points and the one with the fewest"
    ),
    "sonneborn_berger": gettext_lazy(
        "Sonneborn-Berger: points of the opponents beaten, plus half the points of those drawn with "
        "(their unplayed rounds counted as draws)"
    ),
    "wins": gettext_lazy(
        "Wins: games won outright, over the board (a draw, a bye or a forfeit is not a win)"
    ),
    "opponents_points": gettext_lazy(
        "Opponents' points: sum of the points of everyone met at a table, their unplayed rounds "
        "(byes, forfeits, rounds before a late entry) counted as draws"
    ),
    "markers": gettext_lazy("markers won over all tables"),
    "average_place": gettext_lazy("average place at the tables played (lower is better)"),
    "exit_place": gettext_lazy(
        "place at the table where the player went out (the final's place for finalists)"
    ),
    "seed": gettext_lazy("seed at the start (1 is the top seed)"),
    "losses": gettext_lazy("tables lost (two put a player out)"),
    "eliminated_in": gettext_lazy("the round of the second loss"),
}


def _when(dt: Any) -> str:
    """A moment in the reader's time zone and language ("Jan. 5, 2025, 2 p.m.")."""
    return date_format(timezone.localtime(dt), "DATETIME_FORMAT")


def _num(v: float) -> str:
    """2.0 -> "2", 2.5 -> "2.5", 2.333 -> "2.33" (with the language's decimal separator)."""
    v = round(v, 2)
    return number_format(int(v) if v == int(v) else v)


def _points(v: float) -> str:
    """ "no points" (zero), "1 point", "0.5 points"."""
    if not v:
        return _("no points")
    return ngettext("%(n)s point", "%(n)s points", int(v) if v == int(v) else 2) % {"n": _num(v)}


@dataclass
class SeatView:
    player: int
    name: str
    note: str = ""  # "1st", "=2nd" once finished
    ending: str = ""  # "resigned", ...
    markers: int | None = None
    advanced: bool = False
    mine: bool = False


@dataclass
class TableView:
    number: int
    table_id: int
    label: str  # the bracket of a double elimination ("Losers bracket round 2"), or ""
    seats: list[SeatView]
    status: str  # "playing, ply 23", "waiting for the players", "finished", "aborted: no result"
    finished: bool
    result: ResultText | None
    mine: bool = False
    ply: int = 0
    #: The table's status (``games.Table.Status``: "open", "active", "finished", "aborted").
    state: str = ""
    #: A double elimination's bracket key (``double_elim.WINNERS``, ...), or "".
    bracket: str = ""
    #: The places as shown after the headline: (word, name, markers, how it ended, first), the
    #: ending left out when the headline's ending already says it ("Bob: resigned").
    places: list[tuple[str, str, int, str, bool]] = field(default_factory=list)


@dataclass
class RoundView:
    number: int
    status: str
    current: bool
    tables: list[TableView]
    byes: list[str]
    standings: list[Any]
    title: str = ""
    final: bool = False  # a knockout's final round


@dataclass
class RosterRow:
    name: str
    player: int
    rating: Rating | None
    status: str
    seed: int | None
    notes: list[str]
    withdrawn: bool


@dataclass
class StandingView:
    place: int
    player: int
    name: str
    points: str
    played: int
    wins: int
    tiebreaks: list[tuple[str, str]]  # (key, shown value)
    mine: bool = False


@dataclass
class YourPart:
    """The viewer's box: where they stand, what they may do, and the rules in words."""

    anonymous: bool
    registration: Registration | None = None
    status: str = ""  # "registered", "checked in", "withdrawn" ("" when not entered), in words
    #: The registration's status (``Registration.Status``: "registered", "checked_in", "withdrawn"; "").
    state: str = ""
    rules: list[str] = field(default_factory=list)
    can_register: bool = False
    register_label: str = ""  # "Register", "Register again"
    cannot: str = ""  # why the viewer cannot register
    can_withdraw: bool = False
    withdraw_warning: str = ""
    can_check_in: bool = False
    final_place: str = ""
    #: An organiser's invitation to enter this running event late, waiting for the viewer's answer.
    invitation: Any = None
    invitation_words: str = ""


@dataclass
class YourGame:
    round: int
    table_id: int | None  # None: a bye
    opponents: str
    started: bool
    ply: int = 0
    sits_out: bool = False  # a round robin's round without a table for you (it scores nothing)


@dataclass
class EventPage:
    t: Tournament
    format_words: str
    status_words: str
    announcements: list[Any]
    you: YourPart
    your_game: YourGame | None
    roster: list[RosterRow]
    rounds: list[RoundView]
    standings: list[StandingView]
    tiebreaks: list[tuple[str, str, str]]  # (key, header, explanation)
    points_header: str
    winners: list[str]
    podium: list[tuple[str, str]]  # ("1st", name)
    crosstable: crosstable.Crosstable | None
    bracket: str  # SVG markup ("" when the format has none or nothing is paired)
    registered: int
    bye_rule: str = ""  # what byes pay, in words ("" for the brackets, whose byes score no points)
    #: Show the "Wins" column: not when another column holds the same count (the 2-seat tiebreak
    #: "wins", a double elimination's points), so that no two columns repeat one number.
    wins_column: bool = True
    points_help: str = ""  # the points column's title

    @property
    def has_seeds(self) -> bool:
        return any(row.seed is not None for row in self.roster)


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


def sitting_out(t: Tournament, rnd: Round, seated: Collection[int], gone: Collection[int] = ()) -> list[int]:
    """The players a round robin's schedule leaves without a table in ``rnd`` (an odd count at 2
    seats: whoever meets the dummy), in schedule order. Such a round has no bye stored (it pays
    nothing, as everyone sits out once), so without this the page never says who sits out.
    ``seated``: who has a table in the round; ``gone``: withdrawn players, not shown."""
    if t.format != Tournament.Format.ROUND_ROBIN or not t.schedule or rnd.number > len(t.schedule):
        return []
    everyone = dict.fromkeys(p for schedule_round in t.schedule for table in schedule_round for p in table)
    scheduled = {p for table in t.schedule[rnd.number - 1] for p in table}
    skip = scheduled | set(seated) | set(rnd.byes) | set(gone)
    return [p for p in everyone if p not in skip]


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


def _your_game(
    t: Tournament, views: list[RoundView], rounds: list[Round], names: dict[int, str], me: int | None
) -> YourGame | None:
    if me is None or t.status != Tournament.Status.RUNNING:
        return None
    current = next((v for v in views if v.current), None)
    rnd = next((r for r in rounds if r.number == t.current_round), None)
    if current is None or rnd is None:
        return None
    for tv in current.tables:
        if tv.mine and not tv.finished and tv.state != Table.Status.ABORTED:
            others = [s.name for s in tv.seats if not s.mine]
            return YourGame(
                round=current.number,
                table_id=tv.table_id,
                opponents=names_list(others),
                started=tv.ply > 0,
                ply=tv.ply,
            )
    if rnd.status != Round.Status.RUNNING:
        return None
    if me in rnd.byes:
        return YourGame(round=current.number, table_id=None, opponents="", started=False)
    if me in sitting_out(t, rnd, {s.player for tv in current.tables for s in tv.seats}):
        return YourGame(round=current.number, table_id=None, opponents="", started=False, sits_out=True)
    return None


# ------------------------------------------------------------------------------------------ roster
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
def _your_part(
    t: Tournament,
    viewer: Player | None,
    registrations: list[Registration],
    ratings: dict[int, Rating],
    registered: int,
    standings: list[StandingView],
) -> YourPart:
    rules = []
    now = timezone.now()
    is_open = t.status == Tournament.Status.REGISTRATION
    if t.registration_opens:
        when = {"when": _when(t.registration_opens)}
        rules.append(
            (
                _("Registration opens %(when)s.")
                if now < t.registration_opens
                else _("Registration opened %(when)s.")
            )
            % when
        )
    if t.registration_closes:
        when = {"when": _when(t.registration_closes)}
        rules.append(
            (
                _("Registration closes %(when)s.")
                if now <= t.registration_closes
                else _("Registration closed %(when)s.")
            )
            % when
        )
    game = t.get_game_display()
    bounds = {"min": t.rating_min, "max": t.rating_max, "game": game}
    if t.rating_min is not None and t.rating_max is not None:
        rules.append(_("Open to players rated %(min)s to %(max)s in %(game)s.") % bounds)
    elif t.rating_min is not None:
        rules.append(_("Open to players rated %(min)s or more in %(game)s.") % bounds)
    elif t.rating_max is not None:
        rules.append(_("Open to players rated %(max)s or less in %(game)s.") % bounds)
    full = t.max_players is not None and registered >= t.max_players
    if t.max_players is not None:
        taken = {"taken": registered, "n": t.max_players}
        if full:
            rules.append(
                ngettext(
                    "Full: %(taken)d of %(n)d place taken.",
                    "Full: %(taken)d of %(n)d places taken.",
                    t.max_players,
                )
                % taken
            )
        else:
            rules.append(
                ngettext("%(taken)d of %(n)d place taken.", "%(taken)d of %(n)d places taken.", t.max_players)
                % taken
            )
    else:
        rules.append(
            ngettext(
                "%(n)d player registered, no limit on places.",
                "%(n)d players registered, no limit on places.",
                registered,
            )
            % {"n": registered}
        )
    if t.check_in:
        rules.append(_("Check-in required: only players who checked in are paired when the event starts."))
    you = YourPart(anonymous=viewer is None, rules=rules, register_label=pgettext("event", "Register"))
    if viewer is None:
        return you
    reg = next((r for r in registrations if r.player_id == viewer.pk), None)
    active = reg is not None and reg.status != Registration.Status.WITHDRAWN
    you.registration = reg
    you.status = str(reg.get_status_display()) if reg is not None else ""
    you.state = reg.status if reg is not None else ""
    if active:
        you.can_withdraw = t.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
        if t.status == Tournament.Status.RUNNING:
            you.withdraw_warning = _(
                "You will not be paired again, and a game you are playing now in this event is "
                "resigned. You cannot come back once the event has started."
            )
        else:
            you.withdraw_warning = _(
                "Your place is given up; you may register again while registration is open."
            )
        you.can_check_in = (
            t.check_in and is_open and reg is not None and reg.status == Registration.Status.REGISTERED
        )
        if t.status == Tournament.Status.FINISHED:
            mine = next((row for row in standings if row.player == viewer.pk), None)
            if mine is not None:
                you.final_place = ordinal(mine.place)
        return you
    if reg is not None:
        you.register_label = pgettext("event", "Register again")
    # why the viewer may not register, in the order the service checks (then the new rules)
    own = ratings.get(viewer.pk)
    rating = display.rating(own.mu) if own is not None else 1500
    yours = {"game": game, "rating": rating, "min": t.rating_min, "max": t.rating_max}
    if t.status == Tournament.Status.DRAFT:
        you.cannot = _("Registration is not open yet.")
    elif t.status == Tournament.Status.RUNNING:
        you.cannot = _("Registration is closed: the event has started.")
    elif t.status == Tournament.Status.FINISHED:
        you.cannot = _("The event is over.")
    elif viewer.is_guest:
        you.cannot = _("Guests cannot play in events: make a full account to register.")
    elif t.registration_opens and now < t.registration_opens:
        you.cannot = _("Registration opens %(when)s.") % {"when": _when(t.registration_opens)}
    elif t.registration_closes and now > t.registration_closes:
        you.cannot = _("Registration closed %(when)s.") % {"when": _when(t.registration_closes)}
    elif full:
        you.cannot = ngettext(
            "The event is full: %(taken)d of %(n)d place taken.",
            "The event is full: %(taken)d of %(n)d places taken.",
            t.max_players or 0,
        ) % {"taken": registered, "n": t.max_players}
    elif t.rating_min is not None and rating < t.rating_min:
        you.cannot = _("Your %(game)s rating, %(rating)s, is below the minimum of %(min)s.") % yours
    elif t.rating_max is not None and rating > t.rating_max:
        you.cannot = _("Your %(game)s rating, %(rating)s, is above the maximum of %(max)s.") % yours
    else:
        you.can_register = True
    if t.rating_min is not None or t.rating_max is not None:
        if own is not None:
            you.rules.append(_("Your %(game)s rating: %(rating)s.") % yours)
        else:
            you.rules.append(_("Your %(game)s rating: 1500 (no rating yet).") % yours)
    return you


def _with_invitation(t: Tournament, viewer: Player | None, you: YourPart) -> YourPart:
    """Add the viewer's pending invitation to enter the event late (accept or decline on the page)."""
    if t.status != Tournament.Status.RUNNING or viewer is None:
        return you
    invitation = selectors.pending_late_invitation(t, viewer)
    if invitation is None:
        return you
    words = {
        "by": invitation.invited_by.display_name if invitation.invited_by else _("An organiser"),
        "round": t.current_round + 1,
    }
    you.invitation = invitation
    if invitation.missed == "half":
        you.invitation_words = (
            _(
                "%(by)s invites you to enter this event late: you would play from round %(round)s, and "
                "each round you missed would pay half the points. You are entered only if you accept."
            )
            % words
        )
    else:
        you.invitation_words = (
            _(
                "%(by)s invites you to enter this event late: you would play from round %(round)s, and "
                "the rounds you missed would pay nothing. You are entered only if you accept."
            )
            % words
        )
    return you


# ---------------------------------------------------------------------------- crosstable, bracket
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


def _bracket(t: Tournament, views: list[RoundView], rounds: list[Round], names: dict[int, str]) -> str:
    if t.format not in (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION) or not views:
        return ""
    double = t.format == Tournament.Format.DOUBLE_ELIMINATION
    # where each player sits, round by round: (round, player) -> box key
    box_of: dict[tuple[int, int], str] = {}
    for v in views:
        for tv in v.tables:
            for s in tv.seats:
                box_of[(v.number, s.player)] = f"t{tv.table_id}"
    last_round = views[-1].number

    def next_box(player: int, after: int) -> str | None:
        for n in range(after + 1, last_round + 1):
            if (n, player) in box_of:
                return box_of[(n, player)]
        return None

    columns = []
    for v, rnd in zip(views, rounds, strict=True):
        boxes = []
        for p in rnd.byes:
            band = 0 if (not double or v.number == 1) else 1
            target = next_box(p, v.number)
            boxes.append(
                bracket_svg.Box(
                    key=f"bye{v.number}-{p}",
                    title=pgettext("bracket box", "Bye"),
                    entries=(
                        bracket_svg.Entry(
                            names.get(p, "?"), pgettext("bracket entry", "bye"), advanced=True, key=p
                        ),
                    ),
                    feeds=((p, target),) if target else (),
                    band=band,
                )
            )
        for tv in v.tables:
            entries = []
            feeds = []
            for s in tv.seats:
                note = s.note
                if double and tv.finished:
                    note = (
                        pgettext("bracket entry", "won") if s.advanced else pgettext("bracket entry", "lost")
                    )
                entries.append(
                    bracket_svg.Entry(
                        s.name, note, advanced=s.advanced, out=tv.finished and not s.advanced, key=s.player
                    )
                )
                if s.advanced:
                    target = next_box(s.player, v.number)
                    if target:
                        feeds.append((s.player, target))
            losers = tv.bracket == double_elim.LOSERS
            title = pgettext("bracket box", "Table %(n)s") % {"n": tv.number}
            if double and tv.bracket in (double_elim.GRAND_FINAL, double_elim.RESET):
                title = tv.label
            if not tv.finished:
                title = f"{title} · {tv.status}"
            boxes.append(
                bracket_svg.Box(
                    key=f"t{tv.table_id}",
                    title=title,
                    entries=tuple(entries),
                    href=f"/tables/{tv.table_id}/",
                    feeds=tuple(feeds),
                    band=1 if losers else 0,
                    current=not tv.finished,
                )
            )
        columns.append(bracket_svg.Column(_round_heading(v.number, v.final), tuple(boxes)))
    if not double and t.seeds and t.rounds and last_round < t.rounds:
        try:
            plan = knockout_plan.bracket(len(t.seeds), t.seats, t.advance)
        except knockout_plan.BracketError:
            plan = ()
        for n in range(last_round + 1, t.rounds + 1):
            if n - 1 < len(plan):
                boxes = tuple(
                    bracket_svg.Box(
                        key=f"plan{n}-{i}",
                        title=pgettext("bracket box", "Table %(n)s") % {"n": i + 1},
                        entries=(),
                    )
                    for i in range(len(plan[n - 1].tables))
                )
                columns.append(bracket_svg.Column(_round_heading(n, n == t.rounds), boxes))
    if double:
        label = _("%(event)s: the double elimination bracket") % {"event": t.name}
    else:
        label = _("%(event)s: the bracket") % {"event": t.name}
    titles = (
        {
            0: str(double_elim.bracket_name(double_elim.WINNERS)),
            1: str(double_elim.bracket_name(double_elim.LOSERS)),
        }
        if double
        else None
    )
    return bracket_svg.render(columns, label=label, band_titles=titles)


def _round_heading(number: int, final: bool) -> str:
    """A bracket column's heading: "Round 2", "Round 3 · final"."""
    if final:
        return pgettext("bracket column", "Round %(n)s · final") % {"n": number}
    return pgettext("bracket column", "Round %(n)s") % {"n": number}
