from django.urls import path

from common.validation import register_id_converter

from . import apis
from .arena import apis as arena_apis
from .calendar import apis as calendar_apis
from .calendar import series_apis
from .pools import apis as pool_apis
from .seasons import apis as season_apis
from .teams import apis as team_apis
from .teams import event_apis as team_event_apis
from .teams import season_apis as team_season_apis

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
    # Scheduled starts (tournaments.calendar.apis).
    path("tournaments/<id:tournament_id>/postpone/", calendar_apis.PostponeApi.as_view()),
    path("tournaments/<id:tournament_id>/call-off/", calendar_apis.CallOffApi.as_view()),
    path("tournaments/<id:tournament_id>/rounds/next/", apis.NextRoundApi.as_view()),
    path("tournaments/<id:tournament_id>/rounds/repair/", apis.RepairApi.as_view()),
    path("tournaments/<id:tournament_id>/bye/", apis.ByeApi.as_view()),
    path("tournaments/<id:tournament_id>/late-entry/", apis.LateEntryApi.as_view()),
    # Arenas (tournaments.arena.apis).
    path("tournaments/<id:tournament_id>/arena/", arena_apis.ArenaApi.as_view(), name="api-arena"),
    path("tournaments/<id:tournament_id>/arena/join/", arena_apis.ArenaJoinApi.as_view()),
    path("tournaments/<id:tournament_id>/arena/pause/", arena_apis.ArenaPauseApi.as_view()),
    path("tournaments/<id:tournament_id>/arena/resume/", arena_apis.ArenaResumeApi.as_view()),
    path("tournaments/<id:tournament_id>/arena/withdraw/", arena_apis.ArenaWithdrawApi.as_view()),
    path("tables/<id:table_id>/berserk/", arena_apis.BerserkApi.as_view(), name="api-table-berserk"),
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
    path("leagues/<slug:slug>/seasons/", season_apis.LeagueSeasonsApi.as_view(), name="api-league-seasons"),
    path("seasons/<id:season_id>/", season_apis.SeasonDetailApi.as_view(), name="api-season"),
    path("seasons/<id:season_id>/series/", season_apis.SeriesTableApi.as_view(), name="api-season-series"),
    path("seasons/<id:season_id>/register/", season_apis.RegisterApi.as_view()),
    path("seasons/<id:season_id>/withdraw/", season_apis.WithdrawApi.as_view()),
    path("seasons/<id:season_id>/unavailable/", season_apis.UnavailableApi.as_view()),
    path("seasons/<id:season_id>/start/", season_apis.StartApi.as_view()),
    path("seasons/<id:season_id>/close/", season_apis.CloseApi.as_view()),
    path("seasons/<id:season_id>/teams/register/", team_season_apis.TeamSeasonRegisterApi.as_view()),
    path("seasons/<id:season_id>/teams/withdraw/", team_season_apis.TeamSeasonWithdrawApi.as_view()),
    path("quick-pairing/", pool_apis.QuickPairingApi.as_view(), name="api-quick-pairing"),
    path("ladders/", apis.LadderListApi.as_view(), name="api-ladders"),
    path("ladders/<id:ladder_id>/", apis.LadderDetailApi.as_view(), name="api-ladder"),
    path("ladders/<id:ladder_id>/<str:action>/", apis.LadderActionApi.as_view(), name="api-ladder-action"),
    path(
        "challenges/<id:challenge_id>/<str:action>/", apis.ChallengeActionApi.as_view(), name="api-challenge"
    ),
    # Teams (tournaments.teams.apis).
    path("teams/", team_apis.TeamListApi.as_view(), name="api-teams"),
    path("teams/<slug:slug>/", team_apis.TeamDetailApi.as_view(), name="api-team"),
    path("teams/<slug:slug>/invite/", team_apis.TeamInviteApi.as_view()),
    path("teams/<slug:slug>/join/", team_apis.TeamJoinApi.as_view()),
    path("teams/<slug:slug>/leave/", team_apis.TeamLeaveApi.as_view()),
    path("teams/<slug:slug>/members/<id:player_id>/", team_apis.TeamMemberApi.as_view()),
    path("teams/<slug:slug>/roles/", team_apis.TeamRolesApi.as_view()),
    path("teams/<slug:slug>/board-order/", team_apis.TeamBoardOrderApi.as_view()),
    path("team-invitations/", team_apis.TeamInvitationListApi.as_view(), name="api-team-invitations"),
    path(
        "team-invitations/<id:invitation_id>/<str:action>/",
        team_apis.TeamInvitationActionApi.as_view(),
        name="api-team-invitation",
    ),
    # Team events (tournaments.teams.event_apis).
    path("team-events/", team_event_apis.TeamEventListApi.as_view(), name="api-team-events"),
    path("team-events/<id:event_id>/", team_event_apis.TeamEventDetailApi.as_view(), name="api-team-event"),
    path("team-events/<id:event_id>/standings/", team_event_apis.TeamEventStandingsApi.as_view()),
    path("team-events/<id:event_id>/rounds/<id:number>/", team_event_apis.TeamEventRoundApi.as_view()),
    path("team-events/<id:event_id>/enter/", team_event_apis.TeamEventEnterApi.as_view()),
    path("team-events/<id:event_id>/withdraw/", team_event_apis.TeamEventWithdrawApi.as_view()),
    path("team-events/<id:event_id>/start/", team_event_apis.TeamEventStartApi.as_view()),
    path("team-events/<id:event_id>/cancel/", team_event_apis.TeamEventCancelApi.as_view()),
    path("team-matches/<id:match_id>/", team_event_apis.TeamMatchApi.as_view(), name="api-team-match"),
    path("team-rounds/<id:round_id>/lineups/<id:team_id>/", team_event_apis.LineUpApi.as_view()),
    # Recurring events (tournaments.calendar.series_apis).
    path("leagues/<slug:slug>/series/", series_apis.LeagueSeriesApi.as_view(), name="api-league-series"),
    path("series/<id:series_id>/", series_apis.SeriesDetailApi.as_view(), name="api-series"),
    path("series/<id:series_id>/skip/", series_apis.SeriesSkipApi.as_view(), name="api-series-skip"),
]
