"""Short join codes that are easy to read out in a classroom.

The alphabet leaves out letters and digits that are easily confused when read aloud or
in handwriting (0/O/D/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B, U/V).

>>> import random
>>> code = new_code(random.Random(1))
>>> len(code), set(code) <= set(ALPHABET)
(6, True)
>>> normalise_code(" acf-347 ")
'ACF347'
"""

from __future__ import annotations

import random
import secrets

__all__ = ["ALPHABET", "CODE_LENGTH", "new_code", "normalise_code"]

ALPHABET = "ACEFHJKMNPRTWXY3479"
CODE_LENGTH = 6


def new_code(rng: random.Random | None = None) -> str:
    """A fresh random code (not checked against existing tables)."""
    if rng is None:
        return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return "".join(rng.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes) in its stored form."""
    return "".join(ch for ch in text.upper() if ch not in " -")
