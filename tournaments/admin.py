from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from common.errors import ServiceError

from .models import (
    League,
    OrganiserRequest,
    OrganiserRole,
    Registration,
    Round,
    RoundTable,
    Season,
    Tournament,
)
from .organising import roles as organisers


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["organisers", "members"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts", "ends"]
    list_filter = ["league"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "game", "seats", "format", "status", "current_round", "rounds"]
    list_filter = ["status", "format", "game", "seats", "league"]
    search_fields = ["name", "league__name"]
    inlines = [RegistrationInline]
    raw_id_fields = ["created_by"]


class RoundTableInline(admin.TabularInline):
    model = RoundTable
    extra = 0
    raw_id_fields = ["table"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "started_at", "finished_at"]
    list_filter = ["status"]
    inlines = [RoundTableInline]


@admin.register(OrganiserRole)
class OrganiserRoleAdmin(admin.ModelAdmin):
    """Granting the role: add a row (the player, and their daily bot-match limit)."""

    list_display = ["player", "granted_by", "granted_at", "bot_tables_per_day"]
    search_fields = ["player__display_name", "player__user__username"]
    raw_id_fields = ["player", "granted_by"]
    readonly_fields = ["granted_by", "granted_at"]

    def save_model(self, request: HttpRequest, obj: OrganiserRole, form: Any, change: bool) -> None:
        if not change:
            obj.granted_by = request.user.player  # type: ignore[union-attr]
        super().save_model(request, obj, form, change)


@admin.register(OrganiserRequest)
class OrganiserRequestAdmin(admin.ModelAdmin):
    list_display = ["player", "status", "created", "message", "decided_by", "decided_at"]
    list_filter = ["status"]
    search_fields = ["player__display_name", "player__user__username", "message"]
    raw_id_fields = ["player", "decided_by"]
    readonly_fields = ["decided_by", "decided_at", "created"]
    actions = ["grant_role", "refuse_request"]

    @admin.action(description="Grant the organiser role to the selected players")
    def grant_role(self, request: HttpRequest, queryset: QuerySet[OrganiserRequest]) -> None:
        me = request.user.player  # type: ignore[union-attr]
        done = 0
        for req in queryset.filter(status=OrganiserRequest.Status.PENDING).select_related("player"):
            try:
                organisers.grant(player=req.player, by=me)
            except ServiceError as exc:
                self.message_user(request, f"{req.player}: {exc.detail}", messages.ERROR)
            else:
                done += 1
        self.message_user(request, f"{done} player(s) made organisers")

    @admin.action(description="Refuse the selected requests")
    def refuse_request(self, request: HttpRequest, queryset: QuerySet[OrganiserRequest]) -> None:
        me = request.user.player  # type: ignore[union-attr]
        pending = queryset.filter(status=OrganiserRequest.Status.PENDING)
        for req in pending:
            organisers.refuse(request_id=req.pk, by=me)
        self.message_user(request, f"{len(pending)} request(s) refused")
