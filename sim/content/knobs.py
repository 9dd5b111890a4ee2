"""A hero's numeric knobs: the printed numbers ``unmatched-sim balance`` may move.

A knob is one number of a hero file with the range it is tried over:

=============================  ==========================================================
name                           what it moves (range: the hero file's value ...)
=============================  ==========================================================
``health``, ``move``           the hero's health (+-max(4, 35%)), move (+-2, at least 1)
``sidekick:NAME:health``       a sidekick's health (+-max(2, 35%), at least 1)
``sidekick:NAME:move``         a sidekick's move (+-2, at least 1)
``sidekick:NAME:count``        how many of a sidekick there are (1..3; only for a sidekick
                               the hero file has several of, such as Medusa's Harpies)
``card:NAME:value``            a card's value (+-2, at least 0; not for a scheme)
``card:NAME:boost``            a card's BOOST value (+-2, at least 0)
``copies:NAME/OTHER``          copies of card NAME, traded one for one with card OTHER so
                               that the deck keeps its size (NAME +-2, both at least 1)
``card:NAME:WINDOW.STEP.ARG``  an effect's number: the ``amount`` or ``up_to`` of a step
                               of a card's effect (``card:Gaze of Stone:after.0.amount``,
                               the damage; a ``choose`` option's steps continue the path,
                               ``after.0.options.1.0.amount``) (+-max(2, 35%), not across 0)
``ability:HOOK.STEP.ARG``      the same for a step of the hero's ability
                               (``ability:start_of_turn.0.amount``)
=============================  ==========================================================

When the target lies beyond a knob's range and its curve heads that way, the search may
extend the range up to twice as far (:attr:`Knob.wide`: health +-70%, move, value, BOOST and
copies +-4, within the limits above).

Every card has one copies knob by default: it trades with the card of the same type (attack,
defense, versatile, scheme) that has the most copies (the first in the file on a tie), or of
any type when no card of its type can give one (a trade already listed from its other card,
two cards of equal copies, is listed once); any other pair can be named
(``copies:Feint/Regroup``). Cards of a choice group (gear) have no copies knob.

A setting of knobs is a dict ``{knob name: value}``; :func:`overrides` turns it into the
hero's table of a designer variant (``sim.content.variants``), which is how every setting
is played and how a proposal is written (:func:`variant_text`). Example::

    from sim.content.heroes import load_all
    from sim.content.knobs import hero_knobs, overrides
    knobs = {k.name: k for k in hero_knobs(load_all()["king_arthur"])}
    knobs["health"].levels                    # (12, 13, ..., 24)
    overrides(knobs, {"health": 22})          # {'health': 22}
"""
from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, replace

from .errors import FileError

KINDS = ("hero", "sidekick", "card", "copies", "effect")
EFFECT_ARGS = ("amount", "up_to")     # the effect arguments that are knobs: how many, how far


class KnobError(FileError):
    """An unknown knob name or pattern (``param`` ``"--knobs"``); one line with the valid names."""

    param = "--knobs"


@dataclass(frozen=True)
class Knob:
    """One numeric knob of a hero.

    ``name``: as the command line writes it (module docstring); ``kind``: ``hero``,
    ``sidekick``, ``card``, ``copies`` or ``effect``; ``part``: the sidekick's or card's name
    ('' for the hero and its ability); ``field``: ``health``, ``move``, ``value``, ``boost``
    or ``copies``, or an effect argument's path (``after.0.amount``; ``op``: its step's
    op, ``where``: ``card`` or ``ability``); ``partner``:
    the card a copies knob trades with ('' otherwise) and ``partner_base`` its copies;
    ``base``: the hero file's value; ``levels``: every value tried, ascending, ``base``
    among them (whole numbers); ``designs``: the printed designs a change touches (1; 2 for
    a copies trade, which reprints two cards).
    """

    name: str
    kind: str
    part: str
    field: str
    base: int
    levels: tuple
    partner: str = ""
    partner_base: int = 0
    wide: tuple = ()
    op: str = ""
    where: str = ""

    @property
    def reach(self) -> tuple:
        """The values a search may extend the range to when the target lies beyond it
        (:attr:`wide`, or :attr:`levels` when none is set), ascending."""
        return self.wide or self.levels

    @property
    def designs(self) -> int:
        return 2 if self.kind == "copies" else 1

    def label(self, value: int, hero: str = "") -> str:
        """The change as a designer reads it: ``health 18 -> 22``, ``Excalibur value 6 -> 7``,
        ``Excalibur copies 1 -> 2 (Noble Sacrifice 3 -> 2)``, ``Gaze of Stone damage 8 -> 5
        (after.0.amount)``, ``Gaze (ability) damage 1 -> 0 (start_of_turn.0.amount)``."""
        if self.kind == "effect":
            who = f"{self.part} (ability)" if self.where == "ability" else self.part
            return f"{who} {self.op} {self.base} -> {value} ({self.field})"
        who = {"hero": hero, "sidekick": self.part, "card": self.part, "copies": self.part}[self.kind]
        text = f"{who + ' ' if who else ''}{self.field} {self.base} -> {value}"
        if self.kind == "copies":
            text += f" ({self.partner} {self.partner_base} -> {self.partner_base + self.base - value})"
        return text

    def steps(self, value: int) -> int:
        """How far ``value`` is from the hero file's (whole steps)."""
        return abs(int(value) - self.base)


def _span(base: int, down: int, up: int, lo: int, hi: int) -> tuple:
    return tuple(range(max(lo, base - down), min(hi, base + up) + 1))


def _partner(spec, card) -> object | None:
    """The card a copies knob of ``card`` trades with by default (module docstring)."""
    others = [c for c in spec.cards if c.name != card.name and c.group is None and c.copies >= 2]
    same = [c for c in others if c.type == card.type]
    pool = same or others
    if not pool:
        return None
    best = max(c.copies for c in pool)
    return next(c for c in pool if c.copies == best)


def copies_knob(card, partner) -> Knob | None:
    """The copies knob of ``card`` traded with ``partner`` (two CardSpec), or None when the
    trade has no value but the hero file's (both cards at one copy)."""
    a, p = card.copies, partner.copies
    levels = _span(a, 2, 2, 1, min(30, a + p - 1))
    if len(levels) < 2:
        return None
    return Knob(f"copies:{card.name}/{partner.name}", "copies", card.name, "copies", a, levels, partner.name, p,
                _span(a, 4, 4, 1, min(30, a + p - 1)))


def _effect_args(steps, path):
    """``(path, op, value)`` of every knob argument (:data:`EFFECT_ARGS`, a whole number) in
    a raw step list, ``choose`` options included; ``path``: the list's own path."""
    for i, st in enumerate(steps if isinstance(steps, list) else ()):
        if not isinstance(st, dict):
            continue
        for arg in EFFECT_ARGS:
            v = st.get(arg)
            if isinstance(v, int) and not isinstance(v, bool):
                yield f"{path}.{i}.{arg}", str(st.get("op", "")), v
        for j, opt in enumerate(st.get("options") or ()):
            yield from _effect_args(opt, f"{path}.{i}.options.{j}")


def effect_knob(name, where, part, path, op, base) -> Knob:
    """The knob of one effect argument (module docstring: +-max(2, 35%) of ``base``, twice
    as wide when extended, never crossing 0: a positive amount stays at least 0, a negative
    one (``add_value`` subtracting) at most 0)."""
    d = max(2, round(abs(base) * 0.35))
    lo, hi = (0, 99) if base >= 0 else (-99, 0)
    return Knob(name, "effect", part, path, base, _span(base, d, d, lo, hi), wide=_span(base, 2 * d, 2 * d, lo, hi),
                op=op, where=where)


def effect_knobs(spec) -> list[Knob]:
    """The effect-argument knobs of a hero (its cards' windows, then its ability's hooks), from
    the file's raw table (``HeroSpec.raw``)."""
    from .heroes import HOOKS, WINDOWS
    raw = getattr(spec, "raw", None) or {}
    out = []
    for c in raw.get("cards") or ():
        if not isinstance(c, dict):
            continue
        for w in WINDOWS:
            for path, op, v in _effect_args(c.get(w), w):
                out.append(effect_knob(f"card:{c.get('name')}:{path}", "card", str(c.get("name")), path, op, v))
    ability = raw.get("ability") or {}
    for h in HOOKS:
        for path, op, v in _effect_args(ability.get(h), h):
            out.append(effect_knob(f"ability:{path}", "ability", spec.ability_name or "ability", path, op, v))
    return [_valid_levels(spec, k) for k in out]


def _valid_levels(spec, k: Knob) -> Knob:
    """``k`` with only the levels whose variant (:func:`overrides`, patched as
    ``sim.content.variants`` patches a designer's file) is a valid hero: an effect argument
    can be bound by another (``look_top`` keeps at most ``amount`` cards)."""
    from .heroes import HeroFileError, hero_from_data
    from .variants import _apply_hero

    def ok(v):
        if v == k.base:
            return True
        try:
            hero_from_data(_apply_hero(spec.path, spec.key, spec.raw, overrides({k.name: k}, {k.name: v}), []),
                           spec.path)
        except HeroFileError:
            return False
        return True
    keep = {v: ok(v) for v in k.reach}
    return replace(k, levels=tuple(v for v in k.levels if keep[v]), wide=tuple(v for v in k.reach if keep[v]))


def hero_knobs(spec) -> list[Knob]:
    """Every default knob of a hero (a ``sim.content.heroes.HeroSpec``), in file order: the
    hero's health and move, each sidekick's, each card's value (not a scheme's), BOOST and
    copies, then each effect argument of the cards and the ability (module docstring for
    the ranges). A knob whose range holds only the hero file's
    value is left out."""
    out = []
    h = spec.hero

    def scaled(v, share, least, lo):     # +-share of v (at least +-least), at least lo; and twice as wide
        d = max(least, round(v * share))
        return {"levels": _span(v, d, d, lo, 99), "wide": _span(v, 2 * d, 2 * d, lo, 99)}

    out.append(Knob("health", "hero", "", "health", h.health, **scaled(h.health, 0.35, 4, 1)))
    out.append(Knob("move", "hero", "", "move", h.move, _span(h.move, 2, 2, 1, 20), wide=_span(h.move, 4, 4, 1, 20)))
    for sk in spec.sidekicks:
        out.append(Knob(f"sidekick:{sk.name}:health", "sidekick", sk.name, "health", sk.health,
                        **scaled(sk.health, 0.35, 2, 1)))
        out.append(Knob(f"sidekick:{sk.name}:move", "sidekick", sk.name, "move", sk.move, _span(sk.move, 2, 2, 1, 20),
                        wide=_span(sk.move, 4, 4, 1, 20)))
        if sk.count > 1:
            # up to 3 (the shipped heroes' knobs), or the file's own count when it has more (4 Moths)
            out.append(Knob(f"sidekick:{sk.name}:count", "sidekick", sk.name, "count", sk.count,
                            _span(sk.count, 2, 2, 1, max(3, sk.count))))
    for c in spec.cards:
        if c.value is not None:
            out.append(Knob(f"card:{c.name}:value", "card", c.name, "value", c.value, _span(c.value, 2, 2, 0, 20),
                            wide=_span(c.value, 4, 4, 0, 20)))
        out.append(Knob(f"card:{c.name}:boost", "card", c.name, "boost", c.boost, _span(c.boost, 2, 2, 0, 20),
                        wide=_span(c.boost, 4, 4, 0, 20)))
        p = _partner(spec, c) if c.group is None else None
        k = copies_knob(c, p) if p is not None else None
        if k is not None and not any(o.name == f"copies:{p.name}/{c.name}" for o in out):
            out.append(k)               # (the same trade read from its other card is left out)
    out += effect_knobs(spec)
    return [k for k in out if len(k.levels) >= 2]


def select_knobs(spec, patterns) -> list[Knob]:
    """The knobs ``patterns`` name (None or empty: every default knob of :func:`hero_knobs`).

    Each pattern is a knob name or a shell pattern over the names, in any case
    (``health``, ``card:Excalibur:*``, ``card:*:value``, ``sidekick:*``, ``copies:*``);
    ``copies:A/B`` also names a trade that is not a default knob. Comma-separated lists are
    split. Raises :class:`KnobError` (one line listing the valid names) for a pattern that
    names no knob."""
    knobs = hero_knobs(spec)
    pats = [p.strip() for v in (patterns or ()) for p in str(v).split(",") if p.strip()]
    if not pats:
        return knobs
    cards = {c.name.lower(): c for c in spec.cards}
    chosen: dict = {}
    for p in pats:
        hits = [k for k in knobs if fnmatch.fnmatchcase(k.name.lower(), p.lower())]
        if not hits and p.lower().startswith("copies:") and "/" in p and not any(ch in p for ch in "*?["):
            a, _, b = p[len("copies:"):].partition("/")
            ca, cb = cards.get(a.strip().lower()), cards.get(b.strip().lower())
            if ca is not None and cb is not None and ca.name != cb.name and ca.group is None and cb.group is None:
                k = copies_knob(ca, cb)
                hits = [k] if k is not None else []
                if k is None:
                    raise KnobError(f"knob {p!r}: {ca.name} and {cb.name} have one copy each, so no trade keeps both "
                                    "in the deck")
        if not hits:
            raise KnobError(f"knob {p!r} names no knob of {spec.key}; valid: {', '.join(k.name for k in knobs)} "
                            "(shell patterns such as card:*:value work; copies:CARD/OTHER names any trade)")
        for k in hits:
            chosen.setdefault(k.name, k)
    return list(chosen.values())


def overrides(knobs: dict, setting: dict) -> dict:
    """The hero's table of a designer variant for ``setting`` ({knob name: value}; ``knobs``:
    {name: Knob}): ``{"health": 22, "cards": {"Excalibur": {"value": 7}}, ...}``. A value
    equal to the hero file's is still written. Raises ValueError when two knobs of the
    setting set one number two ways (two copies trades sharing a card)."""
    out: dict = {}

    def put(path, value):
        d = out
        for p in path[:-1]:
            d = d.setdefault(p, {})
        if path[-1] in d and d[path[-1]] != value:
            raise ValueError(f"{'.'.join(path)} is set twice")
        d[path[-1]] = value

    for name in sorted(setting):
        k, v = knobs[name], int(setting[name])
        if k.kind == "hero":
            put((k.field,), v)
        elif k.kind == "sidekick":
            put(("sidekicks", k.part, k.field), v)
        elif k.kind == "card":
            put(("cards", k.part, k.field), v)
        elif k.kind == "effect":
            put(("cards", k.part, *k.field.split(".")) if k.where == "card" else ("ability", *k.field.split(".")), v)
        else:
            put(("cards", k.part, "copies"), v)
            put(("cards", k.partner, "copies"), k.partner_base + k.base - v)
    return out


def _toml_key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else json.dumps(k)


def variant_text(hero: str, table: dict, name: str, description: str = "", comments=()) -> str:
    """A designer variant file (TOML text) changing ``hero`` (a key) by ``table`` (as
    :func:`overrides` returns it), named ``name``; ``comments``: lines written at the top
    as ``# ...``. ``sim.content.variants.load_variant`` reads it back."""
    lines = [f"# {c}" for c in comments]
    lines += [f"name = {json.dumps(name)}"]
    if description:
        lines.append(f"description = {json.dumps(description)}")
    scalars = {k: v for k, v in table.items() if not isinstance(v, dict)}
    lines += ["", f"[hero.{_toml_key(hero)}]"] + [f"{k} = {json.dumps(v)}" for k, v in scalars.items()]
    for section in ("sidekicks", "cards"):
        for part, fields in (table.get(section) or {}).items():
            lines.append(f"[hero.{_toml_key(hero)}.{section}.{json.dumps(part)}]")
            lines += _dotted(fields)
    if table.get("ability"):
        lines.append(f"[hero.{_toml_key(hero)}.ability]")
        lines += _dotted(table["ability"])
    return "\n".join(lines) + "\n"


def _dotted(fields: dict, prefix: str = "") -> list[str]:
    """``key = value`` lines of a table, a nested table written as dotted keys
    (``after.0.amount = 5``: an effect argument, as ``sim.content.variants`` reads it)."""
    out = []
    for k, v in fields.items():
        key = prefix + _toml_key(str(k))
        out += _dotted(v, key + ".") if isinstance(v, dict) else [f"{key} = {json.dumps(v)}"]
    return out
