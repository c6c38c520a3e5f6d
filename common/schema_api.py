"""The view serving the OpenAPI schema (apart from :mod:`common.schema`, which DRF's settings import
while drf-spectacular's views are still loading)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.views import SpectacularAPIView


class SchemaApi(SpectacularAPIView):
    """The OpenAPI schema; ``?format=json`` (or ``yaml``) picks its rendering.

    The API turns DRF's ``?format=`` renderer override off (``URL_FORMAT_OVERRIDE``: ``format`` is a
    tournament filter); this view alone keeps it, as clients of the schema have always used it.
    """

    def get_format_suffix(self, **kwargs: Any) -> str | None:
        return self.request.query_params.get("format") or super().get_format_suffix(**kwargs)
