"""The chat's API URLs (``community.chat_apis``): each room's messages, and switching its chat off."""

from django.urls import URLPattern, URLResolver, path

from common.validation import register_id_converter

from . import chat_apis

register_id_converter()

urlpatterns: list[URLPattern | URLResolver] = [
    path("tables/<id:table_id>/chat/", chat_apis.TableChatApi.as_view(), name="api-table-chat"),
    path("tables/<id:table_id>/chat/off/", chat_apis.TableChatOffApi.as_view(), name="api-table-chat-off"),
    path(
        "tournaments/<id:tournament_id>/chat/",
        chat_apis.TournamentChatApi.as_view(),
        name="api-tournament-chat",
    ),
    path(
        "tournaments/<id:tournament_id>/chat/off/",
        chat_apis.TournamentChatOffApi.as_view(),
        name="api-tournament-chat-off",
    ),
    path("ladders/<id:ladder_id>/chat/", chat_apis.LadderChatApi.as_view(), name="api-ladder-chat"),
    path(
        "ladders/<id:ladder_id>/chat/off/", chat_apis.LadderChatOffApi.as_view(), name="api-ladder-chat-off"
    ),
    path("leagues/<slug:slug>/chat/", chat_apis.LeagueChatApi.as_view(), name="api-league-chat"),
    path("leagues/<slug:slug>/chat/off/", chat_apis.LeagueChatOffApi.as_view(), name="api-league-chat-off"),
    path(
        "leagues/<slug:slug>/chat/settings/",
        chat_apis.ClubChatSettingsApi.as_view(),
        name="api-league-chat-settings",
    ),
]
