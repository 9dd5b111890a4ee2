"""The read-only numeric tables one game is played with.

``Tables`` is a namedtuple of numpy arrays (numba passes it as one argument):

* ``cards``  (n_cards, C_FIELDS) int64: per card id: type, printed value,
  BOOST, fighter mask, tag bits, owning hero row, required form, and the
  (start, length) of its effect program per timing window.
* ``code``   (n_instructions, I_FIELDS) int64: all effect programs.
* ``heroes`` (n_heroes, H_FIELDS) int64: per hero (or loadout) row: health,
  move, ranged, sidekick kinds, deck slice, ability flags and hook programs.
* ``decks``  (n,) int64: card ids of every deck, copies expanded.
* ``rules``  (N_RULES,) int64: rules options (``layout.R_*``).
* ``adj``    (S, S) int8: adjacency for attacks and effects.
* ``move``   (S, S) int8: directed movement graph.
* ``dist``   (S, S) int64: all-pairs move distance (99 unreachable).
* ``adist``  (S, S) int64: all-pairs distance along lines (adjacency), for
  "within N spaces" (99 unreachable).
* ``zmask``  (S,) int64: zone bit mask per space.
* ``starts`` (4,) int64: space index of start spaces 1..4 (-1 missing).
* ``mmask``  (S,) int64: the movement graph as bit masks, bit ``v`` of
  ``mmask[u]`` set when ``move[u, v]`` (0 on battlefields of more than 63
  spaces, which use ``move`` itself).

Built by :func:`sim.content.compile.build_tables`.
"""
from collections import namedtuple

Tables = namedtuple(
    "Tables",
    ["cards", "code", "heroes", "decks", "rules", "adj", "move", "dist", "adist", "zmask", "starts", "mmask"],
)
