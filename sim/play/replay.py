"""A game recorded for watching: the board after every event of its log.

:func:`record` plays one duel or team game exactly as ``Match.play`` / ``TeamMatch.play``
do (same setup, same turns, same decisions: the same game, bit for bit), one turn at a
time, keeping a copy of the engine's state after each turn. The event log then gives the
board between those copies: every fighter's space, health and status, each player's hand,
deck size, discard pile, ongoing scheme, fog tokens and hero counters, and the combat in
progress. At the end of every turn the board followed from the events is checked against
the engine's own state (and taken from it, should they ever differ:
:attr:`Replay.mismatches` lists such turns; the tests require none).

Example::

    from sim.play.match import Match
    from sim.play.replay import record
    rep = record(Match(["medusa", "sinbad"], "soho"), seed=3, modes=("standard", "standard"))
    rep.lines[10], rep.space[10], rep.health[10]     # the narration and the board after event 10
    rep.moment(10).hand[0]                           # the first player's hand then (card ids)

The HTML viewer (``reports.replay_html``) and the board figure (``reports.board``) draw a
:class:`Replay`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.engine import layout as L
from sim.engine.codes import PILE_DECK, PILE_DISC, PILE_HAND
from sim.engine.control import EXPLAIN_REC
from sim.engine.game import RES_FIELDS, TRES_FIELDS, TRES_OUT0, result_row, setup_game, team_result_row
from sim.engine.policy import CTL_EXPLAIN, MODE_RANDOM
from sim.engine.rules import take_turn
from sim.engine.search import play_turn
from sim.engine.sigs import A2, CTL, I, LOG, ST, TB, jit
from sim.play.match import GameRecord, Match, _control
from sim.play.narrate import describe_option, event_lines
from sim.play.teams import TeamGameRecord, TeamMatch, team_control

#: events after which the cards of a finished combat or scheme are in the discard pile
#: (the engine moves them there when the action ends, which the log does not mark)
_ACTION_ENDS = (L.EV_ACTION, L.EV_TURN, L.EV_GAME_OVER)


@jit(I(ST, TB, CTL, LOG, A2), entry=True)
def play_turns(st, tb, ctl, log, snaps):
    """Play a set-up game to its end one turn at a time, as ``play_game`` (a duel) and
    ``play_team_game`` (more than two players) do, copying the state ``st`` into row
    ``k`` of ``snaps`` (int64, (rows, STATE_SIZE)) after turn ``k`` (0-based; turns past
    the last row are played but not copied). Returns the number of turns played."""
    n = 0
    team = st[L.G_NPLAYERS] > 2
    while st[L.G_OVER] == 0:
        if team:
            take_turn(st, tb, ctl, log)
        else:
            play_turn(st, tb, ctl, log)
        if n < snaps.shape[0]:
            for k in range(L.STATE_SIZE):
                snaps[n, k] = st[k]
        n += 1
    return n


@dataclass
class Combat:
    """A combat in progress or just resolved: fighters (slots), cards (card ids, -1 none),
    the face-down BOOST card (-1 none) and, once revealed, the final values and the
    combat damage taken (None before)."""

    attacker: int
    defender: int
    attack_card: int
    defense_card: int = -1
    boost_card: int = -1
    attack_value: int | None = None
    defense_value: int | None = None
    damage: int | None = None


@dataclass
class Moment:
    """The board after one event (see :meth:`Replay.moment`).

    ``space``, ``health``, ``status``: (MAX_FIGHTERS,) int16 (space index, -1 off the
    board; health; ``FS_*`` status); ``hand``, ``discard``: per player a tuple of card
    ids (the discard pile oldest first); ``deck``: cards per player's deck; ``ongoing``:
    per player the ongoing scheme's card id or -1; ``fog``: per player the spaces of its
    fog tokens (-1 none); ``counters``: per player the hero counters (Alice's size, a
    form); ``combat``: the combat shown at this moment, or None; ``turn``: the turn
    (1-based, 0 during setup); ``active``: the player whose turn it is."""

    event: int
    turn: int
    active: int
    space: np.ndarray
    health: np.ndarray
    status: np.ndarray
    hand: tuple
    deck: tuple
    discard: tuple
    ongoing: tuple
    fog: tuple
    counters: tuple
    combat: Combat | None


@dataclass
class Replay:
    """A recorded game (:func:`record`): its record and the board after each of its
    ``n`` events.

    ``game``: the :class:`sim.play.match.GameRecord` (a team game's
    :class:`sim.play.teams.TeamGameRecord`), equal to what ``match.play`` returns;
    ``log``: (n, 6) int64 events (``game.log``); ``lines``: the narration line of each
    event ('' for an event the narration does not tell); ``turn``, ``active``: (n,) int32;
    ``space``, ``health``, ``status``: (n, MAX_FIGHTERS) int16; ``deck``, ``ongoing``:
    (n, players) int16; ``fog``: (n, players, N_FOG) int16; ``counters``: (n, players,
    N_COUNTERS) int16; ``hand``, ``discard``: n tuples of one card-id tuple per player;
    ``combat``: n entries of :class:`Combat` or None; ``snapshots``: (turns + 1,
    STATE_SIZE) int64 engine states after setup and after each turn, ``snapshot_at``: the
    log position (events written) of each; ``explain``: event index -> the AI's decisions
    taken just before it (:func:`decisions`); ``mismatches``: turns where the board
    followed from the events differed from the engine's state (empty when all is well).
    """

    match: object
    game: GameRecord
    players: int
    fighters: list
    lines: list
    turn: np.ndarray
    active: np.ndarray
    space: np.ndarray
    health: np.ndarray
    status: np.ndarray
    deck: np.ndarray
    ongoing: np.ndarray
    fog: np.ndarray
    counters: np.ndarray
    hand: list
    discard: list
    combat: list
    snapshots: np.ndarray
    snapshot_at: np.ndarray
    explain: dict = field(default_factory=dict)
    mismatches: list = field(default_factory=list)

    @property
    def log(self) -> np.ndarray:
        """The game's events: (n, 6) int64 rows ``(EV_*, a, b, c, d, e)``."""
        return self.game.log

    @property
    def n_events(self) -> int:
        """Events in the game's log (n)."""
        return len(self.game.log)

    def moment(self, i: int) -> Moment:
        """The board after event ``i`` (0 <= i < n_events; negative counts from the end).
        Raises IndexError outside the game."""
        n = self.n_events
        if not -n <= i < n:
            raise IndexError(f"event {i} is outside the game's {n} events (0..{n - 1})")
        i %= n
        return Moment(i, int(self.turn[i]), int(self.active[i]), self.space[i], self.health[i], self.status[i],
                      self.hand[i], tuple(int(x) for x in self.deck[i]), self.discard[i],
                      tuple(int(x) for x in self.ongoing[i]), tuple(tuple(int(s) for s in f) for f in self.fog[i]),
                      tuple(tuple(int(c) for c in cs) for cs in self.counters[i]), self.combat[i])

    def turn_starts(self) -> list[int]:
        """Index of each turn's EV_TURN event, in order."""
        return [int(i) for i in np.flatnonzero(self.log[:, 0] == L.EV_TURN)]


def decisions(m, explain: np.ndarray | None) -> dict[int, list[dict]]:
    """The AI's recorded decisions (a game played with ``explain``) by the index of the
    event that follows each: ``{event: [{"player", "kind", "options", "samples",
    "candidates": [(option in words, score in points, standard error or None), ...]}]}``;
    empty for ``None``."""
    out: dict[int, list[dict]] = {}
    n = int(explain[0]) if explain is not None and len(explain) else 0
    if not n:
        return out
    recs = explain[1:1 + n * EXPLAIN_REC].reshape(n, EXPLAIN_REC)
    for r in recs:
        pos, kind, p, nopt, shown, samples = (int(x) for x in r[:6])
        cands = [(describe_option(m, kind, int(r[6 + 3 * i])), r[7 + 3 * i] / 1000,
                  r[8 + 3 * i] / 1000 if samples else None) for i in range(shown)]
        out.setdefault(pos, []).append({"player": p, "kind": kind, "options": nopt, "samples": samples,
                                        "candidates": cands})
    return out


def record(match, seed: int, modes=None, explain: bool = False) -> Replay:
    """Play one game of ``match`` (a :class:`sim.play.match.Match` or a
    :class:`sim.play.teams.TeamMatch`) with ``seed`` (0..2**32-1) and ``modes`` (per seat
    of a duel, or per team: AI profiles or engine modes, as ``match.play`` takes them; None:
    random play) and return it as a :class:`Replay`. The game is the one ``match.play(seed,
    modes)`` plays. ``explain``: also record the AI's top candidates and scores before each
    of its decisions (up to 20,000 decisions). Raises ValueError if ``match`` is neither."""
    team = isinstance(match, TeamMatch)
    if not team and not isinstance(match, Match):
        raise ValueError(f"record needs a Match or a TeamMatch, got {type(match).__name__}")
    nplayers = 4 if team else 2
    seed = int(seed) & 0xFFFFFFFF
    modes = modes if modes is not None else (MODE_RANDOM, MODE_RANDOM)
    n_explain = 20000 if explain else 0
    ctl = team_control(modes, match.players, explain=n_explain, heroes=match.keys) if team else \
        _control(modes, explain=n_explain, heroes=match.keys)
    st = np.zeros(L.STATE_SIZE, np.int64)
    log = np.zeros((100000 if team else 50000, L.EV_FIELDS), np.int64)
    setup_game(st, match.tables, ctl, log, match.rows, nplayers, seed)
    snap0 = st.copy()
    cap = int(match.tables.rules[L.R_TURN_CAP]) * nplayers // 2 + 2
    snaps = np.zeros((cap, L.STATE_SIZE), np.int64)
    turns = play_turns(st, match.tables, ctl, log, snaps)
    snaps = np.vstack([snap0[None, :], snaps[:min(turns, cap)]])
    if team:
        res = np.zeros(TRES_FIELDS, np.int64)
        for p in range(4):   # as play_team_game records it: the turn in which each hero fell
            for s in snaps[1:]:
                if s[L.fslot(p * L.FIGHTERS_PER_PLAYER, L.F_STATUS)] == L.FS_DEFEATED:
                    res[TRES_OUT0 + p] = s[L.G_TURN] if s[L.G_OVER] == 0 or s[L.G_REASON] == L.END_TURN_CAP \
                        else s[L.G_TURN] + 1
                    break
        team_result_row(st, res, seed)
        game = TeamGameRecord(match, seed, st, log[: st[L.G_LOGN]].copy(), res)
    else:
        res = np.zeros(RES_FIELDS, np.int64)
        result_row(st, res, seed)
        game = GameRecord(match, seed, st, log[: st[L.G_LOGN]].copy(), res)
    if explain:
        game.explain = ctl[CTL_EXPLAIN:].copy()
    return _follow(match, game, nplayers, snaps)


# ------------------------------------------------------------------ following the log


class _Board:
    """The board followed event by event (see the module doc); ``sync`` takes it from an
    engine state."""

    def __init__(self, st, nplayers, tables):
        self.P = nplayers
        self.space = np.full(L.MAX_FIGHTERS, -1, np.int64)
        self.health = np.array([st[L.fslot(f, L.F_HP)] for f in range(L.MAX_FIGHTERS)], np.int64)
        self.status = np.array([st[L.fslot(f, L.F_STATUS)] for f in range(L.MAX_FIGHTERS)], np.int64)
        self.maxhp = np.array([st[L.fslot(f, L.F_MAXHP)] for f in range(L.MAX_FIGHTERS)], np.int64)
        self.owner = [f // L.FIGHTERS_PER_PLAYER for f in range(L.MAX_FIGHTERS)]
        heroes = [int(st[L.pslot(p, L.P_HERO)]) for p in range(nplayers)]
        self.deck = [int(tables.heroes[h, L.H_DECK_LEN]) for h in heroes]
        self.hand = [[] for _ in range(nplayers)]
        self.disc = [[] for _ in range(nplayers)]
        self.ongoing = [-1] * nplayers
        self.fog = [[-1] * L.N_FOG for _ in range(nplayers)]
        self.counters = [[0] * L.N_COUNTERS for _ in range(nplayers)]
        self.combat: Combat | None = None
        self.pending: list = []     # (player, card) played in the combat or scheme in progress, in push order
        self.scheme: tuple | None = None

    # the cards of a finished combat or scheme go to their players' discard piles
    def flush(self):
        for p, c in self.pending:
            self.disc[p].append(c)
        self.pending = []
        self.scheme = None
        self.combat = None

    def _take(self, pile: list, card: int):
        if card in pile:
            pile.remove(card)

    def apply(self, ev, a, b, c, d, e, nxt):
        if ev in _ACTION_ENDS or (ev == L.EV_DISCARD and c == 1):
            self.flush()
        if ev == L.EV_SETUP:
            self.space[a] = b
        elif ev in (L.EV_MOVE, L.EV_PLACE):
            self.space[a] = c
            self.status[a] = L.FS_IN_PLAY
        elif ev == L.EV_SWAP:
            self.space[a], self.space[b] = self.space[b], self.space[a]
        elif ev in (L.EV_REMOVE, L.EV_DEFEATED):
            self.space[a] = -1
            self.status[a] = L.FS_REMOVED if ev == L.EV_REMOVE else L.FS_DEFEATED
        elif ev == L.EV_RETURN:
            self.space[a] = b
            self.status[a] = L.FS_IN_PLAY
            self.health[a] = self.maxhp[a]
        elif ev in (L.EV_DAMAGE, L.EV_RECOVER):
            self.health[a] = c
        elif ev == L.EV_SET_HP:
            self.health[a] = b
        elif ev == L.EV_DRAW:
            self.deck[a] -= 1
            self.hand[a].append(b)
        elif ev == L.EV_DISCARD:
            if c == 3:           # the top card of the deck
                self.deck[a] -= 1
            else:                # from hand: an effect, the hand limit or a BOOST
                self._take(self.hand[a], b)
            self.disc[a].append(b)
        elif ev == L.EV_ATTACK:
            p = self.owner[a]
            self._take(self.hand[p], c)
            self.pending = [(p, c)]
            self.combat = Combat(a, b, c)
        elif ev == L.EV_BOOST:
            if c == 1 and self.combat is not None:    # face down with the attack
                self._take(self.hand[a], b)
                self.combat.boost_card = b
                self.pending.append((a, b))
        elif ev == L.EV_DEFENSE:
            if b >= 0 and self.combat is not None:
                q = self.owner[a]
                self._take(self.hand[q], b)
                self.combat.defense_card = b
                self.pending.append((q, b))
        elif ev == L.EV_REPLACE:      # a combat card goes back to hand, another is played
            self.hand[a].append(b)
            self._take(self.hand[a], c)
            if self.combat is not None:
                if self.combat.attack_card == b and self.owner[self.combat.attacker] == a:
                    self.combat.attack_card = c
                else:
                    self.combat.defense_card = c
            self.pending = [(p, c if (p, x) == (a, b) else x) for p, x in self.pending]
        elif ev == L.EV_VALUES:
            if self.combat is not None:
                self.combat.attack_value, self.combat.defense_value, self.combat.damage = a, b, c
        elif ev == L.EV_SCHEME:
            self._take(self.hand[a], c)
            self.scheme = (a, c)
            self.pending = [(a, c)]
        elif ev == L.EV_TAKE:
            if d == 2:           # the scheme goes into the deck
                self.deck[a] += 1
                self.pending = [x for x in self.pending if x != (a, b)]
            elif d == 5:         # return_to_hand: the card just resolved goes back to the hand
                self.pending = [x for x in self.pending if x != (a, b)]
                self.hand[a].append(b)
            elif d == 1 or d == 4:   # from the discard pile or the hand onto (4: into) the deck
                self._take(self.disc[a] if c == PILE_DISC else self.hand[a], b)
                self.deck[a] += 1
            else:                # into hand: from the deck (a look, a search, a reveal) or the discard pile
                if c == PILE_DECK:
                    self.deck[a] -= 1
                elif c == PILE_DISC:
                    self._take(self.disc[a], b)
                elif c == PILE_HAND:
                    self._take(self.hand[a], b)
                self.hand[a].append(b)
        elif ev == L.EV_ONGOING:
            if c:
                self.ongoing[a] = b
                self.pending = [x for x in self.pending if x != (a, b)]
            else:
                if not (nxt is not None and nxt[0] == L.EV_ONGOING and nxt[3] == 1 and nxt[1] == a):
                    self.flush()  # the end of a turn (not a new ongoing scheme replacing it)
                self.ongoing[a] = -1
                self.disc[a].append(b)
        elif ev == L.EV_FOG:
            if 0 <= b < L.N_FOG:
                self.fog[a][b] = d
        elif ev == L.EV_COUNTER:
            if 0 <= b < L.N_COUNTERS:
                self.counters[a][b] = c

    def differences(self, st) -> list[str]:
        """What differs from engine state ``st`` (with any finished combat's cards discarded)."""
        out = []
        disc = [list(x) for x in self.disc]
        for p, c in self.pending:
            disc[p].append(c)
        for f in range(L.MAX_FIGHTERS):
            if st[L.fslot(f, L.F_STATUS)] == L.FS_UNUSED:
                continue
            want = (st[L.fslot(f, L.F_SPACE)], st[L.fslot(f, L.F_HP)], st[L.fslot(f, L.F_STATUS)])
            have = (self.space[f], self.health[f], self.status[f])
            if tuple(int(x) for x in want) != tuple(int(x) for x in have):
                out.append(f"fighter {f}: space/health/status {have} in the log, {want} in the engine")
        for p in range(self.P):
            piles = _piles(st, p)
            for name, have, want in (("hand", self.hand[p], piles[PILE_HAND]), ("discard", disc[p], piles[PILE_DISC]),
                                     ("deck size", self.deck[p], len(piles[PILE_DECK])),
                                     ("ongoing", self.ongoing[p], int(st[L.pslot(p, L.P_ONGOING)])),
                                     ("fog", self.fog[p], [int(st[L.pslot(p, L.P_FOG0 + k)]) for k in range(L.N_FOG)]),
                                     ("counters", self.counters[p],
                                      [int(st[L.pslot(p, L.P_COUNTER0 + k)]) for k in range(L.N_COUNTERS)])):
                if have != want:
                    out.append(f"player {p}: {name} {have} in the log, {want} in the engine")
        return out

    def sync(self, st):
        """Take the board from engine state ``st`` (the end of a turn: nothing in progress)."""
        self.flush()
        for f in range(L.MAX_FIGHTERS):
            self.space[f] = st[L.fslot(f, L.F_SPACE)]
            self.health[f] = st[L.fslot(f, L.F_HP)]
            self.status[f] = st[L.fslot(f, L.F_STATUS)]
        for p in range(self.P):
            piles = _piles(st, p)
            self.hand[p], self.disc[p], self.deck[p] = piles[PILE_HAND], piles[PILE_DISC], len(piles[PILE_DECK])
            self.ongoing[p] = int(st[L.pslot(p, L.P_ONGOING)])
            self.fog[p] = [int(st[L.pslot(p, L.P_FOG0 + k)]) for k in range(L.N_FOG)]
            self.counters[p] = [int(st[L.pslot(p, L.P_COUNTER0 + k)]) for k in range(L.N_COUNTERS)]


def _piles(st, p) -> dict[int, list[int]]:
    """Player ``p``'s deck, hand and discard pile in engine state ``st`` (card ids, in pile order)."""
    out = {}
    for pile, off, nslot in ((PILE_DECK, L.OFF_DECK, L.P_DECKN), (PILE_HAND, L.OFF_HAND, L.P_HANDN),
                             (PILE_DISC, L.OFF_DISC, L.P_DISCN)):
        b = off + p * L.MAX_CARDS
        out[pile] = [int(x) for x in st[b:b + int(st[L.pslot(p, nslot)])]]
    return out


def _follow(match, game, nplayers, snaps) -> Replay:
    log = game.log
    n = len(log)
    at = np.array([int(s[L.G_LOGN]) for s in snaps], np.int64)
    board = _Board(snaps[0], nplayers, match.tables)
    F = L.MAX_FIGHTERS
    space = np.zeros((n, F), np.int16)
    health = np.zeros((n, F), np.int16)
    status = np.zeros((n, F), np.int16)
    deck = np.zeros((n, nplayers), np.int16)
    ongoing = np.zeros((n, nplayers), np.int16)
    fog = np.zeros((n, nplayers, L.N_FOG), np.int16)
    counters = np.zeros((n, nplayers, L.N_COUNTERS), np.int16)
    turn = np.zeros(n, np.int32)
    active = np.zeros(n, np.int32)
    hand, disc, combat = [], [], []
    mismatches = []
    sync_at = {int(a): k for k, a in enumerate(at)}
    last_hand = last_disc = None
    t, who = 0, 0
    rows = log.tolist()
    for i, (ev, a, b, c, d, e) in enumerate(rows):
        board.apply(ev, a, b, c, d, e, rows[i + 1] if i + 1 < n else None)
        if ev == L.EV_TURN:
            t, who = b, a
        if i + 1 in sync_at:    # the end of setup or of a turn: check against the engine
            st = snaps[sync_at[i + 1]]
            diff = board.differences(st)
            if diff:
                mismatches.append((t, diff))
                combat_now = board.combat
                board.sync(st)
                board.combat = combat_now
        space[i], health[i], status[i] = board.space, board.health, board.status
        deck[i] = board.deck
        ongoing[i] = board.ongoing
        fog[i] = board.fog
        counters[i] = board.counters
        turn[i], active[i] = t, who
        h = tuple(tuple(x) for x in board.hand)
        last_hand = last_hand if last_hand == h else h      # equal boards share one tuple
        hand.append(last_hand)
        dd = tuple(tuple(x) for x in board.disc)
        last_disc = last_disc if last_disc == dd else dd
        disc.append(last_disc)
        cb = board.combat
        combat.append(None if cb is None else Combat(**vars(cb)))
    lines = [""] * n
    for i, line in event_lines(match, log, game.turns):
        lines[i] = line if not lines[i] else lines[i] + " / " + line
    return Replay(match, game, nplayers, match.fighter_names(), lines, turn, active, space, health, status, deck,
                  ongoing, fog, counters, hand, disc, combat, snaps, at, decisions(match, game.explain), mismatches)
