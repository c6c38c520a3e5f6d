from django.urls import path

from common.validation import register_id_converter

from . import apis

register_id_converter()

urlpatterns = [
    path("ratings/<str:game>/", apis.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("ratings/<str:game>/quality/", apis.QualityApi.as_view(), name="api-match-quality"),
    path("players/<id:player_id>/ratings/", apis.PlayerRatingsApi.as_view(), name="api-player-ratings"),
]
