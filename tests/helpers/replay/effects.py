"""Numba steps that explain an event by a live effect row (``match_effect``), card and
form checks, and the turn's bookkeeping (ongoing schemes, dormancy, turn begin and end)."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.engine.core import PILE_DECK, PILE_DISC
from sim.engine.layout import A_ATTACK, FIGHTERS_PER_PLAYER, MAX_FIGHTERS, N_COUNTERS, N_FOG

from .board import (cond_eval, count_tagged, fog_at, has_fighter, move_dist, near, ongoing_of, ref_is, reset_action,
    row_amount, row_live, space_free, target_ok, team)
from .constants import (ACTIONS, CI_BOOST, CI_DROW, CI_FMASK, CI_FORM, CI_TAGS, CI_TYPE, CI_UNCANCEL, CI_VALUE,
    CTY_ATTACK, CTY_DEFENSE, CTY_SCHEME, CX_ACTNO, CX_ALLOWED, CX_ATTACKED0, CX_CANCEL0, CX_CHOSEN0, CX_CNT0, CX_DORM0,
    CX_ENDED, CX_EOT, CX_GUESS, CX_KIND, CX_LASTFOG, CX_LASTTOK, CX_MUSTPLACE, CX_NCHOSEN0, CX_PHASE, CX_PINNED,
    CX_PLAYER, CX_RET0, CX_SF0, CX_SP0, CX_SRC0, CX_TURN, E_ACTIONS, E_ONGOING, EF_ARG, EF_BYTAG, EF_FOG, EF_MATCH,
    EF_N, EF_ONE, EF_OP, EF_REF, EF_SIDE, EF_THR, EF_TO, EF_TOREF, EF_UPTO, EF_WHO, EF_X, FG_DIFF, FG_EACH, FG_EMPTY,
    FG_UNDER,
    K_DISC, OK, OX_BOOST, OX_CANCEL, OX_CHOOSE, OX_CHOOSECNT, OX_DAMAGE, OX_DISCARD, OX_DISCFV, OX_DISCTOP, OX_DSPACES,
    OX_ENDTURN, OX_FLIP, OX_GAIN, OX_GUESS, OX_HANDDECK, OX_LOOKTOP, OX_MOVE, OX_MOVEFOG, OX_PIN, OX_PLACE,
    OX_PLACEFOG, OX_RECLAIM, OX_RECOVER, OX_REMOVE, OX_REPLACE, OX_RETURN, OX_REVEAL, OX_SEARCH, OX_SELFDECK,
    OX_SETCNT, OX_SETHP, OX_SETPRINTED, OX_SUMMON, OX_SWAP, OX_TAKEDISC, OX_TOHAND, OX_ARRANGE, OX_DEFENDER, PH_START, SD_OWN,
    SF_DECK, SF_DISC,
    SF_DISC_THEN_DECK, SX_DORMANT_ENDS, SX_ONGOING_KEPT, TO_ADJ, TO_ANY, TO_LASTFOG, TO_ZONE, WANT_BOOST, WANT_CANCEL,
    WANT_CHOOSE, WANT_COUNTER, WANT_DAMAGE, WANT_DISCARD, WANT_DISCTOP, WANT_ENDTURN, WANT_FOG, WANT_GAIN, WANT_GUESS,
    WANT_HANDDECK, WANT_IGNORE, WANT_LOOK, WANT_MOVE, WANT_PIN, WANT_PLACE, WANT_RECLAIM_TOP, WANT_RECOVER,
    WANT_REMOVE, WANT_REPLACE, WANT_RETURN, WANT_REVEAL, WANT_SEARCH, WANT_SELFDECK, WANT_SETHP, WANT_SETPRINTED,
    WANT_TOHAND, WANT_ARRANGE,
    WANT_DEFENDER, WANT_SWAP, WANT_TAKE, XF_KIND, XF_MAXHP, XF_PN, XF_PTAG, XF_USED)


@njit(cache=True)
def match_effect(want, g, v1, v2, ctx, eff, eidx, used, pos, hp, xf, card_info, cards, adj, zmask, ldist):
    """Find the live effect row that explains an event and mark it used.

    ``want``: WANT_*; ``g``: the fighter (or player) the event is about; ``v1``/``v2``:
    the event's numbers. Returns ``slot * 64 + k`` (row ``k`` of the slot's source) or
    ``-1 - stage``, how far the closest row got (stage 0: no row of that kind with those
    numbers; 1: numbers fit but a flag does not; 2: numbers fit but not now / not this
    fighter / already used).
    """
    stage = 0
    for j in range(2):
        slot = 1 - j         # the defender's card resolves first (rules, "Scheme and attack")
        src = ctx[CX_SRC0 + slot]
        if src < 0 or ctx[CX_CANCEL0 + slot] != 0:
            continue
        pl = ctx[CX_SP0 + slot]
        me = ctx[CX_SF0 + slot]
        side = slot if ctx[CX_KIND] == A_ATTACK else -1
        r0 = eidx[src]
        for k in range(eidx[src + 1] - r0):
            row = eff[r0 + k]
            op = row[EF_OP]
            fighter = True       # the row targets fighters (else players)
            once = False         # a player-targeted row that explains one event only
            if want == WANT_MOVE:
                if op != OX_MOVE or row[EF_N] != v1:
                    continue
                stage = max(stage, 1)
                if v2 != 0 and row[EF_THR] == 0:
                    continue
            elif want == WANT_PLACE:
                if op != OX_PLACE and op != OX_SUMMON:
                    continue
                if v1 == v2:
                    continue
                stage = max(stage, 1)
                if op == OX_SUMMON:
                    # an on-board fighter is summoned only if none of its kind is off the board (R63)
                    all_on = True
                    for q in range(pl * FIGHTERS_PER_PLAYER, (pl + 1) * FIGHTERS_PER_PLAYER):
                        if xf[q, XF_USED] != 0 and xf[q, XF_KIND] == row[EF_REF] and pos[q] < 0:
                            all_on = False
                    if not all_on:
                        continue
                to = row[EF_TO]
                if to == TO_LASTFOG:
                    if v1 != ctx[CX_LASTFOG]:
                        continue
                elif to != TO_ANY:
                    ok = False
                    for r in range(MAX_FIGHTERS):
                        if pos[r] >= 0 and ref_is(r, row[EF_TOREF], pl, me, side, ctx, xf):
                            if to == TO_ZONE and (zmask[pos[r]] & zmask[v1]) != 0:
                                ok = True
                            if to == TO_ADJ and near(adj, pos[r], v1):
                                ok = True
                    if not ok:
                        continue
            elif want == WANT_DAMAGE:
                if op != OX_DAMAGE and op != OX_DSPACES:
                    continue
                n = row_amount(row, slot, pl, g, ctx, pos, xf, adj, card_info, zmask)
                if n >= 0 and v1 != min(n, hp[g]):
                    continue
            elif want == WANT_RECOVER:
                if op != OX_RECOVER:
                    continue
                n = row_amount(row, slot, pl, g, ctx, pos, xf, adj, card_info, zmask)
                if n >= 0 and v1 != min(n, xf[g, XF_MAXHP] - hp[g]):
                    continue
            elif want == WANT_SETHP:
                if op != OX_SETHP or v1 != min(row[EF_N], xf[g, XF_MAXHP]):
                    continue
            elif want == WANT_PIN:
                if op != OX_PIN:
                    continue
            elif want == WANT_SWAP:
                if op != OX_SWAP or v1 != me:
                    continue
            elif want == WANT_DEFENDER:
                if op != OX_DEFENDER or slot != 1:      # the defender's card only
                    continue
            elif want == WANT_RETURN:
                if op != OX_RETURN and op != OX_SUMMON:
                    continue
                if g // FIGHTERS_PER_PLAYER != pl or xf[g, XF_KIND] != row[EF_REF]:
                    continue
                stage = max(stage, 1)
                ok = False
                for r in range(MAX_FIGHTERS):
                    if (r != g and pos[r] >= 0 and ref_is(r, row[EF_TOREF], pl, me, side, ctx, xf)
                            and (zmask[pos[r]] & zmask[v1]) != 0):
                        ok = True
                if not ok:
                    continue
                stage = max(stage, 2)
                if not row_live(row, slot, ctx, pos, hp, xf, card_info, cards, zmask):
                    continue
                if op == OX_SUMMON:
                    if used[slot, k] != 0:
                        continue
                    used[slot, k] = 1
                return slot * 64 + k
            else:
                fighter = False
                if want == WANT_COUNTER:
                    if pl != g or row[EF_X] != v1:
                        continue
                    cur = ctx[CX_CNT0 + g * N_COUNTERS + v1]
                    if op == OX_FLIP:
                        if v2 != 1 - cur:
                            continue
                    elif op == OX_SETCNT:
                        if v2 != row[EF_N]:
                            continue
                    elif op == OX_CHOOSECNT:
                        if v2 < 0 or v2 >= row[EF_N]:
                            continue
                    else:
                        continue
                    once = True
                elif want == WANT_DISCTOP or want == WANT_DISCARD or want == WANT_IGNORE:
                    if want == WANT_DISCARD and op == OX_DISCFV:
                        # discard any number of cards (tagged, of a form, or any) from your own hand
                        # (Channel the Source, Forever Hyde, Beastform)
                        if pl != g:
                            continue
                        if row[EF_ARG] != 0 and (card_info[v1, CI_TAGS] & row[EF_ARG]) == 0:
                            continue
                        if row[EF_X] != 0 and card_info[v1, CI_FORM] != row[EF_X]:
                            continue
                    else:
                        if op != (OX_DISCTOP if want == WANT_DISCTOP else OX_DISCARD):
                            continue
                        if (pl == g) != (row[EF_SIDE] == SD_OWN):
                            continue
                        if want == WANT_DISCARD and row[EF_MATCH] != 0:
                            # Confirm Suspicion: a card whose printed value is the value named
                            if card_info[v1, CI_TYPE] == CTY_SCHEME or card_info[v1, CI_VALUE] != ctx[CX_GUESS]:
                                continue
                    once = want == WANT_DISCTOP
                elif want == WANT_TAKE:
                    if pl != g:
                        continue
                    if op == OX_TAKEDISC:
                        if v2 != PILE_DISC or (card_info[v1, CI_TAGS] & row[EF_ARG]) == 0:
                            continue
                    elif op == OX_SEARCH:
                        if row[EF_BYTAG] != 0:
                            if (card_info[v1, CI_TAGS] & row[EF_ARG]) == 0:
                                continue
                            in_disc = count_tagged(cards, card_info, g, K_DISC, row[EF_ARG]) > 0
                        else:
                            if v1 != row[EF_ARG]:
                                continue
                            in_disc = cards[g, K_DISC, v1] > 0
                        mode = row[EF_X]
                        if v2 == PILE_DISC and mode == SF_DECK:
                            continue
                        if v2 == PILE_DECK:
                            if mode == SF_DISC:
                                continue
                            if mode == SF_DISC_THEN_DECK and in_disc:
                                continue      # the discard pile is searched first
                    elif op == OX_RECLAIM:
                        if v2 != PILE_DISC or row[EF_X] != 1 or (row[EF_ARG] != 0 and v1 != row[EF_ARG] - 1):
                            continue
                        once = True
                    else:
                        continue
                elif want == WANT_RECLAIM_TOP:
                    # v2: 1 onto the deck top (EF_X 0), 4 into the deck, shuffled (EF_X 2)
                    if op != OX_RECLAIM or pl != g or row[EF_X] != (0 if v2 == 1 else 2) \
                            or (row[EF_ARG] != 0 and v1 != row[EF_ARG] - 1):
                        continue
                    once = True
                elif want == WANT_SELFDECK or want == WANT_TOHAND:
                    if op != (OX_SELFDECK if want == WANT_SELFDECK else OX_TOHAND) or pl != g or v1 != src:
                        continue
                    once = True
                elif want == WANT_LOOK:
                    # all the cards it names (the deck permitting), or 1 up to that many when the player
                    # chooses how many (Calming Research: "up to 3", R71; 0 logs no look)
                    top = min(row[EF_N], v2)
                    if op != OX_LOOKTOP or pl != g or not (v1 == top or (row[EF_UPTO] != 0 and 1 <= v1 < top)):
                        continue
                    once = True
                elif want == WANT_ARRANGE:
                    # v1 cards looked at: all it names, the deck permitting (v2: what the deck holds)
                    if op != OX_ARRANGE or pl != g or v1 != min(row[EF_N], v2):
                        continue
                    once = True
                elif want == WANT_SEARCH:
                    if op != OX_SEARCH or pl != g:
                        continue
                    once = True
                elif want == WANT_CHOOSE:
                    if op != OX_CHOOSE or pl != g:
                        continue
                    stage = max(stage, 1)
                    if (v1 < 1 or v1 > row[EF_ARG] or (ctx[CX_CHOSEN0 + slot] >> v1) & 1 != 0
                            or ctx[CX_NCHOSEN0 + slot] >= row[EF_N]):
                        continue
                elif want == WANT_BOOST:
                    if op != OX_BOOST or pl != g:
                        continue
                    once = True
                elif want == WANT_CANCEL:
                    if op != OX_CANCEL or pl != g or slot != 1 - v1:
                        continue
                    once = True
                elif want == WANT_GAIN:
                    # g gains; the step's player is g (who = "you") or g's opponent (who = "opponent")
                    if op != OX_GAIN or (pl == g) != (row[EF_WHO] == SD_OWN) or row[EF_N] != v1:
                        continue
                    once = True
                elif want == WANT_ENDTURN:
                    if op != OX_ENDTURN or pl != g:
                        continue
                    once = True
                elif want == WANT_REMOVE:
                    if op != OX_REMOVE or g != pl * FIGHTERS_PER_PLAYER:
                        continue
                    once = True
                elif want == WANT_REPLACE:
                    # g: the player who chooses; v1: the side whose card is replaced
                    if op != OX_REPLACE or pl != g or slot != 1 - v1:
                        continue
                    once = True
                elif want == WANT_SETPRINTED:
                    # g: the player; v1: the side whose card; v2: the new printed value
                    if op != OX_SETPRINTED or pl != g:
                        continue
                    o = 1 - slot if row[EF_X] == 1 else slot
                    if v1 != o or ctx[CX_SRC0 + o] < 0:
                        continue
                    if v2 != (card_info[ctx[CX_SRC0 + o], CI_BOOST] if row[EF_ARG] < 0 else row[EF_ARG]):
                        continue
                    once = True
                elif want == WANT_GUESS:
                    if op != OX_GUESS or pl != g:
                        continue
                    once = True
                elif want == WANT_REVEAL:
                    if op != OX_REVEAL or pl != g:
                        continue
                    once = True
                elif want == WANT_HANDDECK:
                    if op != OX_HANDDECK or pl != g or used[slot, k] >= row[EF_N]:
                        continue
                elif want == WANT_FOG:
                    # g: token owner; v1: token * 16384 + from * 128 + to (from 127: placed); v2: mover
                    tok = v1 // 16384
                    frm = (v1 // 128) % 128
                    to = v1 % 128
                    if pl != g:
                        continue
                    if frm == 127:
                        if op != OX_PLACEFOG or used[slot, k] >= row[EF_N]:
                            continue
                        ok = False
                        for r in range(MAX_FIGHTERS):
                            if pos[r] >= 0 and ref_is(r, row[EF_TOREF], pl, me, side, ctx, xf) \
                                    and (zmask[pos[r]] & zmask[to]) != 0:
                                ok = True
                        if not ok or not space_free(pos, to, -1) or fog_at(ctx, pl, to):
                            continue
                    else:
                        if op != OX_MOVEFOG:
                            continue
                        if (v2 == pl) != (row[EF_WHO] == SD_OWN):
                            continue
                        stage = max(stage, 1)
                        if row[EF_N] > 0 and ldist[frm, to] > row[EF_N]:
                            continue
                        fl = row[EF_FOG]
                        if (fl & FG_EMPTY) != 0 and not space_free(pos, to, -1):
                            continue
                        if (fl & FG_UNDER) != 0 and frm != pos[pl * FIGHTERS_PER_PLAYER]:
                            continue
                        if (fl & FG_DIFF) != 0 and g * N_FOG + tok == ctx[CX_LASTTOK]:
                            continue
                        if (fl & FG_EACH) != 0:
                            if (used[slot, k] >> tok) & 1 != 0:
                                continue
                        elif used[slot, k] != 0:
                            continue
                    stage = max(stage, 2)
                    if not row_live(row, slot, ctx, pos, hp, xf, card_info, cards, zmask):
                        continue
                    if frm == 127:
                        used[slot, k] += 1
                    else:
                        used[slot, k] |= 1 << tok
                    return slot * 64 + k
                else:
                    continue
            stage = max(stage, 2)
            if not row_live(row, slot, ctx, pos, hp, xf, card_info, cards, zmask):
                continue
            if fighter:
                if not target_ok(row, g, pl, me, side, ctx, pos, xf, adj, zmask, ldist):
                    continue
                if (used[slot, k] >> g) & 1 != 0 or (row[EF_ONE] != 0 and used[slot, k] != 0):
                    continue
                used[slot, k] |= 1 << g
            elif once:
                if used[slot, k] != 0:
                    continue
                used[slot, k] = 1
            elif want == WANT_HANDDECK:
                used[slot, k] += 1
            return slot * 64 + k
    return -1 - stage


@njit(cache=True)
def form_ok(card_info, c, f, ctx):
    """A card with a form is played only in that form (Jekyll & Hyde; docs/rules.md project
    decision R44): the replayed form counter (slot 0) of ``f``'s player."""
    fm = card_info[c, CI_FORM]
    return fm == 0 or ctx[CX_CNT0 + (f // FIGHTERS_PER_PLAYER) * N_COUNTERS] == fm - 1


@njit(cache=True)
def card_ok(card_info, c, f, xf, attack, ctx):
    """Fighter ``f`` may play card ``c`` as an attack (or a defense): type, banner and form."""
    t = card_info[c, CI_TYPE]
    if t == CTY_SCHEME or t == (CTY_DEFENSE if attack else CTY_ATTACK):
        return False
    return (card_info[c, CI_FMASK] >> xf[f, XF_KIND]) & 1 != 0 and form_ok(card_info, c, f, ctx)


@njit(cache=True)
def cancel_protected(ctx, xf, card_info, cards, side):
    """The card of ``side`` cannot be cancelled: its tag, or its player's hero ability
    (Ciri: 7 or more Source cards in the discard pile; rules "Ciri: Source", cases R60)."""
    c = ctx[CX_SRC0 + side]
    if card_info[c, CI_UNCANCEL] != 0:
        return True
    p = ctx[CX_SP0 + side]
    h = p * FIGHTERS_PER_PLAYER
    return xf[h, XF_PN] > 0 and count_tagged(cards, card_info, p, K_DISC, xf[h, XF_PTAG]) >= xf[h, XF_PN]


@njit(cache=True)
def ongoing_discard_due(eff, card_info, cards, p, ctx, pos, hp, xf, zmask):
    """Player ``p``'s ongoing scheme's discard condition at the end of its turn:
    1 holds, 0 not, -1 no scheme / no condition / not evaluated."""
    og = ongoing_of(cards, p)
    if og < 0 or card_info[og, CI_DROW] < 0:
        return -1
    return cond_eval(eff[card_info[og, CI_DROW]], p, p * FIGHTERS_PER_PLAYER, -1, ctx, pos, hp, xf, card_info,
                     cards, zmask)


@njit(cache=True)
def close_turn(ctx, eff, card_info, cards, pos, hp, xf, zmask, stats, info):
    """The end of the active player's turn (its end-of-turn steps are done): all its
    actions were taken unless the turn was ended, it went dormant, and its ongoing scheme
    was discarded exactly if its condition holds (Witcher rules, "Ongoing Schemes")."""
    p = ctx[CX_PLAYER]
    if p < 0 or ctx[CX_TURN] < 1:
        return OK
    if ctx[CX_ACTNO] < ctx[CX_ALLOWED] and ctx[CX_ENDED] == 0:
        if has_fighter(pos, p):
            info[1] = p
            info[2] = ctx[CX_ACTNO]
            info[3] = ctx[CX_ALLOWED]
            return E_ACTIONS
        stats[SX_DORMANT_ENDS] += 1
    due = ongoing_discard_due(eff, card_info, cards, p, ctx, pos, hp, xf, zmask)
    if due == 1:
        info[1] = p
        info[2] = ongoing_of(cards, p)
        info[3] = 1
        return E_ONGOING              # its condition holds, but it stayed in play
    if ongoing_of(cards, p) >= 0:
        stats[SX_ONGOING_KEPT] += 1
    return OK


@njit(cache=True)
def tracked_passes(succ, pos, f, src, dst, budget):
    """Bit mask of the fighters opposing ``f`` that a move src -> dst of at most ``budget``
    steps can go through (moving through every fighter: the move is 'through enemies')."""
    mask = 0
    for o in range(MAX_FIGHTERS):
        so = pos[o]
        if o == f or so < 0 or so == src or team(o) == team(f):
            continue
        nofog = np.zeros(succ.shape[0], np.bool_)
        d1 = move_dist(succ, pos, f, src, so, False, False, budget, nofog)
        if d1 < 0:
            continue
        d2 = move_dist(succ, pos, f, so, dst, False, False, budget - d1, nofog)
        if d2 >= 0:
            mask |= 1 << o
    return mask


@njit(cache=True)
def update_dormancy(ctx, pos):
    """At the end of an action: a player with no fighter on the board is dormant (R48, R64)."""
    for p in range(2):
        ctx[CX_DORM0 + p] = 0 if has_fighter(pos, p) else 1


@njit(cache=True)
def begin_turn(ctx, used, nc, cards, a, b):
    """EV_TURN: player ``a`` starts turn ``b``: its start-of-turn ability (slot 0) and the
    start-of-turn effects of its ongoing scheme (slot 1) are live."""
    reset_action(ctx, used)
    ctx[CX_TURN] = b
    ctx[CX_PLAYER] = a
    ctx[CX_KIND] = -1
    ctx[CX_PHASE] = PH_START
    ctx[CX_SRC0] = nc + 2 * a
    ctx[CX_SP0] = a
    ctx[CX_SF0] = a * FIGHTERS_PER_PLAYER
    og = ongoing_of(cards, a)
    if og >= 0:
        ctx[CX_SRC0 + 1] = og
        ctx[CX_SP0 + 1] = a
        ctx[CX_SF0 + 1] = a * FIGHTERS_PER_PLAYER
    ctx[CX_ACTNO] = 0
    ctx[CX_ALLOWED] = ACTIONS
    ctx[CX_ENDED] = 0
    ctx[CX_EOT] = 0
    ctx[CX_PINNED] = 0
    ctx[CX_ATTACKED0 + a] = 0
    if ctx[CX_RET0 + a] != 0:
        ctx[CX_MUSTPLACE] = a       # the removed hero is placed first thing (Vanish into Murder)
