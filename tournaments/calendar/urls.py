"""The calendar's pages and feeds (included from ``config.urls`` with the league pages)."""

from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/calendar/", views.league_calendar_page, name="league-calendar"),
    path("leagues/<slug:slug>/calendar.ics", views.league_feed, name="league-calendar-feed"),
    path("calendar/feed/reset/", views.feed_reset, name="calendar-feed-reset"),
    path("calendar/<str:secret>.ics", views.private_feed, name="calendar-feed"),
]
