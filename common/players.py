"""The player behind a request.

Every user account has exactly one player (``games`` makes it when the account is made), reached
as ``user.player``; this module only follows that relation, so it needs no model of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAuthenticated

if TYPE_CHECKING:
    from django.http import HttpRequest

    from games.models import Player


def request_player(request: HttpRequest | Any) -> Player:
    """The signed-in player of an API or page request; ``401`` for an anonymous one."""
    user = request.user
    if not user.is_authenticated:
        raise NotAuthenticated(_("sign in first"))
    return user.player  # type: ignore[no-any-return]


def visitor_player(request: HttpRequest | Any) -> Player | None:
    """The signed-in player of a page request, or ``None`` for an anonymous visitor."""
    return request_player(request) if request.user.is_authenticated else None
