"""Which language a request is answered in, and the footer's language switcher.

Django's ``LocaleMiddleware`` picks the language from the ``django_language`` cookie (set by the
switcher) or the browser's ``Accept-Language``. On top of it, ``accounts.middleware`` applies a
signed-in player's saved choice (``Account.language``), read once per session and kept there, so
a page costs no query more:

* pages: the saved choice, else the cookie, else ``Accept-Language``, else English;
* the API (``/api/``): an explicit ``Accept-Language`` header first (a client asking for French
  gets French), else the saved choice.

:func:`set_language` is Django's view of the same name that also saves the choice for a
signed-in player, so it follows them to other browsers and into their e-mails.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog
from django.views.i18n import set_language as django_set_language

from accounts.middleware import remember_language
from accounts.models import Account

CODES = {code for code, _ in settings.LANGUAGES}


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The footer's switcher: Django's ``set_language`` (cookie and redirect back), and for a
    signed-in player the saved preference too."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if code in CODES and request.user.is_authenticated:
        Account.objects.update_or_create(user=request.user, defaults={"language": code})
        remember_language(request, code)
    return response


@cache_control(max_age=86400, public=True)
def javascript_catalog(request: HttpRequest, lang: str) -> HttpResponse:
    """The browser scripts' catalogue for one language, under a URL naming it (so a browser's
    cached copy is never the wrong language)."""
    code = lang if lang in CODES else settings.LANGUAGE_CODE
    with translation.override(code):
        return JavaScriptCatalog.as_view(domain="djangojs")(request)


@functools.cache
def catalogue_version() -> str:
    """A short digest of the compiled browser catalogues: part of the catalogue's URL, so a new
    release's words are fetched at once despite the day-long cache."""
    digest = hashlib.sha256()
    for path in sorted(Path(settings.LOCALE_PATHS[0]).glob("*/LC_MESSAGES/djangojs.mo")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def languages(request: HttpRequest) -> dict[str, object]:
    """Template context: the switcher's choices and the browser catalogue's version."""
    return {"language_choices": settings.LANGUAGES, "jsi18n_version": catalogue_version()}
