"""The sign-in page and the admin's sign-in, with the same limits as the API's ``auth/token/``
(``common.throttles``): attempts per address, failed attempts per account from clients without a
device cookie for it, failed attempts per device cookie. A refused attempt answers 429 with the
form and says how long to wait; it does not check the password at all. A sign-in gives the
browser a device cookie for the account (``common.devices``)."""

from __future__ import annotations

import math
from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common import devices
from common.throttles import SignInLimits


class SignInOutcome:
    """What the form did with this request's attempt, for the view that answers it."""

    def __init__(self) -> None:
        self.refused_for: float | None = None
        self.user: Any = None


class SignInForm(AuthenticationForm):
    """Django's sign-in form, its password check behind the sign-in limits: an attempt over a
    limit is refused before the password is looked at."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if not username or not self.cleaned_data.get("password") or self.request is None:
            return super().clean()  # a field is missing: no password is checked
        outcome = SignInOutcome()
        self.request.sign_in_outcome = outcome  # type: ignore[attr-defined]
        limits = SignInLimits(self.request, str(username))
        wait = limits.reserve()
        if wait is not None:
            outcome.refused_for = wait
            raise ValidationError(
                _refusal(wait, account=limits.refused_by == "login_account"), code="throttled"
            )
        try:
            cleaned = super().clean()
        finally:
            # A right password is not counted, even when the account may not sign in here.
            limits.settle(ok=self.user_cache is not None)
        outcome.user = self.user_cache
        return cleaned


class AdminSignInForm(SignInForm, AdminAuthenticationForm):
    """The admin's sign-in form (staff only), behind the same limits."""


def _refusal(wait: float, *, account: bool) -> str:
    """The refusal, and when strangers' guesses locked the account, what its owner can do."""
    minutes = max(1, math.ceil(wait / 60))
    text = ngettext(
        "Too many sign-in attempts: try again in %(n)d minute.",
        "Too many sign-in attempts: try again in %(n)d minutes.",
        minutes,
    ) % {"n": minutes}
    if not account:
        return text
    return " ".join(
        [
            text,
            _(
                "If it is your account, reset your password: the link we mail you also lets this "
                "browser sign in while others are kept out."
            ),
        ]
    )


def _finish(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A refused attempt answers 429 (with ``Retry-After``); a sign-in gets a device cookie."""
    outcome: SignInOutcome | None = getattr(request, "sign_in_outcome", None)
    if outcome is None:
        return response
    if outcome.refused_for is not None:
        response.status_code = 429
        response["Retry-After"] = str(math.ceil(outcome.refused_for))
    elif outcome.user is not None and request.user.is_authenticated and request.user.pk == outcome.user.pk:
        devices.issue(response, outcome.user)
    return response


class SignInView(auth_views.LoginView):
    authentication_form = SignInForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _finish(request, super().post(request, *args, **kwargs))


def admin_sign_in(request: HttpRequest) -> HttpResponse:
    """``/admin/login/``: the admin's own sign-in (its page, its staff check), with the site's
    limits (the admin site's ``login_form`` is :class:`AdminSignInForm`, set in ``config.urls``)."""
    return _finish(request, admin.site.login(request))
