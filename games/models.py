"""Translated content: the rules sections and the glossary.

The text lives in ``games/content/<lang>.toml`` and is loaded by the
``load_content`` command; staff may edit it in the admin afterwards.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class RulesSection(models.Model):
    slug = models.SlugField(_("anchor"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    clauses = models.CharField(
        _("rule clauses"),
        max_length=200,
        blank=True,
        help_text=_("Clause ids of RULES.md, separated by commas, for example R9,R10."),
    )
    title = models.CharField(_("title"), max_length=200)
    body = models.TextField(_("text"))

    class Meta:
        ordering = ["order"]
        verbose_name = _("rules section")
        verbose_name_plural = _("rules sections")

    def __str__(self) -> str:
        return self.title

    @property
    def clause_ids(self) -> list[str]:
        return [c.strip() for c in self.clauses.split(",") if c.strip()]


class GlossaryEntry(models.Model):
    slug = models.SlugField(_("anchor"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    term = models.CharField(_("term"), max_length=120)
    definition = models.TextField(_("definition"))

    class Meta:
        ordering = ["order"]
        verbose_name = _("glossary entry")
        verbose_name_plural = _("glossary entries")

    def __str__(self) -> str:
        return self.term
