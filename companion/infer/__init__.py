"""Move inference: observation vs engine state -> the action(s) that explain it, a question or an objection.

:mod:`companion.infer.common` holds the game-independent search and the :class:`TableModel` that each game's
kit refines (which actions to try first, how to name the rule an attempted move breaks, the split shares);
the kit's ``model()`` gives a game's model.
"""

from __future__ import annotations

from companion.infer.common import (
    Difference,
    Inference,
    Picture,
    TableModel,
    compare,
    infer,
    state_key,
    state_seed,
)

__all__ = [
    "Difference",
    "Inference",
    "Picture",
    "TableModel",
    "compare",
    "infer",
    "state_key",
    "state_seed",
]
