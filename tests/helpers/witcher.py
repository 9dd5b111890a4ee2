"""Card names, hero builders and the Marmoreal battlefield shared by the Witcher card tests
(test_cards_witcher.py, test_cards_geralt.py, test_cards_geralt_gear.py, test_cards_ciri.py,
test_cards_ancient_leshen.py). What those tests do and the facts they rely on:

Card tests for the Witcher heroes (Steel and Silver): Geralt of Rivia, Ciri and
the Ancient Leshen. Every card and every ability, the loadout rules, the ongoing
schemes, and the Witcher rules cases of docs/rules.md (R20, R54, R55,
R57, R58, R60, R61, R63, R64, R65; R07 with Geralt's Riposte).

Each test builds an exact position with the scenario API (Marmoreal unless
stated), resolves one step (or a few steps on one Scenario, same turn unless an
end_of_turn step is run) with scripted choices and asserts the numbers the card
changes: health, piles by name, spaces, combat values and winner, actions left,
the ongoing scheme in result["players"][i]["ongoing"].

Map facts used below (sim/battlefields/marmoreal.toml):
  red zone = M07 M13 M20 M21; M20 is adjacent to M13, M21 and M27 (M27 brown only).
  Lines: M13-M07-M01-M02, M07-M08, M20-M21-M25-M26-M23-M24, M20-M27-M28-M29-M30-M31.
  M13 and M21 are both red but not adjacent.
Kaer Morhen (R20): one-way path KM04 -> KM12 (adjacent both ways, movement down only).
Card texts: the published cards (names and numbers; effects paraphrased in the hero files).
Rules: the Steel & Silver set rules; project decisions in docs/rules.md
(one ongoing scheme per hero, discard conditions only at the end of the owner's
turn; Ciri at 7+ Source protects every card her player plays; Wolves start on the
battlefield, rules option summon_start_off_board; the game ends as soon as a hero
is defeated).

The tests of Pushed to the Brink, The Lady of Space and Time, Yrden against placing,
swapping and summoning, and the scenario's loadout and started_on checks first ran as
strict xfails: they found those engine bugs, which are fixed.
"""
from sim.content.battlefields import load_battlefield

BF = load_battlefield("marmoreal")

GERALT = "Geralt of Rivia"
DANDELION = "Dandelion"
CIRI = "Ciri"
IHU = "Ihuarraquax"
LESHEN = "Ancient Leshen"

# Geralt's cards
IGNI = "Igni"
STEEL = "Sword of Steel"
SILVER = "Sword of Silver"
RIPOSTE = "Riposte"
YRDEN = "Yrden"
REND = "Rend"
DUELIST = "Disciplined Duelist"
UGLY = "Damn, You're Ugly"
TUNE = "Annoying Tune"
PLOT = "Plot Twist"
MEDALLION = "Wolf Medallion"
ARMOR = "Armor of the Forgotten Wolf"
SENSES = "Witcher Senses"
BLIZZARD = "Blizzard"
OWL = "Tawny Owl"
GEAR_OPTION = {STEEL: "steel", SILVER: "silver", MEDALLION: "medallion", ARMOR: "wolf-armor",
               BLIZZARD: "blizzard", OWL: "owl"}

# Ciri's cards
CUB = "Lion Cub of Cintra"
CHANNEL = "Channel the Source"
BANE = "Bane of the Aen Elle"
PUSHED = "Pushed to the Brink"
ZIREAEL = "Zireael"
LADY = "The Lady of Space and Time"
BLINK = "Blink"
SEARCHING = "Searching Strike"
PARRY = "Parry"
CHILD = "Child of the Elder Blood"
UNICORN = "Unicorn Ally"
# the 13 Source cards of Ciri's deck, in the order source(n) takes them
SOURCES = [ZIREAEL] * 3 + [LADY] * 2 + [CHILD] * 2 + [CUB] * 3 + [PUSHED] * 3

# the Leshen's cards
SLAM = "Primeval Slam"
FLOCK = "Flock of Birds"
HOWLS = "Disturbing Howls"
ABOUNDS = "Nature Abounds"
COMMAND = "Command the Forest"
PLANTED = "Planted Feet"
HARRY = "Harrying Strike"
WILY = "Wily Fighting"
GUARDIAN = "Primeval Guardian"
PACK = "Strength of the Pack"
VANISH = "Vanish into Murder"

# other heroes' cards used
HISS = "Hiss and Slither"


def geralt(loadout="steel+medallion+owl", **kw):
    return {"hero": f"geralt_of_rivia@{loadout}", **kw}


def ciri(**kw):
    return {"hero": "ciri", **kw}


def leshen(**kw):
    return {"hero": "ancient_leshen", **kw}


def source(n, filler=(), without=None):
    """A discard pile holding ``n`` Source cards other than ``without`` (plus non-Source ``filler``)."""
    cards = [c for c in SOURCES if c != without][:n]
    assert len(cards) == n
    return cards + list(filler)
