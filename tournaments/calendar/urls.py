"""The calendar's pages and feeds (included from ``config.urls`` with the league pages); a player's
private feed is served by accounts (``accounts.pages.calendar_feed``), in the player's language."""

from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/calendar/", views.league_calendar_page, name="league-calendar"),
    path("leagues/<slug:slug>/calendar.ics", views.league_feed, name="league-calendar-feed"),
    path("calendar/feed/reset/", views.feed_reset, name="calendar-feed-reset"),
]
