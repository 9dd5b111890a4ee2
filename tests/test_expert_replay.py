"""The expert's replay search (sim.engine.search.play_action, policy.replay_decide): the
decisions asked inside an action (a maneuver's BOOST, an effect's choice, a named value)
searched by playing the action again from its start.

Checked here: with one candidate the machinery changes no game (the action stopped, put
back and played again gives the very game the standard AI plays); the searched choices read
no hidden card (the permutation test over the new decision kinds); the searches happen, in
the kinds they should, and ``duel --explain`` shows them.
"""
import numpy as np
import pytest

from sim.content.profiles import load_profile
from sim.engine import layout as L
from sim.engine.codes import A_MANEUVER, D_ACTION, D_BOOST_MANEUVER, D_DEFENSE, D_GUESS
from sim.engine.control import CTL_EXPLAIN, CTL_SIZE, EXPLAIN_REC
from sim.engine.core import PILE_DECK, PILE_HAND, pile_base
from sim.engine.rules import action_due, legal_actions, unpack_action
from sim.engine.search import PIN_SIZE, play_action
from sim.play.match import Match, _control
from helpers.positions import midgame_states

PAIRS = [(["medusa", "sinbad"], "marmoreal"), (["sherlock_holmes", "dracula"], "soho"),
         (["king_arthur", "alice"], "sarpedon"), (["invisible_man", "jekyll_hyde"], "soho")]


def _profile(tmp_path, name, **weights):
    f = tmp_path / f"{name}.toml"
    body = "\n".join(f"{k} = {v}" for k, v in weights.items())
    f.write_text(f'name = "{name}"\nmode = "expert"\nbase = "expert"\n[weights]\n{body}\n')
    return load_profile(f)


@pytest.mark.parametrize("heroes,bf", PAIRS)
def test_one_candidate_replays_the_same_game(tmp_path, heroes, bf):
    """With one candidate a search takes the standard AI's best option without playing
    anything out: the games of an expert that stops each action at its decisions, goes
    back to before the action and plays it again with them forced (search_choices 2) are
    then the games of one that does not (search_choices 0), event for event. The
    replay gives back the position, the generator and the log exactly."""
    on = _profile(tmp_path, "on", search_candidates=1, search_choices=2)
    off = _profile(tmp_path, "off", search_candidates=1, search_choices=0)
    m = Match(heroes, bf)
    for seed in range(4):
        a = m.play(seed=seed, modes=(on, on))
        b = m.play(seed=seed, modes=(off, off))
        np.testing.assert_array_equal(a.log, b.log)
        np.testing.assert_array_equal(a.result, b.result)


def _records(ctl):
    """The explain records of ``ctl`` as (kind, player, options, samples, (value, mean, se) ...)."""
    n = int(ctl[CTL_EXPLAIN])
    out = []
    for i in range(n):
        r = ctl[CTL_EXPLAIN + 1 + i * EXPLAIN_REC:CTL_EXPLAIN + 1 + (i + 1) * EXPLAIN_REC]
        out.append(tuple(int(x) for x in r[1:]))
    return out


def _maneuver(m, st, explain=64):
    """(state after the active player's maneuver played by :func:`play_action` with both
    players on ``expert``, the explain records of its decisions); None if no maneuver."""
    st = st.copy()
    p = int(st[L.G_ACTIVE])
    action_due(st, p)
    opts = np.zeros(L.ACTION_OPTS, np.int64)
    n = legal_actions(st, m.tables, p, opts)
    man = [int(a) for a in opts[:n] if unpack_action(int(a))[0] == A_MANEUVER]
    if not man:
        return None
    ctl = _control(("expert", "expert"), explain=explain)
    work = (np.zeros(L.STATE_SIZE, np.int64), np.zeros(L.STATE_SIZE, np.int64), np.zeros(CTL_SIZE, np.int64),
            np.zeros((0, 6), np.int64), np.zeros(L.STATE_SIZE, np.int64), np.zeros(PIN_SIZE, np.int64))
    log = np.zeros((2000, L.EV_FIELDS), np.int64)
    play_action(st, m.tables, ctl, log, p, man[0], *work)
    return st, _records(ctl)


def _permute_unseen(st, rng):
    """Everything the active player cannot see at its maneuver's BOOST dealt again: the
    opponent's hand and deck together (the same sizes), and its own deck but the top card,
    which the maneuver draws before the BOOST."""
    st = st.copy()
    p = int(st[L.G_ACTIVE])
    q = 1 - p
    hb, db = pile_base(PILE_HAND, q), pile_base(PILE_DECK, q)
    nh, nd = int(st[L.pslot(q, L.P_HANDN)]), int(st[L.pslot(q, L.P_DECKN)])
    cards = np.concatenate([st[hb:hb + nh], st[db:db + nd]])
    rng.shuffle(cards)
    st[hb:hb + nh], st[db:db + nd] = cards[:nh], cards[nh:]
    ob = pile_base(PILE_DECK, p)
    on = int(st[L.pslot(p, L.P_DECKN)])
    if on > 2:
        st[ob:ob + on - 1] = rng.permutation(st[ob:ob + on - 1])
    return st


@pytest.mark.parametrize("heroes,bf", PAIRS[:3])
def test_searched_boost_ignores_every_hidden_card(heroes, bf):
    """A maneuver's BOOST searched by replay: dealing again what the maneuvering player
    cannot see (the opponent's hand and deck; its own deck under the card it draws) changes
    no searched choice and no candidate's mean or standard error."""
    m, states = midgame_states(heroes, bf, 8, seed=3, first_seed=700, turns=(1, 9))
    rng = np.random.default_rng(5)
    searched = 0
    for st in states:
        got = _maneuver(m, st)
        if got is None:
            continue
        _, rec = got
        boosts = [r for r in rec if r[0] == D_BOOST_MANEUVER and r[4] > 0]
        searched += len(boosts)
        for _ in range(2):
            st2 = _permute_unseen(st, rng)
            _, rec2 = _maneuver(m, st2)
            assert [r for r in rec2 if r[4] > 0] == [r for r in rec if r[4] > 0]
    assert searched >= 3


def test_expert_searches_inside_actions_and_explains_it():
    """In seeded expert games the replay search runs (records of searched decisions other
    than actions and defense cards, each with the profile's 8 samples or fewer when some
    determinization did not fit), and expert-0.2 never does."""
    m = Match(["medusa", "sinbad"], "marmoreal")
    kinds = set()
    for seed in range(3):
        g = m.play(seed=seed, modes=("expert", "expert"), explain=400)
        ctl = np.concatenate([np.zeros(CTL_EXPLAIN, np.int64), g.explain])
        for r in _records(ctl):
            if r[4] > 0 and r[0] not in (D_ACTION, D_DEFENSE):
                kinds.add(r[0])
                assert 1 <= r[4] <= 8
        old = m.play(seed=seed, modes=("expert-0.2", "expert-0.2"), explain=400)
        ctl = np.concatenate([np.zeros(CTL_EXPLAIN, np.int64), old.explain])
        assert all(r[0] in (D_ACTION,) or r[4] == 0 for r in _records(ctl))
    assert D_BOOST_MANEUVER in kinds


def test_explain_shows_a_searched_boost_where_it_was_decided():
    """``--explain`` places a searched maneuver BOOST right after the maneuver's draw (or its
    exhaustion and the damage it deals, the deck empty; the
    log's length when the decision was asked, not after the events the stopped action logged
    while it unwound), and lists the option taken first: the BOOST the player then makes."""
    from sim.engine.codes import EV_BOOST, EV_DAMAGE, EV_DRAW, EV_EXHAUST
    m = Match(["medusa", "sinbad"], "marmoreal")
    g = m.play(seed=3, modes=("expert", "expert"), explain=400)
    ctl = np.concatenate([np.zeros(CTL_EXPLAIN, np.int64), g.explain])
    n = int(ctl[CTL_EXPLAIN])
    boosts = 0
    for i in range(n):
        r = ctl[CTL_EXPLAIN + 1 + i * EXPLAIN_REC:CTL_EXPLAIN + 1 + (i + 1) * EXPLAIN_REC]
        pos, kind, p, samples, taken = int(r[0]), int(r[1]), int(r[2]), int(r[5]), int(r[6])
        if kind != D_BOOST_MANEUVER or samples == 0:
            continue
        boosts += 1
        before = g.log[pos - 1]
        if before[0] == EV_DAMAGE:   # (an empty deck: the exhaustion, then its damage)
            before = g.log[pos - 2]
            assert before[0] == EV_EXHAUST
        assert before[0] in (EV_DRAW, EV_EXHAUST) and before[1] == p
        after = [tuple(int(x) for x in e[:3]) for e in g.log[pos:pos + 2]]   # (a BOOST: its discard, then EV_BOOST)
        boost = [e for e in after if e[0] == EV_BOOST]
        assert boost == ([(EV_BOOST, p, taken)] if taken >= 0 else [])
    assert boosts >= 5


def _work_arrays():
    """The replay search's work arrays for :func:`play_action` after ``log``."""
    return (np.zeros(L.STATE_SIZE, np.int64), np.zeros(L.STATE_SIZE, np.int64), np.zeros(CTL_SIZE, np.int64),
            np.zeros((0, 6), np.int64), np.zeros(L.STATE_SIZE, np.int64), np.zeros(PIN_SIZE, np.int64))


def test_defender_choices_before_the_reveal_read_no_attack_card():
    """Medusa attacks Holmes (two Elementary in hand, expert) with each card she holds in
    turn: what Holmes decides before the cards are revealed (his defense card, searched, and
    Elementary's predicted value) is the same decision with the same means whichever card
    lies face down. The replay search plays the attacker's action again from its start with
    the card it was played with, so a search of the prediction would read that card; it is
    left to the standard AI's scores, which count the cards Medusa may hold."""
    from sim.play.scenario import Scenario
    from sim.engine.rules import pack_action
    sc = Scenario({
        "battlefield": "marmoreal", "actions": 2,
        "players": [
            {"hero": "medusa", "fighters": {"Medusa": {"space": "M25", "health": 12}},
             "hand": ["Gaze of Stone", "Second Shot", "Feint", "Snipe"],
             "deck": ["Dash", "Regroup", "Hiss and Slither", "Dash", "Winged Frenzy", "Feint"]},
            {"hero": "sherlock_holmes",
             "fighters": {"Sherlock Holmes": {"space": "M21", "health": 14}, "Dr. Watson": {"space": "M01", "health": 8}},
             "hand": ["Elementary", "Elementary"],
             "deck": ["Feint", "Counterpunch", "Deduce Strategy", "Master of Disguise", "The Game is Afoot"]},
        ],
    })
    tb = sc.match.tables
    seen = []
    for card in ["Gaze of Stone", "Second Shot", "Feint", "Snipe"]:
        st = sc.st.copy()
        action_due(st, 0)
        ctl = _control(("standard", "expert"), explain=16)
        log = np.zeros((400, L.EV_FIELDS), np.int64)
        play_action(st, tb, ctl, log, 0, pack_action(L.A_ATTACK, sc.fighter("Medusa"), sc.fighter("Sherlock Holmes"),
                                                     sc.card(0, card)), *_work_arrays())
        seen.append([r for r in _records(ctl) if r[1] == 1 and r[0] in (D_DEFENSE, D_GUESS)])
    kinds = [r[0] for r in seen[0]]
    assert kinds == [D_DEFENSE, D_GUESS]
    assert seen[0][0][4] == 8 and seen[0][1][4] == 0     # the defense card searched; the prediction scored
    assert all(s == seen[0] for s in seen)


def test_lookahead_names_the_value_that_saves_the_hero():
    """Holmes (2 health, next to King Arthur) plays Confirm Suspicion, his last action.
    Arthur's deck is empty and the rest of his cards are in his discard pile, so his hand is
    known: Feint (value 2, BOOST 1) and The Holy Grail (value 1, BOOST 2). The standard AI
    names 1, for the larger BOOST as damage; Arthur then attacks with Feint and defeats
    Holmes. The lookahead sees that attack in its samples, names 2 and takes Feint away:
    Holmes survives Arthur's turn."""
    from sim.play.scenario import Scenario
    from sim.engine.core import rng_seed
    from sim.engine.rules import end_of_turn, take_turn
    rest_of_arthur = ["Excalibur", "Noble Sacrifice", "Noble Sacrifice", "Noble Sacrifice", "The Aid of Morgana",
                      "Aid the Chosen One", "Swift Strike", "Swift Strike", "Divine Intervention",
                      "Divine Intervention", "Skirmish", "Skirmish", "Skirmish", "Momentous Shift", "Momentous Shift",
                      "Momentous Shift", "Feint", "Feint", "Regroup", "Regroup", "Regroup", "Bewilderment",
                      "Bewilderment", "The Lady of the Lake", "Prophecy", "Restless Spirits", "Command the Storms",
                      "Command the Storms"]
    sc = Scenario({
        "battlefield": "marmoreal", "actions": 1,
        "players": [
            {"hero": "sherlock_holmes",
             "fighters": {"Sherlock Holmes": {"space": "M21", "health": 2}, "Dr. Watson": {"space": "M01", "health": 8}},
             "hand": ["Confirm Suspicion"],
             "deck": ["Feint", "Counterpunch", "Deduce Strategy", "Elementary", "Master of Disguise"]},
            {"hero": "king_arthur",
             "fighters": {"King Arthur": {"space": "M25", "health": 12}, "Merlin": {"space": "M05", "health": 7}},
             "hand": ["Feint", "The Holy Grail"], "deck": [], "discard": rest_of_arthur},
        ],
    })
    tb = sc.match.tables
    holmes = sc.fighter("Sherlock Holmes")
    probe = sc.st.copy()
    action_due(probe, 0)
    opts = np.zeros(L.ACTION_OPTS, np.int64)
    n = legal_actions(probe, tb, 0, opts)
    scheme = [int(a) for a in opts[:n] if unpack_action(int(a))[0] == L.A_SCHEME]
    assert len(scheme) == 1
    outcome = {}
    for mode in ("standard", "expert"):
        st = sc.st.copy()
        action_due(st, 0)
        ctl = _control((mode, mode), explain=16)
        log = np.zeros((0, L.EV_FIELDS), np.int64)
        play_action(st, tb, ctl, log, 0, scheme[0], *_work_arrays())
        named = int(st[L.G_GUESS])
        guess = [r for r in _records(ctl) if r[0] == D_GUESS]
        end_of_turn(st, tb, ctl, log, 0)
        rng_seed(st, 3)
        take_turn(st, tb, _control(("standard", "standard")), log)
        outcome[mode] = (named, guess[0][4] > 0, int(st[L.G_OVER]), int(st[L.fslot(holmes, L.F_HP)]))
    assert outcome["standard"] == (1, False, 1, 0)
    assert outcome["expert"] == (2, True, 0, 2)
