"""Balance a hero: search its numeric knobs for the smallest changes that bring its score
against a field (or one opponent) to a target; the run behind ``unmatched-sim balance``.

The knobs (``sim.content.knobs``) are the health and move of the hero and each sidekick,
each card's value and BOOST, and copies of a card traded with another card. Every setting of
the knobs is played as a designer variant on the same games (common random numbers:
``sim.runs.balance_plan``). The search (``sim.runs.balance_search``):

1. **Baseline**: the hero file as it is.
2. **Screen**: each knob at both ends of its range, one block of games per end, then 2, 4
   and 8 blocks while its effect is neither significant (Holm over the knobs, alpha spent
   over the looks) nor excluded (both ends within 1 point of no change): sequential
   testing; when a look does not fit in half the budget, the weaker half of the knobs
   still screened is dropped (successive halving).
3. **Curves**: every level of each knob with an effect, on as many blocks as 60% of the
   budget left allows (up to 16): the field score against the knob's value. Then, in up to
   three rounds, the levels whose interval meets the target's band get more blocks (up to
   16; the smallest edits first, two levels per knob, ``2 * proposals`` knobs, half the
   budget left per round), so that the proposals' predictions are sure enough to survive
   the verification.
4. **Proposals**: the smallest change of each knob predicted within the tolerance of the
   target, single knobs first; pairs of knobs that do not reach it alone (played in the
   search) when fewer single knobs than ``proposals`` do; ranked by the size of the edit
   (knobs, printed designs touched, steps, then the miss).
5. **Verification**: each proposal, written as a variant file, on fresh seeds with the cells
   of ``unmatched-sim compare``, paired with the baseline; with ``check_ai`` once more under
   a second AI profile (a proposal that reaches the target under both is *robust*).

Example::

    from sim.runs.balance import BalanceSettings, run_balance
    res = run_balance(BalanceSettings(hero="king_arthur", budget=200_000), "runs/balance_arthur")
    [(p["label"], p["verified"]["score"]) for p in res["proposals"]]
"""
from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

from sim.runs.backend import Backend, open_pool
from sim.runs.errors import RunError
from sim.runs.balance_plan import RESULT, STATE, BalanceSettings, prepare_folder, resolve, write_json
from sim.runs.balance_search import BalanceSearch
from sim.runs.lock import LOCK_FILE, run_lock

__all__ = ["BalanceSettings", "run_balance", "resolve"]


def run_balance(settings: BalanceSettings, out, backend: Backend | None = None, progress=None) -> dict:
    """Run (or resume) a balance search into folder ``out`` and return its result (the dict
    written to ``OUT/result.json``; ``reports.balance`` renders it).

    ``backend``: where the games play (loky processes or dask; results do not depend on
    it); ``progress(done, total, info)``: called after each finished block (games; ``total``
    an estimate that shrinks as knobs are dropped), or None. Raises RunError for bad settings
    or a folder holding another run, ``sim.runs.lock.RunLocked`` when another command plays
    ``out``; KeyboardInterrupt propagates (every finished block is stored: rerun to resume).
    """
    r = resolve(settings)
    out = Path(out)
    key = json.loads(json.dumps(r.settings.to_dict()))
    existed, had_lock = out.exists(), (out / LOCK_FILE).exists()
    with run_lock(out):
        try:
            state = prepare_folder(out, key)
        except RunError:                # refused: leave the folder as it was found
            if not had_lock:
                (out / LOCK_FILE).unlink(missing_ok=True)
            if not existed:
                out.rmdir()
            raise
        t0 = time.perf_counter()
        search = BalanceSearch(r, out, progress)
        session = {"started": datetime.now(UTC).isoformat(timespec="seconds")}
        try:
            with open_pool(backend or Backend.of(None, None, None), 64, "block(s)") as pool:
                search.pool = pool
                result = search.run()
            session["status"] = "finished"
        except BaseException:
            session["status"] = "interrupted"
            raise
        finally:
            session.update(seconds=round(time.perf_counter() - t0, 1), games_played=search.played)
            state["sessions"].append(session)
            write_json(out / STATE, state)
        result["sessions"] = state["sessions"]
        result["seconds"] = round(sum(x.get("seconds", 0) for x in state["sessions"]), 1)
        write_json(out / RESULT, result)
    return result
