"""Game analysis under ``/api/v1/`` (:mod:`analysis.analysis_apis`)."""

from django.urls import URLPattern, URLResolver, path

from . import analysis_apis

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "tables/<int:table_id>/analysis/", analysis_apis.TableAnalysisApi.as_view(), name="api-table-analysis"
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/analysis/",
        analysis_apis.RoundAnalysisApi.as_view(),
        name="api-round-analysis",
    ),
]
