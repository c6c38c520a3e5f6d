"""The analysis app's API (under ``/api/v1/``): game analysis, the bots and their ladder, hints and
the explorer."""

from django.urls import include, path

urlpatterns = [
    path("", include("analysis.analysis_api_urls")),
    path("", include("analysis.bot_api_urls")),
    path("", include("analysis.explorer_api_urls")),
]
