"""The team pages (``tournaments.teams.pages``): the team list, a team, and its captain's tools.
Other team pages (events, matches, line-ups) add their routes here."""

from django.urls import path

from common.validation import register_id_converter

from . import event_pages, organiser_pages, pages

register_id_converter()

urlpatterns = [
    path("teams/", pages.team_list_page, name="teams"),
    path("teams/<slug:slug>/", pages.team_page, name="team"),
    path("teams/<slug:slug>/manage/", pages.team_manage_page, name="team-manage"),
    path("teams/<slug:slug>/<str:action>/", pages.team_action, name="team-action"),
    # Team events, matches and line-ups (``event_pages``, ``organiser_pages``).
    path("team-events/", event_pages.team_event_list_page, name="team-events"),
    path("team-events/<id:event_id>/", event_pages.team_event_page, name="team-event"),
    path("team-events/<id:event_id>/<str:action>/", event_pages.team_event_action, name="team-event-action"),
    path("team-matches/<id:match_id>/", event_pages.team_match_page, name="team-match"),
    path("team-rounds/<id:round_id>/lineup/<slug:slug>/", event_pages.lineup_page, name="team-lineup"),
    path(
        "organiser/leagues/<slug:slug>/team-events/new/",
        organiser_pages.team_event_new_page,
        name="organiser-team-event-new",
    ),
]
