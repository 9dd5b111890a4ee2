"""Designer variants: a small TOML file that changes parts of hero files for one run.

A variant asks "what happens to the balance if I change this card?" without
editing the hero files. It patches the heroes' raw TOML tables, then every
patched hero goes through the same validation and effect compiler as a hero file
(``sim.content.heroes.hero_from_data``), so a variant can change anything the
file states for the parts below, and a variant that makes a hero invalid is an
error. The format::

    name = "arthur +4 health"              # optional (default: the file name)
    description = "why we try this"        # optional

    [hero.king_arthur]                     # a hero key (or alias)
    health = 22                            # the hero: health, move, attack
    [hero.king_arthur.cards."Excalibur"]   # a card, by its name in the hero file
    value = 7                              # value, boost, copies
    [hero.king_arthur.sidekicks."Merlin"]  # a sidekick: health, move, count, attack
    health = 8
    [hero.medusa.cards."Gaze of Stone"]
    after.0.amount = 6                     # one effect argument: step 0 of 'after'
    # after = [ { op = "damage", amount = 6, target = "opposing", if = "won" } ]
    #                                      # or a whole timing window, replaced
    [hero.medusa.ability]
    start_of_turn.0.may = false            # an ability hook's steps, the same way

Effect arguments are addressed as ``WINDOW.STEP.ARGUMENT`` with the step counted
from 0 in the card's list (as in the hero file's error messages, ``after[0]``);
a nested argument continues the path (``after.0.options.1.0.amount`` for a
``choose`` step's second option's first step). A patch may set an argument the
step has, or one its op takes (``may``, ``if`` ...); to add or remove steps, give
the whole window as a list.

Validation is strict: an unknown hero, card, sidekick, field, step or argument is
a one-line :class:`VariantError` naming the variant file, the hero, the card and
the field, with the valid choices.

Example::

    from sim.content.variants import load_variant
    v = load_variant("arthur_plus4.toml")        # validated against the installed heroes
    content = installed_content((), v.to_json())  # sim.play.match: compiled with the variant
"""
from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import FileError
from .heroes import HOOKS, WINDOWS, HeroFileError, card_name, hero_from_data, load_all, read_hero_data
from .vocab import OPS

TOP_FIELDS = ("name", "description", "hero")
HERO_FIELDS = ("health", "move", "attack", "cards", "sidekicks", "ability")
HERO_SCALARS = ("health", "move", "attack")
CARD_SCALARS = ("value", "boost", "copies")
CARD_FIELDS = CARD_SCALARS + tuple(WINDOWS)
SIDEKICK_FIELDS = ("health", "move", "count", "attack")
ABILITY_FIELDS = tuple(HOOKS)
STEP_EXTRA = ("if", "unless", "may")


class VariantError(FileError):
    """A variant file is missing, not TOML, or names an unknown hero, card, sidekick,
    field, step or argument, or makes a hero invalid. One line: the file, the hero,
    the card, the field and the valid choices. ``param`` is ``"--variant"``."""

    param = "--variant"


@dataclass(frozen=True)
class Change:
    """One change a variant makes: ``hero`` key, ``what`` (e.g. ``card 'Excalibur'
    value`` or ``health``), the ``old`` and ``new`` values (None when a window is
    added)."""

    hero: str
    what: str
    old: object
    new: object

    def __str__(self) -> str:
        def show(v):
            return "(none)" if v is None else json.dumps(v) if not isinstance(v, str) else v
        return f"{self.hero}: {self.what} {show(self.old)} -> {show(self.new)}"


@dataclass(frozen=True)
class Variant:
    """A validated variant.

    ``name``: its name; ``file``: the file it was read from (for messages);
    ``heroes``: hero key -> the overrides as written (keys canonical, JSON-able);
    ``changes``: the :class:`Change` list it makes to the installed heroes (values
    equal to the hero file's are listed too, so a variant that changes nothing has
    changes whose old and new agree). ``digest``: 16 hex digits of the overrides.
    """

    name: str
    file: str
    heroes: dict
    description: str = ""
    changes: tuple = field(default=(), compare=False)

    @property
    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.heroes, sort_keys=True).encode()).hexdigest()[:16]

    @property
    def is_noop(self) -> bool:
        """True when every change sets the value the hero file already has."""
        return all(c.old == c.new for c in self.changes)

    def to_json(self) -> str:
        """Canonical JSON (name, file, description, heroes): what workers receive and
        :func:`variant_from_json` reads back."""
        return json.dumps({"name": self.name, "file": self.file, "description": self.description,
                           "heroes": self.heroes}, sort_keys=True)

    def settings(self) -> dict:
        """The variant as recorded in a run's settings (a resumed run must match it)."""
        return {"name": self.name, "file": Path(self.file).name, "digest": self.digest, "heroes": self.heroes}

    def describe(self) -> list[str]:
        """One line per change, e.g. ``king_arthur: health 18 -> 22``."""
        return [str(c) for c in self.changes]


def _fail(file, msg):
    raise VariantError(f"{file}: {msg}")


def _table(file, where, v):
    if not isinstance(v, dict):
        _fail(file, f"{where}: must be a table, got {v!r}")
    return v


def _unknown(file, where, got, valid):
    _fail(file, f"{where}: unknown field {got!r}; valid: {', '.join(valid)}")


def _patch(file, where, existing, override, changes, hero, label):
    """Patch ``existing`` (a step list, a step table or a nested argument) with
    ``override`` (a table) in place; record changes. Returns the patched value."""
    if isinstance(existing, list):
        out = list(existing)
        for k, v in override.items():
            if not (isinstance(k, str) and k.isdigit()):
                _fail(file, f"{where}: {k!r} is not a step number; steps are numbered from 0 "
                            f"(this list has {len(existing)}: 0..{len(existing) - 1})")
            i = int(k)
            if i >= len(existing):
                _fail(file, f"{where}.{k}: no step {i}; this list has {len(existing)} "
                            f"(0..{len(existing) - 1}); give the whole list to add steps")
            out[i] = _patch_value(file, f"{where}.{k}", existing[i], v, changes, hero, f"{label}[{i}]")
        return out
    if isinstance(existing, dict):
        out = dict(existing)
        allowed = set(existing)
        op = existing.get("op")
        if isinstance(op, str) and op in OPS:
            allowed |= OPS[op][1] | set(STEP_EXTRA) | {"op"}
        for k, v in override.items():
            if k not in allowed:
                what = f"op {op!r} takes" if isinstance(op, str) and op in OPS else "it has"
                _fail(file, f"{where}.{k}: no argument {k!r}; {what}: {', '.join(sorted(allowed))}")
            if k in existing:
                out[k] = _patch_value(file, f"{where}.{k}", existing[k], v, changes, hero, f"{label}.{k}")
            else:
                changes.append(Change(hero, f"{label}.{k}", None, v))
                out[k] = v
        return out
    _fail(file, f"{where}: {existing!r} has no parts to patch; give a plain value instead")


def _patch_value(file, where, existing, v, changes, hero, label):
    if isinstance(v, dict) and isinstance(existing, (dict, list)):
        return _patch(file, where, existing, v, changes, hero, label)
    changes.append(Change(hero, label, existing, v))
    return v


def _window(file, where, data_table, key, v, changes, hero, label):
    """Replace (list) or patch (table) the effect window ``key`` of a card or ability table."""
    if isinstance(v, list):
        changes.append(Change(hero, label, data_table.get(key), v))
        data_table[key] = v
    elif isinstance(v, dict):
        if key not in data_table:
            _fail(file, f"{where}: this has no {key!r} steps to patch; give the whole list "
                        f"({key} = [ {{ op = ... }} ]) to add them")
        data_table[key] = _patch(file, where, data_table[key], v, changes, hero, label)
    else:
        _fail(file, f"{where}: must be a list of steps (replaces the window) or a table "
                    f"of step numbers (patches them), got {v!r}")


def _apply_hero(file, key, data: dict, ov: dict, changes: list) -> dict:
    """Apply one hero's overrides to a copy of its raw table; returns the copy."""
    data = copy.deepcopy(data)
    h = f"hero {key}"
    for f_, v in ov.items():
        if f_ not in HERO_FIELDS:
            _unknown(file, f"{h}, field {f_}", f_, HERO_FIELDS)
        if f_ in HERO_SCALARS:
            hero = data.setdefault("hero", {})
            changes.append(Change(key, f_, hero.get(f_), v))
            hero[f_] = v
    cards = data.get("cards") or []
    by_name = {card_name(c): c for c in cards if card_name(c) is not None}   # "Name (symbol)" for a symbol
    for cname, cov in _table(file, f"{h}, field cards", ov.get("cards", {})).items():
        if cname not in by_name:
            _fail(file, f"{h}, card {cname!r}: no such card; valid: {', '.join(repr(n) for n in by_name)}")
        card = by_name[cname]
        w = f"{h}, card {cname!r}"
        for f_, v in _table(file, w, cov).items():
            if f_ not in CARD_FIELDS:
                _unknown(file, f"{w}, field {f_}", f_, CARD_FIELDS)
            if f_ in CARD_SCALARS:
                if f_ == "value" and card.get("type") == "scheme":
                    _fail(file, f"{w}, field value: a scheme has no value; valid fields for it: boost, copies, "
                                + ", ".join(WINDOWS))
                changes.append(Change(key, f"card {cname!r} {f_}", card.get(f_), v))
                card[f_] = v
            else:
                _window(file, f"{w}, field {f_}", card, f_, v, changes, key, f"card {cname!r} {f_}")
    sks = data.get("sidekicks") or []
    sk_names = {s.get("name"): s for s in sks if isinstance(s, dict)}
    for sname, sov in _table(file, f"{h}, field sidekicks", ov.get("sidekicks", {})).items():
        if sname not in sk_names:
            _fail(file, f"{h}, sidekick {sname!r}: no such sidekick; valid: "
                        + (", ".join(repr(n) for n in sk_names) or "(none: this hero has no sidekicks)"))
        sk = sk_names[sname]
        w = f"{h}, sidekick {sname!r}"
        for f_, v in _table(file, w, sov).items():
            if f_ not in SIDEKICK_FIELDS:
                _unknown(file, f"{w}, field {f_}", f_, SIDEKICK_FIELDS)
            changes.append(Change(key, f"sidekick {sname!r} {f_}", sk.get(f_), v))
            sk[f_] = v
    aov = _table(file, f"{h}, field ability", ov.get("ability", {}))
    if aov:
        ability = data.setdefault("ability", {})
        for f_, v in aov.items():
            if f_ not in ABILITY_FIELDS:
                _unknown(file, f"{h}, ability, field {f_}", f_, ABILITY_FIELDS)
            _window(file, f"{h}, ability, field {f_}", ability, f_, v, changes, key, f"ability {f_}")
    return data


def _resolve_key(file, name, specs) -> str:
    if name in specs:
        return name
    for k, sp in specs.items():
        if name in getattr(sp, "aliases", ()):
            return k
    _fail(file, f"hero {name!r}: unknown hero; valid: {', '.join(sorted(specs))}")


def apply_variant(specs: dict, variant: Variant) -> dict:
    """Hero specs with ``variant`` applied: a new dict (key -> HeroSpec) in which
    every hero the variant names is re-read from its file, patched and validated
    again; the other specs are the same objects. Raises VariantError (naming the
    variant file, hero, card and field) for anything unknown or a hero the variant
    makes invalid."""
    return _apply_all(specs, variant)[0]


def _apply_all(specs: dict, variant: Variant) -> tuple[dict, tuple]:
    out = dict(specs)
    changes: list = []
    file = Path(variant.file).name
    for name, ov in variant.heroes.items():
        key = _resolve_key(file, name, specs)
        spec = specs[key]
        try:
            raw = read_hero_data(spec.path)
        except HeroFileError as e:
            _fail(file, f"hero {key}: cannot read its file: {e}")
        patched = _apply_hero(file, key, raw, _table(file, f"hero {key}", ov), changes)
        try:
            out[key] = hero_from_data(patched, spec.path)
        except HeroFileError as e:
            _fail(file, f"hero {key}: the variant makes the hero invalid: {e}")
    return out, tuple(changes)


def parse_variant(data: dict, file: str, specs: dict) -> Variant:
    """Validate a variant's TOML table against ``specs`` (key -> HeroSpec, the heroes
    it may change) and return the :class:`Variant`. ``file`` names it in errors.
    Raises VariantError."""
    fname = Path(file).name
    _table(fname, "top level", data)
    for k in data:
        if k not in TOP_FIELDS:
            _unknown(fname, "top level", k, TOP_FIELDS)
    name = data.get("name", Path(file).stem)
    if not isinstance(name, str) or not name.strip():
        _fail(fname, f"name: must be a non-empty string, got {name!r}")
    desc = data.get("description", "")
    if not isinstance(desc, str):
        _fail(fname, f"description: must be a string, got {desc!r}")
    heroes_raw = _table(fname, "hero", data.get("hero", {}))
    if not heroes_raw:
        _fail(fname, "changes no hero; add a [hero.KEY] table (valid keys: " + ", ".join(sorted(specs)) + ")")
    heroes = {}
    for hname, ov in heroes_raw.items():
        key = _resolve_key(fname, hname, specs)
        if key in heroes:
            _fail(fname, f"hero {hname!r}: {key} is given twice (once by an alias)")
        heroes[key] = _table(fname, f"hero {key}", ov)
    v = Variant(name.strip(), str(file), heroes, desc)
    _, changes = _apply_all(specs, v)      # every error surfaces now, not on a worker
    return Variant(v.name, v.file, v.heroes, v.description, changes)


def load_variant(path, specs: dict | None = None) -> Variant:
    """Read and validate a variant file (see the module docstring for the format).

    ``specs``: the heroes it may change (key -> HeroSpec; default: the installed
    heroes). Raises VariantError (one line naming the file, hero, card and field,
    with the valid choices) if the file is missing, not TOML, or invalid.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise VariantError(f"{path}: no such variant file") from None
    except UnicodeDecodeError as e:
        raise VariantError(f"{path.name}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise VariantError(f"{path}: cannot read: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise VariantError(f"{path.name}: not valid TOML: {e}") from None
    if specs is None:
        specs = load_all()
    return parse_variant(data, str(path), specs)


def variant_from_json(text: str) -> Variant:
    """The Variant of :meth:`Variant.to_json` (not validated again: :func:`apply_variant`
    validates it when applied)."""
    d = json.loads(text)
    return Variant(d["name"], d["file"], d["heroes"], d.get("description", ""))
