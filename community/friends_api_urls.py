"""The friends and challenges API (``community.friends_apis``), under ``/api/v1/``."""

from django.urls import path

from common.validation import register_id_converter

from . import friends_apis

register_id_converter()

urlpatterns = [
    path("players/<id:player_id>/follow/", friends_apis.PlayerFollowApi.as_view(), name="api-player-follow"),
    path(
        "players/<id:player_id>/challenge/",
        friends_apis.PlayerChallengeApi.as_view(),
        name="api-player-challenge",
    ),
    path("follows/", friends_apis.FollowListApi.as_view(), name="api-follows"),
    path("tables/<id:table_id>/decline/", friends_apis.TableDeclineApi.as_view(), name="api-table-decline"),
]
