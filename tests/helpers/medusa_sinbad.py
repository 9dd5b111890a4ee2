"""The position builder and names shared by the Medusa and Sinbad card tests
(test_cards_medusa_sinbad.py, test_cards_medusa.py, test_cards_sinbad.py).
What those tests do and the facts they rely on:

Card tests for Medusa and Sinbad: every card and both hero abilities.

Each test builds an exact position on Marmoreal with the scenario API,
resolves one step with scripted choices and asserts the numbers the card
changes (health, piles by name, spaces, combat values, winner).

Map facts used below (sim/battlefields/marmoreal.toml):
  red zone = M07 M13 M20 M21; M21 is red only; M13 is red+yellow.
  M20-M21, M20-M13, M20-M27, M21-M25, M25-M26, M26-M23, M23-M24 are edges.
  M25 (green/blue/brown) is adjacent to M21 but shares no zone with it.
Card texts: the published cards (names and numbers; effects paraphrased in the hero files).
Case ids (Rnn): docs/rules.md.
"""


VOYAGES = [
    "Voyage Home",
    "Voyage to the Island That Was a Whale",
    "Voyage to the Valley of the Giant Snakes",
    "Voyage to the Creature With Eyes Like Coals of Fire",
    "Voyage to the Cannibals With the Root of Madness",
    "Voyage to the City of the Man-Eating Apes",
    "Voyage to the City of the King of Serendib",
]
HOME, WHALE, SNAKES, COALS, CANNIBALS, APES, SERENDIB = VOYAGES


def duel(medusa, sinbad, active=0):
    """Position: seat 0 Medusa, seat 1 Sinbad; ``active`` 0 = Medusa's turn."""
    return {"battlefield": "marmoreal", "active": active,
            "players": [{"hero": "medusa", **medusa}, {"hero": "sinbad", **sinbad}]}
