"""Layout of the control array ``ctl`` that steers the decisions of one game.

``ctl`` is a flat ``int64`` array of shape ``(CTL_SIZE,)`` (or longer, see
``CTL_EXPLAIN``), built by :func:`sim.engine.policy.new_control` and passed to
every engine function that may ask a decision. It holds, per player, the policy
mode and the AI profile's weights; the scenario API's script and presets; the
context of the decision being asked (which effect step, which fighter), which
the engine writes just before asking; and the scripted AI's plan for the action
in progress.
"""
from .codes import (  # noqa: F401  (re-exported: callers outside the engine import them from here)
    MODE_EXPERT, MODE_EXPERT02, MODE_FIRST, MODE_GREEDY, MODE_RANDOM, MODE_SCRIPT, MODE_STANDARD, MODE_STANDARD02,
    N_DECISIONS,
)
from .layout import FIGHTERS_PER_PLAYER, MAX_FIGHTERS, MAX_PLAYERS, MAX_SPACES


CTL_MODE0 = 0          # mode of players 0..3
CTL_POS = 4            # next script entry
CTL_LEN = 5            # script entries
CTL_FALLBACK = 6       # 0 stop with an error, 1 random, 2 first option
CTL_ERR_KIND = 7       # decision kind that failed
CTL_ERR_PLAYER = 8
CTL_ERR_VALUE = 9      # the scripted value that was refused
CTL_ERR_N = 10         # number of legal options at the failure
CTL_HAS_NAMES = 11     # 1: scripted card choices are card-name ids (see CTL_NAMES)
CTL_ERR_PRESET = 12    # 1 when the refused value was a preset, not a script entry
CTL_CTX_ROW = 13       # row of tb.code of the effect step asking the decision, -1 none (see CTL_CTX_OP)
CTL_REC = 14           # index of the record buffer (policy.with_record), 0 none
CTL_CTX_END = 15       # end row (exclusive) of the program whose step CTL_CTX_ROW is (the steps after it that hang on it)
CTL_ERR_OPTS = 16      # up to 64 legal option values
CTL_PRESET = CTL_ERR_OPTS + 64   # per decision kind: preset value + 2, 0 = none
CTL_NAMES = CTL_PRESET + N_DECISIONS  # card id -> card-name id
MAX_CARD_IDS = 1024
CTL_SCRIPT = CTL_NAMES + MAX_CARD_IDS
MAX_SCRIPT = 512
# context of the decision being asked, written by the engine just before it asks
CTL_CTX_OP = CTL_SCRIPT + 2 * MAX_SCRIPT   # OP_* of the effect step asking, -1 none (a rules decision)
CTL_CTX_N = CTL_CTX_OP + 1      # that step's amount
CTL_CTX_P = CTL_CTX_OP + 2      # player whose effect is resolving
CTL_CTX_F = CTL_CTX_OP + 3      # fighter the next move / place / setup decision is about, -1 none
CTL_CTX_OWNER = CTL_CTX_OP + 4  # owner of the hand a card decision picks from
CTL_PLAN_KEY = CTL_CTX_OP + 5   # (turn * 64 + action number) * 4 + player the plan was made for, -1 none
CTL_PLAN_BOOST = CTL_CTX_OP + 6  # card to BOOST the planned maneuver with, -1 none
CTL_FU_KEY = CTL_CTX_OP + 7     # plan key the cached follow-up attack table below belongs to
CTL_POS_KEY = CTL_CTX_OP + 8    # plan key of the maneuver plan's position scores (SCR_PLAN_POS), -1 none
CTL_POS_SIG = CTL_CTX_OP + 9    # ai.position.pos_sig of the position the plan scored
CTL_TD_P = CTL_CTX_OP + 10      # player the defense distributions in SCR_ACTIONS were made for, -1 none
CTL_TD_SIG = CTL_CTX_OP + 11    # ai.position.dist_sig of the position they were made in
N_WEIGHTS = 56
CTL_W = CTL_CTX_OP + 12         # per player: N_WEIGHTS AI weights in thousandths
CTL_FU = CTL_W + MAX_PLAYERS * N_WEIGHTS   # (MAX_FIGHTERS, MAX_FIGHTERS) follow-up attack worths, thousandths
# the scripted AI's work arrays (float64 bits or int64; written before read, never kept
# between decisions): one region per function that needs them, so nested calls do not
# share one (see ai.weights.scratch_f1). Using these instead of allocating per decision saves
# a fifth of the standard AI's time.
# the expert's replay search (search.play_action): an action of a duel with an expert player is
# played with every decision recorded here; one of an expert's decisions asked inside the rules
# (a BOOST, an effect's choice) stops it (the probe), and after the search the action is
# played again from its start with the recorded decisions and the one searched forced
# (policy.replay_decide). A rollout replays the same list in a determinized copy.
CTL_RP = CTL_FU + MAX_FIGHTERS * MAX_FIGHTERS
CTL_RP_ON = CTL_RP             # 1: decide() goes through policy.replay_decide
CTL_RP_N = CTL_RP + 1          # (kind, value) entries in the list
CTL_RP_POS = CTL_RP + 2        # next entry to replay; at N: decide, then append if recording
CTL_RP_PROBE = CTL_RP + 3      # bit per player: stop at that player's next searched decision
CTL_RP_REC = CTL_RP + 4        # 1: append new decisions (the real game); 0: a rollout
CTL_RP_SEED = CTL_RP + 5       # rollout: the generator's seed once the list is replayed
CTL_RP_HIT = CTL_RP + 6        # probe: 1 + the decision kind that stopped the action, 0 none
CTL_RP_HIT_P = CTL_RP + 7      # probe: the deciding player
CTL_RP_NCAND = CTL_RP + 8      # probe: candidates in CTL_RP_CAND
CTL_RP_LOGN = CTL_RP + 9       # probe: the log's length at the decision (where --explain shows the search)
CTL_RP_HIDDEN = CTL_RP + 10    # 1 while the defense card's face-up effects run before the reveal (no probe)
MAX_RP_CAND = 16
CTL_RP_CAND = CTL_RP + 11      # probe: the options' values, the standard AI's best first
CTL_RP_LIST = CTL_RP_CAND + MAX_RP_CAND   # (kind, value) pairs
MAX_RP = 96
CTL_SCRATCH = CTL_RP_LIST + 2 * MAX_RP
# sizes in int64 slots: a (fighter, fighter) table, a table of 6 per fighter, one player's fighters by space
_FF = MAX_FIGHTERS * MAX_FIGHTERS
_EF = MAX_FIGHTERS * 6
_PF = FIGHTERS_PER_PLAYER * MAX_SPACES
_DIST = 2 * MAX_FIGHTERS * 65 + MAX_FIGHTERS   # defense distributions: dvals, dprobs (F, 65), pnone (F,)
SCR_ACTIONS = CTL_SCRATCH                 # score_actions: distributions + fu (F, F)
SCR_FOLLOW = SCR_ACTIONS + _DIST + _FF    # cached_follow_up: distributions
SCR_PLAN = SCR_FOLLOW + _DIST             # plan_maneuver: fu (F, F), position cache (P, 64), dests (65,), ef (F, 6)
SCR_PLAN_POS = SCR_PLAN + _FF             # plan_maneuver's position cache, read again by score_spaces
SCR_PLAN_DESTS = SCR_PLAN_POS + _PF       # plan_maneuver's dests, then its ef
SCR_PLAN_EF = SCR_PLAN_DESTS + MAX_SPACES + 1
SCR_SPACES = SCR_PLAN_EF + _EF            # score_spaces: fu, ef
SCR_SPACES_EF = SCR_SPACES + _FF
SCR_DEFENSE = SCR_SPACES_EF + _EF         # score_defense: pool, vals, fxd, probs (65,) each
SCR_POOL = SCR_DEFENSE + 4 * 65           # target_dists: pool (65,)
SCR_SCORES = SCR_POOL + 65                # ai_decide: the options' scores (up to 1024)
MAX_SCR_SCORES = 1024
SCR_TARGETS = SCR_SCORES + MAX_SCR_SCORES  # follow_up: each target's (health, worth per damage, worth of defeat)
SCR_WORTH = SCR_TARGETS + MAX_FIGHTERS * 3   # follow_up: attack worths (P * 64, F) by (fighter, hand index), target
SCR_WORTH_SET = SCR_WORTH + FIGHTERS_PER_PLAYER * 64 * MAX_FIGHTERS   # follow_up: which (fighter, hand index) rows
                                                                      # are written (P * 64,)
SCR_COUNTS = SCR_WORTH_SET + FIGHTERS_PER_PLAYER * 64   # value_dist: unknown copies per card id (MAX_CARD_IDS,)
SCR_DIST_N = SCR_COUNTS + MAX_CARD_IDS   # value_dist: cards per distinct value (65,)
SCR_DIST_FX = SCR_DIST_N + 65            # target_dists: effect damage of value_dist's pairs (65,), unused
SCR_PRICE = SCR_DIST_FX + 65             # the one-currency AI, per player: worth of a drawn card now (4,), then
                                         # the share of a hand card's keep worth that holds now (4,), then
                                         # the chance that the card being scored wins its combat (-1 not known),
                                         # then the worth of a sidekick brought back onto the board (4,), then
                                         # the combat damage the defense card being scored expects its fighter to
                                         # take (-1 not known)
N_PRICE = 14
SCR_DESTS = SCR_PRICE + N_PRICE               # ai.weights.board_count: reachable spaces (65,)
# the imitation capture (sim.engine.capture): where its area starts after CTL_SIZE (0: none),
# records written, room for records, capture every Nth searched decision, decisions seen, 1: the
# game goes on with the standard AI's choice, not the search's (states the standard AI reaches)
CTL_CAP = SCR_DESTS + 65
CTL_CAP_N = CTL_CAP + 1
CTL_CAP_MAX = CTL_CAP + 2
CTL_CAP_EVERY = CTL_CAP + 3
CTL_CAP_SEEN = CTL_CAP + 4
CTL_CAP_PLAY = CTL_CAP + 5
CTL_SIZE = CTL_CAP + 6
# optional "explain" buffer after CTL_SIZE (duel --explain): a count, then records
EXPLAIN_TOP = 4
EXPLAIN_REC = 6 + 3 * EXPLAIN_TOP   # log position, kind, player, options, shown, samples (expert; 0),
                                    # (value, score*1000, standard error*1000) * TOP
CTL_EXPLAIN = CTL_SIZE
