from django.urls import path

from common.validation import register_id_converter

from . import apis

register_id_converter()

urlpatterns = [
    path("leagues/", apis.LeagueListApi.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", apis.LeagueDetailApi.as_view(), name="api-league"),
    path("leagues/<slug:slug>/join/", apis.LeagueJoinApi.as_view(), name="api-league-join"),
    path("tournaments/", apis.TournamentListApi.as_view(), name="api-tournaments"),
    path("tournaments/<id:tournament_id>/", apis.TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<id:tournament_id>/standings/", apis.TournamentStandingsApi.as_view()),
    path("tournaments/<id:tournament_id>/rounds/<id:number>/", apis.TournamentRoundApi.as_view()),
    path("tournaments/<id:tournament_id>/open/", apis.OpenApi.as_view()),
    path("tournaments/<id:tournament_id>/register/", apis.RegisterApi.as_view()),
    path("tournaments/<id:tournament_id>/check-in/", apis.CheckInApi.as_view()),
    path("tournaments/<id:tournament_id>/withdraw/", apis.WithdrawApi.as_view()),
    path("tournaments/<id:tournament_id>/start/", apis.StartApi.as_view()),
    path("tournaments/<id:tournament_id>/rounds/next/", apis.NextRoundApi.as_view()),
    path("tournaments/<id:tournament_id>/rounds/repair/", apis.RepairApi.as_view()),
    path("tournaments/<id:tournament_id>/bye/", apis.ByeApi.as_view()),
    path("tournaments/<id:tournament_id>/late-entry/", apis.LateEntryApi.as_view()),
    path("late-entry-invitations/", apis.LateEntryInvitationListApi.as_view(), name="api-late-invitations"),
    path(
        "late-entry-invitations/<id:invitation_id>/<str:action>/",
        apis.LateEntryInvitationActionApi.as_view(),
        name="api-late-invitation",
    ),
    path("organiser-requests/", apis.OrganiserRequestListApi.as_view(), name="api-organiser-requests"),
    path(
        "organiser-requests/<id:request_id>/<str:action>/",
        apis.OrganiserRequestActionApi.as_view(),
        name="api-organiser-request",
    ),
    path("ladders/", apis.LadderListApi.as_view(), name="api-ladders"),
    path("ladders/<id:ladder_id>/", apis.LadderDetailApi.as_view(), name="api-ladder"),
    path("ladders/<id:ladder_id>/<str:action>/", apis.LadderActionApi.as_view(), name="api-ladder-action"),
    path(
        "challenges/<id:challenge_id>/<str:action>/", apis.ChallengeActionApi.as_view(), name="api-challenge"
    ),
]
