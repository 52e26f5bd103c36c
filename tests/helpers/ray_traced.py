"""Jurassic Parts tables ray-traced by Mitsuba 3, a renderer the product never uses: 4 mm card tiles on the
66 mm lattice laid a little crooked by hand, glossy 40 mm stickers made by python-qrcode (not the product's
segno), chisels 8 mm across and 25 mm tall standing on the tiles' edges in the seats' colours, a warm lamp
(a glowing sphere: soft shadows, its reflection on glossy stickers) and a dim ceiling light, OpenCV's own
ArUco markers on paper. The camera: a pinhole at 1.1 m, tilted, then a sensor of our own: the lens bend,
blur in linear light, a Bayer mosaic with shot and read noise, demosaic, white balance that keeps some of
the lamp's warmth, the sRGB curve, JPEG. Nothing here uses the product's renderer (``sim/``) nor its
vision; from the product only the table's contract: the area the markers mark, the lattice's place and the
printed payloads.

World coordinates are table millimetres (x to marker 1, y to marker 3) with z pointing into the table, so
what stands on it has negative z. Mitsuba's LLVM back end wants an LLVM of 17 or newer (Debian's
``libllvm19``; ``DRJIT_LIBLLVM_PATH`` is set to it when found); without one the scalar back end is used.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

SQRT3 = math.sqrt(3.0)
PITCH_MM = 66.0
#: the lattice's cell (0, 0), the area's size and the seat zones: the Jurassic Parts kit's default table
ORIGIN_MM = (640.0, 352.0)
AREA_MM = (1280.0, 720.0)
TILE_THICK_MM = 4.0
STICKER_MM = 0.15
CODE_MM = 40.0
MARKER_MM = 40.0
CHISEL_RADIUS_MM = 4.0
CHISEL_TALL_MM = 25.0
#: the seats' chisels as their plastic is (sRGB): not the product's nominal shades
CHISEL_SRGB = {"red": (196, 32, 38), "blue": (30, 78, 180), "green": (34, 150, 62), "yellow": (238, 196, 22)}
SEAT_ZONES = {"red": (8.0, 364.0, 330.0, 712.0), "blue": (8.0, 42.0, 330.0, 356.0),
              "green": (950.0, 42.0, 1272.0, 356.0), "yellow": (950.0, 364.0, 1272.0, 712.0)}
LLVM_LIBRARIES = ("/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1", "/usr/lib/aarch64-linux-gnu/libLLVM.so.19.1",
                  "/usr/lib/x86_64-linux-gnu/libLLVM-17.so", "/usr/lib/x86_64-linux-gnu/libLLVM-18.so")


def mitsuba() -> Any:
    """Mitsuba with the fastest back end this machine runs."""
    for library in LLVM_LIBRARIES:
        if Path(library).exists():
            os.environ.setdefault("DRJIT_LIBLLVM_PATH", library)
            break
    import mitsuba as mi

    variant = "llvm_ad_rgb" if "DRJIT_LIBLLVM_PATH" in os.environ else "scalar_rgb"
    mi.set_variant(variant)
    return mi


def axial_to_mm(q: float, r: float) -> tuple[float, float]:
    return (ORIGIN_MM[0] + PITCH_MM * (q + r / 2.0), ORIGIN_MM[1] + PITCH_MM * SQRT3 / 2.0 * r)


NEIGHBOURS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def slab_cells(count: int = 58) -> list[tuple[int, int]]:
    """A radius-4 hexagon of cells less the last ones in reading order (58 of 61)."""
    cells = [(q, r) for r in range(-4, 5) for q in range(-4, 5) if abs(q + r) <= 4]
    return cells[:count]


def srgb_to_linear(value: np.ndarray | Sequence[float]) -> np.ndarray:
    v = np.asarray(value, dtype=np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(value: np.ndarray) -> np.ndarray:
    v = np.clip(value, 0.0, 1.0)
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * np.power(v, 1 / 2.4) - 0.055)


def qr_sticker(payload: str, px_per_module: int = 12, quiet_modules: int = 2) -> np.ndarray:
    """A sticker's picture (grey, 0..255) made by python-qrcode at the product's version and level."""
    import qrcode

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=quiet_modules,
                         box_size=px_per_module)
    code.add_data(payload.encode("ascii"), optimize=0)
    code.make(fit=True)
    modules = np.array(code.get_matrix(), dtype=bool)
    image = np.where(modules, 18, 250).astype(np.uint8)
    return np.kron(image, np.ones((px_per_module, px_per_module), np.uint8))


def aruco_sheet(marker_id: int, px_per_cell: int = 40) -> np.ndarray:
    """A calibration marker on paper (OpenCV's own drawing), one cell of white around its black square."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    inner = cv2.aruco.generateImageMarker(dictionary, marker_id, 6 * px_per_cell)
    return cv2.copyMakeBorder(inner, px_per_cell, px_per_cell, px_per_cell, px_per_cell,
                              cv2.BORDER_CONSTANT, value=250)


@dataclass(frozen=True)
class Light:
    lamp_mm: tuple[float, float, float] = (300.0, 150.0, 800.0)
    lamp_rgb: tuple[float, float, float] = (1.0, 0.72, 0.42)
    #: the ceiling's light against the lamp's (at the table's middle)
    ceiling: float = 0.25
    glossy: bool = False


@dataclass(frozen=True)
class Lens:
    width: int = 2304
    height: int = 1296
    hfov_deg: float = 66.0
    height_mm: float = 1100.0
    tilt_deg: float = 0.0
    k1: float = 0.0
    blur_px: float = 0.8
    #: electrons at full scale: fewer is noisier (a small sensor in a dim room)
    full_well: float = 2500.0
    read_noise: float = 0.004
    jpeg_quality: int = 85
    samples: int = 32


@dataclass
class Table:
    """What lies on the table, for the renderer, and the truth to measure a reading against."""

    tiles: dict[str, tuple[tuple[int, int], tuple[float, float], float]] = field(default_factory=dict)
    chisels: dict[str, str] = field(default_factory=dict)
    spares: list[tuple[str, tuple[float, float]]] = field(default_factory=list)


def lay_table(seed: int, chisels: int = 20) -> Table:
    """58 tiles by hand on the lattice (each up to 1.2 mm and 2 degrees off, turned by sixths), their stickers
    a little off their middles, ``chisels`` chisels on distinct gaps in four colours, three spare chisels
    standing in each seat's zone."""
    rng = np.random.default_rng(seed)
    table = Table()
    cells = slab_cells()
    for number, cell in enumerate(cells, start=1):
        x, y = axial_to_mm(*cell)
        where = (x + rng.normal(0, 0.6), y + rng.normal(0, 0.6))
        table.tiles[f"F{number:02d}"] = (cell, where, 60.0 * int(rng.integers(0, 6)) + rng.normal(0, 1.5))
    present = set(cells)
    gaps = sorted({tuple(sorted([a, (a[0] + d[0], a[1] + d[1])])) for a in cells for d in NEIGHBOURS
                   if (a[0] + d[0], a[1] + d[1]) in present})
    colours = list(CHISEL_SRGB)
    for index in rng.choice(len(gaps), size=chisels, replace=False):
        a, b = gaps[int(index)]
        table.chisels[f"{a[0]},{a[1]}|{b[0]},{b[1]}"] = colours[len(table.chisels) % len(colours)]
    for colour, (x0, y0, x1, y1) in SEAT_ZONES.items():
        for _ in range(3):
            table.spares.append((colour, (rng.uniform(x0 + 40, x1 - 40), rng.uniform(y0 + 40, y1 - 40))))
    return table


def _texture(image: np.ndarray, mi: Any) -> dict[str, Any]:
    """A bitmap texture from an 8-bit sRGB picture (grey or BGR), in linear light."""
    rgb = image if image.ndim == 3 else np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim == 3:
        rgb = rgb[:, :, ::-1]
    linear = srgb_to_linear(rgb[::-1]).astype(np.float32)  # Mitsuba's first row is the rectangle's far edge
    return {"type": "bitmap", "bitmap": mi.Bitmap(np.ascontiguousarray(linear)), "filter_type": "bilinear",
            "raw": True}


def _flat(centre: tuple[float, float], side_mm: float, turn_deg: float, up_mm: float, mi: Any) -> Any:
    """A square ``side_mm`` wide lying ``up_mm`` above the table, facing the camera, its picture upright."""
    transform = mi.ScalarTransform4f
    return (transform().translate([centre[0], centre[1], -up_mm]).rotate([0, 0, 1], turn_deg)
            .scale([side_mm / 2, side_mm / 2, 1]).rotate([1, 0, 0], 180))


def _hex_prism(path: Path, centre: tuple[float, float], turn_deg: float) -> None:
    """A tile as an ASCII PLY: a pointy-top hexagon a hair under the lattice's, 4 mm thick."""
    radius = PITCH_MM / SQRT3 - 1.0
    ring = [(centre[0] + radius * math.cos(math.radians(30 + 60 * k + turn_deg)),
             centre[1] + radius * math.sin(math.radians(30 + 60 * k + turn_deg))) for k in range(6)]
    vertices = [(x, y, -TILE_THICK_MM) for x, y in ring] + [(x, y, 0.0) for x, y in ring]
    faces = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]
    faces += [(k, (k + 1) % 6, 6 + (k + 1) % 6) for k in range(6)]
    faces += [(k, 6 + (k + 1) % 6, 6 + k) for k in range(6)]
    lines = ["ply", "format ascii 1.0", f"element vertex {len(vertices)}", "property float x",
             "property float y", "property float z", f"element face {len(faces)}",
             "property list uchar int vertex_indices", "end_header"]
    lines += [f"{x:.4f} {y:.4f} {z:.4f}" for x, y, z in vertices] + [f"3 {a} {b} {c}" for a, b, c in faces]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def _wood(seed: int) -> np.ndarray:
    """A table top of planks with grain, drawn here (sRGB BGR)."""
    rng = np.random.default_rng(seed)
    h, w = 1100, 1700
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    plank = (ys / 120).astype(np.int32)
    phase = rng.uniform(0, 6.3, size=int(plank.max()) + 1).astype(np.float32)[plank]
    grain = 0.5 + 0.5 * np.sin(xs / 9.0 + 2.5 * np.sin(ys / 31.0 + phase) + phase)
    shade = 0.78 + 0.22 * grain + rng.normal(0, 0.025, size=(h, w)).astype(np.float32)
    shade = np.where((ys % 120) < 1.5, shade * 0.6, shade)
    return np.clip(np.stack([62 * shade, 100 * shade, 148 * shade], axis=2), 0, 255).astype(np.uint8)


def scene(table: Table, light: Light, lens: Lens, seed: int, folder: Path, payloads: dict[str, str]) -> Any:
    """The Mitsuba scene of ``table`` (PLY files go to ``folder``)."""
    mi = mitsuba()
    transform = mi.ScalarTransform4f
    rng = np.random.default_rng(seed)
    width, height = AREA_MM
    centre = (width / 2, height / 2)
    elements: dict[str, Any] = {"type": "scene", "integrator": {"type": "path", "max_depth": 5}}
    elements["table"] = {"type": "rectangle", "to_world": _flat(centre, 2200.0, 0.0, 0.0, mi),
                         "bsdf": {"type": "diffuse", "reflectance": _texture(_wood(seed), mi)}}
    for marker, (x, y) in enumerate(((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))):
        elements[f"marker{marker}"] = {
            "type": "rectangle", "to_world": _flat((x, y), MARKER_MM * 8 / 6, 0.0, 0.1, mi),
            "bsdf": {"type": "diffuse", "reflectance": _texture(aruco_sheet(marker), mi)}}
    for tile_id, (_, (x, y), turn) in table.tiles.items():
        ply = folder / f"{tile_id}.ply"
        _hex_prism(ply, (x, y), turn)
        card = srgb_to_linear(rng.integers(120, 225, size=3))
        elements[f"tile-{tile_id}"] = {"type": "ply", "filename": str(ply), "face_normals": True,
                                       "bsdf": {"type": "twosided", "bsdf": {
                                           "type": "diffuse",
                                           "reflectance": {"type": "rgb", "value": card.tolist()}}}}
        sticker = qr_sticker(payloads[tile_id])
        side = CODE_MM * sticker.shape[0] / (sticker.shape[0] - 4 * 12)
        surface: dict[str, Any] = {"type": "diffuse", "reflectance": _texture(sticker, mi)}
        if light.glossy:
            surface = {"type": "plastic", "diffuse_reflectance": _texture(sticker, mi), "int_ior": 1.5}
        up = TILE_THICK_MM + STICKER_MM
        elements[f"sticker-{tile_id}"] = {"type": "rectangle", "bsdf": surface,
                                          "to_world": _flat((x, y), side, turn, up, mi)}
    standing = [(colour, _gap_mm(key), TILE_THICK_MM) for key, colour in table.chisels.items()]
    standing += [(colour, place, 0.0) for colour, place in table.spares]
    for index, (colour, (x, y), foot) in enumerate(standing):
        paint = srgb_to_linear(CHISEL_SRGB[colour]).tolist()
        plastic = {"type": "roughplastic", "alpha": 0.25,
                   "diffuse_reflectance": {"type": "rgb", "value": paint}}
        top = -(foot + CHISEL_TALL_MM)
        elements[f"chisel{index}"] = {"type": "cylinder", "p0": [x, y, -foot], "p1": [x, y, top],
                                      "radius": CHISEL_RADIUS_MM, "bsdf": plastic}
        elements[f"cap{index}"] = {"type": "disk", "bsdf": plastic, "to_world": transform().translate(
            [x, y, top]).scale([CHISEL_RADIUS_MM, CHISEL_RADIUS_MM, 1]).rotate([1, 0, 0], 180)}
    lx, ly, lz = light.lamp_mm
    lamp_radius = 35.0
    # the lamp's radiance that gives the table's middle an irradiance of about 1 (linear units)
    distance2 = (lx - centre[0]) ** 2 + (ly - centre[1]) ** 2 + lz**2
    radiance = distance2 / (math.pi * lamp_radius**2) * (lz / math.sqrt(distance2)) ** -1
    elements["lamp"] = {"type": "sphere", "center": [lx, ly, -lz], "radius": lamp_radius,
                        "emitter": {"type": "area", "radiance": {
                            "type": "rgb", "value": [radiance * c for c in light.lamp_rgb]}}}
    elements["ceiling"] = {"type": "rectangle", "to_world": _flat(centre, 2400.0, 0.0, 2400.0, mi),
                           "emitter": {"type": "area", "radiance": {
                               "type": "rgb", "value": [light.ceiling / math.pi * 2.2 * c
                                                        for c in (0.95, 0.97, 1.0)]}}}
    elements["sensor"] = _sensor(lens, mi)
    return mi.load_dict(elements)


def _gap_mm(key: str) -> tuple[float, float]:
    a, b = (tuple(int(v) for v in cell.split(",")) for cell in key.split("|"))
    (ax, ay), (bx, by) = axial_to_mm(*a), axial_to_mm(*b)
    return ((ax + bx) / 2, (ay + by) / 2)


def camera_place(lens: Lens) -> tuple[np.ndarray, np.ndarray]:
    """Where the camera stands and what it looks at (table mm, z into the table): ``height_mm`` above the
    area's middle, moved towards +y by its tilt and looking back at the middle."""
    tx, ty = AREA_MM[0] / 2, AREA_MM[1] / 2
    origin = np.array([tx, ty + lens.height_mm * math.tan(math.radians(lens.tilt_deg)), -lens.height_mm])
    return origin, np.array([tx, ty, 0.0])


def _sensor(lens: Lens, mi: Any) -> dict[str, Any]:
    origin, target = camera_place(lens)
    return {"type": "perspective", "fov": lens.hfov_deg, "fov_axis": "x",
            "to_world": mi.ScalarTransform4f().look_at(origin=origin.tolist(), target=target.tolist(),
                                                      up=[0.0, -1.0, 0.0]),
            "film": {"type": "hdrfilm", "width": lens.width, "height": lens.height,
                     "rfilter": {"type": "gaussian"}, "pixel_format": "rgb"},
            "sampler": {"type": "independent", "sample_count": lens.samples}}


def render_linear(table: Table, light: Light, lens: Lens, seed: int, payloads: dict[str, str]) -> np.ndarray:
    """The scene's light at each pixel (linear RGB, float32), before the lens bend and the sensor."""
    mi = mitsuba()
    with tempfile.TemporaryDirectory(prefix="tiles-") as folder:
        loaded = scene(table, light, lens, seed, Path(folder), payloads)
        image = mi.render(loaded, seed=seed, spp=lens.samples)
    return np.array(image, dtype=np.float32)[:, :, :3]


def develop(linear: np.ndarray, lens: Lens, seed: int) -> np.ndarray:
    """The sensor's picture of ``linear`` light (BGR, 8 bits, through JPEG): exposure by the brightest
    paper, the lens bend, blur, a Bayer mosaic with shot and read noise, demosaic, a white balance that
    takes two thirds of the lamp's warmth away, the sRGB curve."""
    rng = np.random.default_rng(seed)
    light: np.ndarray = linear / float(np.percentile(linear.max(axis=2), 99.7)) * 0.92
    if lens.k1:
        focal = lens.width / (2 * math.tan(math.radians(lens.hfov_deg) / 2))
        matrix = np.array([[focal, 0, lens.width / 2], [0, focal, lens.height / 2], [0, 0, 1]])
        map_x, map_y = cv2.initInverseRectificationMap(matrix, np.array([lens.k1, 0, 0, 0, 0.0]), np.eye(3),
                                                       matrix, (lens.width, lens.height), cv2.CV_32FC1)
        light = cv2.remap(light, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if lens.blur_px:
        light = cv2.GaussianBlur(light, (0, 0), lens.blur_px)
    mosaic = np.empty(light.shape[:2], np.float32)  # RGGB
    mosaic[0::2, 0::2] = light[0::2, 0::2, 0]
    mosaic[0::2, 1::2] = light[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = light[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = light[1::2, 1::2, 2]
    electrons = rng.poisson(np.clip(mosaic, 0, None) * lens.full_well).astype(np.float32)
    mosaic = electrons / lens.full_well + rng.normal(0, lens.read_noise, size=mosaic.shape).astype(np.float32)
    raw = np.clip(mosaic * 65535, 0, 65535).astype(np.uint16)
    # OpenCV names a Bayer pattern by its second row
    rgb: np.ndarray = cv2.cvtColor(raw, cv2.COLOR_BayerBG2RGB).astype(np.float32) / 65535
    bright = rgb.reshape(-1, 3)[rgb.reshape(-1, 3).sum(axis=1) > np.percentile(rgb.sum(axis=2), 97)]
    gains = bright.mean(axis=0).mean() / np.maximum(bright.mean(axis=0), 1e-6)
    rgb = rgb * (1.0 + (gains - 1.0) * 2 / 3)
    picture = (linear_to_srgb(rgb) * 255 + 0.5).astype(np.uint8)[:, :, ::-1]
    ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, lens.jpeg_quality])
    assert ok
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
