"""Which attack cards a hero plays under one AI profile, and how often each wins its combat.

    python tests/bench/attack_cards.py HERO OPPONENT PROFILE [OPPONENT_PROFILE] [GAMES]

Plays ``GAMES`` seeded games (default 100; seeds 1000, 1001, ...; the battlefields in turn,
seats swapped every game): HERO played by PROFILE against OPPONENT played by
OPPONENT_PROFILE (default ``standard-0.2``). Prints, for each card HERO's side attacked with
(its hero or sidekicks), the attacks a game and the share of those combats the attacker won,
read from the game log (``EV_ATTACK``, then ``EV_VALUES``). Comparing ``standard`` with
``expert`` shows where the fast policy's card choice differs from search's (issue 32: the
Invisible Man's Covert Preparation and Surprise Attack, Ciri's The Lady of Space and Time).
Not a test: a measurement for the issue's note.
"""
from __future__ import annotations

import collections
import sys


def attack_cards(hero: str, opponent: str, profile: str, opponent_profile: str = "standard-0.2",
                 games: int = 100) -> list[tuple[str, float, float]]:
    """(card name, attacks a game, share of those combats won) for ``hero``'s side, most played first."""
    from sim.content.battlefields import list_battlefields
    from sim.engine import codes as C
    from sim.engine import layout as L
    from sim.play.match import Match
    bfs = list_battlefields()
    plays: collections.Counter = collections.Counter()
    won: collections.Counter = collections.Counter()
    names = None
    for i in range(games):
        seat = i % 2
        m = Match([hero, opponent] if seat == 0 else [opponent, hero], battlefield=bfs[(i // 2) % len(bfs)])
        names = m.content.card_names
        rec = m.play(1000 + i, modes=(profile, opponent_profile) if seat == 0 else (opponent_profile, profile))
        card = None
        for ev, a, _b, c, d, _e in rec.log.tolist():
            if ev == C.EV_ATTACK:
                card = c if a // L.FIGHTERS_PER_PLAYER == seat else None
            elif ev == C.EV_VALUES and card is not None:
                plays[card] += 1
                won[card] += int(d)
                card = None
    return [(names[c], k / games, won[c] / k) for c, k in plays.most_common()]


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit(__doc__.split("\n\n")[1].strip())
    hero, opponent, profile = args[:3]
    rest = args[3:]
    opp_profile = rest.pop(0) if rest and not rest[0].isdigit() else "standard-0.2"
    n = int(rest[0]) if rest else 100
    for name, per_game, share in attack_cards(hero, opponent, profile, opp_profile, n):
        print(f"{name:32s} {per_game:5.2f} a game, won {share:4.0%}")
