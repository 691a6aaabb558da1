"""The AGB-RL learner's hyperparameters, apart from the learner so that `rulec --help`
can show their defaults without importing it (docs/agb-rl.md explains each)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RefineConfig"]


@dataclass(frozen=True)
class RefineConfig:
    """Hyperparameters (docs/agb-rl.md explains each)."""

    seed: int = 0
    episodes: int = 60
    steps: int = 24
    alpha: float = 0.5
    gamma: float = 0.5
    epsilon: float = 0.4
    epsilon_min: float = 0.05
    step_pct: float = 0.5  # one lattice step, in % of the bound's scale
    max_move_pct: float = 20.0  # no bound moves further than this from its value
    penalty: float = 0.5  # feedback rows a move of 100 % of the scale costs
    polish: bool = True  # re-centre moved bounds between neighbouring feedback values
