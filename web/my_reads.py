"""What "My page" reads for a logged-in player, and what a table page says about where its game
belongs. Reads only: a fixed number of queries however many tables, events and challenges the
player has (the lists are bounded; finished events are read for the last few only).

The "your turn" rule is the site bar's (``web.context.site_bar``): an active table whose seat on
turn is the player's, still playing. My page lists every such table, so its count and the site
bar's agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Prefetch, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from common.site import site_url
from games import selectors as game_reads
from games.models import Player, Seat, Table
from games.results import Ending
from games.services.abandoned import ABANDONED
from games.wording import SEAT_ENDINGS, ResultText, describe_tables, names_list, ordinal, time_left_text
from ratings.display import text as rating_text
from ratings.models import Rating
from tournaments.calendar import agenda
from tournaments.calendar import feeds as calendar_feeds
from tournaments.competitions import selectors as event_reads
from tournaments.ladders import selectors as ladder_reads
from tournaments.models import (
    ArenaPlayer,
    Challenge,
    LadderMember,
    Registration,
    Round,
    RoundTable,
    Tournament,
)

#: How many of each list My page shows.
OTHER_TABLES = 20
FINISHED_TABLES = 5
FINISHED_EVENTS = 3
CHALLENGES = 20
#: Ladder placings are read for this many ladders (a rating ladder's place needs its members' ratings).
LADDERS = 10


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
    belongs: Belongs | None = None  # the event round or ladder the table is for (its tag)


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
        state = _("waiting for players (%(seated)d of %(players)d seated)") % {
            "seated": len(seats),
            "players": t.players,
        }
    elif your_turn:
        state = _("your turn")
    elif t.status == Table.Status.ACTIVE:
        name = names.get(t.to_move or 0)
        state = _("%(name)s to move") % {"name": name} if name is not None else _("nobody to move")
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
    """Nine queries at most, however many tables the player has."""
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
    # The event (and round) or ladder of each table, so two "Pacru vs Carol" tell apart: one query.
    listed = [*turn, *others, *waiting, *finished]
    tags = tables_belong([m.t.pk for m in listed])
    for m in listed:
        m.belongs = tags.get(m.t.pk)
    return MyTables(turn, others, waiting, finished)


def my_place_words(result: ResultText, me_id: int, players: int) -> str:
    """ "You won", "You shared 1st place", "2nd of 3 — Bob won"."""
    place = next((p for p in result.places if p.player_id == me_id), None)
    if place is None:
        return result.headline
    winners = [p for p in result.places if p.place == 1]
    if place.place == 1:
        return _("You won") if len(winners) == 1 else _("You shared 1st place")
    # Translators: "2nd of 3 — Bob won": the reader's place, the number of players, the result.
    return _("%(place)s of %(players)d — %(result)s") % {
        "place": place.word,
        "players": players,
        "result": result.headline,
    }


# ------------------------------------------------------------------ my events
@dataclass
class MyEvent:
    t: Tournament
    text: str  # the next round in words
    table: Table | None = None  # my table of the current round, when it is still to be played
    your_turn: bool = False


def _scheduled_text(t: Tournament, reg: Registration) -> MyEvent:
    """An event that starts by itself at its time (the reader's zone)."""
    assert t.starts_at is not None
    words = {"when": date_format(timezone.localtime(t.starts_at), "DATETIME_FORMAT")}
    if getattr(t, "division", None) is not None:  # a season's division: players are placed there
        return MyEvent(t, _("a division of the season: starts at %(when)s") % words)
    if not t.check_in:
        return MyEvent(t, _("registration open, starts at %(when)s") % words)
    if reg.status == Registration.Status.CHECKED_IN:
        return MyEvent(t, _("registration open, starts at %(when)s — you are checked in") % words)
    opens = t.starts_at - timedelta(minutes=t.check_in_minutes)
    words["opens"] = date_format(timezone.localtime(opens), "TIME_FORMAT")
    return MyEvent(
        t,
        _("registration open, starts at %(when)s — check in from %(opens)s, or you are not paired") % words,
    )


def _event_text(
    t: Tournament, reg: Registration, rnd: Round | None, rt: RoundTable | None, me: Player
) -> MyEvent:
    if t.status == Tournament.Status.REGISTRATION and t.starts_at is not None:
        return _scheduled_text(t, reg)
    if t.status == Tournament.Status.REGISTRATION:
        if not t.check_in:
            return MyEvent(t, _("registration open, starts when the organiser starts it"))
        if reg.status == Registration.Status.CHECKED_IN:
            return MyEvent(
                t, _("registration open, starts when the organiser starts it — you are checked in")
            )
        return MyEvent(
            t,
            _(
                "registration open, starts when the organiser starts it — check in before it starts, "
                "or you are not paired"
            ),
        )
    if t.format == Tournament.Format.ARENA and t.ends_at is not None:  # no rounds: the time left
        row = ArenaPlayer.objects.filter(tournament=t, player=me).select_related("table").first()
        said = {"left": time_left_text((t.ends_at - timezone.now()).total_seconds())}
        table = row.table if row is not None and row.table is not None else None
        if table is not None and table.status in (Table.Status.OPEN, Table.Status.ACTIVE):
            return MyEvent(t, _("arena, ends in %(left)s: your table is ready") % said, table)
        return MyEvent(t, _("arena, ends in %(left)s: waiting for your next table") % said)
    number = t.current_round
    if rnd is None:
        return MyEvent(t, _("starting: the first round is being paired"))
    # The round in words starts each sentence below: "round 2 of 5 running: …".
    if t.rounds:
        head = _("round %(number)d of %(rounds)d") % {"number": number, "rounds": t.rounds}
    else:
        head = _("round %(number)d") % {"number": number}
    said = {"round": head, "number": number, "next": number + 1}
    if rnd.status == Round.Status.FINISHED:
        if t.paused:
            # Translators: %(round)s is "round 2 of 5" (or "round 2"); %(next)d the next round's number.
            text = _("%(round)s finished; the organiser paused the event before round %(next)d")
            return MyEvent(t, text % said)
        # Translators: %(round)s is "round 2 of 5" (or "round 2"); %(next)d the next round's number.
        text = _("%(round)s finished: waiting for round %(next)d to be paired")
        return MyEvent(t, text % said)
    if rt is not None:
        table = rt.table
        others = names_list([s.player.display_name for s in table.seats.all() if s.player_id != me.pk])
        said.update(board=rt.number, others=others)
        if table.status in (Table.Status.OPEN, Table.Status.ACTIVE):
            mine = next((s for s in table.seats.all() if s.player_id == me.pk), None)
            if mine is not None and mine.state == Seat.State.OUT:
                # Translators: %(round)s is "round 2 of 5" (or "round 2"); %(number)d is its number.
                text = _(
                    "%(round)s running: you are out at board %(board)d; "
                    "waiting for round %(number)d to finish"
                )
                return MyEvent(t, text % said)
            turn = table.status == Table.Status.ACTIVE and mine is not None and table.to_move == mine.number
            if turn:
                # Translators: %(round)s is "round 2 of 5"; %(others)s the opponents ("Bob and Carol").
                text = _("%(round)s running: your game vs %(others)s (board %(board)d) is ready: your move")
            elif table.ply == 0:
                # Translators: %(round)s is "round 2 of 5"; %(others)s the opponents ("Bob and Carol").
                text = _("%(round)s running: your game vs %(others)s (board %(board)d) is ready")
            else:
                # Translators: %(round)s is "round 2 of 5"; %(others)s the opponents ("Bob and Carol").
                text = _("%(round)s running: your game vs %(others)s (board %(board)d) is in play")
            return MyEvent(t, text % said, table, turn)
        # Translators: %(round)s is "round 2 of 5" (or "round 2"); %(number)d is its number.
        text = _("%(round)s running: you have played; waiting for round %(number)d to finish")
        return MyEvent(t, text % said)
    if me.pk in (rnd.byes or []):
        # Translators: %(round)s is "round 2 of 5" (or "round 2"); %(number)d is its number.
        text = _("%(round)s running: you have a bye; waiting for round %(number)d to finish")
        return MyEvent(t, text % said)
    # Translators: %(round)s is "round 2 of 5" (or "round 2").
    text = _("%(round)s running: you do not play this round")
    return MyEvent(t, text % said)


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
        .select_related("tournament__league", "tournament__division")
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
            text = pgettext("a player's result in an event", "withdrawn")
        elif not place:
            text = pgettext("a player's result in an event", "not placed")
        else:
            # Translators: a final place in an event: "2nd of 8".
            text = _("%(place)s of %(count)d") % {"place": ordinal(place), "count": of}
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
    places = ladder_reads.ladder_places([m.ladder for m in mine], me.pk)
    for m in mine:
        place, count = places[m.ladder_id]
        positions.append({"ladder": m.ladder, "place": ordinal(place) if place else "", "of": count})
    return MyLadders(waiting, outgoing, positions, len(waiting))


# ------------------------------------------------------------------ a table's place
@dataclass
class Belongs:
    text: str  # "Autumn Swiss · round 3 · board 2"
    url: str  # the event's or ladder's page
    kind: str = "event"  # "event" or "ladder": the table page's "Back to the event/ladder"
    tag: str = ""  # short, for lists: "Autumn Swiss, round 3" or "Club ladder"


def table_belongs(table: Table) -> Belongs | None:
    """Which event round and board, which ladder challenge, or which ladder's matchmaking queue a
    table is for: one query."""
    return tables_belong([table.pk]).get(table.pk)


def tables_belong(table_ids: list[int]) -> dict[int, Belongs]:
    """:func:`table_belongs` for many tables (My tables' tags): one query however many."""
    if not table_ids:
        return {}
    rows = (
        Table.objects.filter(pk__in=table_ids)
        .select_related(
            "round_table__round__tournament",
            "challenge__ladder__league",
            "challenge__challenger",
            "challenge__challenged",
            "queue_table__ladder__league",
            "arena_table__tournament",
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
            "arena_table__tournament__name",
        )
    )
    out = {}
    for links in rows:
        belongs = _belongs(links)
        if belongs is not None:
            out[links.pk] = belongs
    return out


def _belongs(links: Table) -> Belongs | None:
    rt = getattr(links, "round_table", None)
    if rt is not None:
        t = rt.round.tournament
        said = {"event": t.name, "round": rt.round.number, "board": rt.number}
        # Translators: "Autumn Swiss · round 3 · board 2": the event's name, its round and board.
        text = _("%(event)s · round %(round)d · board %(board)d") % said
        # Translators: a tag in a list of tables: "Autumn Swiss, round 3".
        tag = _("%(event)s, round %(round)d") % said
        return Belongs(text, f"/tournaments/{t.pk}/", "event", tag)
    c = getattr(links, "challenge", None)
    if c is not None:
        # Translators: "Club ladder: challenge by Bob to Alice".
        text = _("%(ladder)s: challenge by %(challenger)s to %(challenged)s") % {
            "ladder": c.ladder,
            "challenger": c.challenger.display_name,
            "challenged": c.challenged.display_name,
        }
        return Belongs(text, f"/ladders/{c.ladder_id}/", "ladder", str(c.ladder))
    q = getattr(links, "queue_table", None)
    if q is not None:
        text = _("%(ladder)s: table from the matchmaking queue") % {"ladder": q.ladder}
        return Belongs(text, f"/ladders/{q.ladder_id}/", "ladder", str(q.ladder))
    a = getattr(links, "arena_table", None)
    if a is not None:  # an arena's table: no rematch there, the way back to the arena instead
        # Translators: "Friday Arena (arena)": an arena tournament's name, then the word for the format.
        text = _("%(event)s (arena)") % {"event": a.tournament.name}
        return Belongs(text, f"/tournaments/{a.tournament_id}/", "event", a.tournament.name)
    return None


# ------------------------------------------------------------------ the no-show rule, in words
def clock_time(at: datetime, now: datetime) -> str:
    """A moment in the viewer's time zone (their setting, else UTC), as short as it can be:
    "12:34" today, "Tue 24 Nov 12:34" otherwise (day and month names in the active language)."""
    at, now = timezone.localtime(at), timezone.localtime(now)
    return date_format(at, "H:i") if at.date() == now.date() else date_format(at, "D d M H:i")


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
    name = on_turn.player.display_name if on_turn else _("the player on turn")
    seated = me is not None and any(s.player_id == me.pk for s in seats)
    mine = on_turn is not None and me is not None and on_turn.player_id == me.pk
    out = table.no_show == "timeout"
    # Each note is one sentence for translators, cut at %(time)s: the page shows the time there
    # in a <time> element.
    if mine:
        if out:
            # Translators: %(time)s is a clock time ("12:34"), %(zone)s its time zone ("UTC").
            text = _("If you do not move by %(time)s (%(zone)s) you lose this game (no-show).")
        else:
            # Translators: %(time)s is a clock time ("12:34"), %(zone)s its time zone ("UTC").
            text = _("If you do not move by %(time)s (%(zone)s) the table is aborted.")
    elif seated:
        if out:
            # Translators: %(name)s is the player on turn; %(time)s a clock time, %(zone)s its time zone.
            text = _("If %(name)s does not move by %(time)s (%(zone)s) %(name)s loses this game (no-show).")
        else:
            # Translators: %(name)s is the player on turn; %(time)s a clock time, %(zone)s its time zone.
            text = _("If %(name)s does not move by %(time)s (%(zone)s) the table is aborted.")
    elif out:
        # Translators: %(name)s is the player on turn; %(time)s a clock time, %(zone)s its time zone.
        text = _(
            "%(name)s's first move is due by %(time)s (%(zone)s); "
            "without it %(name)s is out of this game as a no-show."
        )
    else:
        # Translators: %(name)s is the player on turn; %(time)s a clock time, %(zone)s its time zone.
        text = _("%(name)s's first move is due by %(time)s (%(zone)s); without it the table is aborted.")
    cut = "\x00"
    zone = timezone.get_current_timezone_name()
    before, _sep, after = (text % {"name": name, "time": cut, "zone": zone}).partition(cut)
    return NoShowNote(before.rstrip(), table.deadline, clock_time(table.deadline, now), after.lstrip())


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
        out["aborted"] = aborted_words(table)
    return out


def aborted_words(table: Table) -> str:
    """Why an aborted table ended, always with the one word "aborted" (never "called off"):
    the first move not made in time, abandoned by its guest (``games.services.abandoned``), or
    left by everyone before it started."""
    if table.end_reason == "aborted":
        return _("aborted: nobody moved in time")
    if table.end_reason == ABANDONED:
        hours = settings.ABANDONED_GUEST_TABLE_HOURS
        # Translators: a guest left a game against the bots; %(hours)s is a number of hours ("24").
        return _("aborted: abandoned, no move for %(hours)s hours; not rated") % {"hours": f"{hours:g}"}
    return _("aborted before it started")


def display_ratings(game: str, player_ids: list[int]) -> dict[int, str]:
    """Player id → the rating as pages show it ("1620", "1500?" while provisional), one query."""
    rows = Rating.objects.filter(game=game, player_id__in=player_ids).values_list("player_id", "mu", "sigma")
    return {pid: rating_text(mu, sigma) for pid, mu, sigma in rows}


# ------------------------------------------------------------------ what's next (the calendar)
@dataclass
class NextThing:
    item: Any  # tournaments.calendar.agenda.Item
    countdown: str  # "2 days 3 h"


@dataclass
class WhatsNext:
    event: NextThing | None  # my next event's start
    season_round: NextThing | None  # my next season round (with my division)
    deadlines: list[NextThing]  # my next round deadlines and correspondence moves due
    feed_url: str  # my private calendar feed


#: Deadlines "What's next" shows.
DEADLINES = 3


def whats_next(me: Player, now: datetime | None = None) -> WhatsNext:
    """My next event start, season round and deadlines (``tournaments.calendar.agenda``), and the
    address of my private feed (created the first time)."""
    now = now or timezone.now()
    items = [i for i in agenda.player_items(me, now=now) if i.starts >= now and not i.cancelled]

    def thing(i: Any) -> NextThing:
        return NextThing(i, time_left_text((i.starts - now).total_seconds()))

    first = agenda.next_of_each(items, now=now)
    event = first.get("event") or first.get("occurrence")
    if first.get("event") and first.get("occurrence"):
        event = min(first["event"], first["occurrence"], key=lambda i: i.starts)
    deadlines = [i for i in items if i.kind in ("round_deadline", "move_deadline")][:DEADLINES]
    feed = calendar_feeds.feed_for(player=me)
    return WhatsNext(
        event=thing(event) if event else None,
        season_round=thing(first["season_round"]) if "season_round" in first else None,
        deadlines=[thing(i) for i in deadlines],
        feed_url=site_url(reverse("calendar-feed", args=[feed.secret])),
    )
