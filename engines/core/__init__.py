"""The shape every rules engine follows.

A :class:`Game` holds the static rules data of one game (its rulebook passages, its setup options and
house rules) and makes initial states. A :class:`State` is one playthrough: it lists its legal actions,
applies one to give a *new* state (states are never changed in place by callers), scores itself at any
time, says when the game is over, shows each player only what that player may see, and round-trips
through JSON-compatible dicts.

Chance is explicit, as in OpenSpiel: while a face-down identity must be revealed the state's
``current_player()`` is :data:`CHANCE` and ``chance_outcomes()`` lists what the reveal could be. On a real
table the camera (or a person) supplies the reveal; bots sample it from a seeded ``random.Random``.

Illegal actions raise :class:`IllegalAction`, which names the :class:`Rule` that forbids them. Any state can
be put right with the generic :class:`Correct` action, which replaces the state wholesale and is logged like
any other action.
"""

from engines.core.actions import Action, ActionCodec, Correct
from engines.core.errors import EngineError, IllegalAction, InputError, StateFormatError, refusal
from engines.core.game import (
    CHANCE,
    TERMINAL,
    Explanation,
    Game,
    GameInfo,
    LaidByPlayers,
    Outcome,
    Ruling,
    State,
)
from engines.core.playout import (
    Policy,
    playout_states,
    random_playout,
    sample_chance,
    steps_from,
    uniform_policy,
)
from engines.core.registry import available_games, canonical_name, get_game, register_game
from engines.core.rules import Rule, RuleBook

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionCodec",
    "Correct",
    "EngineError",
    "Explanation",
    "Game",
    "GameInfo",
    "IllegalAction",
    "InputError",
    "LaidByPlayers",
    "Outcome",
    "Policy",
    "Rule",
    "RuleBook",
    "Ruling",
    "State",
    "StateFormatError",
    "available_games",
    "canonical_name",
    "get_game",
    "playout_states",
    "random_playout",
    "refusal",
    "register_game",
    "sample_chance",
    "steps_from",
    "uniform_policy",
]
