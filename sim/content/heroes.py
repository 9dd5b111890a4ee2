"""Hero files: TOML under ``heroes/`` loaded and validated into :class:`HeroSpec`.

The file format is documented in ``heroes/README.md``. Loading validates
every field and compiles every effect with :mod:`sim.content.vocab`; a bad
file raises :class:`HeroFileError` whose message names the file, the card
and the field, with the valid choices.
"""
from __future__ import annotations

import copy
import itertools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from heroes import HERO_DIR
from sim.engine import layout as L

from .errors import toml_form, unknown_fighter
from .vocab import HeroFileError, StepContext, compile_condition, compile_steps

CARD_TYPES = {"attack": L.CT_ATTACK, "defense": L.CT_DEFENSE,
              "versatile": L.CT_VERSATILE, "scheme": L.CT_SCHEME}
WINDOWS = {"immediately": L.W_IMMEDIATELY, "during": L.W_DURING, "after": L.W_AFTER,
           "effect": L.W_SCHEME, "ongoing_start_of_turn": L.W_ONGOING_START, "on_return": L.W_ON_RETURN,
           "on_play": L.W_ON_PLAY}
PASSIVES = {"no_opponent_actions": L.PV_NO_OPPONENT_ACTIONS, "may_ignore_discards": L.PV_MAY_IGNORE_DISCARD,
            "draw_after_combat": L.PV_DRAW_AFTER_COMBAT}
HOOKS = {"setup": L.HK_SETUP, "start_of_turn": L.HK_START_TURN,
         "maneuver_bonus": L.HK_MANEUVER_BONUS, "after_maneuver": L.HK_AFTER_MANEUVER,
         "attack_value": L.HK_ATTACK_VALUE, "defense_value": L.HK_DEFENSE_VALUE,
         "end_of_turn": L.HK_END_TURN, "after_attack": L.HK_AFTER_ATTACK,
         "fighter_defeated": L.HK_FIGHTER_DEFEATED, "after_defense": L.HK_AFTER_DEFENSE}
ABILITY_FLAGS = {"boost_attack": L.HF_ATTACK_BOOST, "fog_walk": L.HF_FOG_WALK}
SPECIAL_TAGS = {"ongoing": L.TAG_ONGOING, "uncancelable": L.TAG_UNCANCELABLE}
ATTACK_KINDS = ("melee", "ranged")
KEY_RE = re.compile(r"[a-z0-9_]+")
DECK_SIZE = 30

_TOP = {"name", "key", "set", "hero", "sidekicks", "ability", "choice_groups", "cards", "notes", "aliases"}
_HERO = {"health", "move", "attack", "counters", "forms"}
_SIDEKICK = {"name", "count", "health", "move", "attack", "summon"}
_ABILITY = ({"name", "text", "uncancelable_with", "defeated_fighter", "before_damage"} | set(HOOKS)
            | set(ABILITY_FLAGS))
_BEFORE_DAMAGE = {"fighter", "take", "taken_by", "split", "damage", "at_most"}
BD_TAKE = {"adjacent": 1, "any": 2}       # which other fighters may take the damage: hero table H_BD_TAKE
BD_DAMAGE = {"any": 0, "combat": 1}       # which damage: H_BD_COMBAT
_CARD = {"name", "type", "value", "boost", "copies", "fighter", "tags", "form", "text",
         "group", "option", "ongoing", "discard_if", "symbol"} | set(WINDOWS)


def card_name(c) -> str | None:
    """The name a card entry of a hero file is known by: its ``name``, followed by its printed
    ``symbol`` in parentheses when it has one ("Strike (sun)"), so that copies differing only by a
    symbol are two entries of one name; None if the entry has no name (it is then refused)."""
    if not isinstance(c, dict) or not isinstance(c.get("name"), str):
        return None
    sym = c.get("symbol")
    return f"{c['name']} ({sym})" if isinstance(sym, str) and sym else c["name"]


@dataclass
class FighterSpec:
    """One fighter of a hero's team: the hero (kind 0) or a sidekick kind."""

    name: str
    kind: int
    count: int
    health: int
    move: int
    ranged: bool
    summon: bool = False


@dataclass
class CardSpec:
    """One action card: printed facts plus compiled effect programs per window."""

    name: str
    type: str
    value: int | None
    boost: int
    copies: int
    fighter_mask: int
    fighters: tuple[str, ...]
    tags: tuple[str, ...]
    tag_bits: int
    form: int            # required form + 1, 0 = any
    text: str
    programs: dict = field(default_factory=dict)  # window id -> (n, I_FIELDS) int64
    group: str | None = None
    option: str | None = None
    passive: int = 0


@dataclass
class HeroSpec:
    """A validated hero file. Units: health in health points, move in spaces."""

    key: str
    name: str
    set: str
    path: str
    fighters: list[FighterSpec]
    ability_name: str
    ability_text: str
    ability_flags: int
    hooks: dict
    counters: dict          # name -> (slot, tuple of value names)
    groups: list            # [(group name, (option, ...))]
    cards: list[CardSpec]
    notes: tuple = ()
    protect: tuple = (0, 0)
    aliases: tuple = ()  # (tag bits, count): uncancelable with that many tagged cards in discard
    raw: dict = field(default_factory=dict, repr=False, compare=False)  # the file's TOML table, as read
    defeat_kind: int = 0  # the fighter_defeated ability reacts to this fighter kind + 1 only; 0 any fighter
    # the before_damage ability (hero table H_BD_PROTECT .. H_BD_COMBAT): protected kind, cap + 1 (0 none),
    # take (0 none, BD_TAKE), taker kind + 1 (0 any), split (0/1), combat damage only (0/1)
    before_damage: tuple = (0, 0, 0, 0, 0, 0)

    @property
    def hero(self) -> FighterSpec:
        return self.fighters[0]

    @property
    def sidekicks(self) -> list[FighterSpec]:
        return self.fighters[1:]

    def loadouts(self) -> list[str]:
        """Names of all loadouts: one option per choice group joined by '+'; [''] if none."""
        if not self.groups:
            return [""]
        return ["+".join(c) for c in itertools.product(*(opts for _, opts in self.groups))]

    def parse_loadout(self, loadout: str | None) -> dict:
        """Map a loadout name to {group: option}; raises HeroFileError if invalid.

        ``None`` or '' picks the first option of every group.
        """
        if not self.groups:
            if loadout:
                raise HeroFileError(f"{self.key}: has no choice groups, so no loadout {loadout!r} (valid: none)")
            return {}
        if not loadout:
            return {g: opts[0] for g, opts in self.groups}
        parts = loadout.split("+")
        if len(parts) != len(self.groups):
            raise HeroFileError(
                f"{self.key}: loadout {loadout!r} must name one option per group "
                + " + ".join(f"{g} ({'|'.join(o)})" for g, o in self.groups)
                + "; valid: " + ", ".join(self.loadouts()))
        chosen = {}
        for (g, opts), part in zip(self.groups, parts):
            if part not in opts:
                raise HeroFileError(f"{self.key}: loadout {loadout!r}: {part!r} is not a {g} option; "
                                    f"valid {g} options: {', '.join(opts)}; loadouts: {', '.join(self.loadouts())}")
            chosen[g] = part
        return chosen

    def deck(self, loadout: str | None = None) -> list[tuple[int, int]]:
        """The deck of a loadout as [(card index in ``cards``, copies)]."""
        chosen = self.parse_loadout(loadout)
        return [(i, c.copies) for i, c in enumerate(self.cards)
                if c.group is None or chosen.get(c.group) == c.option]

    def deck_size(self, loadout: str | None = None) -> int:
        return sum(n for _, n in self.deck(loadout))


def _req(path, where, d, key, kind):
    if key not in d:
        raise HeroFileError(f"{path}: {where}: missing required field '{key}'")
    v = d[key]
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise HeroFileError(f"{path}: {where}.{key}: must be a whole number, got {toml_form(v)}")
    if kind is str and (not isinstance(v, str) or not v.strip()):
        raise HeroFileError(f"{path}: {where}.{key}: must be a non-empty string, got {toml_form(v)}")
    return v


def _keys(path, where, d, allowed):
    if not isinstance(d, dict):
        raise HeroFileError(f"{path}: {where}: must be a table, got {toml_form(d)}")
    bad = set(d) - allowed
    if bad:
        raise HeroFileError(f"{path}: {where}: unknown field(s) {', '.join(sorted(bad))}; "
                            f"valid: {', '.join(sorted(allowed))}")


def _range(path, where, v, lo, hi, why: str = ""):
    """``v`` if it is a whole number in ``lo..hi``; else HeroFileError naming the range and
    ``why`` it is so (a limit of the engine)."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise HeroFileError(f"{path}: {where}: must be a whole number from {lo} to {hi}{why}, got {toml_form(v)}")
    if not lo <= v <= hi:
        raise HeroFileError(f"{path}: {where}: must be from {lo} to {hi}{why}, got {v}")
    return v


def _before_damage(path, bd, fighters) -> tuple:
    """The ability's ``before_damage`` table as the hero table's H_BD_* values (HeroSpec.before_damage):
    when ``fighter`` (default the hero) would take damage (``damage``: "any" or "combat"), it takes at
    most ``at_most``, and other fighters of the file (``taken_by``: a fighter name, default any)
    adjacent to it (``take = "adjacent"``) or anywhere (``"any"``) may take all of it (``split``:
    any part each) instead. HeroFileError naming the field and the valid choices."""
    if bd is None:
        return (0, 0, 0, 0, 0, 0)
    w = "ability.before_damage"
    _keys(path, w, bd, _BEFORE_DAMAGE)
    names = {f.name: f.kind for f in fighters}

    def fighter(field, default):
        v = bd.get(field, default)
        if not (isinstance(v, str) and v in names):
            raise HeroFileError(f"{path}: {w}.{field}: " + unknown_fighter(v, [repr(n) for n in names]))
        return names[v]

    def choice(field, table, default):
        v = bd.get(field, default)
        if not (isinstance(v, str) and v in table):
            raise HeroFileError(f"{path}: {w}.{field}: unknown {v!r}; valid: " + ", ".join(table))
        return table[v]

    if "take" not in bd and "at_most" not in bd:
        raise HeroFileError(f"{path}: {w}: needs take (\"adjacent\" or \"any\": which of your other fighters may "
                            "take the damage instead) or at_most (a cap), or both")
    protect = fighter("fighter", fighters[0].name)
    cap = _range(path, f"{w}.at_most", bd["at_most"], 0, 20) + 1 if "at_most" in bd else 0
    take = choice("take", BD_TAKE, "adjacent") if "take" in bd else 0
    if ("taken_by" in bd or "split" in bd) and not take:
        raise HeroFileError(f"{path}: {w}: taken_by and split need take (\"adjacent\" or \"any\")")
    by = fighter("taken_by", fighters[0].name) + 1 if "taken_by" in bd else 0
    if by == protect + 1 and next(f.count for f in fighters if f.kind == protect) == 1:
        raise HeroFileError(f"{path}: {w}.taken_by: {bd['taken_by']!r} is the fighter it protects; name another")
    split = bd.get("split", False)
    if not isinstance(split, bool):
        raise HeroFileError(f"{path}: {w}.split: must be true or false, got {toml_form(split)}")
    return (protect, cap, take, by, int(split), choice("damage", BD_DAMAGE, "any"))


def _list(path, where, v, what):
    """``v`` if it is a list, else HeroFileError naming ``where`` (``what``: a list of what)."""
    if not isinstance(v, list):
        raise HeroFileError(f"{path}: {where}: must be a list of {what}, got {toml_form(v)}")
    return v


def _attack(path, where, d):
    a = d.get("attack", "melee")
    if a not in ATTACK_KINDS:
        raise HeroFileError(f"{path}: {where}.attack: unknown {a!r}; valid: melee, ranged")
    return a == "ranged"


def read_hero_data(path: str | Path) -> dict:
    """The raw TOML table of a hero file (not validated); raises HeroFileError if the
    file is missing, unreadable, not UTF-8 or not TOML."""
    path = Path(path)
    name = path.name
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise HeroFileError(f"{path}: no such file") from None
    except UnicodeDecodeError as e:
        raise HeroFileError(f"{name}: not UTF-8 text ({e.reason} at byte {e.start}); save the file as UTF-8") from None
    except OSError as e:
        raise HeroFileError(f"{path}: cannot read: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise HeroFileError(f"{name}: not valid TOML: {e}") from None


def load_hero(path: str | Path) -> HeroSpec:
    """Load and validate one hero file; raises HeroFileError on any problem."""
    return hero_from_data(read_hero_data(path), path)


def hero_from_data(data: dict, path: str | Path) -> HeroSpec:
    """Validate a hero file's raw TOML table (``read_hero_data``) into a HeroSpec.

    ``path`` is the file the table came from: it names the file in errors, gives the
    default key (its stem) and is kept as ``HeroSpec.path``. Raises HeroFileError.
    Designer variants (``sim.content.variants``) patch the table, then call this.
    """
    path = Path(path)
    name = path.name
    _keys(name, "top level", data, _TOP)
    hname = _req(name, "top level", data, "name", str)
    key = data.get("key", path.stem)
    if not (isinstance(key, str) and KEY_RE.fullmatch(key)):
        raise HeroFileError(f"{name}: key: {key!r} is not a valid hero key; use lowercase letters, digits and _ "
                            "(the key defaults to the file name)")
    hero = data.get("hero")
    if hero is None:
        raise HeroFileError(f"{name}: missing the [hero] table (health, move, attack)")
    _keys(name, "hero", hero, _HERO)
    fighters = [FighterSpec(hname, 0, 1, _range(name, "hero.health", _req(name, "hero", hero, "health", int), 1, 99),
                            _range(name, "hero.move", _req(name, "hero", hero, "move", int), 0, 20),
                            _attack(name, "hero", hero))]
    sks = data.get("sidekicks", [])
    if not isinstance(sks, list) or len(sks) > L.MAX_SIDEKICK_KINDS:
        raise HeroFileError(f"{name}: sidekicks: at most {L.MAX_SIDEKICK_KINDS} kinds ([[sidekicks]] tables)")
    total = 1
    for i, sk in enumerate(sks):
        w = f"sidekicks[{i}]"
        _keys(name, w, sk, _SIDEKICK)
        summon = sk.get("summon", False)
        if not isinstance(summon, bool):
            raise HeroFileError(f"{name}: {w}.summon: must be true or false, got {toml_form(summon)}")
        fs = FighterSpec(_req(name, w, sk, "name", str), i + 1,
                         _range(name, w + ".count", sk.get("count", 1), 1, L.FIGHTERS_PER_PLAYER - 1,
                                f" (a player has at most {L.FIGHTERS_PER_PLAYER} fighters, the hero included)"),
                         _range(name, w + ".health", _req(name, w, sk, "health", int), 1, 99),
                         _range(name, w + ".move", sk.get("move", fighters[0].move), 0, 20),
                         _attack(name, w, sk), summon)
        if fs.name in {f.name for f in fighters} or fs.name in ("any", "self", "opposing", "hero"):
            raise HeroFileError(f"{name}: {w}.name: {fs.name!r} is already used or reserved")
        total += fs.count
        fighters.append(fs)
    if total > L.FIGHTERS_PER_PLAYER:
        raise HeroFileError(f"{name}: sidekicks: {total} fighters in all; at most {L.FIGHTERS_PER_PLAYER} (hero included)")
    counters = {}
    forms = hero.get("forms")
    if forms is not None:
        counters["form"] = (0, _state_values(name, "hero.forms", forms, "form", '["Dr. Jekyll", "Mr. Hyde"]'))
    hero_counters = hero.get("counters") or {}
    if not isinstance(hero_counters, dict):
        raise HeroFileError(f"{name}: hero.counters: must be a table of name = [values], got "
                            f"{toml_form(hero_counters)}")
    for cname, values in hero_counters.items():
        counters[cname] = (len(counters), _state_values(name, f"hero.counters.{cname}", values, "value",
                                                        '["big", "small"]'))
    if len(counters) > L.N_COUNTERS:
        raise HeroFileError(f"{name}: hero.counters: at most {L.N_COUNTERS}")

    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise HeroFileError(f"{name}: no [[cards]]")
    if len(raw_cards) > L.MAX_HERO_CARDS:
        raise HeroFileError(f"{name}: cards: {len(raw_cards)} different cards; at most {L.MAX_HERO_CARDS}")
    tags = {}
    free = L.FIRST_FREE_TAG_BIT
    for c in raw_cards:
        ctags = c.get("tags") if isinstance(c, dict) else None
        for t in ctags if isinstance(ctags, list) else []:     # (a bad tags field is refused with its card)
            if isinstance(t, str) and t not in tags and t not in SPECIAL_TAGS:
                tags[t] = None
    for t in sorted(tags):
        if free > 30:
            raise HeroFileError(f"{name}: too many different tags (at most {31 - L.FIRST_FREE_TAG_BIT})")
        tags[t] = 1 << free
        free += 1
    tags.update(SPECIAL_TAGS)
    card_index = {card_name(c): i for i, c in enumerate(raw_cards) if card_name(c) is not None}
    ctx = StepContext(name, hname, {f.name: f.kind for f in fighters}, tags, counters, card_index)

    groups = []
    for i, g in enumerate(_list(name, "choice_groups", data.get("choice_groups", []), "[[choice_groups]] tables")):
        w = f"choice_groups[{i}]"
        _keys(name, w, g, {"name", "options"})
        opts = g.get("options")
        if not (isinstance(opts, list) and len(opts) >= 2 and all(isinstance(o, str) and "+" not in o for o in opts)):
            raise HeroFileError(f"{name}: {w}.options: must list at least two option names (without '+')")
        groups.append((_req(name, w, g, "name", str), tuple(opts)))
    group_names = {g: opts for g, opts in groups}

    cards = []
    seen = set()
    fighter_names = [f.name for f in fighters]
    # names that an entry with a symbol uses: each entry of such a name needs its own symbol (README)
    symbolled = {c["name"]: c["symbol"] for c in raw_cards if isinstance(c, dict) and isinstance(c.get("name"), str)
                 and isinstance(c.get("symbol"), str) and c["symbol"].strip()}
    for i, c in enumerate(raw_cards):
        cn = c.get("name") if isinstance(c, dict) else None
        w = f"card {cn!r}" if isinstance(cn, str) else f"cards[{i}]"
        _keys(name, w, c, _CARD)
        cn = _req(name, w, c, "name", str)
        if "symbol" not in c and cn in symbolled:
            raise HeroFileError(f"{name}: {w}.symbol: missing, but another entry named {cn!r} has symbol = "
                                f"{toml_form(symbolled[cn])}: give each entry of one name its own symbol, "
                                "or this one another name")
        if "symbol" in c:
            if not (isinstance(c["symbol"], str) and c["symbol"].strip()):
                raise HeroFileError(f"{name}: {w}.symbol: must be a non-empty string (the printed symbol that tells "
                                    f"this entry from another of the same name), got {toml_form(c['symbol'])}")
            cn = card_name(c)
            w = f"card {cn!r}"
        ctype = _req(name, w, c, "type", str)
        if ctype not in CARD_TYPES:
            raise HeroFileError(f"{name}: {w}.type: unknown {ctype!r}; valid: {', '.join(CARD_TYPES)}")
        if ctype == "scheme":
            if "value" in c:
                raise HeroFileError(f"{name}: {w}.value: a scheme has no value; remove the field")
            value = None
        else:
            value = _range(name, w + ".value", _req(name, w, c, "value", int), 0, 20)
        boost = _range(name, w + ".boost", _req(name, w, c, "boost", int), 0, 20)
        copies = _range(name, w + ".copies", _req(name, w, c, "copies", int), 1, 30)
        fspec = c.get("fighter", "any")
        flist = [fspec] if isinstance(fspec, str) else fspec
        if not isinstance(flist, list) or not flist:
            raise HeroFileError(f"{name}: {w}.fighter: must be 'any', a fighter name or a list of names")
        mask = 0
        for fn in flist:
            if fn == "any":
                mask |= (1 << len(fighters)) - 1
            elif fn in fighter_names:
                mask |= 1 << fighter_names.index(fn)
            else:
                raise HeroFileError(f"{name}: {w}.fighter: unknown fighter {fn!r}; valid: 'any', "
                                    + ", ".join(repr(x) for x in fighter_names))
        ctags = c.get("tags", [])
        if not isinstance(ctags, list) or not all(isinstance(t, str) for t in ctags):
            raise HeroFileError(f"{name}: {w}.tags: must be a list of strings")
        bits = 0
        for t in ctags:
            bits |= tags[t]
        form = 0
        if "form" in c:
            if "form" not in counters:
                raise HeroFileError(f"{name}: {w}.form: this hero declares no forms (add forms = [...] under [hero])")
            if c["form"] not in counters["form"][1]:
                raise HeroFileError(f"{name}: {w}.form: unknown {c['form']!r}; valid: {', '.join(counters['form'][1])}")
            form = counters["form"][1].index(c["form"]) + 1
        programs = {}
        for wname, wid in WINDOWS.items():
            if wname in c:
                if ctype != "scheme" and wid in (L.W_SCHEME, L.W_ONGOING_START, L.W_ONGOING_DISCARD):
                    raise HeroFileError(f"{name}: {w}.{wname}: only schemes have '{wname}'; "
                                        "combat cards use immediately / during / after")
                if ctype == "scheme" and wid in (L.W_IMMEDIATELY, L.W_DURING, L.W_AFTER, L.W_ON_PLAY):
                    raise HeroFileError(f"{name}: {w}.{wname}: a scheme's effect goes in 'effect'")
                ctx.window, ctx.card_type = wname, ctype
                programs[wid] = compile_steps(ctx, f"{w}.{wname}", c[wname])
                ctx.window, ctx.card_type = None, None
        if "ongoing" in ctags and ctype != "scheme":
            raise HeroFileError(f"{name}: {w}.tags: only a scheme can be 'ongoing'")
        passive = 0
        if "ongoing" in c or "discard_if" in c:
            if "ongoing" not in ctags:
                raise HeroFileError(f"{name}: {w}: 'ongoing' and 'discard_if' need tags = [\"ongoing\"]")
            plist = c.get("ongoing", [])
            if not isinstance(plist, list):
                raise HeroFileError(f"{name}: {w}.ongoing: must be a list of: {', '.join(PASSIVES)}")
            for pv in plist:
                if not (isinstance(pv, str) and pv in PASSIVES):
                    raise HeroFileError(f"{name}: {w}.ongoing: unknown {pv!r}; valid: {', '.join(PASSIVES)}")
                passive |= PASSIVES[pv]
            if "discard_if" in c:
                programs[L.W_ONGOING_DISCARD] = compile_condition(ctx, f"{w}.discard_if", c["discard_if"])
        grp = c.get("group")
        opt = c.get("option")
        if (grp is None) != (opt is None):
            raise HeroFileError(f"{name}: {w}: 'group' and 'option' go together")
        if grp is not None:
            if not (isinstance(grp, str) and grp in group_names):
                raise HeroFileError(f"{name}: {w}.group: unknown {grp!r}; declared groups: "
                                    + (", ".join(group_names) or "(none; add [[choice_groups]])"))
            if opt not in group_names[grp]:
                raise HeroFileError(f"{name}: {w}.option: unknown {opt!r}; valid: {', '.join(group_names[grp])}")
        if cn in seen:
            first = next(r for r in raw_cards if card_name(r) == cn)
            differ = sorted(k for k in (set(first) | set(c)) - {"name", "copies", "text"} if first.get(k) != c.get(k))
            if not differ:
                raise HeroFileError(f"{name}: {w}.name: a second card named {cn!r}, the same as the first: set "
                                    "copies = N on the first instead")
            if "symbol" in c and first.get("symbol") == c.get("symbol"):
                raise HeroFileError(f"{name}: {w}.symbol: a second card named {cn!r} that differs from the first in "
                                    f"{', '.join(differ)}: give the two entries different symbols (both are "
                                    f"{toml_form(c['symbol'])}), or different names")
            raise HeroFileError(f"{name}: {w}.name: a second card named {cn!r} that differs from the first in "
                                f"{', '.join(differ)}: give each entry a printed symbol = \"...\" (copies that "
                                "differ only by a symbol), or different names")
        seen.add(cn)
        cards.append(CardSpec(cn, ctype, value, boost, copies, mask, tuple(flist), tuple(ctags), bits, form,
                              str(c.get("text", "")), programs, grp, opt, passive))

    ability = data.get("ability", {})
    _keys(name, "ability", ability, _ABILITY)
    hooks = {}
    for hname_, hid in HOOKS.items():
        if hname_ in ability:
            ctx.window = hname_
            hooks[hid] = compile_steps(ctx, f"ability.{hname_}", ability[hname_])
            ctx.window = None
    defeat_kind = 0
    if "defeated_fighter" in ability:
        # which of the hero's fighters the fighter_defeated ability reacts to (Achilles: Patroclus)
        dk = ability["defeated_fighter"]
        names = [f.name for f in fighters]
        if dk not in names:
            raise HeroFileError(f"{name}: ability.defeated_fighter: " + unknown_fighter(dk, [repr(n) for n in names]))
        if "fighter_defeated" not in ability:
            raise HeroFileError(f"{name}: ability.defeated_fighter: needs a fighter_defeated hook (the steps to run "
                                "when that fighter is defeated)")
        defeat_kind = fighters[names.index(dk)].kind + 1
    before_damage = _before_damage(name, ability.get("before_damage"), fighters)
    flags = 0
    for fname, bit in ABILITY_FLAGS.items():
        v = ability.get(fname, False)
        if not isinstance(v, bool):
            raise HeroFileError(f"{name}: ability.{fname}: must be true or false, got {toml_form(v)}")
        if v:
            flags |= bit
    protect = (0, 0)
    if "uncancelable_with" in ability:
        u = ability["uncancelable_with"]
        if not (isinstance(u, dict) and set(u) == {"tag", "at_least"}):
            raise HeroFileError(f"{name}: ability.uncancelable_with: must be {{ tag = ..., at_least = N }}")
        protect = (ctx.tag("ability.uncancelable_with.tag", u["tag"]),
                   _range(name, "ability.uncancelable_with.at_least", u["at_least"], 1, 30))
    aliases = data.get("aliases", [])
    if not (isinstance(aliases, list) and all(isinstance(a, str) and KEY_RE.fullmatch(a) for a in aliases)):
        raise HeroFileError(f"{name}: aliases: must be a list of short names (lowercase letters, digits, _)")
    notes = data.get("notes", [])
    if isinstance(notes, str):
        notes = [notes]
    _list(name, "notes", notes, "strings")
    spec = HeroSpec(key, hname, str(data.get("set", "")), str(path), fighters,
                    str(ability.get("name", "")), str(ability.get("text", "")), flags, hooks,
                    counters, groups, cards, tuple(notes), protect, tuple(aliases), copy.deepcopy(data),
                    defeat_kind=defeat_kind, before_damage=before_damage)
    for lo in spec.loadouts():
        n = spec.deck_size(lo)
        if n > L.MAX_CARDS:
            raise HeroFileError(f"{name}: deck{' ' + lo if lo else ''}: {n} cards; at most {L.MAX_CARDS}")
    return spec


def hero_files(directory: str | Path | None = None) -> list[Path]:
    """Hero TOML files in ``directory`` (default: the installed ``heroes/``), sorted."""
    return sorted(Path(directory or HERO_DIR).glob("*.toml"))


def _state_values(name: str, field: str, values, noun: str, example: str) -> tuple:
    """The names of a hero counter's values (or of its forms, ``noun`` "form"): a list of 2 to
    ``MAX_OPTIONS`` different strings (the engine's work arrays hold that many). Raises
    HeroFileError naming the file and ``field`` otherwise."""
    if not (isinstance(values, list) and len(values) >= 2 and all(isinstance(x, str) for x in values)):
        raise HeroFileError(f"{name}: {field}: must be a list of at least two {noun} names (strings), e.g. {example}")
    if len(set(values)) != len(values):
        raise HeroFileError(f"{name}: {field}: a {noun} is named twice in {toml_form(values)}")
    if len(values) > L.MAX_OPTIONS:
        raise HeroFileError(f"{name}: {field}: {len(values)} {noun}s; at most {L.MAX_OPTIONS}")
    return tuple(values)


@dataclass(frozen=True)
class BadHeroFile:
    """A hero file that :func:`load_heroes` could not load: its ``path``, the hero ``key`` it
    would have had (its ``key = ...`` if readable, else the file name) and the one-line
    ``message`` (HeroFileError's, naming the file by its path); ``clash``: the file loads but
    its key is another file's (an installed hero's), which is loaded instead: a command that
    names that hero must stop with this file's error, not play the other hero silently."""

    path: str
    key: str
    message: str
    clash: bool = False


def load_heroes(directory: str | Path | None = None, extra=()) -> tuple[dict[str, HeroSpec], tuple]:
    """Every hero file that loads, keyed by hero key, and the ones that do not:
    ``(specs, bad)`` with ``bad`` a tuple of :class:`BadHeroFile`, so that one bad homebrew
    file does not stop the commands that do not use that hero (those that do get its
    error, ``sim.content.compile.Content.row``).

    ``directory``: the folder to read (default: the installed ``heroes/``); ``extra``:
    more hero files or folders (homebrew heroes) added to those; a file named twice (the
    same folder given twice) is read once; a key used by two files makes the second one
    bad, naming both. Raises HeroFileError only for an ``extra`` path that does not exist.
    """
    paths = hero_files(directory)
    installed = {p.resolve() for p in paths}
    for e in extra:
        e = Path(e)
        if e.is_dir():
            paths += hero_files(e)
        elif e.exists():
            paths.append(e)
        else:
            raise HeroFileError(f"{e}: no such hero file or folder")
    out: dict = {}
    bad: list = []
    seen = set()
    for p in paths:
        if p.resolve() in seen:   # the same file named twice (a folder given twice): read once
            continue
        seen.add(p.resolve())
        clash = False
        try:
            spec = load_hero(p)
            if spec.key in out:
                clash = True
                other = out[spec.key].path
                what = "is already the installed hero" if Path(other).resolve() in installed else "already used by"
                raise HeroFileError(f"{p}: key {spec.key!r} {what} {other}; "
                                    "rename the file or set key = \"...\" in it")
        except HeroFileError as e:
            msg = str(e)
            if msg.startswith(f"{p.name}: "):        # the loaders name the file only: give its path
                msg = f"{p}: {msg[len(p.name) + 2:]}"
            bad.append(BadHeroFile(str(p), _file_key(p), msg, clash))
            continue
        out[spec.key] = spec
    return out, tuple(bad)


def _file_key(path: Path) -> str:
    """The key a hero file asks for (``key = ...``), or its file name's stem."""
    try:
        key = tomllib.loads(path.read_text(encoding="utf-8-sig")).get("key")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        key = None
    return key if isinstance(key, str) and key else path.stem


def load_all(directory: str | Path | None = None, extra=()) -> dict[str, HeroSpec]:
    """All hero files, keyed by hero key; raises HeroFileError on the first bad file (see
    :func:`load_heroes` for the arguments, and for loading around bad files)."""
    specs, bad = load_heroes(directory, extra)
    if bad:
        raise HeroFileError(bad[0].message)
    return specs


def deck_warnings(spec: HeroSpec) -> list[str]:
    """Non-fatal remarks for ``validate`` and a command's homebrew heroes: decks that do not
    total 30 cards, each naming the file as given and the field to change (the cards' ``copies``)."""
    out = []
    for lo in spec.loadouts():
        n = spec.deck_size(lo)
        if n != DECK_SIZE:
            fix = f"add {DECK_SIZE - n} to" if n < DECK_SIZE else f"take {n - DECK_SIZE} off"
            out.append(f"{spec.path}: deck{' ' + lo if lo else ''} has {n} cards, the sum of the "
                       f"[[cards]] entries' copies (a published deck has {DECK_SIZE}: {fix} their copies)")
    return out


def empty_program():
    return np.zeros((0, L.I_FIELDS), np.int64)
