from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "community"
    verbose_name = "Community: chat, friends, moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's idiom: receivers are connected once the models are loaded.
        from . import receivers  # noqa: F401
