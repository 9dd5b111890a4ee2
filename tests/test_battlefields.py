import pickle

import numpy as np
import pytest

from sim.content.battlefields import (
    UNREACHABLE,
    BattlefieldError,
    list_battlefields,
    load_battlefield,
    resolve_battlefield,
)

# The printed battlefields: spaces, two-way edges, one-way arrows, zones, starts 1..4.
REFERENCE = {
    "marmoreal": (31, 42, 0, 8, ("M13", "M31", "M03", "M11")),
    "sarpedon": (38, 61, 0, 6, ("S20", "S32", "S03", "S14")),
    "baskerville_manor": (32, 46, 0, 7, ("BM20", "BM05", "BM24", "BM13")),
    "soho": (29, 36, 0, 7, ("SH03", "SH14", "SH21", "SH23")),
    "fayrlund_forest": (30, 48, 0, 8, ("FF11", "FF25", "FF23", "FF01")),
    "kaer_morhen": (32, 48, 13, 8, ("KM08", "KM32", "KM26", "KM11")),
}
KM_ONE_WAY = [
    ("KM01", "KM11"), ("KM02", "KM11"), ("KM04", "KM12"), ("KM06", "KM08"), ("KM06", "KM09"),
    ("KM07", "KM09"), ("KM12", "KM13"), ("KM16", "KM11"), ("KM22", "KM15"), ("KM22", "KM25"),
    ("KM27", "KM19"), ("KM27", "KM23"), ("KM28", "KM19"),
]
PASSAGES = ["BM04", "BM09", "BM15", "BM26"]


@pytest.fixture(scope="module", params=sorted(REFERENCE))
def bf(request):
    return load_battlefield(request.param)


def test_list_battlefields():
    assert list_battlefields() == sorted(REFERENCE)


def test_counts_match_reference(bf):
    spaces, two_way, one_way, zones, starts = REFERENCE[bf.key]
    adj, move = bf.adj.astype(bool), bf.move.astype(bool)
    upper = np.triu(np.ones_like(adj), 1)
    assert bf.n_spaces == len(bf.space_ids) == spaces
    assert int((adj & move & move.T & upper).sum()) == two_way
    assert int((adj & move & ~move.T).sum()) == one_way
    assert len(bf.zone_names) == len(bf.zone_colors) == zones
    assert tuple(bf.space_ids[i] for i in bf.starts) == starts


def test_array_shapes_and_invariants(bf):
    S = bf.n_spaces
    for arr, shape, dtype in [
        (bf.adj, (S, S), np.int8), (bf.move, (S, S), np.int8), (bf.dist, (S, S), np.int32),
        (bf.zone_mask, (S,), np.int64), (bf.starts, (4,), np.int32), (bf.passage, (S,), np.int8),
        (bf.xy, (S, 2), np.float64),
    ]:
        assert arr.shape == shape and arr.dtype == dtype and not arr.flags.writeable
    assert (bf.adj == bf.adj.T).all()
    assert not bf.adj.diagonal().any() and not bf.move.diagonal().any()
    assert (bf.dist.diagonal() == 0).all()
    assert ((bf.dist == 1) == bf.move.astype(bool)).all()
    assert (bf.zone_mask > 0).all()  # every space is in some zone
    assert not np.isnan(bf.xy).any()


def test_strongly_connected_for_movement(bf):
    assert (bf.dist < UNREACHABLE).all()


@pytest.mark.parametrize("key", ["marmoreal", "sarpedon", "soho", "fayrlund_forest"])
def test_plain_maps_move_equals_adjacency(key):
    bf = load_battlefield(key)
    assert (bf.move == bf.adj).all()


def test_kaer_morhen_one_way_paths():
    km = load_battlefield("kaer_morhen")
    for a, b in KM_ONE_WAY:
        i, j = km.index(a), km.index(b)
        assert km.move[i, j] == 1 and km.move[j, i] == 0
        assert km.adj[i, j] == km.adj[j, i] == 1
    directed = {(km.space_ids[i], km.space_ids[j]) for i, j in zip(*np.nonzero(km.move & ~km.move.T))}
    assert directed == set(KM_ONE_WAY)
    def d(a, b):
        return int(km.dist[km.index(a), km.index(b)])
    assert (d("KM04", "KM12"), d("KM12", "KM04")) == (1, 7)  # down the rampart arrow vs. back up
    assert (d("KM27", "KM23"), d("KM23", "KM27")) == (1, 5)
    assert int(km.dist.max()) == 9


def test_baskerville_secret_passages():
    bm = load_battlefield("baskerville_manor")
    idx = [bm.index(s) for s in PASSAGES]
    assert [bm.space_ids[i] for i in np.flatnonzero(bm.passage)] == PASSAGES
    block = np.ix_(idx, idx)
    assert (bm.move[block] == 1 - np.eye(4, dtype=np.int8)).all()
    assert not bm.adj[block].any()  # no drawn line joins two passage spaces
    assert bm.dist[bm.index("BM09"), bm.index("BM26")] == 1  # opposite corners of the board
    assert bm.adj[bm.index("BM09")].sum() == 1  # BM09 library: one line (to BM08)
    assert bm.adj[bm.index("BM09"), bm.index("BM08")] == 1
    assert (bm.move == bm.move.T).all()


def test_zone_membership():
    km = load_battlefield("kaer_morhen")
    assert km.zones_of("KM24") == ("cyan", "gray", "indigo", "orange")
    assert km.zones_of("KM08") == ("cyan",)
    m = load_battlefield("marmoreal")
    assert m.zones_of("M01") == ("gray", "yellow")
    assert m.zone_mask[m.index("M01")] == 1 << m.zone_names.index("gray") | 1 << m.zone_names.index("yellow")
    ff = load_battlefield("fayrlund_forest")
    orange = 1 << ff.zone_names.index("orange")
    assert [ff.space_ids[i] for i in np.flatnonzero(ff.zone_mask & orange)] == ["FF14"]


def test_pickle_roundtrip_keeps_arrays_read_only():
    km = load_battlefield("kaer_morhen")
    back = pickle.loads(pickle.dumps(km))
    assert back.space_ids == km.space_ids and (back.dist == km.dist).all()
    assert not back.move.flags.writeable


def test_unknown_name_lists_valid_names():
    with pytest.raises(BattlefieldError, match="unknown battlefield 'atlantis'") as e:
        load_battlefield("atlantis")
    assert "kaer_morhen" in str(e.value) and "soho" in str(e.value)


def test_battlefield_names_resolve_like_hero_names():
    """Key in any case, spaces, hyphens and underscores alike, or the display name."""
    cases = {"soho": "soho", "Soho": "soho", "SOHO": "soho", "Baskerville Manor": "baskerville_manor",
             "baskerville-manor": "baskerville_manor", "KAER MORHEN": "kaer_morhen", " Fayrlund Forest ": "fayrlund_forest"}
    for name, key in cases.items():
        assert resolve_battlefield(name) == key, name
    assert load_battlefield("Kaer Morhen").key == "kaer_morhen"
    for bad in ("atlantis", "", "soh"):
        with pytest.raises(BattlefieldError) as e:
            resolve_battlefield(bad)
        assert str(e.value) == (f"unknown battlefield {bad!r}; valid names: baskerville_manor, fayrlund_forest, "
                                "kaer_morhen, marmoreal, sarpedon, soho")


TINY = """\
name = "Tiny"
spaces = [
  { id = "A", zones = ["red"], start = 1, x = 0, y = 0 },
  { id = "B", zones = ["red", "blue"], start = 2, passage = true },
  { id = "C", zones = ["blue"], passage = true },
]
edges = [["A", "B"]]
one_way = [["C", "A"]]

[zones]
red = "#FF0000"
blue = "#0000FF"
"""


def test_tiny_file_loads(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    t = load_battlefield(path)
    assert t.key == "tiny" and t.space_ids == ("A", "B", "C")
    assert t.adj.tolist() == [[0, 1, 1], [1, 0, 0], [1, 0, 0]]
    assert t.move.tolist() == [[0, 1, 0], [1, 0, 1], [1, 1, 0]]
    assert t.dist.tolist() == [[0, 1, 2], [1, 0, 1], [1, 1, 0]]
    assert t.starts.tolist() == [0, 1, -1, -1]
    assert np.isnan(t.xy[1]).all()


BROKEN = {
    "unknown_edge_id": ('edges = [["A", "B"]]', 'edges = [["A", "B"], ["B", "Z"]]', "edges[1]", "valid: A, B, C"),
    "unknown_zone": ('zones = ["blue"], passage', 'zones = ["green"], passage', "spaces[2].zones", "valid: red, blue"),
    "duplicate_id": ('id = "C"', 'id = "A"', "spaces[2].id", "duplicate space id 'A'"),
    "start_range": ("start = 2", "start = 5", "spaces[1].start", "1, 2, 3 or 4"),
    "start_twice": ("start = 2", "start = 1", "spaces[1].start", "already on A"),
    "self_loop": ('edges = [["A", "B"]]', 'edges = [["A", "B"], ["C", "C"]]', "edges[1]", "self-loop"),
    "duplicate_edge": ('edges = [["A", "B"]]', 'edges = [["A", "B"], ["B", "A"]]', "edges[1]", "duplicate link"),
    "edge_and_one_way": ('one_way = [["C", "A"]]', 'one_way = [["B", "A"]]', "one_way[0]", "already listed as edges[0]"),
    "no_spaces": (TINY[TINY.index("spaces"):TINY.index("edges")], "spaces = []\n", "spaces", "at least one space"),
    "too_many_zones": ('blue = "#0000FF"', "\n".join(f'z{i} = "#000000"' for i in range(62)) + '\nblue = "#0000FF"',
                       "zones", "at most 63"),
    "bad_colour": ('red = "#FF0000"', 'red = "crimson"', "zones.red", "#RRGGBB"),
    "unknown_space_key": ("start = 1,", 'start = 1, zone = "red",', "spaces[0].zone", "valid keys: id, zones"),
    "passage_not_bool": ("passage = true }", "passage = 1 }", "spaces[1].passage", "true or false"),
    "toml_syntax": ('name = "Tiny"', 'name = "Tiny', "TOML syntax error", "line 1"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_file_errors(tmp_path, case):
    old, new, field, problem = BROKEN[case]
    assert old in TINY
    path = tmp_path / f"{case}.toml"
    path.write_text(TINY.replace(old, new, 1))
    with pytest.raises(BattlefieldError) as e:
        load_battlefield(path)
    msg = str(e.value)
    assert f"{case}.toml" in msg and field in msg and problem in msg, msg


def test_a_start_no_line_reaches_is_refused(tmp_path):
    """Soho with every link of start 2 (SH14) removed: a fighter there could never meet the
    other hero, and whole games would end by exhaustion or the turn cap. The file is refused
    in one line naming the field and both starts (a fresh-user find: it was accepted)."""
    import re
    from pathlib import Path
    src = Path("sim/battlefields/soho.toml").read_text(encoding="utf-8")
    cut = re.sub(r'\[\s*"SH14"\s*,\s*"SH\d+"\s*\]\s*,?|\[\s*"SH\d+"\s*,\s*"SH14"\s*\]\s*,?', "", src)
    assert cut != src
    (tmp_path / "island.toml").write_text(cut, encoding="utf-8")
    with pytest.raises(BattlefieldError, match=r"island\.toml: edges: start 2 \(SH14\) cannot be reached from start 1 "
                                               r"\(SH03\) along the lines; link it with edges or one_way$"):
        load_battlefield(tmp_path / "island.toml")
