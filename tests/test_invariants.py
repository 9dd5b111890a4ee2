"""Invariants over many random-policy games, each event log replayed by the independent checker of
tests/helpers/replay (its package docstring lists what it checks): the big run (slow) and the small run.
"""
from __future__ import annotations

import time

import numpy as np
import pytest
from helpers.replay.checks import hash_rows
from helpers.replay.constants import (N_GAMES_MIN, N_GAMES_NOJIT, R_HP0, R_HP1, R_LOGHASH, R_REASON, R_SEED, R_STHASH,
    R_TURNS, R_WINNER, RUN_SEED, SX_AFTER_MANEUVER, SX_CAP_END, SX_CHOOSES, SX_COMBAT_DAMAGE, SX_COUNTERS,
    SX_DEFEATED_END, SX_DETOURS, SX_DISCARD_FOR_VALUE, SX_DISCARD_TOPS, SX_DORMANT_ENDS, SX_EFFECT_DAMAGE, SX_END_TURNS,
    SX_EVENTS, SX_EXHAUST_DAMAGE, SX_FACE_DOWN, SX_FOG_EFFECT_DAMAGE, SX_FOG_MOVES, SX_FOG_PLACES, SX_FOG_WALKS,
    SX_FORM_CARDS, SX_GAINS, SX_GAMES, SX_GUESSES, SX_HAND_TO_DECK, SX_IGNORES, SX_KNOWN_AFTER_END_BUG, SX_LOOKS,
    SX_MOVES, SX_MOVES_CARD, SX_MOVES_MANEUVER, SX_MOVES_OPPONENT, SX_MOVES_THROUGH, SX_ONEWAY_DETOURS, SX_ONGOING_EOT,
    SX_ONGOING_IN, SX_ONGOING_KEPT, SX_ONGOING_REPLACED, SX_ONGOING_START, SX_PASS_FRIEND, SX_PASSAGE_MOVES,
    SX_PASSED_DAMAGE, SX_PINNED_MANEUVERS, SX_PINS, SX_PLACES, SX_PREVENTED, SX_PROTECTED, SX_RECLAIM_HAND,
    SX_RECLAIM_TOP, SX_RECOVERS, SX_REMOVES, SX_REPLACES, SX_RETURN_PLACES, SX_REVEALS, SX_SEARCHES, SX_SELF_TO_DECK,
    SX_SET_HP, SX_SET_PRINTED, SX_SPACES_DAMAGE, SX_SUMMON_PLACES, SX_SUMMON_RETURNS, SX_SWAPS, SX_TAKES_DISC,
    SX_THROUGH_NEEDED, SX_TURNS, SX_WIN0, SX_WIN1, SX_WITHIN_DAMAGE)
from helpers.replay.runs import assert_clean, describe_failures, run_all

from sim.engine.core import game_seed
from sim.engine.game import RES_HP0, RES_HP1, RES_REASON, RES_TURNS, RES_WINNER
from sim.engine.layout import END_HERO_DEFEATED


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
