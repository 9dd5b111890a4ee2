"""Independent replay checker of the invariant tests (``tests/test_invariants.py``,
``tests/test_invariants_teams.py``): many random-policy games, with a replay of every event
log. The tests of the checker itself (the logs it must reject) are ``tests/test_replay_checker*.py``.

Coverage (250 matchups, at least 10,000 games in the slow run; team games: ``teams`` and
``test_invariants_team_games_random``: 2 vs 2 games on all six battlefields, every
hero playing, replayed by a plain-Python checker):

* Battle of Legends: every ordered pairing of Alice, King Arthur, Medusa and Sinbad (16,
  mirrors included) on Marmoreal and Sarpedon, and Medusa vs Sinbad in both seat orders on
  the other four battlefields (40 matchups, ``GAMES_CLASSIC`` games each);
* The Witcher: every ordered pairing with at least one of Geralt of Rivia, Ciri and the
  Ancient Leshen among all seven heroes (33 per battlefield, Witcher mirrors included) on
  Kaer Morhen (one-way paths) and Fayrlund Forest, ``GAMES_WITCHER`` games each; Geralt's
  seats cycle through his 8 loadouts (sword x armor x potion), so every loadout plays on
  both battlefields;
* Cobble & Fog: every ordered pairing with at least one of Dracula, Dr. Jekyll & Mr. Hyde, the
  Invisible Man and Sherlock Holmes among all eleven heroes (72 per battlefield, mirrors
  included) on Soho and Baskerville Manor (secret passages), ``GAMES_COBBLE`` games each.

The games are played by our own numba loop (``setup_game`` then ``take_turn`` until the
game is over) so that the state can be checked after *every* turn, and the event log is
replayed event by event to check every card movement, move, placement, health change and
attack at the moment it happens. The expectations come from outside the engine:

* hero files (``heroes/*.toml``, read with ``tomllib``): deck lists and copies (Geralt's
  deck: the 24 base cards plus both copies of the gear chosen by the loadout), fighter
  names, health, move and melee/ranged; each card's type, printed value, allowed fighters,
  BOOST and tags; and, from the effect steps of each card and ability, *which* effects may
  move, place, damage, heal, return or count: ``move`` (``up_to`` budget,
  ``through_enemies``, ``track``, which fighters: self / by name / each own / combatant /
  every fighter), ``place`` (which fighter, where), ``damage`` and ``damage_spaces``
  (amount, who: opposing, in a zone, adjacent (``exclude`` the opposing fighter), within N
  spaces along lines, a fighter a tracked move went through, on a chosen space or next to
  it), ``recover``, ``set_health``, ``prevent_damage``, ``return_defeated``, ``summon``,
  ``pin``, ``swap``, ``remove_from_board`` (and its ``on_return`` draws),
  ``gain_action``, ``end_turn``, counters (``flip/set/choose_counter``), the card ops
  ``discard``, ``discard_for_value``, ``discard_top``, ``search`` (by card or tag, from
  the deck, the discard pile, or either), ``look_top``, ``take_from_discard``,
  ``reclaim`` (to hand / deck top), ``shuffle_into_deck``, ``boost``, ``cancel`` and
  ``choose`` (which option an effect belongs to), their timing window and ``if`` /
  ``unless`` condition (won / not won / hero health at most / Source tiers (tag count in
  the discard pile) / opposing health at least / opposing printed value / attacked this
  turn / hand at least / a Wolf in the Leshen's zone / took from deck); ongoing schemes
  (``tags = ["ongoing"]``, their ``ongoing`` passives, ``ongoing_start_of_turn`` and
  ``discard_if``); Ciri's ``uncancelable_with``; King Arthur's ``boost_attack``; a
  maneuver bonus of a hero ability;
* the battlefield's movement graph ``bf.move`` (Kaer Morhen's one-way paths: movement only
  along the arrows), attack adjacency ``bf.adj`` and zones, searched by our own frontier
  expansion (not ``core.reachable``), and our own line distances over ``bf.adj``;
* the rules text (Battle of Legends: "Maneuver and movement", "Combat and damage", "Defeat
  and ending the game", "Exhaustion and team play", "Turn and actions"; Steel and Silver:
  "Ongoing Schemes", "Ciri: Source", "Ancient Leshen: Heart of the Forest", "Kaer Morhen
  Battlefield: One-Way Paths"): teams are seats 0/2 vs 1/3, turns alternate, two actions
  per turn plus gained ones, hand limit 7, the attacker wins only with >= 1 combat damage,
  2 damage to each fighter per missing draw, only from an empty deck; one ongoing scheme
  per hero, discarded only when replaced or at the end of its owner's turn, exactly when
  its condition holds; docs/rules.md: the turn cap, dormancy (R48, R64), "end the turn" (R57),
  Ciri's protection at 7+ Source cards (R60), summoning (R63), the Leshen's Wolves start
  on the board.

Cobble & Fog additions: the form (Jekyll & Hyde, counter slot 0) decides which cards may be
played; Mr. Hyde's damage after a maneuver needs his form; the Invisible Man's fog is replayed
from EV_FOG: placed at setup on 3 separate empty spaces of his zone, moved only by a live
``move_fog`` (by the player it names, along lines within its distance, the token it names,
a different one when it says so), equal to the state, never on more than 3 spaces, and only
he moves between fog spaces as if adjacent (``move_dist`` adds those links for him alone);
secret passages are movement links only (attacks and "adjacent" effects use the lines); a
replaced attack card (Do My Bidding) goes back to the hand and the new one comes from it and
fits the fighter; a value predicted (Elementary) is one the opponent's cards not in its
discard pile carry (public information only), a value named (Confirm Suspicion) is one of
those or the smallest value none of them carries (docs/rules.md R67), a named-value
discard carries it and the damage is its BOOST; a changed printed value is the card's BOOST;
revealed deck tops and cards put back on the deck are explained by their effects.

Checked after every turn (and after setup): card conservation (deck + hand + discard +
ongoing scheme is exactly the hero's 30-card deck, as a multiset of card ids, so no card
of the other hero or of unchosen gear), the hand, discard pile and ongoing scheme replayed
from the log equal the state, hero counters (Alice's size) replayed from the log equal
the state, the active player's hand is within the limit after its turn, no two fighters
share a space, health within 0..max, in-play fighters have health >= 1 and a space,
defeated fighters are off the board with 0 health, removed ones (the Leshen) off the board
with health, the positions and health replayed from the log equal the state.

Checked at every event: a card leaves the pile the log says only if the replay has it
there (draws and deck-top discards need it in the deck; exhaustion needs an empty deck;
discard-pile takes need a ``search``/``take_from_discard``/``reclaim`` effect, deck takes a
``search`` or ``look_top``; a scheme goes back into the deck only by its own
``shuffle_into_deck``, and must when it took its card from the deck); played cards fit
their type and fighter banner; every ``EV_MOVE`` has a path of length <= budget over
``bf.move`` that never enters a space held by a fighter opposing the *moved* fighter
(unless the effect says "through"), ends on an empty space other than its start, moves no
fighter pinned this turn (Yrden: "cannot leave their space this turn", so no swap or place
of it either), and is explained: a maneuver uses printed move + BOOST + ability
bonus, once per own fighter; a card move matches a live (uncancelled, right window,
condition holding, turn not ended) ``move`` effect with that exact ``up_to``, a fighter
that effect may move, at most once per fighter (once in all for "one" targets such as a
combatant); placements, returns, summons (a Wolf off the board comes back before one on
it is moved), swaps (the card's fighter and an adjacent one), pins, removals, effect
damage, recoveries (capped at max health), set-health values, counter changes, gained
actions (never for an opponent of a Blizzard in play) and ended turns are explained the
same way; a removed hero is placed again first thing in its owner's next turn, then
draws what the card's ``on_return`` says; combat damage equals min(max(attack - defense,
0), health), is 0 when an uncancelled card prevents it (and that card's fighter then takes no
damage at all after combat, R70), comes at once, and "won" means >=
1 combat damage; attacks are in range; a face-down attack BOOST only from a hero with
``boost_attack``; a cancel only from a live ``cancel`` effect of the other card, and it
fails exactly when the card is protected (Ciri with 7+ Source cards in her discard pile);
actions are numbered 1, 2, ... up to 2 + gained actions, none after the turn ended or by a
player with no fighter on the board (dormant), and a turn has fewer only if it was ended,
the player went dormant or the game ended; a dormant player is not made to discard;
ignoring a discard needs Tawny Owl in play; an ongoing scheme enters play only as the
scheme just played (one per player), an ongoing-tagged scheme always does. At the end:
every game ends (hero defeated, or the 200-turn cap as a draw), the winner's hero is alive
and the loser's hero has 0 health, and nothing is logged after EV_GAME_OVER. Determinism:
replayed seeds give bit-identical logs and states, and the same results with logging off.

Not modelled here (left to the card tests): the attack and defense *values* themselves
(printed value, BOOSTs, Alice's size bonus, "value is N", Source tiers of values), which
effect caused a draw (Unicorn Ally, Nature Abounds, ...), and the order of cards in the
deck.

Modules: ``constants`` (run configuration, violation codes, context and table layouts),
``board`` and ``effects`` (the numba steps), ``events`` (``replay``: the event-by-event
check), ``checks`` (state and end checks, ``run_checked``: play and check games turn by
turn), ``expect`` (``Expect``: the hero files and battlefield as arrays), ``runs`` (the
matchups and their runs), ``synth`` (hand-made and doctored logs), ``teams`` (the
plain-Python check of team games).
"""


def _fresh_cache() -> None:
    """Numba's cache only notices when a function's *own* file changes, so an edit of one
    checker module (``events.py``) would leave ``run_checked`` (``checks.py``), which calls
    it, running the old code from the cache. As the engine does for itself
    (``sim.engine``), the checker's cache is dropped whenever any checker source changes:
    a stamp of their hash sits beside it."""
    import hashlib
    import shutil
    from pathlib import Path

    import numba

    import sim.engine  # noqa: F401  (sets numba's cache folder)
    here = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for p in sorted(here.glob("*.py")):
        digest.update(p.name.encode() + p.read_bytes())
    # numba keeps this folder's functions in <cache folder>/replay_<hash of the path>/, or
    # without a cache folder in __pycache__ beside the sources
    root = Path(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else here / "__pycache__"
    stamp = root / "replay_sources.sha1"
    try:
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        if numba.config.CACHE_DIR:
            for d in root.glob("replay_*"):
                if d.is_dir():
                    shutil.rmtree(d, ignore_errors=True)
        else:
            for f in list(root.glob("*.nbi")) + list(root.glob("*.nbc")):
                f.unlink(missing_ok=True)
        root.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        pass      # a read-only install: numba then compiles in memory as before


_fresh_cache()
