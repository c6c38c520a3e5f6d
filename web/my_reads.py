"""What "My page" reads for a logged-in player, and what a table page says about where its game
belongs. Reads only: a fixed number of queries however many tables, events and challenges the
player has (the lists are bounded; finished events are read for the last few only).

The "your turn" rule is the site bar's (``web.context.site_bar``): an active table whose seat on
turn is the player's, still playing. My page lists every such table, so its count and the site
bar's agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import F, Prefetch, Q
from django.utils import timezone

from games import selectors as game_reads
from games.models import Player, Seat, Table
from games.results import Ending
from games.wording import SEAT_ENDINGS, TABLE_ENDINGS, ResultText, describe_tables, names_list, ordinal
from ratings.display import text as rating_text
from ratings.models import Rating
from tournaments import selectors as event_reads
from tournaments.models import Challenge, LadderMember, Registration, Round, RoundTable, Tournament

#: How many of each list My page shows.
OTHER_TABLES = 20
FINISHED_TABLES = 5
FINISHED_EVENTS = 3
CHALLENGES = 20
#: Ladder placings are read for this many ladders (a rating ladder's place needs its members' ratings).
LADDERS = 10


def time_left_text(seconds: float) -> str:
    """A remaining time in words, to the precision that matters ("2 days 3 h", "5 min", "40 s")."""
    s = max(0, int(seconds))
    if s >= 86400:
        return f"{s // 86400} day{'s' if s >= 2 * 86400 else ''} {s % 86400 // 3600} h"
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60} min"
    if s >= 60:
        return f"{s // 60} min"
    return f"{s} s"


# ------------------------------------------------------------------ my tables
@dataclass
class MyTable:
    t: Table
    my_seat: int | None
    your_turn: bool
    opponents: str  # "Bob and Carol"
    state: str  # "your turn", "Bob to move", "waiting for players (1 of 3 seated)"
    time_left: str = ""  # "4 min" while the clock (or the first-move window) runs
    result: ResultText | None = None
    my_place: str = ""  # "You won", "2nd of 3"


def _my_table(t: Table, me: Player, now: datetime) -> MyTable:
    seats = list(t.seats.all())
    mine = next((s for s in seats if s.player_id == me.pk), None)
    names = {s.number: s.player.display_name for s in seats}
    your_turn = (
        t.status == Table.Status.ACTIVE
        and mine is not None
        and mine.state == Seat.State.PLAYING
        and t.to_move == mine.number
    )
    if t.status == Table.Status.OPEN:
        state = f"waiting for players ({len(seats)} of {t.players} seated)"
    elif your_turn:
        state = "your turn"
    elif t.status == Table.Status.ACTIVE:
        state = f"{names.get(t.to_move or 0, 'nobody')} to move"
    else:
        state = t.get_status_display()
    left = ""
    if t.status == Table.Status.ACTIVE and t.deadline is not None:
        left = time_left_text((t.deadline - now).total_seconds())
    opponents = names_list([s.player.display_name for s in seats if s.player_id != me.pk])
    return MyTable(t, mine.number if mine else None, your_turn, opponents, state, left)


@dataclass
class MyTables:
    turn: list[MyTable]  # every table where it is my turn, most urgent first
    others: list[MyTable]  # active tables where someone else moves, newest first
    open: list[MyTable]  # my tables waiting for players
    finished: list[MyTable]  # the last few finished, result in words

    @property
    def in_play(self) -> list[MyTable]:
        """My turn first, then the others, then the tables waiting for players."""
        return [*self.turn, *self.others, *self.open]


def my_tables(me: Player) -> MyTables:
    """Eight queries at most, however many tables the player has."""
    now = timezone.now()
    rows = game_reads.table_list().defer(*game_reads.LIST_DEFERRED)
    turn_qs = rows.filter(
        status=Table.Status.ACTIVE,
        seats__player=me,
        seats__state=Seat.State.PLAYING,
        seats__number=F("to_move"),
    ).order_by(F("deadline").asc(nulls_last=True), "-id")
    turn = [_my_table(t, me, now) for t in turn_qs]
    in_play = (
        game_reads.tables_of_player(rows, me.pk)
        .filter(status__in=[Table.Status.OPEN, Table.Status.ACTIVE])
        .exclude(pk__in=[m.t.pk for m in turn])
        .order_by("-id")[:OTHER_TABLES]
    )
    others, waiting = [], []
    for t in in_play:
        (waiting if t.status == Table.Status.OPEN else others).append(_my_table(t, me, now))
    done = list(
        game_reads.tables_of_player(rows, me.pk)
        .filter(status=Table.Status.FINISHED)
        .order_by("-finished_at")[:FINISHED_TABLES]
    )
    names = {s.player_id: s.player.display_name for t in done for s in t.seats.all()}
    results = describe_tables([t.pk for t in done], names)
    finished = []
    for t in done:
        m = _my_table(t, me, now)
        m.result = results.get(t.pk)
        if m.result is not None:
            m.my_place = my_place_words(m.result, me.pk, t.players)
        finished.append(m)
    return MyTables(turn, others, waiting, finished)


def my_place_words(result: ResultText, me_id: int, players: int) -> str:
    """ "You won", "You shared 1st place", "2nd of 3 — Bob won"."""
    place = next((p for p in result.places if p.player_id == me_id), None)
    if place is None:
        return result.headline
    winners = [p for p in result.places if p.place == 1]
    if place.place == 1:
        return "You won" if len(winners) == 1 else "You shared 1st place"
    return f"{place.word} of {players} — {result.headline}"


# ------------------------------------------------------------------ my events
@dataclass
class MyEvent:
    t: Tournament
    text: str  # the next round in words
    table: Table | None = None  # my table of the current round, when it is still to be played
    your_turn: bool = False


def _event_text(
    t: Tournament, reg: Registration, rnd: Round | None, rt: RoundTable | None, me: Player
) -> MyEvent:
    if t.status == Tournament.Status.REGISTRATION:
        checked = ""
        if t.check_in:
            checked = (
                " — you are checked in"
                if reg.status == Registration.Status.CHECKED_IN
                else " — check in before it starts, or you are not paired"
            )
        return MyEvent(t, f"registration open, starts when the organiser starts it{checked}")
    of = f" of {t.rounds}" if t.rounds else ""
    number = t.current_round
    if rnd is None:
        return MyEvent(t, "starting: the first round is being paired")
    head = f"round {number}{of}"
    after = f"waiting for round {number} to finish"
    if rnd.status == Round.Status.FINISHED:
        if t.paused:
            return MyEvent(t, f"{head} finished; the organiser paused the event before round {number + 1}")
        return MyEvent(t, f"{head} finished: waiting for round {number + 1} to be paired")
    if rt is not None:
        table = rt.table
        others = names_list([s.player.display_name for s in table.seats.all() if s.player_id != me.pk])
        where = f"board {rt.number}"
        if table.status in (Table.Status.OPEN, Table.Status.ACTIVE):
            mine = next((s for s in table.seats.all() if s.player_id == me.pk), None)
            if mine is not None and mine.state == Seat.State.OUT:
                return MyEvent(t, f"{head} running: you are out at {where}; {after}")
            turn = table.status == Table.Status.ACTIVE and mine is not None and table.to_move == mine.number
            said = "ready: your move" if turn else "ready" if table.ply == 0 else "in play"
            return MyEvent(t, f"{head} running: your game vs {others} ({where}) is {said}", table, turn)
        return MyEvent(t, f"{head} running: you have played; {after}")
    if me.pk in (rnd.byes or []):
        return MyEvent(t, f"{head} running: you have a bye; {after}")
    return MyEvent(t, f"{head} running: you do not play this round")


@dataclass
class FinishedEvent:
    t: Tournament
    place: str  # "2nd of 8"


@dataclass
class MyEvents:
    current: list[MyEvent] = field(default_factory=list)
    finished: list[FinishedEvent] = field(default_factory=list)


def my_events(me: Player) -> MyEvents:
    """Four queries for the events open or running, and eight at most for the final places in the
    last ``FINISHED_EVENTS`` finished ones."""
    regs = list(
        Registration.objects.filter(
            player=me,
            tournament__status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING],
        )
        .exclude(status=Registration.Status.WITHDRAWN)
        .select_related("tournament__league")
        .order_by("-tournament__status", "-tournament__created")
    )
    running = [r.tournament_id for r in regs if r.tournament.status == Tournament.Status.RUNNING]
    rounds: dict[int, Round] = {}
    tables: dict[int, RoundTable] = {}
    if running:
        rounds = {
            r.tournament_id: r
            for r in Round.objects.filter(tournament_id__in=running, number=F("tournament__current_round"))
        }
        seats = Prefetch("table__seats", queryset=Seat.objects.select_related("player").order_by("number"))
        for rt in (
            RoundTable.objects.filter(round__in=list(rounds.values()), table__seats__player=me)
            .select_related("table", "round")
            .prefetch_related(seats)
        ):
            tables[rt.round.tournament_id] = rt
    out = MyEvents()
    for reg in regs:
        t = reg.tournament
        out.current.append(_event_text(t, reg, rounds.get(t.pk), tables.get(t.pk), me))
    done = (
        Registration.objects.filter(player=me, tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament__league")
        .order_by("-tournament__finished_at")[:FINISHED_EVENTS]
    )
    done = list(done)
    places = event_reads.final_places([reg.tournament for reg in done])
    for reg in done:
        t = reg.tournament
        place, of = places.get(t.pk, {}).get(me.pk, (0, 0)), len(places.get(t.pk, {}))
        if reg.status == Registration.Status.WITHDRAWN:
            text = "withdrawn"
        elif not place:
            text = "not placed"
        else:
            text = f"{ordinal(place)} of {of}"
        out.finished.append(FinishedEvent(t, text))
    return out


# ------------------------------------------------------------------ challenges and ladders
@dataclass
class MyLadders:
    waiting: list[Challenge]  # pending challenges to me (the site bar counts them)
    outgoing: list[Challenge]  # my pending challenges to others
    positions: list[dict[str, Any]]  # {"ladder", "position", "of"}
    waiting_count: int = 0


def my_ladders(me: Player) -> MyLadders:
    """Four queries, however many challenges and ladders."""
    pending = list(
        Challenge.objects.filter(status=Challenge.Status.PENDING)
        .filter(Q(challenged=me) | Q(challenger=me))
        .select_related("ladder__league", "challenger", "challenged")
        .order_by("expires_at")[: 2 * CHALLENGES]
    )
    waiting = [c for c in pending if c.challenged_id == me.pk][:CHALLENGES]
    outgoing = [c for c in pending if c.challenger_id == me.pk][:CHALLENGES]
    positions = []
    mine = list(
        LadderMember.objects.filter(player=me).select_related("ladder__league").order_by("-joined")[:LADDERS]
    )
    places = event_reads.ladder_places([m.ladder for m in mine], me.pk)
    for m in mine:
        place, count = places[m.ladder_id]
        positions.append({"ladder": m.ladder, "place": ordinal(place) if place else "", "of": count})
    return MyLadders(waiting, outgoing, positions, len(waiting))


# ------------------------------------------------------------------ a table's place
@dataclass
class Belongs:
    text: str  # "Autumn Swiss · round 3 · board 2"
    url: str  # the event's or ladder's page


def table_belongs(table: Table) -> Belongs | None:
    """Which event round and board, which ladder challenge, or which ladder's matchmaking queue a
    table is for: one query."""
    links = (
        Table.objects.filter(pk=table.pk)
        .select_related(
            "round_table__round__tournament",
            "challenge__ladder__league",
            "challenge__challenger",
            "challenge__challenged",
            "queue_table__ladder__league",
        )
        .only(
            "pk",
            "round_table__number",
            "round_table__round__number",
            "round_table__round__tournament__name",
            "challenge__ladder__name",
            "challenge__ladder__game",
            "challenge__ladder__league__name",
            "challenge__challenger__display_name",
            "challenge__challenged__display_name",
            "queue_table__ladder__name",
            "queue_table__ladder__game",
            "queue_table__ladder__league__name",
        )
        .first()
    )
    rt = getattr(links, "round_table", None)
    if rt is not None:
        t = rt.round.tournament
        return Belongs(f"{t.name} · round {rt.round.number} · board {rt.number}", f"/tournaments/{t.pk}/")
    c = getattr(links, "challenge", None)
    if c is not None:
        return Belongs(
            f"{c.ladder}: challenge by {c.challenger.display_name} to {c.challenged.display_name}",
            f"/ladders/{c.ladder_id}/",
        )
    q = getattr(links, "queue_table", None)
    if q is not None:
        return Belongs(f"{q.ladder}: table from the matchmaking queue", f"/ladders/{q.ladder_id}/")
    return None


# ------------------------------------------------------------------ the no-show rule, in words
def clock_time(at: datetime, now: datetime) -> str:
    """A moment in the viewer's time zone (their setting, else UTC), as short as it can be:
    "12:34" today, "Tue 24 Nov 12:34" otherwise."""
    at, now = timezone.localtime(at), timezone.localtime(now)
    return at.strftime("%H:%M") if at.date() == now.date() else at.strftime("%a %d %b %H:%M")


@dataclass
class NoShowNote:
    before: str  # "If you do not move by"
    at: datetime  # the server's deadline
    at_text: str  # "12:34"
    after: str  # "(UTC) you lose this game (no-show)."


def no_show_note(table: Table, me: Player | None, now: datetime | None = None) -> NoShowNote | None:
    """What happens if the first move is not made in time (``Table.no_show``), said to the player
    on turn, to the other players, or neutrally to spectators; ``None`` once someone has moved,
    or when no deadline runs (untimed tables)."""
    if table.status != Table.Status.ACTIVE or table.ply != 0 or table.deadline is None:
        return None
    now = now or timezone.now()
    seats = list(table.seats.all())
    on_turn = next((s for s in seats if s.number == table.to_move), None)
    name = on_turn.player.display_name if on_turn else "the player on turn"
    seated = me is not None and any(s.player_id == me.pk for s in seats)
    mine = on_turn is not None and me is not None and on_turn.player_id == me.pk
    out = table.no_show == "timeout"
    at = clock_time(table.deadline, now)
    zone = timezone.get_current_timezone_name()
    if mine:
        before = "If you do not move by"
        after = f"({zone}) you lose this game (no-show)." if out else f"({zone}) the table is aborted."
    elif seated:
        before = f"If {name} does not move by"
        after = f"({zone}) {name} loses this game (no-show)." if out else f"({zone}) the table is aborted."
    else:
        before = f"{name}'s first move is due by"
        after = (
            f"({zone}); without it {name} is out of this game as a no-show."
            if out
            else f"({zone}); without it the table is aborted."
        )
    return NoShowNote(before, table.deadline, at, after)


def table_result_words(table: Table, moved_seats: set[int]) -> dict[str, Any]:
    """A table's outcome in words for its page: ``result`` (finished: ``ResultText``),
    ``aborted`` (why, in words) and ``seat_endings`` (seat number → "no-show (never moved)",
    "resigned", …, for the seats that are out). Three queries for a finished table, none else."""
    endings: dict[int, str] = {}
    for s in table.seats.all():
        if s.state == Seat.State.OUT:
            if s.elimination_reason == Seat.Reason.TIMEOUT and s.number not in moved_seats:
                endings[s.number] = SEAT_ENDINGS[Ending.NO_SHOW]
            else:
                endings[s.number] = s.get_elimination_reason_display()
    out: dict[str, Any] = {"result": None, "aborted": "", "seat_endings": endings}
    if table.status == Table.Status.FINISHED:
        names = {s.player_id: s.player.display_name for s in table.seats.all()}
        out["result"] = describe_tables([table.pk], names).get(table.pk)
    elif table.status == Table.Status.ABORTED:
        out["aborted"] = (
            TABLE_ENDINGS["aborted"] + " in time"
            if table.end_reason == "aborted"
            else "called off before it started"
        )
    return out


def display_ratings(game: str, player_ids: list[int]) -> dict[int, str]:
    """Player id → the rating as pages show it ("1620", "1500?" while provisional), one query."""
    rows = Rating.objects.filter(game=game, player_id__in=player_ids).values_list("player_id", "mu", "sigma")
    return {pid: rating_text(mu, sigma) for pid, mu, sigma in rows}
