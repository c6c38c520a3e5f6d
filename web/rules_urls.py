"""Routes of the rules pages; ``config/urls.py`` includes them at the root."""

from __future__ import annotations

from django.urls import path

from .rules_pages import rules_page

urlpatterns = [
    path("rules/<slug:game>/", rules_page, name="rules"),
]
