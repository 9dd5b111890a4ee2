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

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.content.battlefields import BATTLEFIELD_DIR, BattlefieldError, resolve_battlefield
from sim.content.heroes import HeroFileError
from sim.content.profiles import AIProfile
from sim.content.variants import Variant, VariantError
from sim.play.match import Match, MatchError, installed_content
from sim.play.replay import Replay, record
from sim.play.teams import TeamMatch
from sim.runs.errors import RunError
from sim.runs.plan import engine_fingerprint, file_fingerprints
from sim.runs.store import MANIFEST, read_game_table, read_manifest

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
    module doc), or by ``matchup`` and ``seed``. ``matchup``: two heroes joined by ','
    (keys, aliases or display names in any case: 'medusa,sinbad', 'Medusa,King Arthur';
    either seating), for a team run two teams ('medusa+sinbad,alice+dracula', either
    order); ``battlefield`` narrows it to one battlefield. Reads only the columns it
    needs. Raises RunError (one line; ``param`` the option at fault) if ``run_dir`` is not a
    run folder, holds no game, has no game of that number, or no stored game of that matchup
    with that seed (naming a few seeds it has), or if neither or both ways are given."""
    manifest = _run_folder(run_dir)
    team = manifest.get("settings", {}).get("mode") == "teams"
    if (game is None) == (seed is None and matchup is None):
        raise RunError("name one game: --game N, or --matchup and --seed", "--game")
    if game is None and (matchup is None or seed is None):
        raise RunError("a game by matchup needs both --matchup and --seed", "--matchup" if matchup is None else "--seed")
    if not team:
        return _find_duel(run_dir, manifest, game, matchup, seed, battlefield)
    table = read_game_table(run_dir, columns=_TEAM_COLUMNS)
    if table is None or table.num_rows == 0:
        raise RunError(f"{run_dir} holds no stored game yet", "RUN_DIR")
    keys = TEAM_SORT_KEYS
    order = pc.sort_indices(table, sort_keys=[(k, "ascending") for k in keys])
    total = table.num_rows
    if game is not None:
        i = _game_number(run_dir, game, total)
    else:
        sides = _two_sides(matchup, "two teams joined by ',' (e.g. medusa+sinbad,alice+dracula)", manifest)
        sorted_t = table.take(order)
        a, b = ("+".join(sorted(s.split("+"))) for s in sides)
        t1, t2 = sorted_t.column("team1"), sorted_t.column("team2")
        mask = pc.or_(pc.and_(pc.equal(t1, a), pc.equal(t2, b)), pc.and_(pc.equal(t1, b), pc.equal(t2, a)))
        if battlefield is not None:
            mask = pc.and_(mask, pc.equal(sorted_t.column("battlefield"), _battlefield_key(battlefield)))
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


def _game_number(run_dir, game, total: int) -> int:
    """``game`` as an int, or RunError (``--game``) if the run has no game of that number."""
    if not 0 <= int(game) < total:
        raise RunError(f"{run_dir} has {total} stored games, numbered 0 to {total - 1}; there is no game {game}",
                       "--game")
    return int(game)


def _two_sides(matchup: str, want: str, manifest: dict) -> tuple[str, str]:
    """The two sides of ``--matchup`` (``a,b``; a team run's ``a+b,c+d``), each hero named
    by key, alias or display name in any case (``Content.resolve_hero`` over the installed
    heroes and the run's homebrew files) and given as its key. RunError (``--matchup``) for
    a malformed matchup or an unknown hero."""
    sides = [x.strip() for x in str(matchup).split(",")]
    if len(sides) != 2 or not all(sides):
        raise RunError(f"--matchup {matchup!r}: give {want}", "--matchup")
    try:
        content = installed_content(tuple(manifest.get("extra_hero_paths") or ()))
        keys = ["+".join(content.resolve_hero(h.strip()) for h in side.split("+")) for side in sides]
    except HeroFileError as e:
        raise RunError(str(e), "--matchup") from None
    return keys[0], keys[1]


def _matchup_numbers(ix: dict, sides):
    """Places (in the run's order) of the games between the two hero keys ``sides``, either seating."""
    code = {h: i for i, h in enumerate(ix["heroes"])}
    a, b = code.get(sides[0], -1), code.get(sides[1], -1)
    return np.flatnonzero(((ix["p1"] == a) & (ix["p2"] == b)) | ((ix["p1"] == b) & (ix["p2"] == a)))


def _find_duel(run_dir, manifest, game, matchup, seed, battlefield) -> StoredGame:
    """:func:`find_game` for a duel run, from :func:`duel_index` (a big run is never read whole)."""
    ix, total = _nonempty_index(run_dir)
    if game is not None:
        n = _game_number(run_dir, game, total)
    else:
        nums = _matchup_numbers(ix, _two_sides(matchup, "two hero keys joined by ',' (e.g. medusa,sinbad)", manifest))
        if battlefield is not None:
            nums = nums[ix["bf"][nums] == _battlefield_code(run_dir, ix, battlefield)]
        if len(nums) == 0:
            where = f" on {battlefield}" if battlefield is not None else ""
            raise RunError(f"{run_dir} holds no game of {matchup}{where}", "--matchup")
        hit = nums[ix["seed"][nums] == int(seed)]
        if len(hit) == 0:
            some = ", ".join(str(x) for x in ix["seed"][nums[:5]].tolist())
            on = f" on {battlefield}" if battlefield is not None else ""
            bf = f" -b {battlefield}" if battlefield is not None else ""
            raise RunError(f"{run_dir} holds no game of {matchup}{on} with seed {seed} ({len(nums)} games of it are "
                           f"stored{on}, seeds {some}, ...; `unmatched-sim replay {run_dir} --list --matchup "
                           f"{matchup}{bf}` lists them)", "--seed")
        n = int(hit[0])
    return StoredGame(n, total, False, _stored_rows(ix, [n], _DUEL_COLUMNS)[0], manifest)


def _battlefield_key(battlefield: str) -> str:
    """``--battlefield`` as a key (``resolve_battlefield``: any case, the display name); a
    name no installed battlefield fits is kept as written (the run's own list refuses it)."""
    try:
        return resolve_battlefield(battlefield)
    except BattlefieldError:
        return battlefield


def _battlefield_code(run_dir, ix: dict, battlefield: str) -> int:
    battlefield = _battlefield_key(battlefield)
    if battlefield not in ix["battlefields"]:
        raise RunError(f"{run_dir} has no game on {battlefield!r}; its battlefields: {', '.join(ix['battlefields'])}",
                       "--battlefield")
    return ix["battlefields"].index(battlefield)


def list_games(run_dir, matchup: str | None = None, limit: int | None = 20,
               battlefield: str | None = None) -> tuple[list[StoredGame], int]:
    """The first ``limit`` (None: all) stored games of ``run_dir`` (of ``matchup`` if given,
    as :func:`find_game` reads it; on ``battlefield`` if given) and how many there are in
    all. Raises RunError as :func:`find_game` does, and for a battlefield the run has no
    game on."""
    manifest = _run_folder(run_dir)
    team = manifest.get("settings", {}).get("mode") == "teams"
    if not team:
        ix, total = _nonempty_index(run_dir)
        numbers = (np.arange(total) if matchup is None else
                   _matchup_numbers(ix, _two_sides(matchup, "two sides joined by ','", manifest)))
        if battlefield is not None:
            numbers = numbers[ix["bf"][numbers] == _battlefield_code(run_dir, ix, battlefield)]
        shown = _stored_rows(ix, numbers[:limit], _DUEL_COLUMNS)
        return [StoredGame(int(n), total, False, r, manifest) for n, r in zip(numbers, shown)], len(numbers)
    table = read_game_table(run_dir, columns=_TEAM_COLUMNS)
    if table is None or table.num_rows == 0:
        raise RunError(f"{run_dir} holds no stored game yet", "RUN_DIR")
    keys = TEAM_SORT_KEYS
    sorted_t = table.take(pc.sort_indices(table, sort_keys=[(k, "ascending") for k in keys]))
    numbers = list(range(sorted_t.num_rows))
    if matchup is not None:
        sides = _two_sides(matchup, "two sides joined by ','", manifest)
        a, b = ("+".join(sorted(s.split("+"))) for s in sides)
        cols = (sorted_t.column("team1"), sorted_t.column("team2"))
        mask = pc.or_(pc.and_(pc.equal(cols[0], a), pc.equal(cols[1], b)),
                      pc.and_(pc.equal(cols[0], b), pc.equal(cols[1], a)))
        numbers = pc.indices_nonzero(mask).to_pylist()
    if battlefield is not None:
        bfs = sorted(set(sorted_t.column("battlefield").to_pylist()))
        battlefield = _battlefield_key(battlefield)
        if battlefield not in bfs:
            raise RunError(f"{run_dir} has no game on {battlefield!r}; its battlefields: {', '.join(bfs)}",
                           "--battlefield")
        on = sorted_t.column("battlefield").to_pylist()
        numbers = [n for n in numbers if on[n] == battlefield]
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
    changed = changed_files(game, content)
    if changed:
        raise RunError(f"{game.describe()} cannot be replayed as it was played: {'; '.join(changed)} changed since "
                       "the run (the manifest's fingerprint differs); restore the file to watch it, or play the new "
                       "version with a new run", "RUN_DIR")
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
        fields = ["winner", "turns"] + [f"{h}'s final health (P{k})" for k, h in enumerate(game.heroes, 1)]
        differ = [f"{f} {w} stored, {g} replayed" for f, w, g in zip(fields, want, got) if w != g]
        raise RunError(f"{game.describe()} plays differently now (stored: winner {want[0]}, {want[1]} turns; "
                       f"replayed: winner {got[0]}, {got[1]} turns; differs: {', '.join(differ)}): {why}", "RUN_DIR")
    return rep


def changed_files(game: StoredGame, content) -> list[str]:
    """The hero and battlefield files ``game`` needs whose fingerprint differs from the one
    its run stored (``settings.fingerprint``, :func:`sim.runs.plan.file_fingerprints`), each
    as 'hero KEY's file PATH' or 'battlefield KEY's file PATH'; ``content``: the heroes as
    loaded now (``installed_content`` of the run's homebrew paths). A missing fingerprint (an
    older run) is no change; a file that can no longer be read is one. Empty when the files
    are as the run played them."""
    stored = game.manifest["settings"].get("fingerprint") or {}
    heroes = sorted(h for h in set(game.heroes) if f"hero:{h}" in stored and h in content.specs)
    bfs = [b for b in [game.row["battlefield"]] if f"battlefield:{b}" in stored]
    out = []
    for key in [f"hero:{h}" for h in heroes] + [f"battlefield:{b}" for b in bfs]:
        kind, name = key.split(":", 1)
        try:
            now = file_fingerprints(content, [name] if kind == "hero" else [], [name] if kind != "hero" else [])[key]
        except OSError:
            now = None
        if now != stored[key]:
            path = content.specs[name].path if kind == "hero" else BATTLEFIELD_DIR / f"{name}.toml"
            out.append(f"{kind} {name}'s file {path}")
    return out


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


__all__ = ["StoredGame", "changed_files", "example_games", "find_game", "list_games", "replay_stored", "run_label", "stored_profile",
           "stored_variant_json"]


_INDEX_TEXT = ["p1_hero", "p1_loadout", "p2_hero", "p2_loadout", "battlefield"]
#: games per slice of the index's element-wise passes (bounds their temporary arrays)
_SLICE = 1 << 20


def duel_index(run_dir) -> dict:
    """A compact index of every stored duel of ``run_dir``, read file by file in batches
    (27 bytes a game: 180 MB for a 6.6-million-game run, whose whole table takes over
    3 GB), in the run's game order (:data:`sim.runs.store.SORT_KEYS`).

    Returns a dict of numpy arrays, one entry per game in that order: ``p1``/``p2``
    (int16 codes into ``heroes``, a sorted list of hero keys, so code order is key order),
    ``bf`` (int16 codes into ``battlefields``, sorted keys), ``seed`` (int64), ``winner``
    (int8: 0 the first player, 1 the second, -1 a draw), ``turns`` (int32), ``file``
    (int32, into ``files``) and ``row`` (int32, the game's row in that file); and ``files``
    (list of Path). Empty arrays if no game is stored. Each column read is freed once it is
    in place (``find_game`` and ``list_games`` use it; the report's example games need less:
    :func:`_duel_keys`)."""
    from sim.runs.store import game_files
    files = game_files(run_dir)
    dicts = {c: [] for c in _INDEX_TEXT}
    parts = {c: [] for c in _INDEX_TEXT + ["game_index", "seed", "winner", "turns"]}
    sizes = []      # games of each file: a game's file and row follow from its place in the files' order
    for path in files:
        rows = 0
        for b in pq.ParquetFile(path).iter_batches(batch_size=262_144,
                                                    columns=_INDEX_TEXT + ["game_index", "seed", "winner", "turns"]):
            for c in _INDEX_TEXT:
                d = pc.dictionary_encode(b.column(c))
                dicts[c].append(d.dictionary.to_pylist())
                parts[c].append(d.indices.to_numpy(zero_copy_only=False).astype(np.int16))
            # (a game's index in its cell is below --games' limit of 1,000,000 per pair: int32)
            for c, dt in (("game_index", np.int32), ("seed", np.int64), ("winner", np.int8), ("turns", np.int32)):
                parts[c].append(b.column(c).to_numpy(zero_copy_only=False).astype(dt))
            rows += b.num_rows
        sizes.append(rows)

    def seen(*cols):
        return sorted(set().union(*(set(d) for c in cols for d in dicts[c])))

    def take(c, dt):
        """Column ``c``'s batches as one array; the batches are freed (popped) on return."""
        ps = parts.pop(c)
        return np.concatenate(ps) if ps else np.zeros(0, dt)

    heroes = seen("p1_hero", "p2_hero")
    out, codes = {"files": files, "heroes": heroes, "battlefields": seen("battlefield")}, {}
    for c in _INDEX_TEXT:   # batch-local dictionary codes -> codes into the sorted values of the run
        values = heroes if c.endswith("_hero") else seen(c)
        pos = {v: i for i, v in enumerate(values)}
        codes[c] = (np.concatenate([np.array([pos[v] for v in d], np.int16)[ix] for d, ix in zip(dicts[c], parts[c])])
                    if parts[c] else np.zeros(0, np.int16))
        del parts[c]
    # (the codes of each text column follow its sorted values, so this is SORT_KEYS' order)
    order = np.lexsort((take("game_index", np.int32), codes["battlefield"], codes["p2_loadout"], codes["p2_hero"],
                        codes["p1_loadout"], codes["p1_hero"]))
    del codes["p1_loadout"], codes["p2_loadout"]
    for c, name in (("p1_hero", "p1"), ("p2_hero", "p2"), ("battlefield", "bf")):
        out[name] = codes.pop(c)[order]
    for c, dt in (("seed", np.int64), ("winner", np.int8), ("turns", np.int32)):
        out[c] = take(c, dt)[order]
    # each game's place in the files read one after another -> its file and its row there
    # (in slices: no full-length int64 temporaries)
    starts = np.cumsum([0] + sizes, dtype=np.int64)
    out["file"], out["row"] = np.empty(len(order), np.int32), np.empty(len(order), np.int32)
    for s in range(0, len(order), _SLICE):
        o = order[s:s + _SLICE]
        f = np.searchsorted(starts, o, side="right") - 1
        out["file"][s:s + len(o)] = f
        out["row"][s:s + len(o)] = o - starts[f]
    return out


def _duel_keys(run_dir) -> dict:
    """What :func:`example_games` needs of every stored duel of ``run_dir``, in the order the
    files are read (not sorted: 16 bytes a game, 106 MB for a 6.6-million-game run): ``key``
    (int64: the game's place in the run's order, :data:`sim.runs.store.SORT_KEYS`, as one
    number; a smaller key comes first), ``grp`` (int32: ``(p1 * H + p2) * 3 + winner + 1``,
    hero codes into ``heroes``, sorted keys, H of them), ``turns`` (int32); ``starts``
    (int64: the place of each file's first game, and the total at the end), ``files`` and
    ``heroes``. Reads the files twice: the text columns' values first, then the games."""
    from sim.runs.store import game_files
    files = game_files(run_dir)
    seen = {c: set() for c in _INDEX_TEXT}
    top = 0
    for path in files:
        for b in pq.ParquetFile(path).iter_batches(batch_size=262_144, columns=_INDEX_TEXT + ["game_index"]):
            for c in _INDEX_TEXT:
                seen[c].update(pc.unique(b.column(c)).to_pylist())
            top = max(top, int(pc.max(b.column("game_index")).as_py() or 0))
    heroes = sorted(seen["p1_hero"] | seen["p2_hero"])
    values = {c: heroes if c.endswith("_hero") else sorted(seen[c]) for c in _INDEX_TEXT}
    # the key: the text columns' codes (in their values' order) and the game index, in mixed radix
    radix = [len(values[c]) for c in _INDEX_TEXT] + [top + 1]
    if float(np.prod(radix, dtype=np.float64)) >= 2.0 ** 62:
        raise RunError(f"{run_dir}: too many cells to order its games in one 64-bit key", "RUN_DIR")
    parts: dict = {"key": [], "grp": [], "turns": []}
    sizes = []
    H = len(heroes)
    for path in files:
        rows = 0
        for b in pq.ParquetFile(path).iter_batches(batch_size=262_144,
                                                    columns=_INDEX_TEXT + ["game_index", "winner", "turns"]):
            key = np.zeros(b.num_rows, np.int64)
            code = {}
            for c, r in zip(_INDEX_TEXT, radix):
                d = pc.dictionary_encode(b.column(c))
                pos = {v: i for i, v in enumerate(values[c])}
                code[c] = np.array([pos[v] for v in d.dictionary.to_pylist()], np.int64)[
                    d.indices.to_numpy(zero_copy_only=False)]
                key = key * r + code[c]
            parts["key"].append(key * radix[-1] + b.column("game_index").to_numpy(zero_copy_only=False))
            win = b.column("winner").to_numpy(zero_copy_only=False).astype(np.int64)
            parts["grp"].append(((code["p1_hero"] * H + code["p2_hero"]) * 3 + win + 1).astype(np.int32))
            parts["turns"].append(b.column("turns").to_numpy(zero_copy_only=False).astype(np.int32))
            rows += b.num_rows
        sizes.append(rows)
    out = {"files": files, "heroes": heroes, "starts": np.cumsum([0] + sizes, dtype=np.int64)}
    for c, dt in (("key", np.int64), ("grp", np.int32), ("turns", np.int32)):
        ps = parts.pop(c)
        out[c] = np.concatenate(ps) if ps else np.zeros(0, dt)
        del ps
    return out


def _group_length(k: dict, T: int, start: int) -> np.ndarray:
    """``group * T + turns`` (int64) of the games ``start`` .. ``start + _SLICE`` of
    :func:`_duel_keys` ``k`` (lengths below ``T``): the cell of a (group, length) histogram."""
    sl = slice(start, start + _SLICE)
    return k["grp"][sl].astype(np.int64) * T + k["turns"][sl]


def _nonempty_index(run_dir) -> tuple[dict, int]:
    """:func:`duel_index` of ``run_dir`` and its number of games; RunError if it holds none."""
    ix = duel_index(run_dir)
    total = len(ix["p1"])
    if total == 0:
        raise RunError(f"{run_dir} holds no stored game yet", "RUN_DIR")
    return ix, total


def _stored_rows(index: dict, numbers, columns) -> list[dict]:
    """The stored ``columns`` of the games ``numbers`` (places in :func:`duel_index`'s order),
    reading only the files that hold them."""
    numbers = [int(n) for n in numbers]
    rows: dict = {}
    by_file: dict = {}
    for n in numbers:
        by_file.setdefault(int(index["file"][n]), []).append(n)
    for f, ns in by_file.items():   # batch by batch: a whole compacted file is millions of rows
        want = sorted((int(index["row"][n]), n) for n in ns)
        first, k = 0, 0
        for b in pq.ParquetFile(index["files"][f]).iter_batches(batch_size=262_144, columns=columns):
            here = []
            while k < len(want) and want[k][0] < first + b.num_rows:
                here.append(want[k])
                k += 1
            if here:
                for (_, n), row in zip(here, b.take([r - first for r, _ in here]).to_pylist()):
                    rows[n] = row
            first += b.num_rows
            if k == len(want):
                break
    return [rows[n] for n in numbers]


def example_games(run_dir) -> list[dict]:
    """A few stored games of every matchup of a matrix, loadouts or compare run folder, to
    watch: for each pair of different heroes and each seating (who moves first), a game
    the first player won and one it lost, each the one of its kind whose length is nearest
    the median length of its kind (a typical game, not the first). Returns one dict per
    matchup, sorted by hero keys: ``{"heroes": (a, b), "games": {(first, winner):
    StoredGame or None}}`` with ``first`` and ``winner`` hero keys; an empty list if every
    stored game is a mirror (an unfinished run). Raises RunError if ``run_dir`` is not such
    a run folder or holds no game."""
    manifest = _run_folder(run_dir)
    if manifest.get("settings", {}).get("mode") == "teams":
        raise RunError(f"{run_dir} is a team run; its example games are not drawn here", "RUN_DIR")
    k = _duel_keys(run_dir)
    total = len(k["key"])
    if total == 0:
        raise RunError(f"{run_dir} holds no stored game yet", "RUN_DIR")
    # one group per (first player, second player, winner code); in each, the game whose
    # length is nearest the group's median, the first such in the run's order. Found from
    # each group's histogram of lengths, then the games of those lengths: no sort of the run
    H = len(k["heroes"])
    T = int(k["turns"].max()) + 1
    hist = np.zeros(H * H * 3 * T, np.int64)
    for s in range(0, total, _SLICE):
        hist += np.bincount(_group_length(k, T, s), minlength=len(hist))
    hist = hist.reshape(H * H * 3, T)
    heroes_of = np.arange(H * H * 3) // 3
    hist[heroes_of // H == heroes_of % H] = 0      # mirrors have no example
    nearest = np.zeros_like(hist, dtype=bool)      # (group, length): a length nearest the group's median
    groups = np.flatnonzero(hist.sum(axis=1))
    if len(groups) == 0:    # only mirrors stored: no pair of different heroes to show
        return []
    for g in groups:
        cum = np.cumsum(hist[g])
        n = int(cum[-1])
        # the median as numpy's of the sorted lengths: the mean of the two middle ones
        med = (np.searchsorted(cum, (n - 1) // 2, side="right") + np.searchsorted(cum, n // 2, side="right")) / 2
        lengths = np.flatnonzero(hist[g])
        dist = np.abs(lengths - med)
        nearest[g, lengths[dist == dist.min()]] = True
    nearest = nearest.reshape(-1)
    hits = np.concatenate([s + np.flatnonzero(nearest[_group_length(k, T, s)])
                           for s in range(0, total, _SLICE)])
    # of each group's games of a nearest length, the first in the run's order (smallest key)
    hits = hits[np.lexsort((k["key"][hits], k["grp"][hits]))]
    first = np.r_[True, k["grp"][hits][1:] != k["grp"][hits][:-1]]
    at = hits[first]                               # places in the files' order
    picks = k["key"][at]
    # a game's number: the games whose key is smaller (counted slice by slice)
    order = np.argsort(picks)
    below = np.zeros(len(picks) + 1, np.int64)
    for s in range(0, total, _SLICE):
        below += np.bincount(np.searchsorted(picks[order], k["key"][s:s + _SLICE], side="right"),
                             minlength=len(picks) + 1)
    number = np.empty(len(picks), np.int64)
    number[order] = np.cumsum(below)[:len(picks)]
    pick_of = dict(zip(k["grp"][at].tolist(), number.tolist()))
    starts = k["starts"]
    f = np.searchsorted(starts, at, side="right") - 1
    ix = {"files": k["files"], "file": dict(zip(number.tolist(), f.tolist())),
          "row": dict(zip(number.tolist(), (at - starts[f]).tolist()))}
    names = k["heroes"]
    pairs = sorted({(min(a, b), max(a, b)) for a, b in zip((groups // 3 // H).tolist(), (groups // 3 % H).tolist())})
    wanted = sorted(pick_of.values())
    stored = dict(zip(wanted, _stored_rows(ix, wanted, _DUEL_COLUMNS)))
    out = []
    for a, b in pairs:
        games = {}
        for fi, se in ((a, b), (b, a)):
            for win, code in ((fi, 0), (se, 1)):
                n = pick_of.get((fi * H + se) * 3 + code + 1)
                games[(names[fi], names[win])] = (None if n is None else
                                                  StoredGame(int(n), total, False, stored[n], manifest))
        out.append({"heroes": (names[a], names[b]), "games": games})
    return out
