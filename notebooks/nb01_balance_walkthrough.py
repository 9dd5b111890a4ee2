"""The cells of notebooks/01_balance_walkthrough.ipynb,
"A balance walkthrough: who is strong, who is weak, and how sure are we?";
``make_notebooks.py`` writes the notebook from them."""
from nb_cells import code, md

WALKTHROUGH = [
    md("""\
# A balance walkthrough: who is strong, who is weak, and how sure are we?

This notebook plays a small **matrix** (every hero against every hero, on a few battlefields),
reads the tables, draws the heatmap, finds the strongest and the weakest hero and checks
whether the games are enough to say so. It uses the same Python functions as the
`unmatched-sim matrix` and `unmatched-sim report` commands.

With the parameters below it plays 8,400 games, about a minute on a laptop. Raise `GAMES` for
firmer answers: the 95% intervals shrink with the square root of the games."""),
    code("""\
%matplotlib inline
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from reports import build_report
from reports.plots import plot_matchups, plot_strength
from reports.stats import wilson
from sim.runs.matrix import run_matrix

pd.set_option("display.precision", 3)
pd.set_option("display.width", 140)"""),
    md("""\
## Parameters

Hero keys come from `unmatched-sim heroes`, battlefield keys from `unmatched-sim battlefields`
(`None` means all of them). `GAMES` is games **per pair of heroes**, split evenly over the two
seats (who moves first) and the battlefields."""),
    code("""\
import os

HEROES = ["alice", "dracula", "invisible_man", "king_arthur", "medusa", "sinbad"]
BATTLEFIELDS = ["marmoreal", "soho"]
GAMES = 400          # games per pair of heroes (2,000 gives intervals of about ±2 points)
JOBS = 2             # worker processes (None = every core)
SEED = 1             # the same seed gives the same games, whatever JOBS is
OUT = Path("runs/walkthrough")   # the run folder

if os.environ.get("UNMATCHED_SIM_NOTEBOOK_QUICK"):     # the test suite runs every notebook tiny
    HEROES, BATTLEFIELDS, GAMES, JOBS = HEROES[:4], BATTLEFIELDS[:1], 40, 1""", parameters=True),
    md("""\
## Play the matrix

`run_matrix` plays every pair of heroes (mirror matches included) and stores one row per game
in the run folder as the games finish. Running it again with the same settings resumes a
stopped run; a folder holding a run with other settings is refused, so this cell starts
afresh each time. The same run from the shell:

```sh
unmatched-sim matrix --games 400 --heroes alice,dracula,invisible_man,king_arthur,medusa,sinbad -b marmoreal,soho --jobs 2 --out runs/walkthrough
```"""),
    code("""\
shutil.rmtree(OUT, ignore_errors=True)
result = run_matrix(OUT, games=GAMES, heroes=HEROES, battlefields=BATTLEFIELDS, seed=SEED, jobs=JOBS, progress=True)
print(f"played {result.games_played} games in {result.seconds:.1f} s ({result.games_per_second:,.0f} games/s); stored in {OUT}")"""),
    md("""\
## The report

`build_report` computes every table, draws the plots and writes `OUT/report/report.html`
(one self-contained page to share), exactly as `unmatched-sim report runs/walkthrough` does.
The tables are pandas DataFrames in `rep.tables`; the summary is the text the command prints.

A hero's **score** is its win rate with a draw (a game that reaches the turn cap) counted as
half a win. Every score comes with a **95% Wilson interval** (`lo` to `hi`): the range of true
win rates these games are consistent with."""),
    code("""\
rep = build_report(OUT)
print(rep.summary)
print()
print("report:", rep.html)"""),
    md("""\
## Hero strength

One row per hero, strongest first, with the two figures the command, the HTML report and
the README all use:

* `score` (`lo`, `hi`): its pooled score against the other heroes, wins + draws/2 over its
  `games` games against them (mirrors left out), with the 95% Wilson interval;
* `rating` (`rating_lo`, `rating_hi`): its Bradley–Terry rating in Elo points (0 = an
  average hero of this field; +100 = a 64% expected score against one), fitted to every game
  with a first-move term, with its 95% interval."""),
    code("""\
st = rep.tables["strength"]
st[["hero", "score", "lo", "hi", "games", "rating", "rating_lo", "rating_hi"]]"""),
    md("""\
## The heatmap

Each cell is the row hero's score against the column hero: blue when the row hero wins more
often, red when it loses more often, with the interval and the number of games below. Mirror
matches are grey (50% by symmetry)."""),
    code("""\
names = {key: info["name"] for key, info in rep.tables["manifest"]["heroes"].items()}   # key -> display name
plot_matchups(rep.tables["matchups"], names)"""),
    md("""\
## The strongest and the weakest hero, and how sure we are

A hero is clearly stronger than an even hero when its whole interval lies above 50%, and
clearly weaker when it lies below. When two heroes' intervals overlap, these games cannot
order them: play more (raise `GAMES`) before drawing a conclusion."""),
    code("""\
def verdict(lo, hi):
    return "above 50%" if lo > 0.5 else "below 50%" if hi < 0.5 else "cannot tell from 50%"

strongest, weakest = st.iloc[0], st.iloc[-1]
for label, r in (("strongest", strongest), ("weakest", weakest)):
    print(f"{label}: {names[r['hero']]}, score {r['score']:.1%} against the others "
          f"(95% interval {r['lo']:.1%} to {r['hi']:.1%}, {r['games']} games): {verdict(r['lo'], r['hi'])}")

runner_up = st.iloc[1]
overlap = runner_up["rating_hi"] >= strongest["rating_lo"]
print(f"\\n{names[strongest['hero']]} vs the runner-up {names[runner_up['hero']]}: rating intervals "
      f"[{strongest['rating_lo']:+.0f}, {strongest['rating_hi']:+.0f}] and "
      f"[{runner_up['rating_lo']:+.0f}, {runner_up['rating_hi']:+.0f}] Elo "
      + ("overlap: these games cannot order the two." if overlap else "do not overlap: the order is clear."))

st.assign(verdict=[verdict(lo, hi) for lo, hi in zip(st["lo"], st["hi"])])[["hero", "score", "lo", "hi", "verdict"]]"""),
    code("""\
plot_strength(st, names)"""),
    md("""\
## The most lopsided matchups

The matchup table has one row per (hero, opponent) pair; battlefield `"all"` pools the
battlefields (`rep.tables["matchups_by_battlefield"]` splits them). A matchup is lopsided when
its interval leaves 50% out."""),
    code("""\
mt = rep.tables["matchups"]
mt = mt[(mt["battlefield"] == "all") & (mt["hero"] != mt["opponent"])]
lopsided = mt[mt["lo"] > 0.5].sort_values("score", ascending=False)
print(f"{len(lopsided)} of {len(mt) // 2} matchups are clearly one-sided at these game counts")
lopsided[["hero", "opponent", "games", "score", "lo", "hi"]].head(8)"""),
    md("""\
## Battlefields and the first player

Each hero's score per battlefield (against the field, mirrors left out), and the first
player's score: the share of games won by the hero who moves first."""),
    code("""\
bh = rep.tables["battlefield_hero"]
bh.pivot(index="hero", columns="battlefield", values="score")"""),
    code("""\
rep.tables["first_player"][["battlefield", "games", "p1_wins", "p2_wins", "draws", "p1_score", "lo", "hi"]]"""),
    md("""\
## How many games do I need?

The 95% interval of a score near 50% is about ±1/√n wide for n games. To tell a 52% matchup
from an even one you need the interval to be narrower than ±2 points: about 2,500 games for
that pair."""),
    code("""\
n = np.array([100, 400, 2000, 10000])
lo, hi = wilson(n * 0.5, n)
pd.DataFrame({"games": n, "95% interval of a 50% score": [f"{a:.1%} to {b:.1%}" for a, b in zip(lo, hi)],
              "± points": np.round((hi - lo) / 2 * 100, 1)})"""),
    md("""\
## What these numbers are, and what they are not

They are the results of the **scripted AI playing both sides** (the `standard` profile: it
scores every legal option from public information). A hero that needs subtle play (bluffing,
holding cards for a combo, reading the opponent) can look weaker than it is in human hands;
a hero whose strength is plain damage looks about right. Use the numbers to find matchups
and cards worth a closer look and to measure a change (see `03_what_if_variant.ipynb`), not as
a verdict on human play.

Next: `02_geralt_gear.ipynb` (which gear matters), `03_what_if_variant.ipynb` (what a change
does), `04_card_statistics.ipynb` (which cards get played, from this run folder)."""),
]
