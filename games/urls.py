from django.urls import path

from common.validation import register_id_converter

from . import apis, blocks_api, review_api, vacation_api

register_id_converter()

urlpatterns = [
    path("health/", apis.HealthApi.as_view(), name="api-health"),
    path("health/ready/", apis.ReadyApi.as_view(), name="api-ready"),
    path("auth/token/", apis.TokenApi.as_view(), name="api-token"),
    path("tables/", apis.TableListApi.as_view(), name="api-tables"),
    path("tables/import/", apis.TableImportApi.as_view(), name="api-table-import"),
    path("tables/<id:table_id>/", apis.TableDetailApi.as_view(), name="api-table"),
    path("tables/<id:table_id>/join/", apis.TableJoinApi.as_view(), name="api-table-join"),
    path("tables/<id:table_id>/leave/", apis.TableLeaveApi.as_view(), name="api-table-leave"),
    path("tables/<id:table_id>/positions/", apis.TablePositionsApi.as_view(), name="api-table-positions"),
    path("tables/<id:table_id>/invite-bot/", apis.TableInviteBotApi.as_view(), name="api-table-invite-bot"),
    path("tables/<id:table_id>/resign/", apis.TableResignApi.as_view(), name="api-table-resign"),
    path("tables/<id:table_id>/record/", apis.TableRecordApi.as_view(), name="api-table-record"),
    path("tables/<id:table_id>/review/", review_api.TableReviewApi.as_view(), name="api-table-review"),
    path("players/", apis.PlayerListApi.as_view(), name="api-players"),
    path("players/<id:player_id>/", apis.PlayerDetailApi.as_view(), name="api-player"),
    path("players/<id:player_id>/block/", blocks_api.PlayerBlockApi.as_view(), name="api-player-block"),
    path("blocks/", blocks_api.BlockListApi.as_view(), name="api-blocks"),
    path("account/vacation/", vacation_api.VacationApi.as_view(), name="api-account-vacation"),
]
