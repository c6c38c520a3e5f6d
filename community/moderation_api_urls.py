"""The reports and moderation API (``community.moderation_apis``), under ``/api/v1/``."""

from django.urls import URLPattern, URLResolver, path

from common.validation import register_id_converter

from . import moderation_apis as apis

register_id_converter()

urlpatterns: list[URLPattern | URLResolver] = [
    path("reports/", apis.ReportApi.as_view(), name="api-reports"),
    path("moderation/reports/", apis.QueueApi.as_view(), name="api-moderation-reports"),
    path("moderation/reports/<id:report_id>/dismiss/", apis.ReportDismissApi.as_view()),
    path("moderation/reports/<id:report_id>/resolve/", apis.ReportResolveApi.as_view()),
    path("moderation/log/", apis.LogApi.as_view(), name="api-moderation-log"),
    path("chat/messages/<id:message_id>/", apis.MessageDeleteApi.as_view(), name="api-chat-message"),
    path("mutes/", apis.MuteListApi.as_view(), name="api-mutes"),
    path("mutes/<id:mute_id>/", apis.MuteApi.as_view(), name="api-mute"),
]
