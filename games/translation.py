from modeltranslation.translator import TranslationOptions, register

from .models import GlossaryEntry, RulesSection, StartStep

ALL_LANGUAGES = ("en", "ms", "mr", "he", "ta", "hr")


@register(RulesSection)
class RulesSectionTranslation(TranslationOptions):
    fields = ("title", "body")
    required_languages = ALL_LANGUAGES


@register(GlossaryEntry)
class GlossaryEntryTranslation(TranslationOptions):
    fields = ("term", "definition")
    required_languages = ALL_LANGUAGES


@register(StartStep)
class StartStepTranslation(TranslationOptions):
    fields = ("title", "body")
    required_languages = ALL_LANGUAGES
