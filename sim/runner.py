"""The matrix runner: every pair of heroes on every battlefield, many games each.

A run is planned as **cells** and **chunks** and stored in a **run folder**:

- A :class:`Cell` is one seating of a matchup: the hero (and loadout) that moves
  first (seat 0, "P1"), the hero that moves second (seat 1, "P2") and the
  battlefield, with a number of games. Its ``matchup_id`` is a stable 32-bit hash
  (CRC-32) of that identity, so adding heroes or battlefields to a run never
  changes the games of the other cells.
- Game ``i`` of a cell uses the seed ``game_seed(run_seed, matchup_id, i)``
  (``sim.engine.core``), so a game's outcome does not depend on how the games are
  chunked or on how many workers play them.
- A :class:`Chunk` is ``(cell, first game index, number of games)``. Chunks are
  played on joblib workers (loky processes on this machine, or the workers of a
  dask.distributed cluster: ``sim.backend``) and written by this process to the
  run folder as they finish, one Parquet file per chunk (written to a temporary
  name, then renamed, so a file is either complete or absent; a chunk whose
  result arrives twice is stored once).

Run folder layout::

    manifest.json                      settings, package version, cells, hero and
                                       battlefield facts for the reports, timings
    games/part-<chunk>.parquet         one row per game (see GAME_COLUMNS)
    spaces/part-<chunk>.parquet        one row per chunk: combats and defeats per space
    report/                            written by ``reports.build_report``

Rerunning the same command resumes: chunks whose ``games`` file exists are
skipped. An interrupt loses no finished chunk. A folder that holds another run's
settings, or a non-empty folder that is not a run folder, is refused.

Example::

    from sim.runner import plan_run, execute_run
    plan = plan_run("runs/demo", games=200, heroes=["medusa", "sinbad"], battlefields=["soho"])
    result = execute_run(plan, jobs=2)       # 2 loky processes on this machine
    # or on a dask cluster: execute_run(plan, backend="dask", scheduler="tcp://10.0.0.5:8786")
    # (backend="dask" alone starts a local cluster)
    games = read_games("runs/demo")          # pandas DataFrame, one row per game

A script that starts a local dask cluster (``backend="dask"`` without a scheduler)
must do so under ``if __name__ == "__main__":``: its worker processes are spawned
and import the script.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import warnings
import zlib
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import numpy as np

RUN_KIND = "unmatched-sim matrix run"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
GAMES_DIR = "games"
SPACES_DIR = "spaces"
DEFAULT_CHUNK_SIZE = 200
DEFAULT_SEED = 1

# end reasons (layout.END_*) as stored in the ``end_reason`` column
END_REASONS = {1: "hero_defeated", 2: "turn_cap", 3: "error"}

#: Columns of the per-game table (``read_games``), one row per game. P1 is seat 0 and
#: moves first; P2 is seat 1.
GAME_COLUMNS = {
    "matchup_id": "int64: CRC-32 of the cell identity (0..2**32-1)",
    "game_index": "int64: index of the game within its cell (0..games-1)",
    "seed": "int64: the game's seed, game_seed(run seed, matchup_id, game_index), 0..2**32-1",
    "battlefield": "string: battlefield key",
    "p1_hero": "string: hero key of the first player (seat 0)",
    "p1_loadout": "string: loadout of P1 ('' for a hero without choice groups)",
    "p2_hero": "string: hero key of the second player (seat 1)",
    "p2_loadout": "string: loadout of P2",
    "winner": "int8: 0 = P1 won, 1 = P2 won, -1 = draw (turn cap or engine error)",
    "turns": "int32: turns played (turns)",
    "end_reason": "string: hero_defeated, turn_cap or error",
    "p1_health": "int16: P1's hero health at the end (health points)",
    "p2_health": "int16: P2's hero health at the end (health points)",
    "p1_sidekick_health": "int16: total health of P1's sidekicks still in play",
    "p2_sidekick_health": "int16: total health of P2's sidekicks still in play",
    "p1_cards_played": "int16: cards P1 played (attack, defense, scheme)",
    "p2_cards_played": "int16: cards P2 played",
    "decisions": "int32: policy decisions taken in the game",
    "p1_card_plays": "list<int16>: plays of each card of P1's hero file (index = order in the file)",
    "p2_card_plays": "list<int16>: plays of each card of P2's hero file",
}

SORT_KEYS = ["p1_hero", "p1_loadout", "p2_hero", "p2_loadout", "battlefield", "game_index"]


class RunError(ValueError):
    """Bad run input: unknown hero, loadout, battlefield or AI profile, a games count that
    is not positive, an unusable output folder, or a run folder with other settings.

    ``param`` names the command-line option at fault (``"--heroes"``, ``"--out"``, ...)
    or is None.
    """

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


class RunInterrupted(Exception):
    """The run was interrupted (Ctrl-C); every finished chunk is saved.

    ``run_dir``, ``games_done`` / ``games_total`` (games), ``chunks_done`` / ``chunks_total``.
    """

    def __init__(self, run_dir, games_done, games_total, chunks_done, chunks_total):
        super().__init__(f"interrupted: {games_done} of {games_total} games ({chunks_done} of {chunks_total} chunks) "
                         f"saved in {run_dir}; rerun the same command to resume")
        self.run_dir, self.games_done, self.games_total = run_dir, games_done, games_total
        self.chunks_done, self.chunks_total = chunks_done, chunks_total


@dataclass(frozen=True)
class Cell:
    """One seating of a matchup on one battlefield: ``games`` games (count, >= 1).

    ``p1``/``p2``: hero keys of seat 0 (moves first) and seat 1; ``p1_loadout`` /
    ``p2_loadout``: loadout names ('' for a hero without choice groups).
    """

    p1: str
    p1_loadout: str
    p2: str
    p2_loadout: str
    battlefield: str
    games: int

    @property
    def identity(self) -> str:
        """The cell's identity string (everything but the game count)."""
        return f"{self.p1}@{self.p1_loadout}|{self.p2}@{self.p2_loadout}|{self.battlefield}"

    @property
    def matchup_id(self) -> int:
        """Stable 32-bit id: CRC-32 of :attr:`identity` (0..2**32-1)."""
        return zlib.crc32(self.identity.encode("utf-8"))


@dataclass(frozen=True)
class Chunk:
    """Games ``first .. first + n - 1`` of ``cell``; ``name`` names its files."""

    cell: Cell
    first: int
    n: int

    @property
    def name(self) -> str:
        return f"{self.cell.matchup_id:08x}-{self.first:09d}"


def plan_cells(heroes: dict[str, list[str]], battlefields: list[str], games: int) -> list[Cell]:
    """Every pair of heroes (mirrors included), ``games`` games per pair, as cells.

    ``heroes``: hero key -> list of loadout names ('' for none); ``battlefields``:
    battlefield keys. A pair's games are split evenly over the battlefields (the
    first ones get one more when it does not divide), then each battlefield's games
    evenly over the slots loadout of the first hero x loadout of the second x seat
    order (who moves first); a battlefield's leftover games go to the next slots in
    turn, continuing where the previous battlefield stopped, so seats and loadouts
    stay balanced to within a game or two. Identical slots (a mirror's two seat
    orders) are one cell with their summed games. Cells with 0 games are dropped.
    Returns cells in a fixed order. Raises RunError if two cells' matchup ids
    collide (then rename a hero key).
    """
    keys = sorted(heroes)
    cells: dict[str, list] = {}
    nb = len(battlefields)
    for i, a in enumerate(keys):
        for b in keys[i:]:
            slots = [(s1, l1, s2, l2)
                     for la in heroes[a] for lb in heroes[b]
                     for (s1, l1, s2, l2) in ((a, la, b, lb), (b, lb, a, la))]
            k = len(slots)
            turn = 0          # where the next leftover game goes
            for bi, bf in enumerate(battlefields):
                n_bf = games // nb + (1 if bi < games % nb else 0)
                base, left = divmod(n_bf, k)
                extra = {(turn + j) % k for j in range(left)}
                turn = (turn + left) % k
                for si, (s1, l1, s2, l2) in enumerate(slots):
                    n = base + (1 if si in extra else 0)
                    if n == 0:
                        continue
                    ident = f"{s1}@{l1}|{s2}@{l2}|{bf}"
                    if ident in cells:
                        cells[ident][1] += n
                    else:
                        cells[ident] = [(s1, l1, s2, l2, bf), n]
    out = [Cell(*slot, n) for slot, n in cells.values()]
    seen = {}
    for c in out:
        if c.matchup_id in seen:
            raise RunError(f"cells {seen[c.matchup_id]} and {c.identity} have the same matchup id; rename a hero key")
        seen[c.matchup_id] = c.identity
    return out


def plan_chunks(cells: list[Cell], chunk_size: int) -> list[Chunk]:
    """Split each cell into chunks of at most ``chunk_size`` games (in cell order)."""
    return [Chunk(c, first, min(chunk_size, c.games - first))
            for c in cells for first in range(0, c.games, chunk_size)]


@dataclass
class RunPlan:
    """A validated run: settings, cells, chunks and the facts the reports need.

    Built by :func:`plan_run` (which writes nothing); played by :func:`execute_run`.
    ``settings`` is the JSON-able dict compared on resume; ``done`` is the set of
    chunk names already stored in ``run_dir``.
    """

    run_dir: Path
    settings: dict
    cells: list
    chunks: list
    hero_info: dict
    battlefield_info: dict
    extra_heroes: tuple
    done: set = field(default_factory=set)
    variant: str = ""     # the designer variant as JSON (Variant.to_json()), '' for none

    @property
    def games_total(self) -> int:
        return sum(c.games for c in self.cells)

    @property
    def games_done(self) -> int:
        return sum(ch.n for ch in self.chunks if ch.name in self.done)


@dataclass
class RunResult:
    """What :func:`execute_run` did: ``games_played`` this call (games), ``seconds``
    of wall time this call (after the setup), ``games_per_second``, and totals for the
    run folder; ``backend`` describes where the games ran, ``workers`` the worker
    slots, ``busy_seconds`` the time spent inside chunks summed over the workers and
    ``setup_seconds`` the time to start or reach the workers, check them and load the
    engine in this process."""

    run_dir: Path
    games_total: int
    games_played: int
    games_skipped: int
    chunks_total: int
    seconds: float
    games_per_second: float
    backend: str = ""
    workers: int = 0
    busy_seconds: float = 0.0
    setup_seconds: float = 0.0

    @property
    def overhead(self) -> float:
        """Share of the worker slots' wall time (``seconds`` x ``workers``) not spent
        inside chunks: scheduling, transfers, idle workers at the end, the driver's
        writes when it is the bottleneck (0..1; nan if nothing was played)."""
        if self.workers <= 0 or self.seconds <= 0:
            return float("nan")
        return max(0.0, 1.0 - self.busy_seconds / (self.seconds * self.workers))


def _split(values) -> list[str]:
    out = []
    for v in values or ():
        out.extend(p.strip() for p in str(v).split(",") if p.strip())
    return out


def _sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def engine_fingerprint(package: str = "engine") -> str:
    """Hash of every source file under ``sim/<package>/`` (the engine, or ``"content"``:
    the hero-file compiler), subpackages included: sorted relative paths and bytes. A
    changed engine may play different games, so a run cannot be resumed across an
    engine edit."""
    d = hashlib.sha1()
    here = Path(__file__).resolve().parent / package
    for rel, p in sorted((p.relative_to(here).as_posix(), p) for p in here.rglob("*.py")):
        d.update(rel.encode() + p.read_bytes())
    return d.hexdigest()[:12]


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("unmatched-sim")
    except PackageNotFoundError:
        return "unknown"


def resolve_heroes(names, content) -> dict[str, list[str]]:
    """Hero selection -> {key: [loadouts]}.

    ``names``: hero keys (or their aliases, e.g. ``geralt``) or ``key@loadout`` strings
    (comma-separated lists allowed); None or empty means every installed hero with all
    its loadouts. A plain key
    takes all of the hero's loadouts; ``key@loadout`` only the named ones. Raises
    RunError listing the valid heroes or loadouts.
    """
    from sim.content.heroes import HeroFileError
    from sim.match import MatchError, parse_hero
    if isinstance(names, str):
        names = [names]
    if names is not None and len(names) and not _split(names):
        raise RunError("--heroes is empty; give hero keys separated by commas, or leave it out for every hero",
                       "--heroes")
    names = _split(names)
    if not names:
        return {k: list(content.specs[k].loadouts()) for k in sorted(content.specs)}
    chosen: dict[str, list[str]] = {}
    for name in names:
        try:
            key, lo = parse_hero(name)
        except MatchError as e:
            raise RunError(str(e), "--heroes") from None
        if key not in content.specs:
            canon = [k for k, sp in content.specs.items() if key in getattr(sp, "aliases", ())]
            if not canon:
                raise RunError(f"unknown hero {key!r}; valid: {', '.join(sorted(content.specs))}", "--heroes")
            key = canon[0]
        spec = content.specs[key]
        if lo is None:
            los = list(spec.loadouts())
        else:
            try:
                spec.parse_loadout(lo)
            except HeroFileError as e:
                raise RunError(str(e), "--heroes") from None
            los = [lo]
        cur = chosen.setdefault(key, [])
        cur.extend(x for x in los if x not in cur)
    return {k: chosen[k] for k in sorted(chosen)}


def resolve_battlefields(names) -> list[str]:
    """Battlefield keys (comma-separated lists allowed; None = all installed), sorted
    and de-duplicated. Raises RunError listing the valid keys."""
    from sim.content.battlefields import list_battlefields
    valid = list_battlefields()
    names = _split(names)
    if not names:
        return valid
    for n in names:
        if n not in valid:
            raise RunError(f"unknown battlefield {n!r}; valid: {', '.join(valid)}", "--battlefields")
    return sorted(set(names))


def _hero_info(spec) -> dict:
    copies = {}
    for lo in spec.loadouts():
        per = [0] * len(spec.cards)
        for i, n in spec.deck(lo):
            per[i] = n
        copies[lo] = per
    return {"name": spec.name, "set": spec.set, "health": spec.hero.health,
            "cards": [c.name for c in spec.cards], "card_types": [c.type for c in spec.cards],
            "loadouts": list(spec.loadouts()), "groups": [[g, list(o)] for g, o in spec.groups],
            "deck_copies": copies}


def _battlefield_info(bf) -> dict:
    n = bf.n_spaces
    edges = [[i, j] for i in range(n) for j in range(i + 1, n) if bf.adj[i, j]]
    return {"name": bf.name, "space_ids": list(bf.space_ids),
            "xy": [[None if np.isnan(v) else float(v) for v in row] for row in bf.xy],
            "edges": edges, "starts": [int(s) for s in bf.starts[:2]],
            "passages": [i for i in range(n) if bf.passage[i]]}


def read_manifest(run_dir) -> dict:
    """The run folder's manifest (dict); raises RunError if it is missing or not a run's."""
    p = Path(run_dir) / MANIFEST
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RunError(f"{run_dir}: not a run folder of matrix, teams, loadouts or compare "
                       f"(cannot read {MANIFEST}: {e})", "RUN_DIR") from None
    if not isinstance(m, dict) or m.get("kind") != RUN_KIND:
        raise RunError(f"{run_dir}: {MANIFEST} is not an unmatched-sim matrix manifest", "RUN_DIR")
    return m


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=False), encoding="utf-8")
    os.replace(tmp, path)


def _describe_diff(old: dict, new: dict) -> str:
    mo, mn = old.get("mode", "matrix"), new.get("mode", "matrix")
    if mo != mn:   # another command's run: say so, not every setting that differs
        return (f"the folder holds a {mo} run, and this is a {mn} command: use another --out, "
                f"or `unmatched-sim report` on it")
    parts = []
    for k in sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            if k == "fingerprint":
                a, b = old.get(k) or {}, new.get(k) or {}
                what = [f for f in sorted(set(a) & set(b)) if a[f] != b[f]]
                if what:   # (a different selection of heroes is reported under "heroes")
                    parts.append("files changed since the run started: " + ", ".join(
                        {"engine": "the engine (sim/engine)", "compiler": "the hero compiler (sim/content)"}.get(
                            f, f.replace(":", " ")) for f in what))
            elif k == "variant":
                def name(v):
                    return "none" if not v else f"{v.get('name')!r} ({v.get('file')}, digest {v.get('digest')})"
                parts.append(f"variant: run has {name(old.get(k))}, this command {name(new.get(k))}")
            else:
                parts.append(f"{k}: run has {_short(json.dumps(old.get(k)))}, this command {_short(json.dumps(new.get(k)))}")
    return "; ".join(parts)


def _short(text: str, limit: int = 60) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis (a setting's long list in a message)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def plan_run(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = DEFAULT_SEED,
             chunk_size: int = DEFAULT_CHUNK_SIZE, extra_heroes=(), variant=None) -> RunPlan:
    """Validate a matrix run and plan it, without writing anything.

    ``out``: run folder (new, empty, or holding this very run to resume);
    ``games``: games per hero pair (>= 1); ``heroes`` / ``battlefields``: lists of
    keys (None = all installed); ``ai``: AI profile name (``sim.ai_profiles``);
    ``seed``: run seed 0..2**32-1; ``chunk_size``: games per chunk (>= 1);
    ``extra_heroes``: homebrew hero files/folders; ``variant``: a designer variant
    (``sim.content.variants.Variant``) applied to the heroes, or None; it is
    recorded in the settings, so a run cannot be resumed with another variant.
    Raises RunError (with the option at fault in ``.param``) on any bad input; the
    hero files' own errors come as RunError too.
    """
    profile, extra, content = _check_common(games, chunk_size, seed, ai, extra_heroes, variant)
    hero_sel = resolve_heroes(heroes, content)
    if len(hero_sel) < 2:
        raise RunError(f"--heroes names {len(hero_sel)} hero; a matrix needs at least 2 different heroes", "--heroes")
    bf_keys, bfs = _battlefields(battlefields)
    settings = {"heroes": hero_sel, "battlefields": bf_keys, "games_per_pair": int(games)}
    cells = plan_cells(hero_sel, bf_keys, int(games))
    return _finish_plan(out, settings, cells, list(hero_sel), bf_keys, bfs, ai, profile, seed, chunk_size,
                        content, extra, variant)


def _check_common(games, chunk_size, seed, ai, extra_heroes, variant):
    """Validate the options every run takes; returns (profile, extra paths, content)."""
    from sim.ai_profiles import get_profile
    from sim.content.heroes import HeroFileError
    from sim.content.variants import VariantError
    from sim.match import installed_content

    if not isinstance(games, (int, np.integer)) or isinstance(games, bool) or games < 1:
        raise RunError(f"games must be a positive whole number, got {games!r}", "--games")
    if not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise RunError(f"chunk size must be a positive whole number, got {chunk_size!r}", "--chunk-size")
    if not 0 <= int(seed) <= 0xFFFFFFFF:
        raise RunError(f"seed must be 0..4294967295, got {seed}", "--seed")
    try:
        profile = get_profile(ai)
    except ValueError as e:
        raise RunError(str(e), "--ai") from None
    extra = tuple(str(Path(p).resolve()) for p in extra_heroes)
    try:
        content = installed_content(extra, variant.to_json() if variant is not None else "")
    except VariantError as e:
        raise RunError(str(e), "--variant") from None
    except HeroFileError as e:
        raise RunError(f"a hero file is invalid: {e}") from None
    return profile, extra, content


def _battlefields(battlefields):
    from sim.content.battlefields import load_battlefield
    bf_keys = resolve_battlefields(battlefields)
    bfs = {k: load_battlefield(k) for k in bf_keys}
    for k, bf in bfs.items():
        if bf.starts[0] < 0 or bf.starts[1] < 0:
            raise RunError(f"battlefield {k!r} has no start spaces 1 and 2", "--battlefields")
    return bf_keys, bfs


def _finish_plan(out, settings: dict, cells, hero_keys, bf_keys, bfs, ai, profile, seed, chunk_size, content,
                 extra, variant) -> RunPlan:
    """Complete ``settings`` (AI, seed, rules, fingerprints, variant), chunk the cells and
    check the run folder (new, empty, or this very run to resume)."""
    from sim.content.battlefields import BATTLEFIELD_DIR
    from sim.content.compile import RULE_OPTIONS

    fingerprint = {"engine": engine_fingerprint(), "compiler": engine_fingerprint("content")}
    for k in hero_keys:
        fingerprint[f"hero:{k}"] = _sha(content.specs[k].path)
    for k in bf_keys:
        fingerprint[f"battlefield:{k}"] = _sha(BATTLEFIELD_DIR / f"{k}.toml")
    settings = dict(settings)
    settings.update({
        "ai": str(ai), "ai_mode": profile.mode_name, "ai_weights": list(profile.weights),
        "seed": int(seed), "chunk_size": int(chunk_size),
        "rules": {name: default for name, (_, default, _) in RULE_OPTIONS.items()},
        "fingerprint": fingerprint,
    })
    if variant is not None:
        settings["variant"] = variant.settings()
    chunks = plan_chunks(cells, int(chunk_size))

    run_dir = Path(out)
    done: set = set()
    if run_dir.exists():
        if not run_dir.is_dir():
            raise RunError(f"{run_dir} is a file, not a folder; choose another --out", "--out")
        if (run_dir / MANIFEST).exists():
            try:
                old = read_manifest(run_dir)
            except RunError:
                raise RunError(f"{run_dir} holds a {MANIFEST} that is not an unmatched-sim run's; "
                               "choose another --out", "--out") from None
            old_settings = old.get("settings") or {}
            if old_settings.get("mode", "matrix") != settings.get("mode", "matrix"):
                raise RunError(f"{run_dir}: {_describe_diff(old_settings, settings)}", "--out")
            if old_settings != settings:
                raise RunError(f"{run_dir} holds a run with different settings ({_describe_diff(old_settings, settings)}); "
                               "rerun with the same options to resume it, or choose another --out", "--out")
            done = finished_chunks(run_dir, chunks)
        elif any(run_dir.iterdir()):
            raise RunError(f"{run_dir} is a non-empty folder that is not a matrix run folder; "
                           "choose a new or empty --out folder", "--out")
    hero_info = {k: _hero_info(content.specs[k]) for k in hero_keys}
    bf_info = {k: _battlefield_info(bf) for k, bf in bfs.items()}
    return RunPlan(run_dir, settings, cells, chunks, hero_info, bf_info, extra, done,
                   variant=variant.to_json() if variant is not None else "")


# ---------------------------------------------------------------- workers


@lru_cache(maxsize=256)
def _match(p1, lo1, p2, lo2, battlefield, extra, variant=""):
    from sim.match import Match, installed_content
    return Match([p1, p2], battlefield, loadouts=[lo1 or None, lo2 or None], content=installed_content(extra, variant))


def play_chunk(p1: str, lo1: str, p2: str, lo2: str, battlefield: str, matchup_id: int, first: int, n: int,
               run_seed: int, modes: tuple, extra: tuple = (), variant: str = ""):
    """Play one chunk (runs in a worker process); ``variant``: a designer variant as JSON
    ('' for none), applied to the heroes.

    Returns ``(res, played, spaces)``: ``res`` int64 (n, RES_FIELDS) result rows
    (``sim.engine.game.RES_*``), ``played`` int16 (n, 2, MAX_HERO_CARDS) plays per card
    per seat, ``spaces`` int64 (2, n_spaces): combats (row 0) and defeats (row 1) per
    space summed over the chunk's games.
    """
    m = _match(p1, lo1, p2, lo2, battlefield, tuple(extra), variant)
    res, played = m.play_many(n, run_seed, matchup_id, first, modes=modes, card_counts=True)
    return res, played.astype(np.int16), m.last_space_stats.copy()


class WorkerMismatch(RuntimeError):
    """A worker's unmatched-sim (package version, engine or compiler sources, hero or
    battlefield files) differs from the driver's, so it would play other games."""


def worker_expectation(plan: RunPlan) -> dict:
    """What every worker of ``plan`` must have: the driver's package version, the
    plan's fingerprints (engine and compiler sources, hero and battlefield files) and
    the homebrew hero paths. JSON-able; compared by :func:`worker_differences`."""
    return dict(plan.settings["fingerprint"], package_version=package_version(),
                extra_heroes=list(plan.extra_heroes))


def worker_differences(expect: dict) -> list[str]:
    """How this machine's unmatched-sim differs from ``expect`` (see
    :func:`worker_expectation`): a list of short phrases, empty when it matches.
    Runs on a worker; reads the installed files only (does not load the engine)."""
    from sim.content.battlefields import BATTLEFIELD_DIR
    from sim.content.heroes import HeroFileError, load_all
    diffs = []
    v = package_version()
    if v != expect.get("package_version"):
        diffs.append(f"unmatched-sim {v} here, {expect.get('package_version')} on the driver")
    for key, what in (("engine", "the engine sources (sim/engine)"), ("compiler", "the hero compiler sources (sim/content)")):
        if key in expect and engine_fingerprint(key if key != "compiler" else "content") != expect[key]:
            diffs.append(f"{what} differ")
    heroes = [k.split(":", 1)[1] for k in expect if k.startswith("hero:")]
    if heroes:
        try:
            specs = load_all(None, tuple(expect.get("extra_heroes") or ()))
        except HeroFileError as e:
            diffs.append(f"the hero files cannot be read ({e})")
            specs = None
        for k in heroes if specs is not None else ():
            if k not in specs:
                diffs.append(f"hero {k!r} is not installed")
            elif _sha(specs[k].path) != expect[f"hero:{k}"]:
                diffs.append(f"hero file {Path(specs[k].path).name} differs")
    for k in (k.split(":", 1)[1] for k in expect if k.startswith("battlefield:")):
        path = BATTLEFIELD_DIR / f"{k}.toml"
        if not path.exists():
            diffs.append(f"battlefield {k!r} is not installed")
        elif _sha(path) != expect[f"battlefield:{k}"]:
            diffs.append(f"battlefield file {path.name} differs")
    return diffs


def _worker_name() -> str:
    try:
        from distributed import get_worker
        return f"dask worker {get_worker().address}"
    except (ImportError, ValueError):
        import socket
        return f"worker {socket.gethostname()} pid {os.getpid()}"


@lru_cache(maxsize=4)
def _check_worker(expect_json: str) -> None:
    diffs = worker_differences(json.loads(expect_json))
    if diffs:
        raise WorkerMismatch(f"{_worker_name()} differs from this machine: {'; '.join(diffs)}; "
                             "install the same unmatched-sim on every worker")


def _task(chunk: Chunk, run_seed, modes, extra, expect_json: str | None = None, variant: str = ""):
    """Play ``chunk`` on a worker: ``(name, res, played, spaces, seconds)``. With
    ``expect_json`` the worker first checks (once) that it has the driver's
    unmatched-sim and raises WorkerMismatch if not."""
    t = time.perf_counter()
    if expect_json is not None:
        _check_worker(expect_json)
    c = chunk.cell
    out = play_chunk(c.p1, c.p1_loadout, c.p2, c.p2_loadout, c.battlefield, c.matchup_id,
                     chunk.first, chunk.n, run_seed, modes, extra, variant)
    return (chunk.name,) + out + (time.perf_counter() - t,)


# ---------------------------------------------------------------- store


def _games_table(chunk: Chunk, res: np.ndarray, played: np.ndarray, n_cards: tuple):
    import pyarrow as pa

    from sim.engine import game as G
    c, n = chunk.cell, chunk.n

    def lists(seat):
        k = n_cards[seat]
        values = pa.array(np.ascontiguousarray(played[:, seat, :k]).reshape(-1), pa.int16())
        offsets = pa.array(np.arange(0, (n + 1) * k, k, dtype=np.int32) if k else np.zeros(n + 1, np.int32))
        return pa.ListArray.from_arrays(offsets, values)

    reasons = np.array([END_REASONS.get(int(r), f"code_{int(r)}") for r in res[:, G.RES_REASON]], dtype=object)
    seeds = res[:, G.RES_SEED] & 0xFFFFFFFF
    cols = {
        "matchup_id": pa.array(np.full(n, c.matchup_id, np.int64)),
        "game_index": pa.array(np.arange(chunk.first, chunk.first + n, dtype=np.int64)),
        "seed": pa.array(seeds.astype(np.int64)),
        "battlefield": pa.array([c.battlefield] * n, pa.string()),
        "p1_hero": pa.array([c.p1] * n, pa.string()),
        "p1_loadout": pa.array([c.p1_loadout] * n, pa.string()),
        "p2_hero": pa.array([c.p2] * n, pa.string()),
        "p2_loadout": pa.array([c.p2_loadout] * n, pa.string()),
        "winner": pa.array(res[:, G.RES_WINNER].astype(np.int8)),
        "turns": pa.array(res[:, G.RES_TURNS].astype(np.int32)),
        "end_reason": pa.array(reasons, pa.string()),
        "p1_health": pa.array(res[:, G.RES_HP0].astype(np.int16)),
        "p2_health": pa.array(res[:, G.RES_HP1].astype(np.int16)),
        "p1_sidekick_health": pa.array(res[:, G.RES_SK0].astype(np.int16)),
        "p2_sidekick_health": pa.array(res[:, G.RES_SK1].astype(np.int16)),
        "p1_cards_played": pa.array(res[:, G.RES_PLAYED0].astype(np.int16)),
        "p2_cards_played": pa.array(res[:, G.RES_PLAYED1].astype(np.int16)),
        "decisions": pa.array(res[:, G.RES_DECISIONS].astype(np.int32)),
        "p1_card_plays": lists(0),
        "p2_card_plays": lists(1),
    }
    return pa.table(cols)


def _spaces_table(chunk: Chunk, spaces: np.ndarray):
    import pyarrow as pa
    c = chunk.cell
    return pa.table({
        "chunk": [chunk.name], "matchup_id": pa.array([c.matchup_id], pa.int64()), "games": pa.array([chunk.n], pa.int64()),
        "battlefield": [c.battlefield], "p1_hero": [c.p1], "p1_loadout": [c.p1_loadout],
        "p2_hero": [c.p2], "p2_loadout": [c.p2_loadout],
        "combats": pa.array([spaces[0].astype(np.int64)], pa.list_(pa.int64())),
        "defeats": pa.array([spaces[1].astype(np.int64)], pa.list_(pa.int64())),
    })


def _write_parquet(table, path: Path) -> None:
    import pyarrow.parquet as pq
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def write_chunk(run_dir, chunk: Chunk, res, played, spaces, n_cards: tuple) -> None:
    """Store one finished chunk: the spaces file, then the games file (whose presence
    marks the chunk done). Each file is written to a temporary name and renamed."""
    run_dir = Path(run_dir)
    _write_parquet(_spaces_table(chunk, spaces), run_dir / SPACES_DIR / f"part-{chunk.name}.parquet")
    _write_parquet(_games_table(chunk, res, played, n_cards), run_dir / GAMES_DIR / f"part-{chunk.name}.parquet")


def finished_chunks(run_dir, chunks) -> set[str]:
    """Names of the ``chunks`` (objects with ``name`` and ``n``) whose games are stored in
    ``run_dir``: a games file that can be read and holds the chunk's ``n`` rows. A stored
    file that is damaged (cut short, overwritten, not Parquet) is removed, with the chunk's
    spaces file, so that resuming plays that chunk again; files of other chunks are ignored."""
    import pyarrow.parquet as pq
    run_dir = Path(run_dir)
    wanted = {ch.name: ch.n for ch in chunks}
    done = set()
    for f in _done_files(run_dir, GAMES_DIR):
        name = f.name[len("part-"):-len(".parquet")]
        if name not in wanted:
            continue
        try:
            whole = pq.read_metadata(f).num_rows == wanted[name]
        except Exception:   # pyarrow raises several kinds for a damaged file
            whole = False
        if whole:
            done.add(name)
        else:
            f.unlink(missing_ok=True)
            (run_dir / SPACES_DIR / f.name).unlink(missing_ok=True)
    return done


def _done_files(run_dir: Path, sub: str) -> list[Path]:
    return sorted((run_dir / sub).glob("part-*.parquet"))


def read_games(run_dir):
    """All stored games of a run folder as a pandas DataFrame (one row per game).

    Columns: :data:`GAME_COLUMNS` (list columns hold numpy int16 arrays); rows sorted by
    P1 hero, P1 loadout, P2 hero, P2 loadout, battlefield, game index, with a fresh
    RangeIndex, so the table does not depend on chunking or worker count. Returns an
    empty DataFrame with those columns if no chunk is stored. Raises RunError if
    ``run_dir`` is not a run folder.
    """
    import pandas as pd
    import pyarrow.dataset as ds
    run_dir = Path(run_dir)
    read_manifest(run_dir)
    files = _done_files(run_dir, GAMES_DIR)
    if not files:
        return pd.DataFrame({c: [] for c in GAME_COLUMNS})
    table = ds.dataset([str(f) for f in files], format="parquet").to_table()
    df = table.to_pandas()
    return df.sort_values(SORT_KEYS, kind="stable").reset_index(drop=True)


def read_spaces(run_dir):
    """Per-chunk space counters of the finished chunks as a DataFrame: one row per chunk
    with ``chunk``, ``matchup_id``, ``games``, ``battlefield``, the heroes and loadouts,
    and ``combats`` / ``defeats`` (int64 arrays, one entry per space of the battlefield,
    in the battlefield's space order). Sorted by chunk name."""
    import pandas as pd
    import pyarrow.dataset as ds
    run_dir = Path(run_dir)
    done = {p.name for p in _done_files(run_dir, GAMES_DIR)}
    files = [f for f in _done_files(run_dir, SPACES_DIR) if f.name in done]
    if not files:
        return pd.DataFrame(columns=["chunk", "matchup_id", "games", "battlefield", "p1_hero", "p1_loadout",
                                     "p2_hero", "p2_loadout", "combats", "defeats"])
    df = ds.dataset([str(f) for f in files], format="parquet").to_table().to_pandas()
    return df.sort_values("chunk").reset_index(drop=True)


# ---------------------------------------------------------------- execution


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _prepare_folder(plan: RunPlan) -> dict:
    """Create the run folder (or reopen it) and write/refresh the manifest."""
    run_dir = plan.run_dir
    try:
        for sub in (GAMES_DIR, SPACES_DIR):
            (run_dir / sub).mkdir(parents=True, exist_ok=True)
        for sub in (GAMES_DIR, SPACES_DIR):
            for tmp in (run_dir / sub).glob(".*.tmp"):
                tmp.unlink()
        if (run_dir / MANIFEST).exists():
            manifest = read_manifest(run_dir)
        else:
            manifest = {
                "kind": RUN_KIND, "format": FORMAT_VERSION, "package_version": package_version(),
                "created": _now(), "settings": plan.settings,
                "games_total": plan.games_total, "chunks_total": len(plan.chunks),
                "cells": [dict(asdict(c), matchup_id=c.matchup_id) for c in plan.cells],
                "heroes": plan.hero_info, "battlefields": plan.battlefield_info,
                "extra_hero_paths": list(plan.extra_heroes), "sessions": [],
            }
        manifest["status"] = "running"
        _write_json(run_dir / MANIFEST, manifest)
    except OSError as e:
        raise RunError(f"cannot write the run folder {run_dir}: {e.strerror or e}", "--out") from None
    return manifest


def execute_run(plan: RunPlan, jobs: int | None = None, progress: bool | None = True, after_chunk=None,
                backend=None, scheduler: str | None = None) -> RunResult:
    """Play every chunk of ``plan`` not yet stored and store it as it finishes.

    Where the chunks are played: ``backend`` is a :class:`sim.backend.Backend`, or a
    name, ``"loky"`` (default: worker processes on this machine) or ``"dask"`` (a
    dask.distributed cluster through joblib's dask backend), combined with
    ``jobs`` (local worker processes, loky or a local dask cluster; None = all
    cores; 1 with loky = play in this process) and ``scheduler`` (a dask scheduler
    address; None with dask = start a local cluster for the run). Every command that
    plays chunks passes the CLI's ``backend`` here (``sim.cli_backend``).
    ``progress``: show a tqdm bar (games done, games/s, time left) on stderr; None
    shows it only when stderr is a terminal.
    ``after_chunk(name, games_done)``: optional callback after each stored chunk.

    The driver (this process) writes each chunk's files as its result arrives,
    whatever the backend, and stores a chunk at most once: a chunk dask re-runs
    after losing a worker is stored when its first result arrives. Dask workers
    must have the same unmatched-sim (version, engine, hero and battlefield files);
    they are checked before the first chunk and each worker checks itself before
    its first chunk. The engine is compiled (or loaded from its cache) in this
    process before any chunk is played; each worker process loads it once.

    Raises sim.backend.BackendError (one line, ``.param`` names the option) for bad
    backend options, an unreachable scheduler, differing workers or a cluster lost
    mid-run (nothing is written if the scheduler cannot be reached), RunError if
    the folder cannot be written and RunInterrupted on KeyboardInterrupt (finished
    chunks stay stored). Games are identical whatever the backend and ``jobs``.
    """
    from sim.ai_profiles import get_profile
    from sim.backend import Backend

    be = Backend.of(backend, jobs, scheduler)
    prof = get_profile(plan.settings["ai"])
    modes = (prof, prof)
    seed = plan.settings["seed"]
    todo = [ch for ch in plan.chunks if ch.name not in plan.done]
    n_cards = {k: len(v["cards"]) for k, v in plan.hero_info.items()}
    expect = worker_expectation(plan)
    expect_json = json.dumps(expect, sort_keys=True)

    def warm_up():   # compile (or load) the engine once here, before any chunk is played
        c = todo[0].cell
        _match(c.p1, c.p1_loadout, c.p2, c.p2_loadout, c.battlefield, plan.extra_heroes,
               plan.variant).play_many(1, seed, 0, 0)

    def store(ch, out):
        _, res, played, spaces, _ = out
        write_chunk(plan.run_dir, ch, res, played, spaces, (n_cards[ch.cell.p1], n_cards[ch.cell.p2]))

    return drive_chunks(plan, be, expect, plan.games_total, plan.games_done, plan.settings.get("mode", "matrix"),
                        warm_up, _task, [(ch, seed, modes, plan.extra_heroes, expect_json, plan.variant) for ch in todo],
                        store, progress, after_chunk)


def drive_chunks(plan, be, expect: dict, total: int, games_done: int, desc: str, warm_up, task, task_args: list,
                 store, progress, after_chunk) -> RunResult:
    """The driver of a stored run, for every kind of run (matrix, loadouts, compare, teams).

    Plays the chunks of ``plan`` not yet in ``plan.done`` (``task_args``, one tuple of
    arguments of ``task`` per such chunk, in that order) on backend ``be`` and stores each
    result as it arrives with ``store(chunk, result)`` (``result``: ``task``'s tuple, the
    chunk name first and the seconds it took last), at most once; ``warm_up()`` compiles
    the engine here first. ``total`` and ``games_done``: games of the whole run and those
    already stored; ``desc``: the progress bar's label; ``expect``: :func:`worker_expectation`
    of the plan (dask workers are checked against it). Keeps the manifest's status and
    sessions. Raises RunError if the folder cannot be written, BackendError for differing
    workers and RunInterrupted on KeyboardInterrupt (finished chunks stay stored)."""
    from tqdm import tqdm    # a text bar: the same in a terminal and a notebook (the widget bar needs ipywidgets)

    from sim.backend import BackendError, open_pool

    # on Ctrl-C joblib warns that the chunks in flight were cancelled; they are simply not
    # stored (the resume plays them), so the warning only alarms the user
    warnings.filterwarnings("ignore", message=r".*tasks which were still being processed by the workers have "
                            r"been cancelled", category=UserWarning)
    todo = [ch for ch in plan.chunks if ch.name not in plan.done]
    by_name = {ch.name: ch for ch in todo}
    skipped = games_done
    chunks_done = len(plan.done)

    def interrupted():
        return RunInterrupted(plan.run_dir, games_done, total, chunks_done, len(plan.chunks))

    t_setup = time.perf_counter()
    with ExitStack() as stack:
        try:
            pool = stack.enter_context(open_pool(be, len(todo))) if todo else None
            if pool is not None:
                _check_workers(pool, expect)
        except KeyboardInterrupt:
            raise interrupted() from None
        manifest = _prepare_folder(plan)

        if todo:
            try:
                warm_up()
            except KeyboardInterrupt:
                manifest["status"] = "interrupted"
                _write_json(plan.run_dir / MANIFEST, manifest)
                raise interrupted() from None

        t0 = time.perf_counter()
        setup = t0 - t_setup
        played_now = 0
        busy = 0.0
        bar = tqdm(total=total, initial=games_done, unit=" games", desc=desc, smoothing=0.1,
                   disable=None if progress is None else not progress,
                   ncols=min(120, shutil.get_terminal_size((100, 24)).columns))
        status = "failed"
        try:
            results = pool.imap_unordered(task, task_args) if pool is not None else iter(())
            try:
                for out in results:
                    name, secs = out[0], out[-1]
                    busy += secs
                    if name in plan.done:       # a result that arrived twice is stored once
                        continue
                    ch = by_name[name]
                    try:
                        store(ch, out)
                    except OSError as e:
                        raise RunError(f"cannot write the run folder {plan.run_dir}: {e.strerror or e}", "--out") from None
                    plan.done.add(name)
                    chunks_done += 1
                    games_done += ch.n
                    played_now += ch.n
                    bar.update(ch.n)
                    if after_chunk is not None:
                        after_chunk(name, games_done)
            except WorkerMismatch as e:
                raise BackendError(str(e), "--scheduler") from None
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
            status = "complete"
        except KeyboardInterrupt:
            status = "interrupted"
            raise interrupted() from None
        finally:
            bar.close()
            seconds = time.perf_counter() - t0
            workers = pool.workers if pool is not None else 0
            manifest["status"] = "complete" if chunks_done == len(plan.chunks) else status
            manifest.setdefault("sessions", []).append({
                "finished": _now(), "games": played_now, "seconds": round(seconds, 3),
                "backend": be.name, "where": pool.description if pool is not None else "",
                "jobs": workers, "busy_seconds": round(busy, 3), "setup_seconds": round(setup, 3),
                "package_version": package_version()})
            try:
                _write_json(plan.run_dir / MANIFEST, manifest)
            except OSError:
                pass
    return RunResult(plan.run_dir, total, played_now, skipped, len(plan.chunks), seconds,
                     played_now / seconds if seconds > 0 else float("nan"),
                     backend=pool.description if pool is not None else "", workers=workers,
                     busy_seconds=busy, setup_seconds=setup)


def _check_workers(pool, expect: dict) -> None:
    """Raise BackendError (one line) if a dask worker's unmatched-sim differs from ``expect``."""
    from sim.backend import BackendError
    bad = {}
    for addr, out in pool.run_on_workers(worker_differences, expect).items():
        if isinstance(out, BaseException):
            out = [f"cannot run unmatched-sim ({type(out).__name__}: {out})"]
        if out:
            bad[addr] = out
    if bad:
        addr, diffs = next(iter(sorted(bad.items())))
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise BackendError(f"{len(bad)} of {len(pool.client.nthreads())} dask workers differ from this machine, "
                           f"e.g. {addr}{more}: {'; '.join(diffs)}; install unmatched-sim {expect['package_version']} "
                           "from the same source on every worker", "--scheduler")


def run_matrix(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = DEFAULT_SEED,
               jobs: int | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE, extra_heroes=(),
               progress: bool = False, after_chunk=None, backend=None, scheduler: str | None = None,
               variant=None) -> RunResult:
    """:func:`plan_run` then :func:`execute_run` (see both for arguments and errors)."""
    plan = plan_run(out, games, heroes, battlefields, ai, seed, chunk_size, extra_heroes, variant)
    return execute_run(plan, jobs=jobs, progress=progress, after_chunk=after_chunk, backend=backend,
                       scheduler=scheduler)
