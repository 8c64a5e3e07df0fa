"""``{% js_catalog_url %}``: the versioned address of the JavaScript catalog
(games/js_catalog.py), for ``<script defer src="...">``."""

from django import template

from games.js_catalog import catalog_url

register = template.Library()


@register.simple_tag
def js_catalog_url() -> str:
    return catalog_url()
