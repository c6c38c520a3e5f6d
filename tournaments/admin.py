from django.contrib import admin

from .models import League, Registration, Round, RoundTable, Season, Tournament


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
