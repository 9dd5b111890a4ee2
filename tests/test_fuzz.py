"""Property-based fuzzing of the shipped hero, battlefield, variant and AI profile files (issue
24): random structural edits (tests/helpers/fuzz.py); every edited file either loads, and then
plays its games without an engine error, or is refused with a one-line error naming the file
and the place; never a traceback. A slice runs here (derandomized, so CI is repeatable);
``tests/fuzz.py`` runs thousands and counts the outcomes."""
import tempfile
from pathlib import Path

import pytest
from helpers.fuzz import KINDS, OPS, check_one, sources, to_toml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# structural edits are the point; a cut-off or garbled text (a TOML syntax error) less often
WEIGHTED_OPS = [op for op in OPS for _ in range(1 if op in ("truncate", "garble") else 4)]
EDITS = st.lists(st.tuples(st.sampled_from(WEIGHTED_OPS), st.integers(0, 10**6)), min_size=1, max_size=3)
INTS = st.lists(st.integers(0, 2**16), min_size=1, max_size=8)
WORDS = st.lists(st.text(max_size=8), max_size=2)


def fuzz_case(data, kind):
    """Draw one edited file of ``kind`` and check it (the property both the test and tests/fuzz.py use)."""
    source = data.draw(st.sampled_from(sorted(sources(kind))), label="file")
    ops = data.draw(EDITS, label="edits")
    with tempfile.TemporaryDirectory() as folder:
        return check_one(kind, source, ops, Path(folder), data.draw(INTS, label="ints"),
                         data.draw(WORDS, label="words"))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_edited_file_loads_and_plays_or_is_refused_in_one_line(kind, data):
    o = fuzz_case(data, kind)
    assert o.status in ("loaded", "refused"), f"{o.source} after {o.edits}:\n{o.message}"
    if o.status == "loaded":
        assert o.games > 0


def test_the_toml_writer_round_trips_every_shipped_file():
    import tomllib
    for kind in KINDS:
        for name, text in sources(kind).items():
            data = tomllib.loads(text)
            assert tomllib.loads(to_toml(data)) == data, name


CASES = [   # what the fuzzing found (each was a traceback), with the one line each now gives
    ("hero", "alice.toml", ("cards", 0, "after", 0, "op"), [], "card 'Snicker-Snack'.after[0].op: unknown op []"),
    ("hero", "medusa.toml", ("sidekicks", 0, "count"), "x", "sidekicks[0].count: must be a whole number from 1 to 4"),
    ("hero", "ciri.toml", ("cards", 3, "tags"), 2, ".tags: must be a list of strings"),
    ("hero", "medusa.toml", ("notes",), 5, "notes: must be a list of strings, got 5"),
    ("hero", "geralt_of_rivia.toml", ("choice_groups",), 3, "choice_groups: must be a list of [[choice_groups]] tables"),
    ("hero", "medusa.toml", ("sidekicks", 0, "summon"), "yes", "sidekicks[0].summon: must be true or false"),
    ("hero", "exemplar.toml", ("cards", 0, "type"), "attack",
     "card 'Overreach'.after[0].who: who = 'opponent' never gains an action in an attack card"),
    ("hero", "exemplar.toml", ("cards", 1, "effect", 0, "to"), "pile", "effect[0].to: unknown 'pile'; valid: deck_top"),
    ("hero", "exemplar.toml", ("cards", 3, "after", 0, "track"), False, "needs a move with track = true before it"),
    ("battlefield", "soho.toml", ("spaces", 0, "zones", 0), ["x"], "spaces[0].zones: unknown zone ['x']"),
    ("battlefield", "soho.toml", ("spaces", 0, "x"), float("inf"), "spaces[0].x: must be a (finite) number"),
    ("profile", "greedy.toml", ("mode",), [], "field 'mode' is []; valid: standard"),
    ("profile", "greedy.toml", ("a\nb",), 1, "unknown field(s) a\\nb; valid: base"),
]


@pytest.mark.parametrize("kind, source, path, value, message", CASES, ids=[c[-1][:30] for c in CASES])
def test_what_the_fuzzing_found_is_refused_in_one_line(tmp_path, kind, source, path, value, message):
    import tomllib

    from helpers.fuzz import _load, _loader
    data = tomllib.loads(sources(kind)[source])
    cur = data
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    f = tmp_path / source
    f.write_text(to_toml(data), encoding="utf-8")
    with pytest.raises(_loader(kind)) as e:
        _load(kind, f)
    assert "\n" not in str(e.value) and message in str(e.value), str(e.value)
