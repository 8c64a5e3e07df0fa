from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Snap"

    def ready(self) -> None:
        from games.content.version import watch_content_models

        watch_content_models()
