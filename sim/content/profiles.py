"""AI profiles: the named policies games are played with (``--ai NAME``).

A profile is a small TOML file: a ``mode`` (which engine policy plays) and, for
the scripted AI modes, ``[weights]`` (what the AI values; names and meanings in
``sim.engine.ai``, listed by ``unmatched-sim ai``). The installed profiles live in
``sim/profiles/``:

* ``standard`` (the default): the scripted AI, every card priced in one currency from the
  position (``sim.engine.ai``; its weights of release 0.3: ``guess_base``, a right named
  value per matching card beyond the damage it prevents; ``keep_full``, the share of a hand
  card's keep worth that holds at the hand limit; ``keep_attack``, the share of an attack
  card's keep worth that an attack with it costs (it cannot defend); ``fx_draw`` and ``fx_damage`` are release 0.2's only);
* ``standard-0.2``, ``tuned-0.2`` and ``expert-0.2``: the profiles of release 0.2, frozen
  (their weights and the scoring they had: modes ``standard-0.2`` and ``expert-0.2``), to
  measure the current ones against (the 0.1 profile ``standard-1`` is retired);
* ``expert`` and ``expert-deep``: the expert AI (mode ``expert``): at each action
  decision it plays the best few candidate actions forward in sampled games (the hidden
  cards dealt at random from what it has not seen) and takes the best mean result; its
  ``search_*`` weights set the budget (``expert-deep``: four times ``expert``'s);
* ``greedy``: attacks with its highest-value card whenever it can, else
  maneuvers toward the nearest opposing fighter, defends with its highest-value
  card, never BOOSTs or plays schemes;
* ``random``: a uniformly random legal choice at every decision.

A designer's own profile is a file with the same fields; ``base = "standard"``
takes every weight not given from that profile. A profile may also give weights for one
hero (``[heroes.<hero key>.weights]``, on top of the profile's own; a profile based on one
with such sections inherits them, its own ``[weights]`` applied to them too; with an optional
``[heroes.<hero key>.provenance]`` table saying where they came from, as ``unmatched-sim
tune`` writes): that hero's fighters play with them, every other hero with the profile's
weights. The shipped ``tuned`` profile is one weight set per hero. A top-level ``[provenance]``
table says where the profile's own weights came from (``unmatched-sim train`` writes one). ``--ai path/to/mine.toml`` uses
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

import json
import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sim.engine import control
from sim.engine.ai import NEW_DEFAULTS, SEARCH_DEFAULTS, WEIGHT_NAMES

from .errors import FileError

PROFILE_DIR = Path(__file__).resolve().parent.parent / "profiles"
MODES = {"standard": "MODE_STANDARD", "expert": "MODE_EXPERT", "standard-0.2": "MODE_STANDARD02",
         "expert-0.2": "MODE_EXPERT02", "greedy": "MODE_GREEDY", "random": "MODE_RANDOM"}
SEARCH_MODES = ("expert", "expert-0.2")
"""Modes that look ahead at action decisions (the expert's budget weights apply)."""
RETIRED = {"standard-1": "the standard AI of release 0.1, retired in release 0.3"}
"""Profiles no longer shipped: name -> what it was (named in the error)."""
DEFAULT_PROFILE = "standard"
#: The provenance key of a profile's own weights (the ones every hero without weights of its own plays).
ALL_HEROES = "*"


class ProfileError(FileError):
    """A bad AI profile name or file; the message names the file, field and valid choices."""


@dataclass(frozen=True)
class AIProfile:
    """A named policy: engine mode (``standard``, ``greedy`` or ``random``) and its weights.

    ``weights``: floats in the order of ``sim.engine.ai.WEIGHT_NAMES``; ``hero_weights``:
    ((hero key, weights), ...) for heroes that play with their own weights (same order);
    ``provenance``: ((hero key, JSON text), ...), where a hero's weights came from
    (key :data:`ALL_HEROES` for the profile's own weights, as ``unmatched-sim train`` writes).
    """

    name: str
    mode_name: str
    description: str
    weights: tuple = field(default=())
    source: str = ""
    hero_weights: tuple = field(default=())
    provenance: tuple = field(default=())

    def weights_for(self, hero: str | None) -> tuple:
        """The weights hero ``hero`` (a key, or None) plays with: its own, else the profile's."""
        for k, w in self.hero_weights:
            if k == hero:
                return w
        return self.weights

    @property
    def tuned_heroes(self) -> list[str]:
        """Keys of the heroes with weights of their own."""
        return [k for k, _ in self.hero_weights]

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
    allowed = {"name", "mode", "description", "base", "weights", "heroes", "provenance"}
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
    weights.update(NEW_DEFAULTS)      # (the one-currency standard's; release 0.2's modes do not read them)
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
        _check_weight(where, "weights", k, v, names)
        weights[k] = float(v)
    if mode != "greedy" and mode != "random" and base is None:
        missing = [n for n in names if n not in given and n not in SEARCH_DEFAULTS and n not in NEW_DEFAULTS]
        if missing:
            raise ProfileError(f"{where}: weights missing: {', '.join(missing)} (or set base = \"standard\")")
    if mode in SEARCH_MODES:
        _check_budget(where, "weights", weights)
    # a base's weights of a hero's own are inherited; the weights given here apply to them too
    hero_w = {}
    for hk, bw in (b.hero_weights if base is not None else ()):
        hw = dict(zip(names, bw))
        hw.update({k: float(v) for k, v in given.items()})
        hero_w[hk] = tuple(hw[n] for n in names)
    prov = dict(b.provenance) if base is not None else {}
    if "provenance" in data:     # where the profile's own weights came from (``unmatched-sim train`` writes it)
        if not isinstance(data["provenance"], dict):
            raise ProfileError(f"{where}: field 'provenance' must be a table")
        prov[ALL_HEROES] = json.dumps(data["provenance"], sort_keys=True, default=str)
    heroes = data.get("heroes", {})
    if not isinstance(heroes, dict):
        raise ProfileError(f"{where}: [heroes] must be a table of hero key = {{ weights = {{...}} }}")
    for hk, sec in heroes.items():
        if not isinstance(sec, dict) or set(sec) - {"weights", "provenance"} or not isinstance(sec.get("weights", {}), dict):
            raise ProfileError(f"{where}: heroes.{hk} must be a table with 'weights' (name = number) and "
                               "optionally 'provenance'")
        hw = dict(zip(names, hero_w.get(hk, tuple(weights[n] for n in names))))
        for k, v in sec.get("weights", {}).items():
            _check_weight(where, f"heroes.{hk}.weights", k, v, names)
            hw[k] = float(v)
        if mode in SEARCH_MODES:
            _check_budget(where, f"heroes.{hk}.weights", hw)
        hero_w[hk] = tuple(hw[n] for n in names)
        if "provenance" in sec:
            if not isinstance(sec["provenance"], dict):
                raise ProfileError(f"{where}: heroes.{hk}.provenance must be a table")
            prov[hk] = json.dumps(sec["provenance"], sort_keys=True, default=str)
    return AIProfile(name, mode, str(data.get("description", "")), tuple(weights[n] for n in names), where,
                     tuple(sorted(hero_w.items())), tuple(sorted(prov.items())))


def _check_weight(where: str, table: str, k, v, names) -> None:
    """ProfileError unless ``k`` is an AI weight and ``v`` a finite number within 1e6."""
    if k not in names:
        raise ProfileError(f"{where}: {table}.{k} is not an AI weight; valid: {', '.join(names)}")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ProfileError(f"{where}: {table}.{k} must be a number, not {v!r}")
    if not math.isfinite(v) or abs(v) > 1e6:
        raise ProfileError(f"{where}: {table}.{k} = {v} is out of range (|w| <= 1e6)")


def _check_budget(where: str, table: str, weights: dict) -> None:
    """ProfileError unless the expert's budget weights are whole numbers in their ranges."""
    for k, lo, hi in (("search_samples", 1, 256), ("search_candidates", 1, 16), ("search_horizon", 0, 100),
                     ("search_choices", 0, 2)):
        v = weights[k]
        if v != int(v) or not lo <= v <= hi:
            raise ProfileError(f"{where}: {table}.{k} = {v:g} must be a whole number from {lo} to {hi}")


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
    """An installed profile by name (in any case: ``Standard``), or a profile file by path (``*.toml``).

    An :class:`AIProfile` is returned unchanged. Raises ProfileError listing the
    valid names.
    """
    if isinstance(name, AIProfile):
        return name
    name = str(name)
    if name.endswith(".toml") or "/" in name or "\\" in name:
        return load_profile(name, _seen)
    try:
        return installed_profiles()[name if name in installed_profiles() else name.casefold()]  # any case
    except KeyError:
        was = f" ({RETIRED[name]})" if name in RETIRED else ""
        raise ProfileError(f"unknown AI profile {name!r}{was}; valid: {', '.join(profile_names())} "
                           "or a profile file path ending in .toml") from None


def seat_controls(profiles, heroes=None) -> tuple[tuple, tuple]:
    """(modes, weights) per seat for ``new_control`` from profiles, names or engine modes (ints).

    ``heroes``: the hero key of each seat (same order), so that a hero with weights of its
    own in a profile plays with them; None: every seat plays the profile's weights."""
    modes, weights = [], []
    for i, pr in enumerate(profiles):
        if isinstance(pr, (int,)) and not isinstance(pr, bool):
            modes.append(int(pr))
            weights.append(None)
        else:
            pr = get_profile(pr)
            modes.append(pr.mode)
            w = pr.weights_for(heroes[i] if heroes is not None else None)
            weights.append(w or None)
    return tuple(modes), tuple(weights)


def write_profile_file(path, name: str, mode: str, description: str, weights: dict, provenance: dict | None = None,
                       header: str = "") -> Path:
    """Write a full profile file (every weight given, no base) atomically: ``weights``
    (name -> value, rounded to 6 decimals), ``provenance`` (a TOML-ready table: where the
    weights came from), ``header`` (comment lines put first). Raises ValueError on an
    unknown weight name or mode, OSError if the folder cannot be written."""
    import os

    import tomli_w
    if mode not in MODES:
        raise ValueError(f"unknown profile mode {mode!r}; valid: {', '.join(MODES)}")
    bad = [k for k in weights if k not in WEIGHT_NAMES]
    if bad:
        raise ValueError(f"unknown AI weight(s) {', '.join(bad)}; valid: {', '.join(WEIGHT_NAMES)}")
    data = {"name": name, "mode": mode, "description": description,
            "weights": {k: round(float(weights[k]), 6) for k in WEIGHT_NAMES if k in weights}}
    if provenance:
        data["provenance"] = provenance
    text = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + tomli_w.dumps(data)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)
    return path
