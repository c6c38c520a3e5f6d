from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues and tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's idiom: receivers are connected once the models are loaded.
        from . import receivers  # noqa: F401  (subscribes to games.events.game_finished)
