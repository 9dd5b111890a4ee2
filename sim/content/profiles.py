"""AI profiles: the named policies games are played with (``--ai NAME``).

A profile is a small TOML file: a ``mode`` (which engine policy plays) and, for
the scripted AI modes, ``[weights]`` (what the AI values; names and meanings in
``sim.engine.ai``, listed by ``unmatched-sim ai``). The installed profiles live in
``sim/profiles/``:

* ``standard`` (the default): the scripted AI;
* ``standard-1``: the standard AI of release 0.1, frozen for one release (its weights and
  its former, costlier estimates: mode ``standard-1``), to compare the new one against;
* ``expert`` and ``expert-deep``: the expert AI (mode ``expert``): at each action
  decision it plays the best few candidate actions forward in sampled games (the hidden
  cards dealt at random from what it has not seen) and takes the best mean result; its
  ``search_*`` weights set the budget (``expert-deep``: four times ``expert``'s);
* ``greedy``: attacks with its highest-value card whenever it can, else
  maneuvers toward the nearest opposing fighter, defends with its highest-value
  card, never BOOSTs or plays schemes;
* ``random``: a uniformly random legal choice at every decision.

A designer's own profile is a file with the same fields; ``base = "standard"``
takes every weight not given from that profile. ``--ai path/to/mine.toml`` uses
it; errors name the file, the field and the valid choices.

Example ``mine.toml``::

    name = "cautious"
    mode = "standard"
    base = "standard"
    [weights]
    threat = 1.0        # fear being attacked more
    defend_margin = -0.5
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sim.engine import control
from sim.engine.ai import SEARCH_DEFAULTS, WEIGHT_NAMES

from .errors import FileError

PROFILE_DIR = Path(__file__).resolve().parent.parent / "profiles"
MODES = {"standard": "MODE_STANDARD", "standard-1": "MODE_STANDARD1", "expert": "MODE_EXPERT",
         "greedy": "MODE_GREEDY", "random": "MODE_RANDOM"}
DEFAULT_PROFILE = "standard"


class ProfileError(FileError):
    """A bad AI profile name or file; the message names the file, field and valid choices."""


@dataclass(frozen=True)
class AIProfile:
    """A named policy: engine mode (``standard``, ``greedy`` or ``random``) and its weights.

    ``weights``: floats in the order of ``sim.engine.ai.WEIGHT_NAMES``.
    """

    name: str
    mode_name: str
    description: str
    weights: tuple = field(default=())
    source: str = ""

    @property
    def mode(self) -> int:
        """The engine policy mode (``sim.engine.control.MODE_*``)."""
        return getattr(control, MODES[self.mode_name])

    def weight(self, name: str) -> float:
        """One weight by name; ProfileError on an unknown name."""
        if name not in WEIGHT_NAMES:
            raise ProfileError(f"unknown AI weight {name!r}; valid: {', '.join(WEIGHT_NAMES)}")
        return self.weights[WEIGHT_NAMES.index(name)] if self.weights else 0.0


def _weight_names() -> tuple:
    # the names live with the engine code that reads them; importing sim.engine.ai
    # does not compile anything until a game is played
    return WEIGHT_NAMES


def load_profile(path, _seen: tuple = ()) -> AIProfile:
    """Read and validate a profile file; raises ProfileError naming the file and field."""
    path = Path(path)
    where = str(path)
    key = str(path.resolve())
    if key in _seen:
        raise ProfileError(f"{where}: field 'base' leads back to this file (a cycle of profiles)")
    _seen = _seen + (key,)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ProfileError(f"{where}: no such AI profile file") from None
    except OSError as e:   # a folder, no permission
        raise ProfileError(f"{where}: cannot read the AI profile file ({e.strerror or e})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ProfileError(f"{where}: not valid TOML: {e}") from None
    allowed = {"name", "mode", "description", "base", "weights"}
    extra = set(data) - allowed
    if extra:
        raise ProfileError(f"{where}: unknown field(s) {', '.join(sorted(extra))}; valid: {', '.join(sorted(allowed))}")
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name:
        raise ProfileError(f"{where}: field 'name' must be a non-empty string")
    mode = data.get("mode", "standard")
    if not (isinstance(mode, str) and mode in MODES):
        raise ProfileError(f"{where}: field 'mode' is {mode!r}; valid: {', '.join(MODES)}")
    names = _weight_names()
    weights = dict.fromkeys(names, 0.0)
    weights.update(SEARCH_DEFAULTS)   # (the expert's budget; other modes do not read them)
    base = data.get("base")
    installed_names = {f.stem for f in PROFILE_DIR.glob("*.toml")}
    if path.parent.resolve() != PROFILE_DIR.resolve() and name in installed_names:
        raise ProfileError(f"{where}: field 'name' = {name!r} is an installed profile's name; "
                           f"give your profile its own name (installed: {', '.join(sorted(installed_names))})")
    if base is not None:
        if not isinstance(base, str) or not base:
            raise ProfileError(f"{where}: field 'base' must be a profile name or a .toml path")
        installed = PROFILE_DIR / f"{base}.toml"
        try:
            if "\0" in base:
                raise ProfileError(f"{base!r} is not a profile name or path")
            if installed.is_file():
                b = load_profile(installed, _seen)
            else:
                bp = Path(base)
                if not bp.is_absolute():
                    bp = path.parent / bp
                b = load_profile(bp, _seen) if base.endswith(".toml") else get_profile(base)
        except ProfileError as e:
            raise ProfileError(f"{where}: field 'base': {e}") from None
        weights.update(zip(names, b.weights))
    given = data.get("weights", {})
    if not isinstance(given, dict):
        raise ProfileError(f"{where}: [weights] must be a table of name = number")
    for k, v in given.items():
        if k not in weights:
            raise ProfileError(f"{where}: weights.{k} is not an AI weight; valid: {', '.join(names)}")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ProfileError(f"{where}: weights.{k} must be a number, not {v!r}")
        if not math.isfinite(v) or abs(v) > 1e6:
            raise ProfileError(f"{where}: weights.{k} = {v} is out of range (|w| <= 1e6)")
        weights[k] = float(v)
    if mode in ("standard", "standard-1", "expert") and base is None:
        missing = [n for n in names if n not in given and n not in SEARCH_DEFAULTS]
        if missing:
            raise ProfileError(f"{where}: weights missing: {', '.join(missing)} (or set base = \"standard\")")
    if mode == "expert":
        for k, lo, hi in (("search_samples", 1, 256), ("search_candidates", 1, 16), ("search_horizon", 0, 100)):
            v = weights[k]
            if v != int(v) or not lo <= v <= hi:
                raise ProfileError(f"{where}: weights.{k} = {v:g} must be a whole number from {lo} to {hi}")
    return AIProfile(name, mode, str(data.get("description", "")), tuple(weights[n] for n in names), where)


@cache
def installed_profiles() -> dict[str, AIProfile]:
    """The profiles shipped in ``sim/profiles/``, by name."""
    out = {}
    for f in sorted(PROFILE_DIR.glob("*.toml")):
        p = load_profile(f)
        out[p.name] = p
    return out


def profile_names() -> list[str]:
    """Names of the installed profiles."""
    return sorted(installed_profiles())


def get_profile(name, _seen=()) -> AIProfile:
    """An installed profile by name, or a profile file by path (``*.toml``).

    An :class:`AIProfile` is returned unchanged. Raises ProfileError listing the
    valid names.
    """
    if isinstance(name, AIProfile):
        return name
    name = str(name)
    if name.endswith(".toml") or "/" in name or "\\" in name:
        return load_profile(name, _seen)
    try:
        return installed_profiles()[name]
    except KeyError:
        raise ProfileError(f"unknown AI profile {name!r}; valid: {', '.join(profile_names())} "
                           "or a profile file path ending in .toml") from None


def seat_controls(profiles) -> tuple[tuple, tuple]:
    """(modes, weights) per seat for ``new_control`` from profiles, names or engine modes (ints)."""
    modes, weights = [], []
    for pr in profiles:
        if isinstance(pr, (int,)) and not isinstance(pr, bool):
            modes.append(int(pr))
            weights.append(None)
        else:
            pr = get_profile(pr)
            modes.append(pr.mode)
            weights.append(pr.weights or None)
    return tuple(modes), tuple(weights)
