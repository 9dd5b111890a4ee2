"""Invariants of random team games (2 vs 2), checked by the plain-Python replay of
tests/helpers/replay/teams.py.
"""
from __future__ import annotations

from helpers.replay.teams import GAMES_TEAM, team_run

from sim.content.battlefields import list_battlefields


# ------------------------------------------------ team games (2 vs 2): the plain-Python check of helpers/replay/teams.py

def test_invariants_team_games_random():
    """Random-policy team games (four seats) on all six battlefields, every hero playing:
    turn order 1, 2, 3, 4 skipping players with no fighters, teammates never attacked and
    passed through while opponents block, cards conserved, positions and health replayed
    from the log, and a game that ends exactly when a team has lost both heroes."""
    problems, stats = team_run(GAMES_TEAM)
    assert not problems, "\n".join(problems[:10])
    assert stats["games"] == GAMES_TEAM * len(list_battlefields())
    assert stats["decisive"] > 0 and stats["heroes_defeated"] > stats["decisive"]
    assert stats["defeated_hero_turns"] > 0       # a player whose hero fell acted with a sidekick
    assert stats["skipped"] > 0                   # ... and one with no fighters left was skipped
    assert stats["moves"] > 0 and stats["attacks"] > 0 and stats["through_teammate"] > 0
