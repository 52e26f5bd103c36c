"""Reading image files safely: the size is read from the file's header and checked before decoding.

A 746 KB PNG can hold 16000 x 16000 pixels (768 MB once decoded): decoding first and checking after is
too late. :func:`image_size` reads the dimensions of PNG, JPEG, BMP, WebP and PNM files from their
headers; :func:`decode_image` refuses anything larger than ``max_pixels`` (and any other format) before
OpenCV allocates a pixel.
"""

from __future__ import annotations

import struct
from typing import Any

#: the largest image any tool reads: 40 MP (a Camera Module 3 frame is 12 MP)
MAX_PIXELS = 40_000_000


class ImageError(ValueError):
    """An image file that cannot be read; the message says why."""


def _png(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    return None


def _jpeg(data: bytes) -> tuple[int, int] | None:
    if data[:2] != b"\xff\xd8":
        return None
    index = 2
    while index + 4 <= len(data):
        if data[index] != 0xFF:
            index += 1
            continue
        marker = data[index + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            index += 1 if marker == 0xFF else 2
            continue
        length = struct.unpack(">H", data[index + 2:index + 4])[0]
        # start-of-frame markers (baseline, progressive, ...), not DHT (C4), JPG (C8) or DAC (CC)
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and index + 9 <= len(data):
            height, width = struct.unpack(">HH", data[index + 5:index + 9])
            return width, height
        index += 2 + length
    return None


def _bmp(data: bytes) -> tuple[int, int] | None:
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    return None


def _webp(data: bytes) -> tuple[int, int] | None:
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP" or len(data) < 30:
        return None
    chunk = data[12:16]
    if chunk == b"VP8X":
        return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    return None


def _pnm(data: bytes) -> tuple[int, int] | None:
    if data[:1] != b"P" or data[1:2] not in (b"1", b"2", b"3", b"4", b"5", b"6"):
        return None
    fields: list[int] = []
    for line in data[2:512].split(b"\n"):
        for word in line.split(b"#", 1)[0].split():
            if not word.isdigit():
                return None
            fields.append(int(word))
            if len(fields) == 2:
                return fields[0], fields[1]
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the header, or None for a format this does not read."""
    for reader in (_png, _jpeg, _bmp, _webp, _pnm):
        try:
            size = reader(data)
        except struct.error:
            return None
        if size is not None:
            return size
    return None


def decode_image(data: bytes, where: str = "the image", max_pixels: int = MAX_PIXELS) -> Any:
    """A BGR image, or :class:`ImageError` (too large, unknown format, not decodable)."""
    import cv2
    import numpy as np

    size = image_size(data)
    if size is None:
        raise ImageError(f"{where} is not a PNG, JPEG, BMP, WebP or PNM image")
    width, height = size
    if width <= 0 or height <= 0:
        raise ImageError(f"{where} has no pixels ({width} x {height})")
    if width * height > max_pixels:
        limit = max_pixels // 1_000_000
        raise ImageError(f"{where} is {width} x {height} pixels; at most {limit} MP are read")
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{where} could not be decoded")
    return image


def read_image_file(path: str, max_bytes: int = 64 * 1024 * 1024, max_pixels: int = MAX_PIXELS) -> Any:
    """Read and decode an image file; :class:`ImageError` naming the file when it cannot be used."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise ImageError(f"cannot read {path}: {error.strerror or error}") from error
    if len(data) > max_bytes:
        raise ImageError(f"{path} is larger than {max_bytes // (1024 * 1024)} MiB")
    return decode_image(data, path, max_pixels)
