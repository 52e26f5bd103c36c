"""What the camera's checks say to people (the set-up self-test, the light, how far tiles may lie, the area
the markers mark), kept as a message and the values that fill it, so that the page says each in its
reader's language; ``str()`` is the English (the command line, logs).

The messages are in the companion's catalogue: ``said("...")`` is a marker its extraction looks for, as in
the companion's own code. A sentence may carry more sentences said after it (``then``, joined by "; "), each
translated on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Sentence:
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    then: tuple[Sentence, ...] = ()

    def __str__(self) -> str:
        own = self.message % dict(self.params) if self.params else self.message
        return "; ".join([own, *(str(part) for part in self.then)])

    def and_then(self, *parts: Sentence) -> Sentence:
        return Sentence(self.message, self.params, self.then + parts)

    def to_dict(self) -> dict[str, Any]:
        """The page's form: ``{"message", "params"}`` (as the companion's sentences travel) and ``then``."""
        data: dict[str, Any] = {"message": self.message, "params": dict(self.params)}
        if self.then:
            data["then"] = [part.to_dict() for part in self.then]
        return data


def said(message: str, **params: Any) -> Sentence:
    """A sentence for readers not yet known: ``said("marker %(marker)s is not seen", marker=2)``."""
    return Sentence(message, params)
