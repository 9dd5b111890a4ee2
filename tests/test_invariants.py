"""Invariants over many random-policy games, with an independent replay of every event log.

The replay checker (a Python + numba re-implementation that replays a game's event log
event by event and checks the state after every turn) lives in ``tests/helpers/replay``;
its package docstring lists the coverage and everything it checks. This file holds the
tests: the big random run (slow), the small run (also as plain Python), the hand-made and
doctored logs the checker must reject, and the team games.
"""
from __future__ import annotations

import time

import numpy as np
import pytest
from helpers.replay.checks import check_final, hash_rows, run_checked
from helpers.replay.constants import (E_ACTIONS, E_AFTER_END, E_ATTACK, E_BOOST, E_CANCEL, E_CARD_COUNT, E_CARD_FLOW,
    E_CARD_FOREIGN, E_CARD_PLAY, E_CHOOSE, E_COMBAT, E_COUNTER, E_DAMAGE, E_DAMAGE_SOURCE, E_DEFEAT,
    E_DEFEATED_ON_BOARD, E_DORMANT, E_END_CAP, E_END_TURN, E_END_WINNER, E_EXHAUST, E_FOG, E_GAIN, E_GUESS,
    E_HEAL_SOURCE, E_HEALTH_RANGE, E_HERO_DOWN_GAME_ON, E_IN_PLAY, E_MOVE_BUDGET, E_MOVE_DEST, E_MOVE_FROM,
    E_MOVE_PATH, E_MOVE_SAME, E_MOVE_THROUGH, E_MOVE_WHO, E_NO_END, E_ONGOING, E_PILES_MISMATCH, E_PIN, E_PLACE,
    E_POS_MISMATCH, E_REMOVE, E_SHARE_SPACE, E_STATUS, E_SWAP, E_TURN_ORDER, GERALT, HEROES, N_GAMES_MIN,
    N_GAMES_NOJIT, OK, R_CODE, R_FIELDS, R_HP0, R_HP1, R_LOGHASH, R_REASON, R_SEED, R_STHASH, R_TURNS, R_WINNER,
    RUN_SEED, SX_AFTER_MANEUVER, SX_CAP_END, SX_CHOOSES, SX_COMBAT_DAMAGE, SX_COUNTERS, SX_DEFEATED_END, SX_DETOURS,
    SX_DISCARD_FOR_VALUE, SX_DISCARD_TOPS, SX_DORMANT_ENDS, SX_EFFECT_DAMAGE, SX_END_TURNS, SX_EVENTS,
    SX_EXHAUST_DAMAGE, SX_FACE_DOWN, SX_FIELDS, SX_FOG_EFFECT_DAMAGE, SX_FOG_MOVES, SX_FOG_PLACES, SX_FOG_WALKS,
    SX_FORM_CARDS, SX_GAINS, SX_GAMES, SX_GUESSES, SX_HAND_TO_DECK, SX_IGNORES, SX_KNOWN_AFTER_END_BUG, SX_LOOKS,
    SX_MOVES, SX_MOVES_CARD, SX_MOVES_MANEUVER, SX_MOVES_OPPONENT, SX_MOVES_THROUGH, SX_ONEWAY_DETOURS, SX_ONGOING_EOT,
    SX_ONGOING_IN, SX_ONGOING_KEPT, SX_ONGOING_REPLACED, SX_ONGOING_START, SX_PASS_FRIEND, SX_PASSAGE_MOVES,
    SX_PASSED_DAMAGE, SX_PINNED_MANEUVERS, SX_PINS, SX_PLACES, SX_PREVENTED, SX_PROTECTED, SX_RECLAIM_HAND,
    SX_RECLAIM_TOP, SX_RECOVERS, SX_REMOVES, SX_REPLACES, SX_RETURN_PLACES, SX_REVEALS, SX_SEARCHES, SX_SELF_TO_DECK,
    SX_SET_HP, SX_SET_PRINTED, SX_SPACES_DAMAGE, SX_SUMMON_PLACES, SX_SUMMON_RETURNS, SX_SWAPS, SX_TAKES_DISC,
    SX_THROUGH_NEEDED, SX_TURNS, SX_WIN0, SX_WIN1, SX_WITHIN_DAMAGE, XF_MAXHP)
from helpers.replay.expect import Expect, hero_toml
from helpers.replay.runs import assert_clean, describe_failures, run_all
from helpers.replay.synth import (E, Synth, action, find_choke, log_code, real_game_with, replay_real, space_ids,
    spaces_of, turn)
from helpers.replay.teams import GAMES_TEAM, team_run

from sim.content.battlefields import list_battlefields
from sim.engine.core import PILE_DECK, PILE_DISC, game_seed
from sim.engine.game import RES_HP0, RES_HP1, RES_REASON, RES_TURNS, RES_WINNER
from sim.engine.layout import (A_ATTACK, A_MANEUVER, A_SCHEME, END_HERO_DEFEATED, EV_ACTION, EV_ATTACK, EV_BOOST,
    EV_CANCEL, EV_CHOOSE, EV_COUNTER, EV_DAMAGE, EV_DEFEATED, EV_DEFENSE, EV_DISCARD, EV_DRAW, EV_END_TURN, EV_EXHAUST,
    EV_FOG, EV_GAIN_ACTION, EV_GUESS, EV_LOOK_TOP, EV_MOVE, EV_ONGOING, EV_PIN, EV_PLACE, EV_RECOVER, EV_REMOVE,
    EV_SCHEME, EV_SEARCH, EV_SET_HP, EV_SETUP, EV_SWAP, EV_TAKE, EV_TURN, EV_VALUES, F_HP, F_SPACE, F_STATUS,
    FIGHTERS_PER_PLAYER, FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, G_LOGN, G_OVER, G_REASON, G_WINNER, MAX_CARDS,
    MAX_FIGHTERS, OFF_DECK, OFF_DISC, OFF_HAND, P_COUNTER0, P_DECKN, P_DISCN, P_HANDN, P_ONGOING, R_TURN_CAP, fslot,
    pslot)
from sim.engine.policy import new_control
from sim.play.match import Match


@pytest.fixture(scope="module")
def big_run():
    t = time.perf_counter()
    results, stats = run_all()
    return results, stats, time.perf_counter() - t


@pytest.mark.slow
def test_invariants_10k_random_games(big_run):
    """Every invariant holds in every game."""
    results, stats, secs = big_run
    assert_clean(results, stats, N_GAMES_MIN)
    # every invariant was exercised, not vacuously true
    assert stats[SX_MOVES_MANEUVER] > 10_000 and stats[SX_MOVES_CARD] > 1_000
    assert stats[SX_MOVES_THROUGH] > 100 and stats[SX_THROUGH_NEEDED] > 0
    assert stats[SX_DETOURS] > 0 and stats[SX_PASS_FRIEND] > 0
    assert stats[SX_PLACES] > 0
    assert stats[SX_DEFEATED_END] > 0 and stats[SX_WIN0] > 0 and stats[SX_WIN1] > 0
    # ... including the mechanics King Arthur and Alice bring
    for sx in (SX_MOVES_OPPONENT, SX_FACE_DOWN, SX_PREVENTED, SX_SET_HP, SX_RECOVERS, SX_EFFECT_DAMAGE,
               SX_EXHAUST_DAMAGE, SX_COUNTERS, SX_CHOOSES, SX_LOOKS, SX_SEARCHES, SX_DISCARD_TOPS,
               SX_SPACES_DAMAGE, SX_TAKES_DISC, SX_COMBAT_DAMAGE):
        assert stats[sx] > 0, sx
    # ... and the Witcher mechanics: pins (and maneuvers of pinned fighters' players), swaps,
    # ongoing schemes in / replaced / discarded at the end of a turn / kept, their start-of-turn
    # effects, gained actions, ended turns, ignored discards, removed and returned Leshens,
    # dormant players, summons, reclaims, a scheme shuffled into the deck, tracked 'passed' and
    # 'within' damage, protected cancels, discards for value, Kaer Morhen's one-way detours
    for sx in (SX_PINS, SX_PINNED_MANEUVERS, SX_SWAPS, SX_ONGOING_IN, SX_ONGOING_REPLACED, SX_ONGOING_EOT,
               SX_ONGOING_KEPT, SX_ONGOING_START, SX_GAINS, SX_END_TURNS, SX_IGNORES, SX_REMOVES, SX_RETURN_PLACES,
               SX_DORMANT_ENDS, SX_SUMMON_RETURNS, SX_SUMMON_PLACES, SX_RECLAIM_TOP, SX_RECLAIM_HAND,
               SX_SELF_TO_DECK, SX_PASSED_DAMAGE, SX_WITHIN_DAMAGE, SX_PROTECTED, SX_DISCARD_FOR_VALUE,
               SX_ONEWAY_DETOURS):
        assert stats[sx] > 0, sx
    # ... and the Cobble & Fog mechanics: fog placed, moved (by both players) and walked through,
    # secret passages, replaced attack cards, guesses, printed values changed, revealed deck tops,
    # cards put back on the deck, Mr. Hyde's maneuver damage, form cards, damage to fighters on fog
    for sx in (SX_FOG_PLACES, SX_FOG_MOVES, SX_FOG_WALKS, SX_PASSAGE_MOVES, SX_REPLACES, SX_GUESSES,
               SX_SET_PRINTED, SX_REVEALS, SX_HAND_TO_DECK, SX_AFTER_MANEUVER, SX_FORM_CARDS,
               SX_FOG_EFFECT_DAMAGE):
        assert stats[sx] > 0, sx
    for mu, m, out in results:      # each matchup: decisive games
        assert (out[:, R_REASON] == END_HERO_DEFEATED).any(), (mu, m.keys, m.battlefield.key)
    print(f"\n{stats[SX_GAMES]} games in {len(results)} matchups, {stats[SX_TURNS]} turns, {stats[SX_EVENTS]} events, "
          f"{stats[SX_MOVES]} moves ({stats[SX_MOVES_THROUGH]} through, {stats[SX_THROUGH_NEEDED]} needing "
          f"through, {stats[SX_DETOURS]} detours around opponents, {stats[SX_PASS_FRIEND]} past friends, "
          f"{stats[SX_MOVES_OPPONENT]} of fighters of the other side by card), {stats[SX_FACE_DOWN]} face-down "
          f"boosts, {stats[SX_PREVENTED]} prevented, {stats[SX_SET_HP]} set-health, {stats[SX_CHOOSES]} options "
          f"chosen, {stats[SX_SEARCHES]} searches, {stats[SX_DISCARD_TOPS]} deck-top discards, "
          f"{stats[SX_DEFEATED_END]} decisive, {stats[SX_CAP_END]} capped; Witcher: {stats[SX_PINS]} pins, "
          f"{stats[SX_SWAPS]} swaps, {stats[SX_ONGOING_IN]} ongoing schemes in play ({stats[SX_ONGOING_REPLACED]} "
          f"replaced, {stats[SX_ONGOING_EOT]} discarded at the end of a turn), {stats[SX_GAINS]} gained actions, "
          f"{stats[SX_END_TURNS]} ended turns, {stats[SX_REMOVES]} removals, {stats[SX_DORMANT_ENDS]} dormant turn "
          f"ends, {stats[SX_SUMMON_RETURNS] + stats[SX_SUMMON_PLACES]} summons, {stats[SX_PROTECTED]} protected "
          f"cancels, {stats[SX_ONEWAY_DETOURS]} one-way detours; Cobble & Fog: {stats[SX_FOG_MOVES]} fog moves, "
          f"{stats[SX_FOG_WALKS]} moves through the fog, {stats[SX_PASSAGE_MOVES]} through secret passages, "
          f"{stats[SX_REPLACES]} replaced attack cards, {stats[SX_GUESSES]} guesses, {stats[SX_AFTER_MANEUVER]} "
          f"Hyde maneuver damages, {stats[SX_FORM_CARDS]} form schemes; known engine bug (ongoing scheme after the end): "
          f"{stats[SX_KNOWN_AFTER_END_BUG]} games; {secs:.1f} s")


@pytest.mark.slow
def test_no_event_after_game_over(big_run):
    """The game ends at once: in no game is anything logged after EV_GAME_OVER."""
    results, _, _ = big_run
    n_fail, text = describe_failures(results)
    assert n_fail == 0, f"{n_fail} games broke an invariant:\n{text}"


@pytest.mark.nojit
def test_no_choice_after_game_over_looking_glass():
    """Scripted reproducer: Alice (2 health after combat, empty deck) picks Looking Glass's
    'draw 2'; exhaustion defeats her and the game is over, so no 2nd option is chosen."""
    from sim.play.scenario import resolve
    pos = {"battlefield": "marmoreal", "active": 0, "players": [
        {"hero": "king_arthur", "fighters": {"King Arthur": {"space": "M13"}}, "hand": ["Excalibur"],
         "deck": ["Feint"]},
        {"hero": "alice", "counters": {"size": "small"}, "fighters": {"Alice": {"space": "M20", "health": 5}},
         "hand": ["Looking Glass"], "deck": []}]}
    out = resolve(pos, {"attack": "Excalibur", "by": "King Arthur", "target": "Alice", "defense": "Looking Glass",
                        "boost": None}, [1], fallback="first")
    assert out["winner"] == "King Arthur"
    ends = [i for i, line in enumerate(out["log"]) if line.startswith("Game over")]
    assert ends and ends[0] == len(out["log"]) - 1, out["log"]


@pytest.mark.slow
def test_determinism_replay(big_run):
    """Replayed seeds: bit-identical logs and states; same results with logging off."""
    results, _, _ = big_run
    hashes = []
    for mu, m, out in results:
        hashes.extend(out[:, R_LOGHASH].tolist())
        for gi in np.linspace(0, len(out) - 1, 3).astype(int):
            seed = int(out[gi, R_SEED])
            assert seed == game_seed(RUN_SEED, mu, int(gi))
            g1, g2 = m.play(seed), m.play(seed)
            assert np.array_equal(g1.log, g2.log) and np.array_equal(g1.state, g2.state)
            assert hash_rows(g1.log) == out[gi, R_LOGHASH]
            assert hash_rows(g1.state.reshape(1, -1)) == out[gi, R_STHASH]
        k = min(100, len(out))
        fast = m.play_many(k, run_seed=RUN_SEED, matchup=mu)   # logging off
        w = out[:k, R_WINNER]
        assert np.array_equal(fast[:, RES_WINNER], np.where(w >= 0, w, -1))
        assert np.array_equal(fast[:, RES_REASON], out[:k, R_REASON])
        assert np.array_equal(fast[:, RES_HP0], out[:k, R_HP0])
        assert np.array_equal(fast[:, RES_HP1], out[:k, R_HP1])
        assert np.array_equal(fast[:, RES_TURNS], out[:k, R_TURNS])
    # different seeds give different games
    assert len(set(hashes)) > 0.99 * len(hashes)


@pytest.mark.nojit
def test_invariants_small_run():
    """One game per matchup; also runs as plain Python."""
    results, stats = run_all(N_GAMES_NOJIT)
    assert_clean(results, stats, N_GAMES_NOJIT * len(results))
    _, m, out = results[0]
    g = m.play(int(out[0, R_SEED]))
    assert hash_rows(g.log) == out[0, R_LOGHASH]
    assert np.array_equal(g.log, m.play(int(out[0, R_SEED])).log)


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
    opp, friend = FIGHTERS_PER_PLAYER, 1          # Sinbad; a Harpy
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
    im, holmes, watson = 0, FIGHTERS_PER_PLAYER, FIGHTERS_PER_PLAYER + 1
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
    holmes, watson, im = 0, 1, FIGHTERS_PER_PLAYER
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


# ------------------------------------------------ team games (2 vs 2): the plain-Python check of helpers/replay/teams.py

def test_invariants_team_games_random():
    """Random-policy team games (four seats) on all six battlefields, every hero playing:
    turn order 1, 2, 3, 4 skipping players with no fighters, teammates never attacked and
    passed through while opponents block, cards conserved, positions and health replayed
    from the log, and a game that ends exactly when a team has lost both heroes."""
    problems, stats = team_run(GAMES_TEAM)
    assert not problems, "\n".join(problems[:10])
    assert stats["games"] == GAMES_TEAM * len(list_battlefields())
    assert stats["decisive"] > 0 and stats["heroes_defeated"] > stats["decisive"]
    assert stats["defeated_hero_turns"] > 0       # a player whose hero fell acted with a sidekick
    assert stats["skipped"] > 0                   # ... and one with no fighters left was skipped
    assert stats["moves"] > 0 and stats["attacks"] > 0 and stats["through_teammate"] > 0
