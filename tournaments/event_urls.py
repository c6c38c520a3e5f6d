"""Event (tournament) pages and the player's actions on them."""

from django.urls import path

from . import event_pages

urlpatterns = [
    path("tournaments/<id:tournament_id>/", event_pages.tournament_page, name="tournament"),
]
