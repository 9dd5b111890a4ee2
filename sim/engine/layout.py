"""State layout of one game: a flat ``int64`` array with named offsets.

(DESIGN.md said int32; int64 is used so that every integer the compiled code
handles has one type: numba then compiles each function once instead of once
per mix of int32/int64 arguments, which cut the first compile from ~4 minutes.)

Everything the rules need to know about a game in progress lives in one
``np.ndarray`` of shape ``(STATE_SIZE,)`` and dtype ``int64``, so that a copy is
one memcpy (the AI tries actions on copies) and numba sees plain integers.
The array is sized for up to four players in two teams (players 0 and 2 are
team 0, players 1 and 3 are team 1), each with a hero and up to three
sidekicks.

The offsets are module-level integer constants; numba folds them into the
compiled code. Other engine modules index the state only through them:

* ``G_*``: game-wide slots (turn, active player, winner, random state, ...).
* ``fslot(f, F_*)``: fighter ``f`` (0..MAX_FIGHTERS-1); player ``p`` owns
  fighters ``p*FIGHTERS_PER_PLAYER ..``, slot 0 of each player is the hero.
* ``pslot(p, P_*)``: per-player scalars (pile sizes, actions left, hero
  counters such as Alice's size or Jekyll/Hyde's form, fog token spaces).
* ``DECK``, ``HAND``, ``DISC`` blocks: per player, ``MAX_CARDS`` card ids each.
  The top of the deck is the *last* filled entry.
* ``PLAYED`` block: per player, how many times each card of the hero file was
  played (attack, defense or scheme; boosts do not count).
* ``SPACE_COMBATS`` / ``SPACE_DEFEATS``: per space, combats fought with the
  defender there, and fighters defeated there (for battlefield heat maps).
* ``CB_*``: the combat in progress (cards, cancel flags, value layers).

Also defined here: card types, tag bits, decision kinds, event codes and the
rules-option indices shared by the compiler (``sim.content``) and the engine.
"""
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, I, LOG, ST, TB, V, jit  # noqa: F401

MAX_PLAYERS = 4
FIGHTERS_PER_PLAYER = 4
MAX_FIGHTERS = MAX_PLAYERS * FIGHTERS_PER_PLAYER
MAX_CARDS = 64          # per pile: deck, hand, discard
MAX_SIDEKICK_KINDS = 3
N_COUNTERS = 8          # hero-specific counters per player
N_FOG = 3               # fog tokens per player

# ---------------------------------------------------------------- game slots
G_TURN = 0          # turns completed so far (both players)
G_ACTIVE = 1        # active player
G_OVER = 2          # 1 once the game has ended
G_WINNER = 3        # winning team, -1 none yet, -2 draw
G_REASON = 4        # END_* code
G_RNG = 5           # xorshift32 state (stored signed)
G_NPLAYERS = 6
G_FIRST = 7         # player who took the first turn
G_ACTION_NO = 8     # actions taken this turn (1-based once an action starts)
G_ERR = 9           # ERR_* code when a scripted choice failed
G_ENDTURN = 10      # 1 when an effect ended the turn
G_LOGN = 11         # number of events written to the log
G_DECISIONS = 12    # decisions asked so far (for narration / debugging)
G_BF_SPACES = 13    # number of spaces on the battlefield
G_ACTIONS = 14      # actions the active player still has this turn
G_LAST_DMG = 15     # damage dealt by the last damage step (for "if you do")
G_LAST_KO = 16      # fighters defeated by the last damage step
G_LAST_BOOST = 17   # BOOST value of the last card discarded from a deck top
G_PASSED = 18       # bit mask of fighters the last tracked move passed through
G_FLAGS = 19        # GF_* bits about the card being resolved
G_GUESS = 20        # the value named by the last name_value step (Confirm Suspicion), -1 none
G_LAST_DISC = 21    # cards the last discard step discarded (for "if they do not")
G_MOVED = 22        # fighter chosen by the last move step, -1 none (Ravening Seduction)
G_FOG_TOKEN = 23    # fog token moved by the last move_fog step, -1 none
G_FOG_SPACE = 24    # where that token went, -1 none (Slip Away: place on that space)
G_OPPONENT = 25     # team games: the opposing player chosen as "your opponent" for the card or ability
                    # being resolved (effects.choose_opponent), -1 none; always 0 in duels
G_SIZE = 26
GF_TOOK_FROM_DECK = 1   # the last search took its card from the deck
GF_SELF_TO_DECK = 2     # the scheme being resolved goes into the deck (shuffled), not the discard

# ------------------------------------------------------------ fighter slots
F_STATUS = 0        # FS_* code
F_SPACE = 1         # space index, -1 when off the board
F_HP = 2
F_MAXHP = 3
F_OWNER = 4         # player index
F_KIND = 5          # 0 = hero, k = sidekick kind k (1-based)
F_MOVE = 6          # printed move value
F_RANGED = 7        # 1 ranged, 0 melee
F_START_SPACE = 8   # space at the start of its owner's current/last turn
F_NOLEAVE = 9       # 1: cannot leave its space this turn
F_LEFT = 10         # 1: left its space this turn
F_FIELDS = 12

FS_UNUSED = 0
FS_IN_PLAY = 1      # on the board
FS_DEFEATED = 2     # health reached 0 (sidekick removed; hero lost)
FS_REMOVED = 3      # off the board but not defeated (e.g. Vanish)

# ------------------------------------------------------------- player slots
P_HERO = 0          # row in the hero table
P_DECKN = 1
P_HANDN = 2
P_DISCN = 3
P_ONGOING = 4       # card id of the ongoing scheme in play, -1 none
P_ATTACKED = 5      # 1 if any of this player's fighters attacked this turn
P_HERO_ATTACKED = 6  # 1 if the hero attacked this turn
P_HAND_SEEN = 7     # 1 if the opponent has seen this hand since it last drew
P_RETURN = 8        # 1: hero was removed and returns at the start of next turn
P_NFIGHTERS = 9     # fighter slots in use
P_TEAM = 10
P_CARDS_PLAYED = 11  # cards played for their effects or value (not boosts)
P_COUNTER0 = 12     # N_COUNTERS hero counters (size, form, ...)
P_FOG0 = P_COUNTER0 + N_COUNTERS   # N_FOG fog token spaces (-1 none)
P_START_FOG = P_FOG0 + N_FOG   # 1: the hero began this player's current/last turn on a fog space
P_DEALT = P_START_FOG + 1      # damage (health points) this player's attacks and effects dealt to opposing fighters
P_FIELDS = P_DEALT + 1

# ------------------------------------------------------------ combat slots
CB_ACTIVE = 0       # 1 while a combat is being resolved
CB_ATT_F = 1        # attacking fighter
CB_DEF_F = 2        # defending fighter
CB_CARD0 = 3        # card of side 0 (attacker), -1 none
CB_CARD1 = 4        # card of side 1 (defender), -1 none
CB_ABOOST = 5       # face-down BOOST card played with the attack (King Arthur)
CB_CANCEL0 = 6      # effects on side-0 card cancelled
CB_CANCEL1 = 7
CB_PRINTED0 = 8     # printed value (may be changed by "set printed value")
CB_PRINTED1 = 9
CB_OVR0 = 10        # "this card's value is N instead", -1 none
CB_OVR1 = 11
CB_MOD0 = 12        # additive changes (+N, boosts)
CB_MOD1 = 13
CB_IGN0 = 14        # value ignored
CB_IGN1 = 15
CB_PREVENT = 16     # defender prevents all combat damage
CB_DMG = 17         # combat damage dealt by the attack itself
CB_WON = 18         # 1 attacker won, 0 defender won, -1 not decided yet
CB_VAL0 = 19        # final values, for narration
CB_VAL1 = 20
CB_ATT_P = 21       # attacking player
CB_DEF_P = 22       # defending player
CB_LOCK0 = 23       # value is 0 and card effects cannot change it (Impossible to See)
CB_LOCK1 = 24
CB_GUESS0 = 25      # value predicted by the card of side 0 + 1 (Elementary), 0 none
CB_GUESS1 = 26
CB_FIELDS = 28

# ------------------------------------------------------------- block offsets
OFF_F = G_SIZE
OFF_P = OFF_F + MAX_FIGHTERS * F_FIELDS
OFF_CB = OFF_P + MAX_PLAYERS * P_FIELDS
OFF_DECK = OFF_CB + CB_FIELDS
OFF_HAND = OFF_DECK + MAX_PLAYERS * MAX_CARDS
OFF_DISC = OFF_HAND + MAX_PLAYERS * MAX_CARDS
MAX_HERO_CARDS = 32     # distinct cards per hero file (card-play counters)
OFF_PLAYED = OFF_DISC + MAX_PLAYERS * MAX_CARDS   # per player: plays per hero-local card index
MAX_SPACES = 64         # spaces per battlefield (per-space counters)
OFF_SPACE_COMBATS = OFF_PLAYED + MAX_PLAYERS * MAX_HERO_CARDS   # combats per defender's space
OFF_SPACE_DEFEATS = OFF_SPACE_COMBATS + MAX_SPACES               # fighters defeated per space
STATE_SIZE = OFF_SPACE_DEFEATS + MAX_SPACES

# Sizes of the engine's work arrays (sigs.stack_i64 takes a named constant, not an expression)
CARD_OPTS = MAX_CARDS + 1      # one pile's cards, or those plus "none"
SPACE_OPTS = MAX_SPACES + 1    # spaces, or those plus one
MAX_OPTIONS = 16               # options of one "choose" step (the hero compiler checks it)
ACTION_OPTS = 1024             # legal actions at one step of a turn
TWO_PILES = 2 * MAX_CARDS      # the cards of two piles (deck and discard pile)
N_VALUES = 21                  # printed values 0..20 (naming a value: Elementary)

# ----------------------------------------------------------------- card table
C_TYPE = 0
C_VALUE = 1         # printed value, -1 for schemes
C_BOOST = 2         # printed BOOST value (0 when none is printed)
C_FMASK = 3         # bit k: fighter kind k may play it (0 = hero)
C_TAGS = 4          # TAG_* bits
C_HERO = 5          # hero-table row that owns the card
C_FORM = 6          # required form counter value + 1, 0 = any form
C_LOCAL = 7         # index of the card within its hero file (0..MAX_HERO_CARDS-1)
C_PROG = 8          # start of (start, length) pairs, one per window
N_WINDOWS = 8
W_IMMEDIATELY = 0
W_DURING = 1
W_AFTER = 2
W_SCHEME = 3
W_ONGOING_START = 4  # ongoing scheme: at the start of the owner's turn
W_ONGOING_DISCARD = 5  # ongoing scheme: one condition row, checked at the end of the owner's turn
W_ON_RETURN = 6      # a removed hero is placed again at the start of the next turn: then this
W_ON_PLAY = 7        # a combat card, right after it is chosen, before the cards are revealed (Elementary)
C_PASSIVE = C_PROG + 2 * N_WINDOWS  # PV_* bits: ongoing effects while the scheme is in play
# what the scripted AI reads about a card's effects (hundredths; ``sim.content.ai_features``)
C_AI0 = C_PASSIVE + 1
AI_DMG = 0          # damage to opposing fighters
AI_SELF_DMG = 1     # damage to your own fighters
AI_DRAW = 2         # cards gained (draw, search, take back)
AI_OPP_DISCARD = 3  # cards the opponent loses
AI_RECOVER = 4      # health recovered
AI_MOVE = 5         # spaces of movement / placements for your fighters
AI_VALUE_ATK = 6    # + to this card's value when attacking
AI_VALUE_DEF = 7    # + to this card's value when defending
AI_CANCEL = 8       # cancel / ignore / prevent
AI_ACTION = 9       # actions gained
AI_OTHER = 10       # anything else worth a little
N_AI_FEAT = 11
C_AI_LIVE = C_AI0 + N_AI_FEAT   # 1: some step of the card has a condition the AI checks as it scores it
C_FIELDS = C_AI_LIVE + 1

PV_NO_OPPONENT_ACTIONS = 1   # opponents can't gain actions (Blizzard)
PV_MAY_IGNORE_DISCARD = 2    # you may ignore effects that make you discard from hand (Tawny Owl)
PV_DRAW_AFTER_COMBAT = 4     # after each combat your fighter is in, draw 1 (Unicorn Ally)

CT_ATTACK = 0
CT_DEFENSE = 1
CT_VERSATILE = 2
CT_SCHEME = 3

TAG_ONGOING = 1
TAG_UNCANCELABLE = 2   # effects cannot be cancelled by an opponent
# bits 8.. are assigned to the free-form tags of the hero files (voyage, ...)
FIRST_FREE_TAG_BIT = 8

# ----------------------------------------------------------------- hero table
H_HP = 0
H_MOVE = 1
H_RANGED = 2
H_NKINDS = 3            # sidekick kinds
H_DECK_START = 4        # slice of the decks array
H_DECK_LEN = 5
H_FLAGS = 6
H_KIND0 = 8             # per sidekick kind: count, hp, move, ranged
K_COUNT = 0
K_HP = 1
K_MOVE = 2
K_RANGED = 3
K_SUMMON = 4            # 1: "summon" sidekick (may start off the board, rules option)
K_FIELDS = 5
H_HOOKS = H_KIND0 + MAX_SIDEKICK_KINDS * K_FIELDS
N_HOOKS = 6
HK_SETUP = 0            # after the hero is placed
HK_START_TURN = 1       # start of the owner's turn
HK_MANEUVER_BONUS = 2   # extra move during a maneuver (add_move)
HK_AFTER_MANEUVER = 3
HK_ATTACK_VALUE = 4     # run when this hero's attack value is computed
HK_DEFENSE_VALUE = 5
H_PROTECT_TAG = H_HOOKS + 2 * N_HOOKS   # tag bits: with >= H_PROTECT_N such cards in your
H_PROTECT_N = H_PROTECT_TAG + 1          # discard, your card effects can't be cancelled (Ciri)
# what the scripted AI reads about the hero's abilities (``sim.content.ai_features``)
H_AI_ATK0 = H_PROTECT_N + 1   # hero's attack-value bonus while counter 0 is 0 (Alice big)
H_AI_ATK1 = H_AI_ATK0 + 1     # ... while counter 0 is 1
H_AI_DEF0 = H_AI_ATK0 + 2     # hero's defense-value bonus while counter 0 is 0
H_AI_DEF1 = H_AI_ATK0 + 3     # ... while counter 0 is 1 (Alice small)
H_AI_DEF_FOG = H_AI_ATK0 + 4  # extra defense on one of the player's fog spaces (Invisible Man)
H_AI_MOVE_N = H_AI_ATK0 + 5   # maneuver bonus per card with tag bits H_AI_MOVE_TAG in the discard (Sinbad)
H_AI_MOVE_TAG = H_AI_ATK0 + 6
H_AI_HURT_FORM = H_AI_ATK0 + 7   # form + 1 whose maneuvers cost the hero health (Hyde), 0 none
H_FIELDS = H_AI_ATK0 + 8

HF_ATTACK_BOOST = 1     # King Arthur: may BOOST his attack with a face-down card
HF_FOG_WALK = 2         # Invisible Man: moves between spaces with his fog tokens as if adjacent

FORM_COUNTER = 0        # hero counter 0 holds the form when a hero file declares forms

# -------------------------------------------------------------- instructions
# one instruction = 16 int64. The condition has its own fields (I_CA, I_CB,
# I_CREF, I_CTAG) so that any condition combines with any op; the op uses
# I_N, I_SEL, I_REF, I_SIDE, I_PER, I_PARG, I_FLAGS and its extra arguments
# I_X, I_Y; a "within N spaces" target keeps N in I_RANGE.
I_OP = 0
I_COND = 1
I_CA = 2        # condition argument
I_CB = 3        # condition argument
I_CREF = 4      # condition: a fighter reference or kind
I_CTAG = 5      # condition: tag bits
I_N = 6         # amount
I_SEL = 7       # target selector
I_REF = 8       # target reference fighter / kind
I_SIDE = 9      # side filter / whose (you, opponent)
I_PER = 10      # "per" multiplier kind
I_PARG = 11     # its argument (tag bits or kind)
I_FLAGS = 12
I_X = 13        # op argument (where, pile, counter slot, options, ...)
I_Y = 14        # op argument (a reference fighter, card id + 1)
I_RANGE = 15    # target range in spaces
I_AI0 = 16      # the AI's reading of this step: N_AI_FEAT features (AI_*, hundredths), filled at compile time
I_AI_LIVE = I_AI0 + N_AI_FEAT   # 1: the step's condition is checked when the AI scores the card (conditions.LIVE)
I_FIELDS = I_AI_LIVE + 1

IF_MAY = 1          # the player may decline
IF_THROUGH = 2      # move through opposing fighters
IF_RANDOM = 4       # random card
IF_YOU_CHOOSE = 8   # you look at the hand and choose
IF_EXCLUDE_REF = 16  # "other": not the reference fighter
IF_BOTTOM = 32      # look_top: the rest goes to the bottom of the deck
IF_NEGATE = 64      # the condition is negated ("unless")
IF_EXCLUDE_OPP = 128  # targets exclude the opposing fighter of this combat
IF_TRACK = 256      # move step by step, remembering opposing fighters moved through
IF_TO_OPPONENT = 512  # add_value: change the opponent's card instead of yours
IF_EMPTY = 1024     # move_fog: only to a space without a fighter
IF_DIFFERENT = 2048  # move_fog: a different token than the last one moved
IF_OPTIONAL = 4096  # discard: the discarding player may decline (Confound)
IF_ONTO_FOG = 8192  # move: the move must end on a space with one of your fog tokens (Lurking)

# ------------------------------------------------------------- rules options
R_TURN_CAP = 0          # total turns before the game is a draw
R_HAND_LIMIT = 1
R_OPENING_HAND = 2
R_EXHAUST_DAMAGE = 3    # damage per missing draw
R_END_AT_ACTION = 4     # 1: check the game end at the end of the action (R07)
R_ACTIONS = 5           # actions per turn
R_SUMMON_OFF_BOARD = 6  # 1: "summon" sidekicks (Leshen's Wolves) start off the board
R_OFF_FORM = 7          # 1: form cards playable in either form, their effects only in that form (R44)
N_RULES = 8

# -------------------------------------------------------------- end reasons
END_NONE = 0
END_HERO_DEFEATED = 1
END_TURN_CAP = 2
END_ERROR = 3

ERR_NONE = 0
ERR_SCRIPT_ILLEGAL = 1  # scripted choice not among the legal options
ERR_SCRIPT_DOMAIN = 2   # scripted choice of the wrong kind
ERR_SCRIPT_EMPTY = 3    # a decision was needed but the script ran out

# ------------------------------------------------------------ decision kinds
D_ACTION = 0            # value: packed action (see rules.pack_action)
D_DEFENSE = 1           # value: card id or -1
D_BOOST_MANEUVER = 2    # value: card id or -1
D_BOOST_ATTACK = 3      # value: card id or -1 (King Arthur's ability)
D_BOOST_CARD = 4        # value: card id or -1 ("you may BOOST this card")
D_DISCARD_LIMIT = 5     # value: card id (hand limit)
D_DISCARD_EFFECT = 6    # value: card id
D_MOVE_WHICH = 7        # value: fighter slot to move next
D_MOVE_DEST = 8         # value: space index
D_PLACE = 9             # value: space index
D_TARGET = 10           # value: fighter slot
D_MAY = 11              # value: 1 yes, 0 no
D_SETUP_SPACE = 12      # value: space index
D_OPTION = 13           # value: option number
D_TAKE_CARD = 14        # value: card id
D_MOVE_STEP = 15        # value: next space of a step-by-step move (the current space = stop)
D_GUESS = 16            # value: a printed value named or predicted (Elementary, Confirm Suspicion)
D_FOG_TOKEN = 17        # value: space of the fog token to move
D_FOG_DEST = 18         # value: space a fog token goes to
D_FORCE_CARD = 19       # value: card id the opponent must play instead (Do My Bidding)
D_OPPONENT = 20         # value: player index of the opposing player an effect's "your opponent" means (team games)
N_DECISIONS = 21

DOM_INT = 0
DOM_CARD = 1
DOM_FIGHTER = 2
DOM_SPACE = 3
DOM_BOOL = 4

# ------------------------------------------------------------------ events
EV_TURN = 1             # player, turn number
EV_ACTION = 2           # player, action kind, action number
EV_DRAW = 3             # player, card
EV_EXHAUST = 4          # player, missing draws
EV_BOOST = 5            # player, card, purpose (0 maneuver, 1 attack, 2 card)
EV_MOVE = 6             # fighter, from, to, budget, through
EV_PLACE = 7            # fighter, from, to
EV_SCHEME = 8           # player, fighter, card
EV_ATTACK = 9           # attacker, defender, attack card
EV_DEFENSE = 10         # defender, card or -1
EV_CANCEL = 11          # player who cancels, side whose card is cancelled
EV_VALUES = 12          # attack value, defense value, damage taken, attacker won, damage before the health cap
EV_DAMAGE = 13          # fighter, amount taken, health after, amount dealt
EV_RECOVER = 14         # fighter, amount, health after
EV_DEFEATED = 15        # fighter
EV_DISCARD = 16         # player, card, why (0 effect, 1 hand limit)
EV_GAIN_ACTION = 17     # player, n
EV_GAME_OVER = 18       # winner team, reason
EV_RETURN = 19          # fighter, space
EV_TAKE = 20            # player, card (from discard or deck to hand)
EV_LOOK_HAND = 21       # player looking, player looked at
EV_SETUP = 22           # fighter, space
EV_ABILITY = 23         # player, hook
EV_SET_HP = 24          # fighter, health
EV_PLAY_SCHEME_DONE = 25
EV_ONGOING = 26         # player, card, 1 in play / 0 discarded
EV_END_TURN = 27        # player (an effect ended the turn)
EV_COUNTER = 28         # player, counter, value
EV_LOOK_TOP = 29        # player, cards looked at
EV_SEARCH = 30          # player, card found (-1 none), 1 if the deck was shuffled
EV_CHOOSE = 31          # player, option chosen (1-based)
EV_PIN = 32             # fighter (cannot leave its space this turn)
EV_REMOVE = 33          # fighter removed from the board (not defeated)
EV_SWAP = 34            # fighter, other fighter (they swapped spaces)
EV_IGNORE = 35          # player who ignored a discard effect (Tawny Owl)
EV_FOG = 36             # owner, token, from space (-1 at setup), to space, player who moved it
EV_REPLACE = 37         # player whose card is replaced, old card, new card, player who chose
EV_GUESS = 38           # player, value named/predicted, 1 predicted correctly / 0 not / -1 not checked
EV_SET_PRINTED = 39     # player who changed it, side whose card, new printed value
EV_FIELDS = 6

A_MANEUVER = 0
A_SCHEME = 1
A_ATTACK = 2


@jit(I(I, I))
def fslot(f, field):
    """Offset of ``field`` (an ``F_*`` constant) of fighter ``f`` in the state."""
    return OFF_F + f * F_FIELDS + field


@jit(I(I, I))
def pslot(p, field):
    """Offset of ``field`` (a ``P_*`` constant) of player ``p`` in the state."""
    return OFF_P + p * P_FIELDS + field
