"""Where a page action goes back to: the ``next`` the form carries, when it is this site's.

A form posts ``next`` so the player lands where they were (the inbox page they had open). Taken as
it is, anyone could send a player through this site to another one (``next=https://evil.example``,
or the scheme-relative ``//evil.example``, or ``/\\evil.example``, which browsers read as
``//evil.example``): an open redirect that lends this site's name to a phishing page. Django's own
views (sign-in, the language switcher) check it with ``url_has_allowed_host_and_scheme``; every
hand-written ``next`` goes through :func:`safe_next` to do the same.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request: HttpRequest, fallback: str) -> str:
    """The request's ``next`` (the form's, else the query string's) when it points into this site
    (same host, and HTTPS when the request is), else ``fallback`` (a URL name or a path)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url(fallback)


def redirect_next(request: HttpRequest, fallback: str) -> HttpResponseRedirect:
    """A redirect to :func:`safe_next`."""
    return redirect(safe_next(request, fallback))
