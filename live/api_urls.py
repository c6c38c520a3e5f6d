from django.urls import path

from . import bot_api, views

urlpatterns = [
    path("tables/<id:table_id>/stream/", views.table_stream, name="api-table-stream"),
    path("stream/", views.player_stream, name="api-stream"),
    path("account/bot/", bot_api.AccountBotApi.as_view(), name="api-account-bot"),
]
