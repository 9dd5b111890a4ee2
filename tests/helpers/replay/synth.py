"""Hand-made and doctored logs for the tests that show the checker catches broken games."""
from __future__ import annotations

import numpy as np

from sim.engine.layout import (EV_ABILITY, EV_ACTION, EV_ATTACK, EV_DAMAGE, EV_DEFEATED, EV_DEFENSE, EV_DRAW, EV_FIELDS,
    EV_DEFENDER, EV_MOVE, EV_PIN, EV_PLACE, EV_RECOVER, EV_REDIRECT, EV_REMOVE, EV_RETURN, EV_SCHEME, EV_SET_HP, EV_SETUP, EV_SWAP,
    EV_TURN, FIGHTERS_PER_PLAYER, MAX_FIGHTERS)
from sim.play.match import Match

from .board import close_step, flush_pending, move_dist, new_context
from .checks import check_state
from .constants import N_PILES, OK, SX_FIELDS
from .events import replay
from .expect import Expect


def E(*fields):
    """One event row, zero padded."""
    return [int(x) for x in fields] + [0] * (EV_FIELDS - len(fields))


#: hand-made logs number fighters 4 to a player (slot 4 is player 1's hero), as they were written
#: before a player had 5 fighter slots; :meth:`Synth.code` renumbers them to the engine's layout
SYNTH_FPP = 4
#: event -> its columns (1-based, after the code) that hold a fighter slot
_FIGHTER_COLUMNS = {EV_SETUP: (1,), EV_MOVE: (1,), EV_PLACE: (1,), EV_SCHEME: (2,), EV_ATTACK: (1, 2),
                    EV_DEFENSE: (1,), EV_DAMAGE: (1,), EV_RECOVER: (1,), EV_DEFEATED: (1,), EV_RETURN: (1,),
                    EV_SET_HP: (1,), EV_PIN: (1,), EV_REMOVE: (1,), EV_SWAP: (1, 2), EV_ABILITY: (3,),
                    EV_REDIRECT: (1, 2), EV_DEFENDER: (1, 2)}


def renumber(rows):
    """``rows`` (hand-made event rows, fighters numbered ``SYNTH_FPP`` to a player) with every
    fighter slot moved to the engine's numbering (``FIGHTERS_PER_PLAYER`` to a player)."""
    out = []
    for r in rows:
        r = list(r)
        for k in _FIGHTER_COLUMNS.get(r[0], ()):
            if r[k] >= 0:
                r[k] = r[k] // SYNTH_FPP * FIGHTERS_PER_PLAYER + r[k] % SYNTH_FPP
        out.append(r)
    return out


def _replay_code(ex, rows, close=True):
    """Replay a hand-made log (a list of event rows) with fresh context; return the code."""
    log = np.array(rows, np.int64).reshape(-1, EV_FIELDS)
    pos = np.full(MAX_FIGHTERS, -1, np.int64)
    hp = np.zeros(MAX_FIGHTERS, np.int64)
    stats = np.zeros(SX_FIELDS, np.int64)
    info = np.zeros(4, np.int64)
    used = np.zeros((3, MAX_FIGHTERS), np.int64)
    cards = np.zeros((2, N_PILES, ex.nc), np.int64)
    ctx = new_context(ex.nc)
    code = replay(log, 0, len(log), *ex.args(), pos, hp, ctx, used, cards, stats, info)
    if code == OK and close:
        code = close_step(ctx, cards, ex.card_info)
    return code


class Synth:
    """Hand-made logs for one match: card ids by name, geometry of the battlefield."""

    def __init__(self, heroes, bf="marmoreal"):
        self.m = Match(list(heroes), battlefield=bf)
        self.ex = Expect(self.m)
        ex = self.ex
        S = self.S = ex.adj.shape[0]
        self.adj = ex.adj != 0
        self.mv = np.zeros((S, S), bool)
        for u in range(S):
            for v in ex.succ[u]:
                if v >= 0:
                    self.mv[u, v] = True
        self.zone = (ex.zmask[:, None] & ex.zmask[None, :]) != 0

    def c(self, seat, name):
        return self.m.content.card_ids[(self.m.keys[seat], name)]

    def draw(self, seat, *names):
        return [E(EV_DRAW, seat, self.c(seat, n)) for n in names]

    def code(self, rows, close=True):
        """The checker's code for hand-made ``rows`` (fighters numbered 4 to a player: :func:`renumber`)."""
        return _replay_code(self.ex, renumber(rows), close)

    def pick(self, pred, avoid=()):
        for s in range(self.S):
            if s not in avoid and pred(s):
                return s
        raise AssertionError("no space fits")

    def melee(self):
        """x, y adjacent; z a step from y (not x); w a step from x (not y, z)."""
        for x in range(self.S):
            for y in range(self.S):
                if x == y or not self.adj[x, y]:
                    continue
                zs = [z for z in np.flatnonzero(self.mv[y]) if z != x]
                for z in zs:
                    ws = [w for w in np.flatnonzero(self.mv[x]) if w not in (y, z)]
                    if ws:
                        return x, y, int(z), int(ws[0])
        raise AssertionError("no melee position")


def turn(p, n):
    return [E(EV_TURN, p, n)]


def action(p, kind, no=1):
    return [E(EV_ACTION, p, kind, no)]


def find_choke(sy):
    """(a, b, c): c is 2 steps from a via b, but more than 3 steps avoiding b."""
    ex = sy.ex
    pos = np.full(MAX_FIGHTERS, -1, np.int64)
    for a in range(sy.S):
        for b in np.flatnonzero(sy.mv[a]):
            for c in np.flatnonzero(sy.mv[b]):
                if c == a or sy.mv[a, c]:
                    continue
                pos[:] = -1
                pos[FIGHTERS_PER_PLAYER] = b    # (the engine's numbering: player 1's hero)
                if move_dist(ex.succ, pos, 0, a, c, True, False, 3, np.zeros(sy.S, np.bool_)) < 0:
                    return a, int(b), int(c)
    return None


def replay_real(m, game):
    """Replay a real game's log; return (check_state closure, ctx, cards)."""
    ex = Expect(m)
    pos = np.full(MAX_FIGHTERS, -1, np.int64)
    hp = np.zeros(MAX_FIGHTERS, np.int64)
    ctx = new_context(ex.nc)
    info = np.zeros(4, np.int64)
    used = np.zeros((3, MAX_FIGHTERS), np.int64)
    cards = np.zeros((2, N_PILES, ex.nc), np.int64)
    code = replay(game.log, 0, len(game.log), *ex.args(), pos, hp, ctx, used, cards,
                  np.zeros(SX_FIELDS, np.int64), info)
    assert code == OK
    assert close_step(ctx, cards, ex.card_info) == OK
    flush_pending(ctx, cards, ex.bonus_pc)
    S = m.battlefield.n_spaces

    def check(st, pos=pos, hp=hp):
        return check_state(st, S, ex.xf, ex.deck_counts, pos, hp, ctx, cards, info)

    return ex, check, pos, info


def spaces_of(sy, *ids):
    return [sy.m.battlefield.index(s) for s in ids]


def real_game_with(m, pred, seeds=range(1, 400)):
    """The first seed's game whose log satisfies ``pred`` (log -> bool)."""
    for seed in seeds:
        g = m.play(seed)
        if pred(g.log):
            return g
    raise AssertionError(f"no game of {m.keys} has the event looked for")


def log_code(m, log, state=None):
    """Replay a whole (doctored) log; then the state check against ``state`` if given."""
    ex = Expect(m)
    pos = np.full(MAX_FIGHTERS, -1, np.int64)
    hp = np.zeros(MAX_FIGHTERS, np.int64)
    ctx = new_context(ex.nc)
    info = np.zeros(4, np.int64)
    used = np.zeros((3, MAX_FIGHTERS), np.int64)
    cards = np.zeros((2, N_PILES, ex.nc), np.int64)
    code = replay(log, 0, len(log), *ex.args(), pos, hp, ctx, used, cards, np.zeros(SX_FIELDS, np.int64), info)
    if code == OK:
        code = close_step(ctx, cards, ex.card_info)
    if code == OK and state is not None:
        flush_pending(ctx, cards, ex.bonus_pc)
        code = check_state(state, m.battlefield.n_spaces, ex.xf, ex.deck_counts, pos, hp, ctx, cards, info)
    return code


def space_ids(bf, *names):
    return [bf.index(n) for n in names]
