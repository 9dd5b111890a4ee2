"""AI profiles: the named policies a run can use for both seats.

A profile maps to one engine policy mode per seat (``sim.engine.policy.MODE_*``).
Only the uniformly random legal policy exists so far; the scripted-AI issue adds
``standard`` and ``greedy`` (a mode plus a weight vector) to :data:`PROFILES`.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AIProfile:
    """A named policy: ``mode_name`` names the engine policy mode (``MODE_*`` in
    ``sim.engine.policy``) used by both seats. Importing this module does not load
    the engine; :attr:`modes` does."""

    name: str
    mode_name: str
    description: str

    @property
    def modes(self) -> tuple[int, int]:
        """Policy mode per seat (seat 0 moves first), as ``Match.play_many`` takes them."""
        from sim.engine import policy
        mode = getattr(policy, self.mode_name)
        return (mode, mode)


PROFILES: dict[str, AIProfile] = {
    "random": AIProfile("random", "MODE_RANDOM", "uniformly random legal choice at every decision"),
}

DEFAULT_PROFILE = "random"


def get_profile(name: str) -> AIProfile:
    """The profile called ``name``; raises ValueError listing the valid names."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown AI profile {name!r}; valid: {', '.join(sorted(PROFILES))}") from None
