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


def test_pyzbar_corners_at_any_angle_size_and_error_level() -> None:
    """Codes of other encoders' sizes (any text, any error level), at any angle and a little perspective:
    libzbar's outline comes in the image's order; its orientation and the finder patterns put it in the
    code's (the old diagonal probe had 18 of 200 of these wrong, zbar's orientation alone 4, near 45
    degrees)."""
    import random

    import cv2

    rng = random.Random(5)
    zxing, zbar = qr.get_backend("zxing"), qr.get_backend("pyzbar")
    checked = 0
    for _ in range(120):
        text = rng.choice(["DT1:JP:F07", "https://example.org/a/longer/path?x=1", "Hello, world 12345"])
        code = segno.make_qr(text, error=rng.choice("lmqh"))
        matrix = np.array([[bool(v) for v in row] for row in code.matrix])
        big = np.pad(picture(matrix, rng.choice([4, 5, 6, 8])), 80, constant_values=255)
        h, w = big.shape
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(0, 360), 1.0)
        image = cv2.warpAffine(big, turn, (w, h), borderValue=255)
        square = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        skew = square + np.float32([[rng.uniform(-0.08, 0.08) * w, rng.uniform(-0.08, 0.08) * h]
                                    for _ in range(4)])
        image = cv2.warpPerspective(image, cv2.getPerspectiveTransform(square, skew), (w, h),
                                    borderValue=255)
        image = cv2.GaussianBlur(image, (3, 3), 0.8)
        a, b = zxing.decode(image), zbar.decode(image)
        if not a or not b:
            continue
        far = max(float(np.hypot(p[0] - q[0], p[1] - q[1])) for p, q in zip(a[0].corners, b[0].corners))
        assert far < 8.0, (text, a[0].corners, b[0].corners)
        checked += 1
    assert checked >= 110
