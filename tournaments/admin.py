from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from common.errors import ServiceError
from games.clocks import TimeControl

from .models import (
    League,
    OrganiserRequest,
    OrganiserRole,
    Pool,
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


class PoolForm(forms.ModelForm):
    class Meta:
        model = Pool
        fields = ["game", "players", "time_control", "rated", "active", "position"]

    def clean_players(self) -> int:
        players = self.cleaned_data["players"]
        if not 2 <= players <= 4:
            raise forms.ValidationError("a pool's tables seat 2 to 4 players")
        return int(players)

    def clean_time_control(self) -> dict[str, Any]:
        """Stored normalised, as tables store it (the API compares clocks that way)."""
        try:
            return TimeControl.from_dict(self.cleaned_data["time_control"]).to_dict()
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


@admin.register(Pool)
class PoolAdmin(admin.ModelAdmin):
    """Quick pairing pools (tournaments.pools): staff add them; an inactive pool lets its waiting
    players go at the next wave."""

    form = PoolForm
    list_display = ["__str__", "game", "players", "rated", "active", "position", "waiting"]
    list_editable = ["active", "position"]
    list_filter = ["game", "players", "rated", "active"]
    readonly_fields = ["created_by", "created"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pool]:
        return super().get_queryset(request).annotate(waiting_count=Count("entries"))

    @admin.display(description="waiting", ordering="waiting_count")
    def waiting(self, pool: Pool) -> int:
        return int(getattr(pool, "waiting_count", 0))

    def save_model(self, request: HttpRequest, obj: Pool, form: Any, change: bool) -> None:
        if not change and obj.created_by_id is None:
            obj.created_by = getattr(request.user, "player", None)
        super().save_model(request, obj, form, change)
