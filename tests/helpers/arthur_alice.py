"""Card names and readers shared by the King Arthur and Alice card tests (test_cards_arthur_alice.py,
test_cards_king_arthur.py, test_cards_king_arthur_defense_schemes.py, test_cards_alice.py).
What those tests do and the facts they rely on:

Card tests for King Arthur and Alice: every card and both hero abilities,
plus the rules cases of docs/rules.md for these heroes (R04, R05,
R23, R24, R25, R27, R28, R30, R31).

Each test builds an exact position on Marmoreal with the scenario API,
resolves one step with scripted choices and asserts the numbers the card
changes (health, piles by name, spaces, combat values, winner, Alice's size).

Map facts used below (sim/battlefields/marmoreal.toml):
  red zone = M07 M13 M20 M21; yellow = M01 M07 M08 M13 M20; brown = M25..M31.
  Edges used: M13-M20, M20-M21, M20-M27, M21-M25, M25-M26, M26-M23, M23-M24,
  M24-M16, M16-M12, M13-M07, M07-M01, M07-M08, M27-M28, M28-M29.
  M21 is red only; M27 is brown only (adjacent to M20 but in none of its zones).
Card texts: the published cards (names and numbers; effects paraphrased in the hero files).
Case ids (Rnn): docs/rules.md; project decisions there (R24: a
cancelled attack card loses Arthur's face-down BOOST even for Excalibur; the
game ends as soon as a hero is defeated).
"""
from sim.content.battlefields import load_battlefield

BF = load_battlefield("marmoreal")

ARTHUR = "King Arthur"
GRAIL = "The Holy Grail"
LADY = "The Lady of the Lake"
MORGANA = "The Aid of Morgana"
STORMS = "Command the Storms"
SPIRITS = "Restless Spirits"
DIVINE = "Divine Intervention"
NOBLE = "Noble Sacrifice"
GLASS = "Looking Glass"


def size(out, seat=0):
    return out["players"][seat]["counters"]["size"]
