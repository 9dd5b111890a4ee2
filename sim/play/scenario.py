"""Scenario API: build a position from a plain dict, resolve one step, read the result.

Rule tests and card tests use this to put fighters and cards exactly where a
rules case says, resolve one step with scripted choices, and assert numbers.

Example (Gaze of Stone against Regroup)::

    from sim.play.scenario import resolve
    out = resolve({
        "battlefield": "marmoreal",
        "players": [
            {"hero": "medusa", "fighters": {"Medusa": {"space": "M13"}},
             "hand": ["Gaze of Stone"]},
            {"hero": "sinbad", "fighters": {"Sinbad": {"space": "M20", "health": 13}},
             "hand": ["Regroup"], "deck": ["Feint", "Exploit", "Leap Away"]},
        ],
    }, {"attack": "Gaze of Stone", "by": "Medusa", "target": "Sinbad", "defense": "Regroup"})
    out["combat"]["winner"]               # 'attacker' (2 - 1 = 1 combat damage)
    out["fighters"]["Sinbad"]["health"]   # 4 (13 - 1, then Gaze of Stone's 8)

Position dict keys:

* ``battlefield`` (key, default ``marmoreal``), ``rules`` (rules options),
  ``active`` (seat whose turn it is, default 0), ``actions`` (actions the
  active player has left after the current one, default 1), ``turn``.
* ``players``: two dicts (a duel), or four (a team game: seats 0 and 2 are one team,
  1 and 3 the other; the battlefield needs four start spaces), each with ``hero`` (key or ``key@loadout``),
  ``fighters`` ({name: {"space": id, "health": n} | "defeated" | "removed"};
  fighters not listed are defeated/off the board, the hero must be listed),
  ``hand``/``deck``/``discard`` (card names; the deck's first name is the
  top card), ``counters`` ({counter: value name}; Jekyll & Hyde's form is
  the counter ``form``), ``fog`` (up to 3 space ids of the Invisible Man's
  fog tokens; his hero "started on fog" when his ``started_on`` space is one),
  ``ongoing`` (card name), ``started_on`` ({fighter: space id} where a
  fighter began this turn, default its current space).

Fighter names are the hero's name and sidekick names, numbered when a hero
has several ("Harpy 1", "Harpy 2").

Steps: ``{"maneuver": True}``, ``{"scheme": card, "by": fighter}``,
``{"attack": card, "by": fighter, "target": fighter, "defense": card|None,
"boost": card|None}``, ``{"start_of_turn": True}``, ``{"end_of_turn": True}``,
``{"turn": True}`` (a whole turn, every decision scripted).

``choices``: the answers to the decisions the step asks, in order. Each is a
space id, a fighter name, a card name, ``None`` (no card), ``True``/``False``
(for "may"), an int (an option number), or an explicit pair such as
``("space", "M13")``. A decision with one legal option is not asked. If the
step needs a choice that is missing or illegal, :class:`ScenarioError` says
which decision it was and lists the legal options.
"""
from __future__ import annotations

import numpy as np

from sim.content.profiles import ProfileError, get_profile
from sim.engine import layout as L
from sim.engine.control import CTL_EXPLAIN, EXPLAIN_REC
from sim.engine.core import PILE_DECK, PILE_DISC, PILE_HAND, check_end, pile_push, rng_seed
from sim.engine.policy import (CTL_ERR_KIND, CTL_ERR_N, CTL_ERR_OPTS, CTL_ERR_PLAYER, CTL_ERR_PRESET, CTL_ERR_VALUE,
    CTL_LEN, CTL_POS, DECISION_DOMAINS, MODE_SCRIPT, new_control)
from sim.engine.rules import (do_attack, do_maneuver, do_scheme, end_of_turn, legal_actions, pack_action,
    start_of_turn, take_turn, unpack_action)
from sim.play.match import Match
from sim.play.narrate import describe_option, narrate_events
from sim.play.teams import TeamMatch

DECISION_NAMES = {
    L.D_ACTION: "action", L.D_DEFENSE: "defense card", L.D_BOOST_MANEUVER: "maneuver boost card",
    L.D_BOOST_ATTACK: "face-down attack boost", L.D_BOOST_CARD: "boost card", L.D_DISCARD_LIMIT:
    "hand-limit discard", L.D_DISCARD_EFFECT: "card to discard", L.D_MOVE_WHICH: "fighter to move next",
    L.D_MOVE_DEST: "destination space", L.D_PLACE: "space to place on", L.D_TARGET: "target fighter",
    L.D_MAY: "yes/no ('may')", L.D_SETUP_SPACE: "setup space", L.D_OPTION: "option number",
    L.D_TAKE_CARD: "card to take", L.D_GUESS: "value to name", L.D_FOG_TOKEN: "fog token (its space)",
    L.D_FOG_DEST: "space for the fog token", L.D_FORCE_CARD: "card the opponent must play",
    L.D_OPPONENT: "opposing player", L.D_REDIRECT: "fighter taking the damage instead (or none)",
    L.D_REDIRECT_N: "damage it takes instead",
}
DOMAIN_NAMES = {L.DOM_INT: "option", L.DOM_CARD: "card", L.DOM_FIGHTER: "fighter",
                L.DOM_SPACE: "space", L.DOM_BOOL: "yes/no"}
STATUS_NAMES = {L.FS_IN_PLAY: "in play", L.FS_DEFEATED: "defeated", L.FS_REMOVED: "removed",
                L.FS_UNUSED: "unused"}


POSITION_KEYS = {"battlefield", "rules", "active", "actions", "turn", "players"}
PLAYER_KEYS = {"hero", "fighters", "hand", "deck", "discard", "counters", "fog", "ongoing", "started_on"}
STEP_KEYS = {"maneuver": set(), "scheme": {"by"}, "attack": {"by", "target", "defense", "boost"},
             "start_of_turn": set(), "end_of_turn": set(), "turn": set()}


class ScenarioError(ValueError):
    """A position or step is invalid, or a scripted choice was missing or illegal."""


class Scenario:
    """A position built from a dict, with helpers to name things both ways."""

    def __init__(self, position: dict, seed: int = 0):
        if not isinstance(position, dict):
            raise ScenarioError(f"position must be a dict with 'players' (and optionally {', '.join(sorted(POSITION_KEYS - {'players'}))}), "
                                f"got {type(position).__name__}")
        bad = set(position) - POSITION_KEYS
        if bad:
            raise ScenarioError(f"unknown position key(s) {sorted(bad)}; valid: {', '.join(sorted(POSITION_KEYS))}")
        self.position = position
        players = position.get("players")
        if not (isinstance(players, list) and len(players) in (2, 4) and all(isinstance(p, dict) for p in players)):
            raise ScenarioError("position needs 'players': a list of two player dicts (a duel) or four "
                                "(a team game: seats 0 and 2 against seats 1 and 3)")
        self.n_players = len(players)
        for i, pd in enumerate(players):
            bad = set(pd) - PLAYER_KEYS
            if bad:
                raise ScenarioError(f"player {i}: unknown key(s) {sorted(bad)}; valid: {', '.join(sorted(PLAYER_KEYS))}")
        try:
            heroes = [p["hero"] for p in players]
            bf = position.get("battlefield", "marmoreal")
            if self.n_players == 2:
                self.match = Match(heroes, bf, rules=position.get("rules"))
            else:
                self.match = TeamMatch([heroes[0], heroes[2]], [heroes[1], heroes[3]], bf, rules=position.get("rules"))
        except KeyError:
            raise ScenarioError("each player needs a 'hero'") from None
        except ValueError as e:
            raise ScenarioError(str(e)) from None
        m = self.match
        self.bf = m.battlefield
        self.names = m.fighter_names()
        cn = m.content.card_names
        self.name_ids = {n: i for i, n in enumerate(dict.fromkeys(cn))}
        self.card_name_ids = np.array([self.name_ids[n] for n in cn], np.int64)
        self.st = np.zeros(L.STATE_SIZE, np.int64)
        self._build(players, seed)

    # ------------------------------------------------------------ naming
    def space(self, sid):
        try:
            return self.bf.index(sid)
        except ValueError:
            raise ScenarioError(f"unknown space {sid!r} on {self.bf.key}; valid: {', '.join(self.bf.space_ids)}") from None

    def fighter(self, name, seat=None, role="fighter"):
        seats = [seat] if seat is not None else range(self.n_players)
        for s in seats:
            for k in range(L.FIGHTERS_PER_PLAYER):
                f = s * L.FIGHTERS_PER_PLAYER + k
                if self.names[f] == name and name:
                    return f
        if seat is None:
            valid = [n for n in self.names if n]
            raise ScenarioError(f"unknown {role} {name!r}; valid: {', '.join(valid)}")
        valid = [n for n in self.names[seat * L.FIGHTERS_PER_PLAYER:(seat + 1) * L.FIGHTERS_PER_PLAYER] if n]
        raise ScenarioError(f"{role} {name!r} is not a fighter of {self.match.hero_names[seat]} (seat {seat}); "
                            f"valid: {', '.join(valid)}")

    def card(self, seat, name):
        key = self.match.keys[seat]
        cid = self.match.content.card_ids.get((key, name))
        if cid is None:
            valid = [c.name for c in self.match.specs[seat].cards]
            raise ScenarioError(f"{key} has no card {name!r}; valid: {', '.join(valid)}")
        return cid

    # ------------------------------------------------------------ building
    def _build(self, players, seed):
        st, m = self.st, self.match
        pos = self.position
        st[L.G_NPLAYERS] = self.n_players
        if self.n_players > 2:
            st[L.G_OPPONENT] = -1     # no opponent chosen yet (team games, as in setup_game)
        st[L.G_WINNER] = -1
        st[L.G_ACTIVE] = int(pos.get("active", 0))
        st[L.G_ACTIONS] = int(pos.get("actions", 1))
        st[L.G_ACTION_NO] = 1
        st[L.G_TURN] = int(pos.get("turn", 0))
        rng_seed(st, seed)
        for seat, pd in enumerate(players):
            spec = m.specs[seat]
            st[L.pslot(seat, L.P_HERO)] = m.rows[seat]
            st[L.pslot(seat, L.P_TEAM)] = seat % 2
            st[L.pslot(seat, L.P_ONGOING)] = -1
            for i in range(L.N_FOG):
                st[L.pslot(seat, L.P_FOG0 + i)] = -1
            fspecs = [spec.hero] + [sk for sk in spec.sidekicks for _ in range(sk.count)]
            st[L.pslot(seat, L.P_NFIGHTERS)] = len(fspecs)
            given = dict(pd.get("fighters", {}))
            for k, fs in enumerate(fspecs):
                f = seat * L.FIGHTERS_PER_PLAYER + k
                name = self.names[f]
                st[L.fslot(f, L.F_OWNER)] = seat
                st[L.fslot(f, L.F_KIND)] = fs.kind
                st[L.fslot(f, L.F_MOVE)] = fs.move
                st[L.fslot(f, L.F_RANGED)] = int(fs.ranged)
                st[L.fslot(f, L.F_MAXHP)] = fs.health
                st[L.fslot(f, L.F_HP)] = fs.health
                st[L.fslot(f, L.F_SPACE)] = -1
                info = given.pop(name, None)
                if info is None and k == 0:
                    raise ScenarioError(f"player {seat}: the hero {name!r} must be listed in 'fighters'")
                if info is None or info == "defeated":
                    st[L.fslot(f, L.F_STATUS)] = L.FS_DEFEATED
                    st[L.fslot(f, L.F_HP)] = 0
                    if k == 0:
                        raise ScenarioError(f"player {seat}: the hero cannot start defeated")
                elif info == "removed":
                    st[L.fslot(f, L.F_STATUS)] = L.FS_REMOVED
                elif isinstance(info, dict):
                    bad = set(info) - {"space", "health"}
                    if bad:
                        raise ScenarioError(f"fighter {name!r}: unknown key(s) {sorted(bad)}; valid: space, health")
                    st[L.fslot(f, L.F_STATUS)] = L.FS_IN_PLAY
                    st[L.fslot(f, L.F_SPACE)] = self.space(info.get("space"))
                    hp = int(info.get("health", fs.health))
                    if not 1 <= hp <= fs.health:
                        raise ScenarioError(f"fighter {name!r}: health {hp} not in 1..{fs.health}")
                    st[L.fslot(f, L.F_HP)] = hp
                else:
                    raise ScenarioError(f"fighter {name!r}: give {{'space': id, 'health': n}}, 'defeated' or 'removed'")
            if given:
                raise ScenarioError(f"player {seat}: unknown fighter(s) {sorted(given)}; valid: "
                                    + ", ".join(n for n in self.names[seat * L.FIGHTERS_PER_PLAYER:(seat + 1) * L.FIGHTERS_PER_PLAYER] if n))
            for pile, key in ((PILE_HAND, "hand"), (PILE_DISC, "discard")):
                for cname in pd.get(key, []):
                    pile_push(st, pile, seat, self.card(seat, cname))
            for cname in reversed(pd.get("deck", [])):
                pile_push(st, PILE_DECK, seat, self.card(seat, cname))
            for key in ("hand", "deck", "discard"):
                if not isinstance(pd.get(key, []), list):
                    raise ScenarioError(f"player {seat}: '{key}' must be a list of card names")
            used = {}
            for cname in pd.get("hand", []) + pd.get("deck", []) + pd.get("discard", []) + (
                    [pd["ongoing"]] if pd.get("ongoing") else []):
                used[cname] = used.get(cname, 0) + 1
            copies = {spec.cards[i].name: n for i, n in spec.deck(m.loadouts[seat])}
            for cname, n in used.items():
                if n > copies.get(cname, 0):
                    where = f" with loadout {m.loadouts[seat]}" if m.loadouts[seat] else ""
                    raise ScenarioError(f"player {seat}: {n} copies of {cname!r} in hand, deck, discard and ongoing; "
                                        f"{spec.name}'s deck{where} has {copies.get(cname, 0)}")
            for cname, vname in pd.get("counters", {}).items():
                if cname not in spec.counters:
                    raise ScenarioError(f"{spec.key}: unknown counter {cname!r}; valid: {', '.join(spec.counters) or '(none)'}")
                slot, values = spec.counters[cname]
                if vname not in values:
                    raise ScenarioError(f"{spec.key}: counter {cname!r} value {vname!r}; valid: {', '.join(values)}")
                st[L.pslot(seat, L.P_COUNTER0 + slot)] = values.index(vname)
            fog = pd.get("fog", [])
            if not isinstance(fog, list) or len(fog) > L.N_FOG:
                raise ScenarioError(f"player {seat}: 'fog' must be a list of at most {L.N_FOG} space ids")
            if fog and not spec.ability_flags & L.HF_FOG_WALK:
                raise ScenarioError(f"player {seat}: {spec.name} has no fog tokens")
            for i, sid in enumerate(fog):
                st[L.pslot(seat, L.P_FOG0 + i)] = self.space(sid)
            if pd.get("ongoing"):
                st[L.pslot(seat, L.P_ONGOING)] = self.card(seat, pd["ongoing"])
        occupied = {}
        for f in range(L.MAX_FIGHTERS):
            if st[L.fslot(f, L.F_STATUS)] == L.FS_IN_PLAY:
                s = int(st[L.fslot(f, L.F_SPACE)])
                if s in occupied:
                    raise ScenarioError(f"{self.names[f]} and {self.names[occupied[s]]} are both on {self.bf.space_ids[s]}")
                occupied[s] = f
                st[L.fslot(f, L.F_START_SPACE)] = s
        for seat, pd in enumerate(players):
            for name, sid in pd.get("started_on", {}).items():
                f = self.fighter(name, seat)
                st[L.fslot(f, L.F_START_SPACE)] = self.space(sid)
                if st[L.fslot(f, L.F_SPACE)] != self.space(sid):
                    st[L.fslot(f, L.F_LEFT)] = 1    # it has left its starting space this turn
            # the hero began the turn on a fog space: where it started, with the fog as given
            h = seat * L.FIGHTERS_PER_PLAYER
            fog = [st[L.pslot(seat, L.P_FOG0 + i)] for i in range(L.N_FOG)]
            start = st[L.fslot(h, L.F_START_SPACE)]
            st[L.pslot(seat, L.P_START_FOG)] = int(st[L.fslot(h, L.F_STATUS)] == L.FS_IN_PLAY and start in fog)

    # ------------------------------------------------------------ choices
    def encode_choice(self, c):
        if isinstance(c, tuple) and len(c) == 2:
            kind, v = c
            table = {"space": (L.DOM_SPACE, lambda v: self.space(v)),
                     "fighter": (L.DOM_FIGHTER, lambda v: -1 if v is None else self.fighter(v)),
                     "card": (L.DOM_CARD, lambda v: -1 if v is None else self._card_name(v)),
                     "option": (L.DOM_INT, int), "yes": (L.DOM_BOOL, lambda v: int(bool(v)))}
            if kind not in table:
                raise ScenarioError(f"choice {c!r}: kind must be one of {', '.join(table)}")
            dom, fn = table[kind]
            return dom, fn(v)
        if c is None:
            return L.DOM_CARD, -1
        if isinstance(c, bool):
            return L.DOM_BOOL, int(c)
        if isinstance(c, int):
            return L.DOM_INT, c
        if isinstance(c, str):
            if c in self.bf.space_ids:
                return L.DOM_SPACE, self.bf.index(c)
            if c in self.names:
                return L.DOM_FIGHTER, self.names.index(c)
            if c in self.name_ids:
                return L.DOM_CARD, self.name_ids[c]
        raise ScenarioError(f"choice {c!r} is not a space, fighter or card name, None, True/False or an int")

    def _card_name(self, name):
        if name not in self.name_ids:
            raise ScenarioError(f"unknown card {name!r}; cards in this match: {', '.join(self.name_ids)}")
        return self.name_ids[name]

    def describe_value(self, dom, v):
        if dom == L.DOM_SPACE:
            return self.bf.space_ids[v] if 0 <= v < self.bf.n_spaces else str(v)
        if dom == L.DOM_FIGHTER:
            return self.names[v] if 0 <= v < len(self.names) else str(v)
        if dom == L.DOM_CARD:
            return "no card" if v < 0 else self.match.content.card_names[v] if v < len(self.match.content.card_names) else str(v)
        if dom == L.DOM_BOOL:
            return "yes" if v else "no"
        return str(v)

    # ------------------------------------------------------------ results
    def snapshot(self) -> dict:
        """The position as a plain dict (see module docstring for the keys)."""
        st, m = self.st, self.match
        cn = m.content.card_names
        out = {"fighters": {}, "players": []}
        for f, name in enumerate(self.names):
            if not name:
                continue
            s = int(st[L.fslot(f, L.F_SPACE)])
            out["fighters"][name] = {
                "space": self.bf.space_ids[s] if s >= 0 else None,
                "health": int(st[L.fslot(f, L.F_HP)]),
                "status": STATUS_NAMES[int(st[L.fslot(f, L.F_STATUS)])],
            }
        for seat in range(self.n_players):
            spec = m.specs[seat]
            piles = {}
            for key, base, nslot in (("hand", L.OFF_HAND, L.P_HANDN), ("deck", L.OFF_DECK, L.P_DECKN),
                                     ("discard", L.OFF_DISC, L.P_DISCN)):
                n = int(st[L.pslot(seat, nslot)])
                ids = st[base + seat * L.MAX_CARDS: base + seat * L.MAX_CARDS + n]
                names = [cn[i] for i in ids]
                piles[key] = names[::-1] if key == "deck" else names
            og = int(st[L.pslot(seat, L.P_ONGOING)])
            counters = {c: values[int(st[L.pslot(seat, L.P_COUNTER0 + slot)])]
                        for c, (slot, values) in spec.counters.items()}
            fog = [self.bf.space_ids[int(st[L.pslot(seat, L.P_FOG0 + i)])] for i in range(L.N_FOG)
                   if st[L.pslot(seat, L.P_FOG0 + i)] >= 0]
            out["players"].append({"hero": spec.name, **piles, "ongoing": cn[og] if og >= 0 else None,
                                   "counters": counters, "fog": fog,
                                   "hand_seen": bool(st[L.pslot(seat, L.P_HAND_SEEN)])})
        out["actions_left"] = int(st[L.G_ACTIONS])
        out["turn_ended"] = bool(st[L.G_ENDTURN])
        w = int(st[L.G_WINNER])
        names = m.hero_names if self.n_players == 2 else m.team_names   # a team game's winner is a team
        out["winner"] = None if not st[L.G_OVER] else ("draw" if w == -2 else names[w] if w >= 0 else None)
        return out


def resolve(position: dict, step: dict, choices=(), seed: int = 0, fallback: str = "error", ai=None) -> dict:
    """Build ``position``, resolve one ``step`` with scripted ``choices``; return the result dict.

    The result is :meth:`Scenario.snapshot` plus ``combat`` (for an attack:
    attack and defense values, combat damage, 'attacker'/'defender' as the
    winner), ``choices_used`` and ``log`` (narration lines of the step).
    ``fallback``: what to do when the step needs a choice the list does not
    give: 'error' (raise ScenarioError), 'random' or 'first'.
    ``ai``: an AI profile (name, file or ``AIProfile``) that makes every choice
    instead of a script (``choices`` must then be empty); the result then has
    ``decisions``: one dict per AI decision with a choice (``player`` seat,
    ``kind``, ``chosen`` and ``candidates`` [(option, score in points)], best first).
    Raises ScenarioError on a bad position, step or choice.
    """
    sc = Scenario(position, seed)
    if ai is not None:
        if choices:
            raise ScenarioError("give either scripted choices or ai=PROFILE, not both")
        return _run(sc, step, (), "error", ai)
    return sc.run(step, choices, fallback)


def _run(sc: Scenario, step: dict, choices, fallback, ai=None):
    st, m = sc.st, sc.match
    tb = m.tables
    fb = {"error": 0, "random": 1, "first": 2}.get(fallback)
    if fb is None:
        raise ScenarioError(f"fallback {fallback!r}; valid: error, random, first")
    script = [sc.encode_choice(c) for c in choices]
    presets = {}
    p = int(st[L.G_ACTIVE])
    if not isinstance(step, dict) or not step:
        raise ScenarioError("step must be a dict such as {'maneuver': True} or {'attack': card, 'by': ..., 'target': ...}")
    kinds = [k for k in step if k in STEP_KEYS]
    if len(kinds) != 1:
        raise ScenarioError(f"step {step!r} must name exactly one of: {', '.join(STEP_KEYS)}")
    kind = kinds[0]
    bad = set(step) - {kind} - STEP_KEYS[kind]
    if bad:
        raise ScenarioError(f"step {kind!r} does not take {sorted(bad)}; it takes: {', '.join(sorted(STEP_KEYS[kind])) or 'nothing else'}")
    if not isinstance(choices, (list, tuple)):
        raise ScenarioError(f"choices must be a list, got {type(choices).__name__}")
    if "attack" in step:
        a = sc.fighter(step.get("by"), p, "attacker")
        t = sc.fighter(step.get("target"), 1 - p if sc.n_players == 2 else None, "target")
        if sc.st[L.fslot(t, L.F_OWNER)] % 2 == p % 2:     # a team game: not a teammate's fighter
            raise ScenarioError(f"target {step.get('target')!r} is not an opposing fighter of {m.hero_names[p]}")
        card = sc.card(p, step["attack"])
        if "defense" in step:
            d = step["defense"]
            presets[L.D_DEFENSE] = -1 if d is None else sc._card_name(d)
        if "boost" in step:
            b = step["boost"]
            presets[L.D_BOOST_ATTACK] = -1 if b is None else sc._card_name(b)
    log = np.zeros((20000, L.EV_FIELDS), np.int64)
    if ai is not None:
        try:
            prof = get_profile(ai)
        except ProfileError as e:
            raise ScenarioError(str(e)) from None
        ctl = new_control((prof.mode,) * 4, (), 0, presets, sc.card_name_ids, weights=(prof.weights,) * 4,
                          explain=2000)
    else:
        ctl = new_control((MODE_SCRIPT,) * 4, script, fb, presets, sc.card_name_ids)
    st[L.G_LOGN] = 0
    if "attack" in step:
        _check_legal(sc, p, pack_action(L.A_ATTACK, a, t, card),
                     f"{step['by']} cannot attack {step['target']} with {step['attack']!r}")
        do_attack(st, tb, ctl, log, p, a, t, card)
        check_end(st, tb, log)
    elif kind == "maneuver":
        do_maneuver(st, tb, ctl, log, p)
        check_end(st, tb, log)
    elif kind == "scheme":
        g = sc.fighter(step.get("by", m.hero_names[p]), p, "scheme player")
        card = sc.card(p, step["scheme"])
        _check_legal(sc, p, pack_action(L.A_SCHEME, g, -1, card),
                     f"{m.fighter_names()[g]} cannot play the scheme {step['scheme']!r}")
        do_scheme(st, tb, ctl, log, p, g, card)
        check_end(st, tb, log)
    elif kind == "start_of_turn":
        start_of_turn(st, tb, ctl, log, p)
    elif kind == "end_of_turn":
        end_of_turn(st, tb, ctl, log, p)
    elif kind == "turn":
        take_turn(st, tb, ctl, log)
    else:
        raise ScenarioError(f"unknown step {kind!r}; valid: maneuver, scheme, attack, start_of_turn, end_of_turn, turn")
    if st[L.G_ERR]:
        kind_ = int(ctl[CTL_ERR_KIND])
        dom = int(DECISION_DOMAINS[kind_])
        n = int(ctl[CTL_ERR_N])
        opts = [sc.describe_value(dom, int(v)) for v in ctl[CTL_ERR_OPTS:CTL_ERR_OPTS + min(n, 64)]]
        who = m.hero_names[int(ctl[CTL_ERR_PLAYER])]
        what = DECISION_NAMES.get(kind_, str(kind_))
        if st[L.G_ERR] == L.ERR_SCRIPT_EMPTY:
            msg = f"the step needs another choice: {who} chooses a {what}"
        else:
            val = int(ctl[CTL_ERR_VALUE])
            shown = (list(sc.name_ids)[val] if dom == L.DOM_CARD and val >= 0 and val < len(sc.name_ids)
                     else sc.describe_value(dom, val))
            where = "the step's card" if ctl[CTL_ERR_PRESET] else f"choice {int(ctl[CTL_POS])}"
            msg = (f"{where} ({shown!r}) is not legal for {who}'s {what}"
                   if st[L.G_ERR] == L.ERR_SCRIPT_ILLEGAL else
                   f"choice {int(ctl[CTL_POS])} is a {DOMAIN_NAMES.get(_dom_of(script, int(ctl[CTL_POS]) - 1), '?')}, "
                   f"but {who} is choosing a {what}")
        raise ScenarioError(f"{msg}; legal options: {', '.join(opts)}")
    out = sc.snapshot()
    o = L.OFF_CB
    if "attack" in step:
        out["combat"] = {"attack_value": int(st[o + L.CB_VAL0]), "defense_value": int(st[o + L.CB_VAL1]),
                         "damage": int(st[o + L.CB_DMG]),
                         "winner": "attacker" if st[o + L.CB_WON] == 1 else "defender" if st[o + L.CB_WON] == 0 else None}
    out["choices_used"] = int(ctl[CTL_POS])
    if int(ctl[CTL_POS]) < int(ctl[CTL_LEN]) and fb == 0:
        raise ScenarioError(f"only {int(ctl[CTL_POS])} of {int(ctl[CTL_LEN])} choices were used; the step asked fewer decisions")
    out["log"] = narrate_events(m, log[: st[L.G_LOGN]])
    if ai is not None:
        out["decisions"] = _decisions(m, ctl)
    return out


def _decisions(m, ctl) -> list[dict]:
    """The AI decisions recorded in ``ctl``'s explain buffer, in words."""
    n = int(ctl[CTL_EXPLAIN])
    out = []
    for r in ctl[CTL_EXPLAIN + 1:CTL_EXPLAIN + 1 + n * EXPLAIN_REC].reshape(n, EXPLAIN_REC):
        kind, p, shown = int(r[1]), int(r[2]), int(r[4])
        cands = [(describe_option(m, kind, int(r[6 + 3 * i])), r[7 + 3 * i] / 1000) for i in range(shown)]
        out.append({"player": p, "kind": DECISION_NAMES.get(kind, str(kind)), "chosen": cands[0][0],
                    "candidates": cands})
    return out


def _check_legal(sc, p, action, msg):
    """Raise ScenarioError unless ``action`` is among ``p``'s legal actions."""
    opts = np.zeros(1024, np.int64)
    n = legal_actions(sc.st, sc.match.tables, p, opts)
    if action in opts[:n]:
        return
    legal = []
    for a in opts[:n].tolist():
        kind, g, t, c = unpack_action(a)
        if kind == L.A_ATTACK:
            legal.append(f"{sc.names[g]} attacks {sc.names[t]} with {sc.match.content.card_names[c]}")
        elif kind == L.A_SCHEME:
            legal.append(f"{sc.names[g]} plays {sc.match.content.card_names[c]}")
    raise ScenarioError(f"{msg} (not in hand, not this fighter's card, out of range or wrong type); "
                        f"legal: {'; '.join(legal) or 'maneuver only'}")


def _dom_of(script, i):
    return script[i][0] if 0 <= i < len(script) else -1


Scenario.run = _run
