"""The settings, games and folder of ``unmatched-sim balance`` (:mod:`sim.runs.balance` is the
run; :mod:`sim.runs.balance_search` the search; :mod:`sim.runs.balance_stats` the statistics).

* :class:`BalanceSettings` and :func:`resolve`: what a run does, checked (one-line RunError
  naming the option) and filled in.
* **Slots and blocks.** The field is cut into slots (opponent x battlefield x seat; the
  loadouts of heroes with gear cycle over the slots), and games into blocks of about
  ``block_games`` games (the same number in every slot). Game *i* of a slot has the same
  seed for every setting of the knobs (common random numbers, :func:`search_seed`), so two
  settings differ by their knobs and not by the shuffles. :func:`play_block` plays one
  block of one setting on a worker.
* **The verification** plays the cells of ``unmatched-sim compare`` (``sim.runs.versus``) with
  :func:`verify_seed`, so ``compare --variant FILE --seed S`` with the options a proposal
  records plays the very same games (:func:`play_verify`).
* **The folder**: ``balance.json`` (:func:`prepare_folder`), ``evals/SETTING/BLOCK.npy``,
  ``verify/AI/SETTING/OPPONENT.npy`` (one file per finished block or opponent: a kill loses
  only those in flight), ``proposals/*.toml`` (:func:`write_proposal`) and ``result.json``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import re
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.content.battlefields import load_battlefield
from sim.content.compile import build_tables, rules_array
from sim.content.heroes import HeroFileError, load_heroes
from sim.content.knobs import KnobError, overrides, select_knobs, variant_text
from sim.content.profiles import ProfileError, get_profile
from sim.content.variants import Variant, VariantError, parse_variant
from sim.engine.game import RES_WINNER
from sim.play.match import Match, installed_content
from sim.runs.errors import RunError
from sim.runs.plan import resolve_battlefields, resolve_heroes
from sim.runs.tune import SettingsDict
from sim.runs.versus import plan_versus_cells

FORMAT = 1
STATE = "balance.json"
RESULT = "result.json"
LOOKS = (1, 2, 4, 8)        # blocks per end of a knob's range at each screening look
CURVE_MAX_BLOCKS = 16       # blocks per level of a curve, at most
CURVE_SHARE = 0.6           # share of the budget left after the screen that the curves may use
REFINE_SHARE = 0.5          # share of the budget left that a round of refining the levels near the target may use
REFINE_ROUNDS = 3
EXTEND_SHARE = 0.3          # share of the budget left that extending ranges toward the target may use
MIN_EFFECT = 0.01           # a change of the field score below 1 point is no effect


@dataclass(frozen=True)
class BalanceSettings(SettingsDict):
    """What one balance run does (recorded in ``balance.json``; a resume must match).

    ``hero``: the hero balanced (key, alias or name); ``field``: opponent keys (empty:
    every other hero); ``against``: one opponent, for a matchup target (then the field is
    that hero); ``battlefields``: keys (empty: all); ``ai``: the profile of both seats;
    ``check_ai``: a second profile the proposals are verified under too ('' for none);
    ``target``: the score aimed at, in (0, 1); ``tolerance``: how near counts as reached
    (score points / 100); ``knobs``: names or patterns (``sim.content.knobs.select_knobs``;
    empty: every knob); ``budget``: games of the search (baseline, screen, curves, pairs);
    ``verify_games``: paired games of each verification (split over the opponents and
    rounded up as ``compare`` does); ``proposals``: how many to verify; ``block_games``:
    games per block; ``seed``; ``extra``: homebrew hero files or folders."""

    hero: str
    field: tuple = ()
    against: str = ""
    battlefields: tuple = ()
    ai: str = "standard"
    check_ai: str = ""
    target: float = 0.5
    tolerance: float = 0.02
    knobs: tuple = ()
    budget: int = 300_000
    verify_games: int = 4000
    proposals: int = 5
    block_games: int = 600
    seed: int = 1
    extra: tuple = ()


@dataclass(frozen=True)
class Slot:
    """One seating of the search: the balanced hero's loadout, the opponent and its
    loadout, the battlefield and the hero's seat (0 moves first)."""

    lo: str
    opponent: str
    lo_opp: str
    battlefield: str
    seat: int

    @property
    def slot_id(self) -> int:
        return zlib.crc32(f"balance|{self.lo}|{self.opponent}@{self.lo_opp}|{self.battlefield}|{self.seat}".encode())


def plan_slots(hero_los: list, field: dict, battlefields: list) -> list[Slot]:
    """Every (opponent, battlefield, seat) slot of the field (``field``: key -> loadouts),
    each opponent with the same number; loadouts cycle over the slots."""
    out = []
    for j, o in enumerate(sorted(field)):
        for k, bf in enumerate(battlefields):
            for seat in (0, 1):
                out.append(Slot(hero_los[(j + k + seat) % len(hero_los)], o,
                                field[o][(k + 1 - seat + j) % len(field[o])], bf, seat))
    return out


def search_seed(seed: int) -> int:
    """Run seed of the search's games (every setting plays these)."""
    return zlib.crc32(f"balance:{seed}".encode())


def verify_seed(seed: int) -> int:
    """Run seed of the verification (no search game uses it): ``compare --seed`` of the proposals."""
    return zlib.crc32(f"balance-verify:{seed}".encode())


# ------------------------------------------------------------------ settings
@dataclass
class Resolved:
    """The settings resolved: ``settings`` (keys filled in), the hero's ``spec`` and
    display ``name``, ``knobs`` (name -> Knob, in order), ``hero_los``, ``field`` (key ->
    loadouts), ``battlefields``, ``profile`` and ``check_profile`` (AIProfile or None),
    ``specs`` (every hero spec, for the variants), ``names`` (key -> display name)."""

    settings: BalanceSettings
    spec: object
    knobs: dict
    hero_los: list
    field: dict
    battlefields: list
    profile: object
    check_profile: object
    specs: dict
    names: dict

    @property
    def slots(self) -> list[Slot]:
        return plan_slots(self.hero_los, self.field, self.battlefields)

    @property
    def block_size(self) -> int:
        """Games per slot in one block."""
        return max(1, math.ceil(self.settings.block_games / len(self.slots)))

    @property
    def block_total(self) -> int:
        """Games in one block (every slot)."""
        return self.block_size * len(self.slots)

    def verify_cells(self) -> dict:
        """Opponent -> the cells of the verification, as ``sim.runs.versus.plan_compare``
        plans them for ``--games`` :meth:`verify_per_opponent` (so that compare replays them)."""
        per_opp = self.verify_per_opponent()
        out = {}
        for o, los in sorted(self.field.items()):
            per_cell = max(1, math.ceil(per_opp / (len(self.battlefields) * 2 * len(self.hero_los) * len(los))))
            out[o] = plan_versus_cells(self.settings.hero, self.hero_los, {o: los}, self.battlefields, per_cell)
        return out

    def verify_per_opponent(self) -> int:
        return max(1, math.ceil(self.settings.verify_games / len(self.field)))


def _keys(values) -> list[str]:
    return [k.strip() for v in (values or ()) for k in str(v).split(",") if k.strip()]


def resolve(s: BalanceSettings) -> Resolved:
    """Check ``s`` and fill in its defaults. Raises RunError (one line, ``param`` naming the
    option: ``HERO``, ``--field``, ``--against``, ``--target``, ``--tolerance``, ``--knobs``,
    ``--ai``, ``--check-ai``, ``--budget``, ...) for an unknown hero, knob, battlefield or
    profile, a target outside (0, 1), a hero in its own field or an opponent not in it."""
    if not isinstance(s.target, (int, float)) or not 0 < s.target < 1:
        raise RunError(f"--target must be a score between 0 and 1 (exclusive), e.g. 0.5; got {s.target}", "--target")
    if not 0 < s.tolerance < 0.2:
        raise RunError(f"--tolerance must be between 0 and 0.2 (exclusive), e.g. 0.02; got {s.tolerance}",
                       "--tolerance")
    for opt, v, lo in (("--budget", s.budget, 1), ("--verify-games", s.verify_games, 1),
                       ("--proposals", s.proposals, 1), ("--block-games", s.block_games, 1)):
        if not isinstance(v, int) or v < lo:
            raise RunError(f"{opt} must be a whole number of at least {lo}, got {v!r}", opt)
    extra = tuple(str(Path(p).resolve()) for p in s.extra)
    try:
        content = installed_content(extra)
        specs = load_heroes(None, extra)[0]
    except (HeroFileError, ValueError) as e:
        raise RunError(f"a hero file is invalid: {e}") from None
    try:
        hero = content.resolve_hero(str(s.hero).split("@")[0])
    except HeroFileError as e:
        raise RunError(str(e), "HERO") from None
    field_names = _keys(s.field)
    if field_names:
        field = resolve_heroes(field_names, content, "--field")
        if hero in field:
            raise RunError(f"--field includes {hero} itself; the field is the hero's opponents (mirrors are not "
                           f"balanced); valid: {', '.join(k for k in sorted(content.specs) if k != hero)}", "--field")
    else:
        field = {k: v for k, v in resolve_heroes(None, content).items() if k != hero}
    if s.against:
        against = resolve_heroes([s.against], content, "--against")
        (akey, alos), = against.items()
        if akey == hero:
            raise RunError(f"--against {akey}: the hero itself; give one of its opponents", "--against")
        if akey not in field:
            raise RunError(f"--against {akey} is not in the field; valid: {', '.join(sorted(field))}", "--against")
        field = {akey: alos}
    if not field:
        raise RunError("the field is empty: give at least one opponent hero", "--field")
    try:
        bfs = resolve_battlefields(_keys(s.battlefields) or None)
    except RunError as e:
        raise RunError(str(e), "--battlefields") from None
    try:
        knobs = {k.name: k for k in select_knobs(content.specs[hero], s.knobs)}
    except KnobError as e:
        raise RunError(str(e), "--knobs") from None
    if not knobs:
        raise RunError(f"{hero} has no numeric knob to move", "--knobs")
    try:
        prof = get_profile(s.ai)
    except ProfileError as e:
        raise RunError(str(e), "--ai") from None
    try:
        check = get_profile(s.check_ai) if s.check_ai else None
    except ProfileError as e:
        raise RunError(str(e), "--check-ai") from None
    hero_los = list(content.specs[hero].loadouts())
    s = dataclasses.replace(s, hero=hero, field=tuple(sorted(field)), against=s.against and next(iter(field)),
                            battlefields=tuple(bfs), knobs=tuple(knobs), extra=extra, target=float(s.target),
                            tolerance=float(s.tolerance))
    names = {k: sp.name for k, sp in content.specs.items()}
    r = Resolved(s, content.specs[hero], knobs, hero_los, field, bfs, prof, check, specs, names)
    need = 1 + sum(2 if k.base not in (k.levels[0], k.levels[-1]) else 1 for k in knobs.values())
    if s.budget < need * r.block_total:
        raise RunError(f"--budget {s.budget} is too small to screen {len(knobs)} knob(s) once: it needs at least "
                       f"{need * r.block_total} games (blocks of {r.block_total}); raise --budget, narrow --knobs or "
                       "lower --block-games", "--budget")
    return r


# ------------------------------------------------------------------ playing (on the workers)
@lru_cache(maxsize=2)
def _world(extra: tuple, variant: str) -> dict:
    """The compiled heroes with ``variant`` and caches of their tables and matches (two
    variants at a time per process: a task plays one)."""
    return {"content": installed_content(extra, variant), "tables": {}, "matches": {}}


def _match(p1, lo1, p2, lo2, bf, extra, variant) -> Match:
    w = _world(tuple(extra), variant)
    key = (p1, lo1, p2, lo2, bf)
    m = w["matches"].get(key)
    if m is None:
        b = load_battlefield(bf)
        if bf not in w["tables"]:
            w["tables"][bf] = build_tables(w["content"], b, rules_array())
        m = w["matches"][key] = Match([p1, p2], b, loadouts=[lo1 or None, lo2 or None], content=w["content"],
                                      tables=w["tables"][bf])
    return m


def _scores(res: np.ndarray, seat: int) -> np.ndarray:
    w = res[:, RES_WINNER]
    return np.where(w == seat, 2, np.where(w < 0, 1, 0)).astype(np.uint8)


def play_block(key, hero: str, slots: list, variant: str, profile, run_seed: int, first: int, n: int,
               extra: tuple):
    """Play games ``first .. first + n - 1`` of every slot with ``variant`` (JSON, '' for the
    hero files as they are). Returns ``(key, scores)``: uint8 (len(slots), n), the hero's
    score doubled (2 win, 1 draw, 0 loss)."""
    out = np.zeros((len(slots), n), np.uint8)
    for i, sl in enumerate(slots):
        if sl.seat == 0:
            m = _match(hero, sl.lo, sl.opponent, sl.lo_opp, sl.battlefield, extra, variant)
        else:
            m = _match(sl.opponent, sl.lo_opp, hero, sl.lo, sl.battlefield, extra, variant)
        out[i] = _scores(m.play_many(n, run_seed, sl.slot_id, first, modes=(profile, profile)), sl.seat)
    return key, out


def play_verify(key, hero: str, cells: list, variant: str, profile, run_seed: int, extra: tuple):
    """Play the cells (``sim.runs.cells.Cell``) of a verification, as ``compare`` does. Returns
    ``(key, scores)``: uint8 (sum of cell games,), the hero's score doubled, cell by cell."""
    out = []
    for c in cells:
        m = _match(c.p1, c.p1_loadout, c.p2, c.p2_loadout, c.battlefield, extra, variant)
        res = m.play_many(c.games, run_seed, c.matchup_id, 0, modes=(profile, profile))
        out.append(_scores(res, 0 if c.p1 == hero else 1))
    return key, np.concatenate(out)


# ------------------------------------------------------------------ the folder
def _save_npy(path: Path, arr: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp{os.getpid()}.npy")
    np.save(tmp, arr)
    os.replace(tmp, path)


def write_json(path: Path, obj) -> None:
    """Write ``obj`` as JSON atomically (a temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text(json.dumps(obj, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


def _load_npy(path: Path, shape) -> np.ndarray | None:
    try:
        a = np.load(path)
    except (OSError, ValueError):
        return None             # a damaged file: its games are played again
    return a if a.shape == tuple(shape) and a.dtype == np.uint8 else None


def setting_id(setting: dict) -> str:
    """A setting's folder name: ``base`` for the hero file as it is, else 12 hex digits."""
    if not setting:
        return "base"
    return hashlib.sha1(json.dumps(sorted(setting.items())).encode()).hexdigest()[:12]


def prepare_folder(out, key: dict) -> dict:
    """Open ``out`` for a balance run with settings ``key`` (JSON-able): create it, or check
    that it holds this very run. Returns the state (``balance.json``). Raises RunError
    (``--out``) for a file, a folder of another command, or a balance run with other settings."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file, not a folder; choose another --out", "--out")
    path = out / STATE
    if out.is_dir() and not path.exists() and any(p.name != ".lock" for p in out.iterdir()):
        raise RunError(f"{out} is not empty and holds no balance run; choose a new or empty --out", "--out")
    if path.exists():
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise RunError(f"{path}: cannot be read ({e}); delete the folder to start over", "--out") from None
        if state.get("format") != FORMAT or state.get("key") != key:
            old = state.get("key") or {}
            diff = [k for k in sorted(set(old) | set(key)) if old.get(k) != key.get(k)]
            raise RunError(f"{out} holds a balance run with other settings ({', '.join(diff) or 'format'}); use "
                           "another --out, or the same options to resume it", "--out")
        return state
    state = {"format": FORMAT, "kind": "balance", "key": key, "created": datetime.now(UTC).isoformat(timespec="seconds"),
             "sessions": []}
    write_json(path, state)
    return state


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def variant_for(r: Resolved, setting: dict, name: str = "", file: str = "balance") -> Variant:
    """The validated Variant of ``setting`` ({knob: value}) of the balanced hero. Raises
    RunError (``--knobs``) if a level makes the hero file invalid."""
    table = {r.settings.hero: overrides(r.knobs, setting)}
    try:
        return parse_variant({"name": name or "balance setting", "hero": table}, file, r.specs)
    except VariantError as e:
        raise RunError(f"a knob setting makes {r.settings.hero} invalid: {e}", "--knobs") from None


def write_proposal(r: Resolved, out: Path, rank: int, prop: dict, comments=()) -> Path:
    """Write proposal ``prop`` (``setting``, ``label``) as a variant file
    ``OUT/proposals/NN-<slug>.toml``; returns its path."""
    path = out / "proposals" / f"{rank:02d}-{_slug(' '.join(f'{k} {v}' for k, v in prop['setting'].items()))}.toml"
    hero = r.names[r.settings.hero]
    name = prop["label"] if prop["label"].startswith(hero) else f"{hero}: {prop['label']}"
    text = variant_text(r.settings.hero, overrides(r.knobs, prop["setting"]), name,
                        f"proposal {rank} of `unmatched-sim balance {r.settings.hero}`", comments)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def stored_block(out: Path, sid: str, k: int, shape) -> np.ndarray | None:
    """The stored block ``k`` of setting ``sid`` (uint8 ``shape``), or None."""
    p = Path(out) / "evals" / sid / f"{k}.npy"
    return _load_npy(p, shape) if p.exists() else None


def save_block(out: Path, sid: str, k: int, arr: np.ndarray, setting: dict) -> None:
    d = Path(out) / "evals" / sid
    if not (d / "setting.json").exists():
        write_json(d / "setting.json", setting)
    _save_npy(d / f"{k}.npy", arr)


def stored_verify(out: Path, tag: str, sid: str, opp: str, n: int) -> np.ndarray | None:
    p = Path(out) / "verify" / tag / sid / f"{opp}.npy"
    return _load_npy(p, (n,)) if p.exists() else None


def save_verify(out: Path, tag: str, sid: str, opp: str, arr: np.ndarray) -> None:
    _save_npy(Path(out) / "verify" / tag / sid / f"{opp}.npy", arr)
