"""The expert AI (sim.engine.search): no peeking at hidden cards, seed-exact games, a
golden seeded game, its explain output and its profile checks."""
import os
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.content.profiles import ProfileError, get_profile, load_profile
from sim.engine import layout as L
from sim.engine.control import CTL_EXPLAIN, CTL_SIZE, EXPLAIN_REC, MODE_EXPERT
from sim.engine.core import PILE_DECK, PILE_HAND, can_play, pile_base, rng_seed
from sim.engine.rules import (
    action_due, defend, do_action, end_action, end_of_turn, finish_turn, legal_actions, pack_action, start_action,
    take_turn, unpack_action,
)
from sim.engine.search import search_action, search_defense
from sim.play.match import Match, _control
from sim.play.narrate import narrate
from sim.play.scenario import Scenario
from helpers.positions import midgame_states

GOLDEN = Path(__file__).parent / "golden"


def _positions(heroes, bf, n, seed):
    """States between two actions, after 1..8 random turns; with the match."""
    return midgame_states(heroes, bf, n, seed, first_seed=500, turns=(1, 9))


def _search(m, st, p):
    """(chosen index, the explain record of the search) for expert player ``p`` at ``st``."""
    ctl = _control(("expert", "expert"), explain=4)
    opts = np.zeros(L.ACTION_OPTS, np.int64)
    n = legal_actions(st, m.tables, p, opts)
    wst, w2 = np.zeros(L.STATE_SIZE, np.int64), np.zeros(L.STATE_SIZE, np.int64)
    wctl = np.zeros(CTL_SIZE, np.int64)
    i = search_action(st.copy(), m.tables, ctl, p, opts, n, wst, w2, wctl, np.zeros((0, 6), np.int64))
    rec = ctl[CTL_EXPLAIN + 1:CTL_EXPLAIN + 1 + EXPLAIN_REC].copy() if ctl[CTL_EXPLAIN] else None
    return n, int(opts[i]), rec


def _permute_hidden(st, p, rng):
    """The opponent's hand and deck dealt again from the same cards (a new split and order),
    and ``p``'s own deck in a new order: everything ``p`` cannot see."""
    st = st.copy()
    q = 1 - p
    hb, db = pile_base(PILE_HAND, q), pile_base(PILE_DECK, q)
    nh, nd = int(st[L.pslot(q, L.P_HANDN)]), int(st[L.pslot(q, L.P_DECKN)])
    cards = np.concatenate([st[hb:hb + nh], st[db:db + nd]])
    rng.shuffle(cards)
    st[hb:hb + nh], st[db:db + nd] = cards[:nh], cards[nh:]
    ob = pile_base(PILE_DECK, p)
    on = int(st[L.pslot(p, L.P_DECKN)])
    st[ob:ob + on] = rng.permutation(st[ob:ob + on])
    return st


@pytest.mark.parametrize("heroes,bf", [(["medusa", "sinbad"], "marmoreal"), (["sherlock_holmes", "dracula"], "soho")])
def test_search_decisions_ignore_every_hidden_card(heroes, bf):
    """Dealing the opponent's hand and deck again from the same cards and reordering the
    expert's own deck changes neither the chosen action nor any candidate's mean value
    and standard error: the search reads only what the deciding player has seen."""
    m, states = _positions(heroes, bf, 6, seed=4)
    rng = np.random.default_rng(9)
    searched = 0
    for st in states:
        p = int(st[L.G_ACTIVE])
        n, chosen, rec = _search(m, st, p)
        if rec is None:
            continue
        searched += 1
        assert rec[5] == get_profile("expert").weight("search_samples")
        for _ in range(2):
            st2 = _permute_hidden(st, p, rng)
            assert not np.array_equal(st2, st)
            n2, chosen2, rec2 = _search(m, st2, p)
            assert (n2, chosen2) == (n, chosen)
            np.testing.assert_array_equal(rec2, rec)
    assert searched >= 3


def _work():
    """(wst, w2, wctl, nolog): the search's work arrays."""
    return (np.zeros(L.STATE_SIZE, np.int64), np.zeros(L.STATE_SIZE, np.int64), np.zeros(CTL_SIZE, np.int64),
            np.zeros((0, 6), np.int64))


def _open_attacks(m, states):
    """(state, defense options, count) at the defense card of one legal attack of each state
    with two or more defense options: the first whose attacker adds a face-down BOOST if any
    does, else the first (the attack opened by ``start_action``, the active player's choices,
    such as King Arthur's face-down BOOST, by the standard AI)."""
    out = []
    opts = np.zeros(L.ACTION_OPTS, np.int64)
    for st in states:
        st = st.copy()
        p = int(st[L.G_ACTIVE])
        action_due(st, p)
        n = legal_actions(st, m.tables, p, opts)
        found = None
        for a in opts[:n]:
            if unpack_action(int(a))[0] != L.A_ATTACK:
                continue
            s2, d = st.copy(), np.zeros(L.CARD_OPTS, np.int64)
            k = start_action(s2, m.tables, _control(("standard", "standard")), np.zeros((0, L.EV_FIELDS), np.int64),
                             p, int(a), d)
            if k >= 2 and (found is None or (found[0][L.OFF_CB + L.CB_ABOOST] < 0 <= s2[L.OFF_CB + L.CB_ABOOST])):
                found = (s2, d, k)
        if found is not None:
            out.append(found)
    return out


def _search_defense(m, st, d, k):
    """(chosen card, the explain record of the search) for the defender of the open combat at ``st``."""
    ctl = _control(("expert", "expert"), explain=4)
    q = int(st[L.OFF_CB + L.CB_DEF_P])
    i = search_defense(st.copy(), m.tables, ctl, q, d, k, *_work())
    rec = ctl[CTL_EXPLAIN + 1:CTL_EXPLAIN + 1 + EXPLAIN_REC].copy() if ctl[CTL_EXPLAIN] else None
    return int(d[i]), rec


def _permute_face_down(m, st, rng):
    """Everything the defender of the open combat at ``st`` cannot see, dealt again as it may
    lie: the attacker's hand, deck, face-down attack card and face-down BOOST together, the
    attack card any of them the attacking fighter may attack with, the BOOST any other, the
    rest split into the same hand and deck sizes (the attack card's per-card play count moves
    with it); and the defender's own deck in a new order."""
    st = st.copy()
    tb = m.tables
    o = L.OFF_CB
    p, a, q = int(st[o + L.CB_ATT_P]), int(st[o + L.CB_ATT_F]), int(st[o + L.CB_DEF_P])
    hb, db = pile_base(PILE_HAND, p), pile_base(PILE_DECK, p)
    nh, nd = int(st[L.pslot(p, L.P_HANDN)]), int(st[L.pslot(p, L.P_DECKN)])
    boost = int(st[o + L.CB_ABOOST])
    old = int(st[o + L.CB_CARD0])
    cards = list(st[hb:hb + nh]) + list(st[db:db + nd]) + [old] + ([boost] if boost >= 0 else [])
    rng.shuffle(cards)
    legal = [i for i, c in enumerate(cards)
             if tb.cards[c, L.C_TYPE] in (L.CT_ATTACK, L.CT_VERSATILE) and can_play(st, tb, int(c), a)]
    card = cards.pop(legal[int(rng.integers(len(legal)))])
    played = L.OFF_PLAYED + p * L.MAX_HERO_CARDS
    st[played + tb.cards[old, L.C_LOCAL]] -= 1
    st[played + tb.cards[card, L.C_LOCAL]] += 1
    st[o + L.CB_CARD0] = card
    if boost >= 0:
        st[o + L.CB_ABOOST] = cards.pop()
    st[hb:hb + nh], st[db:db + nd] = cards[:nh], cards[nh:]
    ob = pile_base(PILE_DECK, q)
    on = int(st[L.pslot(q, L.P_DECKN)])
    st[ob:ob + on] = rng.permutation(st[ob:ob + on])
    return st


@pytest.mark.parametrize("heroes,bf", [(["king_arthur", "medusa"], "sarpedon"),
                                       (["sinbad", "sherlock_holmes"], "soho")])
def test_defense_search_ignores_every_face_down_card(heroes, bf):
    """At an expert defender's defense card, dealing again what the defender has not seen (the
    attacker's hand and deck with the face-down attack card and King Arthur's face-down BOOST,
    the attack card any card the attacking fighter may attack with; the defender's own deck)
    changes neither the chosen card nor any candidate's mean value and standard error: the
    defender does not learn the attack card before the reveal."""
    m, states = _positions(heroes, bf, 24, seed=7)
    rng = np.random.default_rng(11)
    searched = boosted = swapped = 0
    for st, d, k in _open_attacks(m, states):
        chosen, rec = _search_defense(m, st, d, k)
        if rec is None:
            continue
        searched += 1
        assert rec[1] == L.D_DEFENSE and rec[2] == st[L.OFF_CB + L.CB_DEF_P] and chosen in d[:k]
        boosted += st[L.OFF_CB + L.CB_ABOOST] >= 0
        for _ in range(2):
            st2 = _permute_face_down(m, st, rng)
            assert not np.array_equal(st2, st)
            swapped += st2[L.OFF_CB + L.CB_CARD0] != st[L.OFF_CB + L.CB_CARD0]
            chosen2, rec2 = _search_defense(m, st2, d, k)
            assert chosen2 == chosen
            np.testing.assert_array_equal(rec2, rec)
    assert searched >= 4 and swapped >= 2
    if heroes[0] == "king_arthur":
        assert boosted >= 1


def test_expert_games_are_seed_exact_and_match_the_fast_path():
    """The same seed gives the same expert game; play and play_many agree on the result."""
    m = Match(["king_arthur", "alice"], "sarpedon")
    a = m.play(seed=21, modes=("expert", "standard"))
    b = m.play(seed=21, modes=("expert", "standard"))
    np.testing.assert_array_equal(a.log, b.log)
    from sim.engine.core import game_seed
    res = m.play_many(1, run_seed=0, matchup=0, first_index=0, modes=("expert", "standard"))
    c = m.play(seed=game_seed(0, 0, 0), modes=("expert", "standard"))
    np.testing.assert_array_equal(res[0], c.result)


def test_golden_expert_duel():
    """A seeded expert duel, narrated (regenerate with UPDATE_GOLDEN=1, see test_golden.py)."""
    g = Match(["medusa", "sinbad"], battlefield="marmoreal").play(seed=5, modes=("expert", "standard"))
    text = "\n".join(narrate(g)) + "\n"
    path = GOLDEN / "expert_medusa_sinbad_marmoreal_seed5.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"narration of {path.name} changed"


def test_duel_explain_shows_the_search():
    r = CliRunner().invoke(main, ["duel", "medusa", "sinbad", "--ai", "expert", "--vs", "standard",
                                  "--seed", "2", "--explain"])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if "samples, lookahead" in x)
    assert "Medusa chooses" in line and "\u00b1" in line and "(8 samples" in line
    lines = r.output.splitlines()
    i = next(i for i, x in enumerate(lines) if "Medusa chooses defense card (8 samples, lookahead)" in x)
    assert "attacks" in lines[i - 1] and "defends with" in lines[i + 1]


def test_expert_profiles_and_their_budget_checks(tmp_path):
    e, d = get_profile("expert"), get_profile("expert-deep")
    assert e.mode == d.mode == MODE_EXPERT
    assert (e.weight("search_samples"), e.weight("search_candidates")) == (8, 4)
    assert d.weight("search_samples") * d.weight("search_candidates") == 4 * 8 * 4   # four times the budget
    assert d.weight("win") == get_profile("standard").weight("win")
    f = tmp_path / "mine.toml"
    f.write_text('name = "mine"\nmode = "expert"\nbase = "expert"\n[weights]\nsearch_samples = 0\n')
    with pytest.raises(ProfileError, match=r"mine.toml: weights.search_samples = 0 must be a whole number from 1 to 256"):
        load_profile(f)
    f.write_text('name = "mine"\nmode = "expert"\nbase = "expert"\n[weights]\nsearch_candidates = 2.5\n')
    with pytest.raises(ProfileError, match=r"search_candidates = 2.5 must be a whole number from 1 to 16"):
        load_profile(f)


# ---------------------------------------------------------------- built positions
def _rest_of_turn(m, st, p, mode, frozen=False):
    """(state after the rest of ``p``'s turn, its first action as (kind, card name)), every
    action chosen by ``mode``: "standard" (``finish_turn``) or "expert" (``search_action``
    at each action with two or more choices, as ``expert_turn`` does). ``frozen``: both
    seats play release 0.2's profiles (``standard-0.2``, ``expert-0.2``), whose weights do
    not move when the standard's are trained again."""
    st = st.copy()
    prof = {"standard": "standard-0.2", "expert": "expert-0.2"}[mode] if frozen else mode
    ctl = _control((prof, prof))
    log = np.zeros((0, L.EV_FIELDS), np.int64)
    opts = np.zeros(L.ACTION_OPTS, np.int64)
    first = []
    if mode == "standard":
        from sim.engine.policy import decide
        probe = st.copy()
        action_due(probe, p)
        n = legal_actions(probe, m.tables, p, opts)
        first.append(int(opts[decide(probe, m.tables, ctl.copy(), L.D_ACTION, p, opts, n)]))
        finish_turn(st, m.tables, ctl, log, p)
    else:
        wst, w2 = np.zeros(L.STATE_SIZE, np.int64), np.zeros(L.STATE_SIZE, np.int64)
        wctl, nolog = np.zeros(CTL_SIZE, np.int64), np.zeros((0, 6), np.int64)
        while action_due(st, p):
            n = legal_actions(st, m.tables, p, opts)
            i = search_action(st, m.tables, ctl, p, opts, n, wst, w2, wctl, nolog) if n >= 2 else 0
            first.append(int(opts[i]))
            do_action(st, m.tables, ctl, log, p, opts[i])
        if not st[L.G_OVER]:
            end_of_turn(st, m.tables, ctl, log, p)
    kind, _g, _t, card = unpack_action(first[0])
    names = {L.A_MANEUVER: "maneuver", L.A_SCHEME: "scheme", L.A_ATTACK: "attack"}
    return st, (names[kind], m.content.card_names[card] if card >= 0 else None)


def test_expert_finds_the_four_action_kill():
    """Geralt's second action, next to Ciri (12 health, no cards in hand). Sword of Steel
    (attack 4) gains two actions when Geralt wins the combat, and Rend with Wolf Medallion
    as its BOOST then finishes her: 4 + 2 + 6 = 12. The lookahead sees the extra actions and
    takes the kill. The standard AI scores the attack cards one by one: it played Disciplined
    Duelist here (Ciri ended the turn at 8 health) until an attack with an attack card cost
    ``keep_attack`` of its keep worth; Sword of Steel (an attack card) now scores above
    Disciplined Duelist (a versatile one), and it takes the kill too."""
    sc = Scenario({
        "battlefield": "marmoreal",
        "players": [
            {"hero": "geralt_of_rivia",
             "fighters": {"Geralt of Rivia": {"space": "M25", "health": 16}, "Dandelion": {"space": "M26", "health": 4}},
             "hand": ["Sword of Steel", "Wolf Medallion", "Rend", "Disciplined Duelist", "Plot Twist"],
             "deck": ["Riposte", "Annoying Tune", "Blizzard", "Wolf Medallion", "Witcher Senses", "Yrden",
                      "Damn, You're Ugly", "Rend", "Disciplined Duelist"],
             "discard": ["Annoying Tune", "Riposte", "Igni", "Plot Twist", "Yrden", "Sword of Steel", "Igni"]},
            {"hero": "ciri",
             "fighters": {"Ciri": {"space": "M21", "health": 12}, "Ihuarraquax": {"space": "M19", "health": 7}},
             "hand": [],
             "deck": ["The Lady of Space and Time", "Searching Strike", "Lion Cub of Cintra", "Parry",
                      "Channel the Source", "Bane of the Aen Elle", "Blink", "Parry"],
             "discard": ["Child of the Elder Blood", "Blink", "Child of the Elder Blood", "Bane of the Aen Elle",
                         "Pushed to the Brink", "Searching Strike", "Pushed to the Brink", "Lion Cub of Cintra",
                         "Unicorn Ally", "Zireael", "Channel the Source", "The Lady of Space and Time"]},
        ],
        "actions": 0,
    })
    m, st = sc.match, sc.st
    st[L.G_ACTIONS] = 1      # the second action is the one to choose
    std, std_first = _rest_of_turn(m, st, 0, "standard")
    exp, exp_first = _rest_of_turn(m, st, 0, "expert")
    assert std_first == ("attack", "Sword of Steel")
    assert std[L.G_OVER] and std[L.G_WINNER] == 0
    assert exp_first == ("attack", "Sword of Steel")
    assert exp[L.G_OVER] and exp[L.G_WINNER] == 0
    assert exp[L.fslot(sc.fighter("Ciri"), L.F_STATUS)] == L.FS_DEFEATED


def test_expert_keeps_a_defense_card_for_the_counter_attack():
    """Mr. Hyde's second action at 5 health, next to Alice (13 health, five cards in hand).
    Each of Hyde's actions costs him 1 health. The standard AI attacks with Duality of Man,
    his best card, and Alice's two attacks defeat him in her turn; the lookahead sees that
    counter-attack in its samples of Alice's hand, maneuvers instead and keeps Duality of
    Man, which then blocks her second attack: Hyde survives her turn at 2 health. Both seats
    play release 0.2's frozen profiles (the search is the same code), so that training the
    standard's weights again does not move the position."""
    sc = Scenario({
        "battlefield": "marmoreal",
        "active": 1,
        "players": [
            {"hero": "alice", "fighters": {"Alice": {"space": "M24", "health": 13}},
             "counters": {"size": "big"},
             "hand": ["O Frabjous Day!", "Mad as a Hatter", "Looking Glass", "Jaws That Bite", "Feint"],
             "deck": ["Feint", "Drink Me", "Feint", "Regroup", "The Other Side of the Mushroom", "Drink Me",
                      "Mad as a Hatter", "Momentous Shift", "Manxome Foe", "Eat Me", "Snicker-Snack"],
             "discard": ["Eat Me", "Looking Glass", "Regroup", "Jaws That Bite", "I'm Late, I'm Late",
                         "Claws That Catch", "Claws That Catch", "Regroup", "Momentous Shift", "Manxome Foe",
                         "Skirmish", "I'm Late, I'm Late", "Skirmish"]},
            {"hero": "jekyll_hyde", "fighters": {"Dr. Jekyll & Mr. Hyde": {"space": "M23", "health": 5}},
             "counters": {"form": "Mr. Hyde"},
             "hand": ["Madness Relents", "Duality of Man"],
             "deck": ["Feint", "Succumb to Compulsion", "Feint", "Distracted Triage", "Recoiling Blow",
                      "Madness Relents", "With Haste!", "Pure Evil", "Calming Research", "Skirmish"],
             "discard": ["Strange Case", "Pure Evil", "Forever Hyde", "Distracted Triage", "Skirmish",
                         "With Haste!", "Forever Hyde", "Recoiling Blow", "Feint", "Pure Evil",
                         "Scientific Method", "Strange Case", "Scientific Method"]},
        ],
        "actions": 0,
    })
    m, st = sc.match, sc.st
    st[L.G_ACTIONS] = 1
    hyde = sc.fighter("Dr. Jekyll & Mr. Hyde")
    outcome = {}
    for mode in ("standard", "expert"):
        after, first = _rest_of_turn(m, st, 1, mode, frozen=True)
        assert not after[L.G_OVER] and after[L.G_ACTIVE] == 0
        kept = "Duality of Man" in [m.content.card_names[c] for c in
                                    after[L.OFF_HAND + L.MAX_CARDS:L.OFF_HAND + L.MAX_CARDS + after[L.pslot(1, L.P_HANDN)]]]
        take_turn(after, m.tables, _control(("standard-0.2", "standard-0.2")), np.zeros((0, L.EV_FIELDS), np.int64))
        outcome[mode] = (first, kept, int(after[L.fslot(hyde, L.F_STATUS)]), int(after[L.fslot(hyde, L.F_HP)]))
    assert outcome["standard"] == (("attack", "Duality of Man"), False, L.FS_DEFEATED, 0)
    assert outcome["expert"] == (("maneuver", None), True, L.FS_IN_PLAY, 2)


def test_expert_keeps_its_defense_card_for_the_hero():
    """Geralt (one more action to come) attacks Dr. Watson (3 health) with a face-down card;
    Holmes, next to Geralt too, has 3 health and Study Methods is Sherlock's only card. Each
    attack card Geralt may hold (Damn, You're Ugly, Disciplined Duelist) defeats Holmes
    undefended and leaves him at 1 health against Study Methods. The standard AI scores this
    combat alone and saves Watson with the card; Geralt's second action then defeats Holmes.
    The lookahead sees that second attack in every sample, lets Watson fall and keeps the card:
    Holmes survives Geralt's turn at 1 health."""
    sc = Scenario({
        "battlefield": "marmoreal",
        "actions": 1,
        "players": [
            {"hero": "geralt_of_rivia",
             "fighters": {"Geralt of Rivia": {"space": "M25", "health": 16}, "Dandelion": {"space": "M01", "health": 1}},
             "hand": ["Damn, You're Ugly", "Damn, You're Ugly", "Disciplined Duelist", "Wolf Medallion"],
             "deck": ["Damn, You're Ugly", "Disciplined Duelist", "Disciplined Duelist", "Wolf Medallion"],
             "discard": ["Igni", "Igni", "Sword of Steel", "Sword of Steel", "Riposte", "Riposte", "Yrden", "Yrden",
                         "Yrden", "Rend", "Rend", "Rend", "Annoying Tune", "Annoying Tune", "Annoying Tune",
                         "Plot Twist", "Plot Twist", "Plot Twist", "Witcher Senses", "Witcher Senses", "Blizzard",
                         "Blizzard"]},
            {"hero": "sherlock_holmes",
             "fighters": {"Sherlock Holmes": {"space": "M21", "health": 3}, "Dr. Watson": {"space": "M26", "health": 3}},
             "hand": ["Study Methods"],
             "deck": ["Feint", "Counterpunch", "Deduce Strategy", "Confirm Suspicion", "Master of Disguise"]},
        ],
    })
    m, tb = sc.match, sc.match.tables
    holmes, watson = sc.fighter("Sherlock Holmes"), sc.fighter("Dr. Watson")
    attack = pack_action(L.A_ATTACK, sc.fighter("Geralt of Rivia"), watson, sc.card(0, "Damn, You're Ugly"))
    outcome = {}
    for mode in ("standard", "expert"):
        st, d = sc.st.copy(), np.zeros(L.CARD_OPTS, np.int64)
        k = start_action(st, tb, _control(("standard", "standard")), np.zeros((0, L.EV_FIELDS), np.int64), 0,
                         attack, d)
        assert sorted(m.content.card_names[c] if c >= 0 else "none" for c in d[:k]) == ["Study Methods", "none"]
        ctl = _control((mode, mode))
        card = defend(st, tb, ctl, d, k) if mode == "standard" else int(d[search_defense(st, tb, ctl, 1, d, k, *_work())])
        rest = _control(("standard", "standard"))
        log = np.zeros((0, L.EV_FIELDS), np.int64)
        end_action(st, tb, rest, log, card)
        rng_seed(st, 3)
        finish_turn(st, tb, rest, log, 0)
        outcome[mode] = (m.content.card_names[card] if card >= 0 else None, int(st[L.fslot(watson, L.F_STATUS)]),
                         int(st[L.fslot(holmes, L.F_STATUS)]), int(st[L.fslot(holmes, L.F_HP)]), int(st[L.G_OVER]))
    assert outcome["standard"] == ("Study Methods", L.FS_IN_PLAY, L.FS_DEFEATED, 0, 1)
    assert outcome["expert"] == (None, L.FS_DEFEATED, L.FS_IN_PLAY, 1, 0)


def test_explain_names_every_decision_kind_and_a_named_value():
    """Every decision kind has words in ``--explain`` (no bare kind number), and a named value
    is shown as the value itself: Holmes's Confirm Suspicion in a seeded expert game."""
    from sim.engine.codes import N_DECISIONS
    from sim.play.narrate import _KIND_NAMES
    assert sorted(_KIND_NAMES) == list(range(N_DECISIONS))
    r = CliRunner().invoke(main, ["duel", "sherlock_holmes", "medusa", "--ai", "expert", "--seed", "1",
                                  "-b", "soho", "--explain"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    i = next(i for i, x in enumerate(lines) if "Sherlock Holmes chooses value to name" in x)
    named = next(x for x in lines[i + 1:] if "names the value" in x).split()[-1]
    assert lines[i].split(": ", 1)[1].startswith(f"value {named} ")
    import re
    assert not re.search(r"chooses \d", r.output) and not re.search(r"option \d", lines[i])
    # a choice kept though another option's mean is higher says why (README: 2 standard errors)
    for x in lines:
        if "samples, lookahead): " in x:
            means = [float(c.rsplit(" ", 2)[1]) for c in x.split("): ", 1)[1].split(" (+")[0].split(" (kept")[0].split("; ")]
            assert ("(kept: no other option beat it by 2 standard errors)" in x) == (max(means[1:]) > means[0]), x
