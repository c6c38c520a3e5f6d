"""The lobby's "Play now" block (its live fragment) and the player's join and leave actions."""

from django.urls import path

from . import pages

urlpatterns = [
    path("play-now/", pages.play_now_fragment, name="play-now"),
    path("play-now/leave/", pages.pool_leave_page, name="play-now-leave"),
    path("play-now/<id:pool_id>/join/", pages.pool_join_page, name="play-now-join"),
]
