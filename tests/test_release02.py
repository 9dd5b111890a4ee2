"""The frozen profiles of release 0.2 (``standard-0.2``, ``tuned-0.2``, ``expert-0.2``) play
exactly the games release 0.2's ``standard``, ``tuned`` and ``expert`` played: seeded duels
narrated and stored from commit 4a1031a (``tests/golden/release-0.2``), and the bench mix's
digests recorded there. These files are never regenerated: a difference is a change to the
frozen code path (``sim.engine.ai.weights.frozen``)."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.content.battlefields import list_battlefields
from sim.content.profiles import ProfileError, get_profile
from sim.play.match import Match
from sim.play.narrate import narrate

GOLDEN = Path(__file__).parent / "golden" / "release-0.2"
#: ``_digest([play_share(ai, 1, 0, 1)])`` of release 0.2's profiles at 4a1031a (sim.runs.bench)
DIGESTS_4A1031A = {"standard": "39c98aa9925c5228bddfcf073a86a35b46f622e9",
                   "tuned": "7935ee4dbfe6c38c6fcb6bfd7efc7c88e22a82a5",
                   "expert": "7dd2ff5840fec8ff181f47ffd9bb4adafc8f0c08"}


def _recorded():
    """One param per recorded game, from its file name ``{ai}_{hero}_vs_{ai}_{hero}_{battlefield}_seed{n}``."""
    out = []
    for f in sorted(GOLDEN.glob("*_vs_*.txt")):
        left, seed = f.stem.rsplit("_seed", 1)
        bf = next(b for b in list_battlefields() if left.endswith("_" + b))
        first, second = left[:-len(bf) - 1].split("_vs_")
        a, h0 = first.split("_", 1)
        b, h1 = second.split("_", 1)
        out.append(pytest.param(f, a, h0, b, h1, bf, int(seed), id=f.stem))
    return out


def test_the_recorded_games_cover_every_frozen_profile():
    names = {p.values[1] for p in _recorded()} | {p.values[3] for p in _recorded()}
    assert names == {"standard", "tuned", "expert"}


@pytest.mark.parametrize("path,a,h0,b,h1,bf,seed", _recorded())
def test_frozen_profiles_replay_release_02_games(path, a, h0, b, h1, bf, seed):
    """The same seed, heroes and battlefield with the 0.2 profiles narrate the game 4a1031a played."""
    g = Match([h0, h1], battlefield=bf).play(seed=seed, modes=(f"{a}-0.2", f"{b}-0.2"))
    assert "\n".join(narrate(g)) + "\n" == path.read_text(), f"{path.name}: the frozen profiles play another game"


def test_frozen_expert_replays_the_release_02_expert_golden_game():
    g = Match(["medusa", "sinbad"], battlefield="marmoreal").play(seed=5, modes=("expert-0.2", "standard-0.2"))
    assert "\n".join(narrate(g)) + "\n" == (GOLDEN / "expert_medusa_sinbad_marmoreal_seed5.txt").read_text()


@pytest.mark.parametrize("ai", sorted(DIGESTS_4A1031A))
def test_frozen_profiles_play_the_release_02_bench_mix(ai):
    from sim.runs.bench import _digest, play_share
    assert _digest([play_share(f"{ai}-0.2", 1, 0, 1)]) == DIGESTS_4A1031A[ai]


def test_frozen_profiles_keep_release_02_weights():
    s, t, e = get_profile("standard-0.2"), get_profile("tuned-0.2"), get_profile("expert-0.2")
    assert s.mode_name == t.mode_name == "standard-0.2" and e.mode_name == "expert-0.2"
    assert s.weight("fx_draw") == 0.45 and s.weight("card") == 3.3     # the two prices of issue 32
    assert e.weights == s.weights and len(t.tuned_heroes) == 11
    assert t.weights_for("alice")[:3] == (3.385964, 3.135126, 0.531313)


def test_retired_standard_1_is_a_one_line_error():
    with pytest.raises(ProfileError, match=r"unknown AI profile 'standard-1' \(the standard AI of release 0.1, "
                                           r"retired in release 0.3\); valid: expert, expert-0.2, "):
        get_profile("standard-1")
    r = CliRunner().invoke(main, ["duel", "medusa", "sinbad", "--ai", "standard-1"])
    assert r.exit_code == 2 and "retired" in r.output and "standard-0.2" in r.output and "Traceback" not in r.output
