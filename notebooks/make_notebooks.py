"""Write the worked-analysis notebooks of this folder (the ``.ipynb`` files) from the cells below.

The notebooks are kept in git without outputs, so their diffs stay small; this script is
their source. To change a notebook, edit its cells here and run::

    .venv/bin/python notebooks/make_notebooks.py

``tests/test_notebooks.py`` checks that the ``.ipynb`` files are what this script writes
and executes every notebook (small, with ``UNMATCHED_SIM_NOTEBOOK_QUICK=1``), so a
notebook that no longer runs fails the test suite.
"""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

#: the environment variable that makes every notebook tiny (the test suite sets it)
QUICK_ENV = "UNMATCHED_SIM_NOTEBOOK_QUICK"

KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def md(text: str):
    return ("md", text)


def code(text: str, parameters: bool = False):
    return ("params" if parameters else "code", text)


# ----------------------------------------------------------------------------------------------
# 01: a balance walkthrough

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

One row per hero, strongest first:

* `field_score`: the mean of the hero's matchup scores, each opponent weighted equally;
* `score`, `lo`, `hi`: its pooled score against the other heroes (mirrors left out) with the
  95% interval, over `games` games;
* `bt_rating` (`bt_lo`, `bt_hi`): a Bradley–Terry rating on a log-odds scale (0 = an average
  hero of this field), fitted to every game with a first-move term, with its 95% interval."""),
    code("""\
st = rep.tables["strength"]
st[["hero", "field_score", "score", "lo", "hi", "games", "bt_rating", "bt_lo", "bt_hi"]]"""),
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
overlap = runner_up["bt_hi"] >= strongest["bt_lo"]
print(f"\\n{names[strongest['hero']]} vs the runner-up {names[runner_up['hero']]}: Bradley–Terry intervals "
      f"[{strongest['bt_lo']:+.2f}, {strongest['bt_hi']:+.2f}] and [{runner_up['bt_lo']:+.2f}, {runner_up['bt_hi']:+.2f}] "
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

# ----------------------------------------------------------------------------------------------
# 02: Geralt's gear

GEAR = [
    md("""\
# Geralt's gear: which choices matter, and against whom?

Geralt of Rivia picks one card from each of three **choice groups** before the game (sword,
armor, potion): 2 × 2 × 2 = 8 **loadouts**. This notebook plays every loadout against a field
of opponents and asks which loadout is best against each opponent, whether the loadouts differ
at all, and what each single gear choice is worth with the others held fixed. It is the
`unmatched-sim loadouts` command from Python.

With the parameters below it plays 9,600 games, about a minute on a laptop."""),
    code("""\
%matplotlib inline
import shutil
from pathlib import Path

import pandas as pd

from reports.loadout_plots import plot_gear_effects, plot_loadout_heatmap
from reports.loadouts import build_loadouts_report
from sim.content.heroes import load_all
from sim.runs.store import read_manifest
from sim.runs.versus import run_loadouts

pd.set_option("display.precision", 3)
pd.set_option("display.width", 140)"""),
    md("""\
## Parameters

`GAMES` is games **per loadout**, split evenly over the opponents, the battlefields and the two
seats; it is rounded up so that each of those gets the same number."""),
    code("""\
import os

HERO = "geralt_of_rivia"
OPPONENTS = ["ancient_leshen", "ciri", "dracula", "king_arthur", "medusa", "sinbad"]   # None = every other hero
BATTLEFIELDS = ["kaer_morhen", "marmoreal"]
GAMES = 1200         # games per loadout (the full study: 20,000 on every battlefield)
JOBS = 2             # worker processes (None = every core)
SEED = 1
OUT = Path("runs/geralt_gear")

if os.environ.get("UNMATCHED_SIM_NOTEBOOK_QUICK"):     # the test suite runs every notebook tiny
    OPPONENTS, BATTLEFIELDS, GAMES, JOBS = ["king_arthur", "medusa", "sinbad"], ["marmoreal"], 96, 1""",
         parameters=True),
    md("""\
## The gear

The hero file (`heroes/geralt_of_rivia.toml`) declares the choice groups; a card with a
`group` is in the deck only when its `option` is chosen. A loadout names one option per group,
joined by `+`."""),
    code("""\
spec = load_all()[HERO]
for group, options in spec.groups:
    print(f"{group}: {' or '.join(options)}")
    for c in spec.cards:
        if c.group == group:
            print(f"    {c.option:<11} {c.name} ({c.type}, value {c.value}, boost {c.boost}, {c.copies} copies): {c.text}")
print("\\nloadouts:", ", ".join(spec.loadouts()))"""),
    md("""\
## Play every loadout against every opponent

The same from the shell:

```sh
unmatched-sim loadouts geralt_of_rivia --games 1200 --opponents ancient_leshen,ciri,dracula,king_arthur,medusa,sinbad -b kaer_morhen,marmoreal --jobs 2 --out runs/geralt_gear
```"""),
    code("""\
shutil.rmtree(OUT, ignore_errors=True)     # start afresh (a run folder resumes its own run only)
result = run_loadouts(OUT, HERO, games=GAMES, opponents=OPPONENTS, battlefields=BATTLEFIELDS, seed=SEED, jobs=JOBS,
                      progress=True)
settings = read_manifest(OUT)["settings"]
print(f"played {result.games_played} games in {result.seconds:.1f} s: "
      f"{settings['games_per_loadout']} per loadout ({GAMES} asked, rounded up so that every opponent, "
      f"battlefield and seat gets the same number)")"""),
    md("""\
## The report

`build_loadouts_report` writes `OUT/report/loadouts.html` and returns its tables; the summary
is what the command prints."""),
    code("""\
rep = build_loadouts_report(OUT)
print(rep.summary)"""),
    md("""\
## Each loadout against each opponent

The score (win rate, a draw counting half) of every loadout against every opponent; the
column `all` pools the opponents. In the heatmap the best loadout against each opponent is
framed."""),
    code("""\
scores = rep.tables["scores"]
scores.pivot(index="loadout", columns="opponent", values="score").loc[spec.loadouts()]"""),
    code("""\
names = {key: info["name"] for key, info in read_manifest(OUT)["heroes"].items()}
plot_loadout_heatmap(scores, rep.tables["best"], names)"""),
    md("""\
## The best loadout against each opponent, and whether it matters

* `differ`: a chi-square test says the loadouts do not all win equally often against this
  opponent (Holm-corrected over the opponents). If it is `False`, the games cannot tell the
  loadouts apart against that opponent: any choice is as good as far as we can see.
* `n_ties`: how many other loadouts are *not significantly worse* than the best (pairwise
  tests, Holm-corrected). A long list means the best loadout is only a little ahead."""),
    code("""\
rep.tables["best"][["opponent", "best_loadout", "score", "lo", "hi", "games", "differ", "n_ties", "worst_loadout", "worst_score"]]"""),
    md("""\
## Which gear choices matter against whom

The **effect of one choice** is the change of Geralt's score when he takes that option instead
of the group's first one, averaged over every combination of the other two groups (e.g. silver
instead of steel, with each armor and each potion). Effects are in points of win rate with a
95% interval; `significant` is after Holm's correction over Geralt's three choices for that
opponent."""),
    code("""\
ge = rep.tables["gear_effects"].copy()
ge["choice"] = ge["group"] + ": " + ge["option"] + " instead of " + ge["reference"]
ge["points"] = (100 * ge["effect"]).round(1)
ge.pivot(index="choice", columns="opponent", values="points")"""),
    code("""\
sig = ge[ge["significant"]]
if len(sig) == 0:
    print("no single gear choice changes Geralt's score significantly at these game counts")
for _, r in sig.iterrows():
    who = "over all opponents" if r["opponent"] == "all" else f"against {names[r['opponent']]}"
    print(f"{r['choice']} {who}: {100 * r['effect']:+.1f} points [{100 * r['lo']:+.1f}, {100 * r['hi']:+.1f}], "
          f"Holm p {r['p_holm']:.4f}")"""),
    code("""\
plot_gear_effects(ge, names, names[HERO])"""),
    md("""\
## Reading it

* A choice that matters **against every opponent** (a significant `all` effect) is a
  card-strength question: one option is simply better, as the AI plays it.
* A choice that matters **against one opponent only** is a matchup question: e.g. an armor
  that answers one hero's high-value attacks.
* "Not significant" means the games cannot see a difference, not that there is none: raise
  `GAMES` (the intervals shrink with its square root) before calling two options equal.

As everywhere in this tool, these are the scripted AI's results with each loadout fixed for
the whole game, not human players choosing gear for a known opponent."""),
]

# ----------------------------------------------------------------------------------------------
# 03: a what-if

WHAT_IF = [
    md("""\
# What if I change this card? Write a variant, compare, read the verdict

A **designer variant** is a small TOML file that changes parts of hero files (a hero's health,
a card's value or BOOST, an effect's amount) for one run, without editing the hero files.
`compare` plays the hero against every opponent twice with the same seeds, once as installed
and once with the variant, and tests whether the hero's score changed. Because game *i* of a
cell starts from the same seed in both runs, the two games share every shuffle until the
variant first makes a difference; this **pairing** makes small changes visible with few
games.

With the parameters below both what-ifs together play about 12,000 games, a minute or two on a
laptop."""),
    code("""\
%matplotlib inline
import shutil
from pathlib import Path

import pandas as pd

from reports.compare import build_compare_report
from reports.loadout_plots import plot_compare
from sim.content.variants import VariantError, load_variant
from sim.runs.store import read_manifest
from sim.runs.versus import run_compare

pd.set_option("display.precision", 3)
pd.set_option("display.width", 140)"""),
    md("""\
## Parameters

`GAMES` is games **per opponent** in each of the two runs, split evenly over the battlefields
and the seats."""),
    code("""\
import os

OPPONENTS = None     # None = every other installed hero
BATTLEFIELDS = ["marmoreal", "soho"]
GAMES = 300          # games per opponent, in each of the two runs
JOBS = 2             # worker processes (None = every core)
SEED = 1

if os.environ.get("UNMATCHED_SIM_NOTEBOOK_QUICK"):     # the test suite runs every notebook tiny
    OPPONENTS, BATTLEFIELDS, GAMES, JOBS = ["alice", "medusa", "sinbad"], ["marmoreal"], 40, 1""",
         parameters=True),
    md("""\
## 1. Write a variant: King Arthur with 22 health instead of 18

The file names the hero by its key (`unmatched-sim heroes` lists them) and sets the fields to
change. `load_variant` checks it against the installed heroes and lists what it changes."""),
    code("""\
VARIANT = Path("runs/arthur_plus4.toml")      # beside the run folders, out of git
VARIANT.parent.mkdir(exist_ok=True)
VARIANT.write_text('''\\
name = "arthur +4 health"
description = "is King Arthur too weak? 22 health instead of 18"

[hero.king_arthur]
health = 22
''')
variant = load_variant(VARIANT)
print("\\n".join(variant.describe()))"""),
    md("""\
A mistake is caught before any game is played, with the valid choices:"""),
    code("""\
typo = Path("runs/typo.toml")
typo.write_text('[hero.king_arthur.cards."Excalibir"]\\nvalue = 7\\n')
try:
    load_variant(typo)
except VariantError as e:
    print(e)"""),
    md("""\
## Compare

The same from the shell:

```sh
unmatched-sim compare --variant runs/arthur_plus4.toml --hero king_arthur --games 300 -b marmoreal,soho --jobs 2 --out runs/arthur_plus4
```"""),
    code("""\
OUT = Path("runs/arthur_plus4")
shutil.rmtree(OUT, ignore_errors=True)     # start afresh
base, var = run_compare(OUT, "king_arthur", variant, games=GAMES, opponents=OPPONENTS, battlefields=BATTLEFIELDS,
                        seed=SEED, jobs=JOBS, progress=True)
print(f"played {base.games_played} baseline and {var.games_played} variant games in {base.seconds + var.seconds:.1f} s")
rep = build_compare_report(OUT)
print(rep.summary)"""),
    md("""\
## Read the verdict

One row per opponent and one for all of them (`all`, last):

* `baseline`, `variant`: King Arthur's score without and with the change;
* `change` with its 95% interval `lo` to `hi`: the variant minus the baseline, from the paired
  games (0.05 = 5 points of win rate);
* `p_holm`: the p-value of a paired t-test (null hypothesis: the change does nothing against
  this opponent), Holm-corrected over all rows, so that testing many opponents does not
  manufacture a finding;
* `verdict`: "significant rise", "significant fall" or "no significant change";
* `identical_share`: the share of paired games that ended the same way. Only the other games
  carry information about the change."""),
    code("""\
table = rep.tables["compare"]
table[["opponent", "games", "baseline", "variant", "change", "lo", "hi", "p_holm", "verdict", "identical_share"]]"""),
    code("""\
names = {key: info["name"] for key, info in read_manifest(OUT / "variant")["heroes"].items()}
plot_compare(table, names, "King Arthur", variant.name)"""),
    code("""\
overall = table.set_index("opponent").loc["all"]
print(f"Over all opponents King Arthur goes from {overall['baseline']:.1%} to {overall['variant']:.1%}: "
      f"{100 * overall['change']:+.1f} points [{100 * overall['lo']:+.1f}, {100 * overall['hi']:+.1f}], "
      f"{overall['verdict']}.")
print("\\"No significant change\\" means these games cannot see a change, not that there is none: "
      "raise GAMES to look closer.")"""),
    md("""\
## 2. Your turn: change a card's effect

Effect arguments are addressed `WINDOW.STEP.ARGUMENT`, steps counted from 0 as in the hero
file: Medusa's Gaze of Stone has `after = [{ op = "damage", amount = 8, target = "opposing",
if = "won" }]`, so `after.0.amount` is its damage. What if it dealt 6? Edit the file and
rerun these cells to try your own change (see "Designer variants" in the README for every
field a variant can change)."""),
    code("""\
VARIANT2 = Path("runs/gaze_6.toml")
VARIANT2.write_text('''\\
name = "gaze of stone 6"

[hero.medusa.cards."Gaze of Stone"]
after.0.amount = 6
''')
variant2 = load_variant(VARIANT2)
print("\\n".join(variant2.describe()))

OUT2 = Path("runs/gaze_6")
shutil.rmtree(OUT2, ignore_errors=True)
# Medusa is the hero now, so King Arthur takes her place among the opponents
opponents2 = None if OPPONENTS is None else [o for o in OPPONENTS if o != "medusa"] + ["king_arthur"]
run_compare(OUT2, "medusa", variant2, games=GAMES, opponents=opponents2, battlefields=BATTLEFIELDS, seed=SEED, jobs=JOBS,
            progress=True)
rep2 = build_compare_report(OUT2)
print(rep2.summary)"""),
    md("""\
## Reading a null result

"No significant change" with a **narrow** interval (a point or less either way) is a finding
too: the change hardly matters *as the AI plays*. Often the effect rarely fires: a card spent
mostly as a BOOST, or an attack of low value that seldom wins its combat, so that an "if you
won" effect seldom happens. Check how often the card is played in
`04_card_statistics.ipynb`, and watch it in narrated games, e.g.
`unmatched-sim duel medusa sinbad --seed 3 --variant runs/gaze_6.toml` from the
`notebooks/` folder. A **wide** interval across 0 only says that the games are too few."""),
    md("""\
## What the verdict is, and what it is not

It is the change in the **scripted AI's** results, both sides played by the same profile. A
change the AI cannot exploit (a card whose value lies in bluffing or timing) can look smaller
than it would be at a table of people, and the AI does not adapt its play to the new card
beyond what its scoring sees. A significant change here is a reason to playtest the variant,
not a replacement for playtesting."""),
]

# ----------------------------------------------------------------------------------------------
# 04: per-card statistics from a stored run

CARDS = [
    md("""\
# Per-card statistics from a stored run

Every run folder keeps one row per game, including how many times each hero played each of
its cards. This notebook opens a stored run (by default the one `01_balance_walkthrough.ipynb`
wrote; any matrix run folder works, e.g. one from `unmatched-sim matrix --out runs/demo`) and
asks which cards each hero plays most, which it hardly plays, how the hero does in games where
a card was played, and where on the battlefield the fights happen."""),
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
* `games/part-*.parquet`: one row per game (one file per chunk of games);
* `spaces/part-*.parquet`: per chunk, the combats and defeats on each space;
* `report/`: what `build_report` / `unmatched-sim report` wrote.

`read_games` reads every stored chunk into one DataFrame; `sim.runs.store.GAME_COLUMNS` describes
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
]

NOTEBOOKS = {
    "01_balance_walkthrough.ipynb": WALKTHROUGH,
    "02_geralt_gear.ipynb": GEAR,
    "03_what_if_variant.ipynb": WHAT_IF,
    "04_card_statistics.ipynb": CARDS,
}


def build(cells) -> nbformat.NotebookNode:
    """A notebook (nbformat 4, no outputs) of ``cells``; the parameters cell is tagged
    ``parameters`` (papermill's convention)."""
    out = []
    for i, (kind, text) in enumerate(cells):
        cid = f"cell-{i:02d}"
        if kind == "md":
            out.append(new_markdown_cell(text, id=cid))
        else:
            c = new_code_cell(text, id=cid)
            if kind == "params":
                c.metadata["tags"] = ["parameters"]
            out.append(c)
    nb = new_notebook(cells=out, metadata={"kernelspec": KERNEL, "language_info": {"name": "python"}})
    return nb


def render(cells) -> str:
    """The ``.ipynb`` text of ``cells``, as written to disk."""
    return nbformat.writes(build(cells)) + "\n"


def main(argv=None) -> int:
    for name, cells in NOTEBOOKS.items():
        path = HERE / name
        text = render(cells)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
