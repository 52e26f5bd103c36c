"""The decoder's settings: QR Model 2 only (no Micro QR false reads), the module size from the decoded
version, and light-on-dark or oversized codes read by `companion decode` of any picture."""

from __future__ import annotations

import numpy as np
import segno

from vision import qr
from vision.tags import qr_matrix


def picture(matrix: np.ndarray, module: int, invert: bool = False, quiet: int = 4) -> np.ndarray:
    dark, light = (255, 0) if invert else (0, 255)
    block = np.kron(np.where(matrix, dark, light), np.ones((module, module))).astype(np.uint8)
    return np.pad(block, quiet * module, constant_values=light)


def test_micro_qr_is_never_read() -> None:
    micro = segno.make_micro("029646")
    matrix = np.array([[bool(v) for v in row] for row in micro.matrix])
    assert matrix.shape[0] < 21  # a Micro QR symbol
    image = picture(matrix, 8)
    assert qr.get_backend("zxing").decode(image) == []
    assert qr.get_backend("zxing", any_picture=True).decode(image) == []


def test_the_module_size_comes_from_the_decoded_version() -> None:
    text = "DT1:JB:SUPER-YUMMY-01"
    matrix = qr_matrix(text)
    assert matrix.shape[0] == 25  # version 2
    (code,) = qr.get_backend("zxing").decode(picture(matrix, 6))
    assert code.text == text and abs(code.module_px - 6.0) < 0.3


def test_light_on_dark_codes_in_any_picture() -> None:
    image = picture(qr_matrix("DT1:JP:F07"), 6, invert=True)
    assert qr.get_backend("zxing").decode(image) == []  # the table's stickers are dark on light
    (code,) = qr.get_backend("zxing", any_picture=True).decode(image)
    assert code.text == "DT1:JP:F07"


def test_pyzbar_corners_in_code_order_for_any_content() -> None:
    import cv2

    text = "hello, table 3: a text in bytes mode"  # not our tags' alphanumeric text
    code = segno.make_qr(text, error="m")
    matrix = np.array([[bool(v) for v in row] for row in code.matrix])
    base = picture(matrix, 6)
    zxing, zbar = qr.get_backend("zxing"), qr.get_backend("pyzbar")
    for angle in (0, 90, 180, 270, 30):
        big = np.pad(base, 80, constant_values=255)
        turn = cv2.getRotationMatrix2D((big.shape[1] / 2, big.shape[0] / 2), angle, 1.0)
        image = cv2.warpAffine(big, turn, (big.shape[1], big.shape[0]), borderValue=255)
        (a,), (b,) = zxing.decode(image), zbar.decode(image)
        assert b.text == text
        pairs = zip(a.corners, b.corners, strict=True)
        far = max(float(np.hypot(p[0] - q[0], p[1] - q[1])) for p, q in pairs)
        assert far < 8.0, (angle, a.corners, b.corners)
