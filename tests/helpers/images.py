"""Image files made for tests."""

from __future__ import annotations

import struct
import zlib


def huge_png(width: int, height: int) -> bytes:
    """A real PNG of ``width`` x ``height`` black pixels: a few hundred KB that would decode to GB."""
    compressor = zlib.compressobj(9)
    row = b"\x00" * (width + 1)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
