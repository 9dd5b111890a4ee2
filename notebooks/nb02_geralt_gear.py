"""The cells of notebooks/02_geralt_gear.ipynb,
"Geralt's gear: which choices matter, and against whom?";
``make_notebooks.py`` writes the notebook from them."""
from nb_cells import code, md

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
