"""Event (tournament) pages and the player's actions on them."""

from django.urls import path

from . import arena_pages
from . import pages as event_pages

urlpatterns = [
    path("tournaments/<id:tournament_id>/", event_pages.tournament_page, name="tournament"),
    path("tournaments/<id:tournament_id>/register/", event_pages.register_page, name="event-register"),
    path("tournaments/<id:tournament_id>/withdraw/", event_pages.withdraw_page, name="event-withdraw"),
    path("tournaments/<id:tournament_id>/check-in/", event_pages.check_in_page, name="event-check-in"),
    path(
        "tournaments/<id:tournament_id>/late-entry/<str:action>/",
        event_pages.late_entry_answer_page,
        name="event-late-entry",
    ),
    path(
        "tournaments/<id:tournament_id>/arena/<str:action>/",
        arena_pages.arena_action_page,
        name="arena-action",
    ),
]
