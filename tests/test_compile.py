"""How the engine is compiled: entry points self-contained, the other functions as parts
(sim.engine.sigs: ``jit(..., entry=True)`` and ``_EngineLibrary``)."""
import numba
import pytest

from sim.engine import sigs
from sim.engine.game import ENTRY_POINTS, play_games_plain, setup_game

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="compiled engine only")


def test_the_entry_points_python_calls_are_built_self_contained():
    from sim.engine.rules import take_turn, unpack_action
    entries = {fn for fns in ENTRY_POINTS.values() for fn in fns}
    assert {play_games_plain, setup_game} <= entries
    assert all(fn._entry for fn in entries - {unpack_action})
    assert not take_turn._entry and not unpack_action._entry   # parts (the narration calls unpack_action)


def test_a_cached_part_whose_callee_code_is_not_loaded_is_compiled_again():
    """A part's machine code calls its callees by symbol; numba names a symbol after the process
    that compiled it, so a cached part from another build than the loaded callee is refused
    (load_or_announce then compiles it) instead of failing in LLVM's linker."""
    from numba.core.registry import cpu_target
    codegen = cpu_target.target_context.codegen()
    state = ("take_turn", "engine-part", (b"", b"", ["_ZN3sim6engine9no_such_fnB2v1"], []))
    with pytest.raises(sigs._StalePart):
        codegen.unserialize_library(state)
