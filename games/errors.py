"""The refusals that belong to playing a game (on top of :mod:`common.errors`)."""

from __future__ import annotations

from rest_framework import status

from common.errors import Conflict, Forbidden, ServiceError


class IllegalMoveError(ServiceError):
    code = "illegal_move"


class NotSeated(ServiceError):
    status_code = status.HTTP_403_FORBIDDEN
    code = "not_seated"


class StalePly(Conflict):
    code = "stale_ply"


class NotYourTurn(Conflict):
    code = "not_your_turn"


class TableNotActive(Conflict):
    code = "table_not_active"


class Flagged(Conflict):
    """The clock ran out (or the table was aborted) before the action arrived."""

    code = "flagged"


class BotMatchRefused(Forbidden):
    """A table of house bots only is a bot match: organisers only (``BOT_MATCH_GATE``)."""

    code = "bot_match_organisers_only"
