from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's idiom: receivers are connected once the models are loaded.
        from . import receivers  # noqa: F401  (every user account gets its player)
