from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Analysis: graded bots, their ladder, game analysis, hints and the explorer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's idiom: receivers are connected once the models are loaded.
        from . import receivers  # noqa: F401
