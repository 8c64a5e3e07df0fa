"""Django's template backend, with each rendered page's context freed at once (issue 14,
pages: snapsite/http_cycles.py).

A ``RequestContext`` holds its layers in ``dicts``, and each layer made by ``update()``
or ``push()`` (a ``ContextDict``) points back at the context (``.context``): every page
rendered with a request left that cycle, and with it the view's context (its forms,
tables, the request) for the cycle collector. Once the page is rendered the context's
layers are let go (``dicts`` emptied); nothing reads the context after.
"""

from __future__ import annotations

from django.template import TemplateDoesNotExist
from django.template.backends import django as backend
from django.template.backends.django import reraise
from django.template.context import make_context

__all__ = ["DjangoTemplates", "Template"]


class Template(backend.Template):
    def render(self, context=None, request=None):
        # Django 5.2's Template.render, then the context's layers let go.
        context = make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            return self.template.render(context)
        except TemplateDoesNotExist as exc:
            reraise(exc, self.backend)
        finally:
            context.dicts.clear()


class DjangoTemplates(backend.DjangoTemplates):
    """``django.template.backends.django.DjangoTemplates`` making :class:`Template`."""

    def from_string(self, template_code):
        return Template(self.engine.from_string(template_code), self)

    def get_template(self, template_name):
        try:
            return Template(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            reraise(exc, self)
