"""Schema-ish checks for what browsers send: bad input is a clean 4xx, never a 500 or a changed table."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from flask import abort, request

MAX_DEPTH = 32
MAX_ITEMS = 5_000
MAX_STRING = 2_000


def fail(message: str, code: int = 400) -> NoReturn:
    abort(code, description=message)


def _check_shape(value: Any, depth: int, budget: list[int]) -> None:
    if depth > MAX_DEPTH:
        fail(f"JSON nested deeper than {MAX_DEPTH} levels")
    budget[0] -= 1
    if budget[0] < 0:
        fail(f"JSON with more than {MAX_ITEMS} values")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            fail(f"a text value longer than {MAX_STRING} characters")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            fail("numbers must be finite")
    elif isinstance(value, list):
        for item in value:
            _check_shape(item, depth + 1, budget)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_shape(key, depth + 1, budget)
            _check_shape(item, depth + 1, budget)


def _reject_constant(name: str) -> NoReturn:
    fail(f"{name} is not valid JSON")


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, bounded in depth, count and string length."""
    if request.mimetype != "application/json":
        fail("send JSON (Content-Type: application/json)", 415)
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        fail("malformed JSON")
    if not isinstance(data, dict):
        fail("the body must be a JSON object")
    _check_shape(data, 0, [MAX_ITEMS])
    return data


def field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], *,
          required: bool = True, default: Any = None, check: Callable[[Any], bool] | None = None,
          why: str = "") -> Any:
    """One field of a body: present (if required), of the given type (bools are not ints), and checked."""
    if name not in data:
        if required:
            fail(f"missing field {name!r}")
        return default
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        fail(f"field {name!r} has the wrong type")
    if not isinstance(value, kinds):
        fail(f"field {name!r} has the wrong type")
    if check is not None and not check(value):
        fail(f"field {name!r} is out of range{': ' + why if why else ''}")
    return value


def only_fields(data: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = set(data) - allowed
    if unknown:
        fail(f"unknown fields: {', '.join(sorted(unknown)[:5])}")


def query_int(name: str, *, low: int = 0, high: int = 10**9) -> int | None:
    """An optional integer query parameter within bounds."""
    text = request.args.get(name)
    if text is None or text == "":
        return None
    if len(text) > 12 or not text.lstrip("-").isdigit():
        fail(f"query parameter {name!r} must be an integer")
    value = int(text)
    if not low <= value <= high:
        fail(f"query parameter {name!r} is out of range")
    return value
