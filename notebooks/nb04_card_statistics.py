"""The cells of notebooks/04_card_statistics.ipynb,
"Per-card statistics from a stored run";
``make_notebooks.py`` writes the notebook from them."""
from nb_cells import code, md

CARDS = [
    md("""\
# Per-card statistics from a stored run

Every run folder keeps one row per game, including how many times each hero played each of
its cards. This notebook opens a stored run (by default the one `01_balance_walkthrough.ipynb`
wrote; any matrix run folder works, e.g. one from `unmatched-sim matrix --out runs/demo`) and
asks which cards each hero plays most, which it hardly plays, how the hero does in games where
a card was played, where on the battlefield the fights happen, and, at the end, how one
stored game was played, turn by turn on its battlefield."""),
    code("""\
%matplotlib inline
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports import compute_tables
from reports.plots import plot_space_map
from reports.stats import wilson
from reports.tables import sides
from sim.runs.store import read_games, read_manifest
from sim.runs.matrix import run_matrix

pd.set_option("display.precision", 3)
pd.set_option("display.width", 140)"""),
    md("""\
## Parameters

`RUN_DIR` is the run folder to read. If it holds no run yet, the next cell plays a small
matrix of `HEROES` into it first."""),
    code("""\
import os

RUN_DIR = Path("runs/walkthrough")
HEROES = ["alice", "dracula", "king_arthur", "medusa", "sinbad"]   # only if RUN_DIR must be played first
BATTLEFIELDS = ["marmoreal"]
GAMES = 200
JOBS = 2

if os.environ.get("UNMATCHED_SIM_NOTEBOOK_QUICK"):     # the test suite runs every notebook tiny
    HEROES, GAMES, JOBS = HEROES[:3], 40, 1""", parameters=True),
    code("""\
if not (RUN_DIR / "manifest.json").exists():
    print(f"{RUN_DIR} holds no run yet: playing a small matrix into it")
    run_matrix(RUN_DIR, games=GAMES, heroes=HEROES, battlefields=BATTLEFIELDS, jobs=JOBS, progress=True)

manifest = read_manifest(RUN_DIR)
settings = manifest["settings"]
print(f"{RUN_DIR}: {manifest['games_total']} games, status {manifest['status']}, made by unmatched-sim "
      f"{manifest['package_version']}")
print(f"heroes: {', '.join(settings['heroes'])}; battlefields: {', '.join(settings['battlefields'])}; "
      f"AI profile {settings['ai']}; seed {settings['seed']}")"""),
    md("""\
## What a run folder stores

* `manifest.json`: the settings, the package version, the cells, and each hero's card list
  (in hero-file order) and each battlefield's spaces, so the folder can be read without the
  hero files;
* `games/*.parquet`: one row per game (one file per worker task while the run plays; a
  completed run is compacted into one file);
* `spaces/*.parquet`: per chunk of games, the combats and defeats on each space;
* `report/`: what `build_report` / `unmatched-sim report` wrote.

`read_games` reads every stored game into one DataFrame (fine for a notebook-sized run; the
reports stream the files instead); `sim.runs.store.GAME_COLUMNS` describes
each column. P1 is the hero who moved first."""),
    code("""\
print("\\n".join(sorted(str(p.relative_to(RUN_DIR)) for p in RUN_DIR.iterdir())))
games = read_games(RUN_DIR)
games.head()"""),
    md("""\
`p1_card_plays` and `p2_card_plays` hold, for each card of that hero's file, how many times
it was played in the game (as an attack, a defense or a scheme; a card spent as a BOOST or
discarded by an effect is not a play). The card names are in the manifest, in the same
order:"""),
    code("""\
g = games.iloc[0]
cards_p1 = manifest["heroes"][g["p1_hero"]]["cards"]
print(f"game 0: {g['p1_hero']} (P1) vs {g['p2_hero']} on {g['battlefield']}, winner seat {g['winner']}, {g['turns']} turns")
pd.Series(g["p1_card_plays"], index=cards_p1, name=f"{g['p1_hero']}'s plays")"""),
    md("""\
## The per-card table

`compute_tables` (what the report is built from) has one row per (hero, card) over every game
the hero played with that card in its deck: plays per game, the share of games in which it was
played at least once, and the hero's score in games where it was played and where it was not.
We add the copies in the deck and plays per copy, so a card with 4 copies is not favoured over
one with 2."""),
    code("""\
tables = compute_tables(RUN_DIR)
cards = tables["cards"].copy()

def copies(row):
    per_loadout = manifest["heroes"][row["hero"]]["deck_copies"]
    return max(c[row["index"]] for c in per_loadout.values())   # the most any loadout has

cards["copies"] = cards.apply(copies, axis=1)
cards["plays_per_copy"] = cards["plays_per_game"] / cards["copies"]
cards[["hero", "card", "type", "copies", "games", "plays_per_game", "plays_per_copy", "played_share",
       "score_when_played", "score_when_unplayed", "lift"]].head(12)"""),
    md("""\
## Which cards each hero plays most, and which it hardly plays

A card the AI almost never plays is worth a look: it may be weak, situational, better spent
as a BOOST, or a card whose value the AI does not see (then the AI, not the card, needs
work). Narrate a few games with `unmatched-sim duel` to tell which."""),
    code("""\
top = cards.sort_values("plays_per_copy", ascending=False).groupby("hero").head(3)
top.sort_values(["hero", "plays_per_copy"], ascending=[True, False])[["hero", "card", "type", "copies", "plays_per_game", "plays_per_copy"]]"""),
    code("""\
rare = cards.sort_values("plays_per_copy").groupby("hero").head(1)
rare[["hero", "card", "type", "copies", "plays_per_game", "plays_per_copy", "played_share"]]"""),
    code("""\
hero = cards.sort_values("plays_per_copy", ascending=False)["hero"].iloc[0]
t = cards[cards["hero"] == hero].sort_values("plays_per_copy")
fig = Figure(figsize=(8, 0.4 * len(t) + 1.2))
ax = fig.add_subplot()
ax.barh(t["card"], t["plays_per_copy"], color="#2b6cb0")
ax.set_xlabel("plays per game per copy in the deck")
ax.set_title(f"{manifest['heroes'][hero]['name']}: how often each card is played ({int(t['games'].max())} games)")
fig.tight_layout()
fig"""),
    md("""\
## Score when a card is played

`score_when_played` is the hero's score in the games where the card was played at least once;
`lift` is that minus the score in the games where it was not. Read it with care: it is a
**correlation, not the card's strength**. A long game gives time to play more cards, a hero
that is winning plays its finishers, and a card drawn late is played less. A large lift is a
reason to look at the card, e.g. with a variant in `03_what_if_variant.ipynb`, which measures
a change by paired games.

The intervals below are Wilson intervals of the score in the games where the card was played."""),
    code("""\
c = cards[(cards["games_played"] >= 20) & (cards["games_played"] < cards["games"])].copy()
c["lo"], c["hi"] = wilson(c["score_when_played"] * c["games_played"], c["games_played"])
c.sort_values("lift", ascending=False)[["hero", "card", "games_played", "score_when_played", "lo", "hi",
                                        "score_when_unplayed", "lift"]].head(10)"""),
    md("""\
## Your own cuts of the raw rows

`reports.tables.sides` turns the game rows into one row per hero per game (its opponent, seat,
score and card plays), the easiest shape for your own questions. For example: how often does
each hero play its most played card against each opponent?"""),
    code("""\
s = sides(games)
rows = []
for hero, info in manifest["heroes"].items():
    best = cards[cards["hero"] == hero].sort_values("plays_per_copy", ascending=False).iloc[0]
    hs = s[(s["hero"] == hero) & ~s["mirror"]]
    plays = np.array([p[best["index"]] for p in hs["card_plays"]])
    for opp, per in pd.Series(plays).groupby(hs["opponent"].to_numpy()).mean().items():
        rows.append({"hero": hero, "card": best["card"], "opponent": opp, "plays_per_game": per})
pd.DataFrame(rows).pivot(index=["hero", "card"], columns="opponent", values="plays_per_game")"""),
    md("""\
## Where the fights happen

The spaces table counts, per battlefield space, the combats whose defender stood there and
the fighters defeated there. The map colours each space by combats per game."""),
    code("""\
sp = tables["spaces"]
sp.sort_values("combats_per_game", ascending=False)[["battlefield", "space", "combats_per_game", "defeats_per_game"]].head(8)"""),
    code("""\
bf = settings["battlefields"][0]
plot_space_map(sp[sp["battlefield"] == bf], manifest["battlefields"][bf])"""),
    md("""\
## Watch one game

A number is easier to believe once you have seen how it was played. A run stores each game's
seed, so any stored game can be played again, exactly as it was, with the board after every
event: `find_game` picks a game (by its number, or by matchup and seed), `replay_stored` plays it
again (and checks the result against the stored row), and `board_figure` draws the board at one
moment: the fighters with their health, the combat in progress, each player's cards. Here: the
first stored game of the run's first two heroes, at the end of its third turn. `write_replay` writes the same
game as an interactive page to open in a browser (from the shell: `unmatched-sim replay RUN_DIR
--game N`)."""),
    code("""\
from reports.board import board_figure
from reports.replay_html import write_replay
from sim.runs.replay import find_game, list_games, replay_stored

a, b = list(settings["heroes"])[:2]
first, total = list_games(RUN_DIR, matchup=f"{a},{b}", limit=1)     # the first of the {total} games of a vs b
game = find_game(RUN_DIR, game=first[0].number)
rep = replay_stored(RUN_DIR, game)
print(game.describe(), "-", rep.game.winner_name, "won in", rep.game.turns, "turns,", rep.n_events, "events")

turn = min(3, rep.game.turns)
end_of_turn = int(max(i for i in range(rep.n_events) if rep.turn[i] == turn))
board_figure(rep, end_of_turn)"""),
    code("""\
page = write_replay(RUN_DIR / f"game-{game.number}.html", rep)
print(f"open {page} in a browser: step through the game event by event, or press play")"""),
]
