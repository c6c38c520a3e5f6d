"""The organiser dashboard, the management page of each event, and their actions."""

from django.urls import path

from . import organiser_pages

urlpatterns = [
    path("organiser/", organiser_pages.dashboard, name="dashboard"),
    path("organiser/bot-match/", organiser_pages.bot_match_page, name="bot-match"),
    path("organiser/request/", organiser_pages.organiser_request_page, name="organiser-request"),
    path("organiser/events/<id:tournament_id>/", organiser_pages.event_page, name="organiser-event"),
    path(
        "organiser/events/<id:tournament_id>/standings.csv",
        organiser_pages.standings_csv,
        name="organiser-standings-csv",
    ),
    path(
        "organiser/events/<id:tournament_id>/crosstable.csv",
        organiser_pages.crosstable_csv,
        name="organiser-crosstable-csv",
    ),
    path(
        "organiser/events/<id:tournament_id>/records.zip",
        organiser_pages.records_zip,
        name="organiser-records-zip",
    ),
    path(
        "organiser/events/<id:tournament_id>/<str:action>/",
        organiser_pages.event_action,
        name="organiser-event-action",
    ),
    path(
        "organiser/<id:tournament_id>/<str:action>/",
        organiser_pages.dashboard_action,
        name="dashboard-action",
    ),
]
