"""The Bots page (``analysis.bot_pages``)."""

from django.urls import URLPattern, URLResolver, path

from . import bot_pages

urlpatterns: list[URLPattern | URLResolver] = [
    path("bots/", bot_pages.bots_page, name="bots"),
]
