"""Self-play tuning: search one hero's AI weights for the best score against a field.

The hero plays with candidate weights against every hero of the field (mirrors left out),
each opponent played by its weights in the field's profile (``field_ai``: ``standard``, or
a profile with weights of each hero's own, such as an earlier round's ``tuned``), on every
chosen battlefield, seats swapped evenly; a hero with loadouts (Geralt) cycles through
them. The optimiser is CMA-ES (the ``cma`` package) on a scaled copy of the weights:
candidate ``x`` plays weight ``w_i = start_i + x_i * scale_i`` with
``scale_i = max(|start_i|, SCALE_FLOOR)``, ``x_i`` within ``[-BOUND, BOUND]``, starting
from ``x = 0`` (the starting weights).

**Common random numbers.** Every candidate of one generation plays the same games (the
same cells, the same seeds), so that the differences between candidates are the weights',
not the shuffles'. Generation ``g`` uses run seed :func:`generation_seed`; the final check
uses seeds no generation used (:func:`check_seed`).

**Resume.** After each generation the optimiser's state (and numpy's global generator,
which ``cma`` draws from) is written atomically to ``checkpoint.pkl`` in the run folder;
the same command resumes from the last finished generation and gives the same result as
an uninterrupted run. Another command on the same folder is refused (one line).

**The check.** The result is the CMA-ES mean after the last generation. It plays
``check_games`` games against the field with fresh seeds, and the starting weights play
the very same games (paired); :mod:`reports.tune` turns the two per-game score vectors
into the change with its interval and a paired test, and writes the profile file.

Example::

    from sim.runs.tune import TuneSettings, tune
    res = tune(TuneSettings(hero="ciri", generations=5, games_per_eval=240), "runs/tune_ciri")
    res.tuned_weights                    # dict: weight name -> tuned value
    res.check_tuned.mean() - res.check_start.mean()   # score change on fresh seeds
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import pickle
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.content.heroes import HeroFileError
from sim.content.profiles import AIProfile, ProfileError, get_profile
from sim.engine.ai import NEW_DEFAULTS, OLD_ONLY, WEIGHT_NAMES
from sim.engine.game import RES_WINNER
from sim.play.match import Match, installed_content
from sim.runs.backend import Backend, open_pool
from sim.runs.errors import RunError
from sim.runs.plan import resolve_battlefields, resolve_heroes
from sim.runs.workers import cached_match

#: Weights the tuner leaves alone by default: ``win`` fixes the scale (the AI takes the best
#: score, so multiplying every weight by one number changes nothing), the team-game weights
#: do nothing in a duel, and the expert's budget and evaluation weights are not the standard AI's.
NOT_TUNED = ("win", "team_kill", "focus", "guard", "eliminate",
             "search_samples", "search_candidates", "search_horizon", "eval_card")
SCALE_FLOOR = 0.2      # smallest step unit of a weight (for weights that start at or near 0)
BOUND = 3.0            # |x_i| at most: a weight stays within start +- 3 scale units
CHECKPOINT = "checkpoint.pkl"
CHECK_FILE = "check.npz"
FORMAT = 1


def tunable_weights(mode: str | None = None) -> list[str]:
    """Names of the weights tuned by default: every AI weight but :data:`NOT_TUNED`, and, for
    an engine ``mode`` name (``sim.content.profiles.MODES``), only those that mode reads:
    the one-currency modes (``standard``, ``expert``) not release 0.2's ``OLD_ONLY``, release
    0.2's modes not the one-currency ``NEW_DEFAULTS`` (a weight nobody reads would drift)."""
    skip = set(NOT_TUNED)
    if mode in ("standard", "expert"):
        skip.update(OLD_ONLY)
    elif mode in ("standard-0.2", "expert-0.2"):
        skip.update(NEW_DEFAULTS)
    return [n for n in WEIGHT_NAMES if n not in skip]


class SettingsDict:
    """Mixin of a frozen settings dataclass: ``to_dict()``, its fields with tuples as lists
    (JSON-ready: what a checkpoint's key and a provenance record)."""

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(self).items()}


@dataclass(frozen=True)
class TuneSettings(SettingsDict):
    """What one tuning run does (all of it recorded in the checkpoint and the provenance).

    ``hero``: the hero key tuned; ``field``: opponent hero keys (empty: every installed hero
    but ``hero``); ``battlefields``: keys (empty: all); ``weights``: names tuned (empty:
    :func:`tunable_weights`); ``field_ai``: the profile the opponents play (and the hero's
    starting weights, unless ``start`` names another profile); ``games_per_eval``: games per
    candidate, rounded up to fill every (opponent, battlefield, seat) cell evenly;
    ``generations``; ``popsize`` (0: cma's default, 4 + 3 ln(dimensions)); ``sigma0``: the
    first step size in scale units; ``check_games``: games of the final check (each side);
    ``seed``; ``extra``: homebrew hero files or folders.
    """

    hero: str
    field: tuple = ()
    battlefields: tuple = ()
    weights: tuple = ()
    field_ai: str = "standard"
    start: str = ""
    games_per_eval: int = 1000
    generations: int = 30
    popsize: int = 0
    sigma0: float = 0.5
    check_games: int = 2000
    seed: int = 1
    extra: tuple = ()


@dataclass
class TuneResult:
    """A finished tuning run: ``settings`` (resolved: field, battlefields and weights
    filled in), ``start_weights`` and ``tuned_weights`` (name -> value, the tuned names
    only), ``history`` (one dict per generation: generation, mean, best, worst (candidates'
    scores, 0..1), sigma, games, seconds), the final check's per-game scores of the hero
    (1 win, 0.5 draw, 0 loss) with the starting weights ``check_start`` and the tuned ones
    ``check_tuned`` (float64, (check games,), the same games in the same order), the
    check's per-game opponent keys ``check_opponents`` and ``seconds`` of play."""

    settings: TuneSettings
    start_weights: dict
    tuned_weights: dict
    history: list
    check_start: np.ndarray
    check_tuned: np.ndarray
    check_opponents: list
    seconds: float = 0.0
    generations_run: int = 0
    profile_base: str = ""
    field_profile: AIProfile | None = field(default=None, repr=False)
    popsize: int = 0


# ------------------------------------------------------------------ cells and seeds
@dataclass(frozen=True)
class TuneCell:
    """One seating: the tuned hero's loadout, the opponent and its loadout, the
    battlefield, the tuned hero's seat (0 first) and the games it plays."""

    lo: str | None
    opponent: str
    lo_opp: str | None
    battlefield: str
    seat: int
    games: int

    @property
    def cell_id(self) -> int:
        return zlib.crc32(f"{self.lo}|{self.opponent}@{self.lo_opp}|{self.battlefield}|{self.seat}".encode())


def plan_cells(hero_los: list, field: dict, battlefields: list, games: int) -> list[TuneCell]:
    """Cells giving about ``games`` games split evenly over the opponents of ``field``
    (key -> loadouts), ``battlefields`` and both seats (at least one game each); the tuned
    hero's loadouts ``hero_los`` and each opponent's cycle over the cells."""
    keys = sorted(field)
    per = max(1, math.ceil(games / (len(keys) * len(battlefields) * 2)))
    cells = []
    for j, o in enumerate(keys):
        for k, bf in enumerate(battlefields):
            for seat in (0, 1):
                lo = hero_los[(j + k + seat) % len(hero_los)]
                lo_o = field[o][(k + 1 - seat + j) % len(field[o])]
                cells.append(TuneCell(lo, o, lo_o, bf, seat, per))
    return cells


def generation_seed(seed: int, generation: int) -> int:
    """Run seed of generation ``generation`` (every candidate of it plays these games)."""
    return zlib.crc32(f"tune:{seed}:{generation}".encode())


def check_seed(seed: int) -> int:
    """Run seed of the final check: no generation plays these games."""
    return zlib.crc32(f"tune-check:{seed}".encode())


def _match(hero: str, lo, opp: str, lo_opp, bf: str, seat: int, extra: tuple) -> Match:
    """The Match of one seating (``hero`` in seat ``seat``), built once per process with its
    battlefield's shared engine tables (``sim.runs.workers.cached_match``): a self-play search
    meets hundreds of seatings a generation, and building each one's tables took ~5 ms."""
    if seat == 0:
        return cached_match(hero, lo, opp, lo_opp, bf, tuple(extra))
    return cached_match(opp, lo_opp, hero, lo, bf, tuple(extra))


def play_cells(hero: str, cells: list, profile: AIProfile, run_seed: int, extra: tuple) -> np.ndarray:
    """The hero's per-game scores (float64, (sum of cell games,): 1 win, 0.5 draw, 0 loss),
    cell by cell in order, both seats played by ``profile`` (its weights of each hero's
    own: the candidate's for ``hero``). Game i of a cell has seed
    ``game_seed(run_seed, cell_id, i)``."""
    out = []
    for c in cells:
        m = _match(hero, c.lo, c.opponent, c.lo_opp, c.battlefield, c.seat, extra)
        res = m.play_many(c.games, run_seed, c.cell_id, 0, modes=(profile, profile))
        w = res[:, RES_WINNER]
        out.append(np.where(w == c.seat, 1.0, np.where(w < 0, 0.5, 0.0)))
    return np.concatenate(out)


def _eval_task(i: int, hero: str, cells: list, profile: AIProfile, run_seed: int, extra: tuple):
    return i, play_cells(hero, cells, profile, run_seed, extra)


# ------------------------------------------------------------------ weights
def with_hero_weights(profile: AIProfile, hero: str, weights: tuple, name: str | None = None) -> AIProfile:
    """``profile`` with ``hero`` playing ``weights`` (a full vector, WEIGHT_NAMES order)."""
    hw = dict(profile.hero_weights)
    hw[hero] = tuple(float(w) for w in weights)
    return dataclasses.replace(profile, name=name or profile.name, hero_weights=tuple(sorted(hw.items())))


def decode(x: np.ndarray, start: tuple, idx: list[int]) -> tuple:
    """Full weight vector for scaled candidate ``x`` ((len(idx),) float64)."""
    w = list(start)
    for xi, i in zip(x, idx):
        w[i] = start[i] + float(xi) * max(abs(start[i]), SCALE_FLOOR)
    return tuple(w)


# ------------------------------------------------------------------ the run
def resolve_settings(s: TuneSettings) -> tuple[TuneSettings, list, dict, list, AIProfile, tuple]:
    """Check ``s`` and fill in its defaults; returns (settings, hero loadouts, field
    (key -> loadouts), battlefields, field profile, starting weights). Raises RunError
    (one line, naming the option) on an unknown hero, battlefield, weight or profile, a
    hero in its own field, or bad numbers."""
    extra = tuple(str(Path(p).resolve()) for p in s.extra)
    try:
        content = installed_content(extra)
    except ValueError as e:
        raise RunError(f"a hero file is invalid: {e}") from None
    try:
        s = dataclasses.replace(s, hero=content.resolve_hero(s.hero))
    except HeroFileError as e:
        raise RunError(str(e), "HERO") from None
    keys = list(s.field) or [k for k in sorted(content.specs) if k != s.hero]
    field_sel = resolve_heroes(keys, content, "--field") if keys else {}
    if s.hero in field_sel:
        others = ", ".join(k for k in sorted(content.specs) if k != s.hero)
        raise RunError(f"the field may not include the tuned hero {s.hero!r} (mirrors are left out); "
                       f"valid: {others}", "--field")
    if not field_sel:
        raise RunError("the field is empty: give at least one opponent hero", "--field")
    bfs = resolve_battlefields(list(s.battlefields) or None)
    names = list(s.weights) or tunable_weights()
    bad = [n for n in names if n not in WEIGHT_NAMES]
    if bad:
        raise RunError(f"unknown AI weight(s) {', '.join(bad)}; valid: {', '.join(WEIGHT_NAMES)}", "--weights")
    for opt, v, lo in (("--games-per-eval", s.games_per_eval, 1), ("--generations", s.generations, 1),
                       ("--check-games", s.check_games, 1), ("--popsize", s.popsize, 0)):
        if not isinstance(v, int) or v < lo:
            raise RunError(f"{opt} must be a whole number of at least {lo}, got {v!r}", opt)
    if s.popsize == 1:
        raise RunError("--popsize must be 0 (CMA-ES's default) or at least 2, got 1", "--popsize")
    if not 0 < s.sigma0 <= BOUND:
        raise RunError(f"--sigma0 must be in (0, {BOUND:g}], got {s.sigma0}", "--sigma0")
    try:
        prof = get_profile(s.field_ai)
        start_prof = get_profile(s.start) if s.start else prof
    except ProfileError as e:
        raise RunError(str(e), "--field-ai") from None
    start = start_prof.weights_for(s.hero)
    hero_los = [lo or None for lo in resolve_heroes([s.hero], content)[s.hero]]
    field = {k: [lo or None for lo in los] for k, los in field_sel.items()}
    s = dataclasses.replace(s, field=tuple(sorted(field)), battlefields=tuple(bfs), weights=tuple(names),
                            extra=extra)
    return s, hero_los, field, bfs, prof, start


def play_generation(es, pool, task, task_args, g: int, generations: int, done: int, total: int, progress):
    """One CMA-ES generation of a self-play search: ask ``es`` for candidates, play
    ``task(*task_args(i, x))`` for each candidate ``x`` (``i`` its index; the task returns
    ``(i, per-game scores)``) on ``pool``, tell ``es`` the mean scores (maximised).
    ``progress(done, total, info)`` after each candidate (games), or None. Returns (the
    generation's history row: generation, mean, best, worst, sigma, games, seconds; the
    games done so far)."""
    t0 = time.perf_counter()
    X = es.ask()
    scores = np.zeros(len(X))
    games = 0
    for i, v in pool.imap_unordered(task, [task_args(i, x) for i, x in enumerate(X)]):
        scores[i] = float(v.mean())
        games += len(v)
        done += len(v)
        if progress:
            progress(done, total, f"generation {g + 1}/{generations}")
    es.tell(X, list(-scores))
    return ({"generation": g + 1, "mean": float(scores.mean()), "best": float(scores.max()),
             "worst": float(scores.min()), "sigma": float(es.sigma), "games": games,
             "seconds": round(time.perf_counter() - t0, 3)}, done)


def _save(path: Path, obj) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        pickle.dump(obj, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _load_checkpoint(out: Path, key: dict, what: str = "tuning"):
    path = out / CHECKPOINT
    if not path.exists():
        return None
    try:
        with open(path, "rb") as f:
            ck = pickle.load(f)
    except Exception as e:   # a damaged file: say so, never start over silently
        raise RunError(f"{path}: cannot read the {what} checkpoint ({e}); delete the folder to start over",
                       "--out") from None
    if ck.get("format") != FORMAT or ck.get("key") != key:
        old = ck.get("key") or {}
        diff = [_setting_text(k, old.get(k), key.get(k)) for k in sorted(set(old) | set(key)) if old.get(k) != key.get(k)]
        raise RunError(f"{out} holds a {what} run with other settings ({'; '.join(diff) or 'format'}); "
                       "use another --out, or the same options to resume it", "--out")
    return ck


def _setting_text(name: str, run, now) -> str:
    """One differing setting of a checkpoint for the error line: its values when they are
    short (numbers, names, short lists), else its name alone."""
    a, b = json.dumps(run), json.dumps(now)
    if len(a) + len(b) <= 80:
        return f"{name}: the run has {a}, this command {b}"
    return name


def prepare_folder(out: Path, what: str) -> Path:
    """Create ``out`` for a checkpointed search (``what``: "tuning", "training"); RunError
    (``--out``) if it is a file or holds a run of another command (a matrix, loadouts or
    compare run has a manifest)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file, not a folder; choose another --out", "--out")
    if (out / "manifest.json").exists() and not (out / CHECKPOINT).exists():
        raise RunError(f"{out} holds a run of another command (it has a manifest.json), not a {what} run; "
                       "choose another --out", "--out")
    out.mkdir(parents=True, exist_ok=True)
    return out


def tune(settings: TuneSettings, out, backend: Backend | None = None, progress=None) -> TuneResult:
    """Run (or resume) one tuning run into folder ``out``; returns :class:`TuneResult`.

    ``backend``: where the candidates' games play (loky processes or dask; results do not
    depend on it). ``progress``: called as ``progress(done, total, info)`` after each
    candidate (``done``/``total`` in games, ``info`` a short text), or None.
    Raises RunError on bad settings or a folder holding another run.
    """
    import cma   # (imported here: only tuning needs it)

    s, hero_los, field_keys, bfs, prof, start = resolve_settings(settings)
    out = prepare_folder(out, "tuning")
    idx = [WEIGHT_NAMES.index(n) for n in s.weights]
    cells = plan_cells(hero_los, field_keys, bfs, s.games_per_eval)
    per_eval = sum(c.games for c in cells)
    key = {**s.to_dict(), "start_weights": list(start), "field_profile": [list(prof.weights), prof.mode_name,
           [[k, list(w)] for k, w in prof.hero_weights]]}
    key = json.loads(json.dumps(key))
    ck = _load_checkpoint(out, key)
    if ck is None:
        opts = {"seed": int(s.seed) % (2**31 - 1) or 1, "bounds": [-BOUND, BOUND], "verbose": -9}
        if s.popsize:
            opts["popsize"] = s.popsize
        es = cma.CMAEvolutionStrategy(np.zeros(len(idx)), s.sigma0, opts)
        ck = {"format": FORMAT, "key": key, "es": es, "np_state": np.random.get_state(), "history": [],
              "seconds": 0.0}
        _save(out / CHECKPOINT, ck)
    es = ck["es"]
    np.random.set_state(ck["np_state"])
    backend = backend or Backend.of(None, None, None)
    total = (s.generations - len(ck["history"])) * es.popsize * per_eval + 2 * s.check_games
    done = 0
    play_cells(s.hero, cells[:1], with_hero_weights(prof, s.hero, start), 0, s.extra)   # compile before timing
    with open_pool(backend, es.popsize) as pool:
        while len(ck["history"]) < s.generations:
            g = len(ck["history"])
            rs = generation_seed(s.seed, g)
            row, done = play_generation(
                es, pool, _eval_task, lambda i, x, rs=rs: (i, s.hero, cells, with_hero_weights(
                    prof, s.hero, decode(x, start, idx), f"tune-{s.hero}"), rs, s.extra), g, s.generations, done,
                total, progress)
            ck["history"].append(row)
            ck["seconds"] += row["seconds"]
            ck["np_state"] = np.random.get_state()
            _save(out / CHECKPOINT, ck)
        tuned = decode(np.asarray(es.mean), start, idx)
        check_path = out / CHECK_FILE
        check_cells = plan_cells(hero_los, field_keys, bfs, s.check_games)
        if check_path.exists():
            with np.load(check_path) as z:
                c_start, c_tuned = z["start"], z["tuned"]
        else:
            t0 = time.perf_counter()
            cs = check_seed(s.seed)
            # each side in up to 8 parts of the cells, so that the workers share the check
            k = max(1, min(8, len(check_cells)))
            parts = [check_cells[i::k] for i in range(k)]
            order = [c for part in parts for c in part]
            opponents = [c.opponent for c in order for _ in range(c.games)]
            res = {}
            tasks = [(("start", j), s.hero, part, with_hero_weights(prof, s.hero, start), cs, s.extra)
                     for j, part in enumerate(parts)]
            tasks += [(("tuned", j), s.hero, part, with_hero_weights(prof, s.hero, tuned), cs, s.extra)
                      for j, part in enumerate(parts)]
            for i, v in pool.imap_unordered(_eval_task, tasks):
                res[i] = v
                done += len(v)
                if progress:
                    progress(done, total, "final check")
            c_start = np.concatenate([res[("start", j)] for j in range(len(parts))])
            c_tuned = np.concatenate([res[("tuned", j)] for j in range(len(parts))])
            ck["seconds"] += time.perf_counter() - t0
            tmp = check_path.with_name(f"check.tmp{os.getpid()}.npz")
            np.savez(tmp, start=c_start, tuned=c_tuned, opponents=np.array(opponents))
            os.replace(tmp, check_path)
            _save(out / CHECKPOINT, ck)
        with np.load(check_path) as z:
            opponents = [str(o) for o in z["opponents"]]
    return TuneResult(s, {n: start[i] for n, i in zip(s.weights, idx)}, {n: tuned[i] for n, i in zip(s.weights, idx)},
                      list(ck["history"]), c_start, c_tuned, opponents, ck["seconds"], len(ck["history"]),
                      s.start or s.field_ai, prof, int(es.popsize))


def compare_weights(settings: TuneSettings, weight_sets: list, backend: Backend | None = None,
                    label: str = "final") -> tuple[list[np.ndarray], list[str]]:
    """The hero's per-game scores with each full weight vector of ``weight_sets`` against
    the field of ``settings`` (opponents playing ``settings.field_ai``), all on the same
    ``settings.check_games`` games with fresh seeds (``label`` names the seed stream: no
    generation or check of a tuning run plays them). Returns (one float64 (games,) array
    per weight set, in order; the opponent key of each game). Raises RunError as
    :func:`resolve_settings`."""
    s, hero_los, field_keys, bfs, prof, _start = resolve_settings(settings)
    cells = plan_cells(hero_los, field_keys, bfs, s.check_games)
    k = max(1, min(8, len(cells)))
    parts = [cells[i::k] for i in range(k)]
    seed = zlib.crc32(f"tune-{label}:{s.seed}".encode())
    tasks = [((w, j), s.hero, part, with_hero_weights(prof, s.hero, ws), seed, s.extra)
             for w, ws in enumerate(weight_sets) for j, part in enumerate(parts)]
    res = {}
    with open_pool(backend or Backend.of(None, None, None), len(tasks)) as pool:
        for i, v in pool.imap_unordered(_eval_task, tasks):
            res[i] = v
    out = [np.concatenate([res[(w, j)] for j in range(k)]) for w in range(len(weight_sets))]
    return out, [c.opponent for part in parts for c in part for _ in range(c.games)]
