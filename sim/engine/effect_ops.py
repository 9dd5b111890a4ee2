"""The longer operations of effect steps: moving a group of fighters, empty spaces and
the spaces a place step offers, searches and looking at
the deck top, summoning, the values an opponent may name, fog tokens, and replacing an
opponent's combat card.

Called by the effect interpreter (:mod:`sim.engine.effects`) and the rules.
"""
import numpy as np

from .sigs import A1, B, CTL, I, jit, LOG, ST, stack_i64, TB, V
from .codes import (
    CT_ATTACK, CT_DEFENSE, CT_SCHEME, CT_VERSATILE, D_FOG_DEST, D_FOG_TOKEN, D_FORCE_CARD, D_MOVE_DEST,
    D_MOVE_WHICH, D_OPTION, D_PLACE, D_TAKE_CARD, D_TARGET, EV_FOG, EV_LOOK_HAND, EV_LOOK_TOP, EV_REPLACE,
    EV_RETURN, EV_SEARCH, EV_TAKE, FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, FT_ANY, FT_EACH, FT_UNDER_HERO,
    GF_TOOK_FROM_DECK, PILE_DECK, PILE_DISC, PILE_HAND, PL_ANY, PL_IN_ZONE, SR_DECK,
    SR_DECK_OR_DISCARD, SR_DISCARD_THEN_DECK,
)
from .core import (
    add_unique, allowed_spaces, can_play, count_play, fill_occupancy, fog_space, log_ev,
    move_fighter, opposed, pile_base, pile_push, pile_remove_at, pile_take, place_fighter, rand_below, reachable,
    same_zone, shuffle_deck, take_to_hand,
)
from .layout import (
    C_TAGS, C_TYPE, C_VALUE, CARD_OPTS, CB_ATT_F, CB_ATT_P, CB_CANCEL0, CB_CARD0, CB_GUESS0, CB_IGN0, CB_LOCK0,
    CB_MOD0, CB_OVR0, CB_PRINTED0, F_HP, F_KIND, F_MAXHP, F_NOLEAVE, F_SPACE, F_START_SPACE, F_STATUS,
    FIGHTERS_PER_PLAYER, fslot, G_FLAGS, G_FOG_SPACE, G_FOG_TOKEN, G_OVER,
    G_PASSED, H_DECK_LEN, H_DECK_START, MAX_CARDS, MAX_FIGHTERS, MAX_SPACES, N_FOG, N_VALUES, OFF_CB,
    P_DECKN, P_DISCN, P_FOG0, P_HAND_SEEN, P_HANDN, P_HERO, P_ONGOING, pslot, SPACE_OPTS, TWO_PILES,
)
from .policy import CTL_CTX_F, CTL_CTX_N, CTL_CTX_OWNER, decide
from .conditions import resolve_ref


@jit(V(ST, TB, CTL, LOG, I, A1, A1, I, B, B, B))
def move_group(st, tb, ctl, log, mover, fighters, budgets, n, through, track, onto_fog):
    """Move fighters one at a time, each up to its own budget (spaces).

    ``mover`` chooses the order (``D_MOVE_WHICH``) and each destination
    (``D_MOVE_DEST``). ``fighters``/``budgets``: int64 arrays, first ``n``
    used. With ``track``, ``G_PASSED`` collects the opposing fighters each
    move could have passed through (Bane of the Aen Elle: the player routes
    the move through the fighter they then damage). With ``onto_fog`` a move
    must end on a space with one of the mover's fog tokens (staying is allowed
    only on one; Lurking); a fighter with no such destination does not move.
    Source: Battle of Legends Vol. 1 rules, "Maneuver and movement".
    """
    dests = stack_i64(SPACE_OPTS)
    left = stack_i64(MAX_FIGHTERS)
    left_b = stack_i64(MAX_FIGHTERS)
    for i in range(n):
        left[i] = fighters[i]
        left_b[i] = budgets[i]
    m = n
    while m > 0 and st[G_OVER] == 0:
        i = 0
        if m > 1:
            i = decide(st, tb, ctl, D_MOVE_WHICH, mover, left, m)
        g = left[i]
        b = left_b[i]
        left[i] = left[m - 1]
        left_b[i] = left_b[m - 1]
        m -= 1
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY:
            continue
        k = reachable(st, tb, g, b, through, dests)
        ctl[CTL_CTX_F] = g
        if onto_fog:
            kk = 0
            for x in range(k):
                if fog_space(st, mover, dests[x]):
                    dests[kk] = dests[x]
                    kk += 1
            k = kk
            if k == 0:
                continue
        j = decide(st, tb, ctl, D_MOVE_DEST, mover, dests, k)
        src = st[fslot(g, F_SPACE)]
        move_fighter(st, log, g, dests[j], b, through)
        if track and dests[j] != src:
            # opposing fighters the move can have gone through: src -> their space -> dest fits
            d = dests[j]
            for o in range(MAX_FIGHTERS):
                if o != g and st[fslot(o, F_STATUS)] == FS_IN_PLAY and opposed(st, g, o):
                    so = st[fslot(o, F_SPACE)]
                    if so != src and tb.dist[src, so] + tb.dist[so, d] <= b:
                        st[G_PASSED] |= 1 << o


ROUTE_MAX = 8          # most opposing fighters a route is worked out over (a duel has at most 4)
ROUTE_DP = 2048        # (1 << ROUTE_MAX) * ROUTE_MAX: shortest route over each set of them, by the last one


@jit(I(ST, TB, I, I, I))
def route_passes(st, tb, src, dest, budget):
    """The fighters of one route of a tracked move: of the fighters in ``G_PASSED`` (each one the
    move of at most ``budget`` spaces from ``src`` to ``dest`` could have gone through), the largest
    set one route of that length goes through in turn (src -> each of them -> dest, counted along
    lines, ``tb.dist``), as a bit mask of fighters (of equal sets, the first in bit-mask order).

    For a target ``{ each = "passed" }`` (the move step's ``IF_ROUTE``): the mover routes the
    move through as many opposing fighters as it can (project decision: docs/rules.md "Ops of
    other boxes"), so each fighter damaged is one a single route passed. Only the first
    ``ROUTE_MAX`` fighters are considered."""
    cand = stack_i64(ROUTE_MAX)
    sp = stack_i64(ROUTE_MAX)
    k = 0
    for o in range(MAX_FIGHTERS):
        if (st[G_PASSED] >> o) & 1 != 0 and k < ROUTE_MAX:
            cand[k] = o
            sp[k] = st[fslot(o, F_SPACE)]
            k += 1
    full = 1 << k
    big = 1 << 30
    dp = stack_i64(ROUTE_DP)      # dp[mask * ROUTE_MAX + j]: shortest src -> (mask, ending at j)
    for i in range(full * ROUTE_MAX):
        dp[i] = big
    for j in range(k):
        dp[(1 << j) * ROUTE_MAX + j] = tb.dist[src, sp[j]]
    best, best_n = 0, 0
    for mask in range(1, full):
        n = 0
        for j in range(k):
            n += (mask >> j) & 1
        for j in range(k):
            v = dp[mask * ROUTE_MAX + j]
            if (mask >> j) & 1 == 0 or v >= big:
                continue
            if v + tb.dist[sp[j], dest] <= budget and n > best_n:
                best, best_n = mask, n
            for t in range(k):
                if (mask >> t) & 1 == 0:
                    nv = v + tb.dist[sp[j], sp[t]]
                    w = (mask | (1 << t)) * ROUTE_MAX + t
                    if nv < dp[w]:
                        dp[w] = nv
    out = 0
    for j in range(k):
        if (best >> j) & 1 != 0:
            out |= 1 << cand[j]
    return out


@jit(I(ST, TB, I, I, A1))
def empty_spaces(st, tb, where, center, out):
    """Empty spaces (any / in the zone of ``center`` / adjacent to it / ``center`` itself
    for PL_LAST_FOG) written to ``out``; return how many."""
    return allowed_spaces(st, tb, where, center, -1, out)


@jit(I(ST, TB, I, I, I, B, A1))
def place_spaces(st, tb, where, center, g, other, out):
    """Spaces a place step may put fighter ``g`` on, written to ``out`` (int64, length
    >= MAX_SPACES) in space order; return how many.

    ``where``/``center`` as for :func:`empty_spaces`: the empty spaces the wording
    allows, and also ``g``'s own space when the wording allows it and the card does
    not say "other" (``other``): choosing it leaves ``g`` where it is (case R69:
    Pure Evil lets Mr. Hyde stay and hit his neighbours, Mistform may be played for
    the action alone). Source: the card texts ("any space" includes the one the
    fighter is on; Looking Glass says "any other space") and the Unmatched Reference
    placement ruling (a space the wording allows may be chosen even when a fighter is
    on it; the placement then fails and the fighter stays), see docs/rules.md R69.
    """
    own = st[fslot(g, F_SPACE)] if st[fslot(g, F_STATUS)] == FS_IN_PLAY and not other else -1
    return allowed_spaces(st, tb, where, center, own, out)


@jit(V(ST, TB, CTL, LOG, I, I))
def place_on_fog(st, tb, ctl, log, p, g):
    """Player ``p`` places fighter ``g`` on a space with one of ``p``'s fog tokens and no
    fighter, or leaves it on the fog space it stands on: the rules option
    ``fog_move_places`` reading of Lurking's "move to a space with a fog token" (case
    R72). A pinned fighter (Yrden) stays."""
    if st[fslot(g, F_STATUS)] != FS_IN_PLAY or st[fslot(g, F_NOLEAVE)] != 0:
        return
    spaces = stack_i64(MAX_SPACES)
    k = place_spaces(st, tb, PL_ANY, -1, g, False, spaces)
    m = 0
    for i in range(k):
        if fog_space(st, p, spaces[i]):
            spaces[m] = spaces[i]
            m += 1
    if m == 0:
        return
    ctl[CTL_CTX_F] = g
    d = spaces[decide(st, tb, ctl, D_PLACE, p, spaces, m)]
    if d != st[fslot(g, F_SPACE)]:
        place_fighter(st, log, g, d)


@jit(I(A1, I))
def add_unheld_value(vals, m):
    """Add to the ascending values ``vals[:m]`` (int64, length >= N_VALUES) the smallest
    value 0..N_VALUES-1 not among them, in order, and return the new count (``m`` if
    every value is there).

    Naming a value (Confirm Suspicion) may name one that none of the opponent's cards
    can have; all such values have the same outcome (the hand is revealed), so one
    stands for them all (case R67)."""
    v = 0
    i = 0
    while i < m and vals[i] == v:
        v += 1
        i += 1
    if v >= N_VALUES:
        return m
    for j in range(m, i, -1):
        vals[j] = vals[j - 1]
    vals[i] = v
    return m + 1


@jit(V(ST, TB, CTL, LOG, I, I, I, I))
def search(st, tb, ctl, log, p, where, card, tagbits):
    """Search your deck and/or discard pile for ``card`` (or a card with ``tagbits``).

    The player takes one match into hand; a searched deck is shuffled (case
    R61). ``where``: SR_DISCARD_THEN_DECK (the deck is searched only if the
    discard pile has no match: The Lady of the Lake), SR_DECK, SR_DISCARD.
    """
    opts = stack_i64(TWO_PILES)
    searched_deck = False
    n = 0
    st[G_FLAGS] &= ~GF_TOOK_FROM_DECK
    pile = PILE_DISC if where != SR_DECK else PILE_DECK
    if where == SR_DECK_OR_DISCARD:
        # the player picks the pile first (1 deck, 2 discard pile) among those with a match
        piles = stack_i64(2)
        m = 0
        for pl in range(2):
            pi = PILE_DECK if pl == 0 else PILE_DISC
            base = pile_base(pi, p)
            for k in range(st[pslot(p, P_DECKN if pi == PILE_DECK else P_DISCN)]):
                c = st[base + k]
                if c == card or (card < 0 and (tb.cards[c, C_TAGS] & tagbits) != 0):
                    piles[m] = pl + 1
                    m += 1
                    break
        if m == 0:
            log_ev(st, log, EV_SEARCH, p, -1, 0, 0, 0)
            return
        pile = PILE_DECK if piles[decide(st, tb, ctl, D_OPTION, p, piles, m)] == 1 else PILE_DISC
    for _attempt in range(2):
        base = pile_base(pile, p)
        for k in range(st[pslot(p, P_DISCN if pile == PILE_DISC else P_DECKN)]):
            c = st[base + k]
            if c == card or (card < 0 and (tb.cards[c, C_TAGS] & tagbits) != 0):
                n = add_unique(opts, n, c)
        if pile == PILE_DECK:
            searched_deck = True
        if n > 0 or where != SR_DISCARD_THEN_DECK or pile == PILE_DECK:
            break
        pile = PILE_DECK
    if n > 0 and pile == PILE_DECK:
        st[G_FLAGS] |= GF_TOOK_FROM_DECK
    found = -1
    if n > 0:
        found = opts[decide(st, tb, ctl, D_TAKE_CARD, p, opts, n)]
        take_to_hand(st, log, pile, p, found)
    if searched_deck:
        shuffle_deck(st, p)
    log_ev(st, log, EV_SEARCH, p, found, 1 if searched_deck else 0, 0, 0)


@jit(V(ST, TB, CTL, LOG, I, I, I, B, B))
def look_top(st, tb, ctl, log, p, n, keep, bottom, up_to):
    """Look at the top ``n`` cards of your deck, keep ``keep`` in hand, put the rest back.

    Looking is not drawing (no exhaustion). The rest go back on top (or to the
    bottom) one at a time in the order the player chooses (Prophecy). With
    ``up_to`` the player first chooses how many cards, from the most the deck
    holds (up to ``n``) down to 0 (``D_OPTION``; Calming Research's "draw up to
    3, keep one": case R71; more than the deck holds would only cost exhaustion
    damage, so it is not offered).
    """
    dn = st[pslot(p, P_DECKN)]
    m = n if n < dn else dn
    if up_to and m > 0:
        counts = stack_i64(CARD_OPTS)
        for k in range(m + 1):
            counts[k] = m - k
        m = counts[decide(st, tb, ctl, D_OPTION, p, counts, m + 1)]
        if m == 0:
            return
    seen = stack_i64(MAX_CARDS)
    for k in range(m):
        seen[k] = pile_remove_at(st, PILE_DECK, p, st[pslot(p, P_DECKN)] - 1)
    log_ev(st, log, EV_LOOK_TOP, p, m, 0, 0, 0)
    left = m
    for _ in range(keep if keep < m else m):
        j = decide(st, tb, ctl, D_TAKE_CARD, p, seen, left)
        c = seen[j]
        seen[j] = seen[left - 1]
        left -= 1
        pile_push(st, PILE_HAND, p, c)
        log_ev(st, log, EV_TAKE, p, c, PILE_DECK, 0, 0)
    while left > 0:
        j = decide(st, tb, ctl, D_TAKE_CARD, p, seen, left)
        c = seen[j]
        seen[j] = seen[left - 1]
        left -= 1
        if bottom:
            pile_push(st, PILE_DECK, p, c)
            b = pile_base(PILE_DECK, p)
            for k in range(st[pslot(p, P_DECKN)] - 1, 0, -1):
                st[b + k] = st[b + k - 1]
            st[b] = c
        else:
            pile_push(st, PILE_DECK, p, c)


@jit(V(ST, TB, CTL, LOG, I, I, I, B))
def arrange_top(st, tb, ctl, log, p, q, n, bottom):
    """Step ``arrange_top``: player ``p`` looks at the top ``n`` cards of player ``q``'s deck (as
    many as it holds) and puts them back: ``p`` picks the cards one at a time (``D_TAKE_CARD``,
    ``CTL_CTX_OWNER`` = ``q``) and, with ``bottom``, for each whether it goes on top (option 1)
    or to the bottom (2) (``D_OPTION``, the card in ``CTL_CTX_N``). The first card put on top ends
    on top; the first put at the bottom ends lowest. Not a draw (no exhaustion). Logs
    ``EV_LOOK_TOP`` (p, cards looked at, 1 + q, cards put at the bottom)."""
    dn = st[pslot(q, P_DECKN)]
    m = n if n < dn else dn
    if m == 0:
        return
    seen = stack_i64(MAX_CARDS)
    tops = stack_i64(MAX_CARDS)
    bots = stack_i64(MAX_CARDS)
    two = stack_i64(2)
    for k in range(m):
        seen[k] = pile_remove_at(st, PILE_DECK, q, st[pslot(q, P_DECKN)] - 1)
    nt = 0
    nb = 0
    left = m
    while left > 0:
        ctl[CTL_CTX_OWNER] = q
        j = decide(st, tb, ctl, D_TAKE_CARD, p, seen, left)
        c = seen[j]
        seen[j] = seen[left - 1]
        left -= 1
        down = False
        if bottom:
            two[0] = 1
            two[1] = 2
            ctl[CTL_CTX_N] = c
            down = two[decide(st, tb, ctl, D_OPTION, p, two, 2)] == 2
        if down:
            bots[nb] = c
            nb += 1
        else:
            tops[nt] = c
            nt += 1
    b = pile_base(PILE_DECK, q)
    for k in range(nb):             # slide the deck up and put the bottom cards under it, first lowest
        pile_push(st, PILE_DECK, q, bots[k])
    d = st[pslot(q, P_DECKN)]
    for k in range(d - 1, nb - 1, -1):
        st[b + k] = st[b + k - nb]
    for k in range(nb):
        st[b + k] = bots[k]
    for k in range(nt - 1, -1, -1):  # the first picked for the top is pushed last
        pile_push(st, PILE_DECK, q, tops[k])
    log_ev(st, log, EV_LOOK_TOP, p, m, 1 + q, nb, 0)


@jit(V(ST, TB, CTL, LOG, I, I, B, I, A1))
def reclaim(st, tb, ctl, log, p, to, at_random, only, opts):
    """Step ``reclaim``: a card of player ``p``'s discard pile goes to the top of the deck (``to``
    0), the hand (1) or into the deck, which is then shuffled (2). ``at_random``: the card is
    drawn at random from the pile (each card in it equally likely), else ``p`` chooses one
    (``D_TAKE_CARD``); ``only`` >= 0: only cards of that id (none in the pile: nothing).
    ``opts``: int64 work space of ``CARD_OPTS``. Logs ``EV_TAKE`` (p, card, PILE_DISC, 0 hand /
    1 deck top / 4 into the deck)."""
    dn = st[pslot(p, P_DISCN)]
    db = pile_base(PILE_DISC, p)
    m = 0
    for k in range(dn):
        c = st[db + k]
        if only < 0 or c == only:
            if at_random:
                opts[m] = c       # one entry per card in the pile: a random pick weighs copies
                m += 1
            else:
                m = add_unique(opts, m, c)
    if m == 0:
        return
    c = opts[rand_below(st, m)] if at_random else opts[decide(st, tb, ctl, D_TAKE_CARD, p, opts, m)]
    if to == 1:
        take_to_hand(st, log, PILE_DISC, p, c)
        return
    pile_take(st, PILE_DISC, p, c)
    pile_push(st, PILE_DECK, p, c)
    if to == 2:
        shuffle_deck(st, p)
    log_ev(st, log, EV_TAKE, p, c, PILE_DISC, 1 if to == 0 else 4, 0)


@jit(V(ST, TB, CTL, LOG, I, I, I, I, I, A1))
def summon(st, tb, ctl, log, p, f, side, kind, ref, spaces):
    """Summon a fighter of ``kind``: one off the board comes back at full health,
    else the player moves one already on the board; either is put on an empty
    space in the zone of fighter ``ref``. Source: Witcher rules, "Heart of the
    Forest" (summon a Wolf); case R63.
    """
    r = resolve_ref(st, p, f, side, ref)
    if r < 0 or st[fslot(r, F_STATUS)] != FS_IN_PLAY:
        return
    g = -1
    for k in range(FIGHTERS_PER_PLAYER):
        h = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(h, F_KIND)] == kind and k > 0 and (st[fslot(h, F_STATUS)] == FS_DEFEATED
                                                        or st[fslot(h, F_STATUS)] == FS_REMOVED):
            g = h
            break
    back = g >= 0
    if not back:
        opts = stack_i64(FIGHTERS_PER_PLAYER)
        m = 0
        for k in range(1, FIGHTERS_PER_PLAYER):
            h = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(h, F_KIND)] == kind and st[fslot(h, F_STATUS)] == FS_IN_PLAY and st[fslot(h, F_NOLEAVE)] == 0:
                opts[m] = h
                m += 1
        if m == 0:
            return
        g = opts[decide(st, tb, ctl, D_TARGET, p, opts, m)]
    k = empty_spaces(st, tb, PL_IN_ZONE, st[fslot(r, F_SPACE)], spaces)
    if k == 0:
        return
    ctl[CTL_CTX_F] = g
    sp = spaces[decide(st, tb, ctl, D_PLACE, p, spaces, k)]
    if back:
        st[fslot(g, F_HP)] = st[fslot(g, F_MAXHP)]
        st[fslot(g, F_STATUS)] = FS_IN_PLAY
        st[fslot(g, F_SPACE)] = sp
        st[fslot(g, F_START_SPACE)] = sp
        log_ev(st, log, EV_RETURN, g, sp, 0, 0, 0)
    else:
        place_fighter(st, log, g, sp)


@jit(I(ST, TB, I, I, I, A1))
def possible_values(st, tb, q, g, kinds, out):
    """Distinct printed values (ascending) the cards of player ``q`` may have, from
    public information only: ``q``'s deck list minus its discard pile and ongoing
    scheme (card counting). Never reads ``q``'s hand or deck order.

    ``kinds``: 0 attack cards (attack and versatile), 1 defense cards (defense and
    versatile), 2 every card with a value. With ``g >= 0`` only cards fighter ``g``
    may play (banner and form, both public). Writes the values to ``out`` (int64,
    length >= 21) and returns how many. Used by Elementary and Confirm Suspicion.
    """
    h = st[pslot(q, P_HERO)]
    s0 = tb.heroes[h, H_DECK_START]
    nd = tb.heroes[h, H_DECK_LEN]
    left = np.zeros(tb.cards.shape[0], np.int64)
    for i in range(nd):
        left[tb.decks[s0 + i]] += 1
    db = pile_base(PILE_DISC, q)
    for i in range(st[pslot(q, P_DISCN)]):
        left[st[db + i]] -= 1
    og = st[pslot(q, P_ONGOING)]
    if og >= 0:
        left[og] -= 1
    seen = np.zeros(21, np.int64)
    for c in range(tb.cards.shape[0]):
        if left[c] <= 0:
            continue
        t = tb.cards[c, C_TYPE]
        if t == CT_SCHEME:
            continue
        if kinds == 0 and t == CT_DEFENSE:
            continue
        if kinds == 1 and t == CT_ATTACK:
            continue
        if g >= 0 and not can_play(st, tb, c, g):
            continue
        v = tb.cards[c, C_VALUE]
        if 0 <= v <= 20:
            seen[v] = 1
    n = 0
    for v in range(21):
        if seen[v]:
            out[n] = v
            n += 1
    return n


@jit(V(ST, TB, CTL, LOG, I, I, I))
def place_fog(st, tb, ctl, log, p, n, center):
    """Player ``p`` places ``n`` of its fog tokens, one at a time, on separate spaces
    in the zone of space ``center`` that hold no fighter and no fog token (Invisible
    Man's setup; case R22). Tokens already on the board stay."""
    S = tb.adj.shape[0]
    occ = stack_i64(MAX_SPACES)
    fill_occupancy(st, S, occ)
    spaces = stack_i64(MAX_SPACES)
    for _ in range(n):
        i = -1
        for t in range(N_FOG):
            if st[pslot(p, P_FOG0 + t)] < 0:
                i = t
                break
        if i < 0:
            return
        k = 0
        for s in range(S):
            if occ[s] < 0 and not fog_space(st, p, s) and same_zone(tb, s, center):
                spaces[k] = s
                k += 1
        if k == 0:
            return
        s = spaces[decide(st, tb, ctl, D_FOG_DEST, p, spaces, k)]
        st[pslot(p, P_FOG0 + i)] = s
        log_ev(st, log, EV_FOG, p, i, -1, s, p)


@jit(V(ST, TB, CTL, LOG, I, I, I, I, I, B, B, B))
def move_fog(st, tb, ctl, log, p, mover, n, mode, hero_space, empty, different, may_stay):
    """``mover`` moves fog tokens of player ``p`` (Invisible Man's cards).

    ``mode``: FT_ANY (one token of the mover's choice; with ``different`` not the
    one the last move_fog step moved), FT_UNDER_HERO (the token on ``hero_space``),
    FT_EACH (every token in turn). ``n`` > 0: up to ``n`` spaces along lines (0
    allowed); ``n`` = 0: to any other space (``may_stay``: or not at all). With
    ``empty`` only to a space without a fighter. Nothing blocks a token and tokens
    may share a space (rules "Fog Tokens"; case R22). Passages and one-way arrows
    are for fighters only: tokens move along lines in either direction.
    Sets G_FOG_TOKEN / G_FOG_SPACE to the last token moved and its space.
    """
    S = tb.adj.shape[0]
    occ = stack_i64(MAX_SPACES)
    fill_occupancy(st, S, occ)
    toks = stack_i64(N_FOG)
    tsp = stack_i64(N_FOG)
    dests = stack_i64(MAX_SPACES)
    last = st[G_FOG_TOKEN]
    st[G_FOG_SPACE] = -1
    m = 0
    for t in range(N_FOG):
        sp = st[pslot(p, P_FOG0 + t)]
        if sp < 0:
            continue
        if mode == FT_UNDER_HERO and sp != hero_space:
            continue
        if mode == FT_ANY and different and t == last:
            continue
        toks[m] = t
        tsp[m] = sp
        m += 1
    if m == 0:
        return
    rounds = m if mode == FT_EACH else 1
    for r in range(rounds):
        if mode == FT_EACH:
            t = toks[r]
        else:
            t = toks[decide(st, tb, ctl, D_FOG_TOKEN, mover, tsp, m)] if m > 1 else toks[0]
        src = st[pslot(p, P_FOG0 + t)]
        k = 0
        for s in range(S):
            if empty and (occ[s] >= 0 or s == src):
                continue
            if n > 0:
                if tb.adist[src, s] > n:
                    continue
            elif s == src and not may_stay:
                continue
            dests[k] = s
            k += 1
        st[G_FOG_TOKEN] = t
        if k == 0:
            continue
        d = dests[decide(st, tb, ctl, D_FOG_DEST, mover, dests, k)]
        st[G_FOG_SPACE] = d
        if d != src:
            st[pslot(p, P_FOG0 + t)] = d
            log_ev(st, log, EV_FOG, p, t, src, d, mover)


@jit(V(ST, TB, CTL, LOG, I, I))
def replace_card(st, tb, ctl, log, p, o):
    """Player ``p`` sends the combat card of side ``o`` back to its owner's hand, looks
    at that hand and chooses the card they play instead (it may be the same card):
    one their fighter may play for that side (attack or versatile for the attacker).
    The new card starts fresh: printed value, no changes, effects not cancelled.
    Source: Do My Bidding (Dracula); Cobble & Fog rules, "Resolve Combat".
    """
    old = st[OFF_CB + CB_CARD0 + o]
    if old < 0:
        return
    q = st[OFF_CB + CB_ATT_P + o]
    g = st[OFF_CB + CB_ATT_F + o]
    pile_push(st, PILE_HAND, q, old)
    st[pslot(q, P_HAND_SEEN)] = 1
    log_ev(st, log, EV_LOOK_HAND, p, q, 0, 0, 0)
    hn = st[pslot(q, P_HANDN)]
    hb = pile_base(PILE_HAND, q)
    opts = stack_i64(MAX_CARDS)
    m = 0
    for i in range(hn):
        c = st[hb + i]
        t = tb.cards[c, C_TYPE]
        if t == CT_VERSATILE or t == (CT_ATTACK if o == 0 else CT_DEFENSE):
            if can_play(st, tb, c, g):
                m = add_unique(opts, m, c)
    new = opts[decide(st, tb, ctl, D_FORCE_CARD, p, opts, m)] if m > 0 else old
    pile_take(st, PILE_HAND, q, new)
    b = OFF_CB
    st[b + CB_CARD0 + o] = new
    st[b + CB_PRINTED0 + o] = tb.cards[new, C_VALUE]
    st[b + CB_OVR0 + o] = -1
    st[b + CB_MOD0 + o] = 0
    st[b + CB_IGN0 + o] = 0
    st[b + CB_LOCK0 + o] = 0
    st[b + CB_CANCEL0 + o] = 0
    st[b + CB_GUESS0 + o] = 0
    if new != old:
        count_play(st, tb, q, new)
    log_ev(st, log, EV_REPLACE, q, old, new, p, 0)
