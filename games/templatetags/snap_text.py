"""The content files' small markup in templates (:mod:`games.content.markup`)."""

from django import template
from django.utils.safestring import mark_safe

from games.content.markup import inline, render_markup

register = template.Library()


@register.filter(name="markup")
def markup_filter(text: str) -> str:
    return mark_safe(render_markup(text or ""))


@register.filter(name="bdi_numbers")
def bdi_numbers(text: str) -> str:
    return mark_safe(inline(text or ""))
