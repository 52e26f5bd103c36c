"""Vision tools: `decode`, `tags`, `calibrate`, `observe`.

Contract: the answer is JSON on stdout (or files for ``tags``); bad input exits with status 2 and exactly
one line on stderr, with nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from companion.commands.arguments import EXIT_BAD_INPUT, BadInput


def _fail(message: str) -> int:
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    return EXIT_BAD_INPUT


def read_image(path: str) -> Any:
    """A BGR image from a file, or BadInput naming why not (its size is checked before decoding)."""
    from vision.images import ImageError, read_image_file

    if not os.path.isfile(path):
        raise BadInput(f"cannot read {path}: no such file")
    try:
        return read_image_file(path)
    except ImageError as error:
        raise BadInput(str(error)) from None


def _print_json(value: Any) -> None:
    json.dump(value, sys.stdout)
    sys.stdout.write("\n")


def _decode(args: argparse.Namespace) -> int:
    from vision import qr

    try:
        image = read_image(args.image)
        backend = qr.get_backend(args.backend, any_picture=True)
    except (BadInput, ValueError) as error:
        return _fail(str(error))
    codes = qr.decode(image, backend)
    _print_json([code.to_dict() for code in codes])
    return 0


def _kit(game: str) -> Any:
    """The kit of a game given on the command line; BadInput naming the games otherwise."""
    from companion.kits import kit_for

    try:
        return kit_for(game)
    except KeyError as error:
        raise BadInput(str(error.args[0])) from None


def register(subparsers: Any) -> None:
    decode = subparsers.add_parser("decode", help="print every QR code in an image as JSON")
    decode.add_argument("image", help="image file (PNG, JPEG, ...)")
    decode.add_argument("--backend", default=None, help="QR backend: zxing (default) or pyzbar")
    decode.set_defaults(handler=_decode)
    _register_more(subparsers)


def _tags(args: argparse.Namespace) -> int:
    from companion import sheets
    from companion.kits import kit_for, kits

    try:
        chosen = list(kits().values()) if args.game.lower() == "all" else [kit_for(args.game)]
        written = []
        for kit in chosen:
            written += [str(path) for path in sheets.write_sheets(kit.printed_set(args.seed), args.out,
                                                                 args.size)]
    except KeyError as error:
        return _fail(str(error.args[0]))
    except (ValueError, OSError) as error:
        return _fail(str(error))
    _print_json({"written": written})
    return 0


def _from_config(args: argparse.Namespace) -> str | None:
    """``--config``: the game, the seats and where the calibration goes come from the table's config (the
    service's state directory unless its ``[camera] calibration`` names the file); a note when the config
    does not name the file yet."""
    if not args.config:
        return None
    from companion.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as error:
        raise BadInput(str(error)) from error
    args.game = args.game or config.game
    args.seats = args.seats or len(config.seats)
    args.tag_size = args.tag_size or config.camera.tag_size_mm
    if args.out:
        return None
    args.out = config.camera.calibration or str(config.state_dir / "calibration.json")
    if config.camera.calibration:
        return None
    return f"set [camera] calibration = \"{args.out}\" in {args.config} to use it"


def _calibrate(args: argparse.Namespace) -> int:
    from vision import calibration as cal
    from vision.self_test import self_test

    try:
        note = _from_config(args)
        args.seats = args.seats or 4
        image = read_image(args.image)
        kit = _kit(args.game) if args.game else None
        if (args.width is None) != (args.height is None):
            raise BadInput("give both --width and --height, or neither (then the size is estimated)")
        layout = None if args.width is None else cal.corner_layout(args.width, args.height)
        lens = _lens(args)
    except (BadInput, ValueError) as error:
        return _fail(str(error))
    if layout is None and kit is not None:
        size = kit.table_size()
        layout = cal.corner_layout(*size) if size else None
    try:
        calibration = cal.calibrate(image, layout, args.marker_size, lens=lens)
    except cal.CalibrationError as error:
        found = cal.detect_markers(image)
        markers = {str(i): {"visible": i in found} for i in (0, 1, 2, 3)}
        _print_json({"ok": False, "problems": [str(error)], "markers": markers})
        return 1
    area_problem = None
    if kit is not None:
        from companion.kits.tabletop import SEAT_COLOURS, TableAreaError
        from vision.colour_learning import learn_seat_colours

        zones = kit.zones(args.seats)
        if args.width is not None:  # the area given: the game laid out on it, or why it cannot be
            try:
                layout = kit.layout_for_area(SEAT_COLOURS[: args.seats], args.width, args.height)
                zones = kit.layout_zones(layout) or zones
            except TableAreaError as error:
                area_problem = str(error)
        calibration = calibration.with_zones(zones)
        named = [(zone.name, zone.polygon) for zone in calibration.zones]
        learned = learn_seat_colours(image, calibration.homography, named)
        calibration = calibration.with_colours(learned.colours, learned.shades)
    calibration = calibration.with_tag_mm(args.tag_size)
    report = self_test(image, calibration, args.min_module_px)
    if area_problem is not None:
        report["problems"].insert(0, area_problem)
        report["ok"] = False
    report["colours_learned"] = sorted(calibration.colours)
    if lens is not None:
        report["lens"] = {"name": lens.name, "source": lens.source, "rms_px": lens.rms_px}
    if args.out:
        try:
            calibration.save(args.out)
        except OSError as error:
            return _fail(f"cannot write {args.out}: {error.strerror or error}")
        report["saved"] = args.out
        if note:
            report["next"] = note
    _print_json(report)
    return 0 if report["ok"] else 1


def _lens(args: argparse.Namespace) -> Any:
    """The lens to correct for: fitted from ``--lens`` photos of the board, or a shipped profile."""
    from vision.lens import DEFAULT_LENSES, LensError, fit_lens

    if args.lens and args.lens_profile:
        raise BadInput("give --lens photos or --lens-profile, not both")
    if args.lens_profile:
        if args.lens_profile not in DEFAULT_LENSES:
            raise BadInput(f"no lens profile {args.lens_profile!r}; known: {', '.join(DEFAULT_LENSES)}")
        return DEFAULT_LENSES[args.lens_profile]
    if not args.lens:
        return None
    try:
        return fit_lens([read_image(path) for path in args.lens])
    except LensError as error:
        raise BadInput(f"lens: {error}") from error


def _observe(args: argparse.Namespace) -> int:
    from vision import calibration as cal
    from vision import detect

    try:
        kit = _kit(args.game)
        image = read_image(args.image)
        calibration = cal.Calibration.load(args.calibration) if args.calibration else None
        backend = args.backend
    except (BadInput, ValueError) as error:
        return _fail(str(error))
    state = None
    if args.state:
        from companion.commands.rulings import read_json
        from engines.core import EngineError, get_game

        try:
            state = get_game(kit.name).state_from_dict(read_json(args.state))
        except (BadInput, EngineError, KeyError, ValueError, TypeError) as error:
            message = error.args[0] if isinstance(error, KeyError) and error.args else str(error)
            return _fail(f"state: {message}")
    hints = kit.hints(state=state)
    if calibration is None:
        calibration = detect.auto_calibration(image, hints.table_size)
    from vision import qr

    try:
        reader = qr.get_backend(backend)
    except ValueError as error:
        return _fail(str(error))
    manifest = kit.manifest(args.seed)
    printed = args.tag_size or (calibration.tag_mm if calibration is not None else None)
    if printed:
        manifest = manifest.resized(printed)
    detector = detect.Detector(manifest, calibration, hints, backend=reader)
    _print_json(detector.observe(image).to_dict())
    return 0


def _register_more(subparsers: Any) -> None:
    from companion.commands.arguments import bounded_number, millimetres, seat_count, seed

    observe = subparsers.add_parser("observe", help="read one frame of a game and print the observation JSON")
    observe.add_argument("game", help="JP, JK, JB, IN (or a game name)")
    observe.add_argument("image", help="a camera frame")
    observe.add_argument(
        "--calibration", default=None, help="calibration JSON (default: calibrate from this frame's markers)"
    )
    observe.add_argument("--backend", default=None, help="QR backend: zxing (default) or pyzbar")
    observe.add_argument(
        "--state",
        default=None,
        help="the game's state JSON: cells then match the engine's (grid size, boards)",
    )
    observe.add_argument("--tag-size", type=bounded_number(8.0, 100.0, "a code side in mm"), default=None,
                         metavar="MM", help="the codes' printed size (default: the calibration's, else 40)")
    observe.add_argument("--seed", type=seed, default=1, help="seed of the printed set's opaque back ids")
    observe.set_defaults(handler=_observe)
    calibrate = subparsers.add_parser(
        "calibrate",
        help="fit camera pixels -> table mm from the 4 ArUco markers and print a self-test report",
    )
    calibrate.add_argument("image", help="a camera frame showing the four calibration markers")
    calibrate.add_argument("--width", type=millimetres, default=None,
                           help="marker 0 to marker 1 distance, mm")
    calibrate.add_argument("--height", type=millimetres, default=None,
                           help="marker 0 to marker 3 distance, mm")
    calibrate.add_argument("--marker-size", type=bounded_number(5.0, 500.0, "a marker side in mm"),
                           default=40.0, help="printed marker side, mm")
    calibrate.add_argument("--min-module-px", type=bounded_number(0.5, 50.0, "pixels per module"),
                           default=3.0, help="tag reading margin to check")
    calibrate.add_argument("--out", default=None, help="write the calibration JSON here")
    calibrate.add_argument(
        "--game", default=None, help="use this game's table layout: its size, zones, and seat colours learned"
    )
    calibrate.add_argument("--tag-size", type=bounded_number(8.0, 100.0, "a code side in mm"), default=None,
                           metavar="MM", help="the codes' printed size (companion tags --size; default 40), "
                           "kept in the calibration for everything that reads with it")
    calibrate.add_argument("--seats", type=seat_count, default=None,
                           help="players at the table (zones per seat; default 4, or the config's seats)")
    calibrate.add_argument("--config", default=None, help="the table's config (the service's): its game, "
                           "seats, and the calibration file in its state directory unless --out")
    calibrate.add_argument("--lens", nargs="+", default=None, metavar="PHOTO",
                           help="photos of the lens board (in 'companion tags'): fit the lens, correct it")
    calibrate.add_argument("--lens-profile", default=None,
                           help="a shipped nominal lens profile: camera-module-3 or camera-module-3-wide")
    calibrate.set_defaults(handler=_calibrate)
    tags = subparsers.add_parser(
        "tags", help="write printable tag sheets (PDF, true size, cut marks) and the manifest of a game"
    )
    tags.add_argument("game", help="JP, JK, JB, IN (or a game name), or 'all'")
    tags.add_argument("--out", default=".", help="output directory (default: current)")
    tags.add_argument("--seed", type=seed, default=1, help="seed of the opaque back ids of this printed set")
    tags.add_argument("--size", type=float, default=None, metavar="MM",
                      help="code side in mm, 8 to 100 (default 40: 2304x1296 at 1.2 m; 25: 4608x2592)")
    tags.set_defaults(handler=_tags)
