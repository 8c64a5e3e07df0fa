"""A kept page compressed once, its visitor's CSRF token put in at each answer.

Compressing a 39 kB page (the Tamil rules) took most of an answer served from the page
cache, anew for every request, because each answer carries its own token. Here the
page's parts around the token's holes are compressed once, each ended with a full
flush (the compressor forgets what came before, so no later part refers back across a
hole); an answer is those blocks with the token between them as a stored (not
compressed) deflate block, inside a gzip header and trailer (CRC-32 and length of the
whole). The token is never compressed, so the answer's length says nothing about it
(BREACH needs a secret compressed beside text an attacker chose).
"""

from __future__ import annotations

import struct
import zlib

__all__ = ["PackedPage"]

#: gzip member header: deflate, no flags, no time, unknown system (RFC 1952).
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


class PackedPage:
    """The compressed blocks of a page's ``parts`` (the text between its holes)."""

    __slots__ = ("parts", "blocks")

    def __init__(self, parts: list[bytes]) -> None:
        packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        last = len(parts) - 1
        self.parts = parts
        self.blocks = [
            packer.compress(part) + packer.flush(zlib.Z_FINISH if i == last else zlib.Z_FULL_FLUSH)
            for i, part in enumerate(parts)
        ]

    def __getstate__(self):
        return self.parts, self.blocks

    def __setstate__(self, state) -> None:
        self.parts, self.blocks = state

    def gzip(self, filling: bytes) -> bytes:
        """The gzip of the page with ``filling`` in every hole."""
        if len(filling) > 0xFFFF:
            raise ValueError("a hole's filling must be shorter than 64 kB")
        stored = b"\x00" + struct.pack("<HH", len(filling), len(filling) ^ 0xFFFF) + filling
        out, crc, size = [GZIP_HEADER], 0, 0
        for i, (part, block) in enumerate(zip(self.parts, self.blocks, strict=True)):
            if i:
                out.append(stored)
                crc, size = zlib.crc32(filling, crc), size + len(filling)
            out.append(block)
            crc, size = zlib.crc32(part, crc), size + len(part)
        out.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
        return b"".join(out)
