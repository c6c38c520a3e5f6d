"""Forms of the account pages; the rules live in ``accounts.services`` and ``games.services``."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.throttles import client_address

from . import kinds
from .models import EmailMode
from .notify import queue_account_mail, site_url
from .services import RESEND_SECONDS, recently_mailed
from .zones import zone_choices


def own_name(code: str) -> str:
    """A language in its own words, as a menu starts it: "Español", "Français", "Русский"."""
    name = str(translation.get_language_info(code)["name_local"])
    return name[:1].upper() + name[1:]


def language_choices() -> list[tuple[str, Any]]:
    """The site's languages, each in its own name (a reader finds theirs whatever the page's
    language), after the browser's choice (the empty value)."""
    return [
        ("", gettext_lazy("as my browser asks")),
        *[(code, own_name(code)) for code, _n in settings.LANGUAGES],
    ]


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=40,
        label=gettext_lazy("Display name"),
        help_text=gettext_lazy("the name shown at tables and in standings"),
    )


class EmailForm(forms.Form):
    email = forms.EmailField(max_length=254, label=gettext_lazy("E-mail address"))
    password = forms.CharField(
        widget=forms.PasswordInput,
        label=gettext_lazy("Your password"),
        help_text=gettext_lazy("needed to change the address"),
    )


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(choices=language_choices, required=False, label=gettext_lazy("Language"))
    time_zone = forms.ChoiceField(
        choices=zone_choices,
        required=False,
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("times on pages and in e-mails are shown in it"),
        # static/js/timezone.js moves the browser's own zone to the top, under this heading.
        widget=forms.Select(attrs={"data-browser-zone": gettext_lazy("Your browser's time zone")}),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # A zone chosen before the menu left the legacy names out stays on offer to its owner.
        had = (self.data.get("time_zone") if self.is_bound else None) or self.initial.get("time_zone")
        if had:
            self.fields["time_zone"].choices = zone_choices(keep=had)


class NotificationsForm(forms.Form):
    def __init__(self, *args: Any, modes: dict[str, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        for name, kind in kinds.KINDS.items():
            self.fields[name] = forms.ChoiceField(
                label=kind.label, choices=EmailMode.choices, initial=modes.get(name, kind.email)
            )


#: The words that confirm a deletion: the English ones, or the page's language's.
CONFIRM_WORDS = "delete my account"


class DeleteForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput, label=gettext_lazy("Your password"))
    # Translators: the words in quotes must be the translation of "delete my account" exactly:
    # the reader types them to confirm
    confirm = forms.CharField(label=gettext_lazy('Type "delete my account"'))

    def clean_confirm(self) -> str:
        value = " ".join(self.cleaned_data["confirm"].split()).lower()
        # Translators: the words a reader types to confirm deleting their account
        if value not in (CONFIRM_WORDS, _("delete my account").lower()):
            raise forms.ValidationError(
                # Translators: the words in quotes must be the translation of "delete my account"
                _('type the words "delete my account" to confirm')
            )
        return CONFIRM_WORDS


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's password reset, its mail sent through the outbox (retried while the mail server
    is down), at most one per account a minute and within the mail limits
    (``accounts.mail_limits``: a limited mail is not sent, and the page says what it always says).

    An address no account has goes through the same steps (a token made, the mail written and
    queued in a savepoint rolled back at once), so the answer's timing does not tell whether an
    account has the address."""

    client = ""

    def get_users(self, email: str) -> list[Any]:
        """Django's choice (active, a usable password, the same address), narrowed to the
        account that verified the address when one has: another account's unverified claim on
        it (sign-up does not refuse one) puts no reset mail in its owner's inbox. One query,
        whether or not any account has the address."""
        rows = (
            get_user_model()
            ._default_manager.filter(email__iexact=email, is_active=True)
            .annotate(
                verified=ExpressionWrapper(
                    Q(account__email_verified_at__isnull=False), output_field=BooleanField()
                )
            )
        )
        wanted = unicodedata.normalize("NFKC", email).casefold()
        users = [
            u
            for u in rows
            if u.has_usable_password() and unicodedata.normalize("NFKC", u.email).casefold() == wanted
        ]
        return [u for u in users if u.verified] or users

    def save(self, *args: Any, request: Any = None, **kwargs: Any) -> None:
        self.client = client_address(request) if request is not None else ""
        self.mailed = False
        super().save(*args, request=request, **kwargs)
        if not self.mailed:
            email = self.cleaned_data["email"]
            stand_in = get_user_model()(pk=0, username="", email=email)
            stand_in.set_unusable_password()
            context = {
                "user": stand_in,
                "uid": urlsafe_base64_encode(force_bytes(stand_in.pk)),
                "token": kwargs.get("token_generator", default_token_generator).make_token(stand_in),
            }
            self.send_mail("", "", context, None, email)

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
        stand_in = not user.pk
        self.mailed = True
        # Within a minute of the last one (or for nobody) the mail is made and thrown away.
        discard = recently_mailed(user=user, prefix=f"reset:{user.pk}:") | stand_in
        link = site_url(reverse("password_reset_confirm", args=[context["uid"], context["token"]]))
        mail_context = {
            "name": getattr(getattr(user, "player", None), "display_name", user.get_username()),
            "username": user.get_username(),
            "link": link,
            "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
            "site": settings.SITE_NAME,
            "minutes": RESEND_SECONDS // 60,
        }
        queue_account_mail(
            user=user,
            template="reset",
            subject=gettext_lazy("Reset your password for %(site)s"),
            context=mail_context,
            key=f"reset:{user.pk}:{secrets.token_hex(8)}",
            to=to_email,
            client=self.client,
            discard=discard,
        )
