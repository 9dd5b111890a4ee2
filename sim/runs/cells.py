"""A run's cells (one seating of a matchup) and chunks (a range of a cell's games)."""
from __future__ import annotations

import zlib
from dataclasses import dataclass

from sim.runs.errors import RunError


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


#: least and most games in one worker task (auto sizing; ``task_games`` overrides): at
#: least a few hundred games so that a task's overhead (sending it, building its cells'
#: matches, storing its file) stays small beside its play; at most a few seconds of play
#: (5,000 standard-AI duels: about 2 s on an idle core at 2,500 games/s, 7 s on a core
#: shared three ways at 740 games/s, measured) so that a kill loses little and the
#: progress bar moves
MIN_TASK_GAMES = 250
MAX_TASK_GAMES = 5_000
#: auto sizing gives each task 1/(GUIDE x workers) of the games still to hand out
#: (guided scheduling): large tasks first, smaller ones towards the end, so that the
#: workers finish together
GUIDE = 3
#: auto sizing starts small: the first task of each worker holds at most this many games
#: (one default chunk, well under a second of play), each next round of ``workers`` tasks
#: twice as many, up to the guided size; so a run stores its first games within a second or
#: two of play whatever its size, and an early Ctrl-C keeps them. The ramp costs about
#: log2(guided size / FIRST_TASK_GAMES) extra tasks per worker
FIRST_TASK_GAMES = 200


def plan_tasks(chunks: list, workers: int, task_games: int | None = None) -> list[tuple]:
    """Batch ``chunks`` (objects with ``n``, in order) into worker tasks: tuples of
    consecutive chunks, each task taking chunks until it holds its target games.

    ``task_games``: the target per task (games, >= 1); None sizes the tasks for
    ``workers`` (>= 1) workers: ``ceil(games left / (GUIDE x workers))``, clamped to
    [MIN_TASK_GAMES, MAX_TASK_GAMES], so a big run gets tasks of a few seconds and a small
    one still enough tasks for every worker; and, ramping up, at most ``FIRST_TASK_GAMES x
    2**r`` for the tasks of round ``r`` (tasks ``r x workers`` to ``(r + 1) x workers - 1``),
    so that every worker's first task is small and the first games are stored early. A task
    holds whole chunks: it may pass its target by up to one chunk less one game. Batching
    never changes a game: a game's seed depends only on the run seed, its cell and its
    index. Raises ValueError for ``task_games`` < 1."""
    if task_games is not None and int(task_games) < 1:
        raise ValueError(f"task games must be a positive whole number, got {task_games!r}")
    workers = max(1, int(workers))
    left = sum(ch.n for ch in chunks)
    tasks, cur, n = [], [], 0
    target = None
    for ch in chunks:
        if target is None:
            if task_games is not None:
                target = int(task_games)
            else:
                ramp = FIRST_TASK_GAMES << min(len(tasks) // workers, 30)
                target = min(ramp, MAX_TASK_GAMES, max(MIN_TASK_GAMES, -(-left // (GUIDE * workers))))
        cur.append(ch)
        n += ch.n
        if n >= target:
            tasks.append(tuple(cur))
            left -= n
            cur, n, target = [], 0, None
    if cur:
        tasks.append(tuple(cur))
    return tasks
