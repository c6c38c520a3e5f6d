"""The sign-in page, with the same limits as the API's ``auth/token/`` (``common.throttles``):
attempts per address, failed attempts per account. A refused attempt answers 429 with the form
and says how long to wait; it does not check the password at all."""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from common.throttles import SignInLimits


class SignInView(auth_views.LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        limits = SignInLimits(request, str(request.POST.get("username", "")))
        wait = limits.blocked()
        if wait is not None:
            form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
            form.cleaned_data = {}  # unbound: nothing is checked, only the error is shown
            minutes = max(1, math.ceil(wait / 60))
            form.add_error(
                None,
                ngettext(
                    "Too many sign-in attempts: try again in %(n)d minute.",
                    "Too many sign-in attempts: try again in %(n)d minutes.",
                    minutes,
                )
                % {"n": minutes},
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        response = super().post(request, *args, **kwargs)
        limits.attempted(ok=request.user.is_authenticated)
        return response
