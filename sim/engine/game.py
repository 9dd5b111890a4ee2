"""Whole games: setup, the turn loop, per-game result rows, batches of games.

Sources: Battle of Legends Vol. 1 rules ("Battlefield setup"); Cobble & Fog
rules ("Preparation"): heroes on start spaces 1 and 2 in turn order, sidekicks
on separate spaces in the hero's zone (any empty space if the zone is full),
shuffle, draw 5, first player takes the first turn.
"""
import numpy as np
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, A3, B, CTL, I, LOG, ST, TB, V, jit, stack_i64, unmanaged, unmanaged_tables  # noqa: F401
from .control import (CTL_CTX_OP, CTL_HAS_NAMES, CTL_LEN, CTL_MODE0, CTL_NAMES, CTL_RP_LIST, CTL_SCRIPT, CTL_SIZE,
    MAX_CARD_IDS, N_PRICE, SCR_PRICE)

from .codes import (  # noqa: F401  (re-exported: callers outside the engine import them from here)
    DRAW, MODE_EXPERT, MODE_EXPERT02, NO_WINNER,
    D_SETUP_SPACE, END_TURN_CAP, EV_SETUP, FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, HK_SETUP, PILE_DECK,
    R_OPENING_HAND, R_SUMMON_OFF_BOARD, RES_DECISIONS, RES_FIELDS, RES_HP0, RES_HP1, RES_PLAYED0, RES_PLAYED1,
    RES_REASON, RES_SEED, RES_SK0, RES_SK1, RES_TURNS, RES_WINNER, TRES_DEALT0, TRES_DECISIONS, TRES_FIELDS,
    TRES_HP0, TRES_OUT0, TRES_PLAYED0, TRES_REASON, TRES_SEED, TRES_SK0, TRES_TURNS, TRES_WINNER,
)
from .core import (
    draw_cards, fill_occupancy, game_seed, log_ev, pile_push, rng_seed, same_zone, shuffle_deck, signed32,
)
from .effects import run_hook
from .layout import (
    F_HP, F_KIND, F_MAXHP, F_MOVE, F_OWNER, F_RANGED, F_SPACE, F_START_SPACE, F_STATUS, FIGHTERS_PER_PLAYER,
    fslot, G_ACTIVE, G_DECISIONS, G_FIRST, G_NPLAYERS, G_OPPONENT, G_OVER, G_REASON, G_SEED, G_TURN, G_WINNER,
    H_DECK_LEN, H_DECK_START, H_HP, H_KIND0, H_MOVE, H_NKINDS, H_RANGED, K_COUNT, K_FIELDS, K_HP, K_MOVE,
    K_RANGED, K_SUMMON, MAX_HERO_CARDS, MAX_SPACES, N_FOG, OFF_PLAYED, OFF_SPACE_COMBATS, OFF_SPACE_DEFEATS,
    P_CARDS_PLAYED, P_DEALT, P_FOG0, P_HERO, P_NFIGHTERS, P_ONGOING, P_TEAM, pslot, STATE_SIZE,
)
from .policy import CTL_CTX_F, decide
from .rules import take_turn, unpack_action
from .search import play_turn

# per-game result row (int64)


@jit(V(ST, TB, CTL, LOG, A1, I, I), entry=True)
def setup_game(st, tb, ctl, log, hero_rows, nplayers, seed):
    """Reset ``st`` and set up a game (:func:`set_up`): the entry point Python calls."""
    set_up(st, tb, ctl, log, hero_rows, nplayers, seed)


@jit(V(ST, TB, CTL, LOG, A1, I, I))
def set_up(st, tb, ctl, log, hero_rows, nplayers, seed):
    """Reset ``st`` and set up a game: fighters, placement, shuffle, opening hands.

    ``hero_rows``: int64 (nplayers,) rows of the hero table, in turn order
    (player 0 moves first and starts on start space 1; player k on start space
    k + 1). ``nplayers``: 2 for a duel, 4 for a team game (a three-player game is
    also 4 seats, see ``sim.play.teams``). ``seed``: 0..2**32-1. Players 0 and 2 are
    team 0, 1 and 3 team 1. Each player's sidekicks go on separate empty spaces in
    their hero's zone, each player draws the opening hand (5); the same for every
    seat in a team game (Battle of Legends Vol. 1 rules, "Battlefield setup" and
    "Exhaustion and team play").
    """
    st[:] = 0
    rng_seed(st, seed)
    st[G_SEED] = seed
    st[G_NPLAYERS] = nplayers
    if nplayers > 2:
        st[G_OPPONENT] = -1
    st[G_FIRST] = 0
    st[G_ACTIVE] = 0
    st[G_WINNER] = NO_WINNER
    S = tb.adj.shape[0]
    for p in range(nplayers):
        h = hero_rows[p]
        st[pslot(p, P_HERO)] = h
        st[pslot(p, P_TEAM)] = p % 2
        st[pslot(p, P_ONGOING)] = -1
        for i in range(N_FOG):
            st[pslot(p, P_FOG0 + i)] = -1
        f = p * FIGHTERS_PER_PLAYER
        st[fslot(f, F_STATUS)] = FS_IN_PLAY
        st[fslot(f, F_HP)] = tb.heroes[h, H_HP]
        st[fslot(f, F_MAXHP)] = tb.heroes[h, H_HP]
        st[fslot(f, F_OWNER)] = p
        st[fslot(f, F_KIND)] = 0
        st[fslot(f, F_MOVE)] = tb.heroes[h, H_MOVE]
        st[fslot(f, F_RANGED)] = tb.heroes[h, H_RANGED]
        st[fslot(f, F_SPACE)] = -1
        n = 1
        for k in range(tb.heroes[h, H_NKINDS]):
            kb = H_KIND0 + k * K_FIELDS
            off = tb.heroes[h, kb + K_SUMMON] != 0 and tb.rules[R_SUMMON_OFF_BOARD] != 0
            for _ in range(tb.heroes[h, kb + K_COUNT]):
                g = f + n
                st[fslot(g, F_STATUS)] = FS_REMOVED if off else FS_IN_PLAY
                st[fslot(g, F_HP)] = tb.heroes[h, kb + K_HP]
                st[fslot(g, F_MAXHP)] = tb.heroes[h, kb + K_HP]
                st[fslot(g, F_OWNER)] = p
                st[fslot(g, F_KIND)] = k + 1
                st[fslot(g, F_MOVE)] = tb.heroes[h, kb + K_MOVE]
                st[fslot(g, F_RANGED)] = tb.heroes[h, kb + K_RANGED]
                st[fslot(g, F_SPACE)] = -1
                n += 1
        st[pslot(p, P_NFIGHTERS)] = n
    opts = stack_i64(MAX_SPACES)
    occ = stack_i64(MAX_SPACES)
    if nplayers > 2:
        # a team game: every hero stands on its start space before any sidekick is placed, so
        # that no sidekick takes another seat's start space (in a duel the two starts' zones
        # are apart and the order is hero, sidekicks, next hero)
        for p in range(nplayers):
            f = p * FIGHTERS_PER_PLAYER
            st[fslot(f, F_SPACE)] = tb.starts[p]
            log_ev(st, log, EV_SETUP, f, tb.starts[p], 0, 0, 0)
    for p in range(nplayers):
        f = p * FIGHTERS_PER_PLAYER
        hs = tb.starts[p]
        if nplayers <= 2:
            st[fslot(f, F_SPACE)] = hs
            log_ev(st, log, EV_SETUP, f, hs, 0, 0, 0)
        for k in range(1, st[pslot(p, P_NFIGHTERS)]):
            g = f + k
            if st[fslot(g, F_STATUS)] != FS_IN_PLAY:
                continue
            fill_occupancy(st, S, occ)
            m = 0
            for s in range(S):
                if occ[s] < 0 and same_zone(tb, s, hs):
                    opts[m] = s
                    m += 1
            if m == 0:
                for s in range(S):
                    if occ[s] < 0:
                        opts[m] = s
                        m += 1
            ctl[CTL_CTX_F] = g
            j = decide(st, tb, ctl, D_SETUP_SPACE, p, opts, m)
            st[fslot(g, F_SPACE)] = opts[j]
            log_ev(st, log, EV_SETUP, g, opts[j], 0, 0, 0)
        run_hook(st, tb, ctl, log, HK_SETUP, p, f, -1)
    for f in range(nplayers * FIGHTERS_PER_PLAYER):
        st[fslot(f, F_START_SPACE)] = st[fslot(f, F_SPACE)]
    for p in range(nplayers):
        h = hero_rows[p]
        s0 = tb.heroes[h, H_DECK_START]
        for i in range(tb.heroes[h, H_DECK_LEN]):
            pile_push(st, PILE_DECK, p, tb.decks[s0 + i])
        shuffle_deck(st, p)
    for p in range(nplayers):
        draw_cards(st, tb, log, p, tb.rules[R_OPENING_HAND])


@jit(V(ST, TB, CTL, LOG), entry=True)
def play_game(st, tb, ctl, log):
    """Play turns until the game ends (hero defeated, turn cap or script error)."""
    while st[G_OVER] == 0:
        play_turn(st, tb, ctl, log)


def has_expert(ctl):
    """Whether a seat of control array ``ctl`` plays the expert AI (``expert`` or ``expert-0.2``):
    its duels need the entry points with the lookahead search (``*_expert``)."""
    for p in range(4):
        m = ctl[CTL_MODE0 + p]
        if m == MODE_EXPERT or m == MODE_EXPERT02:
            return True
    return False


def play_duel(st, tb, ctl, log, hero_rows, seed, out):
    """One duel from start to end: :func:`setup_game`, :func:`play_game` and
    :func:`result_row` into ``out`` (int64, RES_FIELDS), in one compiled call (``Match.play``):
    :func:`play_duel_expert` if a seat plays the expert AI, else :func:`play_duel_plain`, which
    plays the same games without compiling the expert's search (a first duel compiles less)."""
    (play_duel_expert if has_expert(ctl) else play_duel_plain)(st, tb, ctl, log, hero_rows, seed, out)


@jit(V(ST, TB, CTL, LOG, A1, I, A1), entry=True)
def play_duel_plain(st, tb, ctl, log, hero_rows, seed, out):
    """:func:`play_duel` when no seat plays the expert AI: every turn is ``rules.take_turn``
    (what ``search.play_turn`` plays then)."""
    set_up(st, tb, ctl, log, hero_rows, 2, seed)
    while st[G_OVER] == 0:
        take_turn(st, tb, ctl, log)
    fill_result(st, out, seed)


@jit(V(ST, TB, CTL, LOG, A1, I, A1), entry=True)
def play_duel_expert(st, tb, ctl, log, hero_rows, seed, out):
    """:func:`play_duel` with the expert AI's turns (``search.play_turn``)."""
    set_up(st, tb, ctl, log, hero_rows, 2, seed)
    while st[G_OVER] == 0:
        play_turn(st, tb, ctl, log)
    fill_result(st, out, seed)


@jit(V(ST, A1, I), entry=True)
def result_row(st, out, seed):
    """Fill ``out`` (int64, RES_FIELDS) with the result of a finished game (:func:`fill_result`)."""
    fill_result(st, out, seed)


@jit(V(ST, A1, I))
def fill_result(st, out, seed):
    """Fill ``out`` (int64, RES_FIELDS) with the result of a finished game."""
    w = st[G_WINNER]
    out[RES_WINNER] = w if w >= 0 else DRAW
    out[RES_TURNS] = st[G_TURN] if st[G_REASON] == END_TURN_CAP else st[G_TURN] + 1
    out[RES_REASON] = st[G_REASON]
    for p in range(2):
        out[RES_HP0 + p] = st[fslot(p * FIGHTERS_PER_PLAYER, F_HP)]
        out[RES_SK0 + p] = sidekick_health(st, p)
        out[RES_PLAYED0 + p] = st[pslot(p, P_CARDS_PLAYED)]
    out[RES_DECISIONS] = st[G_DECISIONS]
    out[RES_SEED] = signed32(seed)


@jit(I(ST, I))
def sidekick_health(st, p):
    """Total health of player ``p``'s sidekicks in play (a result-row field)."""
    f = p * FIGHTERS_PER_PLAYER
    sk = 0
    for k in range(1, FIGHTERS_PER_PLAYER):
        if st[fslot(f + k, F_STATUS)] == FS_IN_PLAY:
            sk += st[fslot(f + k, F_HP)]
    return sk


@jit(V(CTL, CTL), inline=True)
def game_control(ctl, tpl):
    """Make ``ctl`` the control array ``tpl`` for a new game: copy the parts a game reads
    before it writes them (modes, presets, the context, weights, the explain buffer), the
    card-name ids only if there are any and the script only as far as it goes. The rest
    (the AI's work space, unused name and script slots) is written before it is read: left as
    it is, which saves copying most of the AI's work space (``CTL_SCRATCH``, 21 kB) per game; except the
    one-currency AI's prices (``SCR_PRICE``), set to 0: a player's are read (an opponent's card
    priced) before his first decision sets them, and were the last game's, or whatever the
    memory held (games then depended on the order they were played in, and a NaN there made
    release 0.2's ``0 x price`` NaN: the bench digest that failed CI now and then)."""
    for i in range(CTL_NAMES):
        ctl[i] = tpl[i]
    if tpl[CTL_HAS_NAMES] != 0:
        for i in range(CTL_NAMES, CTL_NAMES + MAX_CARD_IDS):
            ctl[i] = tpl[i]
    for i in range(CTL_SCRIPT, CTL_SCRIPT + 2 * tpl[CTL_LEN]):
        ctl[i] = tpl[i]
    for i in range(CTL_CTX_OP, CTL_RP_LIST):   # (the replay search's list: written before it is read)
        ctl[i] = tpl[i]
    for i in range(CTL_SIZE, tpl.shape[0]):
        ctl[i] = tpl[i]
    for i in range(SCR_PRICE, SCR_PRICE + N_PRICE):
        ctl[i] = 0   # the one-currency AI's prices (0.0): read for a player before his first decision sets them


def play_games(tb, ctl_template, hero_rows, run_seed, matchup, first_index, n_games, res, played, space_stats):
    """Play ``n_games`` two-player games, writing one result row per game.

    ``hero_rows``: int64 (2,) hero-table rows of seat 0 (moves first) and
    seat 1. ``res``: int64 (n_games, RES_FIELDS) output. ``played``: int64
    (n_games, 2, MAX_HERO_CARDS) output of per-card play counts per seat, or
    an array with 0 rows to skip them. ``space_stats``: int64 (2, MAX_SPACES),
    incremented by the combats (row 0, at the defender's space) and defeats
    (row 1) of all games. Game ``i`` uses the seed
    ``game_seed(run_seed, matchup, first_index + i)``, so results do not
    depend on how games are chunked.

    One compiled call: :func:`play_games_expert` if a seat plays the expert AI, else
    :func:`play_games_plain` (the same games, without compiling the expert's search).
    """
    (play_games_expert if has_expert(ctl_template) else play_games_plain)(
        tb, ctl_template, hero_rows, run_seed, matchup, first_index, n_games, res, played, space_stats)


@jit(V(TB, CTL, A1, I, I, I, I, A2, A3, A2), entry=True)
def play_games_plain(tb, ctl_template, hero_rows, run_seed, matchup, first_index, n_games, res, played, space_stats):
    """:func:`play_games` when no seat plays the expert AI: every turn is ``rules.take_turn``
    (what ``search.play_turn`` plays then), so the search is not compiled."""
    # the engine works on views that numba does not reference-count (see sigs.unmanaged):
    # ``tb`` is kept alive by the caller, the three work arrays below by this function
    tbu = unmanaged_tables(tb)
    st_m = np.zeros(STATE_SIZE, np.int64)
    log_m = np.zeros((0, 6), np.int64)
    ctl_m = np.empty_like(ctl_template)
    st = unmanaged(st_m)
    log = unmanaged(log_m)
    ctl = unmanaged(ctl_m)
    for i in range(n_games):
        seed = start_game(st, tbu, ctl, log, ctl_template, hero_rows, run_seed, matchup, first_index + i)
        while st[G_OVER] == 0:
            take_turn(st, tbu, ctl, log)
        record_game(st, res, played, space_stats, i, seed)
    st_m[0] += log_m.shape[0] + ctl_m[0] * 0   # the owners of the views live until here


@jit(V(TB, CTL, A1, I, I, I, I, A2, A3, A2), entry=True)
def play_games_expert(tb, ctl_template, hero_rows, run_seed, matchup, first_index, n_games, res, played, space_stats):
    """:func:`play_games` with the expert AI's turns (``search.play_turn``)."""
    tbu = unmanaged_tables(tb)
    st_m = np.zeros(STATE_SIZE, np.int64)
    log_m = np.zeros((0, 6), np.int64)
    ctl_m = np.empty_like(ctl_template)
    st = unmanaged(st_m)
    log = unmanaged(log_m)
    ctl = unmanaged(ctl_m)
    for i in range(n_games):
        seed = start_game(st, tbu, ctl, log, ctl_template, hero_rows, run_seed, matchup, first_index + i)
        while st[G_OVER] == 0:
            play_turn(st, tbu, ctl, log)
        record_game(st, res, played, space_stats, i, seed)
    st_m[0] += log_m.shape[0] + ctl_m[0] * 0   # the owners of the views live until here


@jit(I(ST, TB, CTL, LOG, CTL, A1, I, I, I))
def start_game(st, tb, ctl, log, ctl_template, hero_rows, run_seed, matchup, index):
    """Set up game ``index`` of :func:`play_games` (its control array from the template, its
    seed, the duel's setup); returns the seed."""
    game_control(ctl, ctl_template)
    seed = game_seed(run_seed, matchup, index)
    set_up(st, tb, ctl, log, hero_rows, 2, seed)
    return seed


@jit(V(ST, A2, A3, A2, I, I))
def record_game(st, res, played, space_stats, i, seed):
    """After game ``i`` of :func:`play_games`: its result row, its card-play counts (if
    ``played`` has rows) and the space statistics."""
    fill_result(st, res[i], seed)
    if played.shape[0] > 0:
        for p in range(2):
            for k in range(MAX_HERO_CARDS):
                played[i, p, k] = st[OFF_PLAYED + p * MAX_HERO_CARDS + k]
    for s in range(MAX_SPACES):
        space_stats[0, s] += st[OFF_SPACE_COMBATS + s]
        space_stats[1, s] += st[OFF_SPACE_DEFEATS + s]


# per-game result row of a team game (int64); seats 0..3 in turn order, team = seat % 2


@jit(V(ST, A1, I), entry=True)
def team_result_row(st, out, seed):
    """Fill ``out`` (int64, TRES_FIELDS) with the result of a finished team game
    (everything but the ``TRES_OUT0`` entries, which :func:`play_team_games` records
    as the game goes)."""
    w = st[G_WINNER]
    out[TRES_WINNER] = w if w >= 0 else DRAW
    out[TRES_TURNS] = st[G_TURN] if st[G_REASON] == END_TURN_CAP else st[G_TURN] + 1
    out[TRES_REASON] = st[G_REASON]
    for p in range(4):
        out[TRES_HP0 + p] = st[fslot(p * FIGHTERS_PER_PLAYER, F_HP)]
        out[TRES_SK0 + p] = sidekick_health(st, p)
        out[TRES_DEALT0 + p] = st[pslot(p, P_DEALT)]
        out[TRES_PLAYED0 + p] = st[pslot(p, P_CARDS_PLAYED)]
    out[TRES_DECISIONS] = st[G_DECISIONS]
    out[TRES_SEED] = signed32(seed)


@jit(V(ST, TB, CTL, LOG, A1), entry=True)
def play_team_game(st, tb, ctl, log, out):
    """Play a set-up team game to its end, turn by turn, writing into ``out``
    (int64, TRES_FIELDS) the turn in which each seat's hero was defeated
    (``TRES_OUT0 + seat``, 1-based; 0 if it never was)."""
    for p in range(4):
        out[TRES_OUT0 + p] = 0
    while st[G_OVER] == 0:
        take_turn(st, tb, ctl, log)
        for p in range(4):
            if out[TRES_OUT0 + p] == 0 and st[fslot(p * FIGHTERS_PER_PLAYER, F_STATUS)] == FS_DEFEATED:
                out[TRES_OUT0 + p] = st[G_TURN] if st[G_OVER] == 0 or st[G_REASON] == END_TURN_CAP else st[G_TURN] + 1


@jit(V(TB, CTL, A1, I, I, I, I, A2), entry=True)
def play_team_games(tb, ctl_template, hero_rows, run_seed, matchup, first_index, n_games, res):
    """Play ``n_games`` team games (four seats), writing one result row per game.

    ``hero_rows``: int64 (4,) hero-table rows of seats 0..3 in turn order (seats 0
    and 2 are team 0, 1 and 3 team 1; seat 0 moves first). ``res``: int64
    (n_games, TRES_FIELDS) output (``TRES_*``). Game ``i`` uses the seed
    ``game_seed(run_seed, matchup, first_index + i)``, so results do not depend on
    how games are chunked.
    """
    tbu = unmanaged_tables(tb)
    st_m = np.zeros(STATE_SIZE, np.int64)
    log_m = np.zeros((0, 6), np.int64)
    ctl_m = np.empty_like(ctl_template)
    st = unmanaged(st_m)
    log = unmanaged(log_m)
    ctl = unmanaged(ctl_m)
    for i in range(n_games):
        game_control(ctl, ctl_template)
        seed = game_seed(run_seed, matchup, first_index + i)
        set_up(st, tbu, ctl, log, hero_rows, 4, seed)
        play_team_game(st, tbu, ctl, log, res[i])
        team_result_row(st, res[i], seed)
    st_m[0] += log_m.shape[0] + ctl_m[0] * 0   # the owners of the views live until here


# the entry points Python calls, by what uses them (``unmatched-sim warmup`` compiles them all)
ENTRY_POINTS = {
    "duels": (play_duel_plain, play_duel_expert, setup_game, play_game, result_row,
              unpack_action),   # (the narration unpacks actions)
    "runs": (play_games_plain, play_games_expert),
    "team games": (play_team_game, team_result_row, play_team_games),
}
