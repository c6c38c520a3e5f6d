"""The organiser dashboard, the management page of each event, and their actions."""

from django.urls import path

from . import console, pages, series

urlpatterns = [
    path("organiser/", pages.dashboard, name="dashboard"),
    # Recurring events (series.py).
    path("organiser/leagues/<slug:slug>/series/", series.league_series, name="organiser-league-series"),
    path("organiser/series/<id:series_id>/", series.series_page, name="organiser-series"),
    path(
        "organiser/series/<id:series_id>/<str:action>/", series.series_action, name="organiser-series-action"
    ),
    path("organiser/bot-match/", pages.bot_match_page, name="bot-match"),
    path("organiser/request/", pages.organiser_request_page, name="organiser-request"),
    path("organiser/events/<id:tournament_id>/", console.event_page, name="organiser-event"),
    path(
        "organiser/events/<id:tournament_id>/standings.csv",
        console.standings_csv,
        name="organiser-standings-csv",
    ),
    path(
        "organiser/events/<id:tournament_id>/crosstable.csv",
        console.crosstable_csv,
        name="organiser-crosstable-csv",
    ),
    path(
        "organiser/events/<id:tournament_id>/records.zip",
        console.records_zip,
        name="organiser-records-zip",
    ),
    path(
        "organiser/events/<id:tournament_id>/<str:action>/",
        console.event_action,
        name="organiser-event-action",
    ),
    path(
        "organiser/<id:tournament_id>/<str:action>/",
        pages.dashboard_action,
        name="dashboard-action",
    ),
]
