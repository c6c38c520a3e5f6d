"""The streams' URLs for pages (``/live/…``); the API's are in ``live.api_urls``."""

from django.urls import path

from . import views

urlpatterns = [
    path("live/tables/<id:table_id>/", views.table_events, name="live-table"),
    path("live/topics/", views.topic_events, name="live-topics"),
    path("live/chat/<id:room_id>/", views.chat_events, name="live-chat"),
]
