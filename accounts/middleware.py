"""Per request, for signed-in people: the time zone they chose (pages show times in it), and a
"last seen" for their session at most every few minutes. Both read the session, not the
database, so a page costs no query more."""

from __future__ import annotations

import time
import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from . import sessions
from .models import Account

TZ_KEY = "accounts.tz"
SEEN_KEY = "accounts.seen"
#: The session's copy of the saved language (``config.i18n.PreferenceMiddleware`` reads it).
LANG_KEY = "accounts.lang"


def remember_zone(request: HttpRequest, name: str) -> None:
    request.session[TZ_KEY] = name


def remember_language(request: HttpRequest, code: str) -> None:
    """Keep ``code`` ("" for the browser's choice) as the session's saved language."""
    if getattr(request, "session", None) is not None:
        request.session[LANG_KEY] = code


class AccountMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        if user is not None and session is not None and user.is_authenticated:
            name = session.get(TZ_KEY)
            if name is None:
                name = Account.objects.filter(user=user).values_list("time_zone", flat=True).first() or ""
                session[TZ_KEY] = name
            try:
                timezone.activate(zoneinfo.ZoneInfo(name)) if name else timezone.deactivate()
            except (ValueError, KeyError):
                timezone.deactivate()
            now = time.time()
            if now - float(session.get(SEEN_KEY, 0)) > sessions.SEEN_EVERY.total_seconds():
                session[SEEN_KEY] = now
                sessions.seen(request)
        else:
            timezone.deactivate()
        return self.get_response(request)
