"""One hero against a field of opponents: the runs behind ``loadouts`` and ``compare``.

Both commands play one hero (every loadout of it) against each opponent on each
battlefield, seats swapped evenly, and store the games in ordinary run folders
(``sim.runs.drive``: chunked, played in tasks, resumable, any backend), so an
interrupted run loses only the games in flight and the same command resumes it.

- :func:`plan_loadouts`: every loadout of a hero with choice groups (Geralt's 8 gear
  loadouts) against every opponent. ``games`` is **games per loadout**, split evenly
  over the opponents, the battlefields, the two seats and the opponent's own
  loadouts; each cell gets ``ceil(games / slots)`` games, so the count is rounded
  up to keep every slot equal (``settings["games_per_loadout"]`` is the count
  played, ``settings["games_requested"]`` the one asked for).
- :func:`plan_compare`: the same hero against the same field twice, without and
  with a designer variant (``sim.content.variants``), with the same cells and the
  same run seed, so game *i* of a cell has the same seed in both runs (paired
  games). ``games`` is **games per opponent**, split evenly over the battlefields,
  the seats and both heroes' loadouts (rounded up the same way).

:func:`run_loadouts` and :func:`run_compare` plan and play in one call (as
``sim.runs.matrix.run_matrix`` does for a matrix); the reports are
``reports.loadouts.build_loadouts_report`` and ``reports.compare.build_compare_report``.

A cell's seeds depend only on its identity (heroes, loadouts, battlefield, seat) and
the run seed, as in the matrix.
"""
from __future__ import annotations

import math
from pathlib import Path

from sim.content.heroes import HeroFileError, load_heroes
from sim.content.variants import VariantError, load_variant
from sim.runs.cells import Cell
from sim.runs.drive import execute_run
from sim.runs.errors import RunError
from sim.runs.plan import DEFAULT_CHUNK_SIZE, DEFAULT_SEED, RunPlan, resolve_heroes
from sim.runs.plan import check_common as _check_common
from sim.runs.plan import finish_plan as _finish_plan
from sim.runs.plan import load_battlefields as _battlefields
from sim.runs.plan import split_keys as _split

LOADOUTS_MODE = "loadouts"
COMPARE_MODE = "compare"
BASELINE_DIR = "baseline"
VARIANT_DIR = "variant"


def resolve_hero(name: str, content, param: str = "--hero") -> tuple[str, list[str]]:
    """One hero (key, alias or ``key@loadout``) -> (key, its loadouts or the one named).
    Raises RunError (naming ``param``: ``HERO`` for loadouts' argument, ``--hero`` for
    compare's option) listing the valid heroes or loadouts."""
    if not name or not str(name).strip() or "," in str(name):
        raise RunError(f"give one hero key, got {name!r}; valid: {', '.join(sorted(content.specs))}", param)
    try:
        sel = resolve_heroes([name], content)
    except RunError as e:
        raise RunError(str(e), param) from None
    (key, los), = sel.items()
    return key, los


def resolve_opponents(names, hero: str, content) -> dict[str, list[str]]:
    """Opponent selection -> {key: [loadouts]} (sorted by key). ``names``: keys or
    ``key@loadout`` (comma-separated allowed); None/empty = every installed hero but
    ``hero``. Raises RunError (param ``--opponents``) for an unknown name or the hero
    itself (a mirror needs the hero on both sides, which these runs do not analyse)."""
    if names is not None and not isinstance(names, str) and len(names) and not _split(names):
        raise RunError("--opponents is empty; give hero keys separated by commas, or leave it out for every "
                       "other hero", "--opponents")
    if not _split(names):
        sel = resolve_heroes(None, content)
        sel.pop(hero, None)
    else:
        try:
            sel = resolve_heroes(names, content)
        except RunError as e:
            raise RunError(str(e), "--opponents") from None
        if hero in sel:
            raise RunError(f"--opponents names {hero} itself; a mirror is not analysed here "
                           "(use `unmatched-sim matrix` for it)", "--opponents")
    if not sel:
        raise RunError("no opponents: install another hero or name some with --opponents", "--opponents")
    return sel


def plan_versus_cells(hero: str, hero_loadouts: list[str], opponents: dict, battlefields: list[str],
                      per_cell: int) -> list[Cell]:
    """Cells of ``hero`` against each opponent: every hero loadout x opponent x opponent
    loadout x battlefield x seat, ``per_cell`` games each (count >= 1). The hero moves
    first in the seat-0 cell and second in the seat-1 cell. Raises RunError if two
    cells' matchup ids collide."""
    cells = []
    for lo in hero_loadouts:
        for opp in sorted(opponents):
            for olo in opponents[opp]:
                for bf in battlefields:
                    cells.append(Cell(hero, lo, opp, olo, bf, per_cell))
                    cells.append(Cell(opp, olo, hero, lo, bf, per_cell))
    seen = {}
    for c in cells:
        if c.matchup_id in seen:
            raise RunError(f"cells {seen[c.matchup_id]} and {c.identity} have the same matchup id; rename a hero key")
        seen[c.matchup_id] = c.identity
    return cells


def _per_cell(games: int, slots: int) -> int:
    return max(1, math.ceil(games / slots))


def plan_loadouts(out, hero: str, games: int = 20000, opponents=None, battlefields=None, ai: str = "standard",
                  seed: int = DEFAULT_SEED, chunk_size: int = DEFAULT_CHUNK_SIZE, extra_heroes=(),
                  variant=None) -> RunPlan:
    """Plan a loadouts run (writes nothing): every loadout of ``hero`` against every opponent.

    ``hero``: a key or alias of a hero whose file declares choice groups;
    ``games``: games per loadout (>= 1), split evenly over opponents, battlefields,
    seats and opponent loadouts, rounded up per cell; ``opponents``: keys (None =
    every other installed hero); ``battlefields``: keys (None = all); ``ai``, ``seed``,
    ``chunk_size``, ``extra_heroes``, ``variant``: as ``sim.runs.matrix.plan_run``.
    Settings record ``mode = "loadouts"``, the hero, its choice groups, the
    opponents, ``games_requested`` and ``games_per_loadout`` (played) and
    ``games_per_cell``. Raises RunError naming the option at fault.
    """
    profile, extra, content = _check_common(games, chunk_size, seed, ai, extra_heroes, variant)
    key, _ = resolve_hero(hero, content, "HERO")
    spec = content.specs[key]
    if not spec.groups:
        with_groups = sorted(k for k, sp in content.specs.items() if sp.groups)
        raise RunError(f"{key} declares no choice groups (gear), so it has no loadouts to compare; heroes with "
                       f"choice groups: {', '.join(with_groups) or '(none)'}", "HERO")
    if "@" in str(hero):
        raise RunError(f"{hero}: `loadouts` compares every loadout; give the hero key alone", "HERO")
    los = spec.loadouts()
    opps = resolve_opponents(opponents, key, content)
    bf_keys, bfs = _battlefields(battlefields)
    slots = {o: len(bf_keys) * 2 * len(v) for o, v in opps.items()}     # battlefield x seat x opponent loadout
    per_cell = {o: _per_cell(math.ceil(games / len(opps)), slots[o]) for o in opps}
    per_opp = {o: per_cell[o] * slots[o] for o in opps}
    cells = []
    for o in sorted(opps):
        cells += plan_versus_cells(key, los, {o: opps[o]}, bf_keys, per_cell[o])
    settings = {"mode": LOADOUTS_MODE, "hero": key, "groups": [[g, list(o)] for g, o in spec.groups],
                "loadouts": los, "opponents": opps, "battlefields": bf_keys,
                "games_requested": int(games), "games_per_loadout": int(sum(per_opp.values())),
                "games_per_loadout_per_opponent": per_opp, "games_per_cell": per_cell}
    return _finish_plan(out, settings, cells, [key] + sorted(opps), bf_keys, bfs, ai, profile, seed, chunk_size,
                        content, extra, variant)


def plan_compare(out, hero: str, variant, games: int = 2000, opponents=None, battlefields=None,
                 ai: str = "standard", seed: int = DEFAULT_SEED, chunk_size: int = DEFAULT_CHUNK_SIZE,
                 extra_heroes=()) -> tuple[RunPlan, RunPlan]:
    """Plan a compare run (writes nothing): ``hero`` against every opponent without and
    with ``variant`` (a ``sim.content.variants.Variant``), as two run folders
    ``OUT/baseline`` and ``OUT/variant`` with the same cells and seed (paired games).

    ``hero``: key, alias or ``key@loadout`` (a hero with choice groups plays all its
    loadouts unless one is named); ``games``: games per opponent (>= 1), split evenly
    over battlefields, seats and both heroes' loadouts, rounded up per cell; the
    other arguments as :func:`plan_loadouts`. Returns ``(baseline, variant)`` plans.
    Raises RunError naming the option at fault (``--variant`` for a variant that
    does not fit the installed heroes).
    """
    if variant is None:
        raise RunError("compare needs a variant file (--variant FILE)", "--variant")
    profile, extra, content = _check_common(games, chunk_size, seed, ai, extra_heroes, None)
    _, _, content_v = _check_common(games, chunk_size, seed, ai, extra_heroes, variant)   # RunError if it does not apply
    key, los = resolve_hero(hero, content)
    opps = resolve_opponents(opponents, key, content)
    bf_keys, bfs = _battlefields(battlefields)
    per_cell = {o: _per_cell(games, len(bf_keys) * 2 * len(los) * len(v)) for o, v in opps.items()}
    per_opp = {o: per_cell[o] * len(bf_keys) * 2 * len(los) * len(v) for o, v in opps.items()}
    cells = []
    for o in sorted(opps):
        cells += plan_versus_cells(key, los, {o: opps[o]}, bf_keys, per_cell[o])
    settings = {"mode": COMPARE_MODE, "hero": key, "loadouts": los, "opponents": opps, "battlefields": bf_keys,
                "games_requested": int(games), "games_per_opponent": per_opp, "games_per_cell": per_cell}
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file, not a folder; choose another --out", "--out")
    if out.is_dir() and any(p.name not in (BASELINE_DIR, VARIANT_DIR, "report") for p in out.iterdir()):
        what = "a matrix, loadouts or teams run folder" if (out / "manifest.json").exists() else "a non-empty folder"
        raise RunError(f"{out} is {what}, not a compare folder (a compare folder holds only "
                       f"{BASELINE_DIR}/, {VARIANT_DIR}/ and report/); choose a new or empty --out", "--out")
    keys = [key] + sorted(opps)
    base = _finish_plan(out / BASELINE_DIR, dict(settings, role="baseline"), cells, keys, bf_keys, bfs, ai, profile,
                        seed, chunk_size, content, extra, None)
    var = _finish_plan(out / VARIANT_DIR, dict(settings, role="variant"), cells, keys, bf_keys, bfs, ai, profile,
                       seed, chunk_size, content_v, extra, variant)
    return base, var


def _as_variant(variant, extra_heroes=()):
    """A Variant, or a variant file path read and validated against the installed heroes
    plus ``extra_heroes``; None stays None. Raises RunError (param ``--variant``)."""
    if variant is None or not isinstance(variant, (str, Path)):
        return variant
    try:
        return load_variant(variant, load_heroes(None, tuple(str(Path(p).resolve()) for p in extra_heroes))[0])
    except VariantError as e:
        raise RunError(str(e), "--variant") from None
    except HeroFileError as e:
        raise RunError(f"a hero file is invalid: {e}") from None


def run_loadouts(out, hero: str, games: int = 20000, opponents=None, battlefields=None, ai: str = "standard",
                 seed: int = DEFAULT_SEED, jobs: int | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE,
                 extra_heroes=(), variant=None, progress: bool = False, backend=None, scheduler: str | None = None,
                 task_games: int | None = None):
    """Play a loadouts run: :func:`plan_loadouts` then ``sim.runs.drive.execute_run``, as
    ``unmatched-sim loadouts`` does (without the report: ``reports.loadouts.build_loadouts_report(out)``).

    Arguments as :func:`plan_loadouts` and ``execute_run`` (``jobs``: local worker
    processes, None = every core, 1 = play in this process); ``variant`` may also be
    the path of a variant file. Rerunning with the same arguments resumes. Returns the
    ``sim.runs.plan.RunResult``. The games played per loadout (``games`` rounded up so that
    every opponent, battlefield and seat gets the same number) are recorded in the run's
    settings: ``sim.runs.store.read_manifest(out)["settings"]["games_per_loadout"]``.
    Raises RunError naming the option at fault.

    Example::

        from sim.runs.versus import run_loadouts
        from reports.loadouts import build_loadouts_report
        run_loadouts("runs/geralt", "geralt", games=400, opponents=["medusa", "sinbad"], battlefields=["soho"], jobs=2)
        build_loadouts_report("runs/geralt").tables["best"]
    """
    plan = plan_loadouts(out, hero, games, opponents, battlefields, ai, seed, chunk_size, extra_heroes,
                         _as_variant(variant, extra_heroes))
    return execute_run(plan, jobs=jobs, progress=progress, backend=backend, scheduler=scheduler, task_games=task_games)


def run_compare(out, hero: str, variant, games: int = 2000, opponents=None, battlefields=None,
                ai: str = "standard", seed: int = DEFAULT_SEED, jobs: int | None = None,
                chunk_size: int = DEFAULT_CHUNK_SIZE, extra_heroes=(), progress: bool = False, backend=None,
                scheduler: str | None = None, task_games: int | None = None):
    """Play a compare run: :func:`plan_compare` then ``sim.runs.drive.execute_run`` for the
    baseline and the variant folder, as ``unmatched-sim compare`` does (without the
    report: ``reports.compare.build_compare_report(out)``).

    ``variant``: a ``sim.content.variants.Variant`` or the path of a variant file
    (validated against the installed heroes plus ``extra_heroes``); the other
    arguments as :func:`plan_compare` and ``execute_run``. Rerunning resumes.
    Returns ``(baseline, variant)`` ``sim.runs.plan.RunResult``. Raises RunError naming
    the option at fault.

    Example::

        from sim.runs.versus import run_compare
        from reports.compare import build_compare_report
        run_compare("runs/arthur22", "king_arthur", "arthur_plus4.toml", games=200, jobs=2)
        build_compare_report("runs/arthur22").tables["compare"]
    """
    base, var = plan_compare(out, hero, _as_variant(variant, extra_heroes), games, opponents, battlefields, ai,
                             seed, chunk_size, extra_heroes)
    kw = dict(jobs=jobs, progress=progress, backend=backend, scheduler=scheduler, task_games=task_games)
    return execute_run(base, **kw), execute_run(var, **kw)
