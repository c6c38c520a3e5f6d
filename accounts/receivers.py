"""Turning the services' events into notifications, and keeping the list of signed-in sessions.

Each receiver runs after the event's transaction committed and finds what it needs in the
event's typed payload (``games.events``, ``tournaments.events``): it reads none of the
announcer's tables, only its own (accounts, settings). It calls :func:`notify.notify`, whose
unique key per event and recipient makes a repeated event harmless. Live games (any clock but
correspondence) send no "your turn" at once: the idle sweep (``accounts.sweeps``) covers them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone, translation

from games import selectors as game_reads
from games.events import PlayerRef, TurnStarted, game_finished, turn_started
from games.models import GameKind
from games.results import GameResult
from games.wording import describe
from tournaments.events import (
    ChallengeNews,
    DeadlineNear,
    Entry,
    EventNews,
    LateEntryNews,
    PoolTableFormed,
    QueueTableFormed,
    RoundPaired,
    SeasonNews,
    TeamEventNews,
    TeamInvitationNews,
    challenge_changed,
    entered,
    event_changed,
    late_entry_answered,
    late_entry_invited,
    pool_table_formed,
    queue_table_formed,
    round_deadline_near,
    round_paired,
    season_changed,
    team_event_changed,
    team_invitation_changed,
)

from . import sessions
from .models import Notification
from .notify import account_of_user, account_zone, notify, recipient, recipient_language, user_zone


def game_name(game: str) -> str:
    return str(GameKind(game).label) if game in GameKind.values else game


def when(at: Any, user_id: int) -> str:
    """A moment in the recipient's time zone, written out (kept in ``params`` for the API's
    readers; the inbox and mails write ``<name>_at`` out in the reader's language and zone:
    ``accounts.kinds.moment``)."""
    zone = user_zone(user_id=user_id)
    return f"{at.astimezone(zone):%a %d %b %H:%M} ({zone.key})"


def turn_notice(turn: TurnStarted, *, idle: bool = False) -> None:
    """The "your turn" notification of the seat on turn (once per turn). Three statements
    before the notification's insert: the seats (who is on turn, the opponents' names), the
    recipient (user, account, player and mail choice in one), the older notice marked read."""
    seats = game_reads.seated_players([turn.table_id]).get(turn.table_id, {})
    mine = seats.get(turn.seat)
    if mine is None or mine.user_id is None:
        return
    to = recipient(user_id=mine.user_id, kind="your_turn")
    if to is None:
        return  # no active account: nobody to tell
    params: dict[str, Any] = {
        "table": turn.table_id,
        "ply": turn.ply,
        "game": game_name(turn.game),
        "opponents": [p.name for number, p in seats.items() if number != turn.seat],
        "idle": idle,
    }
    if turn.deadline is not None:
        zone = account_zone(account=account_of_user(user=to.user))
        params["deadline"] = f"{turn.deadline.astimezone(zone):%a %d %b %H:%M} ({zone.key})"
        params["deadline_at"] = turn.deadline.isoformat()
    # An earlier "your turn" at this table is over: the newest one stands for it.
    Notification.objects.filter(
        user_id=mine.user_id,
        kind="your_turn",
        key__startswith=f"turn:{turn.table_id}:",
        read_at__isnull=True,
    ).update(read_at=timezone.now())
    notify(
        user_id=mine.user_id,
        kind="your_turn",
        key=f"turn:{turn.table_id}:{turn.ply}",
        params=params,
        url=reverse("table", args=[turn.table_id]),
        to=to,
    )


@receiver(turn_started)
def on_turn(*, turn: TurnStarted, **_: Any) -> None:
    """A correspondence turn is told at once; live games' turns only when idle (the sweep)."""
    if turn.clock == "correspondence":
        turn_notice(turn)


@receiver(game_finished)
def on_game_finished(*, result: GameResult, players: Mapping[int, PlayerRef], **_: Any) -> None:
    names = {p.id: p.name for p in players.values()}
    # The result in words, in each recipient's language (it is kept in the notification).
    outcomes: dict[str, str] = {}
    for s in result.seats:
        me = players.get(s.seat)
        # The recipient is read once, for the language here and for notify() (not a second time).
        to = recipient(user_id=me.user_id, kind="game_over") if me and me.user_id is not None else None
        if me is None or to is None:
            continue
        user = to.user
        language = recipient_language(user=user)
        if language not in outcomes:
            with translation.override(language):
                words = describe(result, names)
                outcomes[language] = f"{words.headline} ({words.ending})"
        notify(
            user_id=user.pk,
            kind="game_over",
            key=f"over:{result.table_id}",
            params={
                "table": result.table_id,
                "player": me.id,
                "game": game_name(result.game),
                "opponents": [
                    names.get(o.player_id, "?") for o in result.seats if o.player_id != s.player_id
                ],
                "outcome": outcomes[language],
                "rank": s.rank,
                "rated": result.rated,
            },
            url=reverse("table", args=[result.table_id]),
            to=to,
        )


@receiver(challenge_changed)
def on_challenge(*, challenge: ChallengeNews, **_: Any) -> None:
    c = challenge
    ladder_url = reverse("ladder", args=[c.ladder_id])
    base = {"ladder": c.ladder, "challenge": c.id}
    challenger, challenged = c.challenger.user_id, c.challenged.user_id
    if c.status == "pending" and challenged is not None:
        notify(
            user_id=challenged,
            kind="challenge",
            key=f"challenge:{c.id}",
            params={
                **base,
                "by": c.challenger.name,
                "expires": when(c.expires_at, challenged),
                "expires_at": c.expires_at.isoformat(),
                "forfeit": c.position,
            },
            url=ladder_url,
        )
    elif c.status in ("accepted", "declined") and challenger is not None:
        url = reverse("table", args=[c.table_id]) if c.table_id else ladder_url
        notify(
            user_id=challenger,
            kind="challenge_answer",
            key=f"challenge:{c.id}:{c.status}",
            params={**base, "by": c.challenged.name, "status": c.status},
            url=url,
        )
    elif c.status == "cancelled" and challenged is not None:
        notify(
            user_id=challenged,
            kind="challenge_answer",
            key=f"challenge:{c.id}:{c.status}",
            params={**base, "by": c.challenger.name, "status": c.status},
            url=ladder_url,
        )
    elif c.status == "expired":
        _expired(c, base, ladder_url)


def _expired(c: ChallengeNews, base: dict[str, Any], ladder_url: str) -> None:
    """Both players hear that a challenge ran out, and what it did to the ladder."""
    forfeit = c.outcome == "forfeit"
    for me, other, is_challenger in ((c.challenger, c.challenged, True), (c.challenged, c.challenger, False)):
        if me.user_id is None:
            continue
        if forfeit:
            outcome = (
                "you take their place (a forfeit)" if is_challenger else "they take your place (a forfeit)"
            )
        else:
            outcome = "nothing changes on the ladder"
        notify(
            user_id=me.user_id,
            kind="challenge_answer",
            key=f"challenge:{c.id}:expired",
            params={
                **base,
                "by": other.name,
                "status": "expired",
                "challenger": is_challenger,
                "forfeit": forfeit,
                "outcome": outcome,
            },
            url=ladder_url,
        )


@receiver(round_paired)
def on_round(*, paired: RoundPaired, **_: Any) -> None:
    base = {"event": paired.event, "round": paired.number, "tournament": paired.tournament_id}
    key = f"round:{paired.round_id}"
    for table in paired.tables:
        for me in table.players:
            if me.user_id is None:
                continue
            deadline = {}
            if paired.deadline is not None:  # a correspondence round: finish by then
                deadline = {
                    "deadline": when(paired.deadline, me.user_id),
                    "deadline_at": paired.deadline.isoformat(),
                }
            notify(
                user_id=me.user_id,
                kind="round",
                key=key,
                params={
                    **base,
                    "table": table.table_id,
                    "opponents": [o.name for o in table.players if o != me],
                    **deadline,
                },
                url=reverse("table", args=[table.table_id]),
            )
    for me in paired.byes:
        if me.user_id is not None:
            notify(
                user_id=me.user_id,
                kind="round",
                key=key,
                params={**base, "bye": True},
                url=reverse("tournament", args=[paired.tournament_id]),
            )


@receiver(round_deadline_near)
def on_deadline_near(*, near: DeadlineNear, **_: Any) -> None:
    """24 hours before a round's deadline, each player still at an unfinished table is told once."""
    base = {
        "event": near.event,
        "round": near.number,
        "tournament": near.tournament_id,
        "deadline_near": True,
        "rule": near.rule,
        "deadline_at": near.deadline.isoformat(),
    }
    for table in near.tables:
        for me in table.players:
            if me.user_id is None:
                continue
            notify(
                user_id=me.user_id,
                kind="round",
                key=f"round-deadline:{near.round_id}",
                params={**base, "table": table.table_id, "deadline": when(near.deadline, me.user_id)},
                url=reverse("table", args=[table.table_id]),
            )


@receiver(queue_table_formed)
def on_queue_table(*, formed: QueueTableFormed, **_: Any) -> None:
    """Each player the queue seated is told their table is ready (with its link), in case their
    queue page is not open (or not live)."""
    for me in formed.players:
        if me.user_id is None:
            continue
        notify(
            user_id=me.user_id,
            kind="queue_table",
            key=f"queue-table:{formed.table_id}",
            params={
                "ladder": formed.ladder,
                "ladder_id": formed.ladder_id,
                "table": formed.table_id,
                "game": game_name(formed.game),
                "opponents": [o.name for o in formed.players if o != me],
            },
            url=reverse("table", args=[formed.table_id]),
        )


@receiver(pool_table_formed)
def on_pool_table(*, formed: PoolTableFormed, **_: Any) -> None:
    """Each player a quick pairing pool seated is told their table is ready (with its link), in
    case their lobby is not open (or not live)."""
    for me in formed.players:
        if me.user_id is None:
            continue
        notify(
            user_id=me.user_id,
            kind="pool_table",
            key=f"pool-table:{formed.table_id}",
            params={
                "pool": formed.pool_id,
                "table": formed.table_id,
                "game": game_name(formed.game),
                "players": len(formed.players),
                "time_control": dict(formed.time_control),
                "rated": formed.rated,
                "opponents": [o.name for o in formed.players if o != me],
            },
            url=reverse("table", args=[formed.table_id]),
        )


#: The calendar's states told once per start time (``EventNews.starts_at``).
TIMED_STATES = ("starts_soon", "check_in_open", "postponed")


@receiver(event_changed)
def on_event(*, event: EventNews, **_: Any) -> None:
    for me in event.entrants:
        if me.user_id is None:
            continue
        params: dict[str, Any] = {
            "event": event.event,
            "tournament": event.tournament_id,
            "state": event.state,
        }
        if me.id in event.places:
            params.update(place=event.places[me.id], of=len(event.entrants))
        # An event reopened by a corrected result finishes again: a new notification each time.
        key = f"event:{event.tournament_id}:{event.state}" + (f":{event.again}" if event.again else "")
        if event.starts_at is not None:
            params.update(starts=when(event.starts_at, me.user_id), starts_at=event.starts_at.isoformat())
            if event.state in TIMED_STATES:  # a postponed event reminds (and opens check-in) again
                key += f":{int(event.starts_at.timestamp())}"
        if event.state == "called_off":
            params.update(reason=event.reason, came=event.came, needed=event.needed)
        notify(
            user_id=me.user_id,
            kind="event",
            key=key,
            params=params,
            url=reverse("tournament", args=[event.tournament_id]),
        )


@receiver(season_changed)
def on_season(*, season: SeasonNews, **_: Any) -> None:
    """Each player of a season is told their division when it starts, and when it finishes their
    place and where it takes them ("you go up to division 1")."""
    for move in season.players:
        if move.player.user_id is None:
            continue
        params: dict[str, Any] = {
            "season": season.season,
            "season_id": season.season_id,
            "league": season.league,
            "state": season.state,
            "division": move.division,
            "level": move.level,
            "group": move.group,
        }
        if season.state == "finished":
            params.update(place=move.place, movement=move.movement, to_level=move.to_level)
            if season.next_season_id:
                params["next_season"] = season.next_season_id
        notify(
            user_id=move.player.user_id,
            kind="season",
            key=f"season:{season.season_id}:{season.state}",
            params=params,
            url=reverse("season", args=[season.league, season.season_id]),
        )


@receiver(entered)
def on_entered(*, entry: Entry, **_: Any) -> None:
    if entry.player.user_id is None:
        return
    # No name (an organiser no longer known): the title says "An organiser" in the reader's words.
    notify(
        user_id=entry.player.user_id,
        kind="entered",
        key=f"entered:{entry.registration_id}:{timezone.now():%Y%m%d}",
        params={
            "event": entry.event,
            "tournament": entry.tournament_id,
            "by": entry.by.name if entry.by else "",
        },
        url=reverse("tournament", args=[entry.tournament_id]),
    )


@receiver(late_entry_invited)
@receiver(late_entry_answered)
def on_late_entry(*, invitation: LateEntryNews, **_: Any) -> None:
    """An invitation into an event under way goes to the player (their page to accept or decline);
    their answer goes to the organiser who invited them."""
    i = invitation
    to = i.player if i.status == "pending" else i.invited_by
    if to is None or to.user_id is None:
        return
    notify(
        user_id=to.user_id,
        kind="late_entry",
        key=f"late-entry:{i.invitation_id}:{i.status}",
        params={
            "event": i.event,
            "tournament": i.tournament_id,
            "invitation": i.invitation_id,
            "status": i.status,
            "missed": i.missed,
            "round": i.round,
            "name": i.player.name,
            "by": i.invited_by.name if i.invited_by else "",
        },
        url=reverse("tournament", args=[i.tournament_id]),
    )


@receiver(team_invitation_changed)
def on_team_invitation(*, invitation: TeamInvitationNews, **_: Any) -> None:
    """A captain's invitation goes to the player, a request to join to the captain and the
    vice-captain; an answer goes back to whoever asked (the inviter, or the player asking)."""
    i = invitation
    to: list[PlayerRef | None]
    if i.status == "pending":
        to = [i.player] if i.kind == "invite" else list(i.managers)
    elif i.kind == "invite":
        to = [i.by] if i.by is not None else []
    else:
        to = [i.player]
    for person in to:
        if person is None or person.user_id is None:
            continue
        notify(
            user_id=person.user_id,
            kind="team",
            key=f"team-invitation:{i.invitation_id}:{i.status}",
            params={
                "team": i.team,
                "slug": i.team_slug,
                "invitation": i.invitation_id,
                "kind": i.kind,
                "status": i.status,
                "name": i.player.name,
                "by": i.by.name if i.by else "",
            },
            # A request waits in the captain's tools; anything else is seen on the team's page.
            url=reverse(
                "team-manage" if i.kind == "request" and i.status == "pending" else "team", args=[i.team_slug]
            ),
        )


@receiver(team_event_changed)
def on_team_event(*, news: TeamEventNews, **_: Any) -> None:
    """A team round paired: its captains and vice-captains set their line-ups by its start; a
    round's boards open: each player seated is told where to play."""
    base = {"event": news.event, "round": news.number, "team_event": news.event_id}
    if news.state == "paired" and news.round_id is not None:
        for side in news.sides:
            for me in side.managers:
                if me.user_id is None:
                    continue
                starts = {}
                if news.starts_at is not None:
                    starts = {
                        "starts": when(news.starts_at, me.user_id),
                        "starts_at": news.starts_at.isoformat(),
                    }
                notify(
                    user_id=me.user_id,
                    kind="round",
                    key=f"team-round:{news.round_id}:{side.team_id}",
                    params={
                        **base,
                        "lineup": True,
                        "team": side.team,
                        "opponents": list(side.opponents),
                        **starts,
                    },
                    url=reverse("team-lineup", args=[news.round_id, side.team_slug]),
                )
    if news.state == "opened":
        for board in news.boards:
            for me in board.players:
                if me.user_id is None:
                    continue
                notify(
                    user_id=me.user_id,
                    kind="round",
                    key=f"team-board:{board.table_id}",
                    params={
                        **base,
                        "board": board.board,
                        "table": board.table_id,
                        "opponents": [o.name for o in board.players if o != me],
                    },
                    url=reverse("table", args=[board.table_id]),
                )


@receiver(user_logged_in)
def on_login(*, request: Any, user: Any, **_: Any) -> None:
    if request is not None and hasattr(request, "session"):
        sessions.record(request, user)


@receiver(user_logged_out)
def on_logout(*, request: Any, user: Any, **_: Any) -> None:
    if request is not None and hasattr(request, "session") and request.session.session_key:
        sessions.forget(request.session.session_key)
