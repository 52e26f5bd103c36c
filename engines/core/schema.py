"""Reading JSON safely: one reader for every engine's state format and ruling input.

A :class:`Node` is a JSON value with the path it was found at (``$.seats.red.dull``). Its accessors check
the value's type and range and raise one error naming the path and what was expected::

    data = Node(raw)                              # the document ($)
    players = [p.text() for p in data["players"].items_of(min_len=2)]
    dull = data["seats"][name]["dull"].integer(low=0, high=12)
    phase = data.get("phase", "main").choice(PHASES)

``data["key"]`` requires the key; ``data.get("key", default)`` gives the default when it is absent;
:meth:`Node.only` refuses keys nobody reads (a typo must not pass silently). Errors are
:class:`~engines.core.errors.StateFormatError` by default; ruling commands pass ``error=InputError``.
Integers are bounded, so a 5000-digit number is refused rather than carried along.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, NoReturn, TypeVar

from engines.core.errors import EngineError, StateFormatError

T = TypeVar("T")
#: the largest integer any state or ruling holds (a turn number, a count); larger is a corrupt file
MAX_INTEGER = 10**9
_MISSING = object()


def _described(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**12 else f"an integer of {len(str(abs(value)))} digits"
        return text
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


class Node:
    """A JSON value and where it was found (see the module docstring). The path is put together only
    when an error names it, so reading a valid document costs little more than reading the dict."""

    __slots__ = ("_key", "_parent", "_path", "error", "value")

    def __init__(self, value: Any, path: str = "$", error: type[EngineError] = StateFormatError) -> None:
        self.value = value
        self._path: str | None = path
        self._parent: Node | None = None
        self._key: str | int = ""
        self.error = error

    def _at(self, key: str | int, value: Any) -> Node:
        child = Node.__new__(Node)
        child.value = value
        child._path = None
        child._parent = self
        child._key = key
        child.error = self.error
        return child

    @property
    def path(self) -> str:
        if self._path is None:
            assert self._parent is not None
            key = self._key
            if isinstance(key, int):
                self._path = f"{self._parent.path}[{key}]"
            else:
                self._path = f"{self._parent.path}.{key if key.isidentifier() else repr(key)}"
        return self._path

    # -- failing --------------------------------------------------------------------------------------
    def fail(self, message: str) -> NoReturn:
        raise self.error(f"{self.path}: {message}")

    def expected(self, what: str) -> NoReturn:
        self.fail(f"must be {what}, not {_described(self.value)}")

    # -- objects --------------------------------------------------------------------------------------
    def mapping(self) -> Mapping[str, Any]:
        value = self.value
        if type(value) is not dict and not isinstance(value, Mapping):
            self.expected("an object")
        return value

    def __getitem__(self, key: str) -> Node:
        mapping = self.mapping()
        if key not in mapping:
            self.fail(f"missing {key!r}")
        return self._at(key, mapping[key])

    def get(self, key: str, default: Any = None) -> Node:
        """The member ``key``, or a node holding ``default`` when it is absent."""
        mapping = self.mapping()
        return self._at(key, mapping.get(key, default))

    def has(self, key: str) -> bool:
        return key in self.mapping()

    def only(self, keys: Collection[str]) -> Node:
        """Refuse members nobody reads (a misspelt key names itself)."""
        mapping = self.mapping()
        if mapping.keys() <= keys if isinstance(keys, frozenset | set) else all(k in keys for k in mapping):
            return self
        unknown = sorted(str(key) for key in mapping if key not in keys)
        known = ", ".join(sorted(keys))
        self.fail(f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                  f"(known: {known})")

    def members(self) -> Iterator[tuple[str, Node]]:
        """The members of an object, in order, each as a node."""
        for key, value in self.mapping().items():
            if not isinstance(key, str):
                self.fail(f"keys must be text, not {_described(key)}")
            yield key, self._at(key, value)

    # -- lists ----------------------------------------------------------------------------------------
    def items_of(self, min_len: int = 0, max_len: int | None = None) -> list[Node]:
        """The elements of a list, each as a node (``$.players[2]``)."""
        return [self._at(index, item) for index, item in enumerate(self.values_of(min_len, max_len))]

    def values_of(self, min_len: int = 0, max_len: int | None = None) -> Sequence[Any]:
        """The plain elements of a list, for long lists read in a hot path; :meth:`item` gives the node of
        one of them when it needs an error."""
        value = self.value
        if not isinstance(value, list | tuple):
            self.expected("a list")
        if len(value) < min_len or (max_len is not None and len(value) > max_len):
            bound = f"{min_len} to {max_len}" if max_len is not None else f"at least {min_len}"
            self.fail(f"must hold {bound} items, not {len(value)}")
        return value

    def item(self, index: int) -> Node:
        """The node of element ``index`` of a list read by :meth:`values_of`."""
        return self._at(index, self.value[index])

    # -- scalars --------------------------------------------------------------------------------------
    def integer(self, low: int | None = None, high: int | None = None) -> int:
        value = self.value
        if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)):
            self.expected("an integer")
        lowest = -MAX_INTEGER if low is None else low
        highest = MAX_INTEGER if high is None else high
        if not lowest <= value <= highest:
            if low is not None and high is not None:
                self.expected(f"an integer {low}..{high}")
            if low is not None:
                self.expected(f"an integer >= {low}" if high is None else f"an integer {low}..{high}")
            self.expected(f"an integer from {lowest} to {highest}")
        return value

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            self.expected("true or false")
        return self.value

    def text(self, allow_empty: bool = False, max_len: int = 200) -> str:
        """Printable Unicode text (a lone surrogate from a ``\\u`` escape cannot be written back)."""
        value = self.value
        if not isinstance(value, str):
            self.expected("text")
        if not value.strip() and not allow_empty:
            self.fail("must not be empty")
        if len(value) > max_len:
            self.fail(f"must be at most {max_len} characters")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.fail("must be Unicode text")
        return value

    def choice(self, choices: Iterable[T]) -> T:
        options = list(choices)
        if isinstance(self.value, list | dict) or self.value not in options:
            shown = ", ".join(_described(option) for option in options[:12])
            more = f" ... ({len(options)} in all)" if len(options) > 12 else ""
            self.expected(f"one of {shown}{more}")
        found: T = self.value
        return found

    def pair(self) -> tuple[int, int]:
        """Two integers, e.g. a cell ``[q, r]`` or ``[row, col]``."""
        value = self.value
        if type(value) is list and len(value) == 2:  # the usual case, without a node per number
            first_value, second_value = value
            if (type(first_value) is int and type(second_value) is int
                    and abs(first_value) <= MAX_INTEGER and abs(second_value) <= MAX_INTEGER):
                return (first_value, second_value)
        first, second = self.items_of(2, 2)
        return (first.integer(), second.integer())

    def optional(self, read: Callable[[Node], T]) -> T | None:
        """``read(self)``, or None when the value is null."""
        return None if self.value is None else read(self)

    def __repr__(self) -> str:
        return f"Node({self.path}={_described(self.value)})"


def read_document(data: Any, error: type[EngineError] = StateFormatError) -> Node:
    """The root of a JSON document."""
    return Node(data, "$", error)


def distinct(nodes: Sequence[Node], values: Sequence[Any], what: str) -> None:
    """Fail at the first repeated value, naming where it repeats."""
    seen: dict[Any, Node] = {}
    for node, value in zip(nodes, values):
        if value in seen:
            node.fail(f"{what} {_described(value)} appears twice (also at {seen[value].path})")
        seen[value] = node
