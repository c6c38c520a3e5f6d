from django.urls import path

from . import apis

urlpatterns = [
    path("leagues/", apis.LeagueListApi.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", apis.LeagueDetailApi.as_view(), name="api-league"),
    path("leagues/<slug:slug>/join/", apis.LeagueJoinApi.as_view(), name="api-league-join"),
    path("tournaments/", apis.TournamentListApi.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", apis.TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/standings/", apis.TournamentStandingsApi.as_view()),
    path("tournaments/<int:tournament_id>/rounds/<int:number>/", apis.TournamentRoundApi.as_view()),
    path("tournaments/<int:tournament_id>/open/", apis.OpenApi.as_view()),
    path("tournaments/<int:tournament_id>/register/", apis.RegisterApi.as_view()),
    path("tournaments/<int:tournament_id>/check-in/", apis.CheckInApi.as_view()),
    path("tournaments/<int:tournament_id>/withdraw/", apis.WithdrawApi.as_view()),
    path("tournaments/<int:tournament_id>/start/", apis.StartApi.as_view()),
    path("tournaments/<int:tournament_id>/rounds/next/", apis.NextRoundApi.as_view()),
    path("tournaments/<int:tournament_id>/rounds/repair/", apis.RepairApi.as_view()),
    path("tournaments/<int:tournament_id>/bye/", apis.ByeApi.as_view()),
    path("tournaments/<int:tournament_id>/late-entry/", apis.LateEntryApi.as_view()),
    path("ladders/", apis.LadderListApi.as_view(), name="api-ladders"),
    path("ladders/<int:ladder_id>/", apis.LadderDetailApi.as_view(), name="api-ladder"),
    path("ladders/<int:ladder_id>/<str:action>/", apis.LadderActionApi.as_view(), name="api-ladder-action"),
    path(
        "challenges/<int:challenge_id>/<str:action>/", apis.ChallengeActionApi.as_view(), name="api-challenge"
    ),
]
