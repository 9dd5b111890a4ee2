"""The replay checker rejects broken games: hand-made and doctored event logs, broken states and
broken engine tables (the classic heroes, King Arthur and Alice).
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers.replay.checks import check_final, run_checked
from helpers.replay.constants import (E_ACTIONS, E_AFTER_END, E_ATTACK, E_BOOST, E_CANCEL, E_CARD_COUNT, E_CARD_FLOW,
    E_CARD_FOREIGN, E_CARD_PLAY, E_CHOOSE, E_COMBAT, E_COUNTER, E_DAMAGE, E_DAMAGE_SOURCE, E_DEFEAT,
    E_DEFEATED_ON_BOARD, E_END_CAP, E_END_WINNER, E_EXHAUST, E_HEAL_SOURCE, E_HEALTH_RANGE, E_HERO_DOWN_GAME_ON,
    E_IN_PLAY, E_MOVE_BUDGET, E_MOVE_DEST, E_MOVE_FROM, E_MOVE_PATH, E_MOVE_SAME, E_MOVE_THROUGH, E_MOVE_WHO, E_NO_END,
    E_PILES_MISMATCH, E_PLACE, E_POS_MISMATCH, E_SHARE_SPACE, E_TURN_ORDER, HEROES, OK, R_CODE, R_FIELDS, RUN_SEED,
    SX_FIELDS, XF_MAXHP)
from helpers.replay.expect import Expect, hero_toml
from helpers.replay.synth import SYNTH_FPP, E, Synth, action, find_choke, replay_real, turn

from sim.content.battlefields import list_battlefields
from sim.engine.core import PILE_DECK, PILE_DISC
from sim.engine.layout import (A_ATTACK, A_MANEUVER, A_SCHEME, END_HERO_DEFEATED, EV_ACTION, EV_ATTACK, EV_BOOST,
    EV_CANCEL, EV_CHOOSE, EV_COUNTER, EV_DAMAGE, EV_DEFEATED, EV_DEFENSE, EV_DISCARD, EV_DRAW, EV_EXHAUST, EV_LOOK_TOP,
    EV_MOVE, EV_PLACE, EV_RECOVER, EV_SCHEME, EV_SEARCH, EV_SET_HP, EV_SETUP, EV_TAKE, EV_TURN, EV_VALUES, F_HP,
    F_SPACE, F_STATUS, FS_DEFEATED, FS_IN_PLAY, G_LOGN, G_OVER, G_REASON, G_WINNER, MAX_CARDS,
    MAX_FIGHTERS, OFF_DECK, OFF_DISC, OFF_HAND, P_COUNTER0, P_DECKN, P_DISCN, P_HANDN, P_ONGOING, R_TURN_CAP, fslot,
    pslot)
from sim.engine.policy import new_control
from sim.play.match import Match


# ------------------------------------------------ the checker catches broken games


@pytest.mark.nojit
def test_checker_rejects_illegal_moves():
    """Hand-made logs: moving through an opponent, onto a fighter, too far, or with a wrong flag."""
    found = None
    for bf in list_battlefields():
        sy = Synth(HEROES, bf)
        found = find_choke(sy)
        if found:
            break
    assert found, "no battlefield has a choke point for the synthetic move test"
    a, b, c = found
    frenzy = sy.c(0, "Winged Frenzy")
    opp, friend = SYNTH_FPP, 1                    # Sinbad; a Harpy (hand-made numbering)
    man = turn(0, 1) + action(0, A_MANEUVER)
    scheme = sy.draw(0, "Winged Frenzy") + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, frenzy)]

    def setup(blocker):
        return [E(EV_SETUP, 0, a), E(EV_SETUP, blocker, b)]

    move = [E(EV_MOVE, 0, a, c, 3, 0)]
    assert sy.code(setup(opp) + man + move) == E_MOVE_PATH
    assert sy.code(setup(friend) + man + move) == OK
    assert sy.code(setup(opp) + man + [E(EV_MOVE, 0, a, c, 3, 1)]) == E_MOVE_THROUGH
    assert sy.code(setup(opp) + scheme + [E(EV_MOVE, 0, a, c, 3, 1)]) == OK
    assert sy.code(setup(opp) + scheme + [E(EV_MOVE, 0, a, c, 3, 0)]) == E_MOVE_PATH
    assert sy.code(setup(opp) + scheme + [E(EV_MOVE, opp, b, c, 3, 1)]) == E_MOVE_WHO   # "each own" only
    assert sy.code(setup(friend) + man + [E(EV_MOVE, 0, a, b, 3, 0)]) == E_MOVE_DEST
    assert sy.code(setup(friend) + man + [E(EV_MOVE, 0, a, a, 3, 0)]) == E_MOVE_SAME
    assert sy.code(setup(friend) + man + [E(EV_MOVE, 0, c, b, 3, 0)]) == E_MOVE_FROM
    assert sy.code(setup(friend) + man + [E(EV_MOVE, 0, a, c, 4, 0)]) == E_MOVE_BUDGET
    assert sy.code(setup(friend) + man + [E(EV_MOVE, 0, a, c, 1, 0)]) == E_MOVE_PATH
    assert sy.code(setup(friend) + man + move + [E(EV_MOVE, 0, c, a, 3, 0)]) == E_MOVE_WHO
    assert sy.code(setup(opp) + man + [E(EV_MOVE, opp, b, c, 2, 0)]) == E_MOVE_WHO
    assert sy.code(setup(opp) + [E(EV_TURN, 1, 1)]) == E_TURN_ORDER
    assert sy.code(setup(opp) + [E(EV_DAMAGE, 0, 3, 12)]) == E_DAMAGE               # 16 - 3 != 12
    assert sy.code(setup(opp) + [E(EV_DAMAGE, 1, 1, 0)]) == E_DAMAGE                # Harpy not on the board
    assert sy.code(setup(opp) + [E(EV_DAMAGE, 0, 3, 13)]) == E_DAMAGE_SOURCE        # damage from nowhere
    # A Momentary Glance: 2 damage to any one fighter in Medusa's zone (her own Harpy too)
    h = sy.pick(lambda s: sy.zone[a, s], (a, b))
    glance = (sy.draw(0, "A Momentary Glance") + turn(0, 1) + action(0, A_SCHEME)
              + [E(EV_SCHEME, 0, 0, sy.c(0, "A Momentary Glance"))])
    harpy_down = [E(EV_SETUP, 0, a), E(EV_SETUP, friend, h)] + glance + [E(EV_DAMAGE, friend, 1, 0)]
    assert sy.code(harpy_down + [E(EV_ACTION, 0, A_MANEUVER, 2)]) == E_DEFEAT        # never defeated
    assert sy.code(harpy_down + [E(EV_DEFEATED, friend)] + action(0, A_MANEUVER, 2)
                   + [E(EV_MOVE, 0, a, b, 3, 0)]) == OK
    assert sy.code(setup(opp) + [E(EV_DEFEATED, opp)]) == E_DEFEAT                  # defeated at 15 health


@pytest.mark.nojit
def test_checker_rejects_illegal_card_moves_arthur_alice():
    """Command the Storms moves every fighter (the opposing one too), each up to 3 once,
    blocked by fighters opposing the *moved* fighter; Skirmish moves one combatant, if won."""
    sy = Synth(("king_arthur", "medusa"))
    found = find_choke(sy)
    assert found, "Marmoreal has a choke point"
    a, b, c = found
    storms = sy.c(0, "Command the Storms")
    merlin_at = sy.pick(lambda s: True, (a, b, c))
    arthur_at = sy.pick(lambda s: True, (a, b, c, merlin_at))

    def setup(blocker):
        rows = [E(EV_SETUP, 4, a), E(EV_SETUP, 1, merlin_at), E(EV_SETUP, blocker, b)]
        if blocker != 0:
            rows.append(E(EV_SETUP, 0, arthur_at))
        return rows

    play = sy.draw(0, "Command the Storms", "Prophecy") + turn(0, 1) + action(0, A_SCHEME)
    storm = play + [E(EV_SCHEME, 0, 1, storms)]
    med = [E(EV_MOVE, 4, a, c, 3, 0)]                     # Medusa, moved by Arthur's player
    assert sy.code(setup(5) + storm + med) == OK           # through her own Harpy: friendly to Medusa
    assert sy.code(setup(0) + storm + med) == E_MOVE_PATH  # not through Arthur, who opposes Medusa
    assert sy.code(setup(5) + storm + [E(EV_MOVE, 4, a, c, 4, 0)]) == E_MOVE_BUDGET
    assert sy.code(setup(5) + storm + [E(EV_MOVE, 4, a, c, 3, 1)]) == E_MOVE_THROUGH
    assert sy.code(setup(5) + storm + med + [E(EV_MOVE, 4, c, a, 3, 0)]) == E_MOVE_WHO   # twice
    assert sy.code(setup(5) + play + [E(EV_SCHEME, 0, 1, sy.c(0, "Prophecy"))] + med) == E_MOVE_BUDGET
    assert sy.code(setup(5) + play[:-1] + action(0, A_MANEUVER) + med) == E_MOVE_WHO     # not in a maneuver
    assert sy.code(setup(5) + play + [E(EV_SCHEME, 0, 0, storms)]) == E_CARD_PLAY        # Merlin's card

    # Skirmish (Arthur attacks Sinbad)
    sy = Synth(("king_arthur", "sinbad"))
    x, y, z, w = sy.melee()
    q = sy.pick(lambda s: sy.mv[s].any(), (x, y, z, w))
    q2 = int(next(v for v in np.flatnonzero(sy.mv[q]) if v not in (x, y, z, w)))
    skirmish, exploit = sy.c(0, "Skirmish"), sy.c(1, "Exploit")
    base = ([E(EV_SETUP, 0, x), E(EV_SETUP, 4, y), E(EV_SETUP, 5, q)] + sy.draw(0, "Skirmish")
            + sy.draw(1, "Exploit") + turn(0, 1) + action(0, A_ATTACK) + [E(EV_ATTACK, 0, 4, skirmish)])
    won = base + [E(EV_DEFENSE, 4, -1), E(EV_VALUES, 4, 0, 4, 1), E(EV_DAMAGE, 4, 4, 11)]
    assert sy.code(won + [E(EV_MOVE, 4, y, z, 2, 0)]) == OK                     # the opposing combatant
    assert sy.code(won + [E(EV_MOVE, 0, x, w, 2, 0)]) == OK                     # or the own one
    assert sy.code(won + [E(EV_MOVE, 4, y, z, 2, 0), E(EV_MOVE, 0, x, w, 2, 0)]) == E_MOVE_WHO   # not both
    assert sy.code(won + [E(EV_MOVE, 5, q, q2, 2, 0)]) == E_MOVE_WHO            # not a combatant
    assert sy.code(won + [E(EV_MOVE, 4, y, z, 3, 0)]) == E_MOVE_BUDGET
    lost = base + [E(EV_DEFENSE, 4, exploit), E(EV_VALUES, 4, 4, 0, 0)]
    assert sy.code(lost + [E(EV_MOVE, 4, y, z, 2, 0)]) == E_MOVE_WHO            # "if you won"
    early = base + [E(EV_DEFENSE, 4, -1)]
    assert sy.code(early + [E(EV_MOVE, 4, y, z, 2, 0)]) == E_MOVE_WHO           # AFTER combat only


@pytest.mark.nojit
def test_checker_rejects_bad_combat_and_health_arthur():
    """Bewilderment prevents combat damage (unless cancelled) and may place Merlin; The Holy
    Grail sets King Arthur's health to 8 only at 4 or less; combat damage fits the values."""
    sy = Synth(("medusa", "king_arthur"))
    x, y, _, _ = sy.melee()
    w = sy.pick(lambda s: True, (x, y))
    f = sy.pick(lambda s: True, (x, y, w))
    shot, feint, bew = sy.c(0, "Second Shot"), sy.c(0, "Feint"), sy.c(1, "Bewilderment")
    start = ([E(EV_SETUP, 0, x), E(EV_SETUP, 5, y), E(EV_SETUP, 4, w)] + sy.draw(0, "Second Shot", "Feint")
             + sy.draw(1, "Bewilderment") + turn(0, 1) + action(0, A_ATTACK))
    bewildered = start + [E(EV_ATTACK, 0, 5, shot), E(EV_DEFENSE, 5, bew)]
    prevented = bewildered + [E(EV_VALUES, 3, 0, 0, 0)]
    assert sy.code(prevented + [E(EV_PLACE, 5, y, f)]) == OK
    assert sy.code(bewildered + [E(EV_VALUES, 3, 0, 3, 1)]) == E_COMBAT          # damage not prevented
    assert sy.code(prevented + [E(EV_PLACE, 4, w, f)]) == E_PLACE                # Merlin only
    assert sy.code(prevented + [E(EV_PLACE, 5, y, w)]) == E_PLACE                # onto Arthur
    assert sy.code(prevented + [E(EV_PLACE, 5, y, f), E(EV_PLACE, 5, f, y)]) == E_PLACE   # once
    feinted = start + [E(EV_ATTACK, 0, 5, feint), E(EV_DEFENSE, 5, bew), E(EV_CANCEL, 0, 1, 1),
                       E(EV_VALUES, 2, 0, 2, 1), E(EV_DAMAGE, 5, 2, 5)]
    assert sy.code(feinted) == OK                                                # Feint cancels Bewilderment
    assert sy.code(feinted + [E(EV_PLACE, 5, y, f)]) == E_PLACE
    assert sy.code(bewildered + [E(EV_CANCEL, 0, 1, 1)]) == E_CANCEL           # Second Shot cancels nothing
    assert sy.code(bewildered + [E(EV_CANCEL, 1, 0, 1)]) == E_CANCEL           # nor does Bewilderment
    assert sy.code(start + [E(EV_ATTACK, 0, 5, feint), E(EV_DEFENSE, 5, -1), E(EV_CANCEL, 0, 1, 1)]) == E_CANCEL
    assert sy.code(feinted[:-2] + [E(EV_CANCEL, 0, 1, 1)]) == E_CANCEL         # one Feint cancels once
    undefended = start + [E(EV_ATTACK, 0, 5, shot), E(EV_DEFENSE, 5, -1)]
    assert sy.code(undefended + [E(EV_VALUES, 3, 0, 3, 1), E(EV_DAMAGE, 5, 3, 4)]) == OK
    assert sy.code(undefended + [E(EV_VALUES, 3, 0, 3, 1)] + action(0, A_MANEUVER, 2)) == E_COMBAT  # not dealt
    assert sy.code(undefended + [E(EV_VALUES, 3, 0, 3, 1), E(EV_DAMAGE, 5, 2, 5)]) == E_COMBAT
    assert sy.code(undefended + [E(EV_VALUES, 3, 1, 2, 1)]) == E_COMBAT         # no defense card, value 1
    assert sy.code(undefended + [E(EV_VALUES, 9, 0, 7, 0)]) == E_COMBAT         # 7 damage means won
    assert sy.code(undefended + [E(EV_VALUES, 9, 0, 8, 1)]) == E_COMBAT         # Merlin has 7 health

    # The Holy Grail (Sinbad attacks King Arthur twice)
    sy = Synth(("sinbad", "king_arthur"))
    x, y, _, _ = sy.melee()
    impact, exploit, feint, grail = (sy.c(0, "Commanding Impact"), sy.c(0, "Exploit"), sy.c(0, "Feint"),
                                     sy.c(1, "The Holy Grail"))
    pre = ([E(EV_SETUP, 0, x), E(EV_SETUP, 4, y)] + sy.draw(0, "Commanding Impact", "Exploit", "Feint")
           + sy.draw(1, "The Holy Grail") + turn(0, 1) + action(0, A_ATTACK)
           + [E(EV_ATTACK, 0, 4, impact), E(EV_DEFENSE, 4, -1)])

    def grail_after(first):
        return (pre + [E(EV_VALUES, first, 0, first, 1), E(EV_DAMAGE, 4, first, 18 - first)]
                + action(0, A_ATTACK, 2) + [E(EV_ATTACK, 0, 4, exploit), E(EV_DEFENSE, 4, grail),
                                            E(EV_VALUES, 4, 1, 3, 1), E(EV_DAMAGE, 4, 3, 15 - first)])

    assert sy.code(grail_after(14) + [E(EV_SET_HP, 4, 8)]) == OK                 # 1 health -> 8
    assert sy.code(grail_after(14) + [E(EV_SET_HP, 4, 9)]) == E_HEAL_SOURCE
    assert sy.code(grail_after(10) + [E(EV_SET_HP, 4, 8)]) == E_HEAL_SOURCE      # at 5 health: no
    assert sy.code(grail_after(14) + [E(EV_RECOVER, 4, 7, 8)]) == E_HEAL_SOURCE  # not a recovery
    cancelled = (pre + [E(EV_VALUES, 14, 0, 14, 1), E(EV_DAMAGE, 4, 14, 4)] + action(0, A_ATTACK, 2)
                 + [E(EV_ATTACK, 0, 4, feint), E(EV_DEFENSE, 4, grail), E(EV_CANCEL, 0, 1, 1),
                    E(EV_VALUES, 2, 1, 1, 1), E(EV_DAMAGE, 4, 1, 3)])
    assert sy.code(cancelled) == OK
    assert sy.code(cancelled + [E(EV_SET_HP, 4, 8)]) == E_HEAL_SOURCE            # Feint cancelled the Grail


@pytest.mark.nojit
def test_checker_rejects_bad_looking_glass_and_face_down_boost():
    """Looking Glass: two different options, each effect only after its option is chosen;
    King Arthur's face-down BOOST only with his own attack, from his hand, once."""
    sy = Synth(("king_arthur", "alice"))
    x, y, _, _ = sy.melee()
    m = sy.pick(lambda s: sy.adj[s, y] or sy.zone[s, y], (x, y))
    f = sy.pick(lambda s: True, (x, y, m))
    excal, feint, swift, glass = (sy.c(0, "Excalibur"), sy.c(0, "Feint"), sy.c(0, "Swift Strike"),
                                  sy.c(1, "Looking Glass"))
    pre = ([E(EV_SETUP, 0, x), E(EV_SETUP, 1, m), E(EV_SETUP, 4, y)]
           + sy.draw(0, "Excalibur", "Feint", "Swift Strike") + sy.draw(1, "Looking Glass")
           + turn(0, 1) + action(0, A_ATTACK))
    hit = (pre + [E(EV_ATTACK, 0, 4, excal), E(EV_BOOST, 0, feint, 1, 1), E(EV_DEFENSE, 4, glass),
                  E(EV_VALUES, 7, 2, 5, 1), E(EV_DAMAGE, 4, 5, 8)])
    ch = [E(EV_CHOOSE, 1, 2), E(EV_RECOVER, 4, 3, 11), E(EV_CHOOSE, 1, 3), E(EV_PLACE, 4, y, f)]
    assert sy.code(hit + ch) == OK
    assert sy.code(hit + [E(EV_RECOVER, 4, 3, 11)]) == E_HEAL_SOURCE             # option not chosen
    assert sy.code(hit + [E(EV_CHOOSE, 1, 3), E(EV_RECOVER, 4, 3, 11)]) == E_HEAL_SOURCE
    assert sy.code(hit + [E(EV_CHOOSE, 1, 2), E(EV_RECOVER, 4, 4, 12)]) == E_HEAL_SOURCE
    assert sy.code(hit + [E(EV_CHOOSE, 1, 2), E(EV_CHOOSE, 1, 2)]) == E_CHOOSE    # the same twice
    assert sy.code(hit + [E(EV_CHOOSE, 1, 1), E(EV_CHOOSE, 1, 2), E(EV_CHOOSE, 1, 3)]) == E_CHOOSE  # 3 of 3
    assert sy.code(hit + [E(EV_CHOOSE, 1, 4)]) == E_CHOOSE
    assert sy.code(hit + [E(EV_CHOOSE, 0, 1)]) == E_CHOOSE                       # not Arthur's card
    assert sy.code(hit + [E(EV_CHOOSE, 1, 3), E(EV_PLACE, 4, y, y)]) == E_PLACE  # "any other space"
    assert sy.code(hit + [E(EV_CHOOSE, 1, 3), E(EV_PLACE, 0, x, f)]) == E_PLACE  # Alice only
    # the face-down BOOST
    atk = pre + [E(EV_ATTACK, 0, 4, excal)]
    assert sy.code(atk + [E(EV_BOOST, 0, feint, 1, 2)]) == E_BOOST               # Feint's BOOST is 1
    assert sy.code(atk + [E(EV_BOOST, 0, feint, 1, 1), E(EV_BOOST, 0, swift, 1, 2)]) == E_BOOST   # twice
    assert sy.code(atk + [E(EV_BOOST, 0, sy.c(0, "Noble Sacrifice"), 1, 3)]) == E_CARD_FLOW       # not in hand
    assert sy.code(atk + [E(EV_DEFENSE, 4, glass), E(EV_BOOST, 0, feint, 1, 1)]) == E_BOOST       # too late
    assert sy.code(pre + [E(EV_ATTACK, 1, 4, swift), E(EV_BOOST, 0, feint, 1, 1)]) == E_BOOST     # Merlin
    assert sy.code(pre + [E(EV_ATTACK, 1, 4, excal)]) == E_CARD_PLAY             # Excalibur: Arthur's
    assert sy.code(pre + [E(EV_ATTACK, 0, 4, sy.c(0, "Regroup"))]) == E_CARD_FLOW   # not in hand
    assert sy.code(pre + [E(EV_ATTACK, 0, 4, excal), E(EV_DEFENSE, 4, sy.c(1, "Snicker-Snack"))]) == E_CARD_PLAY
    sy2 = Synth(("alice", "king_arthur"))
    x2, y2, _, _ = sy2.melee()
    assert sy2.code([E(EV_SETUP, 0, x2), E(EV_SETUP, 4, y2)] + sy2.draw(0, "Manxome Foe", "Feint")
                    + turn(0, 1) + action(0, A_ATTACK)
                    + [E(EV_ATTACK, 0, 4, sy2.c(0, "Manxome Foe")),
                       E(EV_BOOST, 0, sy2.c(0, "Feint"), 1, 2)]) == E_BOOST      # Alice has no such ability


@pytest.mark.nojit
def test_checker_rejects_bad_card_flow():
    """Manxome Foe's deck-top discard, The Lady of the Lake's search, Prophecy's look at the
    top 4, drawing, exhaustion: a card moves only from where the replay has it, when allowed."""
    sy = Synth(("alice", "king_arthur"))
    x, y, _, _ = sy.melee()
    manx, feint, regroup, snicker = (sy.c(0, "Manxome Foe"), sy.c(0, "Feint"), sy.c(0, "Regroup"),
                                     sy.c(0, "Snicker-Snack"))
    pre = ([E(EV_SETUP, 0, x), E(EV_SETUP, 4, y)] + sy.draw(0, "Manxome Foe", "Feint", "Snicker-Snack")
           + turn(0, 1) + action(0, A_ATTACK))
    manxome = pre + [E(EV_ATTACK, 0, 4, manx), E(EV_DEFENSE, 4, -1)]
    assert sy.code(manxome + [E(EV_DISCARD, 0, regroup, 3)]) == OK
    assert sy.code(manxome + [E(EV_DISCARD, 0, snicker, 3)]) == E_CARD_FLOW       # its only copy is in hand
    assert sy.code(manxome + [E(EV_DISCARD, 0, regroup, 3)] * 2) == E_CARD_FLOW   # once
    assert sy.code(manxome + [E(EV_DISCARD, 1, sy.c(1, "Regroup"), 3)]) == E_CARD_FLOW   # your own deck
    assert sy.code(pre + [E(EV_ATTACK, 0, 4, feint), E(EV_DEFENSE, 4, -1),
                          E(EV_DISCARD, 0, regroup, 3)]) == E_CARD_FLOW           # no discard_top effect
    assert sy.code(pre + [E(EV_ATTACK, 0, 4, manx), E(EV_DISCARD, 0, regroup, 3)]) == E_CARD_FLOW  # too early
    assert sy.code(manxome + [E(EV_DISCARD, 0, regroup, 0)]) == E_CARD_FLOW      # not in hand
    assert sy.code(manxome + [E(EV_DISCARD, 0, feint, 0)]) == E_CARD_FLOW        # no discard effect
    assert sy.code(pre + sy.draw(0, "Snicker-Snack")) == E_CARD_FLOW             # drawn twice, 1 copy

    sy = Synth(("king_arthur", "medusa"))
    excal, lady, feint, prophecy = (sy.c(0, "Excalibur"), sy.c(0, "The Lady of the Lake"), sy.c(0, "Feint"),
                                    sy.c(0, "Prophecy"))
    at = [E(EV_SETUP, 0, 0), E(EV_SETUP, 1, 1)]
    lake = at + sy.draw(0, "The Lady of the Lake") + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, lady)]
    assert sy.code(lake + [E(EV_TAKE, 0, excal, PILE_DECK), E(EV_SEARCH, 0, excal, 1)]) == OK
    assert sy.code(lake + [E(EV_TAKE, 0, excal, PILE_DECK), E(EV_SEARCH, 0, excal, 0)]) == E_CARD_FLOW  # shuffle
    assert sy.code(lake + [E(EV_TAKE, 0, feint, PILE_DECK)]) == E_CARD_FLOW       # Excalibur only
    assert sy.code(lake + [E(EV_SEARCH, 0, -1, 1)]) == E_CARD_FLOW               # it is in the deck
    in_hand = (at + sy.draw(0, "The Lady of the Lake", "Excalibur") + turn(0, 1) + action(0, A_SCHEME)
               + [E(EV_SCHEME, 0, 0, lady)])
    assert sy.code(in_hand + [E(EV_SEARCH, 0, -1, 1)]) == OK                     # nowhere to find: deck shuffled
    assert sy.code(in_hand + [E(EV_SEARCH, 0, -1, 0)]) == E_CARD_FLOW
    in_disc = (at + sy.draw(0, "The Lady of the Lake", "Excalibur") + turn(0, 1) + action(0, A_MANEUVER)
               + sy.draw(0, "Feint") + [E(EV_DISCARD, 0, excal, 2), E(EV_BOOST, 0, excal, 0, 3)]
               + action(0, A_SCHEME, 2) + [E(EV_SCHEME, 0, 0, lady)])
    assert sy.code(in_disc + [E(EV_TAKE, 0, excal, PILE_DISC), E(EV_SEARCH, 0, excal, 0)]) == OK
    assert sy.code(in_disc + [E(EV_TAKE, 0, excal, PILE_DISC), E(EV_SEARCH, 0, excal, 1)]) == E_CARD_FLOW
    assert sy.code(in_disc + [E(EV_TAKE, 0, excal, PILE_DECK)]) == E_CARD_FLOW   # it is not in the deck
    assert sy.code(in_disc[:-1] + [E(EV_TAKE, 0, excal, PILE_DISC)]) == E_CARD_FLOW   # no search effect
    boost_without = at + sy.draw(0, "Excalibur") + turn(0, 1) + action(0, A_MANEUVER) + [E(EV_DISCARD, 0, excal, 2)]
    assert sy.code(boost_without + action(0, A_MANEUVER, 2)) == E_BOOST           # discarded "for a BOOST"

    look = (at + sy.draw(0, "Prophecy") + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 1, prophecy)])
    regroup, shift = sy.c(0, "Regroup"), sy.c(0, "Momentous Shift")
    assert sy.code(look + [E(EV_LOOK_TOP, 0, 4), E(EV_TAKE, 0, feint, PILE_DECK),
                           E(EV_TAKE, 0, regroup, PILE_DECK)]) == OK
    assert sy.code(look + [E(EV_LOOK_TOP, 0, 4), E(EV_TAKE, 0, feint, PILE_DECK)]) == E_CARD_FLOW   # keep 2
    assert sy.code(look + [E(EV_LOOK_TOP, 0, 4), E(EV_TAKE, 0, feint, PILE_DECK), E(EV_TAKE, 0, regroup, PILE_DECK),
                           E(EV_TAKE, 0, shift, PILE_DECK)]) == E_CARD_FLOW
    assert sy.code(look + [E(EV_LOOK_TOP, 0, 3)]) == E_CARD_FLOW                 # 29 cards in the deck
    assert sy.code(look[:-1] + [E(EV_SCHEME, 0, 0, prophecy)]) == E_CARD_PLAY     # Merlin's card

    # exhaustion: 2 damage per missing draw to each fighter on the board, only from an empty deck
    sy = Synth(HEROES)
    everything = [E(EV_DRAW, 0, cid) for cid in np.flatnonzero(sy.ex.deck_counts[0])
                  for _ in range(int(sy.ex.deck_counts[0, cid]))]
    ex_pre = [E(EV_SETUP, 0, 0), E(EV_SETUP, 1, 1)] + everything + turn(0, 1) + action(0, A_MANEUVER)
    ok = ex_pre + [E(EV_EXHAUST, 0, 1), E(EV_DAMAGE, 0, 2, 14), E(EV_DAMAGE, 1, 1, 0), E(EV_DEFEATED, 1)]
    assert sy.code(ok + action(0, A_MANEUVER, 2) + turn(1, 2)) == OK
    assert sy.code(ok + turn(1, 2)) == E_ACTIONS                                 # one action of two
    assert sy.code(ok[:-2] + turn(1, 2)) == E_EXHAUST                            # the Harpy took none
    assert sy.code(ex_pre + [E(EV_EXHAUST, 0, 1), E(EV_DAMAGE, 0, 3, 13)]) == E_EXHAUST
    assert sy.code(ex_pre + [E(EV_EXHAUST, 0, 2), E(EV_DAMAGE, 0, 2, 14)]) == E_EXHAUST   # 2 missing: 4
    assert sy.code(ex_pre[:-3] + turn(0, 1) + action(0, A_MANEUVER) + [E(EV_EXHAUST, 0, 1)]) == E_EXHAUST  # 1 left
    assert sy.code(ex_pre + sy.draw(0, "Feint")) == E_CARD_FLOW                   # nothing left to draw


@pytest.mark.nojit
def test_checker_rejects_bad_effect_damage_and_counters():
    """Restless Spirits: 2 damage to opposing fighters on a space in Merlin's zone or next to
    one; Medusa's Gaze: 1 damage in her zone at the start of her turn; Alice's size changes
    only by her setup choice and size cards."""
    sy = Synth(("king_arthur", "medusa"))
    S = sy.S
    m = sy.pick(lambda s: sum(sy.zone[s]) >= 3)
    t = sy.pick(lambda s: sy.zone[m, s], (m,))
    zone_m = [s for s in range(S) if sy.zone[m, s]]
    f = sy.pick(lambda s: all(s != z and not sy.adj[z, s] for z in zone_m), (m, t))
    u = sy.pick(lambda s: sy.zone[m, s], (m, t, f))
    spirits = sy.c(0, "Restless Spirits")
    at = [E(EV_SETUP, 1, m), E(EV_SETUP, 4, t), E(EV_SETUP, 5, f), E(EV_SETUP, 0, u)]
    rs = at + sy.draw(0, "Restless Spirits") + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 1, spirits)]
    assert sy.code(rs + [E(EV_DAMAGE, 4, 2, 14)]) == OK
    assert sy.code(rs + [E(EV_DAMAGE, 5, 1, 0), E(EV_DEFEATED, 5)]) == E_DAMAGE_SOURCE   # far from Merlin's zone
    assert sy.code(rs + [E(EV_DAMAGE, 0, 2, 16)]) == E_DAMAGE_SOURCE                      # Arthur: not opposing
    assert sy.code(rs + [E(EV_DAMAGE, 4, 3, 13)]) == E_DAMAGE_SOURCE
    assert sy.code(rs + [E(EV_DAMAGE, 4, 2, 14), E(EV_DAMAGE, 4, 2, 12)]) == E_DAMAGE_SOURCE  # once
    gaze = at + turn(0, 1) + action(0, A_MANEUVER) + action(0, A_MANEUVER, 2) + turn(1, 2)
    assert sy.code(gaze + [E(EV_DAMAGE, 1, 1, 6)]) == OK                          # Merlin, in Medusa's zone
    assert sy.code(gaze + [E(EV_DAMAGE, 1, 2, 5)]) == E_DAMAGE_SOURCE
    assert sy.code(gaze + [E(EV_DAMAGE, 5, 1, 0), E(EV_DEFEATED, 5)]) == E_DAMAGE_SOURCE  # her own Harpy
    assert sy.code(gaze + [E(EV_DAMAGE, 1, 1, 6), E(EV_DAMAGE, 0, 1, 17)]) == E_DAMAGE_SOURCE  # one fighter
    assert sy.code(at + turn(0, 1) + [E(EV_DAMAGE, 4, 1, 15)]) == E_DAMAGE_SOURCE  # Arthur has no Gaze

    sy = Synth(("alice", "sinbad"))
    eat = sy.c(0, "Eat Me")
    setup = [E(EV_SETUP, 0, 0), E(EV_SETUP, 1, 1), E(EV_SETUP, 4, 2), E(EV_SETUP, 5, 3)]
    big = setup + [E(EV_COUNTER, 0, 0, 0)]
    assert sy.code(big) == OK                                                    # Alice chooses her size
    assert sy.code(setup + [E(EV_COUNTER, 0, 0, 2)]) == E_COUNTER                # big or small only
    assert sy.code(setup + [E(EV_COUNTER, 1, 0, 1)]) == E_COUNTER                # Sinbad has no counter
    assert sy.code(setup + [E(EV_COUNTER, 0, 1, 1)]) == E_COUNTER                # Alice has one counter
    scheme = big + sy.draw(0, "Eat Me") + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, eat)]
    assert sy.code(scheme + [E(EV_COUNTER, 0, 0, 1)]) == OK                      # big -> small
    assert sy.code(scheme + [E(EV_COUNTER, 0, 0, 0)]) == E_COUNTER               # a change, not a set
    assert sy.code(scheme + [E(EV_COUNTER, 0, 0, 1), E(EV_COUNTER, 0, 0, 0)]) == E_COUNTER   # once
    assert sy.code(big + turn(0, 1) + action(0, A_MANEUVER) + [E(EV_COUNTER, 0, 0, 1)]) == E_COUNTER


@pytest.mark.nojit
def test_checker_rejects_broken_states():
    """A real game's final state passes; corrupted copies fail with the right code."""
    m = Match(list(HEROES), battlefield="marmoreal")
    game = m.play(7)
    ex, check, _, info = replay_real(m, game)
    S = m.battlefield.n_spaces
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
    longer = np.vstack([game.log, [E(EV_CHOOSE, 0, 1)]])
    st = game.state.copy()
    st[G_LOGN] += 1
    assert check_final(st, longer, game.turns, info) == E_AFTER_END

    # King Arthur vs Alice: the piles and Alice's size replayed from the log
    m = Match(["king_arthur", "alice"], battlefield="marmoreal")
    for seed in range(1, 50):
        game = m.play(seed)
        disc = int(game.state[pslot(0, P_DISCN)])
        hand = int(game.state[pslot(0, P_HANDN)])
        base_d, base_h = OFF_DISC, OFF_HAND
        if disc and hand and game.state[base_d] != game.state[base_h]:
            break
    ex, check, _, info = replay_real(m, game)
    assert check(game.state) == OK
    st = game.state.copy()
    st[base_d], st[base_h] = game.state[base_h], game.state[base_d]   # a hand card swapped with a discard
    assert check(st) == E_PILES_MISMATCH
    st = game.state.copy()
    st[pslot(1, P_COUNTER0)] = 1 - st[pslot(1, P_COUNTER0)]            # Alice changed size unlogged
    assert check(st) == E_COUNTER


@pytest.mark.nojit
def test_checker_catches_broken_engine_tables():
    """End to end: the engine run on doctored tables breaks the invariants it should.

    The checker keeps its own expectations (hero files, the real battlefield), so an
    engine that moves, attacks, deals or counts by other numbers is caught.
    """
    from sim.content.compile import _move_masks
    from sim.engine.layout import C_BOOST, H_DECK_START, H_MOVE

    mu, m = 0, Match(list(HEROES), battlefield="marmoreal")
    ex = Expect(m)
    tb = m.tables
    medusa, sinbad = int(m.rows[0]), int(m.rows[1])
    S = m.battlefield.n_spaces

    def codes(tables, n=6):
        out = np.zeros((n, R_FIELDS), np.int64)
        run_checked(tables, m.rows, new_control(), RUN_SEED, mu, 0, n, *ex.args(), out,
                    np.zeros(SX_FIELDS, np.int64))
        return set(out[:, R_CODE].tolist())

    assert codes(tb) == {OK}
    teleport = np.ones((S, S), np.int8) - np.eye(S, dtype=np.int8)
    assert E_MOVE_PATH in codes(tb._replace(move=teleport, mmask=_move_masks(teleport)))   # mmask mirrors move
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


@pytest.mark.nojit
def test_checker_catches_broken_engine_tables_arthur_alice():
    """End to end with the new heroes: doctored effect programs of King Arthur's and Alice's
    cards (a bigger Command the Storms, a Bewilderment that prevents nothing, a Looking Glass
    that recovers 4, an Eat Me that sets the size instead of changing it) are caught."""
    from sim.engine import effects as EF
    from sim.engine.layout import C_PROG, I_N, I_OP, W_AFTER, W_DURING, W_SCHEME

    def rows_of(tb, card, window, op):
        s, n = tb.cards[card, C_PROG + 2 * window], tb.cards[card, C_PROG + 2 * window + 1]
        found = [r for r in range(s, s + n) if tb.code[r, I_OP] == op]
        assert found, (card, window, op)
        return found

    def codes(m, ex, tables, mu, n=40):
        out = np.zeros((n, R_FIELDS), np.int64)
        run_checked(tables, m.rows, new_control(), RUN_SEED, mu, 0, n, *ex.args(), out,
                    np.zeros(SX_FIELDS, np.int64))
        return set(out[:, R_CODE].tolist())

    for mu, keys, card, window, op, change, code in (
            (900, ("king_arthur", "alice"), "Command the Storms", W_SCHEME, EF.OP_MOVE, (I_N, 4), E_MOVE_BUDGET),
            (901, ("alice", "king_arthur"), "Bewilderment", W_DURING, EF.OP_PREVENT_DAMAGE, (I_OP, EF.OP_NOP),
             E_COMBAT),
            (902, ("king_arthur", "alice"), "Looking Glass", W_AFTER, EF.OP_RECOVER, (I_N, 4), E_HEAL_SOURCE),
            (903, ("alice", "medusa"), "Eat Me", W_SCHEME, EF.OP_FLIP_COUNTER, (I_OP, EF.OP_SET_COUNTER),
             E_COUNTER)):
        m = Match(list(keys), battlefield="marmoreal")
        ex = Expect(m)
        cid = m.content.card_ids[(next(k for k in keys if card in [c["name"] for c in hero_toml(k)["cards"]]), card)]
        assert OK in codes(m, ex, m.tables, mu, 4)
        code_tab = m.tables.code.copy()
        for r in rows_of(m.tables, cid, window, op):
            code_tab[r, change[0]] = change[1]
        got = codes(m, ex, m.tables._replace(code=code_tab), mu)
        assert code in got, (card, got)
