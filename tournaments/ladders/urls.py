"""Ladder pages and the player's actions on them; joining a league from its page."""

from django.urls import path

from .. import pages
from . import pages as ladder_pages

urlpatterns = [
    path("ladders/<id:ladder_id>/", ladder_pages.ladder_page, name="ladder"),
    path("ladders/<id:ladder_id>/<str:action>/", ladder_pages.ladder_action_page, name="ladder-action"),
    path(
        "challenges/<id:challenge_id>/<str:action>/",
        ladder_pages.challenge_action_page,
        name="challenge-action",
    ),
    path("leagues/<slug:slug>/join/", pages.league_join_page, name="league-join"),
]
