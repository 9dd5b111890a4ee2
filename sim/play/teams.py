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
  who is not dormant, once per card or ability (``sim.engine.targets.choose_opponent``;
  the standard AI picks by the step: the weaker opposing hero for a discard, an empty
  deck for a draw). Project decision (docs/rules.md): the rules documents are silent; cases
  R48/R64 say only that a dormant player cannot be chosen as an opponent. "Opponents"
  (plural, Blizzard) means every opposing player.
* **Turn cap.** 200 turns in a duel; a team game has the same number of turns per
  player: 400 turns in all (a draw).

Example::

    from sim.play.teams import TeamMatch
    m = TeamMatch(["medusa", "sinbad"], ["king_arthur", "alice"], battlefield="marmoreal")
    g = m.play(seed=1)              # one game with its event log
    print(g.winner_name, g.turns)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.content.heroes import HeroFileError
from sim.content.profiles import seat_controls
from sim.engine import layout as L
from sim.engine.game import (TRES_DEALT0, TRES_FIELDS, TRES_HP0, play_team_game, play_team_games, setup_game,
    team_result_row)
from sim.engine.policy import CTL_EXPLAIN, MODE_RANDOM, new_control
from sim.play.match import GameRecord, Match, MatchError, env_hero_paths, installed_content
from sim.play.narrate import narrate, narrate_explained

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
            try:
                spec = content.specs[content.resolve_hero(key)]
            except HeroFileError:
                spec = None
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


def team_control(team_modes, players: int = 4, explain: int = 0, heroes=None) -> np.ndarray:
    """Control array for the four seats from one AI profile (name, file, AIProfile or
    engine mode) per team: seats 0 and 2 play ``team_modes[0]``, seats 1 and 3
    ``team_modes[1]``. ``players`` does not change the control (see the module doc).
    ``heroes``: the four seats' hero keys, for profiles with weights of a hero's own."""
    a, b = team_modes
    m, w = seat_controls((a, b, a, b), heroes)
    return new_control(m, weights=w, explain=explain)


@dataclass
class TeamGameRecord(GameRecord):
    """One finished team game, as :class:`sim.play.match.GameRecord` with ``match`` a
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
    overrides; ``tables``: prebuilt engine tables (see ``Match``). Raises MatchError on an
    unknown hero, loadout or battlefield, a hero named twice, a battlefield without four
    start spaces, or ``players`` not 3 or 4.
    """

    def __init__(self, team1, team2, battlefield="marmoreal", players: int = 4, rules=None, content=None,
                 tables=None):
        team1, team2 = list(team1), list(team2)
        if len(team1) != 2 or len(team2) != 2:
            raise MatchError("a team game needs two heroes per team")
        if players not in (3, 4):
            raise MatchError(f"a team game has 3 or 4 players, not {players}")
        seats = [team1[0], team2[0], team1[1], team2[1]]
        # a Match per team checks the heroes and loadouts; the tables are built for all four
        content = content or installed_content(env_hero_paths())
        m1 = Match(team1, battlefield, rules=rules, content=content, tables=tables)
        m2 = Match(team2, m1.battlefield, rules=rules, content=content, tables=m1.tables)
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
        ctl = team_control(modes, self.players, explain=explain, heroes=self.keys)
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
        ctl = team_control(modes, self.players, heroes=self.keys)
        res = np.zeros((int(n_games), TRES_FIELDS), np.int64)
        play_team_games(self.tables, ctl, self.rows, int(run_seed), int(matchup), int(first_index), int(n_games), res)
        return res


def narrate_team(game, explained: bool = False) -> list[str]:
    """Narration lines of a :class:`TeamGameRecord` (with the AI's candidates if ``explained``
    and the game was played with ``explain``)."""
    return narrate_explained(game) if explained else narrate(game)
