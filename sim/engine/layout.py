"""State layout of one game: a flat ``int64`` array with named offsets.

The array is ``int64``, not ``int32``, so that every integer the compiled code
handles has one type: numba then compiles each function once, not once per mix
of int32/int64 arguments.

Everything the rules need to know about a game in progress lives in one
``np.ndarray`` of shape ``(STATE_SIZE,)`` and dtype ``int64``, so that a copy is
one memcpy (the AI tries actions on copies) and numba sees plain integers.
The array is sized for up to four players in two teams (players 0 and 2 are
team 0, players 1 and 3 are team 1), each with a hero and up to four
sidekicks (``FIGHTERS_PER_PLAYER`` fighter slots).

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

The integer vocabularies (statuses, card types, tag bits, decision kinds, event
codes, rules-option indices, ...) live in :mod:`sim.engine.codes`; this module
re-exports them for callers outside the engine.
"""
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, I, LOG, ST, TB, V, jit  # noqa: F401
from .codes import (  # noqa: F401  (re-exported: callers outside the engine import them from here)
    A_ATTACK, A_MANEUVER, A_SCHEME, CT_ATTACK, CT_DEFENSE, CT_SCHEME, CT_VERSATILE, D_ACTION, D_BOOST_ATTACK,
    D_BOOST_CARD, D_BOOST_MANEUVER, D_DEFENSE, D_DISCARD_EFFECT, D_DISCARD_LIMIT, D_FOG_DEST, D_FOG_TOKEN,
    D_FORCE_CARD, D_GUESS, D_MAY, D_MOVE_DEST, D_MOVE_STEP, D_MOVE_WHICH, D_OPPONENT, D_OPTION, D_PLACE,
    D_REDIRECT, D_REDIRECT_N, D_SETUP_SPACE, D_TAKE_CARD, D_TARGET, DOM_BOOL, DOM_CARD, DOM_FIGHTER, DOM_INT, DOM_SPACE, END_ERROR,
    END_HERO_DEFEATED, END_NONE, END_TURN_CAP, ERR_NONE, ERR_SCRIPT_DOMAIN, ERR_SCRIPT_EMPTY,
    ERR_SCRIPT_ILLEGAL, EV_ABILITY, EV_ACTION, EV_ATTACK, EV_BOOST, EV_CANCEL, EV_CHOOSE, EV_COUNTER,
    EV_DAMAGE, EV_DEFEATED, EV_DEFENDER, EV_DEFENSE, EV_DISCARD, EV_DRAW, EV_END_TURN, EV_EXHAUST, EV_FOG,
    EV_GAIN_ACTION,
    EV_GAME_OVER, EV_GUESS, EV_IGNORE, EV_LOOK_HAND, EV_LOOK_TOP, EV_MOVE, EV_ONGOING, EV_PIN, EV_PLACE,
    EV_PLAY_SCHEME_DONE, EV_RECOVER, EV_REDIRECT, EV_REMOVE, EV_REPLACE, EV_RETURN, EV_SCHEME, EV_SEARCH, EV_SET_HP,
    EV_SET_PRINTED, EV_SETUP, EV_SWAP, EV_TAKE, EV_TURN, EV_VALUES, FIRST_FREE_TAG_BIT, FS_DEFEATED,
    FS_IN_PLAY, FS_REMOVED, FS_UNUSED, GF_SELF_TO_DECK, GF_TOOK_FROM_DECK, HF_ATTACK_BOOST, HF_FOG_WALK,
    HK_AFTER_ATTACK, HK_AFTER_DEFENSE, HK_AFTER_MANEUVER, HK_ATTACK_VALUE, HK_DEFENSE_VALUE, HK_END_TURN,
    HK_FIGHTER_DEFEATED, HK_MANEUVER_BONUS, HK_SETUP, HK_START_TURN,
    IF_BOTTOM, IF_DIFFERENT, IF_EMPTY, IF_EXCLUDE_OPP, IF_EXCLUDE_REF, IF_MAY, IF_NEGATE, IF_ONTO_FOG,
    IF_OPTIONAL, IF_OTHER_SPACE, IF_RANDOM, IF_ROUTE, IF_THROUGH, IF_TO_OPPONENT, IF_TRACK, IF_UP_TO, IF_YOU_CHOOSE,
    N_DECISIONS, N_HOOKS, N_RULES, N_WINDOWS, PV_DRAW_AFTER_COMBAT, PV_MAY_IGNORE_DISCARD, PV_NO_OPPONENT_ACTIONS,
    R_ACTIONS, R_END_AT_ACTION, R_EXHAUST_DAMAGE, R_FOG_MOVE_PLACES, R_HAND_LIMIT, R_OFF_FORM, R_OPENING_HAND,
    R_PREVENT_COMBAT_ONLY, R_SUMMON_OFF_BOARD, R_TURN_CAP, R_ZERO_BLOCKS_BOOST, TAG_ONGOING, TAG_UNCANCELABLE,
    W_AFTER, W_DURING, W_IMMEDIATELY, W_ON_PLAY, W_ON_RETURN,
    W_ONGOING_DISCARD, W_ONGOING_START, W_SCHEME,
)

MAX_PLAYERS = 4
FIGHTERS_PER_PLAYER = 5   # the hero and up to 4 sidekicks (a published hero has 4); heroes.py checks it
MAX_FIGHTERS = MAX_PLAYERS * FIGHTERS_PER_PLAYER
MAX_CARDS = 64          # per pile: deck, hand, discard
MAX_SIDEKICK_KINDS = 3
N_COUNTERS = 8          # hero-specific counters per player
N_FOG = 3               # fog tokens per player

# ---------------------------------------------------------------- game slots
G_TURN = 0          # turns completed so far (both players)
G_ACTIVE = 1        # active player
G_OVER = 2          # 1 once the game has ended
G_WINNER = 3        # winning team, codes.NO_WINNER (-1) none yet / error, codes.TURN_CAP_WINNER (-2) draw
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
G_LAST_DISC = 21    # cards the last discard step discarded (for "if they do not"); -1: it could have
                    # discarded but the player refused (Tawny Owl) or declined (Confound)
G_MOVED = 22        # fighter chosen by the last move step, -1 none (Ravening Seduction)
G_FOG_TOKEN = 23    # fog token moved by the last move_fog step, -1 none
G_FOG_SPACE = 24    # where that token went, -1 none (Slip Away: place on that space)
G_OPPONENT = 25     # team games: the opposing player chosen as "your opponent" for the card or ability
                    # being resolved (targets.choose_opponent), -1 none; always 0 in duels
G_SEED = 26         # the game's seed (setup_game), 0..2**32-1: the expert AI's own random stream derives from it
G_SIZE = 27

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
F_KO = 11           # 1: defeated, its owner's fighter_defeated ability not yet resolved (effects.defeat_hooks)
F_FIELDS = 12

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
CB_PREVENT = 16     # fighter + 1 whose damage is prevented for the rest of the combat (Bewilderment), 0 none
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
CB_CAP = 27         # prevent_damage with at_most: the CB_PREVENT fighter takes at most CB_CAP - 1 from each damage
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
AI_DECK_TOP = 11    # of AI_DRAW, cards put on top of your deck (not into your hand): the one-currency AI
                    # counts them as no card in hand; release 0.2's AI as drawn cards
AI_SUMMON = 12      # sidekicks brought back onto the board (summon, return a defeated one); release 0.2's AI
                    # reads them only as AI_OTHER (2 each); the one-currency AI as the sidekick gained, if any
AI_OWN_DMG = 13     # of AI_SELF_DMG, damage a step surely deals to the player's own fighters (target "self", an
                    # own fighter, each own): the one-currency AI prices it as damage to the fighter playing the card
N_AI_FEAT = 14
C_AI_LIVE = C_AI0 + N_AI_FEAT   # 1: some step of the card has a condition the AI checks as it scores it
C_FIELDS = C_AI_LIVE + 1

# ----------------------------------------------------------------- hero table
H_HP = 0
H_MOVE = 1
H_RANGED = 2
H_NKINDS = 3            # sidekick kinds
H_DECK_START = 4        # slice of the decks array
H_DECK_LEN = 5
H_FLAGS = 6
H_DEFEAT_KIND = 7       # fighter_defeated ability: only for this fighter kind + 1 (defeated_fighter); 0 any
H_KIND0 = 8             # per sidekick kind: count, hp, move, ranged
K_COUNT = 0
K_HP = 1
K_MOVE = 2
K_RANGED = 3
K_SUMMON = 4            # 1: "summon" sidekick (may start off the board, rules option)
K_FIELDS = 5
H_HOOKS = H_KIND0 + MAX_SIDEKICK_KINDS * K_FIELDS
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
# the before_damage ability (docs/rules.md, "Damage in another fighter's place"): when fighter kind
# H_BD_PROTECT of the owner would take damage, H_BD_CAP - 1 caps it (0 no cap), then other fighters of
# the owner (kind H_BD_KIND - 1, 0 any) adjacent to it (H_BD_TAKE 1) or anywhere (2) may take some
# (H_BD_SPLIT 1) or all of it instead; H_BD_COMBAT 1: combat damage only (else effect damage too)
H_BD_PROTECT = H_AI_ATK0 + 8
H_BD_CAP = H_BD_PROTECT + 1
H_BD_TAKE = H_BD_PROTECT + 2
H_BD_KIND = H_BD_PROTECT + 3
H_BD_SPLIT = H_BD_PROTECT + 4
H_BD_COMBAT = H_BD_PROTECT + 5
H_FIELDS = H_BD_PROTECT + 6

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

EV_FIELDS = 6           # int64 columns of one log row: the EV_* code and five arguments


@jit(I(I, I))
def fslot(f, field):
    """Offset of ``field`` (an ``F_*`` constant) of fighter ``f`` in the state."""
    return OFF_F + f * F_FIELDS + field


@jit(I(I, I))
def pslot(p, field):
    """Offset of ``field`` (a ``P_*`` constant) of player ``p`` in the state."""
    return OFF_P + p * P_FIELDS + field
