from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Snap"

    def ready(self) -> None:
        from games.content.version import watch_content_models
        from games.replay.kept import drop_deleted_tables
        from games.tables.changes import watch_deleted_tables

        watch_content_models()
        watch_deleted_tables()
        drop_deleted_tables()
