"""An account's own settings, its signed-in sessions, its notifications and the mail outbox."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class Account(models.Model):
    """What the service keeps about a person beyond Django's user: the address being verified,
    when the current one was verified, language and time zone, and whether it was deleted."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account")
    #: When ``user.email`` was confirmed by its verification link (None: not verified).
    email_verified_at = models.DateTimeField(null=True, blank=True)
    #: A new address waiting for its link to be followed; ``user.email`` stays until then.
    pending_email = models.EmailField(blank=True, default="")
    language = models.CharField(max_length=8, blank=True, default="")
    time_zone = models.CharField(max_length=64, blank=True, default="")
    deleted_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"account of {self.user_id}"


def session_public_id(key: str | None) -> str:
    """The id a page shows for the session ``key``: it names the session without being its key
    (an HMAC of the key with the ``SECRET_KEY``)."""
    if not key:
        return ""
    return salted_hmac("accounts.sessions.public_id", key, algorithm="sha256").hexdigest()[:32]


class SessionRecord(models.Model):
    """A signed-in browser session, listed on the settings page (Django's session store does not
    index sessions by user)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="session_records"
    )
    session_key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()
    ip = models.CharField(max_length=45, blank=True, default="")
    user_agent = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["-last_seen"]

    def browser(self) -> str:
        """ "Firefox on Windows", from the browser's user agent (or "unknown browser")."""
        return describe_agent(self.user_agent)

    def public_id(self) -> str:
        """The session's id on pages (never its key, which is its cookie: accounts.sessions)."""
        return session_public_id(self.session_key)


#: (marker in the user agent, name), the first that matches wins (Edge and Opera say "Chrome" too).
BROWSERS = [
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chromium/", "Chromium"),
    ("HeadlessChrome/", gettext_lazy("Chrome (headless)")),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
    ("curl/", "curl"),
    ("python-requests/", gettext_lazy("a Python program")),
]
SYSTEMS = [
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
]


def describe_agent(agent: str) -> str:
    if not agent:
        return _("unknown browser")
    browser = next((name for marker, name in BROWSERS if marker in agent), None) or _("a browser")
    system = next((name for marker, name in SYSTEMS if marker in agent), "")
    # Translators: a browser and the system it runs on: "Firefox on Windows"
    return _("%(browser)s on %(system)s") % {"browser": browser, "system": system} if system else str(browser)


class EmailMode(models.TextChoices):
    OFF = "off", gettext_lazy("no e-mail")
    IMMEDIATE = "immediate", gettext_lazy("one e-mail each")
    HOURLY = "hourly", gettext_lazy("hourly digest")
    DAILY = "daily", gettext_lazy("daily digest")


class NotificationSetting(models.Model):
    """A player's choice of e-mail for one kind of notification (absent: the kind's default)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    kind = models.CharField(max_length=24)
    email = models.CharField(max_length=10, choices=EmailMode.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="notification_setting_unique")]


class Notification(models.Model):
    """One thing that happened, for one person: a line in their inbox, and perhaps a mail.

    ``key`` names the event ("turn:12:7", "challenge:4"): unique per recipient, so an event
    delivered twice (a redelivered task, a second sweep) makes one notification, never two."""

    class Mail(models.TextChoices):
        NONE = "none", "no e-mail"
        QUEUED = "queued", "e-mail queued"
        DIGEST = "digest", "waiting for the digest"
        HANDED = "handed", "in a digest e-mail"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=24)
    key = models.CharField(max_length=120)
    params = models.JSONField(default=dict)
    url = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    mail = models.CharField(max_length=8, choices=Mail.choices, default=Mail.NONE)
    #: Digest notifications: when the digest that carries it is due.
    digest_due = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_key_unique")]
        indexes = [
            models.Index(fields=["user", "-id"], name="notification_user_idx"),
            models.Index(fields=["user"], condition=Q(read_at__isnull=True), name="notification_unread_idx"),
            models.Index(fields=["digest_due"], condition=Q(mail="digest"), name="notification_digest_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class OutgoingMail(models.Model):
    """The outbox: every mail the service sends is a row first, written in the transaction that
    decided to send it, then sent by a task that claims the row, sends, and marks it sent.

    ``key`` is unique: the same notification or digest can never be queued twice."""

    class Status(models.TextChoices):
        PENDING = "pending", "waiting to be sent"
        SENT = "sent", "sent"
        FAILED = "failed", "given up"
        CANCELLED = "cancelled", "cancelled"

    key = models.CharField(max_length=120, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    to = models.EmailField()
    subject = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField(blank=True, default="")
    headers = models.JSONField(default=dict, blank=True)
    message_id = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    next_try_at = models.DateTimeField()
    #: A sender holds the row until then; past it, a sweep may take the row again.
    claimed_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["next_try_at"], condition=Q(status="pending"), name="outgoing_mail_due_idx")
        ]

    def __str__(self) -> str:
        return f"{self.subject} to {self.to}"
