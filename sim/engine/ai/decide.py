"""The greedy profile's scores, the explain buffer, and :func:`ai_decide`, the AI's entry
point from :func:`sim.engine.policy.decide`.
"""
from ..codes import (
    A_ATTACK, A_MANEUVER, D_ACTION, D_BOOST_ATTACK, D_BOOST_CARD, D_BOOST_MANEUVER, D_DEFENSE,
    D_DISCARD_EFFECT, D_DISCARD_LIMIT, D_FOG_DEST, D_FORCE_CARD, D_GUESS, D_MAY, D_MOVE_DEST, D_MOVE_STEP, D_MOVE_WHICH, D_FOG_TOKEN,
    D_OPPONENT, D_OPTION, D_PLACE, D_REDIRECT, D_REDIRECT_N, D_SETUP_SPACE, D_TAKE_CARD, D_TARGET, FS_IN_PLAY, HF_FOG_WALK,
    MODE_GREEDY,
)
from ..control import (
    CTL_CAP, CTL_CTX_F, CTL_EXPLAIN, CTL_MODE0, CTL_PLAN_BOOST, CTL_PLAN_KEY, CTL_SIZE, EXPLAIN_REC, EXPLAIN_TOP,
    MAX_SCR_SCORES, SCR_SCORES,
)
from ..core import n_slots, team_of
from ..layout import (
    C_VALUE, F_HP, F_KIND, F_OWNER, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_LOGN, G_NPLAYERS,
    H_FLAGS, P_HERO, pslot,
)
from ..sigs import A1, CTL, FA1, I, jit, ST, stack_i64, TB, V
from .weights import frozen, scratch_f1
from .estimate import score_opponents
from .redirect import score_redirect
from .position import action_key, plan_maneuver, set_price
from .choices import (
    score_actions, score_boost, score_defense, score_guess, score_hand_cards, score_may, score_options,
    score_spaces, score_targets,
)


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def greedy_scores(st, tb, ctl, p, kind, opts, n, scores):
    """The greedy profile: best attack card, else close in; defend with the best card; no BOOSTs."""
    if kind == D_ACTION:
        for i in range(n):
            a = opts[i]
            k = a & 3
            t = ((a >> 7) & 31) - 1
            c = (a >> 12) - 1
            if k == A_ATTACK:
                scores[i] = 100.0 + 10.0 * tb.cards[c, C_VALUE] + (5.0 if st[fslot(t, F_KIND)] == 0 else 0.0)
                scores[i] -= 0.01 * st[fslot(t, F_HP)]
            elif k == A_MANEUVER:
                scores[i] = 0.0
            else:
                scores[i] = -1.0
    elif kind == D_DEFENSE or kind == D_DISCARD_LIMIT:
        for i in range(n):
            c = opts[i]
            v = tb.cards[c, C_VALUE] if c >= 0 else -1
            scores[i] = float(v) if kind == D_DEFENSE else -float(v)
    elif kind == D_BOOST_MANEUVER or kind == D_BOOST_ATTACK or kind == D_BOOST_CARD:
        for i in range(n):
            scores[i] = 1.0 if opts[i] < 0 else 0.0
    else:   # D_MOVE_DEST for its own fighter: toward the nearest opposing fighter
        tm = team_of(st, p)
        for i in range(n):
            s = opts[i]
            best = 99
            for e in range(n_slots(st)):
                if st[fslot(e, F_STATUS)] == FS_IN_PLAY and team_of(st, st[fslot(e, F_OWNER)]) != tm:
                    d = tb.dist[s, st[fslot(e, F_SPACE)]]
                    if d < best:
                        best = d
            scores[i] = -float(best) - 0.001 * i


@jit(I(CTL, I, I, I, I, I))
def explain_record(ctl, logn, kind, p, n, samples):
    """Start a record in ``ctl``'s explain buffer (log position, decision kind, player,
    options, samples: 0 for a scored decision, the expert's samples for a search) and return
    where it starts; -1 if ``ctl`` has no explain buffer or it is full. The caller writes the
    shown candidates (``control.EXPLAIN_REC``)."""
    if ctl.shape[0] <= CTL_SIZE + 1:
        return -1
    cnt = ctl[CTL_EXPLAIN]
    base = CTL_EXPLAIN + 1 + cnt * EXPLAIN_REC
    end = ctl[CTL_CAP] if ctl[CTL_CAP] > 0 else ctl.shape[0]   # (an imitation capture area follows)
    if base + EXPLAIN_REC > end:
        return -1
    ctl[CTL_EXPLAIN] = cnt + 1
    ctl[base] = logn
    ctl[base + 1] = kind
    ctl[base + 2] = p
    ctl[base + 3] = n
    ctl[base + 5] = samples
    return base


@jit(V(CTL, I, I, I, I, A1, I, FA1))
def explain(ctl, logn, kind, p, chosen, opts, n, scores):
    """Record the top candidates of one decision in the explain buffer (if ``ctl`` has one)."""
    base = explain_record(ctl, logn, kind, p, n, 0)
    if base < 0:
        return
    used = stack_i64(MAX_SCR_SCORES)
    for j in range(n):
        used[j] = 0
    shown = 0
    order0 = chosen
    for r in range(EXPLAIN_TOP):
        if r >= n:
            break
        bi = order0 if r == 0 else -1
        if r > 0:
            for j in range(n):
                if used[j] == 0 and (bi < 0 or scores[j] > scores[bi]):
                    bi = j
        used[bi] = 1
        ctl[base + 6 + 3 * r] = opts[bi]
        ctl[base + 7 + 3 * r] = int(scores[bi] * 1000.0)
        ctl[base + 8 + 3 * r] = 0
        shown += 1
    ctl[base + 4] = shown


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def ai_scores(st, tb, ctl, kind, p, opts, n, scores):
    """The scripted AI's (standard or greedy) score of each option ``opts[:n]`` of player
    ``p``'s decision ``kind``, in points, into ``scores`` (float64, >= n; the best is the
    AI's choice). ``n``: 2..MAX_SCR_SCORES. Kinds it does not score get 0 (the first wins).
    The expert's search takes its candidates from these (``sim.engine.search``)."""
    for j in range(n):
        scores[j] = 0.0
    if not frozen(ctl, p):
        set_price(st, tb, ctl, p)
    greedy = ctl[CTL_MODE0 + p] == MODE_GREEDY
    if greedy and (kind == D_ACTION or kind == D_DEFENSE or kind == D_DISCARD_LIMIT
                   or kind == D_BOOST_MANEUVER or kind == D_BOOST_ATTACK or kind == D_BOOST_CARD
                   or (kind == D_MOVE_DEST and ctl[CTL_CTX_F] >= 0
                       and team_of(st, st[fslot(ctl[CTL_CTX_F], F_OWNER)]) == team_of(st, p))):
        greedy_scores(st, tb, ctl, p, kind, opts, n, scores)
    elif kind == D_ACTION:
        score_actions(st, tb, ctl, p, opts, n, scores)
    elif kind == D_DEFENSE:
        score_defense(st, tb, ctl, p, opts, n, scores)
    elif kind == D_BOOST_MANEUVER:
        if ctl[CTL_PLAN_KEY] != action_key(st, p):
            plan_maneuver(st, tb, ctl, p, 1)
        plan = ctl[CTL_PLAN_BOOST]
        for j in range(n):
            scores[j] = 1.0 if opts[j] == plan else 0.0
    elif kind == D_BOOST_ATTACK or kind == D_BOOST_CARD:
        score_boost(st, tb, ctl, p, kind, opts, n, scores)
    elif kind == D_MOVE_DEST or kind == D_PLACE or kind == D_SETUP_SPACE or kind == D_MOVE_STEP:
        g = ctl[CTL_CTX_F]
        if g < 0:
            g = p * FIGHTERS_PER_PLAYER
        score_spaces(st, tb, ctl, p, g, opts, n, scores)
    elif kind == D_TARGET:
        score_targets(st, tb, ctl, p, opts, n, scores)
    elif kind == D_DISCARD_LIMIT or kind == D_DISCARD_EFFECT or kind == D_TAKE_CARD:
        score_hand_cards(st, tb, ctl, p, kind, opts, n, scores)
    elif kind == D_MAY:
        score_may(st, tb, ctl, p, opts, n, scores)
    elif kind == D_OPTION:
        score_options(st, tb, ctl, p, opts, n, scores)
    elif kind == D_GUESS:
        score_guess(st, tb, ctl, p, opts, n, scores)
    elif kind == D_OPPONENT:
        score_opponents(st, tb, ctl, p, opts, n, scores)
    elif kind == D_REDIRECT or kind == D_REDIRECT_N:
        score_redirect(st, tb, ctl, p, kind, opts, n, scores)
    elif kind == D_FORCE_CARD:   # the opponent must play this card instead: their weakest
        for j in range(n):
            scores[j] = -float(tb.cards[opts[j], C_VALUE]) if opts[j] >= 0 else 0.0
    elif kind == D_FOG_DEST:     # our fog near our hero (he walks and defends on it); theirs far
        mine = (tb.heroes[st[pslot(p, P_HERO)], H_FLAGS] & HF_FOG_WALK) != 0
        h = p * FIGHTERS_PER_PLAYER
        if not mine:    # the fog is the opposing Invisible Man's: keep it away from him
            for r in range(st[G_NPLAYERS]):
                if team_of(st, r) != team_of(st, p):
                    h = r * FIGHTERS_PER_PLAYER
                    if st[G_NPLAYERS] <= 2 or (tb.heroes[st[pslot(r, P_HERO)], H_FLAGS] & HF_FOG_WALK) != 0:
                        break
        hs = st[fslot(h, F_SPACE)]
        for j in range(n):
            d = float(tb.dist[hs, opts[j]]) if hs >= 0 else 0.0
            scores[j] = -d if mine else d


@jit(I(ST, TB, CTL, I, I, A1, I))
def ai_decide(st, tb, ctl, kind, p, opts, n):
    """Index of the option the scripted AI (standard or greedy) picks; ``n`` >= 2."""
    if n > MAX_SCR_SCORES:   # (no engine decision lists more: legal_actions' buffer is this size)
        return 0
    if (kind == D_MOVE_WHICH or kind == D_FOG_TOKEN) and ctl.shape[0] <= CTL_SIZE + 1:
        return 0   # not scored (every option 0: the first wins); with an explain buffer they are recorded
    scores = scratch_f1(ctl, SCR_SCORES, n)
    ai_scores(st, tb, ctl, kind, p, opts, n, scores)
    best = 0
    for j in range(1, n):
        if scores[j] > scores[best]:
            best = j
    explain(ctl, st[G_LOGN], kind, p, best, opts, n, scores)
    return best
