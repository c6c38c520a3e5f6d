from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from ratings import pages as rating_pages
from tournaments import pages as tournament_pages
from web import pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("tables/new/", pages.table_create_page, name="table-create"),
    path("tables/<int:table_id>/", pages.table_page, name="table"),
    path("tables/<int:table_id>/<str:action>/", pages.table_action_page, name="table-action"),
    path("play-bot/", pages.play_bot, name="play-bot"),
    path("accounts/signup/", pages.signup, name="signup"),
    path("ratings/<str:game>/", rating_pages.leaderboard_page, name="leaderboard"),
    path("players/<int:player_id>/", rating_pages.player_page, name="player"),
    path("leagues/<slug:slug>/", tournament_pages.league_page, name="league"),
    path("tournaments/<int:tournament_id>/", tournament_pages.tournament_page, name="tournament"),
    path("ladders/<int:ladder_id>/", tournament_pages.ladder_page, name="ladder"),
    path("organiser/", tournament_pages.dashboard, name="dashboard"),
    path("organiser/bot-match/", tournament_pages.bot_match_page, name="bot-match"),
    path(
        "organiser/<int:tournament_id>/<str:action>/",
        tournament_pages.dashboard_action,
        name="dashboard-action",
    ),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("ratings.urls")),
    path("api/v1/", include("tournaments.urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
]
