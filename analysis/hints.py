"""Hints: "show me a good move" while learning, in casual games against the house bots.

A hint is the move a fixed bot level (:data:`HINT_LEVEL`) would play in the position on the
board (never one of its careless moves), seeded by the table and the action count, so that asking
twice gives the same move (it is kept in the cache for the position, and a repeated request costs
no search). It is offered only
where it cannot help anyone against another person:

* the table is casual (``hint_rated`` otherwise) and is no game of an event, a ladder, an arena,
  a quick pairing or a team match (``hint_event``);
* every other seat is a house bot (``hint_no_bot``): a game against bots only, such as the
  first-game walkthrough's;
* the asker is seated there (``not_seated``), the game is on (``table_not_active``) and it is
  their turn (``not_your_turn``).

The search runs in the request that asks (level 5 searches three plies, about a tenth of a second;
the API throttles it per player); nothing is computed on the move path.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q
from django.utils.translation import gettext as _

import engine
from common.errors import Forbidden, NotFound
from engine.bots import levels
from games.errors import NotSeated, NotYourTurn, TableNotActive
from games.models import Player, Seat, Table
from games.review import effects_in_words, seat_names

#: The bot level whose choice a hint is (its node budget, not a time budget: the same hint on any
#: machine): a three-ply search in every game, without the level's careless moves.
HINT_LEVEL = 5
#: How long a position's hint is kept in the cache (seconds).
CACHE_SECONDS = 3600

#: The tables that belong to something organised (``tournaments``' links to a table).
_ORGANISED = (
    Q(round_table__isnull=False)
    | Q(arena_table__isnull=False)
    | Q(challenge__isnull=False)
    | Q(queue_table__isnull=False)
    | Q(pool_table__isnull=False)
    | Q(team_board__isnull=False)
)


class HintRefused(Forbidden):
    code = "hint_refused"


class HintRated(HintRefused):
    code = "hint_rated"


class HintEvent(HintRefused):
    code = "hint_event"


class HintNoBot(HintRefused):
    code = "hint_no_bot"


@dataclass(frozen=True)
class Hint:
    """A suggested move: its canonical notation, the level that chose it, and what it does in
    words (the effects as the review says them; empty when there are none to say)."""

    move: str
    level: int
    words: str


def refusal(*, table: Table, seat: int | None) -> HintRefused | None:
    """Why hints are off at this table for the player at ``seat`` (whatever the turn), or None
    when they are offered. Reads the table's seats and, for a casual table against bots, whether
    something organised holds it (one query)."""
    if table.rated:
        return HintRated(_("hints are off in rated games"))
    others = {n for n in range(1, table.players + 1) if n != seat}
    bots = set(table.bot_seats or ())
    if not others or not others <= bots:
        return HintNoBot(_("hints are only for games against the house bots: every other seat must be a bot"))
    if Table.objects.filter(pk=table.pk).filter(_ORGANISED).exists():
        return HintEvent(_("hints are off in the games of events, ladders and arenas"))
    return None


def offered(*, table: Table, seat: int | None) -> bool:
    """Whether the page offers the hint button to the player at ``seat``: seated at a game in
    play where :func:`refusal` finds nothing (the page shows it on their turn)."""
    if seat is None or table.status != Table.Status.ACTIVE:
        return False
    return refusal(table=table, seat=seat) is None


def hint_for(*, table_id: int, player: Player) -> Hint:
    """A hint for ``player`` at the table, or the refusal (see the module docstring)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("there is no table %(id)s") % {"id": table_id})
    seat = Seat.objects.filter(table=table, player=player).values_list("number", flat=True).first()
    if seat is None:
        raise NotSeated(_("only the players of table %(id)s can ask for a hint") % {"id": table_id})
    if table.status != Table.Status.ACTIVE or table.position is None:
        raise TableNotActive(
            _("table %(table)s is %(status)s: hints are for games in play")
            % {"table": table.pk, "status": table.status_word}
        )
    refused = refusal(table=table, seat=seat)
    if refused is not None:
        raise refused
    if table.to_move != seat:
        raise NotYourTurn(
            _("a hint is for your own turn: it is seat %(seat)s's turn") % {"seat": table.to_move}
        )
    key = f"analysis:hint:{table.pk}:{table.actions}:{HINT_LEVEL}"
    move = cache.get(key)
    state = engine.load(table.position)
    if not isinstance(move, str):
        move = levels.choose(state, HINT_LEVEL, seed=table.pk * 100_003 + table.actions, careless=False)
        cache.set(key, move, CACHE_SECONDS)
    words = "; ".join(effects_in_words(state, state.play(move), seat_names(table)))
    return Hint(move=move, level=HINT_LEVEL, words=words)


def hint(*, table_id: int, player: Player) -> str:
    """The move a hint suggests to ``player`` at the table (see :func:`hint_for`)."""
    return hint_for(table_id=table_id, player=player).move
