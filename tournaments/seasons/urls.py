"""The season pages (``pages``) and the organiser's season pages (``organising.seasons``)."""

from django.urls import path

from common.validation import register_id_converter

from ..organising import seasons as organiser
from . import pages

register_id_converter()

urlpatterns = [
    path("leagues/<slug:slug>/seasons/", pages.league_seasons_page, name="league-seasons"),
    path("leagues/<slug:slug>/seasons/<id:season_id>/", pages.season_page, name="season"),
    path(
        "leagues/<slug:slug>/seasons/<id:season_id>/<str:action>/",
        pages.season_action,
        name="season-action",
    ),
    path(
        "organiser/leagues/<slug:slug>/seasons/", organiser.organiser_seasons_page, name="organiser-seasons"
    ),
    path(
        "organiser/leagues/<slug:slug>/seasons/<id:season_id>/edit/",
        organiser.organiser_season_edit_page,
        name="organiser-season-edit",
    ),
    path(
        "organiser/leagues/<slug:slug>/seasons/<id:season_id>/<str:action>/",
        organiser.organiser_season_action,
        name="organiser-season-action",
    ),
]
