"""Club ladders: order by rating, challenges for 2-player ladders, a matchmaking queue for 3–4.

* The ladder's order is the members' conservative TrueSkill rating (μ − 3σ)
  for the ladder's game, best first; members without a rated table yet stand
  below everyone rated, in joining order.
* **Challenges** (2 seats): a member may challenge anyone up to N places above
  them. N is the ladder's ``challenge_places`` or, by default, the widest of
  10 places and 40 % of the places above the challenger (so a long ladder
  allows longer reaches). A challenge unanswered within ``challenge_days``
  expires (the periodic housekeeping). Accepting creates a rated 2-player
  table with the ladder's time control; the lower-placed player moves first.
* **Queue** (3–4 seats): members queue; the housekeeping forms tables of the
  ladder's size from the queue, longest-waiting first, choosing among the
  next candidates the group with the best TrueSkill match quality; while the
  longest-waiting player has waited less than ``queue_wait_seconds`` only a
  group whose quality reaches the size-aware fair threshold is accepted, after
  that the best available group is taken (a bounded wait).
"""

from __future__ import annotations

import itertools
import math
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games import services as games
from games.clocks import TimeControl
from games.models import GameKind, Player, Table
from ratings import environment
from ratings.models import Rating

from .models import Challenge, Ladder, LadderMember, League, QueueEntry
from .pairing import assign_seats
from .selectors import ladder_order
from .services import require_organiser

CANDIDATES = 12  # matchmaking looks this far down the queue for each table


@transaction.atomic
def ladder_create(
    *,
    organiser: Player,
    league: League,
    game: str,
    seats: int = 2,
    name: str = "",
    time_control: dict[str, Any] | None = None,
    challenge_places: int = 0,
    challenge_days: float = 3,
) -> Ladder:
    require_organiser(league, organiser)
    if game not in GameKind.values or seats not in (2, 3, 4):
        raise InvalidInput("a ladder needs a game (shacru, azacru, pacru) and 2 to 4 seats")
    if Ladder.objects.filter(league=league, game=game).exists():
        raise Conflict(f"{league.name} has a {game} ladder already")
    try:
        tc = TimeControl.from_dict(time_control)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    return Ladder.objects.create(
        league=league,
        game=game,
        seats=seats,
        name=name,
        time_control=tc.to_dict(),
        challenge_places=challenge_places,
        challenge_days=challenge_days,
    )


def ladder_join(*, ladder: Ladder, player: Player) -> LadderMember:
    ladder.league.members.add(player)
    member, created = LadderMember.objects.get_or_create(ladder=ladder, player=player)
    if not created:
        raise Conflict("you are on this ladder already")
    return member


def ladder_leave(*, ladder: Ladder, player: Player) -> None:
    if not LadderMember.objects.filter(ladder=ladder, player=player).delete()[0]:
        raise Conflict("you are not on this ladder")
    QueueEntry.objects.filter(ladder=ladder, player=player).delete()
    Challenge.objects.filter(ladder=ladder, status=Challenge.Status.PENDING).filter(challenger=player).update(
        status=Challenge.Status.CANCELLED
    )


def reach(ladder: Ladder, position: int) -> int:
    """How many places above ``position`` (1 = top) its holder may challenge."""
    if ladder.challenge_places:
        return ladder.challenge_places
    return max(10, math.floor(0.4 * (position - 1)))


@transaction.atomic
def challenge_create(*, ladder: Ladder, challenger: Player, challenged: Player) -> Challenge:
    if ladder.seats != 2:
        raise Conflict("this ladder plays at tables of more than two: join its queue instead")
    order = {row["player"]: row["position"] for row in ladder_order(ladder)}
    if challenger.pk not in order:
        raise Forbidden("join the ladder before challenging")
    if challenged.pk not in order:
        raise InvalidInput(f"{challenged} is not on this ladder")
    mine, theirs = order[challenger.pk], order[challenged.pk]
    if theirs >= mine:
        raise InvalidInput("you can challenge only players above you")
    if mine - theirs > reach(ladder, mine):
        raise InvalidInput(
            f"from place {mine} you can challenge up to {reach(ladder, mine)} places above you"
        )
    if Challenge.objects.filter(
        ladder=ladder, status=Challenge.Status.PENDING, challenger=challenger, challenged=challenged
    ).exists():
        raise Conflict("you have challenged this player already")
    expires = timezone.now() + timedelta(days=ladder.challenge_days)
    return Challenge.objects.create(
        ladder=ladder, challenger=challenger, challenged=challenged, expires_at=expires
    )


def _pending(challenge_id: int) -> Challenge:
    c = Challenge.objects.select_for_update().select_related("ladder").filter(pk=challenge_id).first()
    if c is None:
        raise NotFound(f"there is no challenge {challenge_id}")
    if c.status != Challenge.Status.PENDING:
        raise Conflict(f"the challenge is {c.status}")
    if c.expires_at <= timezone.now():
        c.status = Challenge.Status.EXPIRED
        c.save(update_fields=["status"])
        raise Conflict("the challenge has expired")
    return c


@transaction.atomic
def challenge_accept(*, challenge_id: int, by: Player) -> Table:
    c = _pending(challenge_id)
    if by.pk != c.challenged_id:
        raise Forbidden("only the challenged player may accept")
    table = games.table_create(
        creator=c.challenged,
        game=c.ladder.game,
        players=2,
        join=False,
        time_control=c.ladder.time_control,
        rated=True,
    )
    games.seat_join(table_id=table.pk, player=c.challenger, seat=1)
    games.seat_join(table_id=table.pk, player=c.challenged, seat=2)
    c.status = Challenge.Status.ACCEPTED
    c.table = table
    c.save(update_fields=["status", "table"])
    table.refresh_from_db()
    return table


@transaction.atomic
def challenge_answer(*, challenge_id: int, by: Player, decision: str) -> Challenge:
    """Decline (the challenged player) or cancel (the challenger) a pending challenge."""
    c = _pending(challenge_id)
    if decision == "decline" and by.pk == c.challenged_id:
        c.status = Challenge.Status.DECLINED
    elif decision == "cancel" and by.pk == c.challenger_id:
        c.status = Challenge.Status.CANCELLED
    else:
        raise Forbidden("only the challenged player may decline, and only the challenger may cancel")
    c.save(update_fields=["status"])
    return c


def expire_challenges() -> int:
    return Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=timezone.now()).update(
        status=Challenge.Status.EXPIRED
    )


def queue_join(*, ladder: Ladder, player: Player) -> QueueEntry:
    if ladder.seats == 2:
        raise Conflict("this is a 2-player ladder: challenge someone instead")
    if not LadderMember.objects.filter(ladder=ladder, player=player).exists():
        raise Forbidden("join the ladder before queueing")
    entry, created = QueueEntry.objects.get_or_create(ladder=ladder, player=player)
    if not created:
        raise Conflict("you are in the queue already")
    return entry


def queue_leave(*, ladder: Ladder, player: Player) -> None:
    QueueEntry.objects.filter(ladder=ladder, player=player).delete()


@transaction.atomic
def matchmake(ladder: Ladder, now: Any = None) -> list[Table]:
    """Form as many tables as the queue allows (see the module's rules)."""
    now = now or timezone.now()
    queue = list(QueueEntry.objects.select_for_update().filter(ladder=ladder).select_related("player"))
    ratings = {
        r.player_id: (r.mu, r.sigma)
        for r in Rating.objects.filter(game=ladder.game, player__in=[e.player for e in queue])
    }
    fair = environment.fair_quality(ladder.game, ladder.seats)
    made = []
    while len(queue) >= ladder.seats:
        first, rest = queue[0], queue[1 : 1 + CANDIDATES]
        best, best_q = None, -1.0
        for others in itertools.combinations(rest, ladder.seats - 1):
            group = [first, *others]
            q = environment.quality(
                ladder.game, [ratings.get(e.player_id, (environment.MU, environment.SIGMA)) for e in group]
            )
            if q > best_q:
                best, best_q = group, q
        waited = (now - first.joined).total_seconds()
        if best is None or (best_q < fair and waited < ladder.queue_wait_seconds):
            break
        table = games.table_create(
            creator=first.player,
            game=ladder.game,
            players=ladder.seats,
            join=False,
            time_control=ladder.time_control,
            rated=True,
        )
        order = assign_seats([e.player_id for e in best], {})
        by_id = {e.player_id: e.player for e in best}
        for seat, pid in enumerate(order, start=1):
            games.seat_join(table_id=table.pk, player=by_id[pid], seat=seat)
        QueueEntry.objects.filter(pk__in=[e.pk for e in best]).delete()
        queue = [e for e in queue if e not in best]
        made.append(table)
    return made


def housekeeping() -> dict[str, int]:
    """Periodic work: expire challenges, form queue tables."""
    tables = sum(
        len(matchmake(ladder))
        for ladder in Ladder.objects.filter(seats__gt=2, queue__isnull=False).distinct()
    )
    return {"expired": expire_challenges(), "tables": tables}
