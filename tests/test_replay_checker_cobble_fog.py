"""The replay checker rejects broken games with the Cobble & Fog mechanics: fog, passages, forms
and guesses, and broken engine tables of those heroes.
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers.replay.checks import run_checked
from helpers.replay.constants import (E_ATTACK, E_CANCEL, E_CARD_FLOW, E_CARD_PLAY, E_COUNTER, E_DAMAGE_SOURCE, E_FOG,
    E_GUESS, E_MOVE_PATH, OK, R_CODE, R_FIELDS, RUN_SEED, SX_FIELDS)
from helpers.replay.expect import Expect
from helpers.replay.synth import SYNTH_FPP, E, Synth, action, space_ids, turn

from sim.engine.layout import (A_ATTACK, A_MANEUVER, A_SCHEME, EV_ACTION, EV_ATTACK, EV_COUNTER, EV_DAMAGE, EV_DEFENSE,
    EV_DISCARD, EV_FOG, EV_GUESS, EV_MOVE, EV_SCHEME, EV_SETUP, EV_VALUES)
from sim.engine.policy import new_control
from sim.play.match import Match


# ------------------------------------------------ Cobble & Fog: fog, passages, forms, guesses


@pytest.mark.nojit
def test_checker_rejects_bad_fog():
    """The Invisible Man's fog: placed at setup on separate empty spaces of his zone, moved
    only by a live effect (by the player it names, within its distance), walked through by
    him only; the replayed fog must be the state's."""
    sy = Synth(("invisible_man", "sherlock_holmes"), "soho")
    bf = sy.m.battlefield
    s01, s02, s03, s04, s10, s14, s08, s20, s11 = space_ids(bf, "SH01", "SH02", "SH03", "SH04", "SH10", "SH14", "SH08",
                                                       "SH20", "SH11")
    im, holmes, watson = 0, SYNTH_FPP, SYNTH_FPP + 1     # (hand-made numbering)
    base = [E(EV_SETUP, im, s03)]
    fog = [E(EV_FOG, 0, 0, -1, s02, 0), E(EV_FOG, 0, 1, -1, s04, 0), E(EV_FOG, 0, 2, -1, s10, 0)]
    rest = [E(EV_SETUP, holmes, s14), E(EV_SETUP, watson, s08)]
    assert sy.code(base + fog + rest) == OK
    assert sy.code(base + fog[:2] + [E(EV_FOG, 0, 2, -1, s04, 0)] + rest) == E_FOG     # a space with fog
    assert sy.code(base + fog[:2] + [E(EV_FOG, 0, 2, -1, s03, 0)] + rest) == E_FOG     # his own space
    assert sy.code(base + fog[:2] + [E(EV_FOG, 0, 2, -1, s20, 0)] + rest) == E_FOG     # outside his zone
    assert sy.code(base + fog + [E(EV_FOG, 0, 0, -1, s01, 0)] + rest) == E_FOG          # a 4th placement
    assert sy.code(base + rest + [E(EV_FOG, 1, 0, -1, s20, 1)]) == E_FOG                # Holmes has no fog
    man = sy.draw(0, "Rolling Fog") + turn(0, 1) + action(0, A_MANEUVER) + sy.draw(0, "Vanish")
    # SH03 -> SH02 (fog) -> SH10 (fog): 2 spaces only through the fog (3 along lines)
    assert sy.code(base + fog + rest + man + [E(EV_MOVE, im, s03, s10, 2, 0)]) == OK
    nofog = base + fog[:2] + [E(EV_FOG, 0, 2, -1, s11, 0)] + rest
    assert sy.code(nofog + man + [E(EV_MOVE, im, s03, s10, 2, 0)]) == E_MOVE_PATH
    # Holmes cannot use his fog: Watson SH08 -> ... no; Holmes from SH04 side: put Holmes on SH01
    h_rest = [E(EV_SETUP, holmes, s01), E(EV_SETUP, watson, s08)]
    hman = turn(0, 1) + action(0, A_MANEUVER) + sy.draw(0, "Vanish") + [E(EV_ACTION, 0, A_MANEUVER, 2)] \
        + sy.draw(0, "Lurking") + turn(1, 2) + action(1, A_MANEUVER) + sy.draw(1, "Feint")
    assert sy.code(base + fog + h_rest + hman + [E(EV_MOVE, holmes, s01, s10, 2, 0)]) == OK    # SH01-SH09-SH10
    assert sy.code(base + fog + h_rest + hman + [E(EV_MOVE, holmes, s01, s04, 2, 0)]) == E_MOVE_PATH  # not via fog
    # Rolling Fog: he moves a token anywhere; not his opponent, and not with no card at all
    roll = base + fog + rest + sy.draw(0, "Rolling Fog") + turn(0, 1) + action(0, A_SCHEME) \
        + [E(EV_SCHEME, 0, 0, sy.c(0, "Rolling Fog"))]
    assert sy.code(roll + [E(EV_FOG, 0, 1, s04, s20, 0)]) == OK
    assert sy.code(roll + [E(EV_FOG, 0, 1, s04, s20, 1)]) == E_FOG           # moved by Holmes
    assert sy.code(roll + [E(EV_FOG, 0, 1, s03, s20, 0)]) == E_FOG           # no token on SH03
    assert sy.code(roll + [E(EV_FOG, 0, 1, s04, s20, 0), E(EV_FOG, 0, 2, s10, s20, 0)]) == E_FOG   # once
    assert sy.code(base + fog + rest + man + [E(EV_FOG, 0, 1, s04, s20, 0)]) == E_FOG   # no effect


@pytest.mark.nojit
def test_checker_rejects_bad_opponent_fog_moves():
    """Into Thin Air: the opponent moves a fog token up to 3 spaces along lines."""
    sy = Synth(("sherlock_holmes", "invisible_man"), "soho")
    bf = sy.m.battlefield
    s04, s05, s16, s20, s08, s03, s10 = space_ids(bf, "SH04", "SH05", "SH16", "SH20", "SH08", "SH03", "SH10")
    holmes, watson, im = 0, 1, SYNTH_FPP
    setup = [E(EV_SETUP, holmes, s04), E(EV_SETUP, watson, s10), E(EV_SETUP, im, s05),
             E(EV_FOG, 1, 0, -1, s16, 1), E(EV_FOG, 1, 1, -1, bf.index("SH15"), 1),
             E(EV_FOG, 1, 2, -1, bf.index("SH13"), 1)]
    afoot, thin = sy.c(0, "The Game is Afoot"), sy.c(1, "Into Thin Air")
    hit = (setup + sy.draw(0, "The Game is Afoot") + sy.draw(1, "Into Thin Air") + turn(0, 1) + action(0, A_ATTACK)
           + [E(EV_ATTACK, holmes, im, afoot), E(EV_DEFENSE, im, thin), E(EV_VALUES, 5, 4, 1, 1), E(EV_DAMAGE, im, 1, 14)])
    assert sy.code(hit + [E(EV_FOG, 1, 0, s16, s08, 0)]) == OK            # Holmes moves it 2 spaces
    assert sy.code(hit + [E(EV_FOG, 1, 0, s16, s03, 0)]) == E_FOG         # 5 spaces: too far
    assert sy.code(hit + [E(EV_FOG, 1, 0, s16, s08, 1)]) == E_FOG         # the opponent moves it, not IM


@pytest.mark.nojit
def test_checker_rejects_off_form_cards_and_unexplained_hyde_damage():
    sy = Synth(("jekyll_hyde", "dracula"), "soho")
    bf = sy.m.battlefield
    s04, s05, s20 = space_ids(bf, "SH04", "SH05", "SH20")
    setup = [E(EV_SETUP, 0, s05), E(EV_SETUP, 4, s04), E(EV_SETUP, 5, s20)]
    recoil = sy.c(0, "Recoiling Blow")
    start = setup + sy.draw(0, "Recoiling Blow") + turn(0, 1)
    hyde = [E(EV_COUNTER, 0, 0, 1)]
    atk = action(0, A_ATTACK) + [E(EV_ATTACK, 0, 4, recoil)]
    assert sy.code(start + hyde + atk) == OK
    assert sy.code(start + atk) == E_CARD_PLAY                        # Dr. Jekyll cannot play Mr. Hyde's card
    man = action(0, A_MANEUVER) + sy.draw(0, "Feint")
    assert sy.code(start + hyde + man + [E(EV_DAMAGE, 0, 1, 15)]) == OK          # Mr. Hyde after a maneuver
    assert sy.code(start + man + [E(EV_DAMAGE, 0, 1, 15)]) == E_DAMAGE_SOURCE    # Dr. Jekyll takes none
    assert sy.code(start + hyde + man + [E(EV_DAMAGE, 0, 2, 14)]) == E_DAMAGE_SOURCE
    assert sy.code(start + [E(EV_COUNTER, 0, 0, 0)]) == E_COUNTER                # a flip must change the form


@pytest.mark.nojit
def test_checker_rejects_guesses_outside_public_information():
    """Confirm Suspicion names a value some card of the opponent not in its discard pile has;
    the discarded card must carry it; Elementary predicts among the attacker's cards."""
    sy = Synth(("sherlock_holmes", "dracula"), "soho")
    bf = sy.m.battlefield
    s04, s05, s20 = space_ids(bf, "SH04", "SH05", "SH20")
    setup = [E(EV_SETUP, 0, s04), E(EV_SETUP, 1, s20), E(EV_SETUP, 4, s05)]
    confirm = sy.c(0, "Confirm Suspicion")
    play = (setup + sy.draw(0, "Confirm Suspicion") + sy.draw(1, "Beastform", "Dash") + turn(0, 1) + action(0, A_SCHEME)
            + [E(EV_SCHEME, 0, 0, confirm)])
    assert sy.code(play + [E(EV_GUESS, 0, 6, -1), E(EV_DISCARD, 1, sy.c(1, "Beastform"), 0),
                           E(EV_DAMAGE, 4, 4, 9)]) == OK
    assert sy.code(play + [E(EV_GUESS, 0, 5, -1)]) == E_GUESS                     # no Dracula card is a 5
    assert sy.code(play + [E(EV_GUESS, 0, 6, -1), E(EV_DISCARD, 1, sy.c(1, "Dash"), 0)]) == E_CARD_FLOW
    assert sy.code(play + [E(EV_GUESS, 0, 6, -1), E(EV_DISCARD, 1, sy.c(1, "Beastform"), 0),
                           E(EV_DAMAGE, 4, 3, 10)]) == E_DAMAGE_SOURCE          # its BOOST is 4
    # both Beastforms in his discard pile (Eliminate the Impossible twice): 6 is no longer a value he may hold
    elim, beast = sy.c(0, "Eliminate the Impossible"), sy.c(1, "Beastform")
    gone = (setup + sy.draw(0, "Eliminate the Impossible", "Eliminate the Impossible", "Confirm Suspicion")
            + sy.draw(1, "Beastform", "Beastform", "Dash") + turn(0, 1)
            + action(0, A_SCHEME, 1) + [E(EV_SCHEME, 0, 0, elim), E(EV_DISCARD, 1, beast, 0)]
            + action(0, A_SCHEME, 2) + [E(EV_SCHEME, 0, 0, elim), E(EV_DISCARD, 1, beast, 0)]
            + turn(1, 2) + action(1, A_MANEUVER, 1) + sy.draw(1, "Feint") + action(1, A_MANEUVER, 2)
            + sy.draw(1, "Exploit") + turn(0, 3) + action(0, A_SCHEME, 1) + [E(EV_SCHEME, 0, 0, confirm)])
    assert sy.code(gone + [E(EV_GUESS, 0, 4, -1)]) == OK
    assert sy.code(gone + [E(EV_GUESS, 0, 6, -1)]) == E_GUESS


@pytest.mark.nojit
def test_checker_rejects_attacks_through_secret_passages():
    """Passages are for movement only: the checker's range is the battlefield's lines."""
    sy = Synth(("sherlock_holmes", "invisible_man"), "baskerville_manor")
    bf = sy.m.battlefield
    s04, s26, s32, s01 = space_ids(bf, "BM04", "BM26", "BM32", "BM01")
    setup = [E(EV_SETUP, 0, s04), E(EV_SETUP, 1, s32), E(EV_SETUP, 4, s26)]
    atk = sy.draw(0, "The Game is Afoot") + turn(0, 1) + action(0, A_ATTACK)
    assert sy.code(setup + atk + [E(EV_ATTACK, 0, 4, sy.c(0, "The Game is Afoot"))]) == E_ATTACK
    man = turn(0, 1) + action(0, A_MANEUVER) + sy.draw(0, "Feint")
    assert sy.code(setup + man + [E(EV_MOVE, 0, s04, bf.index("BM18"), 2, 0)]) == OK   # via the BM15 passage
    assert sy.code(setup + man + [E(EV_MOVE, 0, s04, bf.index("BM27"), 2, 0)]) == E_MOVE_PATH  # IM holds BM26


@pytest.mark.nojit
def test_checker_catches_broken_engine_tables_cobble_fog():
    """End to end: doctored tables break the invariants: passages made adjacent (attacks
    through them), Recoiling Blow without its form, Mr. Hyde's maneuver damage doubled,
    Into Thin Air's fog move longer, Holmes's cards cancellable."""
    from sim.engine.layout import C_FORM, C_PROG, C_TAGS, H_HOOKS, HK_AFTER_MANEUVER, I_N, TAG_UNCANCELABLE, W_AFTER

    def codes(m, tables, mu, n=12):
        ex = Expect(m)
        out = np.zeros((n, R_FIELDS), np.int64)
        run_checked(tables, m.rows, new_control(), RUN_SEED, mu, 0, n, *ex.args(), out, np.zeros(SX_FIELDS, np.int64))
        return set(out[:, R_CODE].tolist())

    m = Match(["sherlock_holmes", "invisible_man"], battlefield="baskerville_manor")
    tb = m.tables
    assert codes(m, tb, 1) == {OK}
    adj = tb.adj.copy()
    pas = np.flatnonzero(m.battlefield.passage)
    adj[np.ix_(pas, pas)] = 1
    adj[pas, pas] = 0
    assert E_ATTACK in codes(m, tb._replace(adj=adj), 1, 40)
    thin = m.content.card_ids[("invisible_man", "Into Thin Air")]
    code = tb.code.copy()
    s0, n0 = tb.cards[thin, C_PROG + 2 * W_AFTER], tb.cards[thin, C_PROG + 2 * W_AFTER + 1]
    code[s0 + n0 - 1, I_N] = 9
    assert E_FOG in codes(m, tb._replace(code=code), 1, 40)
    cards = tb.cards.copy()
    for c, key in enumerate(m.content.card_hero):
        if key == "sherlock_holmes":
            cards[c, C_TAGS] &= ~TAG_UNCANCELABLE
    assert E_CANCEL in codes(m, tb._replace(cards=cards), 1, 40)

    m = Match(["jekyll_hyde", "dracula"], battlefield="soho")
    tb = m.tables
    assert codes(m, tb, 2) == {OK}
    cards = tb.cards.copy()
    for name in ("Recoiling Blow", "Pure Evil", "With Haste!", "Calming Research"):
        cards[m.content.card_ids[("jekyll_hyde", name)], C_FORM] = 0
    assert E_CARD_PLAY in codes(m, tb._replace(cards=cards), 2, 40)
    code = tb.code.copy()
    row = int(m.rows[0])
    code[tb.heroes[row, H_HOOKS + 2 * HK_AFTER_MANEUVER], I_N] = 2
    assert E_DAMAGE_SOURCE in codes(m, tb._replace(code=code), 2, 40)


SOAK_FOG_GAMES = (385, 610, 686)   # game indexes of the soak's Invisible Man mirror on Baskerville Manor


def test_covert_preparation_on_both_sides_may_move_tokens_of_one_number():
    """Found by the soak run (tests/soak.py, seed 24: seeds 257966670, 1574335252, 2847139030):
    both Invisible Men play Covert Preparation; the defender's card has the attacker move one
    of the defender's tokens (token 2), then the attacker's card has the defender move
    "another" of the attacker's tokens, its token 2. The checker took "another" by the
    token's number alone, across both players, and rejected a legal game; it is another
    token of the same player."""
    from helpers.replay.soak import POLICY_BASE, soak_matchups
    from sim.engine.core import game_seed
    (idx, names, bf), = [x for x in soak_matchups() if x[1] == ["invisible_man", "invisible_man"]
                         and x[2] == "baskerville_manor"]
    m = Match(names, battlefield=bf)
    ex = Expect(m)
    mu = POLICY_BASE["random"] + idx
    for gi, seed in zip(SOAK_FOG_GAMES, (257966670, 1574335252, 2847139030)):
        assert game_seed(24, mu, gi) == seed
        out = np.zeros((1, R_FIELDS), np.int64)
        run_checked(m.tables, m.rows, new_control(), 24, mu, gi, 1, *ex.args(), out, np.zeros(SX_FIELDS, np.int64))
        assert out[0, R_CODE] == OK, (seed, int(out[0, R_CODE]))


def test_checker_rejects_covert_preparation_moving_the_same_token_twice():
    """Covert Preparation's second fog move ("the opponent moves another fog token") may not
    move the token its first move moved: a real game's log doctored so that it does."""
    from helpers.replay.synth import log_code, real_game_with
    m = Match(["invisible_man", "sherlock_holmes"], battlefield="soho")
    adj = np.asarray(m.battlefield.adj) != 0

    def pair(log):
        fog = [i for i in range(len(log)) if log[i, 0] == EV_FOG and log[i, 3] >= 0]
        for i, j in zip(fog, fog[1:]):
            a, b = log[i], log[j]
            if a[1] == b[1] and a[5] == a[1] and b[5] != b[1] and a[2] != b[2] and j == i + 1:
                return i, j
        return None

    game = real_game_with(m, lambda log: pair(log) is not None, seeds=range(1, 3000))
    log = game.log.copy()
    i, j = pair(log)
    assert log_code(m, log) == OK
    tok, at = int(log[i, 2]), int(log[i, 4])
    near = int(np.flatnonzero(adj[at])[0])             # one space on: within the step's 2
    log[j, 2], log[j, 3], log[j, 4] = tok, at, near
    assert log_code(m, log) == E_FOG
