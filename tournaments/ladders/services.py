"""Ladder services: creating, joining and leaving ladders, and challenges (the rules are in
:mod:`tournaments.ladders`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from common.errors import Conflict, Forbidden, InvalidInput, NotFound, ServiceError
from games import services as games
from games.clocks import TimeControl
from games.events import send_after_commit
from games.guests import require_verified_email
from games.models import GameKind, Player, Table
from games.results import GameResult

from ..competitions.services import require_organiser
from ..events import challenge_changed
from ..models import Challenge, Ladder, LadderMember, League, QueueEntry
from . import news
from .selectors import ladder_order


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
    kind: str = Ladder.Kind.RATING,
    max_open_challenges: int = 3,
    decline_cooldown_hours: float = 24,
    max_declines: int = 2,
    decline_period_days: float = 30,
) -> Ladder:
    require_organiser(league=league, player=organiser)
    if game not in GameKind.values or seats not in (2, 3, 4):
        raise InvalidInput(_("a ladder needs a game (shacru, azacru, pacru) and 2 to 4 seats"))
    if kind not in Ladder.Kind.values:
        raise InvalidInput(
            _("kind must be one of %(kinds)s, not %(kind)s")
            % {"kinds": ", ".join(Ladder.Kind.values), "kind": repr(kind)}
        )
    if kind == Ladder.Kind.POSITION and seats != 2:
        raise InvalidInput(_("a position ladder is played by challenges, at tables of 2"))
    if max_open_challenges < 1:
        raise InvalidInput(_("max_open_challenges must be at least 1"))
    if Ladder.objects.filter(league=league, game=game).exists():
        raise Conflict(_("%(league)s has a %(game)s ladder already") % {"league": league.name, "game": game})
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
        kind=kind,
        max_open_challenges=max_open_challenges,
        decline_cooldown_hours=decline_cooldown_hours,
        max_declines=max_declines,
        decline_period_days=decline_period_days,
    )


def _locked_ladder(ladder: Ladder) -> Ladder:
    """Lock the ladder row: every change of a position ladder's order happens under it."""
    return Ladder.objects.select_for_update().get(pk=ladder.pk)


@transaction.atomic
def ladder_join(*, ladder: Ladder, player: Player) -> LadderMember:
    require_verified_email(player, "join ladders")
    ladder = _locked_ladder(ladder)
    ladder.league.members.add(player)
    if LadderMember.objects.filter(ladder=ladder, player=player).exists():
        raise Conflict(_("you are on this ladder already"))
    position = None
    if ladder.kind == Ladder.Kind.POSITION:
        position = LadderMember.objects.filter(ladder=ladder).count() + 1  # at the bottom
    return LadderMember.objects.create(ladder=ladder, player=player, position=position)


@transaction.atomic
def ladder_leave(*, ladder: Ladder, player: Player) -> None:
    ladder = _locked_ladder(ladder)
    member = LadderMember.objects.filter(ladder=ladder, player=player).first()
    if member is None:
        raise Conflict(_("you are not on this ladder"))
    member.delete()
    if member.position is not None:  # close the gap
        LadderMember.objects.filter(ladder=ladder, position__gt=member.position).update(
            position=F("position") - 1
        )
    QueueEntry.objects.filter(ladder=ladder, player=player).delete()
    Challenge.objects.filter(ladder=ladder, status=Challenge.Status.PENDING).filter(
        Q(challenger=player) | Q(challenged=player)
    ).update(status=Challenge.Status.CANCELLED)


def reach(*, ladder: Ladder, position: int) -> int:
    """How many places above ``position`` (1 = top) its holder may challenge."""
    if ladder.challenge_places:
        return ladder.challenge_places
    return max(10, math.floor(0.4 * (position - 1)))


def open_challenges_of(*, ladder: Ladder) -> QuerySet[Challenge]:
    """Challenges still open: waiting for an answer, or accepted and being played."""
    return Challenge.objects.filter(ladder=ladder).filter(
        Q(status=Challenge.Status.PENDING)
        | Q(status=Challenge.Status.ACCEPTED, table__status__in=[Table.Status.OPEN, Table.Status.ACTIVE])
    )


_open = open_challenges_of  # the name the services used first


@dataclass(frozen=True)
class Refusal:
    """Why a challenge may not be made: the service's error (``detail``, raised by
    :func:`challenge_create`) and the same reason in a few words for the ladder page (``short``)."""

    error: type[ServiceError]
    detail: str
    short: str

    def exception(self) -> ServiceError:
        return self.error(self.detail)


@dataclass(frozen=True)
class ChallengeRules:
    """What decides whom ``challenger_id`` may challenge on ``ladder`` (see :func:`challenge_rules`)."""

    ladder: Ladder
    challenger_id: int
    order: dict[int, int]  # player id -> place (1 = top)
    open_pairs: dict[frozenset[int], str]  # the two players of an open challenge -> its status
    open_counts: dict[int, int]  # player id -> open challenges (made or received)
    declined_until: dict[int, datetime]  # challenged id -> when they may be challenged again
    now: datetime


def challenge_rules(
    *,
    ladder: Ladder,
    challenger: Player,
    order: list[dict[str, Any]] | None = None,
    open_challenges: list[tuple[int, int, str]] | None = None,
    now: datetime | None = None,
) -> ChallengeRules:
    """Read what :func:`challenge_refusal` checks, once for every opponent (two queries, or none
    for what is passed in: ``order`` as :func:`~tournaments.ladders.selectors.ladder_order` gives it,
    ``open_challenges`` as (challenger id, challenged id, status) of :func:`open_challenges`)."""
    now = now or timezone.now()
    if order is None:
        order = ladder_order(ladder)
    if open_challenges is None:
        open_challenges = list(
            open_challenges_of(ladder=ladder).values_list("challenger_id", "challenged_id", "status")
        )
    pairs: dict[frozenset[int], str] = {}
    counts: dict[int, int] = {}
    for a, b, status in open_challenges:
        pairs[frozenset((a, b))] = status
        counts[a] = counts.get(a, 0) + 1
        counts[b] = counts.get(b, 0) + 1
    cooldown = timedelta(hours=ladder.decline_cooldown_hours)
    declined: dict[int, datetime] = {}
    if challenger.pk is not None:
        for challenged_id, answered in Challenge.objects.filter(
            ladder=ladder,
            challenger=challenger,
            status=Challenge.Status.DECLINED,
            answered_at__gt=now - cooldown,
        ).values_list("challenged_id", "answered_at"):
            again = answered + cooldown
            declined[challenged_id] = max(again, declined.get(challenged_id, again))
    return ChallengeRules(
        ladder=ladder,
        challenger_id=challenger.pk,
        order={row["player"]: row["position"] for row in order},
        open_pairs=pairs,
        open_counts=counts,
        declined_until=declined,
        now=now,
    )


def challenge_refusal(*, rules: ChallengeRules, challenged_id: int, name: str) -> Refusal | None:
    """Why the challenger of ``rules`` may not challenge player ``challenged_id`` (called ``name``),
    or ``None`` when they may: the one check behind :func:`challenge_create` and the ladder page.
    The checks run in order and the first refusal stands. Each refusal's ``short`` reason stands
    in the ladder's table, in the row of the player who may not be challenged."""
    for check in (_who_refusal, _place_refusal, _open_refusal, _declined_refusal):
        refusal = check(rules, challenged_id, name)
        if refusal is not None:
            return refusal
    return None


def _who_refusal(rules: ChallengeRules, challenged_id: int, name: str) -> Refusal | None:
    """A ladder of more than two seats, oneself, or a player not on the ladder (or the challenger)."""
    ladder, me = rules.ladder, rules.challenger_id
    if ladder.seats != 2:
        return Refusal(
            Conflict,
            _("this ladder plays at tables of more than two: join its queue instead"),
            pgettext("ladder: why no challenge", "join the queue"),
        )
    if me == challenged_id:
        return Refusal(
            InvalidInput,
            _("you cannot challenge yourself"),
            pgettext("ladder: why no challenge (the viewer's own row)", "you"),
        )
    if me not in rules.order:
        return Refusal(
            Forbidden,
            _("join the ladder before challenging"),
            pgettext("ladder: why no challenge", "join the ladder to challenge"),
        )
    if challenged_id not in rules.order:
        return Refusal(
            InvalidInput,
            _("%(name)s is not on this ladder") % {"name": name},
            pgettext("ladder: why no challenge", "not on the ladder"),
        )
    return None


def _place_refusal(rules: ChallengeRules, challenged_id: int, name: str) -> Refusal | None:
    """Only players above, and within the ladder's reach of, the challenger's place."""
    mine, theirs = rules.order[rules.challenger_id], rules.order[challenged_id]
    if theirs >= mine:
        return Refusal(
            InvalidInput,
            _("you can challenge only players above you"),
            pgettext("ladder: why no challenge", "below you"),
        )
    places = reach(ladder=rules.ladder, position=mine)
    if mine - theirs > places:
        return Refusal(
            InvalidInput,
            ngettext(
                "from place %(place)d you can challenge up to %(n)d place above you",
                "from place %(place)d you can challenge up to %(n)d places above you",
                places,
            )
            % {"place": mine, "n": places},
            ngettext("more than %(n)d place above you", "more than %(n)d places above you", places)
            % {"n": places},
        )
    return None


def _open_refusal(rules: ChallengeRules, challenged_id: int, name: str) -> Refusal | None:
    """A challenge between the two open already, or either at the ladder's most open challenges."""
    ladder, me = rules.ladder, rules.challenger_id
    status = rules.open_pairs.get(frozenset((me, challenged_id)))
    if status is not None:
        return Refusal(
            Conflict,
            _("you and %(name)s have a challenge open already: play or answer it first") % {"name": name},
            pgettext("ladder: why no challenge", "your game with them is still being played")
            if status == Challenge.Status.ACCEPTED
            else pgettext("ladder: why no challenge", "challenge open already"),
        )
    count = rules.open_counts.get(me, 0)
    if count >= ladder.max_open_challenges:
        return Refusal(
            Conflict,
            ngettext(
                "you have %(n)d open challenge, the most this ladder allows: finish one first",
                "you have %(n)d open challenges, the most this ladder allows: finish one first",
                count,
            )
            % {"n": count},
            ngettext(
                "you have %(n)d open challenge (the most)", "you have %(n)d open challenges (the most)", count
            )
            % {"n": count},
        )
    count = rules.open_counts.get(challenged_id, 0)
    if count >= ladder.max_open_challenges:
        return Refusal(
            Conflict,
            ngettext(
                "%(name)s has %(n)d open challenge, the most this ladder allows: finish one first",
                "%(name)s has %(n)d open challenges, the most this ladder allows: finish one first",
                count,
            )
            % {"name": name, "n": count},
            ngettext(
                "they have %(n)d open challenge (the most)",
                "they have %(n)d open challenges (the most)",
                count,
            )
            % {"n": count},
        )
    return None


def _declined_refusal(rules: ChallengeRules, challenged_id: int, name: str) -> Refusal | None:
    """The challenged player declined the challenger recently: not again before the time is up."""
    again = rules.declined_until.get(challenged_id)
    if again is not None and again > rules.now:
        # In the reader's time zone on pages (their setting), UTC in the API.
        local, zone = timezone.localtime(again), timezone.get_current_timezone_name()
        return Refusal(
            Conflict,
            _(
                "%(name)s declined your challenge recently: you can challenge them again after "
                "%(when)s %(zone)s"
            )
            % {"name": name, "when": date_format(local, "SHORT_DATETIME_FORMAT"), "zone": zone},
            _("declined you: again after %(day)s %(time)s %(zone)s")
            % {
                "day": date_format(local, "MONTH_DAY_FORMAT"),
                "time": time_format(local, "TIME_FORMAT"),
                "zone": zone,
            },
        )
    return None


@transaction.atomic
def challenge_create(*, ladder: Ladder, challenger: Player, challenged: Player) -> Challenge:
    ladder = _locked_ladder(ladder)
    now = timezone.now()
    refusal = challenge_refusal(
        rules=challenge_rules(ladder=ladder, challenger=challenger, now=now),
        challenged_id=challenged.pk,
        name=str(challenged),
    )
    if refusal is not None:
        raise refusal.exception()
    expires = now + timedelta(days=ladder.challenge_days)
    c = Challenge.objects.create(
        ladder=ladder, challenger=challenger, challenged=challenged, expires_at=expires
    )
    send_after_commit(challenge_changed, challenge=news.challenge_news(c))
    return c


def recent_declines(*, ladder: Ladder, player: Player, now: datetime | None = None) -> int:
    """How many challenges ``player`` declined on ``ladder`` in its last ``decline_period_days``."""
    since = (now or timezone.now()) - timedelta(days=ladder.decline_period_days)
    return Challenge.objects.filter(
        ladder=ladder, challenged=player, status=Challenge.Status.DECLINED, answered_at__gt=since
    ).count()


def _pending(challenge_id: int) -> Challenge:
    c = Challenge.objects.select_for_update().select_related("ladder").filter(pk=challenge_id).first()
    if c is None:
        raise NotFound(_("there is no challenge %(id)s") % {"id": challenge_id})
    if c.status != Challenge.Status.PENDING:
        raise Conflict(_("the challenge is %(status)s") % {"status": c.get_status_display()})
    if c.expires_at <= timezone.now():
        _expire(c)
        raise Conflict(_("the challenge has expired"))
    return c


@transaction.atomic
def challenge_accept(*, challenge_id: int, by: Player) -> Table:
    c = _pending(challenge_id)
    if by.pk != c.challenged_id:
        raise Forbidden(_("only the challenged player may accept"))
    table = games.table_create(
        creator=c.challenged,
        game=c.ladder.game,
        players=2,
        join=False,
        time_control=c.ladder.time_control,
        rated=True,
    )
    games.seat_join(table_id=table.pk, player=c.challenger, seat=1, event=True)
    games.seat_join(table_id=table.pk, player=c.challenged, seat=2, event=True)
    c.status = Challenge.Status.ACCEPTED
    c.answered_at = timezone.now()
    c.table = table
    c.save(update_fields=["status", "answered_at", "table"])
    send_after_commit(challenge_changed, challenge=news.challenge_news(c))
    table.refresh_from_db()
    return table


@transaction.atomic
def challenge_answer(*, challenge_id: int, by: Player, decision: str) -> Challenge:
    """Decline (the challenged player) or cancel (the challenger) a pending challenge."""
    c = _pending(challenge_id)
    now = timezone.now()
    if decision == "decline" and by.pk == c.challenged_id:
        ladder = c.ladder
        if ladder.kind == Ladder.Kind.POSITION:
            declines = recent_declines(ladder=ladder, player=by, now=now)
            if declines >= ladder.max_declines:
                raise Conflict(
                    ngettext(
                        "you have declined %(n)d challenge in the last %(days)s days, the most this ladder "
                        "allows: accept, or the challenge expires as a forfeit",
                        "you have declined %(n)d challenges in the last %(days)s days, the most this ladder "
                        "allows: accept, or the challenge expires as a forfeit",
                        declines,
                    )
                    % {"n": declines, "days": f"{ladder.decline_period_days:g}"}
                )
        c.status = Challenge.Status.DECLINED
    elif decision == "cancel" and by.pk == c.challenger_id:
        c.status = Challenge.Status.CANCELLED
    else:
        raise Forbidden(_("only the challenged player may decline, and only the challenger may cancel"))
    c.answered_at = now
    c.save(update_fields=["status", "answered_at"])
    send_after_commit(challenge_changed, challenge=news.challenge_news(c))
    return c


def _expire(c: Challenge) -> None:
    """An unanswered challenge runs out: on a position ladder it is a forfeit (the challenger
    takes the place as if they had won)."""
    c.status = Challenge.Status.EXPIRED
    fields = ["status"]
    if c.ladder.kind == Ladder.Kind.POSITION:
        c.outcome = Challenge.Outcome.FORFEIT
        fields.append("outcome")
        _challenger_takes_the_place(c)
    c.save(update_fields=fields)
    send_after_commit(challenge_changed, challenge=news.challenge_news(c))


def expire_challenges() -> int:
    """Expire every challenge past its time (the periodic housekeeping); return how many."""
    due = Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=timezone.now())
    expired = 0
    for challenge_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            c = (
                Challenge.objects.select_for_update(skip_locked=True)
                .select_related("ladder")
                .filter(pk=challenge_id, status=Challenge.Status.PENDING)
                .first()
            )
            if c is not None:
                _expire(c)
                expired += 1
    return expired


def _challenger_takes_the_place(c: Challenge) -> None:
    """Position ladders: the challenger moves to the challenged player's place; they and everyone
    between move down one. Nothing happens if the challenger is not below them (any more)."""
    ladder = _locked_ladder(c.ladder)
    members = {
        m.player_id: m
        for m in LadderMember.objects.filter(ladder=ladder, player_id__in=[c.challenger_id, c.challenged_id])
    }
    winner, loser = members.get(c.challenger_id), members.get(c.challenged_id)
    if winner is None or loser is None or winner.position is None or loser.position is None:
        return
    if winner.position <= loser.position:
        return
    old, new = winner.position, loser.position
    LadderMember.objects.filter(ladder=ladder, position__gte=new, position__lt=old).update(
        position=F("position") + 1
    )
    LadderMember.objects.filter(pk=winner.pk).update(position=new)


def challenge_table_finished(*, result: GameResult) -> str:
    """A ladder challenge's table finished: record the outcome; on a position ladder a winning
    challenger takes the place. Safe to repeat (an outcome is recorded once)."""
    with transaction.atomic():
        c = (
            Challenge.objects.select_for_update()
            .select_related("ladder")
            .filter(table_id=result.table_id)
            .first()
        )
        if c is None:
            return "not a challenge table"
        if c.outcome:
            return "already recorded"
        ranks = result.ranks()
        challenger, challenged = ranks.get(c.challenger_id), ranks.get(c.challenged_id)
        if challenger is None or challenged is None:
            return "the players are not at the table"
        if challenger < challenged:
            c.outcome = Challenge.Outcome.CHALLENGER
            if c.ladder.kind == Ladder.Kind.POSITION:
                _challenger_takes_the_place(c)
        elif challenged < challenger:
            c.outcome = Challenge.Outcome.CHALLENGED
        else:
            c.outcome = Challenge.Outcome.DRAW
        c.save(update_fields=["outcome"])
        return c.outcome
