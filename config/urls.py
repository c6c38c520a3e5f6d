from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from common.redoc_bundle import redoc_bundle
from common.schema_api import SchemaApi
from common.validation import register_id_converter
from config import i18n
from config.metrics import metrics
from ratings import pages as rating_pages
from tournaments import pages as tournament_pages
from web import pages
from web.player_page import player_block_page, player_page
from web.signin import AdminSignInForm, SignInView, admin_sign_in

register_id_converter()

# Under /api/ a 404 or 500 answers the API's JSON error shape; pages get a plain short page.
handler400 = "common.errors.bad_request"
handler404 = "common.errors.page_not_found"
handler500 = "common.errors.server_error"

# The admin's sign-in goes through the site's sign-in limits (web.signin).
admin.site.login_form = AdminSignInForm

#: The API, under one prefix and first: a move (the hot path) is found without trying the pages'
#: patterns, and a page without trying the API's. No page lives under /api/.
api_patterns = [
    path("", include("games.hot_urls")),  # the move route first: matched at the first try
    path("", include("accounts.urls")),
    path("", include("live.api_urls")),
    path("", include("games.urls")),
    path("", include("ratings.urls")),
    # Before tournaments: its ``ladders/<id>/<action>/`` would take ``ladders/<id>/chat/``.
    path("", include("community.api_urls")),
    path("", include("analysis.api_urls")),
    path("", include("tournaments.urls")),
    path("schema/", SchemaApi.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    # Redoc's script with its CDN logo pointed home (common.redoc_bundle; REDOC_DIST in settings).
    path("redoc-assets/bundles/redoc.standalone.js", redoc_bundle, name="api-redoc-bundle"),
]

urlpatterns = [
    path("api/v1/", include(api_patterns)),
    path("", pages.home, name="home"),
    path("tables/new/", pages.table_create_page, name="table-create"),
    path("tables/<id:table_id>/", pages.table_page, name="table"),
    path("tables/<id:table_id>/<str:action>/", pages.table_action_page, name="table-action"),
    path("play-bot/", pages.play_bot, name="play-bot"),
    path("accounts/signup/", pages.signup, name="signup"),
    path("accounts/signup/check-mail/", pages.signup_check_mail, name="signup-check-mail"),
    path("ratings/<str:game>/", rating_pages.leaderboard_page, name="leaderboard"),
    path("players/<id:player_id>/", player_page, name="player"),
    path("players/<id:player_id>/<str:action>/", player_block_page, name="player-block"),
    path("tournaments/", tournament_pages.tournament_list_page, name="tournaments"),
    path("ladders/", tournament_pages.ladder_list_page, name="ladders"),
    path("leagues/", tournament_pages.league_list_page, name="leagues"),
    path("leagues/<slug:slug>/", tournament_pages.league_page, name="league"),
    path("", include("tournaments.competitions.urls")),
    path("", include("tournaments.ladders.urls")),
    path("", include("tournaments.pools.urls")),
    path("", include("tournaments.organising.urls")),
    path("", include("tournaments.calendar.urls")),
    path("", include("tournaments.seasons.urls")),
    path("", include("tournaments.teams.urls")),
    path("", include("community.page_urls")),
    path("", include("analysis.page_urls")),
    path("", include("web.rules_urls")),
    path("", include("web.walkthrough_urls")),
    path("", include("accounts.page_urls")),
    path("", include("live.urls")),
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/login/", admin_sign_in, name="admin-sign-in"),
    path("admin/", admin.site.urls),
    path("metrics", metrics, name="metrics"),
    path("i18n/setlang/", i18n.set_language, name="set_language"),
    path("jsi18n/<str:lang>.js", i18n.javascript_catalog, name="javascript-catalog"),
]
