"""Structural fuzzing of the shipped data files (issue 24): hero, battlefield, variant and AI
profile files, each parsed, edited at random (a key deleted, renamed or set to a value of
another type, a list element dropped, duplicated or swapped, a table emptied, the text cut
short or garbled), written back as TOML and loaded by the real loader.

Every edited file must either load or be refused with a one-line error of the loader's own
kind (HeroFileError, BattlefieldError, VariantError, ProfileError) that names the file and
the place in it; no other exception (a traceback) is allowed. A file that loads is then
played: 100 random-policy games (an AI profile: games under that profile; an expert one, a
few, it is slow) without an engine error (``end_reason`` "error").

:func:`check_one` returns the outcome of one edited file and never raises;
``tests/test_fuzz.py`` drives it with hypothesis in the test suite, ``tests/fuzz.py`` for a
larger run that counts the outcomes.
"""
from __future__ import annotations

import copy
import json
import math
import re
import tomllib
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("hero", "battlefield", "variant", "profile")
GAMES = 100
EXPERT_GAMES = 3

VARIANTS = {   # the README's variant examples, as the variant sources
    "arthur_plus4.toml": 'name = "arthur +4 health"\n[hero.king_arthur]\nhealth = 22\n',
    "every_change.toml": (
        'name = "every change"\ndescription = "what a variant can change"\n'
        '[hero.king_arthur]\nhealth = 22\n[hero.king_arthur.cards."Excalibur"]\nvalue = 7\n'
        '[hero.king_arthur.sidekicks."Merlin"]\nhealth = 8\n'
        '[hero.medusa.cards."Gaze of Stone"]\nafter.0.amount = 6\n'
        '[hero.medusa.ability]\nstart_of_turn.0.amount = 2\n'),
    "gaze_window.toml": ('name = "gaze window"\n[hero.medusa.cards."Gaze of Stone"]\n'
                         'after = [{ op = "damage", amount = 6, target = "opposing", if = "won" }]\n'),
}

# values an edit may put in place of another: every TOML type, edge numbers, and words the
# files use (so that an edit can hit a valid-looking but wrong name)
WORDS = ("", "any", "self", "opposing", "each own", "hero", "won", "after", "damage", "move", "attack", "scheme",
         "defense", "versatile", "melee", "ranged", "Medusa", "Harpy", "Sinbad", "The Porter", "soho", "M13",
         "standard", "expert", "random", "greedy", "voyage", "ongoing", "#12ab34", "source", "form", "fog",
         "x" * 300, "ünïcødé", "a\nb", "null", "[1]")
NUMBERS = (0, 1, -1, 2, 3, 4, 7, 8, 16, 20, 30, 31, 99, 100, 255, 256, 1000, -1000, 2**31, 2**63 - 1, -(2**63))
FLOATS = (0.5, -0.0, 1e-9, 1e300, -1e300, float("inf"), float("-inf"), float("nan"), 3.0)


@dataclass
class Outcome:
    """What became of one edited file: ``status`` ``loaded`` (and played), ``refused`` (a
    clean one-line error), ``traceback`` (any other exception, a multi-line or unnamed error,
    or an engine error while playing); ``message``: the error or the problem; ``edits``:
    what was done to the file; ``games``: games played (loaded files)."""

    kind: str
    source: str
    status: str
    message: str = ""
    edits: list = field(default_factory=list)
    games: int = 0


# ------------------------------------------------------------------ sources and TOML


def hook_hero() -> dict:
    """A homebrew hero with the ability hooks no shipped hero has (issue 35): Medusa's file
    with an ``end_of_turn`` draw, an ``after_attack`` move of the attacker, an ``after_defense``
    move of the defender after a won defense and a
    ``fighter_defeated`` random discard when a Harpy falls (``defeated_fighter``), so that
    the edits reach them too; also the hero of ``tests/test_ability_hooks.py``'s checked games."""
    data = tomllib.loads((ROOT / "heroes" / "medusa.toml").read_text(encoding="utf-8"))
    data["ability"].update({
        "end_of_turn": [{"op": "draw", "amount": 1, "may": True}],
        "after_attack": [{"op": "move", "target": "self", "up_to": 2}],
        "after_defense": [{"op": "move", "target": "self", "up_to": 1, "if": "won"}],
        "fighter_defeated": [{"op": "discard", "who": "you", "amount": 1, "random": True}],
        "defeated_fighter": "Harpy",
    })
    return data


def guard_hero() -> dict:
    """A homebrew hero with the ``before_damage`` ability and a damage cap on a card, which no
    shipped hero has (issue 35): Medusa's file whose Harpies adjacent to her may take any part
    of the damage she would take (``split``), who takes at most 6 of each damage, and whose
    Hiss and Slither also lets her take at most 2 of each damage for the rest of the combat
    (``prevent_damage`` with ``at_most``); also the hero of ``tests/test_before_damage.py``'s
    checked games."""
    data = tomllib.loads((ROOT / "heroes" / "medusa.toml").read_text(encoding="utf-8"))
    data["ability"]["before_damage"] = {"take": "adjacent", "taken_by": "Harpy", "split": True, "at_most": 6}
    card = next(c for c in data["cards"] if c["name"] == "Hiss and Slither")
    card["during"] = [{"op": "prevent_damage", "at_most": 2}]
    return data


def sources(kind: str) -> dict[str, str]:
    """The shipped files of ``kind`` as {file name: text} (for heroes, with :func:`hook_hero`,
    :func:`guard_hero` and the op examples of ``docs/op_examples``)."""
    if kind == "hero":
        out = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "heroes").glob("*.toml"))}
        out["hook_tester.toml"] = to_toml(hook_hero())
        out["guard_tester.toml"] = to_toml(guard_hero())
        # the homebrew Exemplar: the ops and fields no shipped hero uses (gain_action for the
        # opponent, random / named / into-the-deck reclaim, each = "passed")
        for p in sorted((ROOT / "docs" / "op_examples").glob("*.toml")):
            out[p.name] = p.read_text(encoding="utf-8")
        return out
    if kind == "battlefield":
        return {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "sim" / "battlefields").glob("*.toml"))}
    if kind == "profile":
        return {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "sim" / "profiles").glob("*.toml"))}
    if kind == "variant":
        return dict(VARIANTS)
    raise ValueError(kind)


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k) -> str:
    k = str(k)
    return k if _BARE.fullmatch(k) else json.dumps(k, ensure_ascii=False)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def to_toml(data: dict) -> str:
    """A TOML document of ``data``: every top-level key as ``key = <inline value>`` (valid
    TOML for any nesting; our own writer, the standard library only reads TOML)."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in data.items())


# ------------------------------------------------------------------ edits


def paths(data, prefix=()) -> list[tuple]:
    """Every path (tuple of keys and list indices) to a value inside ``data``, the root excluded."""
    out = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        p = prefix + (k,)
        out.append(p)
        out += paths(v, p)
    return out


def _parent(data, path):
    cur = data
    for k in path[:-1]:
        cur = cur[k]
    return cur


OPS = ("delete", "replace", "nudge", "rename", "duplicate", "swap", "wrap", "unwrap", "empty", "truncate", "garble",
       "condition")

# what the "condition" edit puts on a step (issue 35): a condition of the newer kinds, a list of
# them (if = [a, b]), an unless beside an if, or a newer multiplier; fighter names and card types
# come from the file's own words (so some are valid, some not)
_COND_KINDS = ("won", "first_action", "defeated", "on_board", "no_opposing_in_zone", "away_from_start",
               "discard_top", "discard_top_value_at_least", "list")
_PERS = ("combat_damage", "opponent_printed", "zones_of")


def random_condition(rng_int, pick_word, depth=0):
    """A condition of a random form (a string, a table of a newer kind, or a list of them)."""
    k = _COND_KINDS[rng_int(len(_COND_KINDS) if depth == 0 else len(_COND_KINDS) - 1)]
    if k in ("won", "first_action"):
        return k
    if k == "discard_top":
        return {k: ("attack", "defense", "versatile", "scheme", pick_word())[rng_int(5)]}
    if k == "discard_top_value_at_least":
        return {k: NUMBERS[rng_int(len(NUMBERS))]}
    if k == "list":
        return [random_condition(rng_int, pick_word, depth + 1) for _ in range(rng_int(4))]
    return {k: ("self", "hero", "opposing", pick_word())[rng_int(4)]}


def random_value(rng_int, pick_word, depth=0):
    """A value of a random TOML type (``rng_int(n)``: a number in 0..n-1; ``pick_word``: a word)."""
    t = rng_int(7 if depth < 2 else 4)
    if t == 0:
        return NUMBERS[rng_int(len(NUMBERS))]
    if t == 1:
        return FLOATS[rng_int(len(FLOATS))]
    if t == 2:
        return pick_word()
    if t == 3:
        return bool(rng_int(2))
    if t == 4:
        return []
    if t == 5:
        return [random_value(rng_int, pick_word, depth + 1) for _ in range(rng_int(3))]
    return {pick_word() or "k": random_value(rng_int, pick_word, depth + 1) for _ in range(rng_int(3))}


def apply_edit(data: dict, text: str, op: str, where: int, rng_int, pick_word) -> tuple[dict | None, str, str]:
    """Apply one edit; returns (data or None when the text itself was edited, text, what was
    done). ``where`` picks the path (modulo the number of paths)."""
    if op in ("truncate", "garble"):
        text = to_toml(data) if data is not None else text
        if op == "truncate":
            cut = where % max(1, len(text))
            return None, text[:cut], f"text cut at {cut} of {len(text)}"
        i = where % max(1, len(text))
        junk = pick_word() + "]=\"{"[rng_int(4)]
        return None, text[:i] + junk + text[i + 1:], f"text at {i} replaced by {junk!r}"
    if data is None:
        return None, text, "nothing (text already edited)"
    ps = paths(data)
    if not ps:
        return data, text, "nothing (empty)"
    p = ps[where % len(ps)]
    parent = _parent(data, p)
    k = p[-1]
    where_s = ".".join(str(x) for x in p)
    if op == "delete":
        del parent[k]
        return data, text, f"deleted {where_s}"
    if op == "replace":
        v = random_value(rng_int, pick_word)
        parent[k] = v
        return data, text, f"{where_s} = {v!r}"
    if op == "nudge":         # a plausible edit: a nearby number, another name of the file
        v = parent[k]
        if isinstance(v, bool):
            parent[k] = not v
        elif isinstance(v, int):
            parent[k] = (v + 1, v - 1, 0, 2 * v, -v, v + 10)[rng_int(6)]
        elif isinstance(v, float):
            parent[k] = (v + 1, v / 2, 0.0, -v, v * 10)[rng_int(5)]
        elif isinstance(v, str):
            parent[k] = pick_word()
        else:
            return apply_edit(data, text, "delete", where, rng_int, pick_word)
        return data, text, f"{where_s}: {v!r} -> {parent[k]!r}"
    if op == "rename" and isinstance(parent, dict):
        new = pick_word() or (str(k) + "x")
        if new not in parent:
            parent[new] = parent.pop(k)
        return data, text, f"renamed {where_s} to {new!r}"
    if op == "duplicate" and isinstance(parent, list):
        parent.insert(k, copy.deepcopy(parent[k]))
        return data, text, f"duplicated {where_s}"
    if op == "swap":
        others = [q for q in ps if q != p and not _is_prefix(q, p) and not _is_prefix(p, q)]
        if others:
            q = others[rng_int(len(others))]
            pq = _parent(data, q)
            parent[k], pq[q[-1]] = pq[q[-1]], parent[k]
            return data, text, f"swapped {where_s} and {'.'.join(str(x) for x in q)}"
    if op == "wrap":
        parent[k] = [parent[k]]
        return data, text, f"{where_s} wrapped in a list"
    if op == "unwrap" and isinstance(parent[k], (list, dict)) and parent[k]:
        inner = parent[k]
        parent[k] = inner[0] if isinstance(inner, list) else next(iter(inner.values()))
        return data, text, f"{where_s} replaced by its first element"
    if op == "condition":
        steps = [q for q in ps if isinstance(_parent(data, q)[q[-1]], dict) and "op" in _parent(data, q)[q[-1]]]
        if steps:
            q = steps[where % len(steps)]
            step = _parent(data, q)[q[-1]]
            key = ("if", "unless", "per")[rng_int(3)]
            if key == "per":
                step["per"] = _PERS[rng_int(len(_PERS))]
                if step["per"] == "zones_of":
                    step["fighter"] = ("self", "opposing", "hero", pick_word())[rng_int(4)]
            else:
                step[key] = random_condition(rng_int, pick_word)
            return data, text, f"{'.'.join(str(x) for x in q)}.{key} = {step[key]!r}"
    if op == "empty" and isinstance(parent[k], (list, dict)):
        parent[k] = type(parent[k])()
        return data, text, f"{where_s} emptied"
    parent[k] = random_value(rng_int, pick_word)     # an op that does not apply here: replace
    return data, text, f"{where_s} = {parent[k]!r}"


def _is_prefix(a, b):
    return len(a) < len(b) and b[: len(a)] == a


# ------------------------------------------------------------------ loading and playing


def _loader(kind: str):
    from sim.content.battlefields import BattlefieldError
    from sim.content.heroes import HeroFileError
    from sim.content.profiles import ProfileError
    from sim.content.variants import VariantError
    return {"hero": HeroFileError, "battlefield": BattlefieldError, "variant": VariantError,
            "profile": ProfileError}[kind]


def _clean(message: str, kind: str, name: str, path: Path) -> str | None:
    """None if ``message`` is a clean refusal: one line, naming the file and a place in it; else why not."""
    if "\n" in message.strip():
        return "a multi-line message"
    if not (message.startswith(f"{name}: ") or message.startswith(f"{path}: ")):
        return "the message does not start with the file's name"
    rest = message.split(": ", 1)[1] if ": " in message else ""
    if not rest.strip():
        return "the message names no field"
    return None


def _play_hero(spec) -> int:
    from sim.content.compile import compile_content
    from sim.content.heroes import load_all
    from sim.engine.game import RES_REASON
    from sim.engine.layout import END_ERROR
    from sim.play.match import Match
    shipped = load_all()
    opp = "sinbad" if spec.key != "sinbad" else "medusa"
    content = compile_content({spec.key: spec, opp: shipped[opp]})
    played = 0
    for i, lo in enumerate(spec.loadouts()[:2]):
        m = Match([f"{spec.key}@{lo}" if lo else spec.key, opp], ["soho", "kaer_morhen"][i % 2], content=content)
        res = m.play_many(GAMES // min(2, len(spec.loadouts())), run_seed=7, matchup=i)
        if (res[:, RES_REASON] == END_ERROR).any():
            raise AssertionError(f"engine error in {int((res[:, RES_REASON] == END_ERROR).sum())} games")
        played += len(res)
    return played


def _play_battlefield(bf) -> int:
    from sim.engine.game import RES_REASON
    from sim.engine.layout import END_ERROR
    from sim.play.match import Match
    m = Match(["medusa", "sinbad"], bf)
    res = m.play_many(GAMES, run_seed=7)
    if (res[:, RES_REASON] == END_ERROR).any():
        raise AssertionError("engine error")
    return len(res)


def _play_variant(v) -> int:
    from sim.engine.game import RES_REASON
    from sim.engine.layout import END_ERROR
    from sim.play.match import Match, installed_content
    content = installed_content((), v.to_json())
    played = 0
    for key in sorted(v.heroes)[:2]:
        opp = "sinbad" if key != "sinbad" else "medusa"
        m = Match([key, opp], "soho", content=content)
        res = m.play_many(GAMES // 2, run_seed=7)
        if (res[:, RES_REASON] == END_ERROR).any():
            raise AssertionError("engine error")
        played += len(res)
    return played


def _play_profile(p) -> int:
    from sim.content.profiles import SEARCH_MODES
    from sim.engine.game import RES_REASON
    from sim.engine.layout import END_ERROR
    from sim.play.match import Match
    n = EXPERT_GAMES if p.mode_name in SEARCH_MODES else GAMES
    if p.mode_name in SEARCH_MODES and p.weight("search_samples") * p.weight("search_candidates") \
            * max(1.0, p.weight("search_horizon")) > 64:
        n = 1        # a huge search budget: one game shows it plays (it may take seconds)
    m = Match(["medusa", "sinbad"], "soho")
    res = m.play_many(n, run_seed=7, modes=(p, p))
    if (res[:, RES_REASON] == END_ERROR).any():
        raise AssertionError("engine error")
    return len(res)


def check_one(kind: str, source: str, ops: list, folder: Path, rng_ints: list, words: list) -> Outcome:
    """Edit the shipped file ``source`` of ``kind`` with ``ops`` (each ``(op, where)``),
    write it into ``folder`` under its own name, load it with the real loader and, if it
    loads, play it. ``rng_ints`` and ``words`` feed the random values the edits need (drawn
    in turn, cycling). Never raises: returns the :class:`Outcome`."""
    counter = [0]

    def rng_int(n):
        v = rng_ints[counter[0] % len(rng_ints)] if rng_ints else 0
        counter[0] += 1
        return v % max(1, n)

    def pick_word():
        return (words + list(WORDS))[rng_int(len(words) + len(WORDS))]

    text = sources(kind)[source]
    data = tomllib.loads(text)
    own = sorted({v for p in paths(data) for v in [_parent(data, p)[p[-1]]] if isinstance(v, str) and len(v) < 60})
    words = list(words) + own          # the file's own names: edits that look valid
    done = []
    for op, where in ops:
        data, text, what = apply_edit(data, text, op, where, rng_int, pick_word)
        done.append(f"{op}: {what}")
    if data is not None:
        text = to_toml(data)
    path = Path(folder) / source
    path.write_text(text, encoding="utf-8")
    error = _loader(kind)
    try:
        loaded = _load(kind, path)
    except error as e:
        why = _clean(str(e), kind, source, path)
        if why:
            return Outcome(kind, source, "traceback", f"{why}: {e}", done)
        return Outcome(kind, source, "refused", str(e), done)
    except Exception:   # noqa: BLE001 - anything else is what this fuzzing looks for
        return Outcome(kind, source, "traceback", traceback.format_exc(limit=6), done)
    try:
        games = {"hero": _play_hero, "battlefield": _play_battlefield, "variant": _play_variant,
                 "profile": _play_profile}[kind](loaded)
    except Exception:   # noqa: BLE001
        return Outcome(kind, source, "traceback", "loaded but could not be played:\n" + traceback.format_exc(limit=6),
                       done)
    return Outcome(kind, source, "loaded", "", done, games)


def _load(kind: str, path: Path):
    if kind == "hero":
        from sim.content.compile import compile_content
        from sim.content.heroes import load_hero
        spec = load_hero(path)
        compile_content({spec.key: spec})        # as `validate` does
        return spec
    if kind == "battlefield":
        from sim.content.battlefields import load_battlefield
        return load_battlefield(path)
    if kind == "variant":
        from sim.content.heroes import load_all
        from sim.content.variants import load_variant
        return load_variant(path, load_all())
    from sim.content.profiles import load_profile
    return load_profile(path)


def tally(outcomes) -> dict:
    """Counts per kind and status: ``{kind: {"tried", "loaded", "refused", "traceback"}}`` and ``"all"``."""
    out = {k: dict.fromkeys(("tried", "loaded", "refused", "traceback"), 0) for k in (*KINDS, "all")}
    for o in outcomes:
        for k in (o.kind, "all"):
            out[k]["tried"] += 1
            out[k][o.status] += 1
    return out


def games_played(outcomes) -> int:
    """Games played by the files that loaded."""
    return int(np.sum([o.games for o in outcomes]))
