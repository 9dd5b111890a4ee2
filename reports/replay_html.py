"""The replay viewer: one game as a self-contained HTML page (no network, no server).

The page holds the battlefield drawn once as SVG (:func:`reports.board.board_svg`), the
game's events with their narration lines, and the board after each event as changes
from the one before (:func:`replay_data`); its script (``replay_viewer.js``, inlined with
``replay_viewer.css``) rebuilds every moment when the page opens and draws it: the fighters
as tokens with their health, the combat in progress as an arrow with both cards and their
values, damage on the token, each player's hand size, deck size, discard pile and ongoing
scheme (with ``reveal``, the hands), and with ``explain`` the AI's top candidates and
scores at each decision. Step controls: previous / next event, previous / next turn, play,
a slider; the keyboard's arrows and Page Up / Page Down do the same, and ``#event=N`` in
the address opens the page at event N.

The page's events are the narrated ones (:func:`page_events`), numbered from 1: the page
says "event N of M", its address ``#event=N``, and ``duel --html`` / ``replay`` say "M
events"; the few events of the engine's log that the narration does not tell (a BOOST's
discard, told by its BOOST; the end of a scheme) are not steps of their own.

Example::

    from sim.play.match import Match
    from sim.play.replay import record
    from reports.replay_html import write_replay
    write_replay("game.html", record(Match(["medusa", "sinbad"], "soho"), 3, ("standard", "standard")))
"""
from __future__ import annotations

import html
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from sim.engine import layout as L
from sim.engine.codes import CT_ATTACK, CT_DEFENSE, CT_SCHEME, CT_VERSATILE
from sim.play.narrate import footer_line, header_line

from .board import SEAT_COLOURS, board_svg, defense_chosen, token_label, viewer_battlefield

_TYPES = {CT_ATTACK: "attack", CT_DEFENSE: "defense", CT_VERSATILE: "versatile", CT_SCHEME: "scheme"}
#: the events the page's script reads (by name, so the script has no engine numbers of its own)
_EVENTS = ("EV_TURN", "EV_MOVE", "EV_PLACE", "EV_DAMAGE", "EV_RECOVER", "EV_ATTACK", "EV_DEFEATED", "EV_GAME_OVER",
           "EV_SCHEME", "EV_RETURN", "EV_SWAP")
_KIND_WORDS = {L.D_ACTION: "action", L.D_DEFENSE: "defense card", L.D_BOOST_MANEUVER: "BOOST for the maneuver",
               L.D_BOOST_ATTACK: "face-down BOOST", L.D_BOOST_CARD: "BOOST onto the card",
               L.D_DISCARD_LIMIT: "discard (hand limit)", L.D_DISCARD_EFFECT: "discard", L.D_MOVE_WHICH: "fighter to move",
               L.D_MOVE_DEST: "destination", L.D_PLACE: "space to place", L.D_TARGET: "target", L.D_MAY: "may",
               L.D_SETUP_SPACE: "start space", L.D_OPTION: "option", L.D_TAKE_CARD: "card to take",
               L.D_MOVE_STEP: "next step", L.D_OPPONENT: "opponent"}


def _asset(name: str) -> str:
    return resources.files("reports").joinpath(name).read_text(encoding="utf-8")


def _lists(rows) -> list:
    return [[int(x) for x in r] for r in rows]


def page_events(replay) -> list[int]:
    """The log positions (0-based indices into ``replay.log``) of the events the replay page
    steps through, in order: every event with a narration line (``replay.lines``), or the
    last event if none has one. The page's event N (from 1; ``#event=N``) is
    ``page_events(replay)[N - 1]``; the page's script picks the same events."""
    told = [i for i, line in enumerate(replay.lines) if line]
    return told or [replay.n_events - 1]


def replay_data(replay, reveal: bool = False, explain: bool = False, title: str = "", note: str = "") -> dict:
    """The JSON-able content of a replay page for ``replay`` (a
    :class:`sim.play.replay.Replay`): players, fighters, the cards of the game's heroes
    (name, type, value, BOOST), the board geometry, the event log ((n, 6) as lists), the
    narration lines and ``frames``: for each event the board's changes from the event
    before (the first from an empty board) under short keys (``f`` fighters ``[slot,
    space, health, status]``, ``k`` deck sizes, ``h`` hand sizes, ``H`` hands (only with
    ``reveal``), ``d`` discard piles, ``o`` ongoing schemes, ``g`` fog tokens, ``n``
    counters, ``c`` the combat (``[attacker, defender, attack card, defense card, BOOST
    card, attack value, defense value, damage, defense chosen]``, values -1 until revealed,
    defense chosen 1 once the defender chose (a card or none: :func:`reports.board.defense_chosen`))
    or 0, ``t``
    the turn, ``p`` the active player). ``explain``: the AI's candidates by event (the
    game must have been recorded with ``explain``). ``title`` / ``note``: the page's
    heading and a line under it."""
    m = replay.match
    game = replay.game
    P = replay.players
    cols = SEAT_COLOURS[4 if P > 2 else 2]
    team = P > 2
    heroes = m.hero_names
    specs = m.specs
    players = []
    for p in range(P):
        counters = [[name, slot, list(vals)] for name, (slot, vals) in specs[p].counters.items()]
        label = (f"seat {p + 1}, team {p % 2 + 1}" if team else f"P{p + 1}") + \
            (" (moves first)" if p == 0 else "")
        players.append({"name": heroes[p], "colour": cols[p], "label": label, "team": p % 2 if team else p,
                        "counters": counters, "loadout": m.loadouts[p] or ""})
    fighters = []
    used = [f for f in range(L.MAX_FIGHTERS) if replay.fighters[f]]
    for f in used:
        fighters.append([f, replay.fighters[f], token_label(replay.fighters[f]), f // L.FIGHTERS_PER_PLAYER,
                         1 if f % L.FIGHTERS_PER_PLAYER == 0 else 0,
                         int(replay.snapshots[0][L.fslot(f, L.F_MAXHP)])])
    keys = set(m.keys)    # every card of the game's heroes, whatever their loadouts
    cards = {}
    for cid, name in enumerate(m.content.card_names):
        if m.content.card_hero[cid] in keys:
            t = int(m.tables.cards[cid, L.C_TYPE])
            cards[cid] = [name, _TYPES.get(t, str(t)), int(m.tables.cards[cid, L.C_VALUE]),
                          int(m.tables.cards[cid, L.C_BOOST])]
    info = viewer_battlefield(m.battlefield)
    frames = _frames(replay, used, reveal)
    data = {
        "title": title or _default_title(replay), "note": note,
        "header": header_line(game), "footer": footer_line(game),
        "battlefield": m.battlefield.name, "seed": int(game.seed), "turns": int(game.turns),
        "players": players, "fighters": fighters, "cards": cards,
        "spaces": list(info["space_ids"]), "log": _lists(game.log), "lines": replay.lines, "frames": frames,
        "reveal": bool(reveal), "ev": {k[3:]: int(getattr(L, k)) for k in _EVENTS},
        "explain": _explain(replay) if explain else None,
    }
    return data


def _default_title(replay) -> str:
    m = replay.match
    if replay.players > 2:
        return f"{m.team_names[0]} vs {m.team_names[1]} on {m.battlefield.name}"
    return f"{m.hero_names[0]} vs {m.hero_names[1]} on {m.battlefield.name}"


def _explain(replay) -> dict:
    out = {}
    for pos, recs in replay.explain.items():
        out[int(pos)] = [[r["player"], _KIND_WORDS.get(r["kind"], str(r["kind"])), r["samples"], r["options"],
                          [[t, round(s, 2), None if se is None else round(se, 2)] for t, s, se in r["candidates"]]]
                         for r in recs]
    return out


def _frames(replay, used, reveal) -> list:
    """The board of each event as changes from the one before (see :func:`replay_data`)."""
    n = replay.n_events
    P = replay.players
    out = []
    prev_f = np.full((len(used), 3), -9999, np.int64)
    prev = {"k": [None] * P, "h": [None] * P, "H": [None] * P, "d": [()] * P, "o": [None] * P, "g": [None] * P,
            "n": [None] * P}
    prev_c, prev_t, prev_p = None, None, None
    sp, hp, stt = replay.space[:, used], replay.health[:, used], replay.status[:, used]
    chosen = defense_chosen(replay)
    for i in range(n):
        fr = {}
        cur = np.stack([sp[i], hp[i], stt[i]], axis=1).astype(np.int64)
        ch = np.flatnonzero((cur != prev_f).any(axis=1))
        if len(ch):
            fr["f"] = [[int(used[j]), int(cur[j, 0]), int(cur[j, 1]), int(cur[j, 2])] for j in ch]
            prev_f = cur
        hand = replay.hand[i]
        disc = replay.discard[i]
        now = {"k": [int(x) for x in replay.deck[i]], "h": [len(x) for x in hand],
               "H": [list(x) for x in hand] if reveal else [None] * P,
               "o": [int(x) for x in replay.ongoing[i]], "g": [[int(s) for s in x] for x in replay.fog[i]],
               "n": [[int(c) for c in x] for x in replay.counters[i]]}
        for key, vals in now.items():
            changes = [[p, vals[p]] for p in range(P) if vals[p] != prev[key][p]]
            if changes and not (key == "H" and not reveal):
                fr[key] = changes
                prev[key] = vals
        dch = []
        for p in range(P):
            old, new = prev["d"][p], disc[p]
            if new != old:
                if len(new) > len(old) and new[:len(old)] == old:
                    dch.append([p, 1, list(new[len(old):])])     # cards added on top
                else:
                    dch.append([p, 0, list(new)])                # the whole pile
        if dch:
            fr["d"] = dch
            prev["d"] = list(disc)
        cb = replay.combat[i]
        c = 0 if cb is None else [cb.attacker, cb.defender, cb.attack_card, cb.defense_card, cb.boost_card,
                                  -1 if cb.attack_value is None else cb.attack_value,
                                  -1 if cb.defense_value is None else cb.defense_value,
                                  -1 if cb.damage is None else cb.damage, int(chosen[i])]
        if c != prev_c:
            fr["c"] = c
            prev_c = c
        t, p = int(replay.turn[i]), int(replay.active[i])
        if t != prev_t:
            fr["t"] = t
            prev_t = t
        if p != prev_p:
            fr["p"] = p
            prev_p = p
        out.append(fr)
    return out


@lru_cache(maxsize=16)
def _board(info_json: str) -> tuple[str, dict]:
    """:func:`reports.board.board_svg` once per battlefield and process (a report writes
    many pages of few battlefields)."""
    return board_svg(json.loads(info_json))


def _script_json(data: dict) -> str:
    """``data`` as JSON safe inside a ``<script>`` element."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")


def replay_html(replay, reveal: bool = False, explain: bool = False, title: str = "", note: str = "") -> str:
    """The replay page of ``replay`` as one HTML document (see the module doc); the
    arguments as :func:`replay_data`."""
    data = replay_data(replay, reveal, explain, title, note)
    svg, geo = _board(json.dumps(viewer_battlefield(replay.match.battlefield), sort_keys=True))
    data["board"] = geo
    svg = svg[svg.index("<svg"):]
    svg = svg.replace("<svg ", '<svg id="board" ', 1)
    svg = svg[: svg.rindex("</svg>")] + '<g id="overlay"></g></svg>'
    head = html.escape(data["title"])
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{head} (unmatched-sim replay)</title><style>{_asset('replay_viewer.css')}</style></head>\n"
            f'<body>\n<header><h1>{head}</h1><p id="note"></p><p id="result"></p></header>\n'
            '<div id="controls">'
            '<button id="first" title="first event (Home)">|&#x25C0;</button>'
            '<button id="prev-turn" title="previous turn (Page Up)">&#x25C0;&#x25C0; turn</button>'
            '<button id="prev" title="previous event (&#x2190;)">&#x25C0; event</button>'
            '<button id="play" title="play / pause (space)">&#x25B6; play</button>'
            '<button id="next" title="next event (&#x2192;)">event &#x25B6;</button>'
            '<button id="next-turn" title="next turn (Page Down)">turn &#x25B6;&#x25B6;</button>'
            '<button id="last" title="last event (End)">&#x25B6;|</button>'
            '<input id="slider" type="range" min="0" value="0" aria-label="event">'
            '<span id="position"></span>'
            '<label>speed <select id="speed"><option value="1200">slow</option>'
            '<option value="600" selected>normal</option><option value="250">fast</option></select></label>'
            '</div>\n'
            f'<main><div id="board-wrap">{svg}<div id="event-line"></div>'
            '<p id="legend">Tokens: heroes ringed in gold, sidekicks smaller, the number is health; red arrow: '
            'the combat in progress with both cards and their values; grey dots: fog tokens; dark arrows on the '
            'lines: one-way paths; dashed ring: secret passage; S1-S4: start spaces.</p></div>'
            '<aside><h2>Narration</h2><ol id="narration"></ol><div id="explain"></div></aside></main>\n'
            '<section id="players"></section>\n'
            '<footer>Made by unmatched-sim: every fighter, card and number comes from the engine\'s event log of '
            'this game. Keys: &#x2190; &#x2192; events, Page Up / Page Down turns, space play, Home / End.</footer>\n'
            f'<script id="replay-data" type="application/json">{_script_json(data)}</script>\n'
            f"<script>{_asset('replay_viewer.js')}</script>\n</body></html>\n")


def write_replay(path, replay, reveal: bool = False, explain: bool = False, title: str = "", note: str = "") -> Path:
    """Write the replay page of ``replay`` to ``path`` (UTF-8) and return the path. Raises
    OSError if it cannot be written (a missing folder, no permission)."""
    path = Path(path)
    path.write_text(replay_html(replay, reveal, explain, title, note), encoding="utf-8")
    return path
