from django.contrib import admin
from modeltranslation.admin import TabbedTranslationAdmin

from .models import GlossaryEntry, RulesSection


class LocalTabbedAdmin(TabbedTranslationAdmin):
    """Tabbed translation fields with jQuery UI served from our static files.

    modeltranslation's default media loads jQuery UI from a CDN; pages must
    work offline, so the same files are shipped under ``static/vendor``.
    """

    class Media:
        js = (
            "admin/js/jquery.init.js",
            "modeltranslation/js/force_jquery.js",
            "vendor/jquery-ui/jquery-ui.min.js",
            "modeltranslation/js/tabbed_translation_fields.js",
        )
        css = {
            "all": (
                "vendor/jquery-ui/jquery-ui.min.css",
                "modeltranslation/css/tabbed_translation_fields.css",
            )
        }


@admin.register(RulesSection)
class RulesSectionAdmin(LocalTabbedAdmin):
    list_display = ("order", "slug", "title", "clauses")
    list_display_links = ("slug", "title")
    ordering = ("order",)


@admin.register(GlossaryEntry)
class GlossaryEntryAdmin(LocalTabbedAdmin):
    list_display = ("order", "slug", "term")
    list_display_links = ("slug", "term")
    ordering = ("order",)
