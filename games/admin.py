"""Django admin for organisers: search, filters, and a read-only move log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from common.errors import ServiceError

from .models import Move, Player, Seat, Table
from .services.players import display_name_check


class PlayerForm(forms.ModelForm):  # type: ignore[type-arg]
    """Display names follow the same rules here as everywhere (``games.names``)."""

    class Meta:
        model = Player
        fields = "__all__"

    def clean_display_name(self) -> str:
        player = self.instance if self.instance.pk else None
        try:
            return display_name_check(display_name=self.cleaned_data["display_name"], player=player)
        except ServiceError as exc:
            raise forms.ValidationError(exc.extra.get("fields", {}).get("display_name", [str(exc)])) from None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["display_name", "user", "is_bot", "bot_level", "is_guest", "created"]
    list_filter = ["is_bot", "is_guest"]
    search_fields = ["display_name", "user__username", "user__email"]
    raw_id_fields = ["user"]
    #: A vacation moves the player's correspondence clocks (``games.vacation``): changed here, the
    #: clocks would not follow. The player starts and ends it on their settings page.
    readonly_fields = ["vacation_started", "vacation_until", "vacation_year", "vacation_days_used"]
    actions = ["mark_outside_bot"]

    @admin.action(description="Mark as outside bot account")
    def mark_outside_bot(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        """An outside bot (``Player.is_outside_bot``) plays through the API with its own program
        and unrated tables only; the service never moves for it. Guests and house bots stay as
        they are. Staff may mark any other account (players upgrade only fresh ones themselves:
        ``POST /api/v1/account/bot/``)."""
        chosen = queryset.filter(is_guest=False).exclude(is_bot=True, bot_level__gt="")
        marked = chosen.update(is_bot=True, bot_level="")
        skipped = queryset.count() - marked
        self.message_user(
            request,
            f"{marked} account(s) marked as outside bots"
            + (f"; {skipped} left as they were (guests and house bots)" if skipped else ""),
            messages.SUCCESS,
        )


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["state", "eliminated_at_ply", "elimination_reason", "rank", "markers"]


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ["seq", "ply", "seat", "kind", "notation", "played_at"]
    readonly_fields = fields
    can_delete = False
    ordering = ["seq"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "edition", "players", "status", "ply", "to_move", "rated", "created_at"]
    list_filter = ["status", "game", "players", "rated"]
    search_fields = ["id", "seats__player__display_name", "seats__player__user__username"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, MoveInline]
    readonly_fields = [
        "position",
        "initial_position",
        "ply",
        "to_move",
        "actions",
        "result",
        "end_reason",
        "winner_seat",
        "started_at",
        "finished_at",
    ]
    raw_id_fields = ["created_by"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "number", "player", "state", "elimination_reason", "rank", "markers"]
    list_filter = ["state", "elimination_reason"]
    search_fields = ["player__display_name", "player__user__username", "table__id"]
    raw_id_fields = ["table", "player"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """The move log is append-only: it can be read and searched, never edited."""

    list_display = ["table", "seq", "ply", "seat", "kind", "notation", "played_at"]
    list_filter = ["kind"]
    search_fields = ["table__id", "notation"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
