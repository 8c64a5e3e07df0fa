from django.contrib import admin
from modeltranslation.admin import TabbedTranslationAdmin

from .models import GlossaryEntry, RulesSection


class LocalTabbedAdmin(TabbedTranslationAdmin):
    """A tab per language. jQuery UI comes from our static files (settings
    JQUERY_UI_URL), never from a CDN; this adds its theme for the tabs."""

    class Media:
        css = {"all": ("vendor/jquery-ui/jquery-ui.min.css",)}


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
