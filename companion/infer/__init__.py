"""Move inference: observation vs engine state -> the action(s) that explain it, a question or an objection.

:mod:`~companion.infer.picture` reduces a table to what is compared; :mod:`~companion.infer.model` is the
:class:`TableModel` each game's kit refines (its ``model()`` gives a game's); :mod:`~companion.infer.search`
is the game-independent search.
"""

from __future__ import annotations

from companion.infer.model import LaidOutModel, SharesSplits, TableModel, split_shares, state_key, state_seed
from companion.infer.picture import (
    Accepted,
    Difference,
    Picture,
    Placed,
    as_accepted,
    compare,
    default_namer,
)
from companion.infer.search import Inference, describe_action, infer

__all__ = [
    "Accepted",
    "Difference",
    "Inference",
    "LaidOutModel",
    "Picture",
    "Placed",
    "SharesSplits",
    "TableModel",
    "as_accepted",
    "compare",
    "default_namer",
    "describe_action",
    "infer",
    "split_shares",
    "state_key",
    "state_seed",
]
