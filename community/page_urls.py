"""The community app's pages: the moderation queue (``community.moderation_pages``)."""

from django.urls import URLPattern, URLResolver, path

from common.validation import register_id_converter

from . import moderation_pages as pages

register_id_converter()

urlpatterns: list[URLPattern | URLResolver] = [
    path("moderation/", pages.moderation_page, name="moderation"),
    path("moderation/messages/<id:message_id>/delete/", pages.message_delete_page, name="moderation-delete"),
    path("moderation/mute/", pages.mute_page, name="moderation-mute"),
    path("moderation/mutes/<id:mute_id>/lift/", pages.unmute_page, name="moderation-unmute"),
    path("moderation/reports/<id:report_id>/dismiss/", pages.report_dismiss_page, name="moderation-dismiss"),
    path("moderation/clubs/<slug:slug>/links/", pages.club_links_page, name="moderation-club-links"),
]
