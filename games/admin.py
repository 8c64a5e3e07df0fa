from django import forms
from django.contrib import admin
from django.utils.html import format_html, linebreaks
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from games.content.files import CURRENT, MISSING, STALE, TRANSLATED_LANGUAGES, is_fingerprint

from .context_processors import NATIVE_NAMES
from .models import GlossaryEntry, RulesSection, Seat, StartStep, Table, TableAction, TableEvent

STATE_NAMES = {STALE: _("stale"), MISSING: _("missing")}


class TranslationCheckForm(forms.ModelForm):
    """Shows the English beside every translation and says which are stale.

    ``english_seen`` carries the fingerprint of the English the editor was
    shown; saving a translation records that fingerprint, not the one of
    whatever English is in the database when the form comes back.
    """

    english_seen = forms.CharField(widget=forms.HiddenInput, required=False)
    still_current = forms.MultipleChoiceField(
        label=_("Translations that still match the English shown"),
        help_text=_(
            "Tick a language whose text needs no change for this English: saving records it "
            "as translated from this English. A translation you edit is recorded anyway."
        ),
        choices=[(code, f"{NATIVE_NAMES[code]} ({code})") for code in TRANSLATED_LANGUAGES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        unit = self.instance
        if not unit.pk:
            return
        self.initial["english_seen"] = unit.english_fingerprint()
        for field in unit.text_fields():
            english = getattr(unit, f"{field}_en") or ""
            for lang in TRANSLATED_LANGUAGES:
                name = f"{field}_{lang}"
                if name in self.fields:
                    state = unit.translation_state(lang)
                    self.fields[name].help_text = self._beside(english, state)

    @staticmethod
    def _beside(english: str, state: str) -> str:
        note = ""
        if state == STALE:
            note = format_html(
                '<p class="translation-state translation-stale">⚠ {}</p>',
                gettext("Stale: the English has changed since this translation was made."),
            )
        elif state != CURRENT:
            note = format_html(
                '<p class="translation-state translation-missing">⚠ {}</p>',
                gettext("Not translated yet."),
            )
        return format_html(
            '{}<div class="english-source" lang="en" dir="ltr"><p class="english-label">{}</p>'
            "{}</div>",
            note,
            gettext("The English:"),
            mark_safe(linebreaks(english, autoescape=True)),  # escaped by linebreaks
        )

    def clean_english_seen(self):
        value = self.cleaned_data.get("english_seen", "")
        if self.instance.pk and not is_fingerprint(value):
            raise forms.ValidationError(
                gettext("The page lost track of the English it showed; reload it and try again.")
            )
        return value


class LocalTabbedAdmin(TabbedTranslationAdmin):
    """A tab per language. jQuery UI comes from our static files (settings
    JQUERY_UI_URL), never from a CDN; this adds its theme for the tabs."""

    class Media:
        css = {
            "all": (
                "vendor/jquery-ui/jquery-ui.min.css",
                "games/css/admin-translations.css",
            )
        }


class TranslatedUnitAdmin(LocalTabbedAdmin):
    """Editing a translated unit records what each translation was made from."""

    form = TranslationCheckForm

    @admin.display(description=_("Translations to check"))
    def translations_to_check(self, unit) -> str:
        states = {lang: unit.translation_state(lang) for lang in TRANSLATED_LANGUAGES}
        todo = [f"{lang}: {STATE_NAMES[s]}" for lang, s in states.items() if s != CURRENT]
        return ", ".join(todo) or "✓"

    def save_model(self, request, obj, form, change):
        # A new unit's English is typed in this very form; otherwise it is the English shown.
        seen = form.cleaned_data.get("english_seen") if change else obj.english_fingerprint()
        confirmed = set(form.cleaned_data.get("still_current") or ())
        for lang in TRANSLATED_LANGUAGES:
            edited = any(f"{field}_{lang}" in form.changed_data for field in obj.text_fields())
            has_text = all(text.strip() for text in obj.texts(lang))
            if seen and has_text and (edited or lang in confirmed):
                setattr(obj, f"source_{lang}", seen)
        super().save_model(request, obj, form, change)


@admin.register(RulesSection)
class RulesSectionAdmin(TranslatedUnitAdmin):
    list_display = ("order", "slug", "title", "clauses", "translations_to_check")
    list_display_links = ("slug", "title")
    ordering = ("order",)


@admin.register(GlossaryEntry)
class GlossaryEntryAdmin(TranslatedUnitAdmin):
    list_display = ("order", "slug", "term", "translations_to_check")
    list_display_links = ("slug", "term")
    ordering = ("order",)


@admin.register(StartStep)
class StartStepAdmin(TranslatedUnitAdmin):
    list_display = ("order", "slug", "title", "translations_to_check")
    list_display_links = ("slug", "title")
    ordering = ("order",)


# -- Live tables: looked at, never edited (the service is the tables' only writer) -------


class ReadOnlyAdmin(admin.ModelAdmin):
    """View and delete only: a table's rows are written by its owner alone, and an edit
    here would make the stored record disagree with the game that was played."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    # not the session key: it would let whoever reads it play as that person
    fields = ("number", "display_name", "is_bot", "bot_level")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("code", "players", "seated", "public", "created")
    list_filter = ("public",)
    search_fields = ("code",)
    # the deck and position show every face-down card; the teacher's key is a session
    exclude = ("deck", "position", "teacher_key")
    inlines = (SeatInline,)

    @admin.display(description=_("seated"))
    def seated(self, table) -> str:
        return ", ".join(
            gettext("computer") if seat.is_bot else (seat.display_name or "–")
            for seat in table.seats.all()
        )

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats")


@admin.register(TableAction)
class TableActionAdmin(ReadOnlyAdmin):
    list_display = ("table", "index", "data")
    list_select_related = ("table",)
    search_fields = ("table__code",)


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "seq", "data")
    list_select_related = ("table",)
    search_fields = ("table__code",)
