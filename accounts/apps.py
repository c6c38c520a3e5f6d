from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the signal receivers)
        from . import chat_news, friend_news, moderation_news  # noqa: F401  (the community's events)
