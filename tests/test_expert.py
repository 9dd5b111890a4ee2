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
from sim.engine.core import PILE_DECK, PILE_HAND, pile_base
from sim.engine.rules import legal_actions
from sim.engine.search import search_action
from sim.play.match import Match, _control
from sim.play.narrate import narrate
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
