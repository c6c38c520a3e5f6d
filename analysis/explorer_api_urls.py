"""The explorer's and the hints' API routes (``analysis.explorer_apis``)."""

from django.urls import URLPattern, URLResolver, path

from . import explorer_apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("explorer/", explorer_apis.ExplorerApi.as_view(), name="api-explorer"),
    path("tables/<id:table_id>/hint/", explorer_apis.HintApi.as_view(), name="api-table-hint"),
]
