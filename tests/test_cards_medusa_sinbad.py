"""The Marmoreal map facts the Medusa and Sinbad card tests rely on (the card tests are in
test_cards_medusa.py and test_cards_sinbad.py).
"""
import pytest
from helpers.cards import dist

from sim.content.battlefields import load_battlefield

pytestmark = pytest.mark.nojit

BF = load_battlefield("marmoreal")


def test_map_facts_used_by_these_tests():
    """The geometry the tests rely on (so a map change fails here, not obscurely)."""
    red = BF.zone_names.index("red")
    assert [s for i, s in enumerate(BF.space_ids) if BF.zone_mask[i] >> red & 1] == ["M07", "M13", "M20", "M21"]
    assert BF.adj[BF.index("M21"), BF.index("M25")] and not BF.zone_mask[BF.index("M21")] & BF.zone_mask[BF.index("M25")]
    assert BF.adj[BF.index("M20"), BF.index("M21")] and not BF.adj[BF.index("M21"), BF.index("M13")]
    assert (dist("M27", "M24"), dist("M28", "M12"), dist("M27", "M04")) == (6, 6, 7)
    assert (dist("M21", "M23"), dist("M21", "M24"), dist("M20", "M28"), dist("M20", "M29")) == (3, 4, 2, 3)
