"""Turn a game's event log into readable text, turn by turn.

Used by ``unmatched-sim duel`` and by the golden-game tests (the narration of
a seeded game is stored and diffed).
"""
from __future__ import annotations

import numpy as np

from sim.engine import layout as L
from sim.engine.control import EXPLAIN_REC
from sim.engine.policy import DECISION_DOMAINS
from sim.engine.rules import unpack_action


def narrate(game) -> list[str]:
    """Lines describing a :class:`sim.play.match.GameRecord` (or a team game's
    :class:`sim.play.teams.TeamGameRecord`), from setup to the winner."""
    return [header_line(game)] + narrate_events(game.match, game.log, game.turns) + [footer_line(game)]


def header_line(game) -> str:
    """The narration's first line: the heroes (with loadouts), the battlefield, the seed, who moves first."""
    m = game.match
    if hasattr(m, "header"):    # a team game (sim.play.teams.TeamMatch)
        return m.header(game)
    return (f"{m.hero_names[0]} ({m.content.label(int(m.rows[0]))}) vs {m.hero_names[1]} "
            f"({m.content.label(int(m.rows[1]))}) on {m.battlefield.name}, seed {game.seed}. "
            f"{m.hero_names[0]} moves first.")


def footer_line(game) -> str:
    """The narration's last line: the heroes' final health (a team game: and damage dealt)."""
    m = game.match
    if hasattr(m, "footer"):
        return m.footer(game)
    hp = [int(game.state[L.fslot(p * L.FIGHTERS_PER_PLAYER, L.F_HP)]) for p in range(2)]
    return f"Final health: {m.hero_names[0]} {hp[0]}, {m.hero_names[1]} {hp[1]}."


def _how(m, f, src, dst, budget, fog) -> str:
    """' (secret passage)' / ' (through the fog)' when a move of ``budget`` spaces from
    ``src`` to ``dst`` is impossible along lines alone (ignoring other fighters), so it
    must have used a Baskerville passage or the Invisible Man's fog; '' otherwise."""
    bf = m.battlefield
    adj = np.asarray(bf.adj) != 0
    S = adj.shape[0]

    def steps(extra):
        seen = {src}
        frontier = {src}
        for k in range(1, budget + 1):
            nxt = set()
            for u in frontier:
                nxt.update(v for v in range(S) if (adj[u, v] or (u, v) in extra) and v not in seen)
            if dst in nxt:
                return k
            seen |= nxt
            frontier = nxt
        return None

    if steps(set()) is not None:
        return ""
    passages = np.flatnonzero(np.asarray(bf.passage))
    pe = {(int(u), int(v)) for u in passages for v in passages if u != v}
    seat = f // L.FIGHTERS_PER_PLAYER
    walk = f % L.FIGHTERS_PER_PLAYER == 0 and bool(m.specs[seat].ability_flags & L.HF_FOG_WALK)
    fs = [s for s in fog[seat] if s >= 0] if walk else []
    fe = {(u, v) for u in fs for v in fs if u != v}
    if pe and steps(pe) is not None and (not fe or steps(fe) is None):
        return " (secret passage)"
    if fe and steps(fe) is not None:
        return " (through the fog)"
    return " (secret passage and fog)" if pe or fe else ""


def narrate_events(m, log, turns=None) -> list[str]:
    """Lines for the events of ``log`` ((n, 6) int64) played in match ``m``."""
    return [line for _, line in event_lines(m, log, turns)]


def event_lines(m, log, turns=None) -> list[tuple[int, str]]:
    """``(event index, line)`` for each event of ``log`` ((n, 6) int64) that the narration
    tells, in order: most events give one line; a BOOST's discard (told by its EV_BOOST)
    and the end of a scheme give none. ``turns``: the game's turns, for the last line."""
    bf = m.battlefield
    lines = []
    out = []
    names = m.fighter_names()
    cards = m.content.card_names
    heroes = m.hero_names
    sp = lambda s: bf.space_ids[s] if s >= 0 else "off the board"  # noqa: E731
    card = lambda c: cards[c] if c >= 0 else "no card"  # noqa: E731
    act_names = {L.A_MANEUVER: "MANEUVER", L.A_SCHEME: "SCHEME", L.A_ATTACK: "ATTACK"}
    fog = [[-1] * L.N_FOG for _ in range(len(heroes))]     # fog token spaces per seat, followed from EV_FOG
    winners = getattr(m, "team_names", heroes)     # EV_GAME_OVER names the winning team (a seat in a duel)
    for i, (ev, a, b, c, d, e) in enumerate(log.tolist()):
        out += [(i - 1, t) for t in lines[len(out):]]     # the lines the previous event told
        if ev == L.EV_SETUP:
            lines.append(f"  setup: {names[a]} on {sp(b)}")
        elif ev == L.EV_TURN:
            lines.append(f"Turn {b}: {heroes[a]}")
        elif ev == L.EV_ACTION:
            lines.append(f"  action {c}: {act_names[b]}")
        elif ev == L.EV_DRAW:
            lines.append(f"    {heroes[a]} draws {card(b)}")
        elif ev == L.EV_EXHAUST:
            lines.append(f"    {heroes[a]}'s deck is empty: {b} missing draw(s), exhaustion damage")
        elif ev == L.EV_BOOST:
            why = ("for movement", "face down with the attack", "onto the card")[c]
            lines.append(f"    {heroes[a]} boosts {why} with {card(b)} (+{d})")
        elif ev == L.EV_MOVE:
            lines.append(f"    {names[a]} moves {sp(b)} -> {sp(c)}{_how(m, a, b, c, d, fog)}")
        elif ev == L.EV_PLACE:
            lines.append(f"    {names[a]} is placed on {sp(c)}")
        elif ev == L.EV_SCHEME:
            lines.append(f"    {names[b]} plays scheme {card(c)}")
        elif ev == L.EV_ATTACK:
            lines.append(f"    {names[a]} attacks {names[b]} with {card(c)}")
        elif ev == L.EV_DEFENSE:
            lines.append(f"    {names[a]} defends with {card(b)}")
        elif ev == L.EV_CANCEL:
            whose = "attack" if b == 0 else "defense"
            lines.append(f"    {heroes[a]} cancels the effects on the {whose} card" if c
                         else f"    {heroes[a]} tries to cancel the {whose} card's effects, but they cannot be cancelled")
        elif ev == L.EV_VALUES:
            won = "attacker wins" if d else "defender wins"
            raw = max(a - b, 0)   # (e is after the defender's card's prevent_damage: a cap, or all of it)
            dmg = f"{e} combat damage" if e == raw else (
                f"{raw} combat damage, capped to {e} by the defender's card" if e > 0
                else f"{raw} combat damage, prevented by the defender's card")
            if c != e:
                dmg += f" ({c} taken)"
            lines.append(f"    attack {a} vs defense {b}: {dmg}, {won}")
        elif ev == L.EV_DAMAGE:
            amount = f"{b} damage" if b == d or d == 0 else f"{b} of {d} damage"
            lines.append(f"    {names[a]} takes {amount} (health {c})")
        elif ev == L.EV_REDIRECT:   # the before_damage ability: a cap (b -1) or a fighter taking a part instead
            what = "combat damage" if d else "damage"
            if b < 0:
                why = "its ability caps it" if b == -1 else "its card prevents it"
                lines.append(f"    {c} of the {what} to {names[a]} is kept off ({why})")
            else:
                lines.append(f"    {names[b]} takes {c} of the {what} in {names[a]}'s place")
        elif ev == L.EV_RECOVER:
            lines.append(f"    {names[a]} recovers {b} (health {c})")
        elif ev == L.EV_SET_HP:
            lines.append(f"    {names[a]}'s health is set to {b}")
        elif ev == L.EV_DEFEATED:
            lines.append(f"    {names[a]} is defeated")
        elif ev == L.EV_DISCARD:
            if c == 2:
                continue  # a boost, reported by EV_BOOST
            if c == 3:
                lines.append(f"    {heroes[a]} discards the top card of the deck: {card(b)} (BOOST {m.tables.cards[b, L.C_BOOST]})")
                continue
            why = "discards (hand limit)" if c == 1 else "discards"
            lines.append(f"    {heroes[a]} {why} {card(b)}")
        elif ev == L.EV_GAIN_ACTION:
            lines.append(f"    {heroes[a]} gains {b} action(s)")
        elif ev == L.EV_RETURN:
            lines.append(f"    {names[a]} returns on {sp(b)}")
        elif ev == L.EV_TAKE:
            if d == 3:
                lines.append(f"    {heroes[a]} reveals the top card of the deck, {card(b)} (BOOST "
                             f"{m.tables.cards[b, L.C_BOOST]}), and takes it into hand")
                continue
            if c == 1 and d == 1:
                lines.append(f"    {heroes[a]} puts a card from hand on top of the deck")
                continue
            if d == 1:     # reclaim to = "deck_top": from the discard pile onto the deck
                lines.append(f"    {heroes[a]} puts {card(b)} from the discard pile on top of the deck")
                continue
            if d == 2:     # shuffle_into_deck: the scheme goes into the deck, not to the discard pile
                lines.append(f"    {card(b)} is shuffled into {heroes[a]}'s deck")
                continue
            if d == 5:     # return_to_hand: the card just resolved goes back to the hand
                lines.append(f"    {card(b)} goes back to {heroes[a]}'s hand")
                continue
            if d == 4:     # reclaim to = "deck": from the discard pile into the deck, then shuffled
                lines.append(f"    {heroes[a]} shuffles {card(b)} from the discard pile into the deck")
                continue
            src = {0: " from the deck", 2: " from the discard pile"}.get(c, "")
            lines.append(f"    {heroes[a]} takes {card(b)} into hand{src}")
        elif ev == L.EV_LOOK_HAND:
            lines.append(f"    {heroes[a]} looks at {heroes[b]}'s hand")
        elif ev == L.EV_ONGOING:
            lines.append(f"    {card(b)} stays in play (ongoing)" if c else f"    ongoing {card(b)} is discarded")
        elif ev == L.EV_END_TURN:
            lines.append("    the turn ends")
        elif ev == L.EV_COUNTER:
            spec = m.specs[a]
            cname = next((n for n, (slot, _) in spec.counters.items() if slot == b), str(b))
            vals = spec.counters.get(cname, (0, ()))[1]
            lines.append(f"    {heroes[a]}: {cname} is now {vals[c] if c < len(vals) else c}")
        elif ev == L.EV_LOOK_TOP:
            if c >= 1:     # arrange_top: c - 1 owns the deck, d cards went to the bottom
                whose = "the" if c - 1 == a else f"{heroes[c - 1]}'s"
                lines.append(f"    {heroes[a]} looks at the top {b} card(s) of {whose} deck and puts them back"
                             + (f", {d} at the bottom" if d else ""))
            else:
                lines.append(f"    {heroes[a]} looks at the top {b} card(s) of the deck")
        elif ev == L.EV_SEARCH:
            found = card(b) if b >= 0 else "nothing"
            lines.append(f"    {heroes[a]} searches and finds {found}" + (" (deck shuffled)" if c else ""))
        elif ev == L.EV_CHOOSE:
            lines.append(f"    {heroes[a]} chooses effect {b}")
        elif ev == L.EV_REMOVE:
            lines.append(f"    {names[a]} leaves the board")
        elif ev == L.EV_SWAP:
            lines.append(f"    {names[a]} and {names[b]} swap spaces")
        elif ev == L.EV_DEFENDER:
            lines.append(f"    {names[a]} defends instead of {names[b]}")
        elif ev == L.EV_PIN:
            lines.append(f"    {names[a]} cannot leave its space this turn")
        elif ev == L.EV_IGNORE:
            lines.append(f"    {heroes[a]} ignores the discard")
        elif ev == L.EV_FOG:
            who = "" if e == a else f" ({heroes[e]} moves it)"
            if b < 0 or c < 0:
                lines.append(f"    {heroes[a]} puts a fog token on {sp(d)}")
            else:
                lines.append(f"    fog token moves {sp(c)} -> {sp(d)}{who}")
            fog[a][b] = d
            continue
        elif ev == L.EV_REPLACE:
            lines.append(f"    {card(b)} goes back to {heroes[a]}'s hand; {heroes[d]} makes them play {card(c)}")
        elif ev == L.EV_GUESS:
            lines.append(f"    {heroes[a]} names the value {b}")
        elif ev == L.EV_SET_PRINTED:
            whose = "attack" if b == 0 else "defense"
            lines.append(f"    {heroes[a]} sets the printed value of the {whose} card to {c}")
        elif ev == L.EV_ABILITY:
            if d == 1:
                continue       # the line after a fighter_defeated ability's events: nothing to say
            spec = m.specs[a]
            if b == L.HK_AFTER_ATTACK:
                moment = f"after {names[c]}'s attack"
            elif b == L.HK_AFTER_DEFENSE:
                moment = f"after {names[c]}'s defense"
            elif b == L.HK_FIGHTER_DEFEATED:
                moment = f"{names[c]} was defeated"
            else:
                moment = _HOOK_MOMENTS.get(b, "ability")
            lines.append(f"  {moment}: {spec.name}'s ability ({spec.ability_name})")
        elif ev == L.EV_GAME_OVER:
            if b == L.END_TURN_CAP:
                lines.append(f"Game over: turn cap reached, a draw after {turns} turns.")
            else:
                lines.append(f"Game over: {winners[a]} {'wins' if winners is heroes else 'win'}" + (f" on turn {turns}." if turns else "."))
    return out + [(len(log) - 1, t) for t in lines[len(out):]]


#: when an ability hook runs, in words (EV_ABILITY's hook); after_attack, after_defense and fighter_defeated
#: name a fighter
_HOOK_MOMENTS = {L.HK_SETUP: "setup", L.HK_START_TURN: "start of turn", L.HK_AFTER_MANEUVER: "after the maneuver",
                 L.HK_END_TURN: "end of turn"}


_KIND_NAMES = {
    L.D_ACTION: "action", L.D_DEFENSE: "defense card", L.D_BOOST_MANEUVER: "BOOST for the maneuver",
    L.D_BOOST_ATTACK: "face-down BOOST", L.D_BOOST_CARD: "BOOST onto the card", L.D_DISCARD_LIMIT: "discard (hand limit)",
    L.D_DISCARD_EFFECT: "discard", L.D_MOVE_WHICH: "fighter to move", L.D_MOVE_DEST: "destination",
    L.D_PLACE: "space to place", L.D_TARGET: "target", L.D_MAY: "may", L.D_SETUP_SPACE: "start space",
    L.D_OPTION: "option", L.D_TAKE_CARD: "card to take", L.D_MOVE_STEP: "next step",
    L.D_OPPONENT: "opponent", L.D_REDIRECT: "fighter taking the damage instead",
    L.D_REDIRECT_N: "damage it takes instead", L.D_GUESS: "value to name", L.D_FOG_TOKEN: "fog token to move",
    L.D_FOG_DEST: "fog token's destination", L.D_FORCE_CARD: "card the opponent must play",
}


def describe_option(m, kind: int, value: int) -> str:
    """A decision option (``value`` in the domain of decision ``kind``) in words."""
    names = m.fighter_names()
    dom = int(DECISION_DOMAINS[kind])
    if kind == L.D_ACTION:
        k, g, t, c = unpack_action(int(value))
        if k == L.A_MANEUVER:
            return "maneuver"
        if k == L.A_SCHEME:
            return f"scheme {m.content.card_names[c]}"
        return f"{names[g]} attacks {names[t]} with {m.content.card_names[c]}"
    if dom == L.DOM_CARD:
        return m.content.card_names[value] if value >= 0 else "none"
    if dom == L.DOM_FIGHTER:
        return names[value] if value >= 0 else "none"
    if dom == L.DOM_SPACE:
        return m.battlefield.space_ids[value]
    if dom == L.DOM_BOOL:
        return "yes" if value else "no"
    if kind == L.D_OPPONENT:
        return m.hero_names[value] + "'s player"
    if kind == L.D_REDIRECT_N:
        return f"{value} damage"
    if kind == L.D_GUESS:
        return f"value {value}"
    return f"option {value + 1}"


def narrate_explained(game) -> list[str]:
    """Like :func:`narrate`, with the AI's top candidates (and scores, in points) before
    each of its decisions that had a choice; needs a game played with ``explain``."""
    m = game.match
    ex = game.explain
    n = int(ex[0]) if ex is not None and len(ex) else 0
    recs = ex[1:1 + n * EXPLAIN_REC].reshape(n, EXPLAIN_REC) if n else []
    by_pos: dict[int, list[str]] = {}
    for r in recs:
        pos, kind, p, nopt, shown, samples = (int(x) for x in r[:6])

        def say(v, pos=pos, kind=kind):
            # a "choose" step's options are numbered from 1, as the event that follows says them
            if kind == L.D_OPTION and pos < len(game.log) and int(game.log[pos][0]) == L.EV_CHOOSE:
                return f"effect {v}"
            return describe_option(m, kind, v)
        if samples:   # the expert's search: mean worth of the lookahead, its standard error
            cands = "; ".join(f"{say(int(r[6 + 3 * i]))} {r[7 + 3 * i] / 1000:+.2f}"
                              f" \u00b1{r[8 + 3 * i] / 1000:.2f}" for i in range(shown))
        else:
            cands = "; ".join(f"{say(int(r[6 + 3 * i]))} {r[7 + 3 * i] / 1000:+.2f}"
                              for i in range(shown))
        more = f" (+{nopt - shown} more)" if nopt > shown else ""
        if samples and shown >= 2 and max(int(r[7 + 3 * i]) for i in range(1, shown)) > int(r[7]):
            # the replay search keeps the standard AI's choice unless another beats it clearly
            more += " (kept: no other option beat it by 2 standard errors)"
        how = f" ({samples} samples, lookahead)" if samples else ""
        by_pos.setdefault(pos, []).append(f"      [{m.hero_names[p]} chooses {_KIND_NAMES.get(kind, kind)}{how}: "
                                          f"{cands}{more}]")
    body = []
    for i in range(len(game.log)):
        body += by_pos.get(i, [])
        body += narrate_events(m, game.log[i:i + 1], game.turns)
    body += [x for pos, lines in by_pos.items() if pos >= len(game.log) for x in lines]
    return [header_line(game)] + body + [footer_line(game)]
