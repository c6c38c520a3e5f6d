from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's idiom: receivers are connected once the models are loaded.
        from . import receivers  # noqa: F401  (subscribes to games.events.game_finished)
