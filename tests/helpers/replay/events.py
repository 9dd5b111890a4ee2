"""The event-by-event replay of a game's log (``replay``)."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.engine.core import PILE_DECK, PILE_DISC, PILE_HAND
from sim.engine.layout import (A_ATTACK, A_MANEUVER, A_SCHEME, END_TURN_CAP, EV_ABILITY, EV_ACTION, EV_ATTACK,
    EV_BOOST, EV_CANCEL, EV_CHOOSE, EV_COUNTER, EV_DAMAGE, EV_DEFEATED, EV_DEFENSE, EV_DISCARD, EV_DRAW, EV_END_TURN, EV_EXHAUST, EV_FOG,
    EV_GAIN_ACTION, EV_GAME_OVER, EV_GUESS, EV_IGNORE, EV_LOOK_TOP, EV_MOVE, EV_ONGOING, EV_PIN, EV_PLACE, EV_RECOVER,
    EV_REDIRECT,
    EV_REMOVE, EV_REPLACE, EV_RETURN, EV_SCHEME, EV_SEARCH, EV_SET_HP, EV_SET_PRINTED, EV_SETUP, EV_SWAP, EV_TAKE, EV_DEFENDER,
    EV_TURN, EV_VALUES, FIGHTERS_PER_PLAYER, HK_AFTER_ATTACK, HK_AFTER_DEFENSE, HK_END_TURN, HK_FIGHTER_DEFEATED, MAX_FIGHTERS,
    N_COUNTERS, N_FOG)

from .board import (close_step, count_tagged, deck_left, flush_pending, fog_at, fog_mask, has_fighter, move_dist, near,
    ongoing_of, passive_in_play, pile_add, reset_action, row_live, space_free, team)
from .constants import (CX_RD_COMBAT, CX_RD_F, CX_RD_G, CX_RD_N, CX_RD_OTHERS, CX_RD_SUM, CX_RD_WHOLE, E_REDIRECT, E_DEFENDER, SX_DEFENDERS, WANT_DEFENDER, EF_N,
    SX_CAPPED, SX_REDIRECTS, XF_BD_BY, XF_BD_CAP, XF_BD_COMBAT, XF_BD_SPLIT, XF_BD_TAKE, CI_BOOST, CI_FMASK, CI_FORM, CI_ONGOING, CI_RETDRAW, CI_TAGS, CI_TYPE, CI_VALUE, CTY_SCHEME,
    CX_CDEALT, CX_START0,
    CX_ACTNO, CX_ALLOWED, CX_ATT, CX_ATTACKED0, CX_BONUS0, CX_BOOST, CX_CANCEL0, CX_CANCEL1, CX_CDMG, CX_CHOSEN0,
    CX_CNT0, CX_DEFF, CX_DORM0, CX_DOWN, CX_ENDED, CX_EOT, CX_EXH_MASK, CX_EXH_N, CX_EXH_P, CX_EXH_WANT, CX_FDBOOST,
    CX_FOG0, CX_GUESS, CX_KIND, CX_KOSAVE, CX_KOUSED0, CX_LAST_CARD, CX_LAST_TAKE, CX_LASTFOG, CX_LASTTOK, CX_LBOOST,
    CX_LOOK, CX_MOVED,
    CX_MUST_SHUFFLE, CX_MUSTPLACE, CX_NCHOSEN0, CX_NDISC0, CX_OUT0, CX_OVER, CX_PASSED, CX_PHASE, CX_PINNED, CX_PLAYER,
    CX_RET0, CX_RETDRAW, CX_RETDRAW_P, CX_SF0, CX_SP0, CX_SRC0, CX_SRCDMG0, CX_TOOKDECK, CX_TURN, CX_WON, DECK_SIZE,
    E_ABILITY, E_ACTIONS, E_ATTACK, E_BOOST, E_CANCEL, E_CARD_FLOW, E_CARD_PLAY, E_CHOOSE, E_COMBAT, E_COUNTER, E_DAMAGE,
    E_DAMAGE_SOURCE, E_DEFEAT, E_DORMANT, E_END_TURN, E_EVENT, E_EXHAUST, E_FOG, E_GAIN, E_GUESS, E_HEAL_SOURCE,
    E_MOVE_BUDGET, E_MOVE_DEST, E_MOVE_FROM, E_MOVE_PATH, E_MOVE_SAME, E_MOVE_THROUGH, E_MOVE_WHO, E_ONGOING, E_PIN,
    E_PLACE, E_RECOVER, E_REMOVE, E_REPLACE, E_RETURN, E_SETUP, E_SWAP, E_TURN_ORDER, EF_ARG, EF_BYTAG, EF_FOG, EF_OP,
    EF_SEL, EF_TRACK, EF_WHO, EF_WIN, EF_X, EXHAUST_DAMAGE, FG_ONTO, FL_BOOST_ATTACK, FL_FOG_WALK, K_DISC, K_HAND, K_ONG,
    K_PEND, OK, OX_DISCFV, OX_DSPACES, OX_PREVENT, OX_RECLAIM, OX_SELFDECK, OX_SUMMON, PH_AFTER, PH_DECLARED, PH_EARLY,
    PH_AFTATK, PH_AFTDEF, PH_EOT, PH_KO, PH_MANEUVER, PH_SCHEME, PH_SETUP, PH_START, PV_IGNORE_DISCARD, PV_NO_OPP_ACTIONS,
    SF_DECK, SF_DISC,
    SF_DISC_THEN_DECK, SX_AFTER_MANEUVER, SX_ATTACKS, SX_CHOOSES, SX_COMBAT_DAMAGE, SX_COUNTERS, SX_DETOURS,
    SX_DISCARD_FOR_VALUE, SX_DISCARD_TOPS, SX_EFFECT_DAMAGE, SX_END_TURNS, SX_EVENTS, SX_EXHAUST_DAMAGE, SX_FACE_DOWN,
    SX_FOG_EFFECT_DAMAGE, SX_FOG_MOVES, SX_FOG_PLACES, SX_FOG_WALKS, SX_FORM_CARDS, SX_GAINS, SX_GUESSES,
    SX_HAND_TO_DECK, SX_IGNORES, SX_LOOKS, SX_MOVES, SX_MOVES_CARD, SX_MOVES_MANEUVER, SX_MOVES_OPPONENT,
    SX_MOVES_THROUGH, SX_ONEWAY_DETOURS, SX_ONGOING_EOT, SX_ONGOING_IN, SX_ONGOING_REPLACED, SX_ONGOING_START,
    SX_PASS_FRIEND, SX_PASSAGE_MOVES, SX_PASSED_DAMAGE, SX_PINNED_MANEUVERS, SX_PINS, SX_PLACES, SX_PREVENTED,
    SX_PROTECTED, SX_RECLAIM_HAND, SX_RECLAIM_TOP, SX_RECOVERS, SX_REMOVES, SX_REPLACES, SX_RETURN_PLACES, SX_REVEALS,
    SX_ARRANGES, SX_SEARCHES, SX_SELF_TO_DECK, SX_TO_HAND, SX_SET_HP, SX_SET_PRINTED, SX_SPACES_DAMAGE,
    SX_SUMMON_PLACES, SX_SUMMON_RETURNS, SX_SWAPS, SX_TAKES_DISC, SX_THROUGH_NEEDED, SX_WITHIN_DAMAGE, SD_OWN,
    TS_FOG, TS_PASSED, TS_WITHIN, WANT_ARRANGE, WANT_BOOST, WANT_TOHAND,
    WANT_CANCEL, WANT_CHOOSE, WANT_COUNTER, WANT_DAMAGE, WANT_DISCARD, WANT_DISCTOP, WANT_ENDTURN, WANT_FOG, WANT_GAIN,
    WANT_GUESS, WANT_HANDDECK, WANT_IGNORE, WANT_LOOK, WANT_MOVE, WANT_PIN, WANT_PLACE, WANT_RECLAIM_TOP, WANT_RECOVER,
    WANT_REMOVE, WANT_REPLACE, WANT_RETURN, WANT_REVEAL, WANT_SEARCH, WANT_SELFDECK, WANT_SETHP, WANT_SETPRINTED,
    WANT_SWAP, WANT_TAKE, WN_DUR, XF_FLAGS, XF_KIND, XF_KO, XF_MAXHP, XF_MOVE, XF_RANGED, XF_USED)
from .effects import (begin_turn, cancel_protected, card_ok, close_turn, form_ok, match_effect, ongoing_discard_due,
    tracked_passes, update_dormancy)


@njit(cache=True)
def prevent_cap(ctx, eff, eidx, early):
    """The defender's live (uncancelled) prevent_damage: -1 none, 0 all damage prevented, else its
    at_most + 1 (a cap of each damage). ``early``: at the combat values; else only once past them."""
    src = ctx[CX_SRC0 + 1]
    if (not early and ctx[CX_PHASE] != PH_AFTER) or src < 0 or ctx[CX_CANCEL1] != 0:
        return -1
    for r in range(eidx[src], eidx[src + 1]):
        if eff[r, EF_OP] == OX_PREVENT and eff[r, EF_WIN] <= WN_DUR:
            return eff[r, EF_N]
    return -1


@njit(cache=True)
def rd_clear(ctx):
    """Forget the EV_REDIRECT lines of the damage just checked."""
    ctx[CX_RD_F] = -1
    ctx[CX_RD_G] = -1
    ctx[CX_RD_SUM] = 0
    ctx[CX_RD_OTHERS] = 0
    ctx[CX_RD_WHOLE] = 0


@njit(cache=True)
def redirect_ok(a, b, d, ctx, pos, xf, adj, prev, pa):
    """An EV_REDIRECT line (fighter a, taker b, -1 for the ability's cap or -2 for the card's, d 1
    combat damage; ``prev`` the event before it; ``pa`` the fighter a live defense card prevents
    damage to, else -1) is one a's owner's before_damage ability allows: OK or E_REDIRECT."""
    if xf[a, XF_BD_TAKE] == 0 and xf[a, XF_BD_CAP] == 0:
        return E_REDIRECT
    if d == 0 and xf[a, XF_BD_COMBAT] != 0:
        return E_REDIRECT
    if d == 1 and (a != ctx[CX_DEFF] or ctx[CX_PHASE] != PH_AFTER
                   or (prev != EV_VALUES and prev != EV_REDIRECT and prev != EV_DAMAGE and prev != EV_DEFEATED)):
        return E_REDIRECT        # right after the combat values, before the defender's own damage
    if (ctx[CX_RD_F] >= 0 and ctx[CX_RD_F] != a) or ctx[CX_RD_WHOLE] != 0:
        return E_REDIRECT
    if b == -2:      # the card's prevention comes first, for effect damage (the combat's is in the values)
        return OK if pa == a and d == 0 and ctx[CX_RD_SUM] == 0 else E_REDIRECT
    if b < 0:
        return OK if b == -1 and xf[a, XF_BD_CAP] != 0 and ctx[CX_RD_OTHERS] == 0 else E_REDIRECT   # cap, then takers
    if b >= MAX_FIGHTERS or xf[b, XF_USED] == 0 or b == a or pos[b] < 0 or xf[a, XF_BD_TAKE] == 0:
        return E_REDIRECT
    if b // FIGHTERS_PER_PLAYER != a // FIGHTERS_PER_PLAYER:
        return E_REDIRECT        # one of the owner's own fighters
    if xf[a, XF_BD_BY] != 0 and xf[b, XF_KIND] + 1 != xf[a, XF_BD_BY]:
        return E_REDIRECT
    if xf[a, XF_BD_TAKE] == 1 and not near(adj, pos[a], pos[b]):
        return E_REDIRECT
    return OK


@njit(cache=True)
def prevented_after(ctx, eff, eidx):
    """The defender whose live (uncancelled) card prevents all damage to it (Bewilderment), once the
    combat is past its values (After combat), else -1: it takes no damage for the rest of the combat,
    effect and exhaustion damage included (docs/rules.md R70, the default rules)."""
    src = ctx[CX_SRC0 + 1]
    if ctx[CX_PHASE] != PH_AFTER or src < 0 or ctx[CX_CANCEL1] != 0:
        return -1
    for r in range(eidx[src], eidx[src + 1]):
        if eff[r, EF_OP] == OX_PREVENT and eff[r, EF_WIN] <= WN_DUR:
            return ctx[CX_DEFF]
    return -1


@njit(cache=True)
def replay(log, i0, i1, succ, adj, zmask, xf, card_info, eff, eidx, deck_counts, bonus_pc, ldist, succ2, succ3,
           pos, hp, ctx, used, cards, stats, info):
    """Replay events ``log[i0:i1]``, checking each; return a violation code (0 = fine).

    ``pos``/``hp`` (MAX_FIGHTERS,) follow EV_SETUP, EV_MOVE, EV_PLACE, EV_SWAP,
    EV_REMOVE, EV_DEFEATED, EV_RETURN, EV_DAMAGE, EV_RECOVER, EV_SET_HP; ``cards`` (2,
    N_PILES, n cards) follows every card event; ``used`` (3, MAX_FIGHTERS): per slot and
    effect row the fighters it affected, row 2 the fighters moved by the current maneuver.
    On a violation ``info`` gets (event row, detail a, detail b, detail c).
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
        if ctx[CX_RD_G] >= 0 and ev != EV_DAMAGE:
            return E_REDIRECT            # the damage of the fighter taking a part follows its EV_REDIRECT line
        if ctx[CX_RD_F] >= 0 and ev != EV_DAMAGE and ev != EV_REDIRECT:
            rd_clear(ctx)                # all of it went elsewhere: the fighter itself took none
        if ctx[CX_CDMG] > 0 and ev != EV_DAMAGE and ev != EV_REDIRECT:
            return E_COMBAT              # combat damage is dealt right after the values
        if ctx[CX_EXH_P] >= 0 and ((ev != EV_DAMAGE and ev != EV_GAME_OVER)
                                   or ctx[CX_EXH_MASK] == ctx[CX_EXH_WANT]):
            if ctx[CX_EXH_MASK] != ctx[CX_EXH_WANT]:
                info[1] = ctx[CX_EXH_P]
                info[2] = ctx[CX_EXH_MASK]
                info[3] = ctx[CX_EXH_WANT]
                return E_EXHAUST
            ctx[CX_EXH_P] = -1
        if ctx[CX_MUSTPLACE] >= 0 and not (ev == EV_PLACE and a == ctx[CX_MUSTPLACE] * FIGHTERS_PER_PLAYER):
            return E_REMOVE              # the removed hero is placed at the start of the turn
        if ctx[CX_RETDRAW] > 0:
            # then the card's on_return draws (Vanish into Murder: draw 1)
            p = ctx[CX_RETDRAW_P]
            if ev == EV_DRAW and a == p:
                ctx[CX_RETDRAW] -= 1
            elif ev == EV_EXHAUST and a == p and b == ctx[CX_RETDRAW]:
                ctx[CX_RETDRAW] = 0
            else:
                return E_REMOVE
        if ev == EV_SETUP:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if ctx[CX_TURN] != 0 or pos[a] != -1 or b < 0 or b >= S or not space_free(pos, b, a):
                return E_SETUP
            pos[a] = b
            hp[a] = xf[a, XF_MAXHP]
            if a % FIGHTERS_PER_PLAYER == 0:
                ctx[CX_START0 + a // FIGHTERS_PER_PLAYER] = b    # the hero's start space (away_from_start)
        elif ev == EV_TURN:
            code = close_step(ctx, cards, card_info)
            if code != OK:
                return code
            flush_pending(ctx, cards, bonus_pc)
            update_dormancy(ctx, pos)
            code = close_turn(ctx, eff, card_info, cards, pos, hp, xf, zmask, stats, info)
            if code != OK:
                return code
            if b != ctx[CX_TURN] + 1 or a != (b - 1) % 2:
                return E_TURN_ORDER
            begin_turn(ctx, used, nc, cards, a, b)
        elif ev == EV_ACTION:
            code = close_step(ctx, cards, card_info)
            if code != OK:
                return code
            flush_pending(ctx, cards, bonus_pc)
            update_dormancy(ctx, pos)
            if a != ctx[CX_PLAYER] or ctx[CX_TURN] < 1:
                return E_TURN_ORDER
            if b != A_MANEUVER and b != A_SCHEME and b != A_ATTACK:
                return E_EVENT
            if ctx[CX_ENDED] != 0 or ctx[CX_EOT] != 0 or c != ctx[CX_ACTNO] + 1 or c > ctx[CX_ALLOWED]:
                info[2] = ctx[CX_ACTNO]
                info[3] = ctx[CX_ALLOWED]
                return E_ACTIONS
            if not has_fighter(pos, a):
                return E_DORMANT        # no fighter on the board: no actions (R48, R64)
            ctx[CX_ACTNO] = c
            reset_action(ctx, used)
            ctx[CX_KIND] = b
            if b == A_MANEUVER:
                # after the moves, the hero's after_maneuver ability (Mr. Hyde: 1 damage)
                ctx[CX_SRC0] = nc + 4 + a
                ctx[CX_SP0] = a
                ctx[CX_SF0] = a * FIGHTERS_PER_PLAYER
                ctx[CX_PHASE] = PH_MANEUVER
            own = (1 << FIGHTERS_PER_PLAYER) - 1
            if b == A_MANEUVER and (ctx[CX_PINNED] >> (a * FIGHTERS_PER_PLAYER)) & own != 0:
                stats[SX_PINNED_MANEUVERS] += 1
        elif ev == EV_DRAW:
            if a < 0 or a > 1 or b < 0 or b >= nc:
                return E_EVENT
            if deck_left(cards, deck_counts, ctx, a, b) <= 0:
                return E_CARD_FLOW
            pile_add(cards, ctx, bonus_pc, a, K_HAND, b, 1)
            ctx[CX_OUT0 + a] += 1
        elif ev == EV_EXHAUST:
            if a < 0 or a > 1 or b < 1:
                return E_EVENT
            if ctx[CX_OUT0 + a] != DECK_SIZE:
                info[3] = DECK_SIZE - ctx[CX_OUT0 + a]
                return E_EXHAUST        # drawing from a deck that still has cards
            ctx[CX_EXH_P] = a
            ctx[CX_EXH_N] = EXHAUST_DAMAGE * b
            ctx[CX_EXH_MASK] = 0
            want = 0
            shielded = prevented_after(ctx, eff, eidx)
            for k in range(FIGHTERS_PER_PLAYER):
                f = a * FIGHTERS_PER_PLAYER + k
                if pos[f] >= 0 and f != shielded:
                    want |= 1 << f
            ctx[CX_EXH_WANT] = want
        elif ev == EV_BOOST:
            if a < 0 or a > 1 or b < 0 or b >= nc:
                return E_EVENT
            if d != card_info[b, CI_BOOST]:
                return E_BOOST
            if c == 0 or c == 2:
                # the card was just discarded from the hand for its BOOST
                if i == 0 or log[i - 1, 0] != EV_DISCARD or log[i - 1, 1] != a or log[i - 1, 2] != b \
                        or log[i - 1, 3] != 2:
                    return E_BOOST
                if c == 0:
                    if ctx[CX_KIND] != A_MANEUVER or a != ctx[CX_PLAYER] or ctx[CX_BOOST] != 0:
                        return E_BOOST
                    ctx[CX_BOOST] = d
                elif match_effect(WANT_BOOST, a, 0, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                  adj, zmask, ldist) < 0:
                    return E_BOOST
            elif c == 1:
                # King Arthur: face-down BOOST with his attack; discarded after combat
                att = ctx[CX_ATT]
                if ctx[CX_PHASE] != PH_DECLARED or att < 0 or a != att // FIGHTERS_PER_PLAYER:
                    return E_BOOST
                if xf[att, XF_KIND] != 0 or (xf[att, XF_FLAGS] & FL_BOOST_ATTACK) == 0 or ctx[CX_FDBOOST] != 0:
                    return E_BOOST
                ctx[CX_FDBOOST] = 1
                stats[SX_FACE_DOWN] += 1
                if not pile_add(cards, ctx, bonus_pc, a, K_HAND, b, -1):
                    return E_CARD_FLOW
                pile_add(cards, ctx, bonus_pc, a, K_PEND, b, 1)
            else:
                return E_EVENT
        elif ev == EV_DISCARD:
            if a < 0 or a > 1 or b < 0 or b >= nc:
                return E_EVENT
            if c == 0 or c == 1 or c == 2:
                if not pile_add(cards, ctx, bonus_pc, a, K_HAND, b, -1):
                    return E_CARD_FLOW
                pile_add(cards, ctx, bonus_pc, a, K_DISC, b, 1)
                if c == 0:
                    r = match_effect(WANT_DISCARD, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                     adj, zmask, ldist)
                    if r < 0:
                        return E_CARD_FLOW
                    ctx[CX_LBOOST] = card_info[b, CI_BOOST]
                    ctx[CX_NDISC0 + r // 64] += 1
                    if eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64, EF_OP] == OX_DISCFV:
                        stats[SX_DISCARD_FOR_VALUE] += 1
                    elif a != ctx[CX_SP0 + r // 64] and ctx[CX_DORM0 + a] != 0:
                        return E_DORMANT    # a dormant player cannot be made to discard (R48, R64)
                elif c == 1:
                    if a != ctx[CX_PLAYER]:
                        return E_CARD_FLOW      # the hand limit applies to the active player
                elif i + 1 >= i1 or log[i + 1, 0] != EV_BOOST:
                    return E_BOOST              # discarded "for a BOOST" without one
            elif c == 3:
                # discard_top (Manxome Foe): the top card of a deck goes to the discard pile
                if deck_left(cards, deck_counts, ctx, a, b) <= 0:
                    return E_CARD_FLOW
                r = match_effect(WANT_DISCTOP, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                 adj, zmask, ldist)
                if r < 0:
                    return E_CARD_FLOW
                if a != ctx[CX_SP0 + r // 64] and ctx[CX_DORM0 + a] != 0:
                    return E_DORMANT
                stats[SX_DISCARD_TOPS] += 1
                ctx[CX_LBOOST] = card_info[b, CI_BOOST]
                pile_add(cards, ctx, bonus_pc, a, K_DISC, b, 1)
                ctx[CX_OUT0 + a] += 1
            else:
                return E_EVENT
        elif ev == EV_IGNORE:
            # Tawny Owl: its player ignores an effect that would make it discard from hand
            if a < 0 or a > 1:
                return E_EVENT
            if not passive_in_play(cards, card_info, a, PV_IGNORE_DISCARD):
                return E_CARD_FLOW
            r = match_effect(WANT_IGNORE, a, 0, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_CARD_FLOW
            if a != ctx[CX_SP0 + r // 64] and ctx[CX_DORM0 + a] != 0:
                return E_DORMANT
            stats[SX_IGNORES] += 1
        elif ev == EV_TAKE:
            # a player, b card, c pile it leaves; d 0: to the hand, 1: to the deck top
            # (reclaim), 2: the scheme just played is shuffled into the deck, 3: revealed from the
            # deck top into the hand, 4: from the discard pile into the deck, shuffled (reclaim),
            # 5: the card just resolved goes back to the hand (return_to_hand; c -1: from play)
            if a < 0 or a > 1 or b < 0 or b >= nc or d < 0 or d > 5:
                return E_EVENT
            if d == 5:
                if c != -1 or match_effect(WANT_TOHAND, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info,
                                           cards, adj, zmask, ldist) < 0:
                    return E_CARD_FLOW
                if not pile_add(cards, ctx, bonus_pc, a, K_PEND, b, -1):
                    return E_CARD_FLOW
                pile_add(cards, ctx, bonus_pc, a, K_HAND, b, 1)
                stats[SX_TO_HAND] += 1
                continue
            if c == PILE_HAND and d == 1:
                # Coded Notes: a card from the hand goes on top of the deck
                if match_effect(WANT_HANDDECK, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                adj, zmask, ldist) < 0:
                    return E_CARD_FLOW
                if not pile_add(cards, ctx, bonus_pc, a, K_HAND, b, -1):
                    return E_CARD_FLOW
                ctx[CX_OUT0 + a] -= 1
                stats[SX_HAND_TO_DECK] += 1
                continue
            if d == 3:
                # Strange Case: the top card of the deck is revealed and put into the hand
                if c != PILE_DECK or deck_left(cards, deck_counts, ctx, a, b) <= 0:
                    return E_CARD_FLOW
                if match_effect(WANT_REVEAL, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                adj, zmask, ldist) < 0:
                    return E_CARD_FLOW
                ctx[CX_OUT0 + a] += 1
                pile_add(cards, ctx, bonus_pc, a, K_HAND, b, 1)
                ctx[CX_LBOOST] = card_info[b, CI_BOOST]
                stats[SX_REVEALS] += 1
                continue
            if c != PILE_DISC and c != PILE_DECK:
                return E_EVENT
            if d == 2:
                if c != PILE_DISC or ctx[CX_KIND] != A_SCHEME or ctx[CX_SRC0] != b or ctx[CX_SP0] != a:
                    return E_CARD_FLOW
                if match_effect(WANT_SELFDECK, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                adj, zmask, ldist) < 0:
                    return E_CARD_FLOW
                if not pile_add(cards, ctx, bonus_pc, a, K_PEND, b, -1):
                    return E_CARD_FLOW
                ctx[CX_OUT0 + a] -= 1
                ctx[CX_MUST_SHUFFLE] = 0
                stats[SX_SELF_TO_DECK] += 1
                continue
            if c == PILE_DISC:
                if cards[a, K_DISC, b] <= 0:
                    return E_CARD_FLOW
            elif deck_left(cards, deck_counts, ctx, a, b) <= 0:
                return E_CARD_FLOW
            if d == 1 or d == 4:
                # reclaim: from the discard pile onto the deck top (1) or into the deck, shuffled (4)
                if c != PILE_DISC:
                    return E_CARD_FLOW
                if match_effect(WANT_RECLAIM_TOP, a, b, d, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                adj, zmask, ldist) < 0:
                    return E_CARD_FLOW
                pile_add(cards, ctx, bonus_pc, a, K_DISC, b, -1)
                ctx[CX_OUT0 + a] -= 1
                stats[SX_RECLAIM_TOP] += 1
                continue
            if c == PILE_DECK and ctx[CX_LOOK] > 0:
                ctx[CX_LOOK] -= 1          # one of the cards looked at is kept
            else:
                r = match_effect(WANT_TAKE, a, b, c, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                 adj, zmask, ldist)
                if r < 0:
                    return E_CARD_FLOW
                if eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64, EF_OP] == OX_RECLAIM:
                    stats[SX_RECLAIM_HAND] += 1
            if c == PILE_DISC:
                stats[SX_TAKES_DISC] += 1
                pile_add(cards, ctx, bonus_pc, a, K_DISC, b, -1)
            else:
                ctx[CX_OUT0 + a] += 1
            pile_add(cards, ctx, bonus_pc, a, K_HAND, b, 1)
            ctx[CX_LAST_TAKE] = c
            ctx[CX_LAST_CARD] = b
        elif ev == EV_LOOK_TOP:
            if a < 0 or a > 1:
                return E_EVENT
            if c >= 1:
                # arrange_top: a looks at the top b cards of c - 1's deck and puts them back, d at the
                # bottom (order not followed: the deck is counts); the step's who and bottom must fit
                q = c - 1
                if q > 1 or d < 0 or d > b:
                    return E_EVENT
                r = match_effect(WANT_ARRANGE, a, b, DECK_SIZE - ctx[CX_OUT0 + q], ctx, eff, eidx, used, pos, hp,
                                 xf, card_info, cards, adj, zmask, ldist)
                if r < 0:
                    return E_CARD_FLOW
                row = eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64]
                if (row[EF_WHO] == SD_OWN) != (q == a) or (d > 0 and row[EF_X] == 0):
                    return E_CARD_FLOW
                stats[SX_ARRANGES] += 1
                continue
            r = match_effect(WANT_LOOK, a, b, DECK_SIZE - ctx[CX_OUT0 + a], ctx, eff, eidx, used, pos, hp, xf,
                             card_info, cards, adj, zmask, ldist)
            if r < 0:
                return E_CARD_FLOW
            stats[SX_LOOKS] += 1
            keep = eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64, EF_X]
            ctx[CX_LOOK] = min(keep, b)
        elif ev == EV_SEARCH:
            if a < 0 or a > 1 or b < -1 or b >= nc:
                return E_EVENT
            r = match_effect(WANT_SEARCH, a, b, c, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_CARD_FLOW
            stats[SX_SEARCHES] += 1
            slot = r // 64
            row = eff[eidx[ctx[CX_SRC0 + slot]] + r % 64]
            want_card = row[EF_ARG]
            bytag = row[EF_BYTAG] != 0
            mode = row[EF_X]
            ctx[CX_TOOKDECK] = 0
            if b >= 0:
                # found: it was just taken; the deck is shuffled iff it was searched (R61)
                fits = (card_info[b, CI_TAGS] & want_card) != 0 if bytag else b == want_card
                if not fits or ctx[CX_LAST_TAKE] < 0 or ctx[CX_LAST_CARD] != b \
                        or c != (1 if ctx[CX_LAST_TAKE] == PILE_DECK else 0):
                    return E_CARD_FLOW
                if ctx[CX_LAST_TAKE] == PILE_DECK:
                    ctx[CX_TOOKDECK] = 1
            else:
                # not found: it is in none of the searched piles; a searched deck is shuffled
                if bytag:
                    in_disc = count_tagged(cards, card_info, a, K_DISC, want_card)
                    in_deck = 0
                    for cc in range(nc):
                        if card_info[cc, CI_TAGS] & want_card:
                            in_deck += deck_left(cards, deck_counts, ctx, a, cc)
                else:
                    in_disc = cards[a, K_DISC, want_card]
                    in_deck = deck_left(cards, deck_counts, ctx, a, want_card)
                if mode != SF_DECK and in_disc > 0:
                    return E_CARD_FLOW
                if mode != SF_DISC and in_deck > 0:
                    return E_CARD_FLOW
                if c != (1 if mode == SF_DECK or mode == SF_DISC_THEN_DECK else 0):
                    return E_CARD_FLOW
            if ctx[CX_TOOKDECK] != 0:
                # Witcher Senses: "if it came from the deck, this card is shuffled into the deck"
                src = ctx[CX_SRC0 + slot]
                for k in range(eidx[src], eidx[src + 1]):
                    if eff[k, EF_OP] == OX_SELFDECK and row_live(eff[k], slot, ctx, pos, hp, xf, card_info, cards,
                                                                  zmask):
                        ctx[CX_MUST_SHUFFLE] = 1
        elif ev == EV_SCHEME:
            if a < 0 or a > 1 or b < 0 or b >= MAX_FIGHTERS or c < 0 or c >= nc:
                return E_EVENT
            if ctx[CX_KIND] != A_SCHEME or a != ctx[CX_PLAYER] or ctx[CX_SRC0] >= 0:
                return E_CARD_PLAY
            if b // FIGHTERS_PER_PLAYER != a or pos[b] < 0 or card_info[c, CI_TYPE] != CTY_SCHEME \
                    or (card_info[c, CI_FMASK] >> xf[b, XF_KIND]) & 1 == 0 or not form_ok(card_info, c, b, ctx):
                return E_CARD_PLAY
            if card_info[c, CI_FORM] != 0:
                stats[SX_FORM_CARDS] += 1
            if not pile_add(cards, ctx, bonus_pc, a, K_HAND, c, -1):
                return E_CARD_FLOW
            pile_add(cards, ctx, bonus_pc, a, K_PEND, c, 1)
            ctx[CX_SRC0] = c
            ctx[CX_SP0] = a
            ctx[CX_SF0] = b
            ctx[CX_PHASE] = PH_SCHEME
        elif ev == EV_ONGOING:
            if a < 0 or a > 1 or b < 0 or b >= nc or c < 0 or c > 1:
                return E_EVENT
            if c == 1:
                # the scheme just played stays in play instead of going to the discard pile
                if ctx[CX_KIND] != A_SCHEME or a != ctx[CX_PLAYER] or ctx[CX_SRC0] != b \
                        or card_info[b, CI_ONGOING] == 0 or ongoing_of(cards, a) >= 0:
                    info[3] = ongoing_of(cards, a)
                    return E_ONGOING
                if not pile_add(cards, ctx, bonus_pc, a, K_PEND, b, -1):
                    return E_CARD_FLOW
                pile_add(cards, ctx, bonus_pc, a, K_ONG, b, 1)
                stats[SX_ONGOING_IN] += 1
            else:
                if cards[a, K_ONG, b] <= 0:
                    return E_ONGOING
                replaced = i + 1 < i1 and log[i + 1, 0] == EV_ONGOING and log[i + 1, 1] == a and log[i + 1, 3] == 1
                if replaced:
                    # a second ongoing scheme discards the first (rules "Ongoing Schemes")
                    if ctx[CX_KIND] != A_SCHEME or a != ctx[CX_PLAYER] or ctx[CX_SRC0] != log[i + 1, 2]:
                        return E_ONGOING
                    stats[SX_ONGOING_REPLACED] += 1
                else:
                    # only at the end of the owner's turn, and only if its condition holds
                    if a != ctx[CX_PLAYER] or ctx[CX_TURN] < 1:
                        return E_ONGOING
                    for k in range(i + 1, i1):
                        if log[k, 0] == EV_TURN or log[k, 0] == EV_GAME_OVER:
                            break
                        if log[k, 0] == EV_ABILITY and log[k, 2] == HK_END_TURN:
                            break               # then the hero's end_of_turn ability (checked there)
                        if log[k, 0] != EV_DISCARD or log[k, 3] != 1:
                            info[3] = k
                            return E_ONGOING    # something still happens in the turn
                    if ongoing_discard_due(eff, card_info, cards, a, ctx, pos, hp, xf, zmask) == 0:
                        info[3] = -1
                        return E_ONGOING
                    ctx[CX_EOT] = 1
                    stats[SX_ONGOING_EOT] += 1
                pile_add(cards, ctx, bonus_pc, a, K_ONG, b, -1)
                pile_add(cards, ctx, bonus_pc, a, K_DISC, b, 1)
        elif ev == EV_ATTACK:
            stats[SX_ATTACKS] += 1
            if a < 0 or a >= MAX_FIGHTERS or b < 0 or b >= MAX_FIGHTERS or c < 0 or c >= nc:
                return E_EVENT
            pa = pos[a]
            pt = pos[b]
            p = a // FIGHTERS_PER_PLAYER
            if pa < 0 or pt < 0 or team(a) == team(b) or p != ctx[CX_PLAYER] or ctx[CX_KIND] != A_ATTACK \
                    or ctx[CX_ATT] >= 0:
                return E_ATTACK
            in_range = adj[pa, pt] != 0 or (xf[a, XF_RANGED] != 0 and (zmask[pa] & zmask[pt]) != 0)
            if not in_range:
                return E_ATTACK
            if not card_ok(card_info, c, a, xf, True, ctx):
                return E_CARD_PLAY
            if not pile_add(cards, ctx, bonus_pc, p, K_HAND, c, -1):
                return E_CARD_FLOW
            pile_add(cards, ctx, bonus_pc, p, K_PEND, c, 1)
            ctx[CX_CDEALT] = 0          # no combat damage yet (per = "combat_damage")
            ctx[CX_ATT] = a
            ctx[CX_DEFF] = b
            ctx[CX_SRC0] = c
            ctx[CX_SP0] = p
            ctx[CX_SF0] = a
            ctx[CX_PHASE] = PH_DECLARED
            ctx[CX_ATTACKED0 + p] = 1
        elif ev == EV_DEFENSE:
            if b >= nc or b < -1:
                return E_EVENT
            if ctx[CX_PHASE] != PH_DECLARED or a != ctx[CX_DEFF]:
                return E_CARD_PLAY
            q = a // FIGHTERS_PER_PLAYER
            if b >= 0:
                if not card_ok(card_info, b, a, xf, False, ctx):
                    return E_CARD_PLAY
                if not pile_add(cards, ctx, bonus_pc, q, K_HAND, b, -1):
                    return E_CARD_FLOW
                pile_add(cards, ctx, bonus_pc, q, K_PEND, b, 1)
                ctx[CX_SRC0 + 1] = b
                ctx[CX_SP0 + 1] = q
                ctx[CX_SF0 + 1] = a
            ctx[CX_PHASE] = PH_EARLY
        elif ev == EV_CANCEL:
            # a = player who cancels, b = side whose card is cancelled, c = 1 done (0 protected)
            if a < 0 or a > 1 or b < 0 or b > 1 or c < 0 or c > 1:
                return E_EVENT
            if ctx[CX_KIND] != A_ATTACK or ctx[CX_SRC0 + b] < 0:
                return E_CANCEL
            if match_effect(WANT_CANCEL, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                            adj, zmask, ldist) < 0:
                return E_CANCEL
            if c != (0 if cancel_protected(ctx, xf, card_info, cards, b) else 1):
                info[3] = c
                return E_CANCEL
            if c == 1:
                ctx[CX_CANCEL0 + b] = 1
            else:
                stats[SX_PROTECTED] += 1
        elif ev == EV_VALUES:
            # a = attack value, b = defense value, c = combat damage dealt, d = attacker won
            t = ctx[CX_DEFF]
            if ctx[CX_PHASE] != PH_EARLY or t < 0:
                return E_COMBAT
            if a < 0 or b < 0 or (ctx[CX_SRC0 + 1] < 0 and b != 0):
                return E_COMBAT
            raw = a - b if a > b else 0
            cap = prevent_cap(ctx, eff, eidx, True)
            prevented = cap == 0
            expect = 0 if prevented else min(raw, hp[t])
            if prevented and raw > 0 and hp[t] > 0:
                stats[SX_PREVENTED] += 1
            if cap > 0:                  # prevent_damage with at_most: a cap of the combat damage
                expect = min(expect, cap - 1)
                if raw > cap - 1:
                    stats[SX_CAPPED] += 1
            if xf[t, XF_BD_TAKE] != 0 or xf[t, XF_BD_CAP] != 0:
                # the defender's before_damage ability: it may take less (a cap, others in its place, checked
                # by their EV_REDIRECT lines); damage taken in its place wins the combat too (docs/rules.md)
                bad = c > expect or d < (1 if c >= 1 else 0) or d > 1
            else:
                bad = c != expect or d != (1 if c >= 1 else 0)
            if bad:
                info[1] = expect
                info[2] = c
                info[3] = d
                return E_COMBAT
            ctx[CX_WON] = d
            ctx[CX_CDMG] = c
            ctx[CX_CDEALT] = c
            ctx[CX_PHASE] = PH_AFTER
        elif ev == EV_MOVE:
            stats[SX_MOVES] += 1
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            info[3] = d
            if b < 0 or pos[a] != b:
                return E_MOVE_FROM
            if (ctx[CX_PINNED] >> a) & 1 != 0:
                return E_PIN                # it cannot leave its space this turn (Yrden)
            if c == b:
                return E_MOVE_SAME
            if c < 0 or c >= S or not space_free(pos, c, a):
                return E_MOVE_DEST
            through = e != 0
            fm = fog_mask(ctx, xf, a, S)
            if d < 1 or move_dist(succ, pos, a, b, c, not through, False, d, fm) < 0:
                return E_MOVE_PATH
            # which budget the rules give this move
            if ctx[CX_KIND] == A_MANEUVER:
                stats[SX_MOVES_MANEUVER] += 1
                owner = a // FIGHTERS_PER_PLAYER
                if owner != ctx[CX_PLAYER] or used[2, a] != 0:
                    return E_MOVE_WHO
                used[2, a] = 1
                if through:
                    return E_MOVE_THROUGH
                if d != xf[a, XF_MOVE] + ctx[CX_BOOST] + ctx[CX_BONUS0 + owner]:
                    info[1] = a
                    info[2] = xf[a, XF_MOVE] + ctx[CX_BOOST] + ctx[CX_BONUS0 + owner]
                    return E_MOVE_BUDGET
            else:
                stats[SX_MOVES_CARD] += 1
                r = match_effect(WANT_MOVE, a, d, e, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                 adj, zmask, ldist)
                if r < 0:
                    return E_MOVE_BUDGET if r == -1 else (E_MOVE_THROUGH if r == -2 else E_MOVE_WHO)
                if a // FIGHTERS_PER_PLAYER != ctx[CX_SP0 + r // 64]:
                    stats[SX_MOVES_OPPONENT] += 1
                mrow = eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64]
                if mrow[EF_TRACK] != 0:
                    ctx[CX_PASSED] = tracked_passes(succ, pos, a, b, c, d)
                if (mrow[EF_FOG] & FG_ONTO) != 0 and not fog_at(ctx, ctx[CX_SP0 + r // 64], c):
                    return E_MOVE_DEST          # Lurking: the move ends on a fog space
                ctx[CX_MOVED] = a
            if through:
                stats[SX_MOVES_THROUGH] += 1
                if move_dist(succ, pos, a, b, c, True, False, d, fm) < 0:
                    stats[SX_THROUGH_NEEDED] += 1
            else:
                free = move_dist(succ, pos, a, b, c, False, False, d, fm)
                legal = move_dist(succ, pos, a, b, c, True, False, d, fm)
                if free >= 0 and legal > free:
                    stats[SX_DETOURS] += 1
                if move_dist(succ, pos, a, b, c, True, True, d, fm) < 0:
                    stats[SX_PASS_FRIEND] += 1
                if succ2.shape[0] > 0 and 0 <= move_dist(succ2, pos, a, b, c, True, False, d, fm) < legal:
                    stats[SX_ONEWAY_DETOURS] += 1
            nofog = np.zeros(S, np.bool_)
            if fm.any() and move_dist(succ, pos, a, b, c, not through, False, d, nofog) < 0:
                stats[SX_FOG_WALKS] += 1        # only through the fog (R46)
            if succ3.shape[0] > 0 and move_dist(succ3, pos, a, b, c, not through, False, d, fm) < 0:
                stats[SX_PASSAGE_MOVES] += 1    # only through a secret passage (R21)
            pos[a] = c
        elif ev == EV_PIN:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0 or match_effect(WANT_PIN, a, 0, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                          adj, zmask, ldist) < 0:
                return E_PIN
            ctx[CX_PINNED] |= 1 << a
            stats[SX_PINS] += 1
        elif ev == EV_DEFENDER:
            # a = the fighter that defends from now on, b = the one that defended: a become_defender step
            # of the defense card, in the combat's early windows, to another fighter of the defender's player
            if a < 0 or a >= MAX_FIGHTERS or b < 0 or b >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if ctx[CX_KIND] != A_ATTACK or ctx[CX_PHASE] != PH_EARLY or b != ctx[CX_DEFF] or a == b \
                    or a // FIGHTERS_PER_PLAYER != b // FIGHTERS_PER_PLAYER or pos[a] < 0:
                return E_DEFENDER
            if match_effect(WANT_DEFENDER, a, 0, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                            adj, zmask, ldist) < 0:
                return E_DEFENDER
            ctx[CX_DEFF] = a
            ctx[CX_SF0 + 1] = a         # the defense card's "self" from now on
            stats[SX_DEFENDERS] += 1
        elif ev == EV_SWAP:
            # a = the card's fighter, b = the fighter it swaps spaces with
            if a < 0 or a >= MAX_FIGHTERS or b < 0 or b >= MAX_FIGHTERS or xf[a, XF_USED] == 0 \
                    or xf[b, XF_USED] == 0:
                return E_EVENT
            if a == b or pos[a] < 0 or pos[b] < 0:
                return E_SWAP
            if match_effect(WANT_SWAP, b, a, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                            adj, zmask, ldist) < 0:
                return E_SWAP
            if ((ctx[CX_PINNED] >> a) | (ctx[CX_PINNED] >> b)) & 1 != 0:
                return E_PIN                # a pinned fighter cannot leave its space, swapped or not
            s = pos[a]
            pos[a] = pos[b]
            pos[b] = s
            stats[SX_SWAPS] += 1
        elif ev == EV_PLACE:
            stats[SX_PLACES] += 1
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            p = a // FIGHTERS_PER_PLAYER
            if b == -1 and pos[a] == -1:
                # a removed hero comes back at the start of its owner's next turn, anywhere
                if ctx[CX_MUSTPLACE] != p or a != p * FIGHTERS_PER_PLAYER or ctx[CX_RET0 + p] == 0 \
                        or c < 0 or c >= S or not space_free(pos, c, a):
                    return E_REMOVE
                pos[a] = c
                ctx[CX_DORM0 + p] = 0
                ctx[CX_RETDRAW] = card_info[ctx[CX_RET0 + p] - 1, CI_RETDRAW]
                ctx[CX_RETDRAW_P] = p
                ctx[CX_RET0 + p] = 0
                ctx[CX_MUSTPLACE] = -1
                stats[SX_RETURN_PLACES] += 1
                continue
            if pos[a] != b or b < 0 or c < 0 or c >= S or not space_free(pos, c, a):
                return E_PLACE
            r = match_effect(WANT_PLACE, a, c, b, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_PLACE
            if eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64, EF_OP] == OX_SUMMON:
                stats[SX_SUMMON_PLACES] += 1
            if (ctx[CX_PINNED] >> a) & 1 != 0:
                return E_PIN                # nor be placed elsewhere (Flock of Birds, a summon)
            pos[a] = c
        elif ev == EV_REMOVE:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0:
                return E_REMOVE
            r = match_effect(WANT_REMOVE, a, 0, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_REMOVE
            p = a // FIGHTERS_PER_PLAYER
            ctx[CX_RET0 + p] = ctx[CX_SRC0 + r // 64] + 1
            pos[a] = -1
            stats[SX_REMOVES] += 1
        elif ev == EV_RETURN:
            stats[SX_PLACES] += 1
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] != -1 or hp[a] != 0 or b < 0 or b >= S or not space_free(pos, b, a):
                return E_RETURN
            r = match_effect(WANT_RETURN, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_RETURN
            if eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64, EF_OP] == OX_SUMMON:
                stats[SX_SUMMON_RETURNS] += 1
            pos[a] = b
            hp[a] = xf[a, XF_MAXHP]
        elif ev == EV_DAMAGE:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0 or b < 1 or c != hp[a] - b or c < 0:
                return E_DAMAGE
            s = 0                        # damage of this fighter kept off or taken by others (before_damage)
            pa = prevented_after(ctx, eff, eidx)
            if ctx[CX_RD_G] >= 0:
                # a part taken in another fighter's place, as its EV_REDIRECT line said
                if a != ctx[CX_RD_G] or d != ctx[CX_RD_N] or b != min(d, hp[a]):
                    return E_REDIRECT
                ctx[CX_RD_G] = -1
                if ctx[CX_RD_COMBAT] == 0:
                    # effect damage dealt by the step (Prey Upon's "if you do"): credited to the live source of
                    # the other player (the checker does not match the step of damage that all went elsewhere)
                    for sl in range(2):
                        if ctx[CX_SRC0 + sl] >= 0 and ctx[CX_SP0 + sl] != a // FIGHTERS_PER_PLAYER:
                            ctx[CX_SRCDMG0 + sl] += b
                            break
                hp[a] = c
                if c == 0:
                    ctx[CX_DOWN] = a
                continue
            if ctx[CX_RD_F] >= 0:
                if a != ctx[CX_RD_F] or ctx[CX_RD_WHOLE] != 0:
                    return E_REDIRECT
                if xf[a, XF_BD_CAP] > 0 and d + ctx[CX_RD_OTHERS] > xf[a, XF_BD_CAP] - 1:
                    return E_REDIRECT
                if a == pa and d + ctx[CX_RD_OTHERS] > prevent_cap(ctx, eff, eidx, False) - 1:
                    return E_REDIRECT        # more than its card lets through
                s = ctx[CX_RD_SUM]
                rd_clear(ctx)
            elif xf[a, XF_BD_CAP] > 0 and (ctx[CX_CDMG] > 0 or xf[a, XF_BD_COMBAT] == 0) \
                    and pa != a and ctx[CX_EXH_P] < 0 and d > xf[a, XF_BD_CAP] - 1:
                return E_REDIRECT            # more than the ability's cap, without its line
            if ctx[CX_CDMG] > 0:
                # the combat damage itself, to the defender
                if a != ctx[CX_DEFF] or b != ctx[CX_CDMG]:
                    return E_COMBAT
                ctx[CX_CDMG] = 0
                stats[SX_COMBAT_DAMAGE] += 1
            elif a == pa and prevent_cap(ctx, eff, eidx, False) == 0:
                return E_DAMAGE             # Bewilderment: no damage at all to its fighter in this combat (R70)
            elif ctx[CX_EXH_P] >= 0 and ctx[CX_EXH_MASK] != ctx[CX_EXH_WANT]:
                if a // FIGHTERS_PER_PLAYER != ctx[CX_EXH_P] or b != min(ctx[CX_EXH_N], hp[a]) \
                        or (ctx[CX_EXH_MASK] >> a) & 1 != 0:
                    return E_EXHAUST
                ctx[CX_EXH_MASK] |= 1 << a
                stats[SX_EXHAUST_DAMAGE] += 1
            else:
                v1 = b
                if a == pa:
                    # prevent_damage with at_most: at most the cap of each damage; the log's amount is before it
                    cap = prevent_cap(ctx, eff, eidx, False)
                    if b > cap - 1 or b != min(d, cap - 1, hp[a]):
                        return E_DAMAGE
                    v1 = min(d, hp[a])
                    if d > cap - 1:
                        stats[SX_CAPPED] += 1
                # damage kept off or taken in its place counts as this effect's (as if the fighter had more health)
                hp[a] += s
                r = match_effect(WANT_DAMAGE, a, v1 + s, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                                 adj, zmask, ldist)
                hp[a] -= s
                if r < 0:
                    return E_DAMAGE_SOURCE
                stats[SX_EFFECT_DAMAGE] += 1
                ctx[CX_SRCDMG0 + r // 64] += b
                row = eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64]
                if ctx[CX_PHASE] == PH_MANEUVER:
                    stats[SX_AFTER_MANEUVER] += 1
                if row[EF_SEL] == TS_FOG:
                    stats[SX_FOG_EFFECT_DAMAGE] += 1
                if row[EF_OP] == OX_DSPACES:
                    stats[SX_SPACES_DAMAGE] += 1
                if row[EF_SEL] == TS_PASSED:
                    stats[SX_PASSED_DAMAGE] += 1
                if row[EF_SEL] == TS_WITHIN:
                    stats[SX_WITHIN_DAMAGE] += 1
            hp[a] = c
            if c == 0:
                ctx[CX_DOWN] = a
        elif ev == EV_DEFEATED:
            if a < 0 or a >= MAX_FIGHTERS:
                return E_EVENT
            return E_DEFEAT       # only valid right after its health reached 0 (handled above)
        elif ev == EV_REDIRECT:
            # a = fighter that would take the damage, b = fighter taking c of it instead (-1: the cap keeps c
            # off), d = 1 combat damage: allowed by a's owner's before_damage ability (heroes/README.md)
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0 or pos[a] < 0 or c < 1 or d < 0 or d > 1:
                return E_EVENT
            code = redirect_ok(a, b, d, ctx, pos, xf, adj, log[i - 1, 0] if i > 0 else 0,
                               prevented_after(ctx, eff, eidx))
            if code != OK:
                return code
            if b >= 0:
                ctx[CX_RD_G] = b
                ctx[CX_RD_N] = c
                ctx[CX_RD_OTHERS] += c
                if xf[a, XF_BD_SPLIT] == 0:
                    ctx[CX_RD_WHOLE] = 1
            ctx[CX_RD_F] = a
            ctx[CX_RD_SUM] += c
            ctx[CX_RD_COMBAT] = d
            stats[SX_REDIRECTS] += 1
        elif ev == EV_RECOVER:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0 or b < 1 or c != hp[a] + b or c > xf[a, XF_MAXHP]:
                return E_RECOVER
            r = match_effect(WANT_RECOVER, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_HEAL_SOURCE
            stats[SX_RECOVERS] += 1
            if ctx[CX_PHASE] == PH_START and r // 64 == 1:
                stats[SX_ONGOING_START] += 1
            hp[a] = c
        elif ev == EV_SET_HP:
            if a < 0 or a >= MAX_FIGHTERS or xf[a, XF_USED] == 0:
                return E_EVENT
            if pos[a] < 0 or b < 1 or b > xf[a, XF_MAXHP]:
                return E_RECOVER
            if match_effect(WANT_SETHP, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                            adj, zmask, ldist) < 0:
                return E_HEAL_SOURCE
            stats[SX_SET_HP] += 1
            hp[a] = b
        elif ev == EV_COUNTER:
            if a < 0 or a > 1 or b < 0 or b >= N_COUNTERS:
                return E_EVENT
            if match_effect(WANT_COUNTER, a, b, c, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                            adj, zmask, ldist) < 0:
                return E_COUNTER
            stats[SX_COUNTERS] += 1
            ctx[CX_CNT0 + a * N_COUNTERS + b] = c
        elif ev == EV_CHOOSE:
            if a < 0 or a > 1:
                return E_EVENT
            r = match_effect(WANT_CHOOSE, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_CHOOSE
            stats[SX_CHOOSES] += 1
            ctx[CX_CHOSEN0 + r // 64] |= 1 << b
            ctx[CX_NCHOSEN0 + r // 64] += 1
        elif ev == EV_GAIN_ACTION:
            # a = player, b = actions gained
            if a < 0 or a > 1 or b < 1:
                return E_EVENT
            if a != ctx[CX_PLAYER]:
                return E_GAIN               # the active player gains actions
            if passive_in_play(cards, card_info, 1 - a, PV_NO_OPP_ACTIONS):
                return E_GAIN               # Blizzard: opponents can't gain actions
            if match_effect(WANT_GAIN, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                            adj, zmask, ldist) < 0:
                return E_GAIN
            ctx[CX_ALLOWED] += b
            stats[SX_GAINS] += 1
        elif ev == EV_END_TURN:
            if a < 0 or a > 1:
                return E_EVENT
            if ctx[CX_KIND] < 0 or match_effect(WANT_ENDTURN, a, 0, 0, ctx, eff, eidx, used, pos, hp, xf,
                                                card_info, cards, adj, zmask, ldist) < 0:
                return E_END_TURN
            ctx[CX_ENDED] = 1
            stats[SX_END_TURNS] += 1
        elif ev == EV_FOG:
            # a = owner, b = token, c = from (-1: placed at setup), d = to, e = the player who moves it
            if a < 0 or a > 1 or b < 0 or b >= N_FOG or c < -1 or c >= S or d < 0 or d >= S or e < 0 or e > 1:
                return E_EVENT
            if (xf[a * FIGHTERS_PER_PLAYER, XF_FLAGS] & FL_FOG_WALK) == 0:
                return E_FOG                # only the Invisible Man has fog
            cur = ctx[CX_FOG0 + a * N_FOG + b]
            if c == -1:
                if cur != -1 or ctx[CX_PHASE] != PH_SETUP or e != a:
                    return E_FOG
            elif cur != c or c == d:
                return E_FOG
            if match_effect(WANT_FOG, a, b * 16384 + (127 if c < 0 else c) * 128 + d, e, ctx, eff, eidx, used, pos, hp,
                            xf, card_info, cards, adj, zmask, ldist) < 0:
                return E_FOG
            if e != a and ctx[CX_DORM0 + e] != 0:
                return E_DORMANT
            ctx[CX_FOG0 + a * N_FOG + b] = d
            if c == -1:
                stats[SX_FOG_PLACES] += 1
            else:
                ctx[CX_LASTTOK] = a * N_FOG + b          # whose token and which: "another" is another of those
                ctx[CX_LASTFOG] = d
                stats[SX_FOG_MOVES] += 1
        elif ev == EV_REPLACE:
            # a = player whose card is replaced, b = old card, c = new card, d = player who chose
            if a < 0 or a > 1 or d < 0 or d > 1 or b < 0 or b >= nc or c < 0 or c >= nc:
                return E_EVENT
            if ctx[CX_KIND] != A_ATTACK or ctx[CX_PHASE] != PH_EARLY:
                return E_REPLACE
            o = 0 if ctx[CX_SP0] == a else 1
            if ctx[CX_SP0 + o] != a or ctx[CX_SRC0 + o] != b:
                return E_REPLACE
            if match_effect(WANT_REPLACE, d, o, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                            adj, zmask, ldist) < 0:
                return E_REPLACE
            if not pile_add(cards, ctx, bonus_pc, a, K_PEND, b, -1):
                return E_CARD_FLOW
            pile_add(cards, ctx, bonus_pc, a, K_HAND, b, 1)
            if not card_ok(card_info, c, ctx[CX_SF0 + o], xf, o == 0, ctx):
                return E_REPLACE
            if not pile_add(cards, ctx, bonus_pc, a, K_HAND, c, -1):
                return E_REPLACE
            pile_add(cards, ctx, bonus_pc, a, K_PEND, c, 1)
            ctx[CX_SRC0 + o] = c
            ctx[CX_CANCEL0 + o] = 0
            used[o, :] = 0
            stats[SX_REPLACES] += 1
        elif ev == EV_GUESS:
            # a = player, b = the value named or predicted; it must be a printed value the opponent's
            # cards that are not in its discard pile (nor in play as its ongoing scheme) may have
            if a < 0 or a > 1 or b < 0 or b > 20:
                return E_EVENT
            r = match_effect(WANT_GUESS, a, b, 0, ctx, eff, eidx, used, pos, hp, xf, card_info, cards,
                             adj, zmask, ldist)
            if r < 0:
                return E_GUESS
            q = 1 - a
            predict = eff[eidx[ctx[CX_SRC0 + r // 64]] + r % 64, EF_X] == 0
            att = ctx[CX_ATT]
            ok = False
            carried = 0          # bit v: a card of q not in its discard pile carries printed value v
            for cc in range(nc):
                left = deck_counts[q, cc] - cards[q, K_DISC, cc] - cards[q, K_ONG, cc]
                if left <= 0 or card_info[cc, CI_TYPE] == CTY_SCHEME or card_info[cc, CI_VALUE] < 0 \
                        or card_info[cc, CI_VALUE] > 20:
                    continue
                carried |= 1 << card_info[cc, CI_VALUE]
                if card_info[cc, CI_VALUE] != b:
                    continue
                if predict and (att < 0 or not card_ok(card_info, cc, att, xf, True, ctx)):
                    continue
                ok = True
            if not ok and not predict:
                # a named value (Confirm Suspicion) may be one no card carries: the smallest such value
                # stands for them all (docs/rules.md R67)
                v = 0
                while (carried >> v) & 1 != 0:
                    v += 1
                ok = b == v
            if not ok:
                return E_GUESS
            ctx[CX_GUESS] = b
            stats[SX_GUESSES] += 1
        elif ev == EV_SET_PRINTED:
            # a = player, b = side whose card, c = its new printed value
            if a < 0 or a > 1 or b < 0 or b > 1:
                return E_EVENT
            if ctx[CX_KIND] != A_ATTACK or match_effect(WANT_SETPRINTED, a, b, c, ctx, eff, eidx, used, pos, hp, xf,
                                                        card_info, cards, adj, zmask, ldist) < 0:
                return E_GUESS
            stats[SX_SET_PRINTED] += 1
        elif ev == EV_ABILITY:
            # a = player, b = hook, c = fighter, d = 1: the line closing a fighter_defeated ability. The hooks
            # below make their ability's rows live (slot 0) until the next step; the others are checked
            # by phase (start of turn, setup, after a maneuver)
            if a < 0 or a > 1:
                return E_EVENT
            if b == HK_END_TURN:
                # the active player's end of turn: after its actions, before the hand limit (docs/rules.md)
                if a != ctx[CX_PLAYER] or ctx[CX_TURN] < 1 or ctx[CX_PHASE] == PH_EOT or ctx[CX_KOSAVE] != 0:
                    return E_ABILITY
                code = close_step(ctx, cards, card_info)
                if code != OK:
                    return code
                flush_pending(ctx, cards, bonus_pc)
                update_dormancy(ctx, pos)
                reset_action(ctx, used)
                ctx[CX_EOT] = 1
                ctx[CX_KIND] = -1
                ctx[CX_PHASE] = PH_EOT
                ctx[CX_SRC0] = nc + 6 + a
                ctx[CX_SP0] = a
                ctx[CX_SF0] = a * FIGHTERS_PER_PLAYER
            elif b == HK_AFTER_DEFENSE:
                # after the After combat effects of a combat fighter c of player a defended ("self": the
                # defender, combat slot 1), before the attacker's after_attack ability
                if ctx[CX_KIND] != A_ATTACK or ctx[CX_PHASE] != PH_AFTER or c != ctx[CX_DEFF] \
                        or a != c // FIGHTERS_PER_PLAYER or ctx[CX_ENDED] != 0 or ctx[CX_KOSAVE] != 0:
                    return E_ABILITY
                ctx[CX_PHASE] = PH_AFTDEF
                ctx[CX_SRC0 + 1] = nc + 12 + a
                ctx[CX_SP0 + 1] = a
                ctx[CX_SF0 + 1] = c
                ctx[CX_CANCEL1] = 0          # an ability: the defense card's cancel does not touch it
                ctx[CX_CHOSEN0 + 1] = 0
                ctx[CX_NCHOSEN0 + 1] = 0
                ctx[CX_NDISC0 + 1] = 0
                ctx[CX_SRCDMG0 + 1] = 0
                used[1, :] = 0
            elif b == HK_AFTER_ATTACK:
                # after the After combat effects of an attack by fighter c of player a ("self": the attacker),
                # and after the defender's after_defense ability if it had one
                if ctx[CX_KIND] != A_ATTACK or (ctx[CX_PHASE] != PH_AFTER and ctx[CX_PHASE] != PH_AFTDEF) \
                        or c != ctx[CX_ATT] or a != c // FIGHTERS_PER_PLAYER or ctx[CX_ENDED] != 0 \
                        or ctx[CX_KOSAVE] != 0:
                    return E_ABILITY
                ctx[CX_PHASE] = PH_AFTATK
                ctx[CX_SRC0] = nc + 8 + a
                ctx[CX_SP0] = a
                ctx[CX_SF0] = c
                ctx[CX_CANCEL0] = 0          # an ability: the attack card's cancel does not touch it
                ctx[CX_CHOSEN0] = 0
                ctx[CX_NCHOSEN0] = 0
                ctx[CX_NDISC0] = 0
                ctx[CX_SRCDMG0] = 0
                used[0, :] = 0
            elif b == HK_FIGHTER_DEFEATED and d == 0:
                # player a's fighter c was defeated: its ability interrupts what is resolving (saved, restored
                # by the closing line); "self" is a's hero, outside any combat side
                if c < 0 or c >= MAX_FIGHTERS or c // FIGHTERS_PER_PLAYER != a or pos[c] >= 0 \
                        or ctx[CX_KOSAVE] != 0 or ctx[CX_ENDED] != 0:
                    return E_ABILITY
                ko = xf[a * FIGHTERS_PER_PLAYER, XF_KO]     # the hero has the ability, for this fighter
                if ko == 0 or (ko > 0 and xf[c, XF_KIND] != ko - 1):
                    return E_ABILITY
                ctx[CX_KOSAVE] = 1
                ctx[CX_KOSAVE + 1] = ctx[CX_SRC0]
                ctx[CX_KOSAVE + 2] = ctx[CX_SP0]
                ctx[CX_KOSAVE + 3] = ctx[CX_SF0]
                ctx[CX_KOSAVE + 4] = ctx[CX_CANCEL0]
                ctx[CX_KOSAVE + 5] = ctx[CX_CHOSEN0]
                ctx[CX_KOSAVE + 6] = ctx[CX_NCHOSEN0]
                ctx[CX_KOSAVE + 7] = ctx[CX_NDISC0]
                ctx[CX_KOSAVE + 8] = ctx[CX_SRCDMG0]
                ctx[CX_KOSAVE + 9] = ctx[CX_PHASE]
                ctx[CX_KOSAVE + 10] = ctx[CX_KIND]
                for k in range(MAX_FIGHTERS):
                    ctx[CX_KOUSED0 + k] = used[0, k]
                    used[0, k] = 0
                ctx[CX_SRC0] = nc + 10 + a
                ctx[CX_SP0] = a
                ctx[CX_SF0] = a * FIGHTERS_PER_PLAYER
                ctx[CX_CANCEL0] = 0
                ctx[CX_CHOSEN0] = 0
                ctx[CX_NCHOSEN0] = 0
                ctx[CX_NDISC0] = 0
                ctx[CX_SRCDMG0] = 0
                ctx[CX_PHASE] = PH_KO
                ctx[CX_KIND] = -1
            elif b == HK_FIGHTER_DEFEATED:
                if ctx[CX_KOSAVE] == 0 or ctx[CX_SRC0] != nc + 10 + a:
                    return E_ABILITY
                ctx[CX_KOSAVE] = 0
                ctx[CX_SRC0] = ctx[CX_KOSAVE + 1]
                ctx[CX_SP0] = ctx[CX_KOSAVE + 2]
                ctx[CX_SF0] = ctx[CX_KOSAVE + 3]
                ctx[CX_CANCEL0] = ctx[CX_KOSAVE + 4]
                ctx[CX_CHOSEN0] = ctx[CX_KOSAVE + 5]
                ctx[CX_NCHOSEN0] = ctx[CX_KOSAVE + 6]
                ctx[CX_NDISC0] = ctx[CX_KOSAVE + 7]
                ctx[CX_SRCDMG0] = ctx[CX_KOSAVE + 8]
                ctx[CX_PHASE] = ctx[CX_KOSAVE + 9]
                ctx[CX_KIND] = ctx[CX_KOSAVE + 10]
                for k in range(MAX_FIGHTERS):
                    used[0, k] = ctx[CX_KOUSED0 + k]
        elif ev == EV_GAME_OVER:
            ctx[CX_OVER] = 1
            if b == END_TURN_CAP:
                code = close_step(ctx, cards, card_info)
                if code == OK:
                    flush_pending(ctx, cards, bonus_pc)
                    code = close_turn(ctx, eff, card_info, cards, pos, hp, xf, zmask, stats, info)
                if code != OK:
                    return code
    return OK
