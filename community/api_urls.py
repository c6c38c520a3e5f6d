"""The community app's API (under ``/api/v1/``): chat, friends and challenges, reports and moderation."""

from django.urls import include, path

urlpatterns = [
    path("", include("community.chat_api_urls")),
    path("", include("community.friends_api_urls")),
    path("", include("community.moderation_api_urls")),
]
