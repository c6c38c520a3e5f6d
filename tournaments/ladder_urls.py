"""Ladder pages and the player's actions on them."""

from django.urls import path

from . import ladder_pages

urlpatterns = [
    path("ladders/<id:ladder_id>/", ladder_pages.ladder_page, name="ladder"),
]
