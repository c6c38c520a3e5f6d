"""The account pages: settings (account, password, notifications, sessions, your data), the
inbox, e-mail verification, unsubscribing, and Django's password views under /accounts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone, translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from common import devices
from common.errors import ServiceError
from common.redirects import redirect_next
from common.throttles import client_address
from games import blocks as game_blocks
from games import services as games
from games import vacation
from tournaments.calendar import feeds as calendar_feeds
from tournaments.calendar import views as calendar_views

from . import forms, kinds, notify, services, sessions
from .middleware import remember_language, remember_zone
from .models import Account, Notification


def _error_text(exc: ServiceError) -> str:
    detail = str(exc.detail)
    field = detail.split(": ", 1)[0]
    return detail.split(": ", 1)[1] if field in ("email", "display_name", "password") else detail


@require_safe
def calendar_feed(request: HttpRequest, secret: str) -> HttpResponse:
    """A player's private calendar feed (its secret is the key: calendar clients send no session),
    written in the player's own language and time zone."""
    player = calendar_feeds.feed_owner(secret=secret)
    if player is None:
        raise Http404("no such calendar feed")
    with notify.recipient_locale(user=player.user, default=translation.get_language()):
        body = calendar_feeds.player_calendar(player)
    return calendar_views.ics_response(body, filename="calendar.ics", public=False)


@login_required
def settings_account(request: HttpRequest) -> HttpResponse:
    """The account tab: the name at tables, the e-mail address (and a new link to confirm it), the
    language and time zone. Each form posts here with its ``action``; a saved form redirects back."""
    user = request.user
    account = services.account_of(user=user)
    context = {
        "tab": "account",
        "account": account,
        "profile": forms.ProfileForm(initial={"display_name": user.player.display_name}),
        "email_form": forms.EmailForm(initial={"email": account.pending_email or user.email}),
        "prefs": forms.PreferencesForm(
            initial={"language": account.language, "time_zone": account.time_zone}
        ),
    }
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "resend":
            _resend_link(request, account)
            return redirect("settings-account")
        if action in _VACATION_ACTIONS:
            _VACATION_ACTIONS[action](request)
            return redirect(reverse("settings-account") + "#vacation")
        if action not in _ACCOUNT_FORMS:
            messages.error(request, _("That form is not known: reload the page and try again."))
        else:
            key, post = _ACCOUNT_FORMS[action]
            form = post(request, account)
            if form is None:
                return redirect("settings-account")
            context[key] = form  # shown again with its errors
    context["now"] = timezone.localtime()
    # The private calendar feed's address, created the first time (tournaments.calendar.feeds).
    feed = calendar_feeds.feed_for(player=user.player)
    context["calendar_feed_url"] = notify.site_url(reverse("calendar-feed", args=[feed.secret]))
    context["blocks"] = list(game_blocks.blocked_by(user.player))
    context["vacation"] = vacation.vacation_of(player=user.player)
    return render(request, "accounts/settings_account.html", context)


def _post_profile(request: HttpRequest, account: Account) -> forms.ProfileForm | None:
    """Change the name at tables; ``None`` once saved, else the form with its errors."""
    user = request.user
    profile = forms.ProfileForm(request.POST)
    if not profile.is_valid():
        return profile
    try:
        games.player_rename(player=user.player, display_name=profile.cleaned_data["display_name"])
    except ServiceError as exc:
        profile.add_error("display_name", _error_text(exc))
        return profile
    messages.success(request, _("Your name at tables is now %(name)s.") % {"name": user.player.display_name})
    return None


def _post_email(request: HttpRequest, account: Account) -> forms.EmailForm | None:
    """Change the e-mail address (the password confirms it); ``None`` once saved, else the form with
    its errors."""
    email = forms.EmailForm(request.POST)
    if not email.is_valid():
        return email
    try:
        address = services.change_email(
            user=request.user,
            email=email.cleaned_data["email"],
            password=email.cleaned_data["password"],
            client=client_address(request),
        )
    except ServiceError as exc:
        email.add_error("password" if exc.status_code == 403 else "email", _error_text(exc))
        return email
    account.refresh_from_db()
    if account.pending_email or not account.email_verified_at:
        messages.success(
            request,
            _("We sent a link to %(address)s: follow it to confirm the address.") % {"address": address},
        )
    else:
        messages.info(request, _("%(address)s is already your confirmed address.") % {"address": address})
    return None


def _resend_link(request: HttpRequest, account: Account) -> None:
    """Send a new link to confirm the address waiting for it (or say why not)."""
    address = account.pending_email or request.user.email
    if not address:
        messages.error(request, _("Enter an e-mail address first."))
    elif account.email_verified_at and not account.pending_email:
        messages.info(request, _("%(address)s is already confirmed.") % {"address": address})
    else:
        try:
            sent = services.send_verification(
                user=request.user, address=address, client=client_address(request)
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            if sent:
                messages.success(request, _("We sent a new link to %(address)s.") % {"address": address})
            else:
                messages.error(
                    request, _("A link was sent less than a minute ago: look for it, or try again soon.")
                )


def _post_preferences(request: HttpRequest, account: Account) -> forms.PreferencesForm | None:
    """Save the language and time zone (and switch to them now); ``None`` once saved, else the form
    with its errors."""
    prefs = forms.PreferencesForm(request.POST)
    if not prefs.is_valid():
        return prefs
    try:
        services.set_preferences(
            user=request.user,
            language=prefs.cleaned_data["language"],
            time_zone=prefs.cleaned_data["time_zone"],
        )
    except ServiceError as exc:
        prefs.add_error(None, str(exc))
        return prefs
    remember_zone(request, prefs.cleaned_data["time_zone"])
    language = prefs.cleaned_data["language"]
    remember_language(request, language)
    if language:
        translation.activate(language)  # the saved message is in the new language
    messages.success(request, _("Your preferences are saved."))
    return None


def _vacation_start(request: HttpRequest) -> None:
    """Start a correspondence vacation of the days asked for (``games.vacation``), or say why not."""
    try:
        days = int(request.POST.get("days", ""))
    except ValueError:
        messages.error(request, _("Enter how many days your vacation lasts, as a whole number."))
        return
    try:
        player = vacation.vacation_start(player=request.user.player, days=days)
    except ServiceError as exc:
        messages.error(request, capfirst(str(exc.detail)))
        return
    assert player.vacation_until is not None
    messages.success(
        request,
        _("Your vacation has begun: your correspondence clocks are stopped until %(until)s.")
        % {"until": vacation.until_text(player.vacation_until)},
    )


def _vacation_end(request: HttpRequest) -> None:
    """End the vacation now (its whole unused days are given back), or say why not."""
    before = vacation.days_left(request.user.player)
    try:
        player = vacation.vacation_end(player=request.user.player)
    except ServiceError as exc:
        messages.error(request, capfirst(str(exc.detail)))
        return
    back = vacation.days_left(player) - before
    if not back:
        messages.success(request, _("Your vacation has ended: your correspondence clocks run again."))
        return
    messages.success(
        request,
        ngettext(
            "Your vacation has ended: your correspondence clocks run again. %(n)s unused day was given back.",
            "Your vacation has ended: your correspondence clocks run again. %(n)s unused days were "
            "given back.",
            back,
        )
        % {"n": back},
    )


#: The vacation section's buttons: action -> what posting it does (each says how it went).
_VACATION_ACTIONS: dict[str, Callable[[HttpRequest], None]] = {
    "vacation-start": _vacation_start,
    "vacation-end": _vacation_end,
}

#: The account tab's forms: action -> (the form's name in the template, what posting it does).
_ACCOUNT_FORMS: dict[str, tuple[str, Callable[[HttpRequest, Account], Any]]] = {
    "profile": ("profile", _post_profile),
    "email": ("email_form", _post_email),
    "preferences": ("prefs", _post_preferences),
}


class PasswordChange(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("settings-account")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "tab": "password"}

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)  # keeps this browser signed in (a new session key)
        sessions.record(self.request, form.user)
        services.password_changed(user=form.user, keep=self.request.session.session_key)
        messages.success(
            self.request,
            _(
                "Your password is changed. Other browsers signed in with the old one are logged out, "
                "and your API token no longer works: programs get a new one by signing in again."
            ),
        )
        return response


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """The reset link's page. A new password ends every session and API token of the account, as
    a change does; and since the link proves the mailbox, this browser gets a device cookie for the
    account (common.devices): it can sign in even while strangers' guesses keep others out."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        services.password_changed(user=form.user, keep=self.request.session.session_key)
        if self.request.user.is_authenticated and self.request.user.pk == form.user.pk:
            logout(self.request)  # this browser, too, was signed in with the old password
        devices.issue(response, form.user)
        return response


@login_required
def settings_notifications(request: HttpRequest) -> HttpResponse:
    modes = notify.email_modes(user_id=request.user.pk)
    form = forms.NotificationsForm(request.POST or None, modes=modes)
    if request.method == "POST" and form.is_valid():
        for name in kinds.KINDS:
            notify.set_email_mode(user_id=request.user.pk, kind=name, mode=form.cleaned_data[name])
        messages.success(request, _("Your notification settings are saved."))
        return redirect("settings-notifications")
    rows = [{"field": form[name], "kind": kind} for name, kind in kinds.KINDS.items()]
    return render(
        request,
        "accounts/settings_notifications.html",
        {
            "tab": "notifications",
            "form": form,
            "rows": rows,
            "verified": services.is_verified(user=request.user),
        },
    )


@login_required
def settings_sessions(request: HttpRequest) -> HttpResponse:
    current = request.session.session_key
    if request.method == "POST":
        if request.POST.get("action") == "all":
            ended = sessions.end_all(request.user, keep=None)
            logout(request)
            messages.success(
                request,
                ngettext(
                    "You are logged out everywhere (%(n)d other session ended, API token revoked). "
                    "Log in again here.",
                    "You are logged out everywhere (%(n)d other sessions ended, API token revoked). "
                    "Log in again here.",
                    ended,
                )
                % {"n": ended},
            )
            return redirect("login")
        # The page names sessions by an opaque id, never by their key (accounts.sessions).
        session_id = request.POST.get("session", "")
        if session_id and session_id == sessions.public_id(current):
            messages.error(request, _("That is this browser: use Log out instead."))
        elif sessions.end(request.user, session_id):
            messages.success(request, _("That session is logged out."))
        else:
            messages.error(request, _("That session had already ended."))
        return redirect("settings-sessions")
    live = sessions.live(request.user)
    return render(
        request,
        "accounts/settings_sessions.html",
        {"tab": "sessions", "sessions": live, "current": sessions.public_id(current)},
    )


@login_required
def settings_data(request: HttpRequest) -> HttpResponse:
    form = forms.DeleteForm()
    if request.method == "POST":
        form = forms.DeleteForm(request.POST)
        if form.is_valid():
            user = request.user
            try:
                services.delete_account(user=user, password=form.cleaned_data["password"])
            except ServiceError as exc:
                form.add_error("password" if exc.status_code == 403 else None, str(exc))
            else:
                logout(request)
                messages.success(
                    request,
                    _("Your account is deleted. Your games stay, under the name of a deleted player."),
                )
                return redirect("home")
    return render(request, "accounts/settings_data.html", {"tab": "data", "form": form})


@login_required
def export_download(request: HttpRequest) -> HttpResponse:
    data = services.export(user=request.user)
    response = HttpResponse(data, content_type="application/zip")
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = (
        f'attachment; filename="pacru-{request.user.get_username()}-{stamp}.zip"'
    )
    return response


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user = services.verify_email(token=token)
    except ServiceError as exc:
        return render(request, "accounts/verify.html", {"error": str(exc)}, status=400)
    return render(request, "accounts/verify.html", {"address": user.email})


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        marked = notify.mark_read(user_id=request.user.pk)
        messages.success(
            request,
            ngettext("%(n)d notification marked read.", "%(n)d notifications marked read.", marked)
            % {"n": marked},
        )
        return redirect("inbox")
    rows = Notification.objects.filter(user=request.user).order_by("-id")
    if request.GET.get("show") == "unread":
        rows = rows.filter(read_at__isnull=True)
    page = Paginator(rows, 30).get_page(request.GET.get("page"))
    items = list(page.object_list)
    more = notify.extras(notifications=items)
    lines = [
        {
            "n": n,
            "title": kinds.title(n.kind, n.params),
            "detail": kinds.detail(n.kind, n.params, more.get(n.pk)),
        }
        for n in items
    ]
    return render(
        request,
        "accounts/inbox.html",
        {
            "page": page,
            "lines": lines,
            "unread": notify.unread_count(user_id=request.user.pk),
            "show": request.GET.get("show"),
        },
    )


@login_required
def inbox_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Follow a notification's link, marking it read."""
    n = get_object_or_404(Notification, pk=notification_id, user=request.user)
    if n.read_at is None:
        Notification.objects.filter(pk=n.pk).update(read_at=timezone.now())
    return redirect(n.url or reverse("inbox"))


@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One click from a mail, no login: the signed link names the account and the kind. A GET
    (the link) and a POST (RFC 8058, a mail client's unsubscribe button) both unsubscribe;
    "undo" turns that kind back on."""
    found = notify.read_unsubscribe_token(token=token)
    if found is None:
        return render(request, "accounts/unsubscribe.html", {"error": True}, status=400)
    user_id, kind = found
    if kind != notify.ALL_KINDS and kind not in kinds.KINDS:
        return render(request, "accounts/unsubscribe.html", {"error": True}, status=400)
    if kind == notify.ALL_KINDS:
        label = _("any notification")
    else:
        label = str(kinds.KINDS[kind].label)
        # Mid-sentence in English; other languages (German nouns) keep the label's capitals.
        if (translation.get_language() or "en").startswith("en"):
            label = label.lower()
    if request.method == "POST" and request.POST.get("action") == "undo":
        names = list(kinds.KINDS) if kind == notify.ALL_KINDS else [kind]
        for name in names:
            notify.set_email_mode(user_id=user_id, kind=name, mode=kinds.KINDS[name].email)
        return render(request, "accounts/unsubscribe.html", {"undone": True, "label": label, "token": token})
    notify.unsubscribe(user_id=user_id, kind=kind)
    return render(request, "accounts/unsubscribe.html", {"label": label, "token": token})


@require_POST
@login_required
def inbox_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    n = get_object_or_404(Notification, pk=notification_id, user=request.user)
    Notification.objects.filter(pk=n.pk, read_at__isnull=True).update(read_at=timezone.now())
    return redirect_next(request, "inbox")  # back to the inbox page it came from; never off-site
