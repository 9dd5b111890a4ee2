"""The cells of notebooks/03_what_if_variant.ipynb,
"What if I change this card? Write a variant, compare, read the verdict";
``make_notebooks.py`` writes the notebook from them."""
from nb_cells import code, md

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
