"""Constants of the replay checker: run configuration, violation codes and their
messages, the replay context layout, the tables read from the hero files, effect rows
and statistics."""
from __future__ import annotations

from sim.engine.layout import MAX_FIGHTERS, N_COUNTERS, N_FOG

HEROES = ("medusa", "sinbad")                                   # on every battlefield
ALL_HEROES = ("alice", "king_arthur", "medusa", "sinbad")       # every ordered pair ...
PAIR_BATTLEFIELDS = ("marmoreal", "sarpedon")                   # ... on these two
WITCHER = ("geralt_of_rivia", "ciri", "ancient_leshen")         # against each other and all
ALL_SEVEN = ALL_HEROES + WITCHER
WITCHER_BATTLEFIELDS = ("kaer_morhen", "fayrlund_forest")
COBBLE = ("dracula", "jekyll_hyde", "invisible_man", "sherlock_holmes")   # against each other and all
ALL_ELEVEN = ALL_SEVEN + COBBLE
COBBLE_BATTLEFIELDS = ("soho", "baskerville_manor")
GERALT = "geralt_of_rivia"
DECK_SIZE = 30
TURN_CAP = 200            # docs/rules.md project decision "Turn cap"
HAND_LIMIT = 7            # rules "Turn and actions"
ACTIONS = 2               # rules "Turn and actions": two actions, none may be skipped
EXHAUST_DAMAGE = 2        # rules "Exhaustion and team play": two damage per missing draw
RUN_SEED = 20240611
GAMES_CLASSIC = 250       # per Battle of Legends matchup (40 matchups): 10,000 games
GAMES_WITCHER = 150       # per Witcher matchup (66 matchups): 9,900 games
GAMES_COBBLE = 40         # per Cobble & Fog matchup (144 matchups): 5,760 games
N_GAMES_MIN = 10_000      # the slow run plays at least this many games in all
N_GAMES_NOJIT = 1         # plain-Python variant (~10 games/s): one game per matchup
LOG_ROWS = 20_000         # a 200-turn game logs a few thousand events at most
# Every invariant is checked strictly (no known engine fault is tolerated); the cases that are
# easy to get wrong have their own tests, e.g. an ongoing scheme whose effect ends the game does
# not enter play (test_ongoing_scheme_does_not_enter_play_after_game_over) and Bane of the Aen
# Elle hits no one when Ihuarraquax does not move (test_bane_of_the_aen_elle_hits_no_one_without_moving).
TOLERATE_KNOWN_BUGS = 0

# ------------------------------------------------------------- violation codes
OK = 0
E_PILE_SIZE = 1
E_CARD_FOREIGN = 2
E_CARD_COUNT = 3
E_SHARE_SPACE = 4
E_HEALTH_RANGE = 5
E_IN_PLAY = 6
E_DEFEATED_ON_BOARD = 7
E_STATUS = 8
E_MAXHP = 9
E_POS_MISMATCH = 10
E_HP_MISMATCH = 11
E_PILES_MISMATCH = 12
E_HERO_DOWN_GAME_ON = 13
E_MOVE_FROM = 14
E_MOVE_SAME = 15
E_MOVE_DEST = 16
E_MOVE_PATH = 17
E_MOVE_THROUGH = 18
E_MOVE_BUDGET = 19
E_MOVE_WHO = 20
E_PLACE = 21
E_SETUP = 22
E_RETURN = 23
E_DAMAGE = 24
E_DEFEAT = 25
E_RECOVER = 26
E_TURN_ORDER = 27
E_ATTACK = 28
E_BOOST = 29
E_LOG_FULL = 30
E_NO_END = 31
E_END_REASON = 32
E_END_CAP = 33
E_END_WINNER = 34
E_END_LOG = 35
E_EVENT = 36
E_CARD_FLOW = 37
E_CARD_PLAY = 38
E_COMBAT = 39
E_DAMAGE_SOURCE = 40
E_HEAL_SOURCE = 41
E_COUNTER = 42
E_CHOOSE = 43
E_EXHAUST = 44
E_HAND_LIMIT = 45
E_AFTER_END = 46
E_CANCEL = 47
E_PIN = 48
E_SWAP = 49
E_ONGOING = 50
E_GAIN = 51
E_END_TURN = 52
E_DORMANT = 53
E_REMOVE = 54
E_ACTIONS = 55
E_FOG = 56
E_REPLACE = 57
E_GUESS = 58
E_ABILITY = 59
E_REDIRECT = 60
E_DEFENDER = 61

MESSAGES = {
    E_REDIRECT: "EV_REDIRECT or the damage after it not allowed by the before_damage ability: not the fighter it "
                "protects, a taker not of the file, not adjacent or not of the kind named, not followed by the "
                "taker's damage, more than the cap, or a part where the whole is taken (no split)",
    E_PILE_SIZE: "a pile size is outside 0..MAX_CARDS",
    E_CARD_FOREIGN: "a pile holds a card id that is not in this hero's deck (other hero's card? unchosen gear?)",
    E_CARD_COUNT: "cards not conserved: deck+hand+discard+ongoing differs from the hero's 30-card deck",
    E_SHARE_SPACE: "two fighters in play share a space",
    E_HEALTH_RANGE: "a fighter's health is outside 0..max health",
    E_IN_PLAY: "an in-play fighter has health < 1 or no valid space",
    E_DEFEATED_ON_BOARD: "a defeated/removed fighter is still on the board (or has health > 0)",
    E_STATUS: "unexpected fighter status for the slot (or removed vs defeated differs from the replayed health)",
    E_MAXHP: "a fighter's max health differs from its hero file",
    E_POS_MISMATCH: "fighter positions replayed from the log differ from the state",
    E_HP_MISMATCH: "fighter health replayed from the log differs from the state",
    E_PILES_MISMATCH: "hand / discard pile / ongoing scheme replayed from the log differ from the state",
    E_HERO_DOWN_GAME_ON: "a hero is defeated but the game goes on",
    E_MOVE_FROM: "EV_MOVE: 'from' is not the fighter's replayed space (or it is off the board)",
    E_MOVE_SAME: "EV_MOVE: destination equals the start",
    E_MOVE_DEST: "EV_MOVE: destination invalid or occupied",
    E_MOVE_PATH: "EV_MOVE: no path within budget avoiding fighters opposing the moved fighter",
    E_MOVE_THROUGH: "EV_MOVE: through=1 without an effect that moves through opposing fighters",
    E_MOVE_BUDGET: "EV_MOVE: budget is not the one the rules/cards give (or the card is cancelled)",
    E_MOVE_WHO: "EV_MOVE: a fighter moved that may not move now (wrong fighter/window/condition, or twice)",
    E_PLACE: "EV_PLACE: wrong source, fighter, destination occupied/invalid, or no live place/summon effect",
    E_SETUP: "EV_SETUP: space invalid/occupied or fighter already placed",
    E_RETURN: "EV_RETURN: fighter on the board, destination occupied/invalid, or no live return/summon effect",
    E_DAMAGE: "EV_DAMAGE: inconsistent damage (off-board target, amount < 1, wrong health after)",
    E_DEFEAT: "EV_DEFEATED missing after health 0, or defeat of a fighter with health",
    E_RECOVER: "EV_RECOVER/EV_SET_HP: inconsistent or above max health",
    E_TURN_ORDER: "turns do not alternate / are not numbered 1, 2, 3, ... / action by the wrong player",
    E_ATTACK: "EV_ATTACK: attacker/target off board, same team, or target out of range",
    E_BOOST: "EV_BOOST: wrong value, or a BOOST no rule/card/ability allows here",
    E_LOG_FULL: "event log full: test log too small",
    E_NO_END: "game did not end by the turn cap",
    E_END_REASON: "game ended for a reason other than hero defeated / turn cap",
    E_END_CAP: "turn-cap end is inconsistent (turn count, draw, heroes alive)",
    E_END_WINNER: "hero-defeated end is inconsistent (winner's hero not alive or loser's hero health != 0)",
    E_END_LOG: "last event is not EV_GAME_OVER(winner, reason)",
    E_EVENT: "malformed event (fighter/player/card/code out of range)",
    E_CARD_FLOW: "a card left a pile the replay does not have it in, or without an effect allowing it",
    E_CARD_PLAY: "a card was played against its type or fighter banner, or by the wrong player",
    E_COMBAT: "combat damage inconsistent with the values / prevention, or not dealt at once",
    E_DAMAGE_SOURCE: "effect damage not explained by a live damage effect (amount, target, window, once)",
    E_HEAL_SOURCE: "recover / set-health not explained by a live effect (amount, target, condition)",
    E_COUNTER: "a hero counter changed without a live counter effect, or differs from the state",
    E_CHOOSE: "EV_CHOOSE: no live 'choose' effect, option out of range, repeated, or too many",
    E_EXHAUST: "exhaustion with a non-empty deck, or its damage not exactly 2 per missing draw to each fighter",
    E_HAND_LIMIT: "the active player ends the turn with more than 7 cards",
    E_AFTER_END: "events logged after EV_GAME_OVER (detail: first event, how many, 1 if all EV_CHOOSE, 2 if all "
                 "EV_ONGOING)",
    E_CANCEL: "EV_CANCEL without a live 'cancel' effect on the other card, against no card, "
              "or its success differs from the card's protection (Ciri at 7+ Source)",
    E_PIN: "a pinned fighter moved, was swapped or placed this turn, or EV_PIN without a live pin effect on it",
    E_SWAP: "EV_SWAP: not the card's fighter and an adjacent one on the board, or no live swap effect",
    E_ONGOING: "ongoing scheme: entered play not as the scheme just played / a second one / a non-ongoing card, "
               "an ongoing-tagged scheme discarded, discarded mid-turn unreplaced, or discarded (kept) at the "
               "end of its owner's turn although its condition does not (does) hold",
    E_GAIN: "EV_GAIN_ACTION for a non-active player, blocked by an opposing Blizzard, or without a live effect",
    E_END_TURN: "EV_END_TURN without a live end_turn effect",
    E_DORMANT: "a player with no fighter on the board took an action or was made to discard / ignore",
    E_REMOVE: "EV_REMOVE without a live effect, or the removed hero not placed first thing in the owner's next "
              "turn (then the on_return draws), or placed at another time",
    E_ACTIONS: "actions not numbered 1..2+gained, an action after the turn ended, or too few actions although "
               "the turn was not ended, the player not dormant and the game not over",
    E_FOG: "fog: a token placed or moved without a live effect (who, distance, destination, which token), "
           "fog on more than 3 spaces, fog of a hero without fog, or the replayed fog differs from the state",
    E_REPLACE: "EV_REPLACE without a live replace effect, of another card than the one in play, or a new card "
               "not in the hand / not playable by the fighter for that side",
    E_GUESS: "EV_GUESS / EV_SET_PRINTED without a live effect, or a named value no card the opponent may still "
             "have carries (public information: deck list minus discard pile), or a wrong printed value",
    E_DEFENDER: "EV_DEFENDER: not the defender's player's other fighter on the board, not in the combat's "
                "Immediately window, or no live become_defender effect on the defense card",
    E_ABILITY: "EV_ABILITY of an end_of_turn, after_attack, after_defense or fighter_defeated ability at the wrong "
               "moment: not the active player's end of turn, not after its fighter's attack or defense (the "
               "defender's first), not its defeated fighter, or unbalanced",
}

# ------------------------------------------------------------- replay context
CX_TURN = 0        # last EV_TURN number seen (0 during setup)
CX_KIND = 1        # current action kind, -1 outside actions
CX_PLAYER = 2      # active player
CX_BOOST = 3       # maneuver BOOST value of the current action
CX_PHASE = 4       # PH_* (which effect windows are live)
CX_CANCEL0 = 5     # effects of the slot-0 (attack) card cancelled
CX_CANCEL1 = 6     # effects of the slot-1 (defense) card cancelled
CX_DOWN = 7        # fighter whose health just reached 0 (EV_DEFEATED must follow), -1
CX_BONUS0 = 8      # per player: maneuver bonus of the cards in the discard pile (from the log)
CX_SRC0 = 10       # per slot (0: attack card / scheme / ability; 1: defense card / ongoing scheme): source id, -1
CX_SP0 = 12        # per slot: the source's player
CX_SF0 = 14        # per slot: the source's fighter ("self")
CX_CHOSEN0 = 16    # per slot: bitmask of 'choose' options picked
CX_NCHOSEN0 = 18   # per slot: number of options picked
CX_ATT = 20        # attacker of the current combat, -1
CX_DEFF = 21       # defender of the current combat, -1
CX_WON = 22        # 1 attacker won, 0 defender won, -1 not decided
CX_CDMG = 23       # combat damage that must be dealt by the next event, 0 none
CX_EXH_P = 24      # player whose fighters take exhaustion damage now, -1
CX_EXH_N = 25      # its amount
CX_EXH_MASK = 26   # fighters damaged so far
CX_EXH_WANT = 27   # fighters that must be damaged
CX_LOOK = 28       # cards still to be kept from a look at the deck top, 0 none
CX_LAST_TAKE = 29  # pile of the last EV_TAKE
CX_FDBOOST = 30    # 1 once a face-down attack BOOST was played in this combat
CX_OUT0 = 32       # per player: cards out of the deck (hand + discard + in play)
CX_CNT0 = 34       # per player: N_COUNTERS hero counters
CX_PINNED = CX_CNT0 + 2 * N_COUNTERS   # bit per fighter: pinned this turn
CX_PASSED = CX_PINNED + 1    # bit per fighter: a tracked move of this action could go through it
CX_ACTNO = CX_PASSED + 1     # actions taken this turn
CX_ALLOWED = CX_ACTNO + 1    # actions the turn has: 2 + gained
CX_ENDED = CX_ALLOWED + 1    # 1 once an effect ended the turn
CX_EOT = CX_ENDED + 1        # 1 once the end-of-turn steps began (ongoing scheme discarded)
CX_ATTACKED0 = CX_EOT + 1    # per player: one of its fighters attacked this turn
CX_RET0 = CX_ATTACKED0 + 2   # per player: removed hero to place next turn: removing card id + 1, 0 none
CX_MUSTPLACE = CX_RET0 + 2   # player whose removed hero must be placed by the next event, -1
CX_RETDRAW = CX_MUSTPLACE + 1    # draws still due after a return placement
CX_RETDRAW_P = CX_RETDRAW + 1    # ... by this player
CX_TOOKDECK = CX_RETDRAW_P + 1   # the last search of this action took its card from the deck
CX_MUST_SHUFFLE = CX_TOOKDECK + 1  # the scheme must still be shuffled into the deck
CX_LAST_CARD = CX_MUST_SHUFFLE + 1  # card of the last EV_TAKE
CX_DORM0 = CX_LAST_CARD + 1  # per player: dormant (no fighter on the board at the end of the last action)
CX_OVER = CX_DORM0 + 2       # 1 once EV_GAME_OVER was logged
CX_FOG0 = CX_OVER + 1        # per player: N_FOG fog token spaces (-1 none)
CX_LASTTOK = CX_FOG0 + 2 * N_FOG   # fog token the last fog move of this action moved (owner * N_FOG + token), -1
CX_LASTFOG = CX_LASTTOK + 1  # ... and where it went, -1
CX_LBOOST = CX_LASTFOG + 1   # BOOST of the card last discarded by an effect or revealed (this action)
CX_NDISC0 = CX_LBOOST + 1    # per slot: cards its source's effects discarded in this action ("discarded")
CX_SRCDMG0 = CX_NDISC0 + 2   # per slot: effect damage its source dealt in this action (Prey Upon)
CX_MOVED = CX_SRCDMG0 + 2    # fighter the last card move of this action moved, -1
CX_GUESS = CX_MOVED + 1      # value named by the last EV_GUESS, -1
CX_CDEALT = CX_GUESS + 1     # combat damage of the current combat (EV_VALUES), 0 before it
CX_START0 = CX_CDEALT + 1    # per player (4): the space its hero was set up on
CX_KOSAVE = CX_START0 + 4    # a fighter_defeated ability is resolving (1, else 0), and what it interrupted:
CX_KOSAVE_N = 11             # ... slot 0's source, player, fighter, cancel, options picked (2), discards,
                             # damage dealt, the phase and the action kind (restored by its closing line)
CX_KOUSED0 = CX_KOSAVE + CX_KOSAVE_N   # ... and slot 0's used rows (MAX_FIGHTERS)
CX_RD_F = CX_KOUSED0 + MAX_FIGHTERS   # fighter whose damage EV_REDIRECT lines split (before_damage), -1
CX_RD_G = CX_RD_F + 1        # fighter whose EV_DAMAGE must come next (it takes a part), -1
CX_RD_N = CX_RD_F + 2        # ... that part
CX_RD_SUM = CX_RD_F + 3      # damage of CX_RD_F kept off by the cap or taken by others so far
CX_RD_OTHERS = CX_RD_F + 4   # ... of which taken by others
CX_RD_WHOLE = CX_RD_F + 5    # 1: a taker took all that was left (no split): CX_RD_F takes nothing more
CX_RD_COMBAT = CX_RD_F + 6   # 1: the lines split combat damage
CX_SIZE = CX_RD_F + 7

# phases: which effect windows are live (values >= 2 equal the window code)
PH_NONE = -1
PH_EARLY = 0       # combat after both cards: IMMEDIATELY and DURING effects
PH_DECLARED = 1    # attack card played, defense not yet
PH_AFTER = 2
PH_SCHEME = 3
PH_START = 4
PH_SETUP = 5
PH_MANEUVER = 6    # a maneuver: the after_maneuver ability rows are live (== WN_AFTMAN)
PH_EOT = 7         # the end of the turn after EV_ABILITY (end_of_turn): its rows are live (== WN_EOT)
PH_AFTATK = 8      # after an attack, after EV_ABILITY (after_attack) (== WN_AFTATK)
PH_KO = 10         # a fighter_defeated ability, from its EV_ABILITY to its closing line (== WN_KO)
PH_AFTDEF = 11     # after a combat, after EV_ABILITY (after_defense): the defender's ability (== WN_AFTDEF)

# card piles tracked from the log (per player, per card id)
K_HAND = 0
K_DISC = 1
K_PEND = 2         # played this action, on its way to the discard pile
K_ONG = 3          # ongoing scheme in play
N_PILES = 4

# fighter expectations (from the hero files), per fighter slot
XF_USED = 0
XF_MAXHP = 1
XF_MOVE = 2
XF_RANGED = 3
XF_KIND = 4        # 0 hero, k: k-th sidekick kind of the hero file
XF_FLAGS = 5       # hero slot: FL_* of the hero's ability
XF_PTAG = 6        # hero slot: uncancelable_with tag bits (Ciri: source)
XF_PN = 7          # hero slot: ... with at least this many such cards in the discard pile, 0 none
XF_KO = 8          # hero slot: fighter_defeated ability: 0 none, -1 any fighter, k + 1 fighter kind k only
XF_BD_TAKE = 9      # a fighter the before_damage ability protects: 1 adjacent / 2 any other fighter may take
XF_BD_BY = 10       # ... only fighters of this kind + 1 (0 any)
XF_BD_SPLIT = 11    # ... any part each (1) or all of it (0)
XF_BD_COMBAT = 12   # ... combat damage only (1)
XF_BD_CAP = 13      # ... it takes at most XF_BD_CAP - 1 of each damage (0 no cap)
XF_FIELDS = 14
FL_BOOST_ATTACK = 1
FL_FOG_WALK = 2    # Invisible Man: has 3 fog tokens and moves between their spaces as if adjacent
FL_FORMS = 4       # Jekyll & Hyde: counter slot 0 is the form, cards may need a form

# card info (from the hero files), per card id
CI_BOOST = 0
CI_TYPE = 1        # CTY_*
CI_FMASK = 2       # bit k: fighter kind k may play it
CI_TAGS = 3        # bit per tag name (global numbering of this test)
CI_VALUE = 4       # printed value, -1 for schemes
CI_ONGOING = 5     # 1: tags include "ongoing"
CI_UNCANCEL = 6    # 1: tags include "uncancelable"
CI_PASSIVE = 7     # PV_* of an ongoing scheme
CI_DROW = 8        # row of ``eff`` holding the ongoing scheme's discard_if condition, -1 none
CI_RETDRAW = 9     # cards drawn by its on_return (after remove_from_board)
CI_FORM = 10       # the form the card needs + 1 (Jekyll & Hyde), 0 any
CI_FIELDS = 11
CTY_ATTACK = 0
CTY_DEFENSE = 1
CTY_VERSATILE = 2
CTY_SCHEME = 3
CARD_TYPES = {"attack": CTY_ATTACK, "defense": CTY_DEFENSE, "versatile": CTY_VERSATILE, "scheme": CTY_SCHEME}
PV_NO_OPP_ACTIONS = 1
PV_IGNORE_DISCARD = 2
PV_DRAW_AFTER_COMBAT = 4
PASSIVES = {"no_opponent_actions": PV_NO_OPP_ACTIONS, "may_ignore_discards": PV_IGNORE_DISCARD,
            "draw_after_combat": PV_DRAW_AFTER_COMBAT}

# effect rows (from the hero files): one per checked step of a card window or ability hook
EF_OP = 0
EF_WIN = 1         # WN_*
EF_N = 2           # amount / up_to / counter value
EF_THR = 3         # move through opposing fighters
EF_SEL = 4         # TS_*
EF_REF = 5         # RF_* or fighter kind
EF_SIDE = 6        # SD_*
EF_OTHER = 7       # "other": not the reference fighter
EF_ONE = 8         # the effect affects one fighter in all
EF_COND = 9        # CD_*
EF_CONDARG = 10
EF_OPT = 11        # option number of an enclosing 'choose', 0 none
EF_ARG = 12        # search: card id or tag bits; take_from_discard / discard_for_value: tag bits; choose: options
EF_TO = 13         # place / summon: TO_*
EF_TOREF = 14      # place / return / summon: reference fighter of the destination
EF_X = 15          # counter slot; look_top: cards kept; search: SF_*; reclaim: 1 to hand, 0 deck top
EF_NEG = 16        # the condition is negated ("unless")
EF_CARG2 = 17      # condition: tag tier "below" (0 none); fighter_in_zone: the fighter kind
EF_CTAG = 18       # condition: tag bits of a tag tier
EF_CREF = 19       # condition: fighter_in_zone: whose zone (RF_* or kind)
EF_EXCLOPP = 20    # target: leave out the opposing fighter of the combat
EF_TRACK = 21      # move: remember the opposing fighters it could go through
EF_RANGE = 22      # target 'within': spaces along lines
EF_BYTAG = 23      # search: EF_ARG holds tag bits
EF_PER = 24        # damage / recover: PX_* multiplier of EF_N
EF_PARG = 25       # its argument (fighter kind)
EF_FOG = 26        # FG_* bits (move_fog, move onto fog)
EF_WHO = 27        # move_fog: SD_OWN (you) / SD_OPP (your opponent) moves the token
EF_MATCH = 28      # discard: only a card of the value named before (Confirm Suspicion)
EF_UPTO = 29       # look_top: the player chooses how many cards, 1 up to EF_N (Calming Research; R71)
EF_C2 = 30         # a second condition (if = [a, b], or if with unless): 6 fields in the order of EF_C2_* below
EF_C2_COND, EF_C2_ARG, EF_C2_NEG, EF_C2_CARG2, EF_C2_CTAG, EF_C2_CREF = range(EF_C2, EF_C2 + 6)
EF_FIELDS = EF_C2 + 6

PX_NONE = 0
PX_LBOOST = 1      # BOOST of the card last discarded / revealed
PX_SRCDMG = 2      # damage the source dealt so far in this action (Prey Upon: "per damage dealt")
PX_ADJMOVED = 3    # the player's fighters of kind EF_PARG next to the damaged (moved) fighter
PX_CDMG = 4        # combat damage the attack dealt (slot 0 after EV_VALUES; else 0)
PX_OPPPRINTED = 5  # printed value of the other slot's combat card (0 none)
PX_ZONES = 6       # zones of the space of the fighter EF_PARG (RF_* or kind)
PX_UNCHECKED = 9   # any amount

FG_EMPTY = 1       # move_fog: to a space without a fighter
FG_DIFF = 2        # move_fog: not the token the last fog move moved
FG_UNDER = 4       # move_fog: the token on the hero's space
FG_EACH = 8        # move_fog: every token (once each)
FG_ONTO = 16       # move: must end on a space with one of the player's fog tokens

OX_MOVE = 1
OX_PLACE = 2
OX_DAMAGE = 3
OX_DSPACES = 4
OX_RECOVER = 5
OX_SETHP = 6
OX_PREVENT = 7
OX_RETURN = 8
OX_FLIP = 9
OX_SETCNT = 10
OX_CHOOSECNT = 11
OX_DISCTOP = 12
OX_SEARCH = 13
OX_LOOKTOP = 14
OX_TAKEDISC = 15
OX_CHOOSE = 16
OX_BOOST = 17
OX_DISCARD = 18
OX_CANCEL = 19
OX_PIN = 20
OX_SWAP = 21
OX_SUMMON = 22
OX_REMOVE = 23
OX_DISCFV = 24     # discard_for_value
OX_RECLAIM = 25
OX_SELFDECK = 26   # shuffle_into_deck
OX_GAIN = 27
OX_ENDTURN = 28
OX_COND = 29       # a bare condition (an ongoing scheme's discard_if), never an effect
OX_PLACEFOG = 30
OX_MOVEFOG = 31
OX_REPLACE = 32
OX_SETPRINTED = 33
OX_GUESS = 34      # predict (EF_X 0) / name_value (EF_X 1)
OX_REVEAL = 35
OX_HANDDECK = 36
OX_TOHAND = 37     # return_to_hand
OX_ARRANGE = 38    # arrange_top (EF_WHO: whose deck; EF_X 1: cards may go to the bottom)
OX_DEFENDER = 39   # become_defender (the target defends from now on)

WN_IMM = 0
WN_DUR = 1
WN_AFT = 2
WN_EFF = 3
WN_START = 4       # ability start_of_turn, and an ongoing scheme's ongoing_start_of_turn
WN_SETUP = 5
WN_AFTMAN = 6      # ability after_maneuver (Mr. Hyde's 1 damage)
WN_EOT = 7         # ability end_of_turn (Bigfoot)
WN_AFTATK = 8      # ability after_attack (Robin Hood)
WN_NEVER = 9
WN_KO = 10         # ability fighter_defeated (Achilles)
WN_AFTDEF = 11     # ability after_defense (Achilles: a won defense draws)
CARD_WINDOWS = {"immediately": WN_IMM, "during": WN_DUR, "after": WN_AFT, "effect": WN_EFF,
                "ongoing_start_of_turn": WN_START, "on_play": WN_IMM}

TS_SELF = 1
TS_OPP = 2
TS_COMBATANT = 3
TS_KIND = 4        # each of the player's fighters of kind REF (hero or sidekick by name)
TS_OWN = 5
TS_ALL = 6         # any fighter passing the side filter
TS_ZONE = 7        # in the zone of a REF fighter
TS_ADJ = 8         # adjacent to a REF fighter
TS_SPACES = 9      # on a space in REF's zone or on a space next to one (damage_spaces)
TS_WITHIN = 10     # within EF_RANGE spaces (along lines) of a REF fighter
TS_PASSED = 11     # a fighter the tracked move of this action could go through
TS_OPPHERO = 12    # the opponent's hero
TS_MOVED = 13      # the fighter the last card move of this action moved (any, if none was seen moving)
TS_FOG = 14        # on a space with one of the player's fog tokens

SD_ANY = 0
SD_OPP = 1
SD_OWN = 2
RF_SELF = -1
RF_OPP = -2

CD_ALWAYS = 0
CD_WON = 1
CD_NOT_WON = 2
CD_HERO_HP_AT_MOST = 3
CD_TAG_TIER = 4    # CONDARG <= cards with tag CTAG in your discard pile (< CARG2 unless 0)
CD_OPP_HP_AT_LEAST = 5
CD_OPP_PRINTED_EQ = 6
CD_OPP_PRINTED_AT_LEAST = 7
CD_ATTACKED = 8    # one of your fighters attacked this turn
CD_UNCHECKED = 9   # a condition this test does not evaluate (the effect may or may not apply)
CD_HAND_AT_LEAST = 10
CD_KIND_IN_ZONE = 11   # one of your fighters of kind CARG2 (not CREF itself) is in the zone of CREF
CD_TOOK_FROM_DECK = 12
CD_COUNTER = 13    # counter EF_CONDARG is (EF_CTAG 1: is not) EF_CARG2, in role EF_CREF (1 attacking, 2 defending)
CD_ON_FOG = 14     # the player's hero is on a space with one of its fog tokens
CD_DISCARDED = 15  # a discard step of the same source discarded a card in this action
CD_FIRST_ACTION = 16
CD_KIND_DEFEATED = 17  # one of the player's fighters of kind CREF is defeated (off the board at 0 health)
CD_KIND_ON_BOARD = 18  # one of the player's fighters of kind CREF is on the board
CD_NO_OPP_IN_ZONE = 19  # fighter CREF (RF_* or kind: the first on the board) is on it with no opposing fighter in its zone
CD_AWAY_START = 20     # fighter CREF is on the board, its space in no zone of the player's start space

TO_ANY = 0
TO_ZONE = 1
TO_ADJ = 2
TO_LASTFOG = 3     # the space the last fog move of this action went to (Slip Away)

SF_DISC_THEN_DECK = 0
SF_DECK = 1
SF_DISC = 2
SF_DECK_OR_DISC = 3

# what an event asks match_effect to explain
WANT_MOVE = 1
WANT_PLACE = 2
WANT_DAMAGE = 3
WANT_RECOVER = 4
WANT_SETHP = 5
WANT_RETURN = 6
WANT_COUNTER = 7
WANT_DISCTOP = 8
WANT_TAKE = 9
WANT_LOOK = 10
WANT_SEARCH = 11
WANT_CHOOSE = 12
WANT_BOOST = 13
WANT_DISCARD = 14
WANT_CANCEL = 15
WANT_PIN = 16
WANT_SWAP = 17
WANT_REMOVE = 18
WANT_RECLAIM_TOP = 19
WANT_SELFDECK = 20
WANT_GAIN = 21
WANT_ENDTURN = 22
WANT_IGNORE = 23
WANT_FOG = 24
WANT_REPLACE = 25
WANT_SETPRINTED = 26
WANT_GUESS = 27
WANT_REVEAL = 28
WANT_HANDDECK = 29
WANT_TOHAND = 30   # the card just resolved goes back to the hand (return_to_hand)
WANT_ARRANGE = 31  # a deck's top cards looked at and put back (arrange_top)
WANT_DEFENDER = 32  # another fighter defends (become_defender)

# statistics accumulated by the runs
SX_GAMES = 0
SX_TURNS = 1
SX_EVENTS = 2
SX_MOVES = 3
SX_MOVES_MANEUVER = 4
SX_MOVES_CARD = 5
SX_MOVES_THROUGH = 6
SX_THROUGH_NEEDED = 7   # through moves that had no path avoiding opposing fighters
SX_DETOURS = 8          # moves whose shortest legal path is longer than the unobstructed one
SX_PASS_FRIEND = 9      # moves whose only paths within budget pass a friendly fighter
SX_ATTACKS = 10
SX_PLACES = 11          # EV_PLACE + EV_RETURN
SX_DEFEATED_END = 12
SX_CAP_END = 13
SX_WIN0 = 14
SX_WIN1 = 15
SX_STATE_CHECKS = 16
SX_MOVES_OPPONENT = 17  # card moves of a fighter the card's player does not own
SX_FACE_DOWN = 18       # face-down attack BOOSTs
SX_PREVENTED = 19       # combats whose positive damage was prevented
SX_SET_HP = 20
SX_RECOVERS = 21
SX_EFFECT_DAMAGE = 22
SX_EXHAUST_DAMAGE = 23
SX_COUNTERS = 24
SX_CHOOSES = 25
SX_LOOKS = 26
SX_SEARCHES = 27
SX_DISCARD_TOPS = 28
SX_SPACES_DAMAGE = 29
SX_TAKES_DISC = 30
SX_COMBAT_DAMAGE = 31
SX_PINS = 32
SX_PINNED_MANEUVERS = 33  # maneuvers of a player with a fighter pinned (it may not move)
SX_SWAPS = 34
SX_ONGOING_IN = 35       # ongoing schemes put in play
SX_ONGOING_REPLACED = 36
SX_ONGOING_EOT = 37      # ongoing schemes discarded at the end of the owner's turn
SX_ONGOING_KEPT = 38     # ends of turn with an ongoing scheme kept in play
SX_GAINS = 39
SX_END_TURNS = 40
SX_IGNORES = 41
SX_REMOVES = 42
SX_RETURN_PLACES = 43
SX_SUMMON_RETURNS = 44
SX_SUMMON_PLACES = 45
SX_DORMANT_ENDS = 46     # turns cut short because the player had no fighter left on the board
SX_RECLAIM_TOP = 47
SX_RECLAIM_HAND = 48
SX_SELF_TO_DECK = 49
SX_PASSED_DAMAGE = 50
SX_WITHIN_DAMAGE = 51
SX_PROTECTED = 52        # cancels that failed against a protected card
SX_DISCARD_FOR_VALUE = 53
SX_ONEWAY_DETOURS = 54   # moves whose legal path is longer than it would be with two-way arrows
SX_ONGOING_START = 55    # effects of an ongoing scheme at the start of its owner's turn
SX_KNOWN_AFTER_END_BUG = 57  # games whose only events after EV_GAME_OVER are the known bug (KNOWN_BUGS)
SX_FOG_PLACES = 58       # fog tokens placed at setup
SX_FOG_MOVES = 59        # fog tokens moved by cards
SX_FOG_WALKS = 60        # moves of the Invisible Man possible only through the fog
SX_PASSAGE_MOVES = 61    # moves possible only through a secret passage (Baskerville Manor)
SX_REPLACES = 62         # attack cards replaced (Do My Bidding)
SX_GUESSES = 63          # values named or predicted (Elementary, Confirm Suspicion)
SX_SET_PRINTED = 64      # printed values changed (Deduce Strategy)
SX_REVEALS = 65          # deck-top cards revealed into the hand (Strange Case)
SX_HAND_TO_DECK = 66     # cards put from the hand on top of the deck (Coded Notes)
SX_AFTER_MANEUVER = 67   # damage after a maneuver (Mr. Hyde)
SX_FORM_CARDS = 68       # cards with a form played (Jekyll & Hyde)
SX_FOG_EFFECT_DAMAGE = 69  # damage to fighters on fog (Dreaming of Revenge)
SX_REDIRECTS = 70        # damage taken in another fighter's place or kept off by a cap (before_damage)
SX_CAPPED = 71           # damage capped by a card (prevent_damage with at_most)
SX_TO_HAND = 72          # cards back to the hand once resolved (return_to_hand)
SX_ARRANGES = 73         # deck tops arranged (arrange_top)
SX_DEFENDERS = 74        # defenders changed (become_defender)
SX_FIELDS = 75

# per-game output
R_CODE = 0
R_TURN = 1          # turn (take_turn calls) when the violation was found
R_EVENT = 2         # log row of the offending event, -1 for a state check
R_WINNER = 3        # G_WINNER
R_REASON = 4
R_TURNS = 5         # take_turn calls
R_HP0 = 6
R_HP1 = 7
R_LOGHASH = 8
R_STHASH = 9
R_SEED = 10
R_DETAIL = 11       # 3 detail values
R_FIELDS = 14
