from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from . import bot_api, views

# The API streams are read with a token, as every API operation (DRF's views are CSRF-exempt too):
# a POST to them answers the API's 405, not the CSRF page, and changes nothing.
urlpatterns = [
    path("tables/<id:table_id>/stream/", csrf_exempt(views.table_stream), name="api-table-stream"),
    path("stream/", csrf_exempt(views.player_stream), name="api-stream"),
    path("account/bot/", bot_api.AccountBotApi.as_view(), name="api-account-bot"),
]
