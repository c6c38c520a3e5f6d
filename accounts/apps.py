from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The signal receivers: the services' events and the community's (chat, friends, moderation).
        from . import chat_news, friend_news, moderation_news, receivers  # noqa: F401
