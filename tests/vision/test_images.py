"""Image files are measured from their headers before they are decoded: a small file of huge dimensions is
refused at once, whatever the format."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from helpers.images import huge_png
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.images import ImageError, decode_image, image_size, read_image_file
from vision.sources import FolderSource


@settings(max_examples=25, deadline=None)
@given(width=st.integers(1, 700), height=st.integers(1, 500),
       extension=st.sampled_from([".png", ".jpg", ".bmp", ".webp", ".ppm", ".pgm"]))
def test_the_header_gives_the_size_opencv_decodes(width: int, height: int, extension: str) -> None:
    image = np.random.default_rng(width * height).integers(0, 255, (height, width, 3), dtype=np.uint8)
    if extension == ".pgm":
        image = image[:, :, 0]
    ok, encoded = cv2.imencode(extension, image)
    assert ok
    assert image_size(encoded.tobytes()) == (width, height)
    assert decode_image(encoded.tobytes()).shape[:2] == (height, width)


def test_a_huge_image_is_refused_before_it_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(huge_png(16000, 16000))
    assert path.stat().st_size < 1_000_000
    with pytest.raises(ImageError, match="16000 x 16000 pixels"):
        read_image_file(str(path))


@pytest.mark.parametrize("data", [b"", b"GIF89a" + b"\x00" * 40, b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff",
                                  b"P6\n# comment\nx y\n", b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"BM"])
def test_unknown_or_truncated_headers_are_refused_not_guessed(data: bytes) -> None:
    with pytest.raises(ImageError):
        decode_image(data)


def test_a_recorded_folder_skips_a_huge_frame(tmp_path: Path) -> None:
    (tmp_path / "0001.png").write_bytes(huge_png(12000, 12000))
    _, good = cv2.imencode(".png", np.zeros((48, 64, 3), np.uint8))
    (tmp_path / "0002.png").write_bytes(good.tobytes())
    source = FolderSource(tmp_path)
    source.open()
    frame = source.read()
    assert frame is not None and frame.image.shape == (48, 64, 3)
    assert source.skipped == ["0001.png"]
