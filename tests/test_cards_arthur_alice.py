"""The Marmoreal map facts the King Arthur and Alice card tests rely on (the card tests are in
test_cards_king_arthur.py, test_cards_king_arthur_defense_schemes.py and test_cards_alice.py).
"""
import pytest
from helpers.cards import dist
from helpers.arthur_alice import BF

pytestmark = pytest.mark.nojit


def test_map_facts_used_by_these_tests():
    """The geometry the tests rely on (so a map change fails here, not obscurely)."""
    zone = lambda z: [s for i, s in enumerate(BF.space_ids) if BF.zone_mask[i] >> BF.zone_names.index(z) & 1]  # noqa: E731
    assert zone("red") == ["M07", "M13", "M20", "M21"]
    assert zone("yellow") == ["M01", "M07", "M08", "M13", "M20"]
    adj = lambda a, b: bool(BF.adj[BF.index(a), BF.index(b)])  # noqa: E731
    assert adj("M20", "M21") and adj("M20", "M13") and adj("M20", "M27") and adj("M21", "M25")
    assert not adj("M21", "M13") and not adj("M07", "M20") and not adj("M21", "M27")
    assert not BF.zone_mask[BF.index("M27")] & BF.zone_mask[BF.index("M20")]
    assert (dist("M21", "M24"), dist("M21", "M16"), dist("M21", "M12"), dist("M21", "M23")) == (4, 5, 6, 3)
    assert (dist("M20", "M28"), dist("M20", "M29"), dist("M13", "M02"), dist("M21", "M26")) == (2, 3, 3, 2)
