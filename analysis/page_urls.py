"""The analysis app's pages: the Bots page (``analysis.bot_pages``)."""

from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include("analysis.bot_page_urls")),
]
