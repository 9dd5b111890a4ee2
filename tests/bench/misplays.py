"""The misplays of issue 32, counted from seeded games played by one AI profile in both seats.

    python tests/bench/misplays.py PROFILE [GAMES_PER_MATCHUP]

Plays each matchup below on every battlefield in turn (seeds 1, 2, ...; the two heroes swap
seats every other game) and reads the games (``sim.play.replay.record``: the board and hands
after each event, followed from the log; no AI code is read):

* **Elementary right against Sinbad**: Sherlock Holmes's predictions (Elementary) while Sinbad's
  side attacks, and how many named the attack card's printed value.
* **Jekyll & Hyde's maneuvers a game**, of them **with a full hand** (the hand at the hand
  limit as the maneuver starts), and **cards lost to the hand limit a game**.
* **Dracula's ability on his own Sister**: start-of-turn abilities that defeat one of his
  Sisters, and of those how many when an opposing fighter stood next to Dracula (another target).
* **Ravening Seduction damage per play** (damage dealt by the scheme's steps).
* **Sherlock Holmes's attacks, maneuvers and schemes a game** (against Sinbad and Medusa).

Prints one JSON object. Not a test: a measurement for the issue's note.
"""
from __future__ import annotations

import json
import sys

MATCHUPS = [("sherlock_holmes", "sinbad"), ("sherlock_holmes", "medusa"), ("jekyll_hyde", "invisible_man"),
            ("jekyll_hyde", "medusa"),
            ("dracula", "sinbad"), ("dracula", "king_arthur"), ("dracula", "alice")]


def _count(rep, seats, stats):
    """Add one game's counts to ``stats`` (``rep``: its :class:`sim.play.replay.Replay`, whose
    board and hands after each event are followed from the log); ``seats``: hero key per seat."""
    from sim.engine import layout as L
    m = rep.match
    cards = m.content.card_names
    tb = m.tables
    adj = m.battlefield.adj
    fp = L.FIGHTERS_PER_PLAYER
    limit = int(tb.rules[L.R_HAND_LIMIT])
    last_attack = attacker_seat = -1
    rav_play = False
    ability = None          # (player, enemy adjacent) while a start-of-turn ability resolves
    for i, (ev, a, b, c, *_) in enumerate(rep.log.tolist()):
        if ev in (L.EV_TURN, L.EV_ACTION):
            ability = None
            rav_play = False
        if ev == L.EV_ATTACK:
            last_attack, attacker_seat = c, a // fp
        elif ev == L.EV_VALUES:
            last_attack = -1
        elif ev == L.EV_GUESS and seats[a] == "sherlock_holmes" and last_attack >= 0 \
                and seats[attacker_seat] == "sinbad" and attacker_seat != a:
            stats["elementary_predictions"] += 1
            stats["elementary_right"] += int(b == tb.cards[last_attack, L.C_VALUE])
        if ev == L.EV_ACTION and seats[a] == "sherlock_holmes":
            stats["sherlock_attacks" if b == L.A_ATTACK else "sherlock_maneuvers" if b == L.A_MANEUVER else
                  "sherlock_schemes"] += 1
        if ev == L.EV_ACTION and b == L.A_MANEUVER and seats[a] == "jekyll_hyde":
            stats["jekyll_maneuvers"] += 1
            stats["jekyll_full_hand_maneuvers"] += int(len(rep.hand[i - 1][a]) >= limit)
        elif ev == L.EV_DISCARD and c == 1 and seats[a] == "jekyll_hyde":
            stats["jekyll_cards_lost_to_hand_limit"] += 1
        elif ev == L.EV_ABILITY and seats[a] == "dracula":
            sp = rep.space[i]
            h = sp[a * fp]
            ability = (a, bool(h >= 0 and any(sp[f] >= 0 and adj[h, sp[f]] for f in range((1 - a) * fp, (2 - a) * fp))))
        elif ev == L.EV_DAMAGE and ability is not None:   # the ability's damage (the first after it)
            if a // fp == ability[0] and a % fp != 0 and c == 0:
                stats["dracula_own_sister_kills"] += 1
                stats["dracula_own_sister_kills_enemy_adjacent"] += int(ability[1])
            ability = None
        elif ev == L.EV_SCHEME and cards[c] == "Ravening Seduction":
            stats["ravening_plays"] += 1
            rav_play = True
        elif ev == L.EV_DAMAGE and rav_play:
            stats["ravening_damage"] += b
        elif ev == L.EV_PLAY_SCHEME_DONE:
            rav_play = False
    stats["jekyll_games"] += int("jekyll_hyde" in seats)
    stats["sherlock_games"] += int("sherlock_holmes" in seats)
    stats["dracula_games"] += int("dracula" in seats)


def measure(profile: str, games: int, matchups=MATCHUPS) -> dict:
    """The counts (totals and per game / per play) over ``games`` games per matchup (pairs of
    hero keys)."""
    from sim.content.battlefields import list_battlefields
    from sim.play.match import Match
    from sim.play.replay import record
    bfs = list_battlefields()
    keys = ("elementary_predictions", "elementary_right", "jekyll_games", "jekyll_maneuvers",
            "jekyll_cards_lost_to_hand_limit", "jekyll_full_hand_maneuvers", "dracula_own_sister_kills",
            "dracula_own_sister_kills_enemy_adjacent", "ravening_plays", "ravening_damage", "sherlock_games",
            "sherlock_attacks", "sherlock_maneuvers", "sherlock_schemes")
    stats = dict.fromkeys(keys + ("dracula_games",), 0)
    for h0, h1 in matchups:
        for i in range(games):
            seats = [h0, h1] if i % 2 == 0 else [h1, h0]
            m = Match(seats, battlefield=bfs[i % len(bfs)])
            _count(record(m, i + 1, modes=(profile, profile)), seats, stats)
    out = {"profile": profile, "games_per_matchup": games, **stats}
    n = max(1, stats["elementary_predictions"])
    out["elementary_right_share"] = round(stats["elementary_right"] / n, 3)
    j = max(1, stats["jekyll_games"])
    for k in ("jekyll_maneuvers", "jekyll_cards_lost_to_hand_limit", "jekyll_full_hand_maneuvers"):
        out[k + "_per_game"] = round(stats[k] / j, 2)
    for k in ("sherlock_attacks", "sherlock_maneuvers", "sherlock_schemes"):
        out[k + "_per_game"] = round(stats[k] / max(1, stats["sherlock_games"]), 2)
    out["dracula_own_sister_kills_per_game"] = round(stats["dracula_own_sister_kills"] / max(1, stats["dracula_games"]), 3)
    out["ravening_damage_per_play"] = round(stats["ravening_damage"] / max(1, stats["ravening_plays"]), 3)
    out["ravening_plays_per_game"] = round(stats["ravening_plays"] / max(1, stats["dracula_games"]), 2)
    return out


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100)))
