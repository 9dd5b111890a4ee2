"""Primitive game operations shared by the rules and the effect interpreter.

Every function here works on the flat state array ``st`` (``int64``, shape ``(STATE_SIZE,)``, see
:mod:`sim.engine.layout`) and the read-only tables ``tb`` (:class:`sim.engine.tables.Tables`). None of
them calls the effect interpreter, so the call graph is one-way: core -> effects -> rules -> game.

Sources: Battle of Legends Vol. 1 rules ("Maneuver and movement", "Combat and damage", "Defeat and
ending the game", "Exhaustion and team play"); ``docs/rules.md`` project decisions (end of game).
"""
import numba
import numpy as np
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, I, LOG, ST, stack_i64, TB, V, jit  # noqa: F401
from .prevent import card_cap

from .codes import (  # noqa: F401  (re-exported: callers outside the engine import them from here)
    END_HERO_DEFEATED, EV_DAMAGE, EV_DEFEATED, EV_DISCARD, EV_DRAW, EV_EXHAUST, EV_GAME_OVER, EV_MOVE, EV_PLACE,
    EV_RECOVER, EV_SET_HP, EV_TAKE, FS_DEFEATED, FS_IN_PLAY, HF_FOG_WALK, HK_FIGHTER_DEFEATED, PILE_DECK, PILE_DISC,
    PILE_HAND, PL_ADJ, PL_IN_ZONE, PL_LAST_FOG, R_EXHAUST_DAMAGE, R_OFF_FORM, R_PREVENT_COMBAT_ONLY,
)
from .layout import (
    C_FMASK, C_FORM, C_LOCAL, C_TAGS, CB_ACTIVE, CB_ATT_P, CB_DEF_P, F_HP, F_KIND, F_KO, F_LEFT,
    F_MAXHP, F_NOLEAVE, F_OWNER, F_RANGED, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, FORM_COUNTER, fslot, G_ACTIVE,
    G_LOGN, G_NPLAYERS, G_OVER, G_REASON, G_RNG, G_WINNER, H_DEFEAT_KIND, H_FLAGS, H_HOOKS, MAX_CARDS, MAX_HERO_CARDS,
    MAX_SPACES, N_FOG, OFF_CB, OFF_DECK, OFF_DISC, OFF_HAND, OFF_PLAYED, OFF_SPACE_DEFEATS, P_CARDS_PLAYED, P_COUNTER0,
    P_DEALT, P_DECKN, P_DISCN, P_FOG0, P_HANDN, P_HERO, P_RETURN, P_TEAM, pslot,
)


#: battlefields up to this many spaces use bit masks of spaces (int64, sign bit unused)
MASK_SPACES = 63

if numba.config.DISABLE_JIT:
    def trailing_zeros(x):
        """Index of the lowest set bit of ``x`` > 0 (plain Python)."""
        x = int(x)
        return (x & -x).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros

# --------------------------------------------------------------------- random


@jit(I(I, I), inline=True)
def mul32(a, b):
    """(a * b) mod 2**32 for 0 <= a, b < 2**32 without 64-bit overflow."""
    lo = a * (b & 0xFFFF)
    hi = ((a * (b >> 16)) & 0xFFFF) << 16
    return (lo + hi) & 0xFFFFFFFF


@jit(I(I))
def mix32(x):
    """A 32-bit integer hash (lowbias32); input and output in 0..2**32-1."""
    x = x & 0xFFFFFFFF
    x ^= x >> 16
    x = mul32(x, 0x7FEB352D)
    x ^= x >> 15
    x = mul32(x, 0x846CA68B)
    x ^= x >> 16
    return x


@jit(I(I, I, I))
def game_seed(run_seed, matchup, game_index):
    """Per-game seed (0..2**32-1) from the run seed, matchup id and game index.

    The same triple always gives the same seed, so a game's outcome does not
    depend on chunking, worker count or backend.
    """
    h = mix32(run_seed & 0xFFFFFFFF)
    h = mix32(h ^ (matchup & 0xFFFFFFFF))
    h = mix32(h ^ (game_index & 0xFFFFFFFF))
    h = mix32(h ^ ((game_index >> 32) & 0xFFFFFFFF))
    return h


@jit(I(I), inline=True)
def signed32(x):
    """``x`` (0..2**32-1) as a signed 32-bit value (how the state and result rows store
    32-bit numbers)."""
    return x - 0x100000000 if x >= 0x80000000 else x


@jit(V(ST, I))
def rng_seed(st, seed):
    """Seed the game's xorshift32 generator (stored in ``st[G_RNG]``)."""
    x = mix32(seed)
    if x == 0:
        x = 0x9E3779B9
    st[G_RNG] = signed32(x)


@jit(I(ST), inline=True)
def rng_next(st):
    """Next 32-bit random number (0..2**32-1) from the game's generator."""
    x = int(st[G_RNG]) & 0xFFFFFFFF
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    st[G_RNG] = signed32(x)
    return mix32(x)


@jit(I(ST, I), inline=True)
def rand_below(st, n):
    """Uniform integer in 0..n-1 (n >= 1) from the game's generator."""
    return rng_next(st) % n


# ------------------------------------------------------------------------ log


@jit(V(ST, LOG, I, I, I, I, I, I))
def log_ev(st, log, ev, a, b, c, d, e):
    """Append event ``(ev, a, b, c, d, e)`` to ``log`` (shape (L, 6) int64).

    A log with zero rows disables logging; a full log silently stops growing.
    """
    n = st[G_LOGN]
    if n < log.shape[0]:
        log[n, 0] = ev
        log[n, 1] = a
        log[n, 2] = b
        log[n, 3] = c
        log[n, 4] = d
        log[n, 5] = e
        st[G_LOGN] = n + 1


# ---------------------------------------------------------------------- piles


@jit(I(I, I), inline=True)
def pile_base(pile, p):
    if pile == PILE_DECK:
        return OFF_DECK + p * MAX_CARDS
    if pile == PILE_HAND:
        return OFF_HAND + p * MAX_CARDS
    return OFF_DISC + p * MAX_CARDS


@jit(I(I, I), inline=True)
def pile_nslot(pile, p):
    if pile == PILE_DECK:
        return pslot(p, P_DECKN)
    if pile == PILE_HAND:
        return pslot(p, P_HANDN)
    return pslot(p, P_DISCN)


@jit(V(ST, I, I, I))
def pile_push(st, pile, p, card):
    """Put ``card`` on top of (at the end of) a pile of player ``p``."""
    ns = pile_nslot(pile, p)
    n = st[ns]
    if n < MAX_CARDS:
        st[pile_base(pile, p) + n] = card
        st[ns] = n + 1


@jit(I(ST, I, I, I))
def pile_remove_at(st, pile, p, i):
    """Remove and return the card at index ``i`` of a pile, keeping order."""
    ns = pile_nslot(pile, p)
    n = st[ns]
    b = pile_base(pile, p)
    card = st[b + i]
    for j in range(i, n - 1):
        st[b + j] = st[b + j + 1]
    st[ns] = n - 1
    return card


@jit(I(ST, I, I, I))
def pile_find(st, pile, p, card):
    """Index of the first copy of ``card`` in a pile, or -1."""
    n = st[pile_nslot(pile, p)]
    b = pile_base(pile, p)
    for i in range(n):
        if st[b + i] == card:
            return i
    return -1


@jit(B(ST, I, I, I))
def pile_take(st, pile, p, card):
    """Remove one copy of ``card`` from a pile; return True if it was there."""
    i = pile_find(st, pile, p, card)
    if i < 0:
        return False
    pile_remove_at(st, pile, p, i)
    return True


@jit(I(A1, I, I), inline=True)
def add_unique(out, n, v):
    """Append ``v`` to ``out[:n]`` unless already there; return the new length."""
    for i in range(n):
        if out[i] == v:
            return n
    out[n] = v
    return n + 1


@jit(I(ST, TB, I, I, I))
def count_tag_in_pile(st, tb, pile, p, tagbits):
    """Number of cards in a pile of player ``p`` carrying any of ``tagbits``."""
    n = st[pile_nslot(pile, p)]
    b = pile_base(pile, p)
    c = 0
    for i in range(n):
        if tb.cards[st[b + i], C_TAGS] & tagbits:
            c += 1
    return c


@jit(V(ST, I))
def shuffle_deck(st, p):
    """Fisher-Yates shuffle of player ``p``'s deck with the game's generator."""
    n = st[pslot(p, P_DECKN)]
    b = OFF_DECK + p * MAX_CARDS
    for i in range(n - 1, 0, -1):
        j = rand_below(st, i + 1)
        t = st[b + i]
        st[b + i] = st[b + j]
        st[b + j] = t


# ------------------------------------------------------------------- fighters


@jit(I(ST, I), inline=True)
def team_of(st, p):
    return st[pslot(p, P_TEAM)]


@jit(B(ST, I), inline=True)
def in_play(st, f):
    return st[fslot(f, F_STATUS)] == FS_IN_PLAY


@jit(B(ST, I, I), inline=True)
def opposed(st, f, g):
    """True if fighters ``f`` and ``g`` are on different teams."""
    return team_of(st, st[fslot(f, F_OWNER)]) != team_of(st, st[fslot(g, F_OWNER)])


@jit(I(ST), inline=True)
def n_slots(st):
    """Fighter slots in use: ``FIGHTERS_PER_PLAYER`` per player of the game (slots past
    them are never in play), the bound of every loop over fighters."""
    return st[G_NPLAYERS] * FIGHTERS_PER_PLAYER


@jit(I(I), inline=True)
def hero_of(p):
    """Fighter slot of player ``p``'s hero."""
    return p * FIGHTERS_PER_PLAYER


@jit(I(ST, I))
def occupant(st, space):
    """Fighter in play on ``space``, or -1."""
    for f in range(n_slots(st)):
        if st[fslot(f, F_STATUS)] == FS_IN_PLAY and st[fslot(f, F_SPACE)] == space:
            return f
    return -1


@jit(A1(ST, I))
def occupancy(st, nspaces):
    """Array (nspaces,) int64: the fighter in play on each space, or -1."""
    occ = np.empty(nspaces, np.int64)
    fill_occupancy(st, nspaces, occ)
    return occ


@jit(V(ST, I, A1))
def fill_occupancy(st, nspaces, occ):
    """Write :func:`occupancy` into ``occ[:nspaces]`` (int64, at least ``nspaces`` long)."""
    for s in range(nspaces):
        occ[s] = -1
    for f in range(n_slots(st)):
        if st[fslot(f, F_STATUS)] == FS_IN_PLAY:
            s = st[fslot(f, F_SPACE)]
            if s >= 0:
                occ[s] = f


@jit(B(TB, I, I), inline=True)
def adjacent(tb, a, b):
    """Spaces joined by a line (one-way paths count; passages do not)."""
    return a >= 0 and b >= 0 and tb.adj[a, b] != 0


@jit(B(TB, I, I), inline=True)
def same_zone(tb, a, b):
    return a >= 0 and b >= 0 and (tb.zmask[a] & tb.zmask[b]) != 0


@jit(I(ST, TB, I, I, I, A1))
def allowed_spaces(st, tb, where, center, own, out):
    """Spaces the wording ``where`` allows (any / in the zone of ``center`` / adjacent to it /
    ``center`` itself for PL_LAST_FOG) that are empty or are space ``own`` (-1: none),
    written to ``out`` (int64, length >= MAX_SPACES) in space order; return how many."""
    S = tb.adj.shape[0]
    occ = stack_i64(MAX_SPACES)
    fill_occupancy(st, S, occ)
    n = 0
    for s in range(S):
        if occ[s] >= 0 and s != own:
            continue
        if where == PL_LAST_FOG and s != center:
            continue
        if where == PL_IN_ZONE and not same_zone(tb, s, center):
            continue
        if where == PL_ADJ and not adjacent(tb, s, center):
            continue
        out[n] = s
        n += 1
    return n


@jit(B(ST, TB, I, I), inline=True)
def can_target(st, tb, att, tgt):
    """Attack range: melee = adjacent; ranged = adjacent or same zone.

    Source: Battle of Legends Vol. 1 rules, "Scheme and attack"; case R18.
    """
    a = st[fslot(att, F_SPACE)]
    t = st[fslot(tgt, F_SPACE)]
    if adjacent(tb, a, t):
        return True
    if st[fslot(att, F_RANGED)] != 0:
        return same_zone(tb, a, t)
    return False


@jit(B(ST, TB, LOG))
def check_end(st, tb, log):
    """End the game if a team has lost all its heroes; return True if over.

    If every team lost its heroes at once, the active player's team wins
    (docs/rules.md project decision "End of game"; case R07).
    """
    if st[G_OVER]:
        return True
    npl = st[G_NPLAYERS]
    lost0 = True
    lost1 = True
    for p in range(npl):
        h = hero_of(p)
        alive = st[fslot(h, F_STATUS)] != FS_DEFEATED
        if team_of(st, p) == 0:
            lost0 = lost0 and not alive
        else:
            lost1 = lost1 and not alive
    if not (lost0 or lost1):
        return False
    if lost0 and lost1:
        w = team_of(st, st[G_ACTIVE])
    elif lost0:
        w = 1
    else:
        w = 0
    st[G_OVER] = 1
    st[G_WINNER] = w
    st[G_REASON] = END_HERO_DEFEATED
    log_ev(st, log, EV_GAME_OVER, w, END_HERO_DEFEATED, 0, 0, 0)
    return True


@jit(V(ST, I, I), inline=True)
def credit_damage(st, f, d):
    """Add ``d`` damage to fighter ``f`` to the ``P_DEALT`` counter of the player who dealt it:
    in a combat, the combatant player on the other side from ``f``'s team; outside a combat,
    the active player. Damage to a player's own team (exhaustion, self-damage) is not counted.
    A statistic only (the team report's damage per hero); no rule reads it."""
    if st[OFF_CB + CB_ACTIVE] != 0:
        q = st[OFF_CB + CB_ATT_P]
        if team_of(st, q) == team_of(st, st[fslot(f, F_OWNER)]):
            q = st[OFF_CB + CB_DEF_P]
    else:
        q = st[G_ACTIVE]
    if team_of(st, q) != team_of(st, st[fslot(f, F_OWNER)]):
        st[pslot(q, P_DEALT)] += d


@jit(B(ST, I))
def eliminated(st, p):
    """True if player ``p`` has no fighter left: none on the board and the hero not coming
    back (a hero removed by Vanish or Vanish Into Murder returns, so that player is only
    dormant). An eliminated player's turns are skipped in a team game. Sources: Battle of
    Legends Vol. 1 rules, "Defeat and ending the game" (a player whose hero is defeated keeps
    taking turns while they still have a sidekick); Cobble & Fog rules, "Team Games" (a
    player whose fighters are all defeated is eliminated and no longer takes turns)."""
    if st[pslot(p, P_RETURN)] != 0:
        return False
    for k in range(FIGHTERS_PER_PLAYER):
        if st[fslot(p * FIGHTERS_PER_PLAYER + k, F_STATUS)] == FS_IN_PLAY:
            return False
    return True


@jit(I(ST, TB, LOG, I, I))
def deal_damage(st, tb, log, f, n):
    """Deal ``n`` damage (health) to fighter ``f``; return the damage taken.

    Off-board fighters take no damage. At 0 health the fighter is defeated, removed from the battlefield
    (Battle of Legends rules, "Defeat and ending the game") and marked (``F_KO``) for its owner's
    ``fighter_defeated`` ability (:func:`sim.engine.effects.defeat_hooks`). Whether the game ends is decided
    by :func:`check_end`. A fighter whose card prevents all damage (Bewilderment, ``CB_PREVENT``) takes none
    for the rest of that combat, effect damage included (case R70; rules option ``prevent_combat_damage_only``:
    only the combat damage, which :func:`sim.engine.rules.do_attack` prevents itself); with ``at_most`` N
    (``CB_CAP`` N + 1) it takes at most N of each damage. The log's amount dealt is ``n``, before that cap."""
    if n <= 0 or st[fslot(f, F_STATUS)] != FS_IN_PLAY:
        return 0
    m = n if tb.rules[R_PREVENT_COMBAT_ONLY] != 0 else card_cap(st, f, n)   # (its card's prevent_damage)
    if m <= 0:
        return 0
    hp = st[fslot(f, F_HP)]
    d = m if m < hp else hp
    hp -= d
    st[fslot(f, F_HP)] = hp
    credit_damage(st, f, d)
    log_ev(st, log, EV_DAMAGE, f, d, hp, n, 0)
    if hp == 0:
        st[OFF_SPACE_DEFEATS + st[fslot(f, F_SPACE)]] += 1
        st[fslot(f, F_STATUS)] = FS_DEFEATED
        st[fslot(f, F_SPACE)] = -1
        log_ev(st, log, EV_DEFEATED, f, 0, 0, 0, 0)
        hr = st[pslot(st[fslot(f, F_OWNER)], P_HERO)]
        k = tb.heroes[hr, H_DEFEAT_KIND]     # the owner's fighter_defeated ability: any fighter (0) or kind k - 1
        if tb.heroes[hr, H_HOOKS + 2 * HK_FIGHTER_DEFEATED + 1] > 0 and (k == 0 or k == st[fslot(f, F_KIND)] + 1):
            st[fslot(f, F_KO)] = 1
    return d


@jit(I(ST, LOG, I, I))
def recover(st, log, f, n):
    """Fighter ``f`` recovers up to ``n`` health, capped at its starting health."""
    if n <= 0 or st[fslot(f, F_STATUS)] != FS_IN_PLAY:
        return 0
    hp = st[fslot(f, F_HP)]
    mx = st[fslot(f, F_MAXHP)]
    g = mx - hp
    if n < g:
        g = n
    st[fslot(f, F_HP)] = hp + g
    if g > 0:
        log_ev(st, log, EV_RECOVER, f, g, hp + g, 0, 0)
    return g


@jit(V(ST, LOG, I, I))
def set_health(st, log, f, n):
    """Set fighter ``f``'s health to ``n`` (capped at its starting health)."""
    if st[fslot(f, F_STATUS)] != FS_IN_PLAY:
        return
    mx = st[fslot(f, F_MAXHP)]
    st[fslot(f, F_HP)] = n if n < mx else mx
    log_ev(st, log, EV_SET_HP, f, st[fslot(f, F_HP)], 0, 0, 0)


@jit(I(ST, TB, LOG, I, I))
def draw_cards(st, tb, log, p, n):
    """Player ``p`` draws ``n`` cards; return the number of missing draws.

    Drawing is mandatory. For each card that cannot be drawn from an empty
    deck, each of the player's fighters takes 2 damage (exhaustion, rules
    option ``R_EXHAUST_DAMAGE``); the discard pile is never reshuffled.
    Source: Battle of Legends Vol. 1 rules, "Exhaustion and team play";
    cases R10, R11.
    """
    missing = 0
    for _ in range(n):
        dn = st[pslot(p, P_DECKN)]
        if dn > 0:
            card = pile_remove_at(st, PILE_DECK, p, dn - 1)
            pile_push(st, PILE_HAND, p, card)
            log_ev(st, log, EV_DRAW, p, card, 0, 0, 0)
        else:
            missing += 1
    if missing > 0:
        log_ev(st, log, EV_EXHAUST, p, missing, 0, 0, 0)
        dmg = missing * tb.rules[R_EXHAUST_DAMAGE]
        for k in range(FIGHTERS_PER_PLAYER):
            deal_damage(st, tb, log, p * FIGHTERS_PER_PLAYER + k, dmg)
    return missing


@jit(B(ST, LOG, I, I, I))
def discard_from_hand(st, log, p, card, why):
    """Move one copy of ``card`` from player ``p``'s hand to the discard pile."""
    if pile_take(st, PILE_HAND, p, card):
        pile_push(st, PILE_DISC, p, card)
        log_ev(st, log, EV_DISCARD, p, card, why, 0, 0)
        return True
    return False


@jit(B(ST, LOG, I, I, I))
def take_to_hand(st, log, pile, p, card):
    """Move one copy of ``card`` from a pile of ``p`` to ``p``'s hand."""
    if pile_take(st, pile, p, card):
        pile_push(st, PILE_HAND, p, card)
        log_ev(st, log, EV_TAKE, p, card, pile, 0, 0)
        return True
    return False


# ------------------------------------------------------------------- movement


@jit(B(ST, I, I), inline=True)
def fog_space(st, p, s):
    """True if player ``p`` has a fog token on space ``s``."""
    for i in range(N_FOG):
        if st[pslot(p, P_FOG0 + i)] == s:
            return True
    return False


@jit(I(ST, TB, I, I, B, A1))
def reachable(st, tb, f, steps, through, out):
    """Spaces fighter ``f`` may end a move of up to ``steps`` spaces on.

    Writes space indices to ``out`` (int64, length >= spaces) and returns how
    many; the fighter's own space (moving 0) is always first, the others in
    breadth-first order (nearer spaces first, ties by the order the search
    meets them, lower space index first from each space). Movement
    follows the battlefield's movement graph (one-way paths and secret
    passages included), may pass through friendly fighters but never through
    opposing ones unless ``through`` is set, and may not end on an occupied
    space. A fighter that cannot leave its space this turn only gets its own
    space. Sources: Battle of Legends Vol. 1 rules "Maneuver and movement";
    Witcher rules "One-Way Paths"; Cobble & Fog rules "Secret Passages",
    Invisible Man's fog; cases R14, R15, R20, R21, R46.
    """
    start = st[fslot(f, F_SPACE)]
    out[0] = start
    if start < 0 or steps <= 0 or st[fslot(f, F_NOLEAVE)] != 0:
        return 1
    S = tb.adj.shape[0]
    if S > MASK_SPACES:
        return reachable_scan(st, tb, f, steps, through, out)
    # spaces as bits: occupied ones, and those holding an opposing fighter (blocked)
    p = st[fslot(f, F_OWNER)]
    tf = team_of(st, p)
    occm = 0
    blockm = 0
    for g in range(n_slots(st)):
        if st[fslot(g, F_STATUS)] == FS_IN_PLAY:
            sg = st[fslot(g, F_SPACE)]
            if sg >= 0:
                bit = 1 << sg
                occm |= bit
                if g != f and not through and team_of(st, st[fslot(g, F_OWNER)]) != tf:
                    blockm |= bit
                else:
                    blockm &= ~bit
    fogm = 0
    if st[fslot(f, F_KIND)] == 0 and (tb.heroes[st[pslot(p, P_HERO)], H_FLAGS] & HF_FOG_WALK) != 0:
        for i in range(N_FOG):
            sf = st[pslot(p, P_FOG0 + i)]
            if sf >= 0:
                fogm |= 1 << sf
    # breadth-first, one distance at a time; the queue is kept in ``out`` (every space
    # reached, occupied or not) and compacted to the unoccupied ones at the end
    seen = (1 << start) | blockm
    mmask = tb.mmask
    head = 0
    tail = 1
    depth = 0
    while head < tail and depth < steps:
        level_end = tail
        while head < level_end:
            u = out[head]
            head += 1
            cand = mmask[u]
            if (fogm >> u) & 1:
                cand |= fogm      # the Invisible Man walks from fog to fog
            cand &= ~seen
            seen |= cand
            while cand != 0:
                out[tail] = trailing_zeros(cand)
                tail += 1
                cand &= cand - 1
        depth += 1
    n = 1
    for i in range(1, tail):
        v = out[i]
        if (occm >> v) & 1 == 0:
            out[n] = v
            n += 1
    return n


@jit(I(ST, TB, I, I, B, A1))
def reachable_scan(st, tb, f, steps, through, out):
    """:func:`reachable` without bit masks (battlefields of more than ``MASK_SPACES`` spaces)."""
    start = st[fslot(f, F_SPACE)]
    out[0] = start
    if start < 0 or steps <= 0 or st[fslot(f, F_NOLEAVE)] != 0:
        return 1
    S = tb.adj.shape[0]
    occ = occupancy(st, S)
    p = st[fslot(f, F_OWNER)]
    fog = st[fslot(f, F_KIND)] == 0 and (tb.heroes[st[pslot(p, P_HERO)], H_FLAGS] & HF_FOG_WALK) != 0
    dist = np.full(S, -1, np.int64)
    queue = np.empty(S, np.int64)
    dist[start] = 0
    queue[0] = start
    head = 0
    tail = 1
    n = 1
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u]
        if du >= steps:
            continue
        fog_u = fog and fog_space(st, p, u)
        for v in range(S):
            if dist[v] >= 0:
                continue
            if tb.move[u, v] == 0 and not (fog_u and fog_space(st, p, v)):
                continue
            o = occ[v]
            if o >= 0 and o != f and opposed(st, f, o) and not through:
                continue
            dist[v] = du + 1
            queue[tail] = v
            tail += 1
            if o < 0:
                out[n] = v
                n += 1
    return n


@jit(V(ST, LOG, I, I, I, B))
def move_fighter(st, log, f, dest, budget, through):
    """Move fighter ``f`` to ``dest`` (already checked reachable).

    ``budget`` (spaces) and ``through`` are logged so that a move can be
    re-checked from the log alone.
    """
    src = st[fslot(f, F_SPACE)]
    if dest == src:
        return
    st[fslot(f, F_SPACE)] = dest
    st[fslot(f, F_LEFT)] = 1
    log_ev(st, log, EV_MOVE, f, src, dest, budget, 1 if through else 0)


@jit(V(ST, LOG, I, I))
def place_fighter(st, log, f, dest):
    """Place fighter ``f`` on ``dest``: not a move, ignores paths and blockers."""
    src = st[fslot(f, F_SPACE)]
    st[fslot(f, F_SPACE)] = dest
    st[fslot(f, F_STATUS)] = FS_IN_PLAY
    if src != dest and src >= 0:
        st[fslot(f, F_LEFT)] = 1
    log_ev(st, log, EV_PLACE, f, src, dest, 0, 0)


@jit(V(ST, TB, I, I))
def count_play(st, tb, p, card):
    """Count one play of ``card`` by player ``p`` (total and per card of the hero file)."""
    st[pslot(p, P_CARDS_PLAYED)] += 1
    st[OFF_PLAYED + p * MAX_HERO_CARDS + tb.cards[card, C_LOCAL]] += 1


@jit(B(ST, TB, I, I), inline=True)
def can_play(st, tb, card, g):
    """True if fighter ``g`` may play ``card``: its banner (fighter mask) and form.

    A card with a form (Dr. Jekyll / Mr. Hyde banner) is playable only in that
    form (docs/rules.md project decision R44); with the rules option ``off_form_cards``
    (``R_OFF_FORM``) it is playable in either form and only its effects need the
    form (see ``effects.run_card_window``).
    """
    k = st[fslot(g, F_KIND)]
    if (tb.cards[card, C_FMASK] >> k) & 1 == 0:
        return False
    form = tb.cards[card, C_FORM]
    if form != 0 and tb.rules[R_OFF_FORM] == 0:
        p = st[fslot(g, F_OWNER)]
        if st[pslot(p, P_COUNTER0 + FORM_COUNTER)] != form - 1:
            return False
    return True


@jit(I(ST, I, I), inline=True)
def counter(st, p, i):
    """Hero counter ``i`` of player ``p`` (Alice's size, Jekyll's form, ...)."""
    return st[pslot(p, P_COUNTER0 + i)]
