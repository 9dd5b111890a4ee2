"""The scripted AI: scores every legal option of a decision and picks the best.

The scripted modes use this package (``codes.MODE_STANDARD``; ``MODE_STANDARD02``: the frozen
standard of release 0.2, see :func:`.weights.frozen`; ``MODE_GREEDY``; and ``MODE_EXPERT`` and
``MODE_EXPERT02``, whose action decisions :mod:`sim.engine.search` takes and whose other
decisions are these); the
weights of the deciding player's AI profile are in ``ctl[CTL_W + p * N_WEIGHTS:]``
(thousandths; names in :data:`WEIGHT_NAMES`, defaults in ``sim/content/profiles.py``).

**One currency** (``standard``, release 0.3; ``standard-0.2`` keeps release 0.2's rules of
thumb, see :func:`.weights.frozen`). Every decision scores its options in the same points,
and a card's effect is worth what it does to the position, read from its effect program
(never a hero's name): a card drawn is a card in hand whatever draws it, one price
(:func:`.position.set_price`: ``card`` into a short hand, less as the hand nears the hand
limit, ``full_hand`` at it, exhaustion damage from an empty deck; release 0.2 priced an
effect's draw at ``fx_draw``); effect damage is damage (:func:`.estimate.dmg_value` of the
fighter it hits when known, else :func:`.estimate.dmg_price`, release 0.2's ``fx_damage``);
"+N for each X" counts the X there are now and "if adjacent" checks the attacker's and
defender's spaces and "value N against a hero" the target's kind (board steps,
:func:`.weights.board_delta`; release 0.2 counted them at 1.5 N and half, and the last as
"other"); damage to each fighter next to / in the zone of a fighter counts the fighters there,
after the placement the step before allows (:mod:`.area`: Pure Evil); a named value is worth its chance of being right times what being right
gains (:func:`.choices.guess_now`); a hero who may BOOST an attack face down counts the
best BOOST in the attack's score (:func:`.position.attack_now`); a card kept in a full
hand is worth ``keep_full`` of its keep worth (it may be discarded anyway) and attacking with
an attack card costs ``keep_attack`` of it (it cannot defend); a sidekick an effect brings back onto the board
is worth that sidekick; a form (Jekyll and Hyde) is worth the attacks it can play; the steps of a
hero's ``after_defense`` / ``after_attack`` ability hooks count in each defense / attack, "if won"
at that combat's chance of winning, and its ``fighter_defeated`` hook in what losing a defender
costs (:mod:`.hooks`). Why features computed from the state rather
than an evaluation of each option's after-state on a copy: the AI scores every option of
hundreds of decisions a game, and the pieces above are a few array reads each where a copy
and a rules call per option would cost the state's size (tens of thousands of entries)
each; the one lookahead that plays copies is the expert's (:mod:`sim.engine.search`).

**Public information only.** The AI reads the board, health, its own hand, every
discard pile, the ongoing schemes, hand and deck *sizes*, and each hero's deck
*list*. What an opponent may hold is estimated from their unknown cards (deck list
minus discard pile minus ongoing scheme); it never reads an opponent's hand, nor
any deck order, nor the face-down card of a combat it has not seen revealed.

How it scores (units: "points", roughly one point = one damage to the opposing
hero at full health):

* **attack** (fighter, target, card): the expected value of the combat damage
  over the defender's best defense, where "best defense" is the highest value in
  a random hand of the defender's hand size drawn from their unknown cards
  (hypergeometric, exact); damage to the hero is worth more as its health falls;
  defeating the opposing hero is worth ``win``; defeating a sidekick adds
  ``kill_sidekick``; plus ``opp_card`` times the chance the defender holds a
  defense card (an attack usually costs them a card too), plus the card's effect
  worth, minus what the card is worth kept in hand.
* **maneuver**: the drawn card (nothing once the deck is empty: exhaustion
  damage instead) plus, for each fighter, the best position it can reach minus
  its current position, with or without a BOOST card (the plan is remembered for
  the BOOST decision that follows).
* **position** of a fighter on a space: opposing fighters it can attack from
  there (now, if actions remain), distance to them (melee and ranged alike), and
  the threat of opposing fighters that can reach it next turn (``threat`` times
  ``threat_base + threat_low x`` the share of health the hero has lost;
  ``threat_sidekick`` for a sidekick; an opposing sidekick threatens
  ``sidekick_threat`` as much as a hero and is worth ``sidekick_target`` as much as a
  hero at full health as a target); ``fog`` per point of defense a hero gains on its
  fog (the Invisible Man).
* **scheme**: ``scheme`` + its effect worth (+ ``ongoing`` for an ongoing scheme, or
  ``ongoing_again`` x ``ongoing`` while another of ours is in play).
* **defense**: minus the expected loss of health over the attacker's likely
  card (the best attack value in a random hand of their size from their unknown
  cards; ``unknown_attack`` when no attack card is possible), with each defense card
  or none, plus its effects (damage it deals counted ``defense_fx`` x ``fx_damage``);
  losing the hero costs ``win``.
* effect choices (targets, destinations, "may", options, cards to discard or
  take) use the same pieces; the engine writes the context (which effect step,
  which fighter) into ``ctl`` before it asks.

**Team games** (more than two players, ``sim.play.teams``): damage is valued by
:func:`dmg_value_team` (defeating one hero of a team whose other hero stands is worth
``team_kill``, the last one ``win``; damage to the weaker opposing hero counts ``1 + focus``
times, to our weaker hero ``1 + guard`` times; defeating a player's last fighter after its
hero fell adds ``eliminate``), a position gains :func:`team_pos_bonus` for covering our
weaker hero, and "your opponent" outside a combat is picked by :func:`score_opponents`.
Duels never reach these functions.

Card effects are read once at compile time from the effect programs
(``sim.content.ai_features``); nothing here is specific to one hero. Steps whose
condition reads only the board, piles and turn (Source tiers, "on fog", a form or
size, ``conditions.LIVE_CONDITIONS``) are checked when a card is scored
(:func:`value_now`, :func:`live_delta`): a scheme whose condition fails is worth
no effect, and Ciri's cards are worth their current Source tier.

Modules, each using only the ones before it: :mod:`.weights` (weights, work arrays,
card features and live conditions), :mod:`.estimate` (hands an opponent may hold,
best-value distributions, worth of damage, expected damage), :mod:`.position`
(position scores, follow-up attacks, the maneuver plan), :mod:`.choices` (the scores
of each decision kind's options) and :mod:`.decide` (greedy scores, explain,
:func:`ai_decide`).
"""
from .weights import NEW_DEFAULTS, OLD_ONLY, SEARCH_DEFAULTS, WEIGHT_NAMES, dmg_now, live_cond, value_now
from .estimate import best_dist
from .position import enemy_facts, pos_score
from .choices import score_actions, score_defense
from .decide import ai_decide

__all__ = ["NEW_DEFAULTS", "OLD_ONLY", "SEARCH_DEFAULTS", "WEIGHT_NAMES", "ai_decide", "best_dist", "dmg_now", "enemy_facts", "live_cond", "pos_score",
           "score_actions", "score_defense", "value_now"]
