from django.contrib import admin

from .models import Rating, RatingChange, RatingUpdate


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "conservative", "mu", "sigma", "games", "last_played"]
    list_filter = ["game"]
    search_fields = ["player__display_name", "player__user__username"]
    raw_id_fields = ["player"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = [
        "player",
        "game",
        "table",
        "rank",
        "seats",
        "conservative_before",
        "conservative_after",
        "at",
    ]
    list_filter = ["game", "seats"]
    search_fields = ["player__display_name", "table__id"]
    raw_id_fields = ["player", "table"]


@admin.register(RatingUpdate)
class RatingUpdateAdmin(admin.ModelAdmin):
    list_display = ["table", "game", "applied_at"]
    list_filter = ["game"]
    raw_id_fields = ["table"]
