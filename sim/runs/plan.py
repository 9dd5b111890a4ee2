"""Planning a run: validate the options, resolve heroes and battlefields, fingerprint the
files that decide the games, and check the run folder (new, empty, or this very run to
resume). Nothing here writes to disk, except that resuming a run cleans its folder (removes
damaged, redundant and orphaned files, under the run's lock: ``RunPlan.clean_and_refresh``)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from sim.content.battlefields import (
    BATTLEFIELD_DIR,
    BattlefieldError,
    list_battlefields,
    load_battlefield,
    resolve_battlefield,
)
from sim.content.compile import RULE_OPTIONS
from sim.content.heroes import HeroFileError
from sim.content.profiles import SEARCH_MODES, get_profile
from sim.content.variants import VariantError
from sim.engine.ai import WEIGHT_NAMES
from sim.play.match import MatchError, installed_content, parse_hero
from sim.runs.cells import plan_chunks
from sim.runs.errors import RunError
from sim.runs.lock import LOCK_FILE, RunLocked, lock_holder, run_lock
from sim.runs.store import (GAMES_DIR, MANIFEST, MANIFEST_BACKUP, ManifestDamaged, file_settings, finished_chunks,
    game_files, read_manifest, settings_digest, stored_state)

DEFAULT_CHUNK_SIZE = 200
DEFAULT_SEED = 1

@dataclass
class RunPlan:
    """A validated run: settings, cells, chunks and the facts the reports need.

    Built by :func:`plan_run` (which writes nothing); played by :func:`execute_run`.
    ``settings`` is the JSON-able dict compared on resume; ``done`` is the set of
    chunk names already stored in ``run_dir`` (games and, with ``spaces``, space
    counters); ``respace``: chunks whose games are stored but whose space counters are
    not (a spaces file was deleted or damaged): they are played again and only their
    spaces file is written. ``spaces``: the run stores space counters (not a team run).
    ``recovered``: the folder's manifest was damaged beyond its backup and this plan,
    whose settings every stored file records, rebuilds it.
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
    respace: set = field(default_factory=set)
    spaces: bool = True
    recovered: bool = False
    skipped: tuple = ()   # hero files left out (sim.content.heroes.BadHeroFile): the command warns

    @property
    def games_total(self) -> int:
        return sum(c.games for c in self.cells)

    @property
    def games_done(self) -> int:
        return sum(ch.n for ch in self.chunks if ch.name in self.done)

    @property
    def games_respace(self) -> int:
        """Games stored whose space counters are missing (played again for them)."""
        return sum(ch.n for ch in self.chunks if ch.name in self.respace)

    @property
    def settings_digest(self) -> str:
        """``sim.runs.store.settings_digest`` of ``settings``: recorded in every stored file."""
        return settings_digest(self.settings)

    def refresh_done(self) -> None:
        """Recompute ``done`` and ``respace`` from the files now stored (read only)."""
        done, no_spaces = stored_state(self.run_dir, self.chunks, self.spaces)
        self.done, self.respace = done - no_spaces, no_spaces

    def clean_and_refresh(self) -> None:
        """Clean the run folder for a resume (``sim.runs.store.finished_chunks``: damaged,
        redundant and orphaned files removed) under the run's lock, then
        :meth:`refresh_done`. Raises ``sim.runs.lock.RunLocked`` if another command holds
        the lock (it is playing this run)."""
        with run_lock(self.run_dir):
            finished_chunks(self.run_dir, self.chunks)
            self.refresh_done()


@dataclass
class RunResult:
    """What :func:`execute_run` did: ``games_played`` this call (games), ``seconds``
    of wall time this call (after the setup), ``games_per_second``, and totals for the
    run folder; ``backend`` describes where the games ran, ``workers`` the worker
    slots, ``busy_seconds`` the time spent inside tasks summed over the workers,
    ``setup_seconds`` the time to start or reach the workers, check them and load the
    engine in this process, and ``tasks`` the worker tasks the games were batched into
    (each stored as one file)."""

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
    tasks: int = 0

    @property
    def overhead(self) -> float:
        """Share of the worker slots' wall time (``seconds`` x ``workers``) not spent
        inside tasks: scheduling, transfers, idle workers at the end, the driver's
        writes when it is the bottleneck (0..1; nan if nothing was played)."""
        if self.workers <= 0 or self.seconds <= 0:
            return float("nan")
        return max(0.0, 1.0 - self.busy_seconds / (self.seconds * self.workers))


def split_keys(values) -> list[str]:
    out = []
    for v in values or ():
        out.extend(p.strip() for p in str(v).split(",") if p.strip())
    return out


def file_sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def engine_fingerprint(package: str = "engine") -> str:
    """Hash of every source file under ``sim/<package>/`` (the engine, or ``"content"``:
    the hero-file compiler), subpackages included: 12 hex digits. A changed engine may
    play different games, so a run cannot be resumed across an engine edit."""
    d = hashlib.sha1()
    here = Path(__file__).resolve().parent.parent / package
    for p in sorted(here.rglob("*.py")):
        d.update(p.relative_to(here).as_posix().encode() + p.read_bytes())
    return d.hexdigest()[:12]


def file_fingerprints(content, hero_keys, bf_keys) -> dict[str, str]:
    """The fingerprints of the hero and battlefield files a run plays, as its manifest stores
    them: ``{"hero:KEY": sha, "battlefield:KEY": sha}`` (:func:`file_sha` of the hero's file
    in ``content``, a ``sim.content.compile.Content``, and of the installed battlefield file).
    Raises KeyError for a hero ``content`` does not hold, OSError for a file that cannot be read."""
    out = {f"hero:{k}": file_sha(content.specs[k].path) for k in hero_keys}
    out.update({f"battlefield:{k}": file_sha(BATTLEFIELD_DIR / f"{k}.toml") for k in bf_keys})
    return out


def package_version() -> str:
    try:
        return version("unmatched-sim")
    except PackageNotFoundError:
        return "unknown"


def resolve_heroes(names, content, option: str = "--heroes") -> dict[str, list[str]]:
    """Hero selection -> {key: [loadouts]}.

    ``names``: hero keys (or their aliases, e.g. ``geralt``, or display names, in any case:
    ``sim.content.compile.Content.resolve_hero``) or ``key@loadout`` strings
    (comma-separated lists allowed); None or empty means every installed hero with all
    its loadouts. A plain key
    takes all of the hero's loadouts; ``key@loadout`` only the named ones. Raises
    RunError listing the valid heroes or loadouts, naming ``option``.
    """
    if isinstance(names, str):
        names = [names]
    if names is not None and len(names) and not split_keys(names):
        raise RunError(f"{option} is empty; give hero keys separated by commas, or leave it out for every hero",
                       option)
    names = split_keys(names)
    if not names:
        return {k: list(content.specs[k].loadouts()) for k in sorted(content.specs)}
    chosen: dict[str, list[str]] = {}
    for name in names:
        try:
            key, lo = parse_hero(name)
        except MatchError as e:
            raise RunError(str(e), option) from None
        try:
            key = content.resolve_hero(key)
        except HeroFileError as e:
            raise RunError(str(e), option) from None
        spec = content.specs[key]
        if lo is None:
            los = list(spec.loadouts())
        else:
            try:
                spec.parse_loadout(lo)
            except HeroFileError as e:
                raise RunError(str(e), option) from None
            los = [lo]
        cur = chosen.setdefault(key, [])
        cur.extend(x for x in los if x not in cur)
    return {k: chosen[k] for k in sorted(chosen)}


def resolve_battlefields(names) -> list[str]:
    """Battlefield keys (comma-separated lists allowed; None = all installed), sorted
    and de-duplicated; each a key, or a name in any form
    ``sim.content.battlefields.resolve_battlefield`` takes (any case, the display name).
    Raises RunError listing the valid keys."""
    valid = list_battlefields()
    if isinstance(names, str):
        names = [names]
    if names is not None and len(names) and not split_keys(names):
        raise RunError("--battlefields is empty; give battlefield keys separated by commas, or leave it out "
                       f"for every battlefield ({', '.join(valid)})", "--battlefields")
    names = split_keys(names)
    if not names:
        return valid
    keys = []
    for n in names:
        try:
            keys.append(resolve_battlefield(n))
        except BattlefieldError:
            raise RunError(f"unknown battlefield {n!r}; valid: {', '.join(valid)}", "--battlefields") from None
    return sorted(set(keys))


def hero_facts(spec) -> dict:
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


def battlefield_facts(bf) -> dict:
    """What the reports draw of a battlefield (``reports.board``): ``name``, ``space_ids``,
    ``xy`` (layout pixels, None unknown), ``edges`` (adjacent pairs ``[i, j]``, ``i < j``,
    one-way paths included), ``one_way`` (``[from, to]``: movement one way only),
    ``starts`` (start spaces 1 and 2), ``passages`` (secret-passage spaces) and ``zones``
    (each space's zone colours, ``"#RRGGBB"``)."""
    n = bf.n_spaces
    edges = [[i, j] for i in range(n) for j in range(i + 1, n) if bf.adj[i, j]]
    one_way = [[i, j] for i in range(n) for j in range(n) if bf.adj[i, j] and bf.move[i, j] and not bf.move[j, i]]
    return {"name": bf.name, "space_ids": list(bf.space_ids),
            "xy": [[None if np.isnan(v) else float(v) for v in row] for row in bf.xy],
            "edges": edges, "one_way": one_way, "starts": [int(s) for s in bf.starts[:2]],
            "passages": [i for i in range(n) if bf.passage[i]],
            "zones": [[bf.zone_colors[z] for z in range(len(bf.zone_names)) if int(bf.zone_mask[i]) >> z & 1]
                      for i in range(n)]}


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
            elif k == "ai_weights" and isinstance(old.get(k), list) and isinstance(new.get(k), list) \
                    and len(old[k]) == len(new[k]):   # name the weights that differ, not two long lists
                diffs = [f"{n} {a:g} -> {b:g}" for n, a, b in zip(WEIGHT_NAMES, old[k], new[k]) if a != b]
                parts.append("AI weights differ: " + ", ".join(diffs[:6]) + (" ..." if len(diffs) > 6 else ""))
            elif k == "variant":
                def name(v):
                    return "none" if not v else f"{v.get('name')!r} ({v.get('file')}, digest {v.get('digest')})"
                parts.append(f"variant: run has {name(old.get(k))}, this command {name(new.get(k))}")
            else:
                parts.append(_setting_change(k, old.get(k), new.get(k)))
    return "; ".join(parts)


def _setting_change(name: str, old, new) -> str:
    """One setting that differs, in words: ``games_per_pair: run has 40, this command 80``; for
    a list or a dict (heroes, battlefields, opponents) the entries only one side has
    (``heroes: only the run has invisible_man, sinbad; only this command has ciri``), then
    the entries both have with other values (``heroes: geralt's loadouts: run has ...``)."""
    if isinstance(old, (list, dict)) and isinstance(new, (list, dict)):
        ks_old = list(old) if isinstance(old, dict) else [_plain(v) for v in old]
        ks_new = list(new) if isinstance(new, dict) else [_plain(v) for v in new]
        gone, added = [x for x in ks_old if x not in ks_new], [x for x in ks_new if x not in ks_old]
        what = ([f"only the run has {_short(', '.join(gone))}"] if gone else []) + \
               ([f"only this command has {_short(', '.join(added))}"] if added else [])
        if isinstance(old, dict) and isinstance(new, dict):
            what += [f"{x}: run has {_plain(old[x])}, this command {_plain(new[x])}"
                     for x in ks_old if x in new and old[x] != new[x]][:3]
        if not what:        # the same entries in another order
            what = ["the same entries in another order"]
        return f"{name}: " + "; ".join(what)
    return f"{name}: run has {_plain(old)}, this command {_plain(new)}"


def _plain(value) -> str:
    """A setting's value for a message: a number or text as it is, a list comma-separated,
    ``none`` for a missing one; anything else as short JSON."""
    if value is None:
        return "none"
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return _short(", ".join(str(v) for v in value) or "none")
    return _short(json.dumps(value))


def _short(text: str, limit: int = 60) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis (a setting's long list in a message)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."



def check_common(games, chunk_size, seed, ai, extra_heroes, variant):
    """Validate the options every run takes; returns (profile, extra paths, content)."""
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


def load_battlefields(battlefields):
    bf_keys = resolve_battlefields(battlefields)
    bfs = {k: load_battlefield(k) for k in bf_keys}
    for k, bf in bfs.items():
        if bf.starts[0] < 0 or bf.starts[1] < 0:
            raise RunError(f"battlefield {k!r} has no start spaces 1 and 2", "--battlefields")
    return bf_keys, bfs


def finish_plan(out, settings: dict, cells, hero_keys, bf_keys, bfs, ai, profile, seed, chunk_size, content,
                 extra, variant) -> RunPlan:
    """Complete ``settings`` (AI, seed, rules, fingerprints, variant), chunk the cells and
    check the run folder (new, empty, or this very run to resume)."""
    fingerprint = {"engine": engine_fingerprint(), "compiler": engine_fingerprint("content")}
    fingerprint.update(file_fingerprints(content, hero_keys, bf_keys))
    settings = dict(settings)
    settings.update({
        # an installed profile by its own name (``--ai Standard`` is the run of ``--ai standard``)
        "ai": profile.name if str(ai).casefold() == profile.name else str(ai), "ai_mode": profile.mode_name, "ai_weights": list(profile.weights),
        "seed": int(seed), "chunk_size": int(chunk_size),
        "rules": {name: default for name, (_, default, _) in RULE_OPTIONS.items()},
        "fingerprint": fingerprint,
    })
    if profile.hero_weights:   # (a profile with weights of a hero's own: part of what the run played)
        settings["ai_hero_weights"] = {k: list(w) for k, w in profile.hero_weights}
    if variant is not None:
        settings["variant"] = variant.settings()
    chunks = plan_chunks(cells, int(chunk_size))

    run_dir = Path(out)
    recovered = False
    if run_dir.exists():
        if not run_dir.is_dir():
            raise RunError(f"{run_dir} is a file, not a folder; choose another --out", "--out")
        holder = lock_holder(run_dir)
        if holder is not None:
            raise RunLocked(run_dir, holder)
        if (run_dir / MANIFEST).exists() or (run_dir / MANIFEST_BACKUP).exists():
            try:
                old = read_manifest(run_dir)
            except ManifestDamaged as e:
                _check_recoverable(run_dir, settings, e)
                old, recovered = {"settings": settings}, True
            except RunError as e:
                if "this version reads format" in str(e):     # an older run folder: say so, not "not a run"
                    raise RunError(str(e), "--out") from None
                raise RunError(f"{run_dir} holds a {MANIFEST} that is not an unmatched-sim run's; "
                               "choose another --out", "--out") from None
            old_settings = old.get("settings") or {}
            if old_settings.get("mode", "matrix") != settings.get("mode", "matrix"):
                raise RunError(f"{run_dir}: {_describe_diff(old_settings, settings)}", "--out")
            if old_settings != settings:
                raise RunError(f"{run_dir} holds a run with different settings ({_describe_diff(old_settings, settings)}); "
                               "rerun with the same options to resume it, or choose another --out", "--out")
        elif any(p.name != LOCK_FILE for p in run_dir.iterdir()):
            raise RunError(f"{run_dir} is a non-empty folder that is not a matrix run folder; "
                           "choose a new or empty --out folder", "--out")
    hero_info = {k: hero_facts(content.specs[k]) for k in hero_keys}
    bf_info = {k: battlefield_facts(bf) for k, bf in bfs.items()}
    plan = RunPlan(run_dir, settings, cells, chunks, hero_info, bf_info, extra,
                   variant=variant.to_json() if variant is not None else "",
                   spaces=settings.get("mode") != "teams", recovered=recovered,
                   skipped=tuple(getattr(content, "skipped", ())))
    if run_dir.is_dir() and ((run_dir / MANIFEST).exists() or (run_dir / MANIFEST_BACKUP).exists()):
        plan.clean_and_refresh()
    return plan


def _check_recoverable(run_dir: Path, settings: dict, err: ManifestDamaged) -> None:
    """A run folder whose manifest and backup are damaged is resumed (and its manifest
    rebuilt) only when every stored games file records the settings of this command;
    else RunError (``--out``) saying why not."""
    files = game_files(run_dir)
    digests = {file_settings(p) for p in files}
    want = settings_digest(settings)
    if files and digests == {want}:
        return
    if not files and not any((run_dir / GAMES_DIR).glob("*.parquet")):
        return        # nothing stored yet: the run starts again
    why = ("its games files were played by an older version, which did not record the settings"
           if None in digests else "its games files were played with other settings than this command's")
    raise RunError(f"{err}; {why}, so this command cannot tell whether they belong to it: "
                   "choose another --out (or restore manifest.json)", "--out") from None


#: Games one worker process plays per second, by AI mode: this project's figures on a 2-core
#: machine shared with other work (``unmatched-sim bench``), for a first estimate before a run
#: starts (the progress bar then measures). The expert's is for its default budget (search_samples
#: 8 x search_candidates 4, horizon 1) and scales inversely with samples x candidates x horizon.
GAMES_PER_SECOND = {"standard": 2500.0, "greedy": 8000.0, "random": 6000.0, "expert": 50.0}
#: a team game (four seats) costs about this many duels
TEAM_GAME_COST = 3.0
#: bytes a stored game takes on disk (games and spaces files, compacted)
BYTES_PER_GAME = 40


@dataclass
class Estimate:
    """What a run will cost, before it starts: ``games`` to play, ``seconds`` (wall time
    with ``workers`` worker processes; NaN when the workers are unknown, e.g. a remote dask
    cluster), ``per_worker`` (games per second each), ``disk_bytes`` (on disk when stored)."""

    games: int
    seconds: float
    per_worker: float
    workers: int | None
    disk_bytes: int

    def note(self, ai: str) -> str:
        """One line for stderr: the games, the expected time and disk space, how to stop and resume."""
        when = (f"about {_duration(self.seconds)} with {self.workers} worker process(es) at ~{self.per_worker:,.0f} "
                f"games/s each ({ai} AI; a first estimate, the progress bar measures)"
                if self.workers else f"~{self.per_worker:,.0f} games/s per worker of the cluster ({ai} AI)")
        return (f"note: {self.games:,} games to play: {when}, ~{_size(self.disk_bytes)} on disk. "
                "Ctrl-C stops it; rerunning the same command resumes.")


def estimate_run(plan: RunPlan, workers: int | None) -> Estimate:
    """The :class:`Estimate` of the games of ``plan`` not yet stored, on ``workers`` local
    worker processes (None: unknown)."""
    prof = get_profile(plan.settings["ai"])
    mode = prof.mode_name
    teams = plan.settings.get("mode") == "teams"
    if mode in SEARCH_MODES and teams:
        mode = "standard"          # team games: the expert plays as standard
    rate = GAMES_PER_SECOND.get("expert" if mode in SEARCH_MODES else mode, GAMES_PER_SECOND["standard"])
    if mode in SEARCH_MODES:
        budget = prof.weight("search_samples") * prof.weight("search_candidates") * prof.weight("search_horizon")
        rate *= 32.0 / max(1.0, budget)
    if teams:
        rate /= TEAM_GAME_COST
    games = plan.games_total - plan.games_done
    secs = games / (rate * workers) if workers else float("nan")
    return Estimate(games, secs, rate, workers, games * BYTES_PER_GAME)


def _duration(seconds: float) -> str:
    """``"40 s"``, ``"12 min"``, ``"5 h 30 min"``, ``"3 days 4 h"``."""
    s = int(round(seconds))
    if s < 90:
        return f"{s} s"
    m = s // 60
    if m < 90:
        return f"{m} min"
    h, m = divmod(m, 60)
    if h < 48:
        return f"{h} h {m} min"
    d, h = divmod(h, 24)
    return f"{d} days {h} h"


def _size(n: int) -> str:
    """Bytes as ``"12 MB"`` / ``"2.6 GB"``."""
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{max(1, round(n / 2**20))} MB"
