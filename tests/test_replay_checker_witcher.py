"""The replay checker rejects broken games with the Witcher mechanics: pins, swaps, ongoing schemes,
remove and return, dormancy, broken states, tables and card flow.
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers.replay.checks import run_checked
from helpers.replay.constants import (E_ACTIONS, E_ATTACK, E_CANCEL, E_CARD_COUNT, E_CARD_FLOW, E_CARD_FOREIGN,
    E_CARD_PLAY, E_DAMAGE, E_DAMAGE_SOURCE, E_DORMANT, E_END_TURN, E_GAIN, E_HEAL_SOURCE, E_MOVE_DEST, E_MOVE_FROM,
    E_MOVE_PATH, E_ONGOING, E_PIN, E_POS_MISMATCH, E_REMOVE, E_STATUS, E_SWAP, GERALT, OK, R_CODE, R_FIELDS, RUN_SEED,
    SX_FIELDS)
from helpers.replay.expect import Expect
from helpers.replay.synth import E, Synth, action, log_code, real_game_with, replay_real, spaces_of, turn

from sim.engine.core import PILE_DECK, PILE_DISC
from sim.engine.layout import (A_ATTACK, A_MANEUVER, A_SCHEME, EV_ATTACK, EV_BOOST, EV_CANCEL, EV_CHOOSE, EV_DAMAGE,
    EV_DEFENSE, EV_DISCARD, EV_DRAW, EV_END_TURN, EV_GAIN_ACTION, EV_MOVE, EV_ONGOING, EV_PIN, EV_PLACE, EV_RECOVER,
    EV_REMOVE, EV_SCHEME, EV_SEARCH, EV_SETUP, EV_SWAP, EV_TAKE, EV_VALUES, F_STATUS, FS_DEFEATED, FS_REMOVED,
    P_ONGOING, fslot, pslot)
from sim.engine.policy import new_control
from sim.play.match import Match


# ------------------------------------------------ the Witcher mechanics: the checker catches broken games

GERALT_BLIZZARD = "geralt_of_rivia@steel+medallion+blizzard"
GERALT_OWL = "geralt_of_rivia@steel+wolf-armor+owl"


@pytest.mark.nojit
def test_checker_rejects_pin_violations():
    """Yrden: "the opposing fighter cannot leave their space this turn": after EV_PIN it is
    not moved (Annoying Tune, its own maneuver), swapped (Riposte) or placed until the turn
    ends; a pin needs a live pin effect on that fighter (the opposing one of Yrden)."""
    sy = Synth((GERALT_BLIZZARD, "sinbad"))
    m20, m21, m13, m25 = spaces_of(sy, "M20", "M21", "M13", "M25")
    assert sy.adj[m20, m21] and sy.zone[m13, m21] and sy.mv[m21, m25] and not sy.adj[m13, m21]
    yrden, tune, rend, riposte, exploit = (sy.c(0, "Yrden"), sy.c(0, "Annoying Tune"), sy.c(0, "Rend"),
                                           sy.c(0, "Riposte"), sy.c(1, "Exploit"))
    setup = [E(EV_SETUP, 0, m20), E(EV_SETUP, 1, m13), E(EV_SETUP, 4, m21)]   # Geralt, Dandelion, Sinbad
    pre = setup + sy.draw(0, "Yrden", "Annoying Tune", "Riposte", "Rend") + turn(0, 1) + action(0, A_ATTACK)
    yr = pre + [E(EV_ATTACK, 0, 4, yrden), E(EV_DEFENSE, 4, -1)]
    pinned = yr + [E(EV_PIN, 4), E(EV_VALUES, 2, 0, 2, 1), E(EV_DAMAGE, 4, 2, 13)]
    unpinned = yr + [E(EV_VALUES, 2, 0, 2, 1), E(EV_DAMAGE, 4, 2, 13)]
    assert sy.code(pinned) == OK
    assert sy.code(yr + [E(EV_PIN, 0)]) == E_PIN                                  # the opposing fighter only
    assert sy.code(yr + [E(EV_PIN, 4), E(EV_PIN, 4)]) == E_PIN                    # once
    assert sy.code(pre + [E(EV_ATTACK, 0, 4, rend), E(EV_DEFENSE, 4, -1), E(EV_PIN, 4)]) == E_PIN   # Rend pins no one
    tune_move = (action(0, A_ATTACK, 2) + [E(EV_ATTACK, 1, 4, tune), E(EV_DEFENSE, 4, -1),
                                           E(EV_VALUES, 3, 0, 3, 1), E(EV_DAMAGE, 4, 3, 10),
                                           E(EV_MOVE, 4, m21, m25, 4, 0)])
    assert sy.code(unpinned + tune_move) == OK
    assert sy.code(pinned + tune_move) == E_PIN                                   # not moved by a card
    swap = (action(0, A_ATTACK, 2) + [E(EV_ATTACK, 0, 4, riposte), E(EV_DEFENSE, 4, -1),
                                      E(EV_VALUES, 2, 0, 2, 1), E(EV_DAMAGE, 4, 2, 11), E(EV_CHOOSE, 0, 2),
                                      E(EV_SWAP, 0, 4)])
    assert sy.code(unpinned + swap) == OK
    assert sy.code(pinned + swap) == E_PIN                                        # nor swapped
    # the pin ends with the turn
    later = pinned + action(0, A_MANEUVER, 2) + turn(1, 2) + action(1, A_MANEUVER)
    assert sy.code(later + [E(EV_MOVE, 4, m21, m25, 2, 0)]) == OK
    # Yrden on defense pins the attacker for the rest of his own turn
    d = (setup + sy.draw(0, "Yrden") + sy.draw(1, "Exploit") + turn(0, 1) + action(0, A_MANEUVER)
         + action(0, A_MANEUVER, 2) + turn(1, 2) + action(1, A_ATTACK)
         + [E(EV_ATTACK, 4, 0, exploit), E(EV_DEFENSE, 0, yrden), E(EV_PIN, 4), E(EV_VALUES, 4, 2, 2, 1),
            E(EV_DAMAGE, 0, 2, 14)] + action(1, A_MANEUVER, 2))
    assert sy.code(d) == OK
    assert sy.code(d + [E(EV_MOVE, 4, m21, m25, 2, 0)]) == E_PIN                  # not even by his maneuver


@pytest.mark.nojit
def test_checker_rejects_swap_violations():
    """Riposte's second option: Geralt and one fighter adjacent to him swap spaces, once;
    the replay's positions follow the swap (a move from the old space is rejected)."""
    sy = Synth((GERALT_BLIZZARD, "sinbad"))
    m20, m21, m25, m27, m28 = spaces_of(sy, "M20", "M21", "M25", "M27", "M28")
    assert sy.adj[m20, m21] and not sy.adj[m20, m28] and sy.mv[m21, m25] and sy.mv[m20, m27]
    riposte = sy.c(0, "Riposte")
    setup = [E(EV_SETUP, 0, m20), E(EV_SETUP, 4, m21), E(EV_SETUP, 5, m28)]      # Geralt, Sinbad, the Porter
    rip = (setup + sy.draw(0, "Riposte") + turn(0, 1) + action(0, A_ATTACK)
           + [E(EV_ATTACK, 0, 4, riposte), E(EV_DEFENSE, 4, -1), E(EV_VALUES, 2, 0, 2, 1), E(EV_DAMAGE, 4, 2, 13)])
    assert sy.code(rip + [E(EV_CHOOSE, 0, 2), E(EV_SWAP, 0, 4)]) == OK
    assert sy.code(rip + [E(EV_CHOOSE, 0, 1), E(EV_DAMAGE, 4, 1, 12)]) == OK       # the other option
    assert sy.code(rip + [E(EV_SWAP, 0, 4)]) == E_SWAP                            # option not chosen
    assert sy.code(rip + [E(EV_CHOOSE, 0, 1), E(EV_SWAP, 0, 4)]) == E_SWAP         # option 1 deals damage
    assert sy.code(rip + [E(EV_CHOOSE, 0, 2), E(EV_SWAP, 0, 5)]) == E_SWAP         # the Porter is not adjacent
    assert sy.code(rip + [E(EV_CHOOSE, 0, 2), E(EV_SWAP, 4, 0)]) == E_SWAP         # Sinbad did not play it
    assert sy.code(rip + [E(EV_CHOOSE, 0, 2), E(EV_SWAP, 0, 0)]) == E_SWAP         # with himself
    assert sy.code(rip + [E(EV_CHOOSE, 0, 2), E(EV_SWAP, 0, 4), E(EV_SWAP, 0, 4)]) == E_SWAP   # one swap
    swapped = rip + [E(EV_CHOOSE, 0, 2), E(EV_SWAP, 0, 4)] + action(0, A_MANEUVER, 2)
    assert sy.code(swapped + [E(EV_MOVE, 0, m21, m25, 2, 0)]) == OK               # Geralt is on M21 now
    assert sy.code(swapped + [E(EV_MOVE, 0, m20, m27, 2, 0)]) == E_MOVE_FROM      # not on M20 any more


@pytest.mark.nojit
def test_checker_rejects_doctored_real_logs_swap_and_ongoing():
    """Real games: the full log replays clean; without its EV_SWAP the positions no longer
    follow; a swap with the other fighter's id first, or without the EV_ONGOING that keeps a
    scheme in play, or without the end-of-turn discard of one whose condition held, fails."""
    m = Match([GERALT_OWL, "medusa"], battlefield="kaer_morhen")

    def eot_discards(log):
        return [i for i in np.flatnonzero((log[:, 0] == EV_ONGOING) & (log[:, 3] == 0))
                if not (log[i + 1, 0] == EV_ONGOING and log[i + 1, 3] == 1)]

    g = real_game_with(m, lambda log: (log[:, 0] == EV_SWAP).any() and len(eot_discards(log)) > 0)
    assert log_code(m, g.log, g.state) == OK
    k = int(np.flatnonzero(g.log[:, 0] == EV_SWAP)[0])
    assert log_code(m, np.delete(g.log, k, axis=0), g.state) in (E_MOVE_FROM, E_POS_MISMATCH, E_ATTACK,
                                                                  E_MOVE_PATH, E_MOVE_DEST, E_SWAP, E_DAMAGE_SOURCE)
    bad = g.log.copy()
    bad[k, 1], bad[k, 2] = g.log[k, 2], g.log[k, 1]
    assert log_code(m, bad) == E_SWAP
    # ongoing schemes
    kept = (g.log[:, 0] == EV_ONGOING) & (g.log[:, 3] == 1)
    k = int(np.flatnonzero(kept)[0])
    assert log_code(m, np.delete(g.log, k, axis=0)) == E_ONGOING                # it must stay in play
    eot = eot_discards(g.log)
    assert log_code(m, np.delete(g.log, eot[0], axis=0)) == E_ONGOING            # condition held: discarded
    moved = np.insert(g.log, eot[0] + 1, g.log[eot[0]], axis=0)                   # discarded twice
    assert log_code(m, moved) == E_ONGOING


@pytest.mark.nojit
def test_checker_rejects_ongoing_scheme_violations():
    """Ongoing schemes (rules "Ongoing Schemes"): the scheme just played stays in play (an
    ongoing-tagged one must), one per hero (a second one discards the first), discarded only
    at the end of its owner's turn and exactly when its condition holds (Blizzard: unless
    Geralt attacked this turn); while Blizzard is in play the opponent gains no action."""
    sy = Synth((GERALT_BLIZZARD, "ancient_leshen"))
    m20, m21, m27, m13 = spaces_of(sy, "M20", "M21", "M27", "M13")
    assert sy.adj[m20, m21] and sy.adj[m20, m27]
    bliz, ugly, senses, howls = (sy.c(0, "Blizzard"), sy.c(0, "Damn, You're Ugly"), sy.c(0, "Witcher Senses"),
                                 sy.c(1, "Disturbing Howls"))
    setup = [E(EV_SETUP, 0, m20), E(EV_SETUP, 4, m21), E(EV_SETUP, 5, m27), E(EV_SETUP, 6, m13)]
    played = (setup + sy.draw(0, "Blizzard", "Damn, You're Ugly", "Witcher Senses") + sy.draw(1, "Disturbing Howls")
              + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, bliz)])
    in_play = played + [E(EV_ONGOING, 0, bliz, 1)]
    assert sy.code(in_play) == OK
    assert sy.code(played) == E_ONGOING                                           # went to the discard pile
    assert sy.code(played + action(0, A_MANEUVER, 2)) == E_ONGOING
    assert sy.code(played + [E(EV_ONGOING, 0, ugly, 1)]) == E_ONGOING             # not the card played
    senses_in = (setup + sy.draw(0, "Witcher Senses") + turn(0, 1) + action(0, A_SCHEME)
                 + [E(EV_SCHEME, 0, 0, senses), E(EV_ONGOING, 0, senses, 1)])
    assert sy.code(senses_in) == E_ONGOING                                        # not an ongoing scheme
    # the end of a turn in which Geralt did not attack: discarded, and only then
    idle = in_play + action(0, A_MANEUVER, 2)
    assert sy.code(idle + [E(EV_ONGOING, 0, bliz, 0)] + turn(1, 2)) == OK
    assert sy.code(idle + turn(1, 2)) == E_ONGOING                                # kept although he did not attack
    assert sy.code(in_play + [E(EV_ONGOING, 0, bliz, 0)] + action(0, A_MANEUVER, 2)) == E_ONGOING   # mid-turn
    assert sy.code(idle + [E(EV_ONGOING, 0, bliz, 0), E(EV_ONGOING, 0, bliz, 0)]) == E_ONGOING   # not in play
    assert sy.code(idle + [E(EV_ONGOING, 0, bliz, 0)] + action(0, A_MANEUVER, 3)) == E_ONGOING   # turn not over
    fought = in_play + action(0, A_ATTACK, 2) + [E(EV_ATTACK, 0, 4, ugly), E(EV_DEFENSE, 4, -1),
                                                 E(EV_VALUES, 5, 0, 5, 1), E(EV_DAMAGE, 4, 5, 8)]
    assert sy.code(fought + turn(1, 2)) == OK                                     # he attacked: it stays
    assert sy.code(fought + [E(EV_ONGOING, 0, bliz, 0)] + turn(1, 2)) == E_ONGOING
    # Blizzard: opponents can't gain actions (Disturbing Howls: "gain 1 action")
    howl = (turn(1, 2) + action(1, A_ATTACK) + [E(EV_ATTACK, 5, 0, howls), E(EV_DEFENSE, 0, -1),
                                                E(EV_VALUES, 1, 0, 1, 1), E(EV_DAMAGE, 0, 1, 15)])
    assert sy.code(fought + howl + [E(EV_GAIN_ACTION, 1, 1)]) == E_GAIN
    assert sy.code(fought + howl + [E(EV_ONGOING, 0, bliz, 0)]) == E_ONGOING      # not the owner's turn
    no_bliz = (setup + sy.draw(1, "Disturbing Howls") + turn(0, 1) + action(0, A_MANEUVER)
               + action(0, A_MANEUVER, 2) + howl)
    assert sy.code(no_bliz + [E(EV_GAIN_ACTION, 1, 1)] + action(1, A_MANEUVER, 2)
                   + action(1, A_MANEUVER, 3)) == OK
    assert sy.code(no_bliz + [E(EV_GAIN_ACTION, 1, 2)]) == E_GAIN                 # it gains 1
    assert sy.code(no_bliz + [E(EV_GAIN_ACTION, 1, 1), E(EV_GAIN_ACTION, 1, 1)]) == E_GAIN   # once
    assert sy.code(no_bliz + action(1, A_MANEUVER, 2) + action(1, A_MANEUVER, 3)) == E_ACTIONS   # 2 + 0

    # one ongoing scheme per hero: a second Unicorn Ally discards the first
    sy = Synth(("ciri", "sinbad"))
    uni = sy.c(0, "Unicorn Ally")
    two = ([E(EV_SETUP, 0, 0), E(EV_SETUP, 4, 5)] + sy.draw(0, "Unicorn Ally", "Unicorn Ally") + turn(0, 1)
           + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, uni), E(EV_ONGOING, 0, uni, 1)] + action(0, A_SCHEME, 2)
           + [E(EV_SCHEME, 0, 0, uni)])
    assert sy.code(two + [E(EV_ONGOING, 0, uni, 0), E(EV_ONGOING, 0, uni, 1)]) == OK
    assert sy.code(two + [E(EV_ONGOING, 0, uni, 1)]) == E_ONGOING                 # two at once

    # Strength of the Pack: the Leshen recovers 1 at the start of its owner's turns while in play
    sy = Synth(("ancient_leshen", "sinbad"))
    m20, m21, m13, m07 = spaces_of(sy, "M20", "M21", "M13", "M07")
    pack, exploit = sy.c(0, "Strength of the Pack"), sy.c(1, "Exploit")
    base = ([E(EV_SETUP, 0, m13), E(EV_SETUP, 1, m07), E(EV_SETUP, 4, m20)] + sy.draw(0, "Strength of the Pack")
            + sy.draw(1, "Exploit") + turn(0, 1))
    hurt = (action(0, A_MANEUVER, 2) + turn(1, 2) + action(1, A_ATTACK)
            + [E(EV_ATTACK, 4, 0, exploit), E(EV_DEFENSE, 0, -1), E(EV_VALUES, 4, 0, 4, 1), E(EV_DAMAGE, 0, 4, 9)]
            + action(1, A_MANEUVER, 2) + turn(0, 3))
    with_pack = base + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, pack), E(EV_ONGOING, 0, pack, 1)] + hurt
    assert sy.zone[m13, m07] and sy.adj[m20, m13]
    assert sy.code(with_pack + [E(EV_RECOVER, 0, 1, 10)]) == OK
    assert sy.code(with_pack + [E(EV_RECOVER, 0, 2, 11)]) == E_HEAL_SOURCE
    assert sy.code(base + action(0, A_MANEUVER) + hurt + [E(EV_RECOVER, 0, 1, 10)]) == E_HEAL_SOURCE
    # discarded at the end of his turn exactly when no Wolf is in the Leshen's zone
    bf = sy.m.battlefield
    m01 = sy.pick(lambda s: 1 <= bf.dist[m07, s] <= 3 and not sy.zone[s, m13], (m20,))   # out of the zone
    packed = base + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, pack), E(EV_ONGOING, 0, pack, 1)]
    away = packed + action(0, A_MANEUVER, 2) + [E(EV_MOVE, 1, m07, m01, 3, 0)]
    assert sy.code(away + [E(EV_ONGOING, 0, pack, 0)] + turn(1, 2)) == OK
    assert sy.code(away + turn(1, 2)) == E_ONGOING                                # no Wolf there: discarded
    stay = packed + action(0, A_MANEUVER, 2)
    assert sy.code(stay + turn(1, 2)) == OK
    assert sy.code(stay + [E(EV_ONGOING, 0, pack, 0)] + turn(1, 2)) == E_ONGOING   # a Wolf is there: kept


@pytest.mark.nojit
def test_checker_rejects_remove_return_dormancy_and_turn_violations():
    """Vanish into Murder: the Leshen leaves the board (not defeated) and is placed again
    first thing in his owner's next turn, then draws 1; with no fighter on the board his
    player is dormant and takes no action. Gained actions and "end the turn" (Armor of the
    Forgotten Wolf) change the actions a turn has; Ciri's 7+ Source cards make a cancel fail."""
    sy = Synth(("ancient_leshen", "sinbad"))
    m13, m20, m31, m01 = spaces_of(sy, "M13", "M20", "M31", "M01")
    vanish = sy.c(0, "Vanish into Murder")
    alone = [E(EV_SETUP, 0, m13), E(EV_SETUP, 4, m31)]                            # no Wolf on the board
    van = alone + sy.draw(0, "Vanish into Murder", "Planted Feet") + turn(0, 1) + action(0, A_SCHEME) \
        + [E(EV_SCHEME, 0, 0, vanish)]
    removed = van + [E(EV_REMOVE, 0)]
    assert sy.code(removed) == OK
    assert sy.code(van + [E(EV_REMOVE, 4)]) == E_REMOVE                           # his own hero only
    assert sy.code(alone + sy.draw(0, "Planted Feet") + turn(0, 1) + action(0, A_SCHEME)
                   + [E(EV_SCHEME, 0, 0, sy.c(0, "Planted Feet"))]) == E_CARD_PLAY
    assert sy.code(removed + action(0, A_MANEUVER, 2)) == E_DORMANT               # no fighter on the board
    back = removed + turn(1, 2) + action(1, A_MANEUVER) + action(1, A_MANEUVER, 2) + turn(0, 3)
    drawn = sy.c(0, "Primeval Slam")
    assert sy.code(back + [E(EV_PLACE, 0, -1, m01), E(EV_DRAW, 0, drawn)] + action(0, A_MANEUVER)) == OK
    assert sy.code(back + [E(EV_PLACE, 0, -1, m31)]) == E_REMOVE                  # onto Sinbad
    assert sy.code(back + [E(EV_PLACE, 0, -1, m01)] + action(0, A_MANEUVER)) == E_REMOVE   # then draw 1
    assert sy.code(back + action(0, A_MANEUVER)) == E_REMOVE                      # placed first thing
    assert sy.code(removed + turn(1, 2) + [E(EV_PLACE, 0, -1, m01)]) == E_REMOVE  # not in Sinbad's turn
    assert sy.code(removed + turn(1, 2) + action(1, A_MANEUVER) + [E(EV_DAMAGE, 0, 1, 12)]) == E_DAMAGE  # off board
    with_wolf = [E(EV_SETUP, 0, m13), E(EV_SETUP, 1, m20), E(EV_SETUP, 4, m31)] + van[2:] + [E(EV_REMOVE, 0)]
    assert sy.code(with_wolf + action(0, A_MANEUVER, 2)) == OK                    # a Wolf is left: not dormant
    assert sy.code(with_wolf + turn(1, 2)) == E_ACTIONS                           # ... so 2 actions

    # Tawny Owl gains 1 action: 3 actions; Armor of the Forgotten Wolf ends the attacker's turn
    sy = Synth((GERALT_OWL, "sinbad"))
    m20, m21 = spaces_of(sy, "M20", "M21")
    owl, armor, exploit = sy.c(0, "Tawny Owl"), sy.c(0, "Armor of the Forgotten Wolf"), sy.c(1, "Exploit")
    setup = [E(EV_SETUP, 0, m20), E(EV_SETUP, 4, m21)]
    owl_turn = (setup + sy.draw(0, "Tawny Owl", "Armor of the Forgotten Wolf") + sy.draw(1, "Exploit", "Feint")
                + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, owl), E(EV_ONGOING, 0, owl, 1)])
    three = owl_turn + [E(EV_GAIN_ACTION, 0, 1)] + action(0, A_MANEUVER, 2) + action(0, A_MANEUVER, 3)
    assert sy.code(three + [E(EV_ONGOING, 0, owl, 0)] + turn(1, 2)) == OK
    assert sy.code(owl_turn + action(0, A_MANEUVER, 2) + action(0, A_MANEUVER, 3)) == E_ACTIONS
    assert sy.code(owl_turn + [E(EV_GAIN_ACTION, 0, 1)] + action(0, A_MANEUVER, 2)
                   + [E(EV_ONGOING, 0, owl, 0)] + turn(1, 2)) == E_ACTIONS        # the third was not taken
    assert sy.code(owl_turn + [E(EV_GAIN_ACTION, 1, 1)]) == E_GAIN                # the active player gains
    attacked = (three + [E(EV_ONGOING, 0, owl, 0)] + turn(1, 2) + action(1, A_ATTACK)
                + [E(EV_ATTACK, 4, 0, exploit), E(EV_DEFENSE, 0, armor), E(EV_VALUES, 4, 3, 1, 1),
                   E(EV_DAMAGE, 0, 1, 15)])
    ended = attacked + [E(EV_END_TURN, 0)]
    assert sy.code(ended + turn(0, 3)) == OK                                      # Sinbad's turn is over
    assert sy.code(ended + action(1, A_MANEUVER, 2)) == E_ACTIONS
    assert sy.code(attacked + turn(0, 3)) == E_ACTIONS                            # not ended: 2 actions
    assert sy.code(attacked + [E(EV_END_TURN, 1)]) == E_END_TURN                  # Exploit ends nothing
    no_armor = (three + [E(EV_ONGOING, 0, owl, 0)] + turn(1, 2) + action(1, A_ATTACK)
                + [E(EV_ATTACK, 4, 0, exploit), E(EV_DEFENSE, 0, -1), E(EV_VALUES, 4, 0, 4, 1),
                   E(EV_DAMAGE, 0, 4, 12)])
    assert sy.code(no_armor + [E(EV_END_TURN, 0)]) == E_END_TURN

    # Ciri with 7 Source cards in her discard pile: Wolf Medallion's cancel fails
    sy = Synth(("ciri", GERALT_BLIZZARD))
    m20, m21 = spaces_of(sy, "M20", "M21")
    blink, medal = sy.c(0, "Blink"), sy.c(1, "Wolf Medallion")
    sources = ["Zireael"] * 3 + ["Pushed to the Brink"] * 3 + ["Lion Cub of Cintra"]
    others = ["Parry"] * 3 + ["Searching Strike"] * 3 + ["Channel the Source"]

    def cancel(n_source, done):
        discards = sources[:n_source] + others[:7 - n_source]
        return ([E(EV_SETUP, 0, m20), E(EV_SETUP, 4, m21)] + sy.draw(0, *sources, *others, "Blink")
                + sy.draw(1, "Wolf Medallion") + turn(0, 1) + action(0, A_MANEUVER) + action(0, A_MANEUVER, 2)
                + [E(EV_DISCARD, 0, sy.c(0, n), 1) for n in discards] + turn(1, 2) + action(1, A_MANEUVER)
                + action(1, A_MANEUVER, 2) + turn(0, 3) + action(0, A_ATTACK)
                + [E(EV_ATTACK, 0, 4, blink), E(EV_DEFENSE, 4, medal), E(EV_CANCEL, 1, 0, done)])

    assert sy.code(cancel(7, 0)) == OK
    assert sy.code(cancel(7, 1)) == E_CANCEL                                      # protected: it fails
    assert sy.code(cancel(6, 1)) == OK
    assert sy.code(cancel(6, 0)) == E_CANCEL                                      # 6 Source: it works


@pytest.mark.nojit
def test_checker_rejects_broken_witcher_states():
    """A real Witcher game's final state passes; with its ongoing scheme dropped, replaced by
    another card of the deck or by the other hero's card the state check fails (cards
    conserved, piles as replayed); a defeated Wolf marked removed fails too."""
    m = Match([GERALT_BLIZZARD, "ancient_leshen"], battlefield="fayrlund_forest")
    wolves = [fslot(f, F_STATUS) for f in (5, 6)]
    g = next(g for g in map(m.play, range(1, 400))
             if g.state[pslot(0, P_ONGOING)] >= 0 and (g.state[wolves] == FS_DEFEATED).any())
    ex, check, _, info = replay_real(m, g)
    assert check(g.state) == OK
    og = int(g.state[pslot(0, P_ONGOING)])
    st = g.state.copy()
    st[pslot(0, P_ONGOING)] = -1                                                  # the scheme vanished
    assert check(st) == E_CARD_COUNT
    st = g.state.copy()
    st[pslot(0, P_ONGOING)] = next(c for c in np.flatnonzero(ex.deck_counts[0]) if c != og)
    assert check(st) == E_CARD_COUNT                                              # another card in play
    st = g.state.copy()
    st[pslot(0, P_ONGOING)] = m.content.card_ids[("ancient_leshen", "Strength of the Pack")]
    assert check(st) == E_CARD_FOREIGN                                            # the Leshen's card
    st = g.state.copy()
    st[pslot(0, P_ONGOING)] = m.content.card_ids[(GERALT, "Tawny Owl")]
    assert check(st) == E_CARD_FOREIGN                                            # gear of another loadout
    wolf = next(f for f in (5, 6) if g.state[fslot(f, F_STATUS)] == FS_DEFEATED)
    st = g.state.copy()
    st[fslot(wolf, F_STATUS)] = FS_REMOVED
    assert check(st) == E_STATUS                                                  # defeated, not removed


@pytest.mark.nojit
def test_checker_catches_broken_engine_tables_witcher():
    """End to end: the engine run on doctored Witcher programs breaks the invariants it
    should: Blizzard not tagged ongoing (discarded instead of staying in play), its discard
    condition negated, Yrden pinning Geralt instead of the opposing fighter, Yrden's move
    turned into a swap with any fighter and Riposte swapping with any fighter, Vanish into
    Murder without its draw on return, Strength of the Pack recovering 2."""
    from sim.engine import effects as EF
    from sim.engine.layout import (C_PROG, C_TAGS, I_FLAGS, I_N, I_OP, I_REF, I_SEL, IF_NEGATE, TAG_ONGOING, W_AFTER,
        W_IMMEDIATELY, W_ON_RETURN, W_ONGOING_DISCARD, W_ONGOING_START)

    def rows_of(tb, card, window, op):
        s, n = tb.cards[card, C_PROG + 2 * window], tb.cards[card, C_PROG + 2 * window + 1]
        found = [r for r in range(s, s + n) if tb.code[r, I_OP] == op]
        assert found, (card, window, op)
        return found

    def codes(m, tables, mu, n):
        out = np.zeros((n, R_FIELDS), np.int64)
        run_checked(tables, m.rows, new_control(), RUN_SEED, mu, 0, n, *Expect(m).args(), out,
                    np.zeros(SX_FIELDS, np.int64))
        return set(out[:, R_CODE].tolist())

    def doctor(m, what):
        tb = m.tables
        cid = {k: m.content.card_ids[k] for k in m.content.card_ids if k[0] in m.keys}
        cards, code = tb.cards.copy(), tb.code.copy()
        if what == "not ongoing":
            cards[cid[(GERALT, "Blizzard")], C_TAGS] &= ~TAG_ONGOING
        elif what == "negated":
            code[tb.cards[cid[(GERALT, "Blizzard")], C_PROG + 2 * W_ONGOING_DISCARD], I_FLAGS] ^= IF_NEGATE
        elif what == "pin self":
            for r in rows_of(tb, cid[(GERALT, "Yrden")], W_IMMEDIATELY, EF.OP_PIN):
                code[r, I_REF] = EF.REF_SELF
        elif what == "swap any":
            for r in rows_of(tb, cid[(GERALT, "Yrden")], W_AFTER, EF.OP_MOVE):
                code[r, I_OP], code[r, I_SEL] = EF.OP_SWAP, EF.SEL_ONE_ANY
            for r in rows_of(tb, cid[(GERALT, "Riposte")], W_AFTER, EF.OP_SWAP):
                code[r, I_SEL] = EF.SEL_ONE_ANY
        elif what == "no return draw":
            cards[cid[("ancient_leshen", "Vanish into Murder")], C_PROG + 2 * W_ON_RETURN + 1] = 0
        elif what == "recover 2":
            for r in rows_of(tb, cid[("ancient_leshen", "Strength of the Pack")], W_ONGOING_START, EF.OP_RECOVER):
                code[r, I_N] = 2
        return tb._replace(cards=cards, code=code)

    for mu, keys, what, n, code in (
            (920, (GERALT_BLIZZARD, "ancient_leshen"), "not ongoing", 8, E_ONGOING),
            (921, (GERALT_BLIZZARD, "ancient_leshen"), "negated", 8, E_ONGOING),
            (922, (GERALT_BLIZZARD, "sinbad"), "pin self", 8, E_PIN),
            (923, (GERALT_BLIZZARD, "sinbad"), "swap any", 20, E_SWAP),
            (924, ("ancient_leshen", "sinbad"), "no return draw", 10, E_REMOVE),
            (925, ("ancient_leshen", "sinbad"), "recover 2", 10, E_HEAL_SOURCE)):
        m = Match(list(keys), battlefield="kaer_morhen")
        assert codes(m, m.tables, mu, 2) == {OK}
        got = codes(m, doctor(m, what), mu, n)
        assert code in got, (what, got)


@pytest.mark.nojit
def test_bane_of_the_aen_elle_hits_no_one_without_moving():
    """Regression (found by this test's 'passed' check, now fixed in the engine): Bane of
    the Aen Elle damages "an opposing fighter he moved through"; Ihuarraquax pinned by
    Yrden, or staying on his space, moved through no one."""
    from sim.play.scenario import resolve
    ciri = {"hero": "ciri", "fighters": {"Ciri": {"space": "M06"}, "Ihuarraquax": {"space": "M20"}},
            "hand": ["Bane of the Aen Elle"]}
    out = resolve({"battlefield": "marmoreal", "players": [ciri, {
        "hero": GERALT_OWL, "fighters": {"Geralt of Rivia": {"space": "M21"}}, "hand": ["Yrden"]}]},
        {"attack": "Bane of the Aen Elle", "by": "Ihuarraquax", "target": "Geralt of Rivia", "defense": "Yrden"},
        ["M21"])
    assert out["fighters"]["Geralt of Rivia"]["health"] == 16 - (4 - 2)          # combat damage only
    assert out["fighters"]["Ihuarraquax"]["space"] == "M20"
    out = resolve({"battlefield": "marmoreal", "players": [ciri, {
        "hero": "medusa", "fighters": {"Medusa": {"space": "M21"}}}]},
        {"attack": "Bane of the Aen Elle", "by": "Ihuarraquax", "target": "Medusa", "defense": None}, ["M20"])
    assert out["fighters"]["Medusa"]["health"] == 16 - 4


@pytest.mark.nojit
def test_ongoing_scheme_does_not_enter_play_after_game_over():
    """Reproducer: Geralt (2 health, empty deck) plays Tawny Owl: "draw 2" exhausts him (4
    damage), he is defeated and the game is over, so nothing may follow in the log."""
    from sim.play.scenario import resolve
    out = resolve({"battlefield": "marmoreal", "players": [
        {"hero": GERALT_OWL, "fighters": {"Geralt of Rivia": {"space": "M20", "health": 2}},
         "hand": ["Tawny Owl"], "deck": []},
        {"hero": "sinbad", "fighters": {"Sinbad": {"space": "M31"}}}]},
        {"scheme": "Tawny Owl", "by": "Geralt of Rivia"}, [])
    assert out["winner"] == "Sinbad"
    ends = [i for i, line in enumerate(out["log"]) if line.startswith("Game over")]
    assert ends and ends[0] == len(out["log"]) - 1, out["log"]


@pytest.mark.nojit
def test_checker_rejects_bad_witcher_card_flow():
    """Witcher Senses: a gear card from the deck or the discard pile; if it came from the
    deck the scheme is shuffled into the deck (and only then). The Lady of Space and Time:
    Source 3..7 a discard card onto the deck, Source 8+ one to hand. Channel the Source:
    discards of Source cards from your own hand only."""
    sy = Synth((GERALT_BLIZZARD, "sinbad"))
    m20, m31 = spaces_of(sy, "M20", "M31")
    senses, steel, rend = sy.c(0, "Witcher Senses"), sy.c(0, "Sword of Steel"), sy.c(0, "Rend")
    setup = [E(EV_SETUP, 0, m20), E(EV_SETUP, 4, m31)]
    sen = setup + sy.draw(0, "Witcher Senses") + turn(0, 1) + action(0, A_SCHEME) + [E(EV_SCHEME, 0, 0, senses)]
    from_deck = sen + [E(EV_TAKE, 0, steel, PILE_DECK), E(EV_SEARCH, 0, steel, 1)]
    assert sy.code(from_deck + [E(EV_TAKE, 0, senses, PILE_DISC, 2)]) == OK
    assert sy.code(from_deck) == E_CARD_FLOW                                      # not shuffled in
    assert sy.code(from_deck + action(0, A_MANEUVER, 2)) == E_CARD_FLOW
    assert sy.code(sen + [E(EV_TAKE, 0, rend, PILE_DECK)]) == E_CARD_FLOW          # not a gear card
    assert sy.code(sen + [E(EV_TAKE, 0, sy.c(0, "Tawny Owl"), PILE_DECK)]) == E_CARD_FLOW   # not in this deck
    assert sy.code(sen + [E(EV_SEARCH, 0, -1, 0)]) == E_CARD_FLOW                  # gear is in the deck
    disc = (setup + sy.draw(0, "Witcher Senses", "Sword of Steel") + turn(0, 1) + action(0, A_MANEUVER)
            + [E(EV_DISCARD, 0, steel, 2), E(EV_BOOST, 0, steel, 0, 3)] + action(0, A_SCHEME, 2)
            + [E(EV_SCHEME, 0, 0, senses), E(EV_TAKE, 0, steel, PILE_DISC), E(EV_SEARCH, 0, steel, 0)])
    assert sy.code(disc) == OK
    assert sy.code(disc + [E(EV_TAKE, 0, senses, PILE_DISC, 2)]) == E_CARD_FLOW   # from the discard: not shuffled

    sy = Synth(("ciri", "sinbad"))
    m20, m21 = spaces_of(sy, "M20", "M21")
    lady, channel, parry = sy.c(0, "The Lady of Space and Time"), sy.c(0, "Channel the Source"), sy.c(0, "Parry")
    source = ["Zireael"] * 3 + ["Pushed to the Brink"] * 3 + ["Lion Cub of Cintra"] * 2
    other = ["Parry"] * 3 + ["Searching Strike"] * 3 + ["Blink"] * 2

    def lady_after(n_source):
        """Ciri attacks with The Lady of Space and Time, 8 cards in her discard pile, n Source."""
        gone = source[:n_source] + other[:8 - n_source]
        return ([E(EV_SETUP, 0, m20), E(EV_SETUP, 4, m21)] + sy.draw(0, *source, *other, "The Lady of Space and Time")
                + turn(0, 1) + action(0, A_MANEUVER) + action(0, A_MANEUVER, 2)
                + [E(EV_DISCARD, 0, sy.c(0, c), 1) for c in gone] + turn(1, 2) + action(1, A_MANEUVER)
                + action(1, A_MANEUVER, 2) + turn(0, 3) + action(0, A_ATTACK)
                + [E(EV_ATTACK, 0, 4, lady), E(EV_DEFENSE, 4, -1), E(EV_VALUES, 2, 0, 2, 1), E(EV_DAMAGE, 4, 2, 13)])

    assert sy.code(lady_after(3) + [E(EV_TAKE, 0, parry, PILE_DISC, 1)]) == OK    # Source 3: onto the deck
    assert sy.code(lady_after(3) + [E(EV_TAKE, 0, parry, PILE_DISC, 0)]) == E_CARD_FLOW   # not to hand
    assert sy.code(lady_after(2) + [E(EV_TAKE, 0, parry, PILE_DISC, 1)]) == E_CARD_FLOW   # below Source 3
    assert sy.code(lady_after(8) + [E(EV_TAKE, 0, sy.c(0, "Zireael"), PILE_DISC, 0)]) == OK   # Source 8: to hand
    assert sy.code(lady_after(8) + [E(EV_TAKE, 0, sy.c(0, "Zireael"), PILE_DISC, 1)]) == E_CARD_FLOW
    assert sy.code(lady_after(3) + [E(EV_TAKE, 0, parry, PILE_DISC, 1)] * 2) == E_CARD_FLOW   # one card
    ch = ([E(EV_SETUP, 0, m20), E(EV_SETUP, 4, m21)] + sy.draw(0, "Channel the Source", "Zireael", "Blink")
          + turn(0, 1) + action(0, A_ATTACK) + [E(EV_ATTACK, 0, 4, channel), E(EV_DEFENSE, 4, -1)])
    assert sy.code(ch + [E(EV_DISCARD, 0, sy.c(0, "Zireael"), 0)]) == OK          # a Source card: +2
    assert sy.code(ch + [E(EV_DISCARD, 0, sy.c(0, "Blink"), 0)]) == E_CARD_FLOW   # not a Source card
    assert sy.code(ch + [E(EV_VALUES, 2, 0, 2, 1), E(EV_DAMAGE, 4, 2, 13),
                         E(EV_DISCARD, 0, sy.c(0, "Zireael"), 0)]) == E_CARD_FLOW  # during combat only
