"""What the ladder page shows, read in a fixed number of queries however many members, challenges
and finished games the ladder has.

Whether the viewer may challenge each member comes from
:func:`tournaments.ladders.services.challenge_refusal`, the same check
:func:`~tournaments.ladders.services.challenge_create` makes, so the page and the service agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.models import Player, Seat, Table
from games.wording import describe_tables
from ratings.models import Rating

from ..models import Challenge, Ladder, QueueEntry, QueueTable
from . import selectors, services

#: Finished ladder games listed on the page (the latest).
HISTORY = 30


@dataclass
class Row:
    position: int
    player_id: int
    name: str
    rating: Rating | None
    games: int
    last_played: datetime | None
    me: bool = False
    can_challenge: bool = False
    reason: str = ""  # why the viewer may not challenge this player, in a few words


@dataclass
class OpenChallenge:
    pk: int
    challenger: str
    challenged: str
    opponent: str  # for the viewer's own challenges: the other player
    expires: str  # "in 2 days, 3 hours"
    table_id: int | None = None
    mine: bool = False  # the viewer is one of the two


@dataclass
class Waiting:
    name: str
    player_id: int
    since: datetime
    waited: str  # "3 minutes"


@dataclass
class Game:
    table_id: int | None
    at: datetime | None
    kind: str  # "challenge", "queue table", "forfeit"
    text: str  # "Alice beat Bob", "1st Alice · 2nd Bob · 3rd Carol"
    ending: str  # "Bob: resigned", "reached the marker target"
    moved: str = ""  # "Alice took Bob's place"


@dataclass
class LadderView:
    ladder: Ladder
    rules: str
    rows: list[Row]
    viewer: Player | None
    member: bool
    my_place: int | None
    incoming: list[OpenChallenge] = field(default_factory=list)
    outgoing: list[OpenChallenge] = field(default_factory=list)
    pending: list[OpenChallenge] = field(default_factory=list)
    playing: list[OpenChallenge] = field(default_factory=list)
    may_decline: bool = True
    decline_note: str = ""
    queue: list[Waiting] = field(default_factory=list)
    in_queue: bool = False
    #: The viewer's table that this ladder's queue formed and that is not over yet (the page links
    #: to it instead of offering the queue, and a live page goes there).
    my_table: int | None = None
    wait: str = ""
    wait_how: str = ""
    history: list[Game] = field(default_factory=list)
    more_history: bool = False


def _duration(seconds: float) -> str:
    """ "45 seconds", "5 minutes", "2 hours"."""
    seconds = max(0, round(seconds))
    if seconds < 90:
        return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    if seconds < 90 * 60:
        minutes = round(seconds / 60)
        return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    hours = round(seconds / 3600)
    return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}


def _count(value: float) -> int:
    """The count that picks the plural form for ``value`` (a number of days or hours that may have
    a fraction: 2.5 days take the form of 2, as in Russian "2,5 дня")."""
    return int(value) if value == int(value) else 2


def _number(value: float) -> str:
    """3.0 -> "3", 2.5 -> "2.5" (with the language's decimal separator)."""
    return number_format(int(value) if value == int(value) else value)


def _days(value: float) -> str:
    return ngettext("%(n)s day", "%(n)s days", _count(value)) % {"n": _number(value)}


def _hours(value: float) -> str:
    return ngettext("%(n)s hour", "%(n)s hours", _count(value)) % {"n": _number(value)}


def _matchmaking_every() -> float:
    """How often the housekeeping forms queue tables (seconds)."""
    beat: dict[str, Any] = getattr(settings, "CELERY_BEAT_SCHEDULE", {}).get("ladder-housekeeping", {})
    every = beat.get("schedule", 10.0)
    return float(every) if isinstance(every, int | float) else 10.0


def rules_text(ladder: Ladder) -> str:
    """The ladder's rules in a sentence or two."""
    clock = ladder.time_control_text
    if ladder.seats > 2:
        return _(
            "Tables of %(seats)d, %(clock)s, rated. Join the queue: a table forms from the players "
            "waiting once they are evenly matched by rating; whoever has waited "
            "%(wait)s is seated at the best table there is, even or not."
        ) % {"seats": ladder.seats, "clock": clock, "wait": _duration(ladder.queue_wait_seconds)}
    if ladder.challenge_places:
        reach = ngettext(
            "Tables of 2, %(clock)s, rated. Challenge anyone up to %(n)d place above you.",
            "Tables of 2, %(clock)s, rated. Challenge anyone up to %(n)d places above you.",
            ladder.challenge_places,
        ) % {"clock": clock, "n": ladder.challenge_places}
    else:
        reach = _(
            "Tables of 2, %(clock)s, rated. Challenge anyone up to 10 places above you (or 40 %% of the "
            "places above you, if that is more)."
        ) % {"clock": clock}
    days = _days(ladder.challenge_days)
    if ladder.kind == Ladder.Kind.POSITION:
        order = ngettext(
            "A challenger who wins takes the place; a challenge not answered within %(days)s is a forfeit "
            "(the challenger takes the place). Each player may decline at most %(n)d challenge in "
            "%(period)s.",
            "A challenger who wins takes the place; a challenge not answered within %(days)s is a forfeit "
            "(the challenger takes the place). Each player may decline at most %(n)d challenges in "
            "%(period)s.",
            ladder.max_declines,
        ) % {"days": days, "n": ladder.max_declines, "period": _days(ladder.decline_period_days)}
    else:
        order = _("The ladder is ordered by rating; a challenge not answered within %(days)s expires.") % {
            "days": days
        }
    most = ngettext(
        "At most %(n)d open challenge each (made or received); after a decline, wait %(hours)s before "
        "challenging that player again.",
        "At most %(n)d open challenges each (made or received); after a decline, wait %(hours)s before "
        "challenging that player again.",
        ladder.max_open_challenges,
    ) % {"n": ladder.max_open_challenges, "hours": _hours(ladder.decline_cooldown_hours)}
    return " ".join((reach, order, most))


def _wait(ladder: Ladder, queue: list[Waiting], now: datetime) -> tuple[str, str]:
    """An estimated wait for the queue in words, and how it is estimated."""
    seats, limit, every = ladder.seats, ladder.queue_wait_seconds, _matchmaking_every()
    how = _(
        "Estimated from the queue: matchmaking runs about every %(every)s; it seats "
        "evenly matched players at once, and seats whoever has waited %(limit)s at the "
        "best table there is."
    ) % {"every": _duration(every), "limit": _duration(limit)}
    n = len(queue)
    if n == 0:
        return ngettext(
            "Nobody is waiting: a table needs %(seats)d player.",
            "Nobody is waiting: a table needs %(seats)d players.",
            seats,
        ) % {"seats": seats}, how
    if n < seats:
        more = seats - n
        return (
            ngettext(
                "%(n)d more player needed for a table of %(seats)d; once they join, a table forms within "
                "about %(wait)s.",
                "%(n)d more players needed for a table of %(seats)d; once they join, a table forms within "
                "about %(wait)s.",
                more,
            )
            % {"n": more, "seats": seats, "wait": _duration(limit + every)},
            how,
        )
    longest = (now - queue[0].since).total_seconds()
    left = max(0.0, limit - longest) + every
    return ngettext(
        "%(n)d waiting for tables of %(seats)d: the next table forms within about %(wait)s.",
        "%(n)d waiting for tables of %(seats)d: the next table forms within about %(wait)s.",
        n,
    ) % {"n": n, "seats": seats, "wait": _duration(left)}, how


def _expires(at: datetime, now: datetime) -> str:
    if at > now:
        # Translators: when an open challenge expires: "in 2 days, 3 hours".
        return _("in %(time)s") % {"time": timeuntil(at, now)}
    return _("now (the housekeeping will close it)")


def _challenge_history(ladder: Ladder) -> tuple[list[Game], bool]:
    finished = Q(status=Challenge.Status.ACCEPTED, table__status=Table.Status.FINISHED)
    forfeits = Q(outcome=Challenge.Outcome.FORFEIT)
    found = list(
        Challenge.objects.filter(ladder=ladder)
        .filter(finished | forfeits)
        .select_related("challenger", "challenged")
        .annotate(at=Coalesce("table__finished_at", "expires_at"))
        .order_by("-at", "-pk")[: HISTORY + 1]
    )
    more, found = len(found) > HISTORY, found[:HISTORY]
    names: dict[int, str] = {}
    for c in found:
        names[c.challenger_id] = c.challenger.display_name
        names[c.challenged_id] = c.challenged.display_name
    results = describe_tables([c.table_id for c in found if c.table_id], names)
    position = ladder.kind == Ladder.Kind.POSITION
    games = []
    for c in found:
        a, b = c.challenger.display_name, c.challenged.display_name
        took = (
            _("%(challenger)s took %(challenged)s's place") % {"challenger": a, "challenged": b}
            if position
            else ""
        )
        if c.outcome == Challenge.Outcome.FORFEIT:
            games.append(
                Game(
                    None,
                    c.at,
                    pgettext("ladder game", "forfeit"),
                    _("%(challenged)s did not answer %(challenger)s's challenge in time")
                    % {"challenger": a, "challenged": b},
                    "",
                    took,
                )
            )
            continue
        r = results.get(c.table_id) if c.table_id else None
        if r is None:
            continue
        first, second = r.places[0], r.places[-1]
        drew = first.place == second.place
        if drew:
            text = _("%(challenger)s and %(challenged)s drew") % {"challenger": a, "challenged": b}
        else:
            text = _("%(winner)s beat %(loser)s") % {"winner": first.name, "loser": second.name}
        moved = took if c.outcome == Challenge.Outcome.CHALLENGER else ""
        games.append(Game(c.table_id, c.at, pgettext("ladder game", "challenge"), text, r.ending, moved))
    return games, more


def _queue_history(ladder: Ladder) -> tuple[list[Game], bool]:
    """The finished tables the ladder's matchmaking queue formed, newest first."""
    found = list(
        Table.objects.filter(queue_table__ladder=ladder, status=Table.Status.FINISHED)
        .order_by("-finished_at", "-pk")
        .values_list("pk", "finished_at")[: HISTORY + 1]
    )
    more, found = len(found) > HISTORY, found[:HISTORY]
    results = describe_tables([pk for pk, _ in found])
    games = []
    for pk, at in found:
        r = results.get(pk)
        if r is not None:
            text = " · ".join(
                pgettext("a place and the player in it", "%(place)s %(name)s")
                % {"place": p.word, "name": p.name}
                for p in r.places
            )
            games.append(Game(pk, at, pgettext("ladder game", "queue table"), text, r.ending))
    return games, more


def _queue_table_of(ladder: Ladder, player_id: int | None) -> int | None:
    """The newest table of ``player_id`` that this ladder's queue formed, still open or under way
    with them still in the game (one query; none for a visitor). While there is one the page
    links to it instead of offering the queue again."""
    if player_id is None:
        return None
    found = (
        QueueTable.objects.filter(
            ladder=ladder,
            table__seats__player_id=player_id,
            table__seats__state=Seat.State.PLAYING,
            table__status__in=[Table.Status.OPEN, Table.Status.ACTIVE],
        )
        .order_by("-table_id")
        .values_list("table_id", flat=True)
        .first()
    )
    return int(found) if found is not None else None


def ladder_view(ladder_id: int, viewer: Player | None) -> LadderView:
    """Everything the ladder page shows to ``viewer`` (``None``: an anonymous visitor)."""
    ladder = selectors.ladder(ladder_id)
    now = timezone.now()
    order = selectors.ladder_order(ladder)
    rows = _rows(ladder, order, viewer)
    my_place = next((r.position for r in rows if r.me), None)
    view = LadderView(
        ladder=ladder,
        rules=rules_text(ladder),
        rows=rows,
        viewer=viewer,
        member=my_place is not None,
        my_place=my_place,
    )
    if ladder.seats == 2:
        _add_challenges(view, order, now)
    else:
        _add_queue(view, now)
    return view


def _rows(ladder: Ladder, order: list[dict[str, Any]], viewer: Player | None) -> list[Row]:
    """The ladder's members in ladder order, with their ratings in its game (one query)."""
    ratings = {
        r.player_id: r
        for r in Rating.objects.filter(game=ladder.game, player_id__in=[row["player"] for row in order])
    }
    me = viewer.pk if viewer is not None else None
    return [
        Row(
            position=row["position"],
            player_id=row["player"],
            name=row["display_name"],
            rating=ratings.get(row["player"]),
            games=row["games"],
            last_played=row["last_played"],
            me=row["player"] == me,
        )
        for row in order
    ]


def _add_challenges(view: LadderView, order: list[dict[str, Any]], now: datetime) -> None:
    """A two-seat ladder's side: the open challenges, whom a member may challenge, how many more
    challenges they may decline, and the finished challenges."""
    ladder, viewer = view.ladder, view.viewer
    open_now = list(
        services.open_challenges_of(ladder=ladder)
        .select_related("challenger", "challenged")
        .order_by("-created", "-pk")
    )
    _sort_challenges(view, open_now, now)
    if viewer is not None and view.member:
        _mark_challengeable(view, viewer, order, open_now, now)
        if ladder.kind == Ladder.Kind.POSITION and view.incoming:
            _add_decline_note(view, viewer, now)
    view.history, view.more_history = _challenge_history(ladder)


def _sort_challenges(view: LadderView, open_now: list[Challenge], now: datetime) -> None:
    """Put each open challenge in its lists: being played, or pending (and the viewer's incoming or
    outgoing)."""
    me = view.viewer.pk if view.viewer is not None else None
    for c in open_now:
        a, b = c.challenger.display_name, c.challenged.display_name
        item = OpenChallenge(c.pk, a, b, b if c.challenger_id == me else a, _expires(c.expires_at, now))
        item.mine = me in (c.challenger_id, c.challenged_id)
        if c.status == Challenge.Status.ACCEPTED:
            item.table_id = c.table_id
            view.playing.append(item)
            continue
        view.pending.append(item)
        if c.challenged_id == me:
            view.incoming.append(item)
        elif c.challenger_id == me:
            view.outgoing.append(item)


def _mark_challengeable(
    view: LadderView,
    viewer: Player,
    order: list[dict[str, Any]],
    open_challenges: list[Challenge],
    now: datetime,
) -> None:
    """Whether the viewer may challenge each other member, or why not (the service's own check)."""
    rules = services.challenge_rules(
        ladder=view.ladder,
        challenger=viewer,
        order=order,
        open_challenges=[(c.challenger_id, c.challenged_id, c.status) for c in open_challenges],
        now=now,
    )
    for row in view.rows:
        if row.me:
            continue
        refusal = services.challenge_refusal(rules=rules, challenged_id=row.player_id, name=row.name)
        row.can_challenge, row.reason = refusal is None, refusal.short if refusal else ""


def _add_decline_note(view: LadderView, viewer: Player, now: datetime) -> None:
    """How many more challenges the viewer may decline in the ladder's period (none: they may not)."""
    ladder = view.ladder
    declined = services.recent_declines(ladder=ladder, player=viewer, now=now)
    period = _days(ladder.decline_period_days)
    if declined >= ladder.max_declines:
        view.may_decline = False
        view.decline_note = ngettext(
            "You have declined %(n)d challenge in the last %(period)s, the most this ladder "
            "allows: accept, or the challenge expires as a forfeit.",
            "You have declined %(n)d challenges in the last %(period)s, the most this ladder "
            "allows: accept, or the challenge expires as a forfeit.",
            declined,
        ) % {"n": declined, "period": period}
    else:
        left = ladder.max_declines - declined
        view.decline_note = ngettext(
            "You may decline %(n)d more challenge in %(period)s.",
            "You may decline %(n)d more challenges in %(period)s.",
            left,
        ) % {"n": left, "period": period}


def _add_queue(view: LadderView, now: datetime) -> None:
    """A matchmaking ladder's side: who waits in the queue, the viewer's table, the expected wait,
    and the finished queue tables."""
    ladder = view.ladder
    me = view.viewer.pk if view.viewer is not None else None
    entries = QueueEntry.objects.filter(ladder=ladder).select_related("player").order_by("joined", "pk")
    view.queue = [
        Waiting(e.player.display_name, e.player_id, e.joined, _duration((now - e.joined).total_seconds()))
        for e in entries
    ]
    view.in_queue = any(w.player_id == me for w in view.queue)
    view.my_table = _queue_table_of(ladder, me)
    view.wait, view.wait_how = _wait(ladder, view.queue, now)
    view.history, view.more_history = _queue_history(ladder)
