"""``/api/v1/bots/`` (``analysis.bot_apis``)."""

from django.urls import URLPattern, URLResolver, path

from . import bot_apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("bots/", bot_apis.BotsApi.as_view(), name="api-bots"),
]
