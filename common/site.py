"""The site's own address, for links that leave it: mails, calendar feeds, notifications."""

from __future__ import annotations

from django.conf import settings


def site_url(path: str) -> str:
    """A site path as an absolute address (``SITE_URL`` + ``path``)."""
    return settings.SITE_URL.rstrip("/") + path
