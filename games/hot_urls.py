"""The move route, alone: ``config.urls`` tries it before every other API route, so a submitted
move (the service's hot path) is matched by the first pattern it meets."""

from django.urls import URLPattern, path

from common.validation import register_id_converter

from . import apis

register_id_converter()

urlpatterns: list[URLPattern] = [
    path("tables/<id:table_id>/moves/", apis.TableMovesApi.as_view(), name="api-table-moves"),
]
