"""A kept page's CSRF token for this visitor, masked anew, made cheaply.

Django's ``get_token`` masks the secret with 32 characters drawn one by one from the
system's random source (a quarter of a kept page's answer), and marks the cookie to be
sent again with every answer (a ``Set-Cookie`` on every page read). Here the mask is
drawn in one read of ``os.urandom`` (without bias: bytes past the last whole multiple
of 62 are thrown away), the same way Django masks (its ``_unmask_cipher_token`` reads
it back: tests/content/test_page_cache.py posts it), and a visitor who already has the
cookie is not sent it again. A visitor without one gets it from ``get_token``.
"""

from __future__ import annotations

import os

from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token

__all__ = ["visitor_token"]

CHARS = CSRF_ALLOWED_CHARS
INDEX = {char: i for i, char in enumerate(CHARS)}
#: Random bytes at or above this are thrown away (248 = 4 x 62: each index as likely).
UNBIASED_BELOW = 256 - 256 % len(CHARS)


def random_indexes(count: int) -> list[int]:
    indexes: list[int] = []
    while len(indexes) < count:
        indexes += [b % len(CHARS) for b in os.urandom(count + 8) if b < UNBIASED_BELOW]
    return indexes[:count]


def masked(secret: str) -> str:
    """``secret`` masked as Django masks it: a random mask, then the secret shifted by it."""
    mask = random_indexes(CSRF_SECRET_LENGTH)
    cipher = (CHARS[(INDEX[char] + m) % len(CHARS)] for char, m in zip(secret, mask, strict=True))
    return "".join(CHARS[m] for m in mask) + "".join(cipher)


def visitor_token(request) -> str:
    """This visitor's CSRF token for a form, freshly masked (see the module's docstring)."""
    secret = request.META.get("CSRF_COOKIE")
    if not secret or len(secret) != CSRF_SECRET_LENGTH or not set(secret) <= INDEX.keys():
        return get_token(request)
    return masked(secret)
