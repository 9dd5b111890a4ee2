"""Invariants over many random-policy games (Medusa vs Sinbad, every battlefield, both seats).

The games are played by our own numba loop (``setup_game`` then ``take_turn`` until the
game is over) so that the state can be checked after *every* turn, and the event log is
replayed event by event to check every move, placement, damage and attack at the moment it
happens. The expectations come from outside the engine:

* hero files (``heroes/*.toml``, read with ``tomllib``): deck lists and copies, fighter
  health, move and melee/ranged, card BOOST values, which cards move fighters (how far,
  through opposing fighters or not), the maneuver bonus of a hero ability;
* the battlefield's movement graph ``bf.move``, attack adjacency ``bf.adj`` and zones,
  searched by our own frontier expansion (not ``core.reachable``);
* the rules text ("Maneuver and movement", "Combat and damage", "Defeat and ending the
  game"): teams are seats 0/2 vs 1/3, turns alternate, two actions per turn, turn cap.

Checked after every turn (and after setup): card conservation (deck + hand + discard +
ongoing scheme is exactly the hero's 30-card deck, as a multiset of card ids, so no card
of the other hero), no two fighters share a space, health within 0..max, in-play fighters
have health >= 1 and a space, defeated fighters are off the board, the positions and
health replayed from the log equal the state. Checked at every event: every ``EV_MOVE``
has a path of length <= budget over ``bf.move`` that never enters a space held by an
opposing fighter (unless the card says "through"), ends on an empty space other than its
start, and uses the budget the rules give (printed move + BOOST + ability bonus for a
maneuver; the card's "up to" value for a card effect, not from a cancelled card);
placements land on empty spaces; attacks are in range. At the end: every game ends (hero
defeated, or the 200-turn cap as a draw), the winner's hero is alive and the loser's hero
has 0 health. Determinism: replayed seeds give bit-identical logs and states, and the
same results with logging off.
"""
from __future__ import annotations

import time
import tomllib
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from sim.content.battlefields import list_battlefields
from sim.engine.core import PILE_DISC, game_seed
from sim.engine.game import RES_HP0, RES_HP1, RES_REASON, RES_TURNS, RES_WINNER, setup_game
from sim.engine.layout import (
    A_ATTACK, A_MANEUVER, A_SCHEME, END_HERO_DEFEATED, END_TURN_CAP, EV_ACTION, EV_ATTACK,
    EV_BOOST, EV_CANCEL, EV_DAMAGE, EV_DEFEATED, EV_DEFENSE, EV_DISCARD, EV_FIELDS,
    EV_GAME_OVER, EV_MOVE, EV_ONGOING, EV_PLACE, EV_RECOVER, EV_RETURN, EV_SCHEME, EV_SET_HP,
    EV_SETUP, EV_TAKE, EV_TURN, F_HP, F_MAXHP, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER,
    FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, FS_UNUSED, G_LOGN, G_OVER, G_REASON, G_TURN,
    G_WINNER, MAX_CARDS, MAX_FIGHTERS, OFF_DECK, OFF_DISC, OFF_HAND, P_DECKN, P_DISCN,
    P_HANDN, P_ONGOING, R_ACTIONS, R_TURN_CAP, STATE_SIZE, fslot, pslot,
)
from sim.engine.policy import new_control
from sim.engine.rules import take_turn
from sim.match import Match, installed_content


HEROES = ("medusa", "sinbad")
DECK_SIZE = 30
TURN_CAP = 200
RUN_SEED = 20240611
N_GAMES = 10_000          # at least this many games in the slow run
N_GAMES_NOJIT = 48        # plain-Python variant (~30 games/s): 4 per battlefield and seat order
LOG_ROWS = 20_000         # a 200-turn game logs a few thousand events at most

# ------------------------------------------------------------- violation codes
OK = 0
E_PILE_SIZE = 1
E_CARD_FOREIGN = 2
E_CARD_COUNT = 3
E_SHARE_SPACE = 4
E_HEALTH_RANGE = 5
E_IN_PLAY = 6
E_DEFEATED_ON_BOARD = 7
E_STATUS = 8
E_MAXHP = 9
E_POS_MISMATCH = 10
E_HP_MISMATCH = 11
E_BONUS_MISMATCH = 12
E_HERO_DOWN_GAME_ON = 13
E_MOVE_FROM = 14
E_MOVE_SAME = 15
E_MOVE_DEST = 16
E_MOVE_PATH = 17
E_MOVE_THROUGH = 18
E_MOVE_BUDGET = 19
E_MOVE_WHO = 20
E_PLACE = 21
E_SETUP = 22
E_RETURN = 23
E_DAMAGE = 24
E_DEFEAT = 25
E_RECOVER = 26
E_TURN_ORDER = 27
E_ATTACK = 28
E_BOOST = 29
E_LOG_FULL = 30
E_NO_END = 31
E_END_REASON = 32
E_END_CAP = 33
E_END_WINNER = 34
E_END_LOG = 35
E_EVENT = 36

MESSAGES = {
    E_PILE_SIZE: "a pile size is outside 0..MAX_CARDS",
    E_CARD_FOREIGN: "a pile holds a card id that is not in this hero's deck (other hero's card?)",
    E_CARD_COUNT: "cards not conserved: deck+hand+discard+ongoing differs from the hero's 30-card deck",
    E_SHARE_SPACE: "two fighters in play share a space",
    E_HEALTH_RANGE: "a fighter's health is outside 0..max health",
    E_IN_PLAY: "an in-play fighter has health < 1 or no valid space",
    E_DEFEATED_ON_BOARD: "a defeated/removed fighter is still on the board (or has health > 0)",
    E_STATUS: "unexpected fighter status for the slot",
    E_MAXHP: "a fighter's max health differs from its hero file",
    E_POS_MISMATCH: "fighter positions replayed from the log differ from the state",
    E_HP_MISMATCH: "fighter health replayed from the log differs from the state",
    E_BONUS_MISMATCH: "discard pile tracked from the log differs from the state",
    E_HERO_DOWN_GAME_ON: "a hero is defeated but the game goes on",
    E_MOVE_FROM: "EV_MOVE: 'from' is not the fighter's replayed space (or it is off the board)",
    E_MOVE_SAME: "EV_MOVE: destination equals the start",
    E_MOVE_DEST: "EV_MOVE: destination invalid or occupied",
    E_MOVE_PATH: "EV_MOVE: no path within budget avoiding opposing fighters",
    E_MOVE_THROUGH: "EV_MOVE: through=1 without a card that moves through opposing fighters",
    E_MOVE_BUDGET: "EV_MOVE: budget is not the one the rules/cards give",
    E_MOVE_WHO: "EV_MOVE: a fighter moved that may not move now (opponent's in maneuver, or twice)",
    E_PLACE: "EV_PLACE: wrong source or destination occupied/invalid",
    E_SETUP: "EV_SETUP: space invalid/occupied or fighter already placed",
    E_RETURN: "EV_RETURN: fighter was on the board or destination occupied/invalid",
    E_DAMAGE: "EV_DAMAGE: inconsistent damage (off-board target, amount < 1, wrong health after)",
    E_DEFEAT: "EV_DEFEATED missing after health 0, or defeat of a fighter with health",
    E_RECOVER: "EV_RECOVER/EV_SET_HP: inconsistent or above max health",
    E_TURN_ORDER: "turns do not alternate / are not numbered 1, 2, 3, ...",
    E_ATTACK: "EV_ATTACK: attacker/target off board, same team, or target out of range",
    E_BOOST: "EV_BOOST: value differs from the card's printed BOOST",
    E_LOG_FULL: "event log full: test log too small",
    E_NO_END: "game did not end by the turn cap",
    E_END_REASON: "game ended for a reason other than hero defeated / turn cap",
    E_END_CAP: "turn-cap end is inconsistent (turn count, draw, heroes alive)",
    E_END_WINNER: "hero-defeated end is inconsistent (winner's hero not alive or loser's hero health != 0)",
    E_END_LOG: "last event is not EV_GAME_OVER(winner, reason)",
    E_EVENT: "malformed event (fighter/player out of range)",
}

# ------------------------------------------------------------- replay context
CX_TURN = 0        # last EV_TURN number seen
CX_KIND = 1        # current action kind, -1 outside actions (start of turn)
CX_PLAYER = 2      # active player
CX_BOOST = 3       # maneuver BOOST value of the current action
CX_ATK = 4         # attack card of the current combat, -1 none
CX_DEF = 5         # defense card, -1 none
CX_SCHEME = 6      # scheme card of the current action, -1 none
CX_CANCEL0 = 7     # effects of the attack card cancelled
CX_CANCEL1 = 8
CX_DOWN = 9        # fighter whose health just reached 0 (EV_DEFEATED must follow), -1
CX_BONUS0 = 10     # per player: maneuver bonus of the cards in the discard pile (from the log)
CX_NPEND = 12      # cards on their way to the discard pile at the end of the action
CX_PEND = 13       # (player, card) pairs
MAX_PEND = 4
CX_SIZE = CX_PEND + 2 * MAX_PEND

# fighter expectations (from the hero files), per fighter slot
XF_USED = 0
XF_MAXHP = 1
XF_MOVE = 2
XF_RANGED = 3
XF_FIELDS = 4

# card info (from the hero files), per card id
CI_BOOST = 0
CI_MOVEMASK = 1    # bit n: one of the card's effects moves a fighter "up to n"
CI_THROUGH = 2     # 1: a move of the card goes through opposing fighters
CI_FIELDS = 3

# statistics accumulated by the runs
SX_GAMES = 0
SX_TURNS = 1
SX_EVENTS = 2
SX_MOVES = 3
SX_MOVES_MANEUVER = 4
SX_MOVES_CARD = 5
SX_MOVES_THROUGH = 6
SX_THROUGH_NEEDED = 7   # through moves that had no path avoiding opposing fighters
SX_DETOURS = 8          # moves whose shortest legal path is longer than the unobstructed one
SX_PASS_FRIEND = 9      # moves whose only paths within budget pass a friendly fighter
SX_ATTACKS = 10
SX_PLACES = 11          # EV_PLACE + EV_RETURN
SX_DEFEATED_END = 12
SX_CAP_END = 13
SX_WIN0 = 14
SX_WIN1 = 15
SX_STATE_CHECKS = 16
SX_FIELDS = 20

# per-game output
R_CODE = 0
R_TURN = 1          # turn (take_turn calls) when the violation was found
R_EVENT = 2         # log row of the offending event, -1 for a state check
R_WINNER = 3        # G_WINNER
R_REASON = 4
R_TURNS = 5         # take_turn calls
R_HP0 = 6
R_HP1 = 7
R_LOGHASH = 8
R_STHASH = 9
R_SEED = 10
R_DETAIL = 11       # 3 detail values
R_FIELDS = 14


# ============================================================ numba checkers


@njit(cache=True)
def team(f):
    """Team of fighter slot ``f``: players 0 and 2 against 1 and 3 (rules, team play)."""
    return (f // FIGHTERS_PER_PLAYER) % 2


@njit(cache=True)
def move_dist(succ, pos, f, src, dst, avoid, ignore_friends, limit):
    """Fewest steps src -> dst over the movement graph, or -1 if more than ``limit``.

    ``succ``: (S, D) successor lists of ``bf.move`` (-1 padded). Spaces held by fighters
    opposing ``f`` are never entered when ``avoid``; with ``ignore_friends`` spaces held
    by ``f``'s friends are not entered either (for statistics only). Frontier expansion
    one step at a time.
    """
    S = succ.shape[0]
    blocked = np.zeros(S, np.bool_)
    for g in range(MAX_FIGHTERS):
        if g == f or pos[g] < 0:
            continue
        if team(g) != team(f):
            if avoid:
                blocked[pos[g]] = True
        elif ignore_friends:
            blocked[pos[g]] = True
    if src == dst:
        return 0
    seen = np.zeros(S, np.bool_)
    seen[src] = True
    frontier = np.zeros(S, np.bool_)
    frontier[src] = True
    for step in range(1, limit + 1):
        nxt = np.zeros(S, np.bool_)
        grew = False
        for u in range(S):
            if not frontier[u]:
                continue
            for k in range(succ.shape[1]):
                v = succ[u, k]
                if v < 0:
                    break
                if seen[v] or blocked[v]:
                    continue
                seen[v] = True
                nxt[v] = True
                grew = True
        if nxt[dst]:
            return step
        if not grew:
            return -1
        frontier = nxt
    return -1


@njit(cache=True)
def space_free(pos, s, except_f):
    for g in range(MAX_FIGHTERS):
        if g != except_f and pos[g] == s:
            return False
    return True


@njit(cache=True)
def flush_pending(ctx, bonus_pc):
    """Cards played in the action reach the discard pile at its end."""
    for i in range(ctx[CX_NPEND]):
        p = ctx[CX_PEND + 2 * i]
        c = ctx[CX_PEND + 2 * i + 1]
        ctx[CX_BONUS0 + p] += bonus_pc[p, c]
    ctx[CX_NPEND] = 0


@njit(cache=True)
def add_pending(ctx, p, c):
    n = ctx[CX_NPEND]
    if n < MAX_PEND:
        ctx[CX_PEND + 2 * n] = p
        ctx[CX_PEND + 2 * n + 1] = c
        ctx[CX_NPEND] = n + 1


@njit(cache=True)
def new_context():
    ctx = np.zeros(CX_SIZE, np.int64)
    ctx[CX_KIND] = -1
    ctx[CX_PLAYER] = -1
    ctx[CX_ATK] = -1
    ctx[CX_DEF] = -1
    ctx[CX_SCHEME] = -1
    ctx[CX_DOWN] = -1
    return ctx


@njit(cache=True)
def replay(log, i0, i1, succ, adj, zmask, xf, card_info, bonus_pc, pos, hp, ctx, moved, stats, info):
    """Replay events ``log[i0:i1]``, checking each; return a violation code (0 = fine).

    ``pos``/``hp`` (MAX_FIGHTERS,) are updated from EV_SETUP, EV_MOVE, EV_PLACE,
    EV_DEFEATED, EV_RETURN, EV_DAMAGE, EV_RECOVER, EV_SET_HP. On a violation ``info``
    gets (event row, detail a, detail b, detail c).
    """
    S = succ.shape[0]
    nc = card_info.shape[0]
    for i in range(i0, i1):
        ev = log[i, 0]
        a = log[i, 1]
        b = log[i, 2]
        c = log[i, 3]
        d = log[i, 4]
        e = log[i, 5]
        stats[SX_EVENTS] += 1
        info[0] = i
        info[1] = a
        info[2] = b
        info[3] = c
        if ctx[CX_DOWN] >= 0:
            # a fighter at 0 health is defeated and removed from the board at once
            if ev != EV_DEFEATED or a != ctx[CX_DOWN]:
                info[1] = ctx[CX_DOWN]
                return E_DEFEAT
            ctx[CX_DOWN] = -1
            pos[a] = -1
            continue
        if ev == EV_SETUP:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] != -1 or b < 0 or b >= S or not space_free(pos, b, a):
                return E_SETUP
            pos[a] = b
            hp[a] = xf[a, XF_MAXHP]
        elif ev == EV_TURN:
            flush_pending(ctx, bonus_pc)
            if b != ctx[CX_TURN] + 1 or a != (b - 1) % 2:
                return E_TURN_ORDER
            ctx[CX_TURN] = b
            ctx[CX_PLAYER] = a
            ctx[CX_KIND] = -1
            ctx[CX_ATK] = -1
            ctx[CX_DEF] = -1
            ctx[CX_SCHEME] = -1
        elif ev == EV_ACTION:
            flush_pending(ctx, bonus_pc)
            if a != ctx[CX_PLAYER]:
                return E_TURN_ORDER
            ctx[CX_KIND] = b
            ctx[CX_BOOST] = 0
            ctx[CX_ATK] = -1
            ctx[CX_DEF] = -1
            ctx[CX_SCHEME] = -1
            ctx[CX_CANCEL0] = 0
            ctx[CX_CANCEL1] = 0
            moved[:] = 0
        elif ev == EV_BOOST:
            if a < 0 or a > 1 or b < 0 or b >= nc:
                return E_EVENT
            if d != card_info[b, CI_BOOST]:
                return E_BOOST
            if c == 0:
                if ctx[CX_KIND] != A_MANEUVER or a != ctx[CX_PLAYER]:
                    return E_BOOST
                ctx[CX_BOOST] = d
            elif c == 1:
                add_pending(ctx, a, b)      # face-down attack BOOST: discarded after combat
        elif ev == EV_DISCARD:
            if a < 0 or a > 1 or b < 0 or b >= nc:
                return E_EVENT
            ctx[CX_BONUS0 + a] += bonus_pc[a, b]
        elif ev == EV_TAKE:
            if a < 0 or a > 1 or b < 0 or b >= nc:
                return E_EVENT
            if c == PILE_DISC:
                ctx[CX_BONUS0 + a] -= bonus_pc[a, b]
        elif ev == EV_SCHEME:
            if a < 0 or a > 1 or c < 0 or c >= nc:
                return E_EVENT
            ctx[CX_SCHEME] = c
            add_pending(ctx, a, c)
        elif ev == EV_ONGOING:
            if b < 0 or b >= nc:
                return E_EVENT
            if c == 1:
                # the scheme stays in play instead of going to the discard pile
                for k in range(ctx[CX_NPEND]):
                    if ctx[CX_PEND + 2 * k] == a and ctx[CX_PEND + 2 * k + 1] == b:
                        ctx[CX_PEND + 2 * k + 1] = ctx[CX_PEND + 2 * (ctx[CX_NPEND] - 1) + 1]
                        ctx[CX_PEND + 2 * k] = ctx[CX_PEND + 2 * (ctx[CX_NPEND] - 1)]
                        ctx[CX_NPEND] -= 1
                        break
            else:
                ctx[CX_BONUS0 + a] += bonus_pc[a, b]
        elif ev == EV_ATTACK:
            stats[SX_ATTACKS] += 1
            if a < 0 or a >= MAX_FIGHTERS or b < 0 or b >= MAX_FIGHTERS or c < 0 or c >= nc:
                return E_EVENT
            pa = pos[a]
            pt = pos[b]
            if pa < 0 or pt < 0 or team(a) == team(b) or a // FIGHTERS_PER_PLAYER != ctx[CX_PLAYER]:
                return E_ATTACK
            in_range = adj[pa, pt] != 0 or (xf[a, XF_RANGED] != 0 and (zmask[pa] & zmask[pt]) != 0)
            if not in_range:
                return E_ATTACK
            ctx[CX_ATK] = c
            add_pending(ctx, a // FIGHTERS_PER_PLAYER, c)
        elif ev == EV_DEFENSE:
            if b >= nc:
                return E_EVENT
            ctx[CX_DEF] = b
            if b >= 0:
                add_pending(ctx, a // FIGHTERS_PER_PLAYER, b)
        elif ev == EV_CANCEL:
            if c == 1:
                if b == 0:
                    ctx[CX_CANCEL0] = 1
                else:
                    ctx[CX_CANCEL1] = 1
        elif ev == EV_MOVE:
            stats[SX_MOVES] += 1
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            info[3] = d
            if b < 0 or pos[a] != b:
                return E_MOVE_FROM
            if c == b:
                return E_MOVE_SAME
            if c < 0 or c >= S or not space_free(pos, c, a):
                return E_MOVE_DEST
            through = e != 0
            if d < 1 or move_dist(succ, pos, a, b, c, not through, False, d) < 0:
                return E_MOVE_PATH
            # which budget the rules give this move
            if ctx[CX_KIND] == A_MANEUVER:
                stats[SX_MOVES_MANEUVER] += 1
                owner = a // FIGHTERS_PER_PLAYER
                if owner != ctx[CX_PLAYER] or moved[a] != 0:
                    return E_MOVE_WHO
                moved[a] = 1
                if through:
                    return E_MOVE_THROUGH
                if d != xf[a, XF_MOVE] + ctx[CX_BOOST] + ctx[CX_BONUS0 + owner]:
                    info[1] = a
                    info[2] = xf[a, XF_MOVE] + ctx[CX_BOOST] + ctx[CX_BONUS0 + owner]
                    return E_MOVE_BUDGET
            else:
                stats[SX_MOVES_CARD] += 1
                mask = 0
                thr = 0
                if ctx[CX_KIND] == A_SCHEME and ctx[CX_SCHEME] >= 0:
                    mask |= card_info[ctx[CX_SCHEME], CI_MOVEMASK]
                    thr |= card_info[ctx[CX_SCHEME], CI_THROUGH]
                if ctx[CX_KIND] == A_ATTACK:
                    if ctx[CX_ATK] >= 0 and ctx[CX_CANCEL0] == 0:
                        mask |= card_info[ctx[CX_ATK], CI_MOVEMASK]
                        thr |= card_info[ctx[CX_ATK], CI_THROUGH]
                    if ctx[CX_DEF] >= 0 and ctx[CX_CANCEL1] == 0:
                        mask |= card_info[ctx[CX_DEF], CI_MOVEMASK]
                        thr |= card_info[ctx[CX_DEF], CI_THROUGH]
                if d >= 62 or (mask >> d) & 1 == 0:
                    return E_MOVE_BUDGET
                if through and thr == 0:
                    return E_MOVE_THROUGH
            if through:
                stats[SX_MOVES_THROUGH] += 1
                if move_dist(succ, pos, a, b, c, True, False, d) < 0:
                    stats[SX_THROUGH_NEEDED] += 1
            else:
                free = move_dist(succ, pos, a, b, c, False, False, d)
                legal = move_dist(succ, pos, a, b, c, True, False, d)
                if free >= 0 and legal > free:
                    stats[SX_DETOURS] += 1
                if move_dist(succ, pos, a, b, c, True, True, d) < 0:
                    stats[SX_PASS_FRIEND] += 1
            pos[a] = c
        elif ev == EV_PLACE:
            stats[SX_PLACES] += 1
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] != b or c < 0 or c >= S or not space_free(pos, c, a):
                return E_PLACE
            pos[a] = c
        elif ev == EV_RETURN:
            stats[SX_PLACES] += 1
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] != -1 or hp[a] != 0 or b < 0 or b >= S or not space_free(pos, b, a):
                return E_RETURN
            pos[a] = b
            hp[a] = xf[a, XF_MAXHP]
        elif ev == EV_DAMAGE:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0 or b < 1 or c != hp[a] - b or c < 0:
                return E_DAMAGE
            hp[a] = c
            if c == 0:
                ctx[CX_DOWN] = a
        elif ev == EV_DEFEATED:
            if a < 0 or a >= MAX_FIGHTERS:
                return E_EVENT
            return E_DEFEAT       # only valid right after its health reached 0 (handled above)
        elif ev == EV_RECOVER:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0 or b < 1 or c != hp[a] + b or c > xf[a, XF_MAXHP]:
                return E_RECOVER
            hp[a] = c
        elif ev == EV_SET_HP:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0 or b < 1 or b > xf[a, XF_MAXHP]:
                return E_RECOVER
            hp[a] = b
    return OK


@njit(cache=True)
def check_state(st, S, xf, deck_counts, bonus_pc, pos, hp, ctx, info):
    """Check the state between turns against the expectations; return a code (0 = fine)."""
    nc = deck_counts.shape[1]
    info[0] = -1
    for p in range(2):
        cnt = np.zeros(nc, np.int64)
        bonus = 0
        total = 0
        for pile in range(3):
            base = OFF_DECK if pile == 0 else (OFF_HAND if pile == 1 else OFF_DISC)
            nslot = P_DECKN if pile == 0 else (P_HANDN if pile == 1 else P_DISCN)
            n = st[pslot(p, nslot)]
            if n < 0 or n > MAX_CARDS:
                info[1] = p
                info[2] = nslot
                info[3] = n
                return E_PILE_SIZE
            for k in range(n):
                cid = st[base + p * MAX_CARDS + k]
                if cid < 0 or cid >= nc or deck_counts[p, cid] == 0:
                    info[1] = p
                    info[2] = cid
                    info[3] = nslot
                    return E_CARD_FOREIGN
                cnt[cid] += 1
                total += 1
                if pile == 2:
                    bonus += bonus_pc[p, cid]
        og = st[pslot(p, P_ONGOING)]
        if og >= 0:
            if og >= nc or deck_counts[p, og] == 0:
                info[1] = p
                info[2] = og
                info[3] = P_ONGOING
                return E_CARD_FOREIGN
            cnt[og] += 1
            total += 1
        if total != DECK_SIZE:
            info[1] = p
            info[2] = total
            info[3] = -1
            return E_CARD_COUNT
        for cid in range(nc):
            if cnt[cid] != deck_counts[p, cid]:
                info[1] = p
                info[2] = cid
                info[3] = cnt[cid]
                return E_CARD_COUNT
        if bonus != ctx[CX_BONUS0 + p]:
            info[1] = p
            info[2] = bonus
            info[3] = ctx[CX_BONUS0 + p]
            return E_BONUS_MISMATCH
    occ = np.full(S, -1, np.int64)
    for f in range(MAX_FIGHTERS):
        status = st[fslot(f, F_STATUS)]
        sp = st[fslot(f, F_SPACE)]
        h = st[fslot(f, F_HP)]
        info[1] = f
        info[2] = sp
        info[3] = h
        if xf[f, XF_USED] == 0:
            if status != FS_UNUSED:
                return E_STATUS
            continue
        if status != FS_IN_PLAY and status != FS_DEFEATED and status != FS_REMOVED:
            return E_STATUS
        if st[fslot(f, F_MAXHP)] != xf[f, XF_MAXHP]:
            return E_MAXHP
        if h < 0 or h > xf[f, XF_MAXHP]:
            return E_HEALTH_RANGE
        if status == FS_IN_PLAY:
            if h < 1 or sp < 0 or sp >= S:
                return E_IN_PLAY
            if occ[sp] >= 0:
                info[3] = occ[sp]
                return E_SHARE_SPACE
            occ[sp] = f
        else:
            if sp != -1 or (status == FS_DEFEATED and h != 0):
                return E_DEFEATED_ON_BOARD
        expect = sp if status == FS_IN_PLAY else -1
        if pos[f] != expect:
            info[3] = pos[f]
            return E_POS_MISMATCH
        if hp[f] != h:
            info[3] = hp[f]
            return E_HP_MISMATCH
    if st[G_OVER] == 0:
        for p in range(2):
            f = p * FIGHTERS_PER_PLAYER
            if st[fslot(f, F_STATUS)] == FS_DEFEATED or st[fslot(f, F_HP)] == 0:
                info[1] = f
                return E_HERO_DOWN_GAME_ON
    return OK


@njit(cache=True)
def check_final(st, log, turns, info):
    """The game is over for a valid reason, with a consistent winner and health."""
    info[0] = -1
    reason = st[G_REASON]
    w = st[G_WINNER]
    info[1] = reason
    info[2] = w
    info[3] = st[G_TURN]
    if st[G_OVER] != 1:
        return E_NO_END
    hp0 = st[fslot(0, F_HP)]
    hp1 = st[fslot(FIGHTERS_PER_PLAYER, F_HP)]
    s0 = st[fslot(0, F_STATUS)]
    s1 = st[fslot(FIGHTERS_PER_PLAYER, F_STATUS)]
    if reason == END_TURN_CAP:
        if w != -2 or turns != TURN_CAP or st[G_TURN] != TURN_CAP:
            return E_END_CAP
        if hp0 < 1 or hp1 < 1 or s0 == FS_DEFEATED or s1 == FS_DEFEATED:
            return E_END_CAP
    elif reason == END_HERO_DEFEATED:
        if w != 0 and w != 1:
            return E_END_WINNER
        if turns > TURN_CAP or st[G_TURN] != turns - 1:
            return E_END_WINNER
        wf = w * FIGHTERS_PER_PLAYER
        lf = (1 - w) * FIGHTERS_PER_PLAYER
        if st[fslot(wf, F_HP)] <= 0 or st[fslot(wf, F_STATUS)] == FS_DEFEATED:
            return E_END_WINNER
        if st[fslot(lf, F_HP)] != 0 or st[fslot(lf, F_STATUS)] != FS_DEFEATED:
            return E_END_WINNER
    else:
        return E_END_REASON
    n = st[G_LOGN]
    if n < 1 or log[n - 1, 0] != EV_GAME_OVER or log[n - 1, 1] != w or log[n - 1, 2] != reason:
        info[0] = n - 1
        return E_END_LOG
    return OK


@njit(cache=True)
def hash_rows(a):
    """32-bit FNV-1a style hash of a 2-D int64 array (wrap-safe in and out of numba)."""
    h = 2166136261
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            v = a[i, j]
            h = ((h ^ (v & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
            h = ((h ^ ((v >> 32) & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
    return h


@njit(cache=True)
def run_checked(tb, rows, ctl0, run_seed, matchup, first, n, succ, adj, zmask, xf, card_info,
                deck_counts, bonus_pc, out, stats):
    """Play ``n`` games turn by turn, checking after every turn and at every event."""
    S = succ.shape[0]
    st = np.zeros(STATE_SIZE, np.int64)
    log = np.zeros((LOG_ROWS, EV_FIELDS), np.int64)
    info = np.zeros(4, np.int64)
    moved = np.zeros(MAX_FIGHTERS, np.int64)
    for gi in range(n):
        seed = game_seed(run_seed, matchup, first + gi)
        ctl = ctl0.copy()
        setup_game(st, tb, ctl, log, rows, 2, seed)
        pos = np.full(MAX_FIGHTERS, -1, np.int64)
        hp = np.zeros(MAX_FIGHTERS, np.int64)
        ctx = new_context()
        moved[:] = 0
        info[:] = 0
        turns = 0
        code = replay(log, 0, st[G_LOGN], succ, adj, zmask, xf, card_info, bonus_pc, pos, hp, ctx,
                      moved, stats, info)
        if code == OK:
            code = check_state(st, S, xf, deck_counts, bonus_pc, pos, hp, ctx, info)
            stats[SX_STATE_CHECKS] += 1
        while code == OK and st[G_OVER] == 0:
            if turns >= TURN_CAP:
                code = E_NO_END
                break
            i0 = st[G_LOGN]
            take_turn(st, tb, ctl, log)
            turns += 1
            if st[G_LOGN] >= log.shape[0]:
                code = E_LOG_FULL
                break
            code = replay(log, i0, st[G_LOGN], succ, adj, zmask, xf, card_info, bonus_pc, pos, hp,
                          ctx, moved, stats, info)
            if code == OK and ctx[CX_DOWN] >= 0:
                code = E_DEFEAT        # health 0 but never defeated
                info[1] = ctx[CX_DOWN]
            if code == OK:
                flush_pending(ctx, bonus_pc)
                code = check_state(st, S, xf, deck_counts, bonus_pc, pos, hp, ctx, info)
                stats[SX_STATE_CHECKS] += 1
        if code == OK:
            code = check_final(st, log, turns, info)
        out[gi, R_CODE] = code
        out[gi, R_TURN] = turns
        out[gi, R_EVENT] = info[0] if code != OK else -1
        for k in range(3):
            out[gi, R_DETAIL + k] = info[1 + k]
        out[gi, R_WINNER] = st[G_WINNER]
        out[gi, R_REASON] = st[G_REASON]
        out[gi, R_TURNS] = turns
        out[gi, R_HP0] = st[fslot(0, F_HP)]
        out[gi, R_HP1] = st[fslot(FIGHTERS_PER_PLAYER, F_HP)]
        out[gi, R_LOGHASH] = hash_rows(log[: st[G_LOGN]])
        out[gi, R_STHASH] = hash_rows(st.reshape(1, STATE_SIZE))
        out[gi, R_SEED] = seed
        stats[SX_GAMES] += 1
        stats[SX_TURNS] += turns
        if st[G_REASON] == END_HERO_DEFEATED:
            stats[SX_DEFEATED_END] += 1
            if st[G_WINNER] == 0:
                stats[SX_WIN0] += 1
            elif st[G_WINNER] == 1:
                stats[SX_WIN1] += 1
        elif st[G_REASON] == END_TURN_CAP:
            stats[SX_CAP_END] += 1


# ============================================================ expectations from the hero files


def _hero_toml(key):
    return tomllib.loads(Path(installed_content().specs[key].path).read_text())


def _effects(card):
    for window in ("immediately", "during", "after", "effect"):
        yield from card.get(window, [])


class Expect:
    """What the hero files and the battlefield say, as int64 arrays for the checker."""

    def __init__(self, match: Match):
        content = match.content
        nc = len(content.card_names)
        self.xf = np.zeros((MAX_FIGHTERS, XF_FIELDS), np.int64)
        self.card_info = np.zeros((nc, CI_FIELDS), np.int64)
        self.deck_counts = np.zeros((2, nc), np.int64)
        self.bonus_pc = np.zeros((2, nc), np.int64)
        for seat, key in enumerate(match.keys):
            raw = _hero_toml(key)
            slot = seat * FIGHTERS_PER_PLAYER
            fighters = [(raw["hero"], 1)] + [(sk, sk["count"]) for sk in raw.get("sidekicks", [])]
            for fd, count in fighters:
                for _ in range(count):
                    self.xf[slot] = (1, fd["health"], fd["move"], int(fd["attack"] == "ranged"))
                    slot += 1
            bonus_tags = {}
            for ins in raw.get("ability", {}).get("maneuver_bonus", []):
                if ins.get("op") != "add_move" or ins.get("per") != "discard_tag":
                    raise NotImplementedError(f"{key}: maneuver bonus {ins} not modelled by this test")
                bonus_tags[ins["tag"]] = bonus_tags.get(ins["tag"], 0) + ins["amount"]
            for card in raw["cards"]:
                cid = content.card_ids[(key, card["name"])]
                self.deck_counts[seat, cid] += card["copies"]
                self.card_info[cid, CI_BOOST] = card.get("boost", 0)
                for ins in _effects(card):
                    if ins.get("op") == "move":
                        self.card_info[cid, CI_MOVEMASK] |= 1 << ins["up_to"]
                        if ins.get("through_enemies"):
                            self.card_info[cid, CI_THROUGH] = 1
                self.bonus_pc[seat, cid] = sum(bonus_tags.get(t, 0) for t in card.get("tags", []))
            assert self.deck_counts[seat].sum() == DECK_SIZE, (key, self.deck_counts[seat].sum())
        bf = match.battlefield
        move = np.asarray(bf.move) != 0
        deg = max(1, int(move.sum(axis=1).max()))
        self.succ = np.full((bf.n_spaces, deg), -1, np.int64)
        for u in range(bf.n_spaces):
            vs = np.flatnonzero(move[u])
            self.succ[u, : len(vs)] = vs
        self.adj = np.array(bf.adj, np.int64)
        self.zmask = np.array(bf.zone_mask, np.int64)

    def args(self):
        return (self.succ, self.adj, self.zmask, self.xf, self.card_info, self.deck_counts, self.bonus_pc)


def all_matches():
    """(matchup id, Match) for every battlefield and both seat orders."""
    out = []
    for i, bf in enumerate(list_battlefields()):
        for j, heroes in enumerate((HEROES, HEROES[::-1])):
            out.append((2 * i + j, Match(list(heroes), battlefield=bf)))
    return out


def run_match(matchup, match, n, first=0):
    """Run ``n`` checked games of one match; return (per-game rows, stats)."""
    m = match
    assert int(m.tables.rules[R_TURN_CAP]) == TURN_CAP and int(m.tables.rules[R_ACTIONS]) == 2
    ex = Expect(m)
    out = np.zeros((n, R_FIELDS), np.int64)
    stats = np.zeros(SX_FIELDS, np.int64)
    succ, adj, zmask, xf, ci, dc, bp = ex.args()
    run_checked(m.tables, m.rows, new_control(), RUN_SEED, matchup, first, n, succ, adj, zmask, xf, ci,
                dc, bp, out, stats)
    return out, stats


def run_all(n_total):
    matches = all_matches()
    per = -(-n_total // len(matches))
    results = []
    stats = np.zeros(SX_FIELDS, np.int64)
    for mu, m in matches:
        out, s = run_match(mu, m, per)
        results.append((mu, m, out))
        stats += s
    return results, stats


def describe_failures(results, limit=8):
    lines = []
    for mu, m, out in results:
        for row in out[out[:, R_CODE] != OK]:
            code = int(row[R_CODE])
            lines.append(
                f"seed {int(row[R_SEED])} (matchup {mu}, {m.keys[0]} first, {m.battlefield.key}): "
                f"code {code} {MESSAGES.get(code, '?')} at turn {int(row[R_TURN])}, "
                f"log row {int(row[R_EVENT])}, detail {[int(x) for x in row[R_DETAIL:R_DETAIL + 3]]}; "
                f"narrate: Match({list(m.keys)}, battlefield={m.battlefield.key!r}).play({int(row[R_SEED])})")
    n = len(lines)
    return n, "\n".join(lines[:limit]) + (f"\n... {n - limit} more" if n > limit else "")


def assert_clean(results, stats, n_min):
    n_fail, text = describe_failures(results)
    assert n_fail == 0, f"{n_fail} games broke an invariant:\n{text}"
    games = sum(len(out) for _, _, out in results)
    assert games >= n_min and stats[SX_GAMES] == games
    # the games really ended, on every battlefield and in both seat orders
    for mu, m, out in results:
        assert len(out) > 0
        assert set(np.unique(out[:, R_REASON])) <= {END_HERO_DEFEATED, END_TURN_CAP}
    assert stats[SX_STATE_CHECKS] >= stats[SX_TURNS]
    assert stats[SX_MOVES] > 0 and stats[SX_ATTACKS] > 0


# ============================================================ tests


@pytest.fixture(scope="module")
def big_run():
    t = time.perf_counter()
    results, stats = run_all(N_GAMES)
    return results, stats, time.perf_counter() - t


@pytest.mark.slow
def test_invariants_10k_random_games(big_run):
    results, stats, secs = big_run
    assert_clean(results, stats, N_GAMES)
    # every invariant was exercised, not vacuously true
    assert stats[SX_MOVES_MANEUVER] > 10_000 and stats[SX_MOVES_CARD] > 1_000
    assert stats[SX_MOVES_THROUGH] > 100 and stats[SX_THROUGH_NEEDED] > 0
    assert stats[SX_DETOURS] > 0 and stats[SX_PASS_FRIEND] > 0
    assert stats[SX_PLACES] > 0
    assert stats[SX_DEFEATED_END] > 0 and stats[SX_WIN0] > 0 and stats[SX_WIN1] > 0
    for mu, m, out in results:      # each battlefield and seat order: decisive games
        assert (out[:, R_REASON] == END_HERO_DEFEATED).any(), (mu, m.battlefield.key)
    print(f"\n{stats[SX_GAMES]} games, {stats[SX_TURNS]} turns, {stats[SX_EVENTS]} events, "
          f"{stats[SX_MOVES]} moves ({stats[SX_MOVES_THROUGH]} through, {stats[SX_THROUGH_NEEDED]} needing "
          f"through, {stats[SX_DETOURS]} detours around opponents, {stats[SX_PASS_FRIEND]} past friends), "
          f"{stats[SX_DEFEATED_END]} decisive, {stats[SX_CAP_END]} capped, {secs:.1f} s")


@pytest.mark.slow
def test_determinism_replay(big_run):
    """Replayed seeds: bit-identical logs and states; same results with logging off."""
    results, _, _ = big_run
    hashes = []
    for mu, m, out in results:
        hashes.extend(out[:, R_LOGHASH].tolist())
        for gi in np.linspace(0, len(out) - 1, 5).astype(int):
            seed = int(out[gi, R_SEED])
            assert seed == game_seed(RUN_SEED, mu, int(gi))
            g1, g2 = m.play(seed), m.play(seed)
            assert np.array_equal(g1.log, g2.log) and np.array_equal(g1.state, g2.state)
            assert hash_rows(g1.log) == out[gi, R_LOGHASH]
            assert hash_rows(g1.state.reshape(1, -1)) == out[gi, R_STHASH]
        fast = m.play_many(100, run_seed=RUN_SEED, matchup=mu)   # logging off
        w = out[:100, R_WINNER]
        assert np.array_equal(fast[:, RES_WINNER], np.where(w >= 0, w, -1))
        assert np.array_equal(fast[:, RES_REASON], out[:100, R_REASON])
        assert np.array_equal(fast[:, RES_HP0], out[:100, R_HP0])
        assert np.array_equal(fast[:, RES_HP1], out[:100, R_HP1])
        assert np.array_equal(fast[:, RES_TURNS], out[:100, R_TURNS])
    # different seeds give different games
    assert len(set(hashes)) > 0.99 * len(hashes)


@pytest.mark.nojit
def test_invariants_small_run():
    """A few games per battlefield and seat order; also runs as plain Python."""
    results, stats = run_all(N_GAMES_NOJIT)
    assert_clean(results, stats, N_GAMES_NOJIT)
    mu, m, out = results[0]
    g = m.play(int(out[0, R_SEED]))
    assert hash_rows(g.log) == out[0, R_LOGHASH]
    assert np.array_equal(g.log, m.play(int(out[0, R_SEED])).log)


# ------------------------------------------------ the checker catches broken games


def _find_choke(match, ex):
    """(a, b, c): c is 2 steps from a via b, but more than Medusa's move 3 avoiding b."""
    S = ex.succ.shape[0]
    pos = np.full(MAX_FIGHTERS, -1, np.int64)
    for a in range(S):
        for b in ex.succ[a]:
            if b < 0:
                break
            for c in ex.succ[b]:
                if c < 0 or c == a or match.battlefield.move[a, c]:
                    continue
                pos[:] = -1
                pos[FIGHTERS_PER_PLAYER] = b
                if move_dist(ex.succ, pos, 0, a, c, True, False, 3) < 0:
                    return a, int(b), int(c)
    return None


def _replay_code(ex, rows):
    log = np.array(rows, np.int64).reshape(-1, EV_FIELDS)
    pos = np.full(MAX_FIGHTERS, -1, np.int64)
    hp = np.zeros(MAX_FIGHTERS, np.int64)
    stats = np.zeros(SX_FIELDS, np.int64)
    info = np.zeros(4, np.int64)
    moved = np.zeros(MAX_FIGHTERS, np.int64)
    return replay(log, 0, len(log), ex.succ, ex.adj, ex.zmask, ex.xf, ex.card_info, ex.bonus_pc, pos, hp,
                  new_context(), moved, stats, info)


@pytest.mark.nojit
def test_checker_rejects_illegal_moves():
    """Hand-made logs: moving through an opponent, onto a fighter, too far, or with a wrong flag."""
    found = None
    for bf in list_battlefields():
        m = Match(list(HEROES), battlefield=bf)
        ex = Expect(m)
        found = _find_choke(m, ex)
        if found:
            break
    assert found, "no battlefield has a choke point for the synthetic move test"
    a, b, c = found
    frenzy = m.content.card_ids[("medusa", "Winged Frenzy")]
    opp, friend = FIGHTERS_PER_PLAYER, 1          # Sinbad; a Harpy
    man = [EV_TURN, 0, 1, 0, 0, 0, EV_ACTION, 0, A_MANEUVER, 1, 0, 0]
    scheme = [EV_TURN, 0, 1, 0, 0, 0, EV_ACTION, 0, A_SCHEME, 1, 0, 0, EV_SCHEME, 0, 0, frenzy, 0, 0]

    def setup(blocker):
        return [EV_SETUP, 0, a, 0, 0, 0, EV_SETUP, blocker, b, 0, 0, 0]

    move = [EV_MOVE, 0, a, c, 3, 0]
    assert _replay_code(ex, setup(opp) + man + move) == E_MOVE_PATH
    assert _replay_code(ex, setup(friend) + man + move) == OK
    assert _replay_code(ex, setup(opp) + man + [EV_MOVE, 0, a, c, 3, 1]) == E_MOVE_THROUGH
    assert _replay_code(ex, setup(opp) + scheme + [EV_MOVE, 0, a, c, 3, 1]) == OK
    assert _replay_code(ex, setup(opp) + scheme + [EV_MOVE, 0, a, c, 3, 0]) == E_MOVE_PATH
    assert _replay_code(ex, setup(friend) + man + [EV_MOVE, 0, a, b, 3, 0]) == E_MOVE_DEST
    assert _replay_code(ex, setup(friend) + man + [EV_MOVE, 0, a, a, 3, 0]) == E_MOVE_SAME
    assert _replay_code(ex, setup(friend) + man + [EV_MOVE, 0, c, b, 3, 0]) == E_MOVE_FROM
    assert _replay_code(ex, setup(friend) + man + [EV_MOVE, 0, a, c, 4, 0]) == E_MOVE_BUDGET
    assert _replay_code(ex, setup(friend) + man + [EV_MOVE, 0, a, c, 1, 0]) == E_MOVE_PATH
    assert _replay_code(ex, setup(friend) + man + move + [EV_MOVE, 0, c, a, 3, 0]) == E_MOVE_WHO
    assert _replay_code(ex, setup(opp) + man + [EV_MOVE, opp, b, c, 2, 0]) == E_MOVE_WHO
    assert _replay_code(ex, setup(opp) + [EV_TURN, 1, 1, 0, 0, 0]) == E_TURN_ORDER
    assert _replay_code(ex, setup(opp) + [EV_DAMAGE, 0, 3, 12, 0, 0]) == E_DAMAGE   # 16 - 3 != 12
    assert _replay_code(ex, setup(opp) + [EV_DAMAGE, 1, 1, 0, 0, 0]) == E_DAMAGE    # Harpy not on the board
    harpy_down = setup(friend) + [EV_DAMAGE, friend, 1, 0, 0, 0]
    assert _replay_code(ex, harpy_down + [EV_TURN, 0, 1, 0, 0, 0]) == E_DEFEAT        # never defeated
    assert _replay_code(ex, harpy_down + [EV_DEFEATED, friend, 0, 0, 0, 0] + man + move) == OK
    assert _replay_code(ex, setup(opp) + [EV_DEFEATED, opp, 0, 0, 0, 0]) == E_DEFEAT  # defeated at 15 health


@pytest.mark.nojit
def test_checker_rejects_broken_states():
    """A real game's final state passes; corrupted copies fail with the right code."""
    m = Match(list(HEROES), battlefield="marmoreal")
    ex = Expect(m)
    game = m.play(7)
    pos = np.full(MAX_FIGHTERS, -1, np.int64)
    hp = np.zeros(MAX_FIGHTERS, np.int64)
    ctx = new_context()
    info = np.zeros(4, np.int64)
    code = replay(game.log, 0, len(game.log), ex.succ, ex.adj, ex.zmask, ex.xf, ex.card_info, ex.bonus_pc,
                  pos, hp, ctx, np.zeros(MAX_FIGHTERS, np.int64), np.zeros(SX_FIELDS, np.int64), info)
    assert code == OK
    flush_pending(ctx, ex.bonus_pc)
    S = m.battlefield.n_spaces

    def check(st, pos=pos, hp=hp):
        return check_state(st, S, ex.xf, ex.deck_counts, ex.bonus_pc, pos, hp, ctx, info)

    assert check(game.state) == OK
    st = game.state.copy()

    def a_card(p):
        """(state offset of one card of player p, its pile-size slot)."""
        for base, nslot in ((OFF_DECK, P_DECKN), (OFF_HAND, P_HANDN), (OFF_DISC, P_DISCN)):
            if st[pslot(p, nslot)] > 0:
                return base + p * MAX_CARDS + st[pslot(p, nslot)] - 1, pslot(p, nslot)
        raise AssertionError("player has no cards")

    k0, n0 = a_card(0)
    k1, _ = a_card(1)
    mine = st[k0]
    st[k0] = game.state[k1]                               # the other hero's card
    assert check(st) == E_CARD_FOREIGN
    st = game.state.copy()
    st[k0] = next(c for c in np.flatnonzero(ex.deck_counts[0]) if c != mine)
    assert check(st) == E_CARD_COUNT                      # one card duplicated, another lost
    st = game.state.copy()
    st[n0] -= 1                                           # a card vanished
    assert check(st) == E_CARD_COUNT
    st = game.state.copy()
    st[pslot(0, P_ONGOING)] = mine                        # a card also counted as the ongoing scheme
    assert check(st) == E_CARD_COUNT
    alive = [f for f in range(MAX_FIGHTERS) if st[fslot(f, F_STATUS)] == FS_IN_PLAY]
    assert len(alive) >= 2
    st = game.state.copy()
    st[fslot(alive[1], F_SPACE)] = st[fslot(alive[0], F_SPACE)]
    assert check(st) == E_SHARE_SPACE
    st = game.state.copy()
    st[fslot(alive[0], F_HP)] = ex.xf[alive[0], XF_MAXHP] + 1
    assert check(st) == E_HEALTH_RANGE
    st = game.state.copy()
    st[fslot(alive[0], F_HP)] = 0
    assert check(st) == E_IN_PLAY
    st = game.state.copy()
    st[fslot(alive[0], F_STATUS)] = FS_DEFEATED
    assert check(st) == E_DEFEATED_ON_BOARD
    st = game.state.copy()
    taken = {int(st[fslot(f, F_SPACE)]) for f in alive}
    st[fslot(alive[0], F_SPACE)] = next(s for s in range(S) if s not in taken)
    assert check(st) == E_POS_MISMATCH                   # moved without a logged move
    # the end of the game
    assert game.state[G_REASON] == END_HERO_DEFEATED, "seed 7 should be decisive"
    st = game.state.copy()
    st[G_OVER] = 0
    assert check(st) == E_HERO_DOWN_GAME_ON
    assert check_final(game.state, game.log, game.turns, info) == OK
    st = game.state.copy()
    st[G_WINNER] = 1 - game.winner
    assert check_final(st, game.log, game.turns, info) == E_END_WINNER
    st = game.state.copy()
    st[G_OVER] = 0
    assert check_final(st, game.log, game.turns, info) == E_NO_END


@pytest.mark.nojit
def test_checker_catches_broken_engine_tables():
    """End to end: the engine run on doctored tables breaks the invariants it should.

    The checker keeps its own expectations (hero files, the real battlefield), so an
    engine that moves, attacks, deals or counts by other numbers is caught.
    """
    from sim.engine.layout import C_BOOST, H_DECK_START, H_MOVE

    mu, m = 0, Match(list(HEROES), battlefield="marmoreal")
    ex = Expect(m)
    tb = m.tables
    medusa, sinbad = int(m.rows[0]), int(m.rows[1])
    S = m.battlefield.n_spaces

    def codes(tables, n=6):
        out = np.zeros((n, R_FIELDS), np.int64)
        run_checked(tables, m.rows, new_control(), RUN_SEED, mu, 0, n, *ex.args()[:3], ex.xf, ex.card_info,
                    ex.deck_counts, ex.bonus_pc, out, np.zeros(SX_FIELDS, np.int64))
        return set(out[:, R_CODE].tolist())

    assert codes(tb) == {OK}
    teleport = np.ones((S, S), np.int8) - np.eye(S, dtype=np.int8)
    assert E_MOVE_PATH in codes(tb._replace(move=teleport))
    assert E_ATTACK in codes(tb._replace(adj=teleport))
    heroes = tb.heroes.copy()
    heroes[medusa, H_MOVE] += 1
    assert E_MOVE_BUDGET in codes(tb._replace(heroes=heroes))
    cards = tb.cards.copy()
    cards[:, C_BOOST] += 1
    assert E_BOOST in codes(tb._replace(cards=cards))
    decks = tb.decks.copy()
    decks[tb.heroes[medusa, H_DECK_START]] = decks[tb.heroes[sinbad, H_DECK_START]]
    assert codes(tb._replace(decks=decks)) == {E_CARD_FOREIGN}
    rules = tb.rules.copy()
    rules[R_TURN_CAP] = 4
    assert codes(tb._replace(rules=rules)) == {E_END_CAP}
