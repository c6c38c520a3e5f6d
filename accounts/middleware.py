"""Per request, for signed-in people: the language and time zone they chose (pages are in the
one and show times in the other), and a "last seen" for their session at most every few
minutes. All read the session, where the choices are kept after one query per session, so a page
costs no query more.

The saved language comes after Django's ``LocaleMiddleware`` (the switcher's cookie, the
browser's ``Accept-Language``) and wins over both on pages; under ``/api/`` an explicit
``Accept-Language`` header wins, and a program signed in by token (the API authenticates in the
view, after this) gets its player's saved language when it asks for none."""

from __future__ import annotations

import time
import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from common.auth import token_user

from . import sessions
from .models import Account

TZ_KEY = "accounts.tz"
SEEN_KEY = "accounts.seen"
#: The session's copy of the saved language.
LANG_KEY = "accounts.lang"
LANGUAGES = {code for code, _ in settings.LANGUAGES}


def remember_zone(request: HttpRequest, name: str) -> None:
    request.session[TZ_KEY] = name


def remember_language(request: HttpRequest, code: str) -> None:
    """Keep ``code`` ("" for the browser's choice) as the session's saved language."""
    if getattr(request, "session", None) is not None:
        request.session[LANG_KEY] = code


def _choices(request: HttpRequest) -> tuple[str, str]:
    """The signed-in person's (language, time zone), read into the session once."""
    session = request.session
    if LANG_KEY not in session or TZ_KEY not in session:
        row = Account.objects.filter(user=request.user).values_list("language", "time_zone").first()
        session[LANG_KEY], session[TZ_KEY] = row or ("", "")
    return str(session[LANG_KEY]), str(session[TZ_KEY])


def _token_language(request: HttpRequest) -> str:
    """The saved language of the player an API request's token names ("" if none): read with the
    token, which each process caches (``common.auth``), so it costs no query."""
    if not request.path.startswith("/api/") or "authorization" not in request.headers:
        return ""
    user = token_user(request)
    account = getattr(user, "account", None) if user is not None else None
    return account.language if account is not None else ""


class AccountMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        api_asks = request.path.startswith("/api/") and "accept-language" in request.headers
        language = ""
        if user is not None and session is not None and user.is_authenticated:
            language, name = _choices(request)
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
            if not api_asks:
                language = _token_language(request)
        if language in LANGUAGES and not api_asks:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
