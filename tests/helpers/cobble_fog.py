"""Card names, hero builders and battlefields shared by the Cobble & Fog card tests
(test_cards_cobble_fog.py, test_cards_dracula.py, test_cards_jekyll_hyde.py,
test_cards_invisible_man.py, test_cards_sherlock_holmes.py). What those tests do and the
facts they rely on:

Card tests for the Cobble & Fog heroes: Dracula, Dr. Jekyll & Mr. Hyde, the Invisible
Man and Sherlock Holmes. Every card and every ability, and the Cobble & Fog rules cases of
docs/rules.md (R02, R08, R17, R21, R22, R37, R38, R40, R42-R46, R48, R49, R51, R52,
R55 (c)); the test name carries the case id.

Each test builds an exact position with the scenario API (Soho unless stated), resolves one
step (or a few steps on one Scenario) with scripted choices and asserts the numbers the card
changes: health, piles by name, spaces, fog token spaces, combat values and winner, actions
left.

Map facts used below (sim/battlefields/soho.toml; checked by test_map_facts_used_by_these_tests):
  lines SH01-SH02-SH03-SH04-SH05-SH06-SH07-SH08-SH14-SH17-SH24-SH29-SH28-SH23-SH16-SH13-SH06,
  SH04-SH11-SH10-SH09-SH01, SH09-SH21-SH25-SH26-SH22-SH12-SH11, SH21-SH18-SH19-SH15-SH20-SH24,
  SH12-SH13, SH14-SH16, SH22-SH27-SH28, SH26-SH27.
  zones: navy = SH04 SH05 SH06 SH07 SH08 SH13 SH15 SH16; lightblue = SH01 SH02 SH03 SH04 SH10
  SH11; pink = SH07 SH08 SH14 SH16 SH17 SH20 SH24; red = SH21 SH22 SH25 SH26 SH27 SH28.
Baskerville Manor (R21): passage spaces BM04, BM09, BM15, BM26; BM04-BM01-BM05 is a line.
Card texts: the published cards (names and numbers; effects paraphrased in the hero files).
Rules: the Cobble & Fog rules; project decisions in docs/rules.md (Jekyll/Hyde cards of
the other form cannot be played, rules option off_form_cards; passages are for movement only;
the game ends as soon as a hero is defeated).
"""
from functools import partial

from helpers import cards
from helpers.cards import hero

from sim.content.battlefields import load_battlefield

SH = load_battlefield("soho")

DRACULA = "Dracula"
JH = "Dr. Jekyll & Mr. Hyde"
IM = "Invisible Man"
HOLMES = "Sherlock Holmes"
WATSON = "Dr. Watson"
S1, S2, S3 = "Sister 1", "Sister 2", "Sister 3"

# Dracula's cards
BEASTFORM = "Beastform"
FRENZY = "Feeding Frenzy"
THIRST = "Thirst for Sustenance"
AMBUSH = "Ambush"
DASH = "Dash"
FEINT = "Feint"
EXPLOIT = "Exploit"
BIDDING = "Do My Bidding"
EYES = "Look Into My Eyes"
MISTFORM = "Mistform"
PREY = "Prey Upon"
BAPTISM = "Baptism of Blood"
SEDUCTION = "Ravening Seduction"
# Jekyll & Hyde's cards
RECOIL = "Recoiling Blow"
FOREVER = "Forever Hyde"
DUALITY = "Duality of Man"
TRIAGE = "Distracted Triage"
SUCCUMB = "Succumb to Compulsion"
RELENTS = "Madness Relents"
SKIRMISH = "Skirmish"
HASTE = "With Haste!"
METHOD = "Scientific Method"
CALMING = "Calming Research"
EVIL = "Pure Evil"
STRANGE = "Strange Case"
# the Invisible Man's cards
SURPRISE = "Surprise Attack"
SLIP = "Slip Away"
EMERGE = "Emerge From Mist"
COVERT = "Covert Preparation"
REVENGE = "Dreaming of Revenge"
CONFOUND = "Confound"
UNSEEN = "Impossible to See"
LURKING = "Lurking"
THIN_AIR = "Into Thin Air"
CODED = "Coded Notes"
TERROR = "Reign of Terror"
VANISH = "Vanish"
STEP = "Step Lightly"
ROLLING = "Rolling Fog"
# Sherlock Holmes's cards
AFOOT = "The Game is Afoot"
REVOLVER = "Service Revolver"
DEDUCE = "Deduce Strategy"
COUNTER = "Counterpunch"
FIXED = "Fixed Point in a Changing Age"
EDUCATION = "Education Never Ends"
STUDY = "Study Methods"
ELEMENTARY = "Elementary"
CONFIRM = "Confirm Suspicion"
ELIMINATE = "Eliminate the Impossible"
DISGUISE = "Master of Disguise"
AID = "Administer Aid"
# other heroes' cards used
EXCALIBUR = "Excalibur"          # King Arthur: attack 6, BOOST 3, no effect
HISS = "Hiss and Slither"        # Medusa: versatile 4, BOOST 2... after: opponent discards 1
SNIPE = "Snipe"
APES = "Voyage to the City of the Man-Eating Apes"

game = partial(cards.game, battlefield="soho")      # a position on Soho unless stated


def dracula(**kw):
    return hero("dracula", **kw)


def holmes(**kw):
    return hero("sherlock_holmes", **kw)


def jekyll(form="Dr. Jekyll", **kw):
    return hero("jekyll_hyde", counters={"form": form}, **kw)


def invisible(fog=(), **kw):
    return hero("invisible_man", fog=list(fog), **kw)
