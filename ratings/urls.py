from django.urls import path

from . import apis

urlpatterns = [
    path("ratings/<str:game>/", apis.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("ratings/<str:game>/quality/", apis.QualityApi.as_view(), name="api-match-quality"),
    path("players/<int:player_id>/ratings/", apis.PlayerRatingsApi.as_view(), name="api-player-ratings"),
]
