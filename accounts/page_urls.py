from django.contrib.auth import views as auth_views
from django.urls import path

from . import forms, pages

urlpatterns = [
    path("accounts/settings/", pages.settings_account, name="settings-account"),
    path("accounts/settings/notifications/", pages.settings_notifications, name="settings-notifications"),
    path("accounts/settings/sessions/", pages.settings_sessions, name="settings-sessions"),
    path("accounts/settings/data/", pages.settings_data, name="settings-data"),
    path("accounts/settings/data/export/", pages.export_download, name="settings-export"),
    path("accounts/password_change/", pages.PasswordChange.as_view(), name="password_change"),
    path("accounts/verify/<str:token>/", pages.verify_email, name="verify-email"),
    path("accounts/unsubscribe/<str:token>/", pages.unsubscribe, name="unsubscribe"),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(
            form_class=forms.OutboxPasswordResetForm,
            template_name="accounts/password_reset_form.html",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        pages.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_complete.html"),
        name="password_reset_complete",
    ),
    path("calendar/<str:secret>.ics", pages.calendar_feed, name="calendar-feed"),
    path("notifications/", pages.inbox, name="inbox"),
    path("notifications/<id:notification_id>/", pages.inbox_open, name="inbox-open"),
    path("notifications/<id:notification_id>/read/", pages.inbox_read, name="inbox-read"),
]
