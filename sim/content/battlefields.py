"""Battlefields (maps): TOML data files in ``sim/battlefields`` compiled to numpy arrays.

A battlefield file holds ``name`` (and optional ``box``, ``source``, ``confidence``,
``layout_frame`` strings), ``spaces`` (each ``{id, zones, start?, passage?, x?, y?}``),
``edges`` (two-way ``[a, b]`` pairs), ``one_way`` (``[from, to]`` pairs) and a ``[zones]``
table mapping zone key -> ``"#RRGGBB"`` colour. Zone order in the file gives the bit order
of ``Battlefield.zone_mask``; space order gives the space index.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from .errors import FileError
from .names import name_form

BATTLEFIELD_DIR = Path(__file__).resolve().parent.parent / "battlefields"
UNREACHABLE = 99  # value of ``dist`` between spaces with no movement path
MAX_ZONES = 63  # zone_mask is int64; the sign bit stays unused
MAX_SPACES = 64  # the engine's per-space counters (sim.engine.layout.MAX_SPACES)

_TOP_KEYS = ("name", "box", "source", "confidence", "layout_frame", "zones", "spaces", "edges", "one_way")
_SPACE_KEYS = ("id", "zones", "start", "passage", "x", "y")
_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")


class BattlefieldError(FileError):
    """A battlefield file or name is invalid; the message names the file and the field."""


@dataclass(frozen=True, eq=False)
class Battlefield:
    """A compiled battlefield. ``S`` = number of spaces; all distances are in spaces (steps).

    - ``adj``: (S, S) int8, symmetric. 1 if the two spaces are adjacent for attacks and
      effects: two-way edges and one-way arrows (both directions), never secret passages.
    - ``move``: (S, S) int8, directed. 1 if a fighter may move one step i -> j.
    - ``dist``: (S, S) int32, shortest number of movement steps over ``move``
      (``UNREACHABLE`` = 99 if none; 0 on the diagonal).
    - ``zone_mask``: (S,) int64, bit z set if the space is in zone ``zone_names[z]``.
    - ``starts``: (4,) int32, space index of start 1..4 (entry k is start k+1), -1 if absent.
    - ``passage``: (S,) int8, 1 on secret-passage spaces.
    - ``xy``: (S, 2) float64, layout centre in the ``layout_frame`` pixels (NaN if not given).
    Arrays are read-only.
    """

    key: str
    name: str
    box: str
    source: str
    layout_frame: str
    space_ids: tuple[str, ...]
    zone_names: tuple[str, ...]
    zone_colors: tuple[str, ...]
    adj: np.ndarray
    move: np.ndarray
    dist: np.ndarray
    zone_mask: np.ndarray
    starts: np.ndarray
    passage: np.ndarray
    xy: np.ndarray

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                value.setflags(write=False)

    def __reduce__(self):
        # Rebuild through __init__ so unpickled arrays are read-only again.
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))

    @property
    def n_spaces(self) -> int:
        return len(self.space_ids)

    def index(self, space_id: str) -> int:
        """Index of ``space_id``; raises BattlefieldError listing some valid ids."""
        try:
            return self.space_ids.index(space_id)
        except ValueError:
            raise BattlefieldError(f"{self.key}: unknown space {space_id!r}; valid: {_some(self.space_ids)}") from None

    def zones_of(self, space: int | str) -> tuple[str, ...]:
        """Zone names of a space given by index or id."""
        i = self.index(space) if isinstance(space, str) else space
        return tuple(z for b, z in enumerate(self.zone_names) if int(self.zone_mask[i]) >> b & 1)


def list_battlefields() -> list[str]:
    """Keys of the battlefields shipped in ``BATTLEFIELD_DIR`` (file stems), sorted."""
    return sorted(p.stem for p in BATTLEFIELD_DIR.glob("*.toml"))


def load_battlefield(name_or_path: str | Path) -> Battlefield:
    """Load and compile a battlefield from a name (a key, e.g. ``"kaer_morhen"``, in any
    form :func:`resolve_battlefield` takes: ``"Kaer Morhen"``) or a ``.toml`` path.

    Movement (``move``/``dist``) follows two special rules; everything else uses ``adj``:

    - One-way paths (Witcher – Steel and Silver rules, Kaer Morhen Battlefield: One-Way
      Paths; project decision R20): a ``one_way`` pair [from, to] allows movement
      from -> to only, but the two spaces stay adjacent for attacks and effects, zones are
      unaffected, and placing ignores arrows.
    - Secret passages (Cobble & Fog rules, Secret Passages; project decision R21): moving
      from a passage space to any other passage space costs 1 movement; passages do not
      make spaces adjacent for anything else.

    Raises BattlefieldError for an unknown key (listing the valid keys), a missing file, a
    TOML syntax error, or invalid content (message: ``<file>: <field>: <problem>``).
    """
    path = _resolve(name_or_path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as e:
        raise BattlefieldError(f"{path}: cannot read file: {e}") from e
    except UnicodeDecodeError as e:
        raise BattlefieldError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}); save the file as UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise BattlefieldError(f"{path}: TOML syntax error: {e}") from e
    return _compile(path, data)


def resolve_battlefield(name: str) -> str:
    """The key of the installed battlefield ``name`` names, as heroes are named
    (``Content.resolve_hero``): its key as written; then in any case, with spaces, hyphens
    or underscores alike (:func:`sim.content.names.name_form`); then its display name
    (the file's ``name``). ``Soho``, ``SOHO`` -> ``soho``; ``Baskerville Manor``,
    ``baskerville-manor`` -> ``baskerville_manor``. Raises BattlefieldError naming ``name``
    and listing the valid keys when none fits."""
    valid = list_battlefields()
    text = str(name)
    if text in valid:
        return text
    form = name_form(text)
    fits = [k for k in valid if form and form == name_form(k)]
    if not fits and form:
        for k in valid:
            try:
                shown = tomllib.loads((BATTLEFIELD_DIR / f"{k}.toml").read_text(encoding="utf-8-sig")).get("name")
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue    # a broken file: loading it by its key says why
            if isinstance(shown, str) and name_form(shown) == form:
                fits.append(k)
    if len(fits) == 1:
        return fits[0]
    raise BattlefieldError(f"unknown battlefield {text!r}; valid names: {', '.join(valid)}")


def _resolve(name_or_path: str | Path) -> Path:
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text or "\\" in text:
        return Path(name_or_path)
    return BATTLEFIELD_DIR / f"{resolve_battlefield(text)}.toml"


def _some(choices, n: int = 10) -> str:
    choices = list(choices)
    shown = ", ".join(map(str, choices[:n]))
    return shown + (f", ... ({len(choices)} in all)" if len(choices) > n else "")


def _compile(path: Path, data: dict) -> Battlefield:
    def fail(field: str, problem: str):
        raise BattlefieldError(f"{path}: {field}: {problem}")

    def text(field: str, required: bool = False) -> str:
        value = data.get(field, "")
        if not isinstance(value, str) or (required and not value):
            fail(field, f"must be a {'non-empty ' if required else ''}string, got {value!r}")
        return value

    for k in data:
        if k not in _TOP_KEYS:
            fail(k, f"unknown key; valid keys: {', '.join(_TOP_KEYS)}")
    name = text("name", required=True)

    zones = data.get("zones")
    if not isinstance(zones, dict) or not zones:
        fail("zones", "missing or empty; expected a [zones] table of zone key -> \"#RRGGBB\"")
    if len(zones) > MAX_ZONES:
        fail("zones", f"{len(zones)} zones; at most {MAX_ZONES} are supported")
    for z, color in zones.items():
        if not isinstance(color, str) or not _COLOR.fullmatch(color):
            fail(f"zones.{z}", f"colour must be \"#RRGGBB\", got {color!r}")
    zone_names = tuple(zones)
    zone_bit = {z: b for b, z in enumerate(zone_names)}

    spaces = data.get("spaces")
    if not isinstance(spaces, list) or not spaces:
        fail("spaces", "missing or empty; a battlefield needs at least one space")
    if len(spaces) > MAX_SPACES:
        fail("spaces", f"{len(spaces)} spaces; at most {MAX_SPACES} are supported")
    ids, masks, xy, passage = [], [], [], []
    starts = np.full(4, -1, np.int32)
    for i, sp in enumerate(spaces):
        f = f"spaces[{i}]"
        if not isinstance(sp, dict):
            fail(f, f"must be a table, got {sp!r}")
        for k in sp:
            if k not in _SPACE_KEYS:
                fail(f"{f}.{k}", f"unknown key; valid keys: {', '.join(_SPACE_KEYS)}")
        sid = sp.get("id")
        if not isinstance(sid, str) or not sid:
            fail(f"{f}.id", f"must be a non-empty string, got {sid!r}")
        if sid in ids:
            fail(f"{f}.id", f"duplicate space id {sid!r} (first at spaces[{ids.index(sid)}])")
        zs = sp.get("zones")
        if not isinstance(zs, list) or not zs:
            fail(f"{f}.zones", f"must be a non-empty list of zone names; valid: {_some(zone_names)}")
        mask = 0
        for z in zs:
            if not (isinstance(z, str) and z in zone_bit):
                fail(f"{f}.zones", f"unknown zone {z!r}; valid: {_some(zone_names)}")
            if mask >> zone_bit[z] & 1:
                fail(f"{f}.zones", f"zone {z!r} listed twice")
            mask |= 1 << zone_bit[z]
        start = sp.get("start")
        if start is not None:
            if type(start) is not int or not 1 <= start <= 4:
                fail(f"{f}.start", f"must be 1, 2, 3 or 4, got {start!r}")
            if starts[start - 1] >= 0:
                fail(f"{f}.start", f"start {start} already on {ids[starts[start - 1]]}")
            starts[start - 1] = i
        is_passage = sp.get("passage", False)
        if not isinstance(is_passage, bool):
            fail(f"{f}.passage", f"must be true or false, got {is_passage!r}")
        for c in ("x", "y"):
            v = sp.get(c, float("nan"))
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (c in sp and not np.isfinite(float(v))):
                fail(f"{f}.{c}", f"must be a (finite) number, got {v!r}")
        ids.append(sid)
        masks.append(mask)
        passage.append(is_passage)
        xy.append((sp.get("x", np.nan), sp.get("y", np.nan)))

    for k in (1, 2):
        if starts[k - 1] < 0:
            fail("spaces", f"no space has start = {k}; a battlefield needs start spaces 1 and 2 (3 and 4 for team games)")
    index = {sid: i for i, sid in enumerate(ids)}

    def pairs(field: str, seen: dict) -> list[tuple[int, int]]:
        items = data.get(field, [])
        if not isinstance(items, list):
            fail(field, f"must be a list of [a, b] pairs, got {items!r}")
        out = []
        for k, pair in enumerate(items):
            f = f"{field}[{k}]"
            if not (isinstance(pair, list) and len(pair) == 2):
                fail(f, f"must be a pair of space ids [a, b], got {pair!r}")
            for sid in pair:
                if not isinstance(sid, str) or sid not in index:
                    fail(f, f"unknown space id {sid!r}; valid: {_some(ids)}")
            if pair[0] == pair[1]:
                fail(f, f"self-loop {pair[0]!r} -> {pair[1]!r}")
            key = frozenset(pair)
            if key in seen:
                fail(f, f"duplicate link {pair[0]}-{pair[1]} (already listed as {seen[key]})")
            seen[key] = f
            out.append((index[pair[0]], index[pair[1]]))
        return out

    seen: dict = {}
    edges = pairs("edges", seen)
    one_way = pairs("one_way", seen)

    S = len(ids)
    adj = np.zeros((S, S), np.int8)
    move = np.zeros((S, S), np.int8)
    for a, b in edges:
        adj[a, b] = adj[b, a] = move[a, b] = move[b, a] = 1
    for a, b in one_way:
        adj[a, b] = adj[b, a] = move[a, b] = 1
    p = np.flatnonzero(passage)
    move[np.ix_(p, p)] = 1
    move[p, p] = 0
    dist = _all_pairs_bfs(move)
    # every start reaches every other along the lines (a fresh-user find: with a start left
    # unlinked, whole games were played that no combat could decide)
    for i, a in enumerate(starts):
        for j, b in enumerate(starts):
            if a >= 0 and b >= 0 and a != b and dist[a, b] == UNREACHABLE:
                fail("edges", f"start {j + 1} ({ids[b]}) cannot be reached from start {i + 1} ({ids[a]}) "
                              "along the lines; link it with edges or one_way")

    return Battlefield(
        key=path.stem,
        name=name,
        box=text("box"),
        source=text("source"),
        layout_frame=text("layout_frame"),
        space_ids=tuple(ids),
        zone_names=zone_names,
        zone_colors=tuple(zones.values()),
        adj=adj,
        move=move,
        dist=dist,
        zone_mask=np.array(masks, np.int64),
        starts=starts,
        passage=np.array(passage, np.int8),
        xy=np.array(xy, np.float64),
    )


def _all_pairs_bfs(move: np.ndarray) -> np.ndarray:
    """(S, S) int32 shortest step counts over the directed graph ``move``; UNREACHABLE if none."""
    S = len(move)
    succ = [np.flatnonzero(row) for row in move]
    dist = np.full((S, S), UNREACHABLE, np.int32)
    for s in range(S):
        dist[s, s] = 0
        frontier, d = [s], 0
        while frontier:
            d += 1
            nxt = []
            for u in frontier:
                for v in succ[u]:
                    if dist[s, v] == UNREACHABLE:
                        dist[s, v] = d
                        nxt.append(v)
            frontier = nxt
    return dist
