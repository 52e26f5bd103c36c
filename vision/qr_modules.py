"""A QR code read from its modules as called on a known grid, the modules that do not show (under a
chisel's shadow, behind a piece) taken as erasures.

A decoder that must find a code's grid in the picture treats a module it cannot see as read wrong; a
Reed-Solomon code repairs twice as many codewords known to be lost as codewords wrong somewhere unknown.
Where the lattice and the finder patterns place the grid, the modules under a shadow are known to be lost,
so a code a third of which lies in black shade is still read. Versions whose codewords form one block at
their level (versions 1 and 2, which the printed sets use) are read; others are left to the decoder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np
import segno

#: (version, level) -> (codewords, error correction codewords), where they form one block
BLOCKS = {(1, "L"): (26, 7), (1, "M"): (26, 10), (1, "Q"): (26, 13), (1, "H"): (26, 17),
          (2, "L"): (44, 10), (2, "M"): (44, 16), (2, "Q"): (44, 22), (2, "H"): (44, 28)}
ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
MASKS: tuple[Callable[[int, int], bool], ...] = (
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
)
#: a codeword with this many modules hidden is lost; one with fewer keeps its modules' calls, least sure
HIDDEN_LOST = 3
#: format modules allowed to disagree with the format taken (of 30; two formats differ in 14 at least)
FORMAT_SLACK = 4

_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _power in range(255):
    _EXP[_power] = _value
    _LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
for _power in range(255, 512):
    _EXP[_power] = _EXP[_power - 255]


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _inverse(a: int) -> int:
    return _EXP[255 - _LOG[a]]


def _evaluate(low_first: Sequence[int], x: int) -> int:
    """A polynomial (lowest power first) at ``x``."""
    total = 0
    for coefficient in reversed(low_first):
        total = _mul(total, x) ^ coefficient
    return total


def _syndromes(received: Sequence[int], count: int) -> list[int]:
    """The received word at the generator's roots (its first codeword the highest power)."""
    found = []
    for j in range(count):
        value = 0
        for word in received:
            value = _mul(value, _EXP[j]) ^ word
        found.append(value)
    return found


def _errata_locator(syndromes: Sequence[int], n: int, erased: Sequence[int]) -> list[int]:
    """Berlekamp-Massey started from the erasures' locator: the polynomial (lowest power first) whose
    roots are the inverses of every lost and every wrong codeword's place."""
    locator = [1]
    for index in erased:
        root = _EXP[n - 1 - index]
        locator = [a ^ _mul(root, b) for a, b in zip([*locator, 0], [0, *locator])]
    previous, length = list(locator), len(erased)
    for step in range(len(erased), len(syndromes)):
        delta = 0
        for i in range(min(len(locator), step + 1)):
            delta ^= _mul(locator[i], syndromes[step - i])
        shifted = [0, *previous]
        if delta == 0:
            previous = shifted
            continue
        size = max(len(locator), len(shifted))
        locator_padded = locator + [0] * (size - len(locator))
        shifted_padded = shifted + [0] * (size - len(shifted))
        updated = [a ^ _mul(delta, b) for a, b in zip(locator_padded, shifted_padded)]
        if 2 * length <= step + len(erased):
            previous = [_mul(_inverse(delta), c) for c in locator]
            length = step + 1 + len(erased) - length
        else:
            previous = shifted
        locator = updated
    while len(locator) > 1 and locator[-1] == 0:
        locator.pop()
    return locator


def correct(codewords: Sequence[int], ec_count: int, erased: Sequence[int]) -> list[int] | None:
    """The codewords with errors and erasures (indices ``erased``) repaired, or None when more are lost
    than the ``ec_count`` codewords of error correction repair (twice the errors plus the erasures)."""
    n = len(codewords)
    received = list(codewords)
    for index in erased:
        received[index] = 0
    syndromes = _syndromes(received, ec_count)
    if not any(syndromes):
        return received
    if len(erased) > ec_count:
        return None
    locator = _errata_locator(syndromes, n, erased)
    errata = len(locator) - 1
    if 2 * (errata - len(erased)) + len(erased) > ec_count:
        return None
    places = [p for p in range(n) if _evaluate(locator, _EXP[(255 - p) % 255]) == 0]
    if len(places) != errata:
        return None
    evaluator = [0] * ec_count  # Forney: the syndromes times the locator, below x ** ec_count
    for i, s in enumerate(syndromes):
        for k, c in enumerate(locator[: ec_count - i]):
            evaluator[i + k] ^= _mul(s, c)
    derivative = [locator[i] if i % 2 == 1 else 0 for i in range(1, len(locator))]
    for p in places:
        x_inverse = _EXP[(255 - p) % 255]
        below = _evaluate(derivative, x_inverse)
        if below == 0:
            return None
        received[n - 1 - p] ^= _mul(_EXP[p], _mul(_evaluate(evaluator, x_inverse), _inverse(below)))
    return None if any(_syndromes(received, ec_count)) else received


@functools.lru_cache(maxsize=8)
def layout(version: int) -> tuple[tuple[tuple[int, int], ...], np.ndarray, dict[tuple[str, int], np.ndarray]]:
    """The data modules in reading order, the format modules' mask (two copies of 15), and each level's
    and mask's format as printed there."""
    size = 17 + 4 * version
    printed = {(level, mask): np.array(segno.make_qr("1", version=version, error=level, mask=mask,
                                                     boost_error=False).matrix, dtype=bool)
               for level in "LMQH" for mask in range(8)}
    fixed = np.zeros((size, size), dtype=bool)  # finders with their separators and format, timing
    fixed[:9, :9] = fixed[:9, size - 8:] = fixed[size - 8:, :9] = True
    fixed[6, :] = fixed[:, 6] = True
    if version >= 2:  # the one alignment pattern of versions 2 to 6
        fixed[size - 9 : size - 4, size - 9 : size - 4] = True
    form = np.zeros((size, size), dtype=bool)
    form[8, [c for c in range(9) if c != 6]] = True
    form[[r for r in range(8) if r != 6], 8] = True
    form[8, size - 8:] = True
    form[size - 7:, 8] = True
    data = ~fixed
    order = []
    column, upward = size - 1, True
    while column > 0:
        if column == 6:
            column -= 1
        for row in (range(size - 1, -1, -1) if upward else range(size)):
            for c in (column, column - 1):
                if data[row, c]:
                    order.append((row, c))
        upward = not upward
        column -= 2
    return tuple(order), form, {key: grid[form] for key, grid in printed.items()}


def read(dark: np.ndarray, shown: np.ndarray, sureness: np.ndarray | None = None) -> list[str]:
    """The texts the modules say (``dark`` as called, ``shown`` where they show), for each format that fits
    what shows of the format modules, best first; empty when none reads. With ``sureness`` (how clearly
    each module was called) the least sure codewords are also taken as lost, one more at a time, while the
    error correction lasts (generalized minimum distance decoding): a wrong codeword costs twice a lost
    one, and a codeword with a module or two hidden keeps their calls but is the first taken as lost."""
    size = dark.shape[0]
    version = (size - 17) // 4
    if dark.shape != (size, size) or 17 + 4 * version != size or not any(v == version for v, _ in BLOCKS):
        return []
    order, form, formats = layout(version)
    seen = shown[form]
    fits = sorted((int((printed != dark[form])[seen].sum()), key) for key, printed in formats.items())
    texts: list[str] = []
    for wrong, (level, mask) in fits:
        if wrong > FORMAT_SLACK or (version, level) not in BLOCKS:
            continue
        for text in _read_data(dark, shown, sureness, order, version, level, mask):
            if text not in texts:
                texts.append(text)
    return texts


def _read_data(dark: np.ndarray, shown: np.ndarray, sureness: np.ndarray | None,
               order: Sequence[tuple[int, int]], version: int, level: str, mask: int) -> list[str]:
    total, ec_count = BLOCKS[(version, level)]
    flip = MASKS[mask]
    codewords, lost, doubt = [], [], []
    for index in range(total):
        value, hidden, least = 0, 0, 1.0
        for row, column in order[8 * index : 8 * index + 8]:
            value = (value << 1) | int(bool(dark[row, column]) != flip(row, column))
            hidden += not shown[row, column]
            if sureness is not None:
                least = min(least, float(sureness[row, column]) if shown[row, column] else 0.0)
        codewords.append(value)
        if hidden and (sureness is None or hidden >= HIDDEN_LOST):
            lost.append(index)
        else:
            doubt.append((least, index))
    doubtful = [index for _, index in sorted(doubt)] if sureness is not None else []
    texts = []
    for extra in range(0, ec_count - len(lost) + 1):
        repaired = correct(codewords, ec_count, lost + doubtful[:extra])
        text = None if repaired is None else parse(repaired[: total - ec_count], version)
        if text is not None and text not in texts:
            texts.append(text)
        if not doubtful:
            break
    return texts


def parse(data: Sequence[int], version: int) -> str | None:
    """The text of a code's data codewords (numeric, alphanumeric and byte segments), or None."""
    bits = "".join(f"{word:08b}" for word in data)
    at, text = 0, []
    counts = {1: 10, 2: 9, 4: 8} if version < 10 else {1: 12, 2: 11, 4: 16}

    def take(count: int) -> int | None:
        nonlocal at
        if at + count > len(bits):
            return None
        value = int(bits[at : at + count], 2)
        at += count
        return value

    while len(bits) - at >= 4:
        mode = take(4)
        if mode == 0:
            break
        if mode not in counts:
            return None
        length = take(counts[mode])
        if length is None:
            return None
        piece = _segment(take, mode, length)
        if piece is None:
            return None
        text.append(piece)
    return "".join(text) or None


def _segment(take: object, mode: int, length: int) -> str | None:
    assert callable(take)
    out: list[str] = []
    if mode == 1:
        for start in range(0, length, 3):
            width = min(3, length - start)
            value = take({3: 10, 2: 7, 1: 4}[width])
            if value is None or value >= 10 ** width:
                return None
            out.append(f"{value:0{width}d}")
    elif mode == 2:
        for start in range(0, length, 2):
            pair = length - start >= 2
            value = take(11 if pair else 6)
            if value is None or value >= (45 * 45 if pair else 45):
                return None
            out.append(ALPHANUMERIC[value // 45] + ALPHANUMERIC[value % 45] if pair else ALPHANUMERIC[value])
    else:
        raw = bytearray()
        for _ in range(length):
            value = take(8)
            if value is None:
                return None
            raw.append(value)
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return None
    return "".join(out)
