"""Playing games from Python: a duel (:mod:`match`), a team game (:mod:`teams`), a rules
position resolved one step at a time (:mod:`scenario`), and the narration of a game's
event log (:mod:`narrate`)."""
