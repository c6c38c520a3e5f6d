"""Forms of the account pages; the rules live in ``accounts.services`` and ``games.services``."""

from __future__ import annotations

import secrets
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.template.loader import render_to_string
from django.urls import reverse

from . import kinds, outbox
from .models import EmailMode
from .notify import site_url
from .services import RESEND_SECONDS, recently_mailed

ZONES = sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/")))


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=40, help_text="the name shown at tables and in standings")


class EmailForm(forms.Form):
    email = forms.EmailField(max_length=254, label="E-mail address")


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(
        choices=[("", "as my browser asks"), *settings.LANGUAGES], required=False, label="Language"
    )
    time_zone = forms.ChoiceField(
        choices=[("", "UTC"), *[(z, z.replace("_", " ")) for z in ZONES]],
        required=False,
        label="Time zone",
        help_text="times on pages and in e-mails are shown in it",
    )


class NotificationsForm(forms.Form):
    def __init__(self, *args: Any, modes: dict[str, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        for name, kind in kinds.KINDS.items():
            self.fields[name] = forms.ChoiceField(
                label=kind.label, choices=EmailMode.choices, initial=modes.get(name, kind.email)
            )


class DeleteForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput, label="Your password")
    confirm = forms.CharField(label='Type "delete my account"')

    def clean_confirm(self) -> str:
        value = self.cleaned_data["confirm"].strip().lower()
        if value != "delete my account":
            raise forms.ValidationError('type the words "delete my account" to confirm')
        return value


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's password reset, its mail sent through the outbox (retried while the mail server
    is down), at most one per account a minute."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        user = context["user"]
        if recently_mailed(user, f"reset:{user.pk}:"):
            return
        link = site_url(reverse("password_reset_confirm", args=[context["uid"], context["token"]]))
        mail_context = {
            "name": getattr(getattr(user, "player", None), "display_name", user.get_username()),
            "username": user.get_username(),
            "link": link,
            "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
            "site": settings.SITE_NAME,
            "minutes": RESEND_SECONDS // 60,
        }
        outbox.queue(
            key=f"reset:{user.pk}:{secrets.token_hex(8)}",
            to=to_email,
            subject=f"Reset your password for {settings.SITE_NAME}",
            text=render_to_string("accounts/mail/reset.txt", mail_context),
            html=render_to_string("accounts/mail/reset.html", mail_context),
            user_id=user.pk,
        )
