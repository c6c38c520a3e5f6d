from django.urls import path

from . import apis

urlpatterns = [
    path("auth/register/", apis.RegisterApi.as_view(), name="api-register"),
    path("notifications/", apis.NotificationsApi.as_view(), name="api-notifications"),
    path("notifications/read/", apis.NotificationsReadApi.as_view(), name="api-notifications-read"),
]
