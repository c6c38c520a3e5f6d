"""The organiser dashboard and its actions."""

from django.urls import path

from . import organiser_pages

urlpatterns = [
    path("organiser/", organiser_pages.dashboard, name="dashboard"),
    path("organiser/bot-match/", organiser_pages.bot_match_page, name="bot-match"),
    path("organiser/request/", organiser_pages.organiser_request_page, name="organiser-request"),
    path(
        "organiser/<id:tournament_id>/<str:action>/",
        organiser_pages.dashboard_action,
        name="dashboard-action",
    ),
]
