"""Camera effects on a rendered frame: lens blur, uneven light, glare, sensor noise and JPEG compression."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

RngLike = np.random.Generator | random.Random | int | None


@dataclass(frozen=True)
class Effects:
    """What the camera and the room do to a frame. All defaults off: a clean frame.

    ``blur``: Gaussian sigma in frame pixels (lens focus); ``noise``: sensor noise sigma in grey levels;
    ``vignette``: 0..1, how much darker the corners are; ``gradient``: 0..1 light falling off across the table
    towards ``gradient_angle`` (degrees, 0 = east, counter-clockwise); ``brightness``: overall gain;
    ``jpeg_quality``: None for no compression, else 1..100; ``hands``: how many random hands (palm, fingers
    and arm, entering from a table edge) to add over the scene's own occluders; ``white_balance``: gains on
    (red, green, blue), e.g. (1.08, 1.0, 0.9) for warm indoor light; ``glare``: 0..1, a soft bright spot
    (a lamp reflected by glossy tiles) of ``glare_radius`` pixels at a random place; ``optics_in_light``:
    the lens blurs light, not the encoded picture (the blur is done on linear light and encoded with the
    sRGB curve afterwards, which makes black shapes look thinner, as a real camera does; off: the blur on
    the encoded values, as frames were drawn before).
    """

    blur: float = 0.0
    noise: float = 0.0
    vignette: float = 0.0
    gradient: float = 0.0
    gradient_angle: float = 90.0
    brightness: float = 1.0
    jpeg_quality: int | None = None
    hands: int = 0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: float = 0.0
    glare_radius: float = 160.0
    #: what the table is made of under the pieces: "plain" (its colour) or "wood" (grain, knots); the
    #: same ``surface_seed`` is the same table top in every frame
    surface: str = "plain"
    surface_seed: int = 0
    optics_in_light: bool = True

    def __post_init__(self) -> None:
        if min(self.blur, self.noise, self.vignette, self.gradient, self.glare, self.brightness) < 0:
            raise ValueError("effects must not be negative")
        if self.jpeg_quality is not None and not 1 <= int(self.jpeg_quality) <= 100:
            raise ValueError(f"JPEG quality is 1..100, not {self.jpeg_quality}")
        if self.surface not in ("plain", "wood"):
            raise ValueError(f"surface is plain or wood, not {self.surface!r}")
        if self.hands < 0 or min(self.white_balance) <= 0:
            raise ValueError("hands must be >= 0 and white balance gains positive")

    @classmethod
    def realistic(cls) -> Effects:
        """A typical webcam over a living-room table."""
        return cls(blur=0.6, noise=3.0, vignette=0.25, gradient=0.2, jpeg_quality=85)


def as_random(rng: RngLike) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(0, 2**63 - 1)))
    return random.Random(rng if rng is not None else 0)


@lru_cache(maxsize=4)
def noise_pool(height: int, width: int, sigma: float) -> np.ndarray:
    """Gaussian sensor noise (int16) larger than a frame; each frame adds a randomly offset window of it,
    which is much cheaper than drawing ~9 million fresh samples per frame."""
    state = np.random.default_rng(20240611)
    pool = np.round(state.standard_normal((height + 97, width + 131, 3), dtype=np.float32) * sigma)
    noise: np.ndarray = pool.astype(np.int16)
    noise.flags.writeable = False
    return noise


@lru_cache(maxsize=8)
def _light_map(
    width: int,
    height: int,
    vignette: float,
    gradient: float,
    gradient_angle: float,
    brightness: float,
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0),
) -> np.ndarray:
    """Per-pixel gain (float32, HxWx3, BGR): radial vignetting times a linear gradient times brightness,
    times the white balance per channel."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    nx = (xs - width / 2.0) / (width / 2.0)
    ny = (ys - height / 2.0) / (height / 2.0)
    radius2 = (nx * nx * (width / height) ** 2 + ny * ny) / (1.0 + (width / height) ** 2)
    gain = 1.0 - vignette * radius2
    radians = math.radians(gradient_angle)
    along = nx * math.cos(radians) - ny * math.sin(radians)  # +1 towards the darker side
    gain = gain * (1.0 - gradient * (along + 1.0) / 2.0) * brightness
    red, green, blue = white_balance
    result: np.ndarray = cv2.merge(
        [np.clip(gain * factor, 0.0, 4.0).astype(np.float32) for factor in (blue, green, red)]
    )
    result.flags.writeable = False
    return result


def _add_glare(image: np.ndarray, strength: float, radius: float, chance: random.Random) -> np.ndarray:
    """A soft white spot: each pixel moves towards white by ``strength`` times a Gaussian falloff."""
    height, width = image.shape[:2]
    cx, cy = chance.uniform(0.15, 0.85) * width, chance.uniform(0.15, 0.85) * height
    reach = int(3 * radius)
    x0, x1 = max(0, int(cx) - reach), min(width, int(cx) + reach)
    y0, y1 = max(0, int(cy) - reach), min(height, int(cy) + reach)
    if x1 <= x0 or y1 <= y0:
        return image
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    weight = strength * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2.0 * radius * radius))
    out = image.copy()
    roi = out[y0:y1, x0:x1].astype(np.float32)
    roi += (255.0 - roi) * weight[:, :, None]
    out[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    return out


def apply_effects(image: np.ndarray, effects: Effects, rng: RngLike = None) -> np.ndarray:
    """The camera's photometric effects (blur, uneven light, noise, JPEG) on a rendered frame; hands are
    geometry and are drawn by :func:`render`. The input is returned unchanged when no effect is on."""
    chance = as_random(rng)
    if effects.blur > 0 and effects.optics_in_light:
        image = to_srgb(cv2.GaussianBlur(to_linear(image), (0, 0), effects.blur))
    elif effects.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), effects.blur)
    balanced = tuple(round(float(g), 4) for g in effects.white_balance)
    if (
        effects.vignette > 0
        or effects.gradient > 0
        or effects.brightness != 1.0
        or balanced != (1.0, 1.0, 1.0)
    ):
        height, width = image.shape[:2]
        gain = _light_map(
            width,
            height,
            round(effects.vignette, 4),
            round(effects.gradient, 4),
            round(effects.gradient_angle, 2),
            round(effects.brightness, 4),
            (balanced[0], balanced[1], balanced[2]),
        )
        image = cv2.multiply(image, gain, dtype=cv2.CV_8U)
    if effects.glare > 0:
        image = _add_glare(image, effects.glare, effects.glare_radius, chance)
    if effects.noise > 0:
        height, width = image.shape[:2]
        pool = noise_pool(height, width, round(effects.noise, 3))
        dy, dx = chance.randrange(pool.shape[0] - height + 1), chance.randrange(pool.shape[1] - width + 1)
        image = cv2.add(image, pool[dy : dy + height, dx : dx + width], dtype=cv2.CV_8U)
    if effects.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        if decoded is None:
            raise RuntimeError("JPEG decoding failed")
        image = decoded
    return image


@lru_cache(maxsize=1)
def _srgb_tables() -> tuple[np.ndarray, np.ndarray]:
    """8-bit sRGB -> linear light in 16 bits, and back."""
    encoded = np.arange(256, dtype=np.float64) / 255.0
    linear = np.where(encoded <= 0.04045, encoded / 12.92, ((encoded + 0.055) / 1.055) ** 2.4)
    steps = np.arange(65536, dtype=np.float64) / 65535.0
    back = np.where(steps <= 0.0031308, steps * 12.92, 1.055 * steps ** (1 / 2.4) - 0.055)
    return (np.round(linear * 65535.0).astype(np.uint16),
            np.clip(np.round(back * 255.0), 0, 255).astype(np.uint8))


def to_linear(image: np.ndarray) -> np.ndarray:
    """An 8-bit sRGB picture as linear light (16 bits), where blur and resampling mix light rightly."""
    result: np.ndarray = _srgb_tables()[0][image]
    return result


def to_srgb(linear: np.ndarray) -> np.ndarray:
    """Linear light (16 bits) encoded back to 8-bit sRGB."""
    result: np.ndarray = _srgb_tables()[1][linear]
    return result


def wood_surface(height: int, width: int, seed: int, ppm: float) -> np.ndarray:
    """A wooden table top (BGR) at ``ppm`` pixels per mm: planks of 140 mm with their own tone, wavy grain
    of a few mm, a knot here and there: high-contrast texture that is not the felt the layouts assume."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    x_mm, y_mm = xs / ppm, ys / ppm
    plank = np.floor(y_mm / 140.0)
    tone = rng.uniform(0.85, 1.15, size=int(plank.max()) + 2)[plank.astype(int)]
    wave = 6.0 * np.sin(x_mm / 90.0 + plank * 1.7) + 2.0 * np.sin(x_mm / 23.0)
    grain = 0.5 + 0.5 * np.sin((y_mm + wave) * (2 * math.pi / 4.0))
    light = (0.78 + 0.22 * grain) * tone
    for _ in range(max(1, int(width * height / (ppm * ppm) / 150_000))):  # knots
        kx, ky = rng.uniform(0, width / ppm), rng.uniform(0, height / ppm)
        r = np.hypot((x_mm - kx) / 1.6, y_mm - ky)
        light *= 1.0 - 0.35 * np.exp(-((r / 9.0) ** 2))
    base = np.array([60.0, 110.0, 165.0], dtype=np.float32)  # warm oak, BGR
    surface: np.ndarray = np.clip(light[..., None] * base, 0, 255).astype(np.uint8)
    return surface
