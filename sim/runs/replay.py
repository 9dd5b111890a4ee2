"""A stored game of a run folder, played again to be watched.

A run stores one row per game, not its events; every game is played again from what the
run folder records: its seed (``game_seed(run seed, matchup id, game index)``, stored in
the row), its heroes, loadouts and battlefield (the row), and the run's AI profile
(name, mode and weights), designer variant and homebrew hero files (the manifest). The
engine plays the same game bit for bit, and :func:`replay_stored` checks the replayed
result against the stored row (winner, turns, every hero's final health).

Games are numbered as :func:`sim.runs.store.read_games` (or, for a team run,
``sim.runs.teams.read_team_games``) orders them: by the heroes of each seat, their
loadouts, the battlefield and the game's index in its cell, from 0. That order does not
depend on how the run was chunked or played, so a game's number stays the same.

Example::

    from sim.runs.replay import find_game, replay_stored
    g = find_game("runs/first", matchup="medusa,sinbad", seed=123456)   # or game=17
    rep = replay_stored("runs/first", g)          # a sim.play.replay.Replay
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from sim.content.heroes import HeroFileError
from sim.content.profiles import AIProfile
from sim.content.variants import Variant, VariantError
from sim.play.match import Match, MatchError, installed_content
from sim.play.replay import Replay, record
from sim.play.teams import TeamMatch
from sim.runs.errors import RunError
from sim.runs.plan import engine_fingerprint
from sim.runs.store import MANIFEST, SORT_KEYS, read_game_table, read_manifest

TEAM_SORT_KEYS = ["s1_hero", "s2_hero", "s3_hero", "s4_hero", "battlefield", "game_index"]
_DUEL_COLUMNS = ["matchup_id", "game_index", "seed", "battlefield", "p1_hero", "p1_loadout", "p2_hero", "p2_loadout",
                 "winner", "turns", "p1_health", "p2_health"]
_TEAM_COLUMNS = (["matchup_id", "game_index", "seed", "battlefield"] + [f"s{k}_hero" for k in range(1, 5)]
                 + [f"s{k}_loadout" for k in range(1, 5)] + ["team1", "team2", "winner", "turns"]
                 + [f"s{k}_health" for k in range(1, 5)])


@dataclass(frozen=True)
class StoredGame:
    """One stored game: ``number`` (its place in the run's game order, from 0), ``of`` (the
    games stored), ``team`` (a team run's game), ``row`` (the stored columns: seed, heroes,
    loadouts, battlefield, winner, turns, final health) and the run's ``manifest``."""

    number: int
    of: int
    team: bool
    row: dict
    manifest: dict

    @property
    def heroes(self) -> list[str]:
        """Hero keys in seat order."""
        r = self.row
        return [r[f"s{k}_hero"] for k in range(1, 5)] if self.team else [r["p1_hero"], r["p2_hero"]]

    @property
    def loadouts(self) -> list[str]:
        """Loadouts in seat order ('' for a hero without choice groups)."""
        r = self.row
        return [r[f"s{k}_loadout"] for k in range(1, 5)] if self.team else [r["p1_loadout"], r["p2_loadout"]]

    def describe(self) -> str:
        """'game 17 of 400 (medusa vs sinbad on soho, seed 123)'."""
        r = self.row
        who = (f"{r['team1']} vs {r['team2']}" if self.team else " vs ".join(
            h + (f"@{lo}" if lo else "") for h, lo in zip(self.heroes, self.loadouts)))
        return f"game {self.number} of {self.of} ({who} on {r['battlefield']}, seed {r['seed']})"


def _run_folder(run_dir) -> dict:
    """The manifest of ``run_dir``; a compare run's folder (which holds two runs) is refused
    in one line naming its two run folders."""
    run_dir = Path(run_dir)
    if not (run_dir / MANIFEST).exists() and (run_dir / "baseline" / MANIFEST).exists():
        raise RunError(f"{run_dir} holds a compare run's two runs: replay a game of {run_dir / 'baseline'} "
                       f"or of {run_dir / 'variant'}", "RUN_DIR")
    return read_manifest(run_dir)


def find_game(run_dir, game: int | None = None, matchup: str | None = None, seed: int | None = None,
              battlefield: str | None = None) -> StoredGame:
    """One stored game of a matrix, loadouts, compare (``OUT/baseline`` or ``OUT/variant``)
    or teams run folder: by its number ``game`` (0-based, in the order described in the
    module doc), or by ``matchup`` and ``seed``. ``matchup``: two hero keys joined by ','
    ('medusa,sinbad', either seating), for a team run two teams ('medusa+sinbad,alice+dracula',
    either order); ``battlefield`` narrows it to one battlefield. Reads only the columns it
    needs. Raises RunError (one line; ``param`` the option at fault) if ``run_dir`` is not a
    run folder, holds no game, has no game of that number, or no stored game of that matchup
    with that seed (naming a few seeds it has), or if neither or both ways are given."""
    manifest = _run_folder(run_dir)
    team = manifest.get("settings", {}).get("mode") == "teams"
    if (game is None) == (seed is None and matchup is None):
        raise RunError("name one game: --game N, or --matchup and --seed", "--game")
    if game is None and (matchup is None or seed is None):
        raise RunError("a game by matchup needs both --matchup and --seed", "--matchup" if matchup is None else "--seed")
    table = read_game_table(run_dir, columns=_TEAM_COLUMNS if team else _DUEL_COLUMNS)
    if table is None or table.num_rows == 0:
        raise RunError(f"{run_dir} holds no stored game yet", "RUN_DIR")
    keys = TEAM_SORT_KEYS if team else SORT_KEYS
    order = pc.sort_indices(table, sort_keys=[(k, "ascending") for k in keys])
    total = table.num_rows
    if game is not None:
        if not 0 <= int(game) < total:
            raise RunError(f"{run_dir} has {total} stored games, numbered 0 to {total - 1}; there is no game {game}",
                           "--game")
        i = int(game)
    else:
        sides = [s.strip() for s in str(matchup).split(",")]
        if len(sides) != 2 or not all(sides):
            want = "two teams joined by ',' (e.g. medusa+sinbad,alice+dracula)" if team else \
                "two hero keys joined by ',' (e.g. medusa,sinbad)"
            raise RunError(f"--matchup {matchup!r}: give {want}", "--matchup")
        sorted_t = table.take(order)
        if team:
            a, b = ("+".join(sorted(s.split("+"))) for s in sides)
            t1, t2 = sorted_t.column("team1"), sorted_t.column("team2")
            mask = pc.or_(pc.and_(pc.equal(t1, a), pc.equal(t2, b)), pc.and_(pc.equal(t1, b), pc.equal(t2, a)))
        else:
            a, b = sides
            p1, p2 = sorted_t.column("p1_hero"), sorted_t.column("p2_hero")
            mask = pc.or_(pc.and_(pc.equal(p1, a), pc.equal(p2, b)), pc.and_(pc.equal(p1, b), pc.equal(p2, a)))
        if battlefield is not None:
            mask = pc.and_(mask, pc.equal(sorted_t.column("battlefield"), battlefield))
        rows = pc.indices_nonzero(mask)
        if len(rows) == 0:
            where = f" on {battlefield}" if battlefield is not None else ""
            raise RunError(f"{run_dir} holds no game of {matchup}{where}", "--matchup")
        seeds = sorted_t.column("seed").take(rows)
        hit = pc.indices_nonzero(pc.equal(seeds, pa.scalar(int(seed), pa.int64())))
        if len(hit) == 0:
            some = ", ".join(str(s) for s in seeds.slice(0, 5).to_pylist())
            raise RunError(f"{run_dir} holds no game of {matchup} with seed {seed} ({len(rows)} games of it are "
                           f"stored, seeds {some}, ...; `unmatched-sim replay {run_dir} --list --matchup {matchup}` "
                           "lists them)", "--seed")
        i = int(rows[int(hit[0].as_py())].as_py())
    row = {k: v[0] for k, v in table.take([order[i]]).to_pydict().items()}
    return StoredGame(i, total, team, row, manifest)


def list_games(run_dir, matchup: str | None = None, limit: int = 20) -> tuple[list[StoredGame], int]:
    """The first ``limit`` stored games of ``run_dir`` (of ``matchup`` if given, as
    :func:`find_game` reads it) and how many there are in all. Raises RunError as
    :func:`find_game` does."""
    manifest = _run_folder(run_dir)
    team = manifest.get("settings", {}).get("mode") == "teams"
    table = read_game_table(run_dir, columns=_TEAM_COLUMNS if team else _DUEL_COLUMNS)
    if table is None or table.num_rows == 0:
        raise RunError(f"{run_dir} holds no stored game yet", "RUN_DIR")
    keys = TEAM_SORT_KEYS if team else SORT_KEYS
    sorted_t = table.take(pc.sort_indices(table, sort_keys=[(k, "ascending") for k in keys]))
    numbers = list(range(sorted_t.num_rows))
    if matchup is not None:
        sides = [s.strip() for s in str(matchup).split(",")]
        if len(sides) != 2 or not all(sides):
            raise RunError(f"--matchup {matchup!r}: give two sides joined by ','", "--matchup")
        if team:
            a, b = ("+".join(sorted(s.split("+"))) for s in sides)
            cols = (sorted_t.column("team1"), sorted_t.column("team2"))
        else:
            a, b = sides
            cols = (sorted_t.column("p1_hero"), sorted_t.column("p2_hero"))
        mask = pc.or_(pc.and_(pc.equal(cols[0], a), pc.equal(cols[1], b)),
                      pc.and_(pc.equal(cols[0], b), pc.equal(cols[1], a)))
        numbers = pc.indices_nonzero(mask).to_pylist()
    shown = sorted_t.take(numbers[:limit]).to_pylist() if numbers else []
    return [StoredGame(n, sorted_t.num_rows, team, r, manifest) for n, r in zip(numbers, shown)], len(numbers)


def stored_profile(settings: dict) -> AIProfile:
    """The AI profile a run played with, from its settings (name, mode, weights and any
    hero's own weights), so a profile file that has moved or changed since does not change
    the replayed game."""
    heroes = tuple(sorted((k, tuple(float(x) for x in w)) for k, w in (settings.get("ai_hero_weights") or {}).items()))
    return AIProfile(str(settings["ai"]), settings["ai_mode"], "", tuple(float(w) for w in settings["ai_weights"]),
                     hero_weights=heroes)


def stored_variant_json(settings: dict) -> str:
    """The run's designer variant as JSON for ``installed_content`` ('' for none)."""
    v = settings.get("variant")
    if not v:
        return ""
    return Variant(v["name"], v.get("file", ""), v["heroes"]).to_json()


def replay_stored(run_dir, game: StoredGame, explain: bool = False) -> Replay:
    """Play stored game ``game`` (:func:`find_game`) again and return it as a
    :class:`sim.play.replay.Replay` (``explain``: with the AI's candidates). Raises
    RunError (one line) if the run's homebrew hero files or variant cannot be loaded, or if
    the replayed game's result differs from the stored one (the engine, the AI or a hero
    file changed since the run: the message says which fingerprint moved)."""
    m = game.manifest
    s = m["settings"]
    extra = tuple(m.get("extra_hero_paths") or ())
    try:
        content = installed_content(extra, stored_variant_json(s))
    except (HeroFileError, VariantError, OSError) as e:
        raise RunError(f"cannot load the heroes this run played: {e}", "RUN_DIR") from None
    heroes = [f"{h}@{lo}" if lo else h for h, lo in zip(game.heroes, game.loadouts)]
    try:
        if game.team:
            match = TeamMatch([heroes[0], heroes[2]], [heroes[1], heroes[3]], game.row["battlefield"], content=content)
        else:
            match = Match(heroes, game.row["battlefield"], content=content)
    except MatchError as e:
        raise RunError(f"cannot set up {game.describe()}: {e}", "RUN_DIR") from None
    prof = stored_profile(s)
    rep = record(match, int(game.row["seed"]), modes=(prof, prof), explain=explain)
    got = _outcome(rep, game.team)
    want = (int(game.row["winner"]), int(game.row["turns"])) + tuple(
        int(game.row[f"s{k}_health" if game.team else f"p{k}_health"]) for k in range(1, 5 if game.team else 3))
    if got != want:
        moved = [name for name, key in (("the engine", "engine"), ("the hero compiler", "compiler"))
                 if s.get("fingerprint", {}).get(key) not in (None, engine_fingerprint(key if key == "engine"
                                                                                       else "content"))]
        why = f"{' and '.join(moved)} changed since the run" if moved else \
            "the hero or battlefield files, or the AI, changed since the run"
        raise RunError(f"{game.describe()} plays differently now (stored: winner {want[0]}, {want[1]} turns; "
                       f"replayed: winner {got[0]}, {got[1]} turns): {why}", "RUN_DIR")
    return rep


def _outcome(rep: Replay, team: bool) -> tuple:
    from sim.engine import game as G
    r = rep.game.result
    if team:
        return (int(r[G.TRES_WINNER]) if r[G.TRES_WINNER] >= 0 else -1, int(r[G.TRES_TURNS])) + tuple(
            int(r[G.TRES_HP0 + k]) for k in range(4))
    return (int(r[G.RES_WINNER]) if r[G.RES_WINNER] >= 0 else -1, int(r[G.RES_TURNS]),
            int(r[G.RES_HP0]), int(r[G.RES_HP1]))


def run_label(game: StoredGame, run_dir) -> str:
    """A line naming the run and the game for the replay page."""
    s = game.manifest["settings"]
    mode = s.get("mode", "matrix")
    extra = f", variant {s['variant']['name']}" if s.get("variant") else ""
    return (f"{game.describe()} of the {mode} run {Path(run_dir)} (AI {s['ai']}, run seed {s['seed']}{extra}); "
            f"replayed from its seed")


__all__ = ["StoredGame", "example_games", "find_game", "list_games", "replay_stored", "run_label", "stored_profile",
           "stored_variant_json"]


def example_games(run_dir) -> list[dict]:
    """A few stored games of every matchup of a matrix, loadouts or compare run folder, to
    watch: for each pair of different heroes and each seating (who moves first), a game
    the first player won and one it lost, each the one of its kind whose length is nearest
    the median length of its kind (a typical game, not the first). Returns one dict per
    matchup, sorted by hero keys: ``{"heroes": (a, b), "games": {(first, winner):
    StoredGame or None}}`` with ``first`` and ``winner`` hero keys. Raises RunError if
    ``run_dir`` is not such a run folder or holds no game."""
    manifest = _run_folder(run_dir)
    if manifest.get("settings", {}).get("mode") == "teams":
        raise RunError(f"{run_dir} is a team run; its example games are not drawn here", "RUN_DIR")
    table = read_game_table(run_dir, columns=_DUEL_COLUMNS)
    if table is None or table.num_rows == 0:
        raise RunError(f"{run_dir} holds no stored game yet", "RUN_DIR")
    t = table.take(pc.sort_indices(table, sort_keys=[(k, "ascending") for k in SORT_KEYS]))
    total = t.num_rows
    df = t.select(["p1_hero", "p2_hero", "winner", "turns"]).to_pandas()
    df["number"] = range(total)
    out = []
    for (a, b), g in df[df["p1_hero"] != df["p2_hero"]].groupby(
            [df["p1_hero"].where(df["p1_hero"] < df["p2_hero"], df["p2_hero"]),
             df["p2_hero"].where(df["p1_hero"] < df["p2_hero"], df["p1_hero"])], sort=True):
        games = {}
        for first, second in ((a, b), (b, a)):
            seat = g[g["p1_hero"] == first]
            for winner, code in ((first, 0), (second, 1)):
                kind = seat[seat["winner"] == code]
                if not len(kind):
                    games[(first, winner)] = None
                    continue
                med = kind["turns"].median()
                pick = int(kind.iloc[int((kind["turns"] - med).abs().to_numpy().argmin())]["number"])
                row = {k: v[0] for k, v in t.slice(pick, 1).to_pydict().items()}
                games[(first, winner)] = StoredGame(pick, total, False, row, manifest)
        out.append({"heroes": (a, b), "games": games})
    return out
