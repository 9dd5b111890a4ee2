"""A matrix run: every pair of heroes (mirrors included) on every battlefield."""
from __future__ import annotations

from sim.runs.cells import plan_cells
from sim.runs.drive import execute_run
from sim.runs.errors import RunError
from sim.runs.plan import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_SEED,
    RunPlan,
    RunResult,
    check_common,
    finish_plan,
    load_battlefields,
    resolve_heroes,
)


def plan_run(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = DEFAULT_SEED,
             chunk_size: int = DEFAULT_CHUNK_SIZE, extra_heroes=(), variant=None) -> RunPlan:
    """Validate a matrix run and plan it, without writing anything.

    ``out``: run folder (new, empty, or holding this very run to resume);
    ``games``: games per hero pair (>= 1); ``heroes`` / ``battlefields``: lists of
    keys (None = all installed); ``ai``: AI profile name (``sim.content.profiles``);
    ``seed``: run seed 0..2**32-1; ``chunk_size``: games per chunk (>= 1);
    ``extra_heroes``: homebrew hero files/folders; ``variant``: a designer variant
    (``sim.content.variants.Variant``) applied to the heroes, or None; it is
    recorded in the settings, so a run cannot be resumed with another variant.
    Raises RunError (with the option at fault in ``.param``) on any bad input; the
    hero files' own errors come as RunError too.
    """
    profile, extra, content = check_common(games, chunk_size, seed, ai, extra_heroes, variant)
    hero_sel = resolve_heroes(heroes, content)
    if len(hero_sel) < 2:
        raise RunError(f"--heroes names {len(hero_sel)} hero; a matrix needs at least 2 different heroes", "--heroes")
    bf_keys, bfs = load_battlefields(battlefields)
    settings = {"heroes": hero_sel, "battlefields": bf_keys, "games_per_pair": int(games)}
    cells = plan_cells(hero_sel, bf_keys, int(games))
    return finish_plan(out, settings, cells, list(hero_sel), bf_keys, bfs, ai, profile, seed, chunk_size,
                        content, extra, variant)



def run_matrix(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = DEFAULT_SEED,
               jobs: int | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE, extra_heroes=(),
               progress: bool = False, after_chunk=None, backend=None, scheduler: str | None = None,
               variant=None, task_games: int | None = None) -> RunResult:
    """:func:`plan_run` then :func:`execute_run` (see both for arguments and errors)."""
    plan = plan_run(out, games, heroes, battlefields, ai, seed, chunk_size, extra_heroes, variant)
    return execute_run(plan, jobs=jobs, progress=progress, after_chunk=after_chunk, backend=backend,
                       scheduler=scheduler, task_games=task_games)
