"""Team games: 2 vs 2 and 3-player games (two heroes per team) on a battlefield with four starts.

Rules (Battle of Legends Vol. 1 rules, "Defeat and ending the game" and "Exhaustion and
team play"; Cobble & Fog rules, "Team Games"; the engine: ``sim.engine``):

* **Seats and teams.** Four seats take turns in the order 1, 2, 3, 4, so the teams
  alternate: seats 1 and 3 are the first team (``A+B``: A in seat 1, B in seat 3), seats 2
  and 4 the second (``C+D``: C in seat 2, D in seat 4). Seat k starts on start space k;
  its sidekicks go on separate spaces in its hero's zone as in a duel. Seat 1 takes the
  first turn. Every seat has its own deck, hand (opening hand 5, hand limit 7),
  discard pile and exhaustion.
* **Three players.** One player controls both heroes (and both heroes' sidekicks) of the
  first team and takes both of its turns (seats 1 and 3); two players play seats 2 and
  4. The engine plays it as the four seats above, each seat keeping its own deck, hand
  and discard pile, with one controller for seats 1 and 3 (:attr:`TeamMatch.controllers`):
  the rules are the same as in a 4-player game, only who makes the choices differs
  (the same AI profile plays both seats of that player). The rules documents do not say
  more; the project reads "controls both heroes" this way.
* **Defeat.** A player whose hero is defeated keeps taking turns while they still have
  a fighter (a sidekick); a player with no fighters left is skipped. A team loses only
  when both its heroes are defeated; if both teams lose their last hero in one action,
  the active player's team wins (as in a duel, docs/rules.md R07).
* **A defeated hero's ability.** What needs the hero on the board stops with it (start-of-
  turn abilities, attack and defense bonuses, the Invisible Man's fog walk); a maneuver
  bonus for every fighter of the player (Sinbad's Voyages) still applies to the sidekicks
  left. The rules documents do not say; this is how the engine plays it.
* **Friends and foes.** Every fighter of the other team is opposing, teammates' fighters
  are friendly: attacks and "opposing fighter" effects never target a teammate, and
  fighters move through friendly fighters (teammates' too) but not through opposing ones.
* **"Your opponent".** In a combat it is the player of the opposing fighter. Outside a
  combat (a scheme, an ability) the player whose effect it is chooses one opposing player
  who is not dormant, once per card or ability (``sim.engine.effects.choose_opponent``;
  the standard AI picks by the step: the weaker opposing hero for a discard, an empty
  deck for a draw). Project decision (docs/rules.md): the rules documents are silent; cases
  R48/R64 say only that a dormant player cannot be chosen as an opponent. "Opponents"
  (plural, Blizzard) means every opposing player.
* **Turn cap.** 200 turns in a duel; a team game has the same number of turns per
  player: 400 turns in all (a draw).

Example::

    from sim.teams import TeamMatch
    m = TeamMatch(["medusa", "sinbad"], ["king_arthur", "alice"], battlefield="marmoreal")
    g = m.play(seed=1)              # one game with its event log
    print(g.winner_name, g.turns)
"""
from __future__ import annotations

import itertools
import json
import time
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.engine import layout as L
from sim.engine.game import (
    TRES_DEALT0, TRES_FIELDS, TRES_HP0, play_team_game, play_team_games,
    setup_game, team_result_row,
)
from sim.engine.policy import CTL_EXPLAIN, MODE_RANDOM, new_control
from sim.match import GameRecord, Match, MatchError, env_hero_paths, installed_content

#: seat (0..3) -> (team, index within the team): seats 0, 2 = team 0; 1, 3 = team 1
SEAT_TEAM = (0, 1, 0, 1)


def split_heroes(text: str, content=None) -> list[str]:
    """Hero names joined by '+' -> the list of names, where a KEY@LOADOUT keeps the '+' of its
    loadout: after 'geralt@silver' the next (choice groups - 1) parts belong to the loadout
    ('geralt@silver+wolf-armor+owl+medusa' -> ['geralt@silver+wolf-armor+owl', 'medusa']).
    ``content``: a compiled content (for each hero's choice groups); installed heroes if None.
    Unknown keys are kept as they are (the caller's lookup reports them)."""
    if content is None:
        content = installed_content(env_hero_paths())
    parts = [p.strip() for p in str(text).split("+")]
    out, i = [], 0
    while i < len(parts):
        t = parts[i]
        n = 1
        if "@" in t:
            key = t.split("@", 1)[0]
            spec = content.specs.get(key) or next((sp for sp in content.specs.values() if key in sp.aliases), None)
            if spec is not None and spec.groups:
                n = len(spec.groups)
        out.append("+".join(parts[i:i + n]))
        i += n
    return out


def parse_team(text: str, content=None) -> list[str]:
    """'A+B' -> ['A', 'B'] (hero keys, each optionally KEY@LOADOUT, whose loadout may hold
    '+', see :func:`split_heroes`); MatchError otherwise."""
    parts = split_heroes(text, content)
    if len(parts) != 2 or not all(parts):
        raise MatchError(f"{text!r} is not a team: write two hero keys joined by '+', e.g. medusa+sinbad "
                         f"(a hero with gear as KEY@LOADOUT, e.g. geralt@silver+wolf-armor+owl+medusa)")
    return parts


def team_control(team_modes, players: int = 4, explain: int = 0) -> np.ndarray:
    """Control array for the four seats from one AI profile (name, file, AIProfile or
    engine mode) per team: seats 0 and 2 play ``team_modes[0]``, seats 1 and 3
    ``team_modes[1]``. ``players`` does not change the control (see the module doc)."""
    from sim.ai_profiles import seat_controls
    a, b = team_modes
    m, w = seat_controls((a, b, a, b))
    return new_control(m, weights=w, explain=explain)


@dataclass
class TeamGameRecord(GameRecord):
    """One finished team game, as :class:`sim.match.GameRecord` with ``match`` a
    :class:`TeamMatch`, ``result`` (TRES_FIELDS,) int64 (``sim.engine.game.TRES_*``) and
    ``winner`` the winning team (0: seats 1 and 3, 1: seats 2 and 4) or -1 for a draw."""

    @property
    def winner_name(self) -> str:
        return "draw" if self.winner < 0 else self.match.team_names[self.winner]


class TeamMatch:
    """Two teams of two heroes on one battlefield with four start spaces.

    ``team1``, ``team2``: two hero keys each (optionally KEY@LOADOUT); ``team1`` takes
    seats 1 and 3 (its first hero moves first), ``team2`` seats 2 and 4.
    ``players``: 4 (each seat its own player) or 3 (one player controls both heroes of
    ``team1``). ``battlefield``: key, file or ``Battlefield``; ``rules``: rules option
    overrides. Raises MatchError on an unknown hero, loadout or battlefield, a hero named
    twice, a battlefield without four start spaces, or ``players`` not 3 or 4.
    """

    def __init__(self, team1, team2, battlefield="marmoreal", players: int = 4, rules=None, content=None):
        team1, team2 = list(team1), list(team2)
        if len(team1) != 2 or len(team2) != 2:
            raise MatchError("a team game needs two heroes per team")
        if players not in (3, 4):
            raise MatchError(f"a team game has 3 or 4 players, not {players}")
        seats = [team1[0], team2[0], team1[1], team2[1]]
        # a Match per team checks the heroes and loadouts; the tables are built for all four
        content = content or installed_content(env_hero_paths())
        m1 = Match(team1, battlefield, rules=rules, content=content)
        m2 = Match(team2, m1.battlefield, rules=rules, content=content)
        self.content = content
        self.battlefield = m1.battlefield
        self.rules = m1.rules
        self.players = players
        self.keys = [m1.keys[0], m2.keys[0], m1.keys[1], m2.keys[1]]
        self.loadouts = [m1.loadouts[0], m2.loadouts[0], m1.loadouts[1], m2.loadouts[1]]
        names = [content.specs[k].name for k in self.keys]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise MatchError(f"{', '.join(dup)} is named twice; a team game needs four different heroes")
        missing = [k + 1 for k in range(4) if self.battlefield.starts[k] < 0]
        if missing:
            raise MatchError(f"battlefield {self.battlefield.key!r} has no start space "
                             f"{', '.join(map(str, missing))}; a team game needs four start spaces")
        self.rows = np.array([m1.rows[0], m2.rows[0], m1.rows[1], m2.rows[1]], np.int64)
        self.tables = m1.tables     # the tables hold every hero file of the content: all four rows index them
        self.seat_inputs = seats

    # ------------------------------------------------------------- names
    @property
    def specs(self):
        return [self.content.specs[k] for k in self.keys]

    @property
    def hero_names(self) -> list[str]:
        """Hero name per seat (0..3, turn order)."""
        return [s.name for s in self.specs]

    @property
    def team_names(self) -> list[str]:
        """'Medusa & Sinbad' per team (team 0: seats 1 and 3; team 1: seats 2 and 4)."""
        h = self.hero_names
        return [f"{h[0]} & {h[2]}", f"{h[1]} & {h[3]}"]

    @property
    def controllers(self) -> list[int]:
        """Player (0-based) who controls each seat: [0, 1, 2, 3], or [0, 1, 0, 2] with 3 players."""
        return [0, 1, 0, 2] if self.players == 3 else [0, 1, 2, 3]

    def fighter_names(self) -> list[str]:
        """Name of every fighter slot (MAX_FIGHTERS), '' for unused slots (see ``Match.fighter_names``)."""
        names = [""] * L.MAX_FIGHTERS
        for p, spec in enumerate(self.specs):
            slot = p * L.FIGHTERS_PER_PLAYER
            names[slot] = spec.name
            k = 1
            for sk in spec.sidekicks:
                for i in range(sk.count):
                    names[slot + k] = sk.name if sk.count == 1 else f"{sk.name} {i + 1}"
                    k += 1
        return names

    def header(self, game) -> str:
        """First narration line: the teams, players, battlefield and seed."""
        h = self.hero_names
        labels = [self.content.label(int(r)) for r in self.rows]
        if self.players == 3:
            who = (f"player 1 controls {h[0]} and {h[2]}; player 2 {h[1]}, player 3 {h[3]}")
        else:
            who = "four players"
        return (f"{self.team_names[0]} ({labels[0]}, {labels[2]}) vs {self.team_names[1]} ({labels[1]}, {labels[3]}) "
                f"on {self.battlefield.name}, seed {game.seed}; {who}. Turn order: "
                + ", ".join(f"{i + 1}. {h[i]}" for i in range(4)) + ".")

    def footer(self, game) -> str:
        """Last narration line: every hero's final health and damage dealt."""
        r = game.result
        return "Final health: " + ", ".join(
            f"{n} {int(r[TRES_HP0 + i])} (dealt {int(r[TRES_DEALT0 + i])})" for i, n in enumerate(self.hero_names)) + "."

    # ------------------------------------------------------------- play
    def play(self, seed: int, modes=(MODE_RANDOM, MODE_RANDOM), log_size: int = 100000,
             explain: int = 0) -> TeamGameRecord:
        """Play one game; ``modes``: one AI profile (or engine mode) per team. Returns its record."""
        seed = int(seed) & 0xFFFFFFFF
        st = np.zeros(L.STATE_SIZE, np.int64)
        log = np.zeros((log_size, L.EV_FIELDS), np.int64)
        ctl = team_control(modes, self.players, explain=explain)
        res = np.zeros(TRES_FIELDS, np.int64)
        setup_game(st, self.tables, ctl, log, self.rows, 4, seed)
        play_team_game(st, self.tables, ctl, log, res)
        team_result_row(st, res, seed)
        rec = TeamGameRecord(self, seed, st, log[: st[L.G_LOGN]].copy(), res)
        if explain:
            rec.explain = ctl[CTL_EXPLAIN:].copy()
        return rec

    def play_many(self, n_games: int, run_seed: int = 0, matchup: int = 0, first_index: int = 0,
                  modes=(MODE_RANDOM, MODE_RANDOM)) -> np.ndarray:
        """Play ``n_games`` fast (no log); return (n_games, TRES_FIELDS) int64 result rows.
        Game i uses seed ``game_seed(run_seed, matchup, first_index + i)``."""
        ctl = team_control(modes, self.players)
        res = np.zeros((int(n_games), TRES_FIELDS), np.int64)
        play_team_games(self.tables, ctl, self.rows, int(run_seed), int(matchup), int(first_index), int(n_games), res)
        return res


def narrate_team(game, explained: bool = False) -> list[str]:
    """Narration lines of a :class:`TeamGameRecord` (with the AI's candidates if ``explained``
    and the game was played with ``explain``)."""
    from sim.narrate import narrate, narrate_explained
    return narrate_explained(game) if explained else narrate(game)




# ==================================================================== team runs
#
# ``unmatched-sim teams``: every pairing of two disjoint hero pairs, stored like a matrix run
# (sim.runner): a run folder with manifest.json and games/part-<chunk>.parquet, written chunk
# by chunk as the games finish, resumable, identical games whatever the workers.


TEAMS_MODE = "teams"
ARRANGEMENTS = 8    # which team moves first x seat order within each team

#: Columns of a team run's per-game table (:func:`read_team_games`). Seat k (1..4) takes the
#: k-th turn of a round; seats 1 and 3 are team 1, seats 2 and 4 team 2.
TEAM_GAME_COLUMNS = {
    "matchup_id": "int64: CRC-32 of the cell identity (0..2**32-1)",
    "game_index": "int64: index of the game within its cell",
    "seed": "int64: the game's seed, game_seed(run seed, matchup_id, game_index)",
    "battlefield": "string: battlefield key",
    **{f"s{k}_hero": f"string: hero key of seat {k}" for k in range(1, 5)},
    **{f"s{k}_loadout": f"string: loadout of seat {k} ('' for none)" for k in range(1, 5)},
    "team1": "string: hero pair of seats 1 and 3, keys sorted and joined by '+'",
    "team2": "string: hero pair of seats 2 and 4",
    "winner": "int8: 1 = team1 won, 2 = team2 won, 0 = draw (turn cap or engine error)",
    "turns": "int32: turns played (every seat's turns together)",
    "end_reason": "string: hero_defeated (a team lost both heroes), turn_cap or error",
    **{f"s{k}_health": f"int16: seat {k}'s hero health at the end" for k in range(1, 5)},
    **{f"s{k}_sidekick_health": f"int16: total health of seat {k}'s sidekicks in play at the end" for k in range(1, 5)},
    **{f"s{k}_dealt": f"int16: damage (health) seat {k}'s attacks and effects dealt to opposing fighters"
       for k in range(1, 5)},
    **{f"s{k}_cards_played": f"int16: cards seat {k} played" for k in range(1, 5)},
    **{f"s{k}_out_turn": f"int16: turn in which seat {k}'s hero was defeated, 0 if it never was" for k in range(1, 5)},
    "decisions": "int32: policy decisions taken in the game",
}


@dataclass(frozen=True)
class TeamCell:
    """One seating of a team pairing on one battlefield: ``games`` games.

    ``seats``: four hero keys in turn order (seats 1..4; seats 1 and 3 are one team);
    ``loadouts``: their loadouts ('' for none)."""

    seats: tuple
    loadouts: tuple
    battlefield: str
    games: int

    @property
    def identity(self) -> str:
        return "teams|" + "|".join(f"{h}@{lo}" for h, lo in zip(self.seats, self.loadouts)) + f"|{self.battlefield}"

    @property
    def matchup_id(self) -> int:
        """Stable 32-bit id: CRC-32 of :attr:`identity`."""
        return zlib.crc32(self.identity.encode("utf-8"))


@dataclass(frozen=True)
class TeamChunk:
    """A batch of ``(cell index, first game, games)`` parts played by one worker task."""

    index: int
    parts: tuple

    @property
    def n(self) -> int:
        return sum(p[2] for p in self.parts)

    @property
    def name(self) -> str:
        h = zlib.crc32(";".join(f"{c}:{a}:{b}" for c, a, b in self.parts).encode())
        return f"t{self.index:06d}-{h:08x}"


def team_pairings(keys) -> list[tuple]:
    """Every unordered pairing of two disjoint hero pairs of ``keys`` (sorted keys), as
    ``((a, b), (c, d))`` with ``a < b``, ``c < d`` and ``(a, b) < (c, d)``: for n heroes
    n(n-1)(n-2)(n-3)/8 pairings (11 heroes: 990)."""
    pairs = list(itertools.combinations(sorted(keys), 2))
    return [(p, q) for i, p in enumerate(pairs) for q in pairs[i + 1:] if not set(p) & set(q)]


def plan_team_cells(heroes: dict, battlefields: list, games: int) -> tuple[list, int]:
    """Cells of a team run and the games per pairing.

    ``heroes``: key -> loadout (one per hero); ``games``: total games (>= 1), spread evenly
    over the pairings and rounded up so that every pairing gets the same number
    (``per = ceil(games / pairings)``). The run's games, pairing after pairing, take the
    seat arrangements (which team moves first, and the order of the two heroes within
    each team: 8 arrangements) in turn, and the battlefields in turn every 8 games, so
    seats and battlefields are balanced over the run (and each pairing's games use
    different arrangements). Raises RunError if fewer than four heroes are given.
    """
    from sim.runner import RunError
    keys = sorted(heroes)
    if len(keys) < 4:
        raise RunError(f"--heroes names {len(keys)} heroes; team games need at least 4", "--heroes")
    pairings = team_pairings(keys)
    per = -(-int(games) // len(pairings))
    cells: dict = {}
    k = 0
    nb = len(battlefields)
    for p, q in pairings:
        for _ in range(per):
            arr = k % ARRANGEMENTS
            bf = battlefields[(k // ARRANGEMENTS) % nb]
            k += 1
            first, second = (p, q) if arr & 1 == 0 else (q, p)
            f = first if arr & 2 == 0 else first[::-1]
            s = second if arr & 4 == 0 else second[::-1]
            seats = (f[0], s[0], f[1], s[1])
            key = (seats, bf)
            cells[key] = cells.get(key, 0) + 1
    out = [TeamCell(seats, tuple(heroes[h] for h in seats), bf, n) for (seats, bf), n in cells.items()]
    seen = {}
    for c in out:
        if c.matchup_id in seen:
            raise RunError(f"cells {seen[c.matchup_id]} and {c.identity} have the same matchup id; rename a hero key")
        seen[c.matchup_id] = c.identity
    return out, per


def plan_team_chunks(cells: list, chunk_size: int) -> list:
    """Batch the cells' games, in cell order, into chunks of at most ``chunk_size`` games."""
    chunks, parts, n = [], [], 0
    for ci, c in enumerate(cells):
        first = 0
        while first < c.games:
            take = min(c.games - first, chunk_size - n)
            parts.append((ci, first, take))
            first += take
            n += take
            if n >= chunk_size:
                chunks.append(TeamChunk(len(chunks), tuple(parts)))
                parts, n = [], 0
    if parts:
        chunks.append(TeamChunk(len(chunks), tuple(parts)))
    return chunks


def plan_teams(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = 1,
               chunk_size: int = 200, extra_heroes=()):
    """Validate a team run and plan it, without writing anything.

    ``out``: run folder (new, empty, or this very run to resume); ``games``: total games
    (>= 1; rounded up to a multiple of the pairings, see :func:`plan_team_cells`);
    ``heroes``: keys or KEY@LOADOUT (None = every installed hero; a hero with gear plays
    its first loadout unless one is named); ``battlefields``: keys (None = every installed
    one; each needs four start spaces); ``ai``: AI profile of both teams. Returns a
    ``sim.runner.RunPlan`` whose cells are :class:`TeamCell` and chunks :class:`TeamChunk`.
    Raises ``sim.runner.RunError`` (``.param`` names the option) on bad input.
    """
    from sim.runner import RunError, _battlefield_info, _check_common, _finish_plan, finished_chunks, resolve_battlefields
    from sim.content.battlefields import load_battlefield
    profile, extra, content = _check_common(games, chunk_size, seed, ai, extra_heroes, None)
    sel = _resolve_team_heroes(heroes, content)
    bf_keys = resolve_battlefields(battlefields)
    bfs = {k: load_battlefield(k) for k in bf_keys}
    for k, bf in bfs.items():
        if (bf.starts[:4] < 0).any():
            good = [b for b in resolve_battlefields(None) if (load_battlefield(b).starts[:4] >= 0).all()]
            raise RunError(f"battlefield {k!r} has fewer than four start spaces; team games need four: "
                           f"{', '.join(good)}", "--battlefields")
    cells, per = plan_team_cells(sel, bf_keys, int(games))
    settings = {"mode": TEAMS_MODE, "heroes": sel, "battlefields": bf_keys, "games": int(games),
                "games_per_pairing": per, "pairings": len(team_pairings(sel))}
    plan = _finish_plan(out, settings, cells, list(sel), bf_keys, bfs, ai, profile, seed, chunk_size,
                        content, extra, None)
    plan.chunks = plan_team_chunks(cells, int(chunk_size))
    plan.done = finished_chunks(out, plan.chunks)
    plan.battlefield_info = {k: dict(_battlefield_info(bf), starts=[int(s) for s in bf.starts[:4]])
                             for k, bf in bfs.items()}
    return plan


def _resolve_team_heroes(names, content) -> dict:
    """--heroes -> {key: loadout}: each hero once, its first loadout unless KEY@LOADOUT names one."""
    from sim.runner import RunError, _split, resolve_heroes
    raw = _split(names)
    keys = [n.split("@", 1)[0] for n in raw]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise RunError(f"--heroes names {', '.join(dup)} more than once; name each hero once", "--heroes")
    sel = resolve_heroes(names, content)
    return {k: los[0] for k, los in sel.items()}


@lru_cache(maxsize=512)
def _team_match(seats, loadouts, battlefield, extra):
    heroes = [f"{h}@{lo}" if lo else h for h, lo in zip(seats, loadouts)]
    return TeamMatch([heroes[0], heroes[2]], [heroes[1], heroes[3]], battlefield,
                     content=installed_content(extra))


def _team_task(chunk: TeamChunk, cells: dict, run_seed, modes, extra, expect_json=None):
    """Play ``chunk`` on a worker (``cells``: cell index -> TeamCell for its parts):
    ``(name, [(cell index, first, res)], seconds)``."""
    from sim.runner import _check_worker
    t = time.perf_counter()
    if expect_json is not None:
        _check_worker(expect_json)
    out = []
    for ci, first, n in chunk.parts:
        c = cells[ci]
        res = _team_match(c.seats, c.loadouts, c.battlefield, tuple(extra)).play_many(
            n, run_seed, c.matchup_id, first, modes=modes)
        out.append((ci, first, res))
    return chunk.name, out, time.perf_counter() - t


def _team_table(cells, parts):
    import pyarrow as pa

    from sim.engine import game as G
    from sim.runner import END_REASONS
    cols = {k: [] for k in TEAM_GAME_COLUMNS}
    for ci, first, res in parts:
        c = cells[ci]
        n = len(res)
        cols["matchup_id"].append(np.full(n, c.matchup_id, np.int64))
        cols["game_index"].append(np.arange(first, first + n, dtype=np.int64))
        cols["seed"].append((res[:, G.TRES_SEED] & 0xFFFFFFFF).astype(np.int64))
        cols["battlefield"].append(np.array([c.battlefield] * n, dtype=object))
        for k in range(4):
            cols[f"s{k + 1}_hero"].append(np.array([c.seats[k]] * n, dtype=object))
            cols[f"s{k + 1}_loadout"].append(np.array([c.loadouts[k]] * n, dtype=object))
        cols["team1"].append(np.array(["+".join(sorted((c.seats[0], c.seats[2])))] * n, dtype=object))
        cols["team2"].append(np.array(["+".join(sorted((c.seats[1], c.seats[3])))] * n, dtype=object))
        w = res[:, G.TRES_WINNER]
        cols["winner"].append(np.where(w < 0, 0, w + 1).astype(np.int8))
        cols["turns"].append(res[:, G.TRES_TURNS].astype(np.int32))
        cols["end_reason"].append(np.array([END_REASONS.get(int(r), f"code_{int(r)}") for r in res[:, G.TRES_REASON]],
                                           dtype=object))
        for k in range(4):
            cols[f"s{k + 1}_health"].append(res[:, G.TRES_HP0 + k].astype(np.int16))
            cols[f"s{k + 1}_sidekick_health"].append(res[:, G.TRES_SK0 + k].astype(np.int16))
            cols[f"s{k + 1}_dealt"].append(res[:, G.TRES_DEALT0 + k].astype(np.int16))
            cols[f"s{k + 1}_cards_played"].append(res[:, G.TRES_PLAYED0 + k].astype(np.int16))
            cols[f"s{k + 1}_out_turn"].append(res[:, G.TRES_OUT0 + k].astype(np.int16))
        cols["decisions"].append(res[:, G.TRES_DECISIONS].astype(np.int32))
    arrays = {}
    for k, v in cols.items():
        a = np.concatenate(v) if v else np.array([])
        arrays[k] = pa.array(list(a), pa.string()) if a.dtype == object else pa.array(a)
    return pa.table(arrays)


def read_team_games(run_dir):
    """All stored games of a team run folder as a pandas DataFrame (one row per game,
    :data:`TEAM_GAME_COLUMNS`), sorted by seat heroes, battlefield and game index. Raises
    ``sim.runner.RunError`` if ``run_dir`` is not a run folder."""
    import pandas as pd
    import pyarrow.dataset as ds
    from sim.runner import GAMES_DIR, read_manifest
    run_dir = Path(run_dir)
    read_manifest(run_dir)
    files = sorted((run_dir / GAMES_DIR).glob("part-*.parquet"))
    if not files:
        return pd.DataFrame({c: [] for c in TEAM_GAME_COLUMNS})
    df = ds.dataset([str(f) for f in files], format="parquet").to_table().to_pandas()
    keys = ["s1_hero", "s2_hero", "s3_hero", "s4_hero", "battlefield", "game_index"]
    return df.sort_values(keys, kind="stable").reset_index(drop=True)


def execute_teams(plan, backend=None, progress: bool | None = True, after_chunk=None, jobs: int | None = None):
    """Play every chunk of a team run ``plan`` (:func:`plan_teams`) not yet stored and store
    each as it finishes; like ``sim.runner.execute_run`` (backends, resuming, Ctrl-C keeps
    every finished chunk: raises ``RunInterrupted``). Returns a ``sim.runner.RunResult``."""
    from sim.ai_profiles import get_profile
    from sim.backend import Backend
    from sim.runner import GAMES_DIR, _write_parquet, drive_chunks, worker_expectation
    be = Backend.of(backend, jobs)
    prof = get_profile(plan.settings["ai"])
    modes = (prof, prof)
    seed = plan.settings["seed"]
    cells = tuple(plan.cells)
    todo = [ch for ch in plan.chunks if ch.name not in plan.done]
    expect = worker_expectation(plan)
    expect_json = json.dumps(expect, sort_keys=True)

    def warm_up():   # compile (or load) the engine here once, before any chunk
        c = cells[todo[0].parts[0][0]]
        _team_match(c.seats, c.loadouts, c.battlefield, plan.extra_heroes).play_many(1, seed, 0, 0)

    def store(ch, out):
        _write_parquet(_team_table(cells, out[1]), plan.run_dir / GAMES_DIR / f"part-{ch.name}.parquet")

    return drive_chunks(plan, be, expect, plan.games_total, plan.games_done, "teams", warm_up, _team_task,
                        [(ch, {ci: cells[ci] for ci, _, _ in ch.parts}, seed, modes, plan.extra_heroes, expect_json)
                         for ch in todo], store, progress, after_chunk)


def run_teams(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = 1,
              chunk_size: int = 200, extra_heroes=(), backend=None, progress: bool = False, jobs: int | None = None):
    """:func:`plan_teams` then :func:`execute_teams`."""
    plan = plan_teams(out, games, heroes, battlefields, ai, seed, chunk_size, extra_heroes)
    return execute_teams(plan, backend=backend, progress=progress, jobs=jobs)


__all__ = ["SEAT_TEAM", "TEAM_GAME_COLUMNS", "TEAMS_MODE", "TeamCell", "TeamChunk", "TeamGameRecord", "TeamMatch",
           "execute_teams", "narrate_team", "parse_team", "plan_team_cells", "plan_team_chunks", "plan_teams",
           "read_team_games", "run_teams", "team_control", "team_pairings"]
