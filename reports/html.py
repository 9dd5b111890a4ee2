"""The matrix run's HTML page: one self-contained file (inline CSS, plots embedded as
base64 PNG), built from :func:`reports.tables.compute_tables` output and the plots'
PNG bytes. The HTML pieces (CSS, tables, images, page skeleton) are :mod:`reports.render`'s.
"""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

import pandas as pd

from .format import ALL, RATING_DEFINITION, SCORE_DEFINITION, battlefield_names, display_names, hero_names, plural, pvalue
from .render import Sections, img, page, table_html, write_text
from .stats import ELO_PER_LOGIT
from .tables import sensitive_marks, unfinished_banner, variant_label


def matchup_grid(mt: pd.DataFrame, names: dict, marks=()) -> pd.DataFrame:
    """The matchup matrix as text cells ``'score [lo–hi]'`` (battlefield "all"; mirror cells
    ``'mirror'``). ``mt``: :func:`reports.tables.matchups`; ``names``: hero key -> display
    name; ``marks``: (hero, opponent) key pairs whose cell ends in ``' † AI-sensitive'``.
    Returns a DataFrame with a leading ``hero \\ opponent`` column, rows and columns
    sorted by display name."""
    t = mt[mt["battlefield"] == ALL]
    keys = sorted(set(t["hero"]), key=lambda k: names.get(k, k))
    grid = pd.DataFrame(index=[names.get(k, k) for k in keys], columns=[names.get(k, k) for k in keys], dtype=object)
    for _, r in t.iterrows():
        grid.loc[names.get(r["hero"], r["hero"]), names.get(r["opponent"], r["opponent"])] = (
            "mirror" if r["hero"] == r["opponent"] else f"{r['score']:.1%} [{r['lo']:.1%}–{r['hi']:.1%}]"
            + (" † AI-sensitive" if (r["hero"], r["opponent"]) in marks else ""))
    grid.index.name = "hero \\ opponent"
    return grid.reset_index()


def _per_hero(df: pd.DataFrame, names: dict) -> str:
    """One collapsible table per hero."""
    if df is None or len(df) == 0:
        return '<p class="note">(no rows)</p>'
    return "".join(f"<details><summary>{html.escape(names.get(h, h))} ({len(g)} cards)</summary>"
                   + table_html(g.drop(columns="hero")) + "</details>"
                   for h, g in df.groupby("hero", sort=True))


def write_html(path, tables: dict, pngs: dict, summary: str, examples: str = "") -> Path:
    """Write the matrix report to ``path`` and return the path.

    ``tables``: :func:`reports.tables.compute_tables` output; ``pngs``: plot name -> PNG
    bytes (``strength``, ``matchups``, ``battlefield_hero``, ``game_length`` and
    ``map_<battlefield>`` for the maps drawn); ``summary``: plain-text summary; ``examples``:
    the example games' section (HTML, :func:`reports.examples.write_examples`), '' for none. Raises
    KeyError if a required plot is missing, OSError if ``path`` cannot be written.
    """
    m = tables["manifest"]
    s = m["settings"]
    names = hero_names(m)
    bf_names = battlefield_names(m)
    bt = tables["bt"]
    secs = sum(x.get("seconds", 0) for x in m.get("sessions", []))
    sections = Sections()
    sec = sections.add

    def shown(df, sort: bool = True):
        # heroes and battlefields by their display names, as the printed summary and the plots name them, and
        # the tables stored in key order ordered by name (the strength table keeps its order: by rating)
        return display_names(df, names, bf_names, sort)

    heroes_txt = ", ".join(f"{names[k]}" + (f" ({', '.join(v)})" if any(v) else "")
                           for k, v in sorted(s["heroes"].items(), key=lambda kv: names[kv[0]]))
    setup = pd.DataFrame([
        ("heroes", heroes_txt), ("battlefields", ", ".join(bf_names.get(b, b) for b in s["battlefields"])),
        ("games per hero pair", s["games_per_pair"]), ("AI profile", s["ai"]), ("run seed", s["seed"]),
        ("games stored", f"{tables['totals']['games']} of {m['games_total']}"),
        ("status", tables["progress"].describe() if "progress" in tables else m.get("status", "")),
        ("package version", m.get("package_version", "")), ("engine fingerprint", s["fingerprint"]["engine"]),
        ("simulation time", f"{secs:.1f} s"),
        ("rules", ", ".join(f"{k}={v}" for k, v in s["rules"].items())),
        ("variant", (f"{variant_label(s['variant'], list(s['heroes']))}, digest {s['variant']['digest']}: "
                     + json.dumps(s["variant"]["heroes"])) if "variant" in s else "none (the hero files as installed)"),
    ], columns=["setting", "value"])
    banner = unfinished_banner(tables, names)
    top = (f'<p class="warn"><b>{html.escape(banner[0])}</b><br>' + "<br>".join(html.escape(x) for x in banner[1:])
           + "</p>") if banner else ""
    sec("run", "Run", top + table_html(setup, cls="data kv") + f"<pre>{html.escape(summary)}</pre>"
        '<p class="note"><b>How draws count:</b> a game that reaches the turn cap (or stops on an engine error) '
        'is a draw. Every <i>score</i> counts a draw as half a win: score = (wins + draws/2) / games. '
        'Wins, draws and losses are also shown separately. Intervals are 95% Wilson score intervals of the '
        'score. A mirror match scores 50% by symmetry.</p>')
    sec("strength", "Hero strength",
        img(pngs["strength"], "hero strength") +
        f'<p class="note"><i>{html.escape(SCORE_DEFINITION)}</i>. <i>{html.escape(RATING_DEFINITION)}</i> '
        '(a binomial GLM on every seating; the ratings sum to 0). '
        + (f'Fitted first-move advantage: {bt.first_move * ELO_PER_LOGIT:+.0f} Elo points '
           f'(± {1.96 * bt.first_move_se * ELO_PER_LOGIT:.0f}), i.e. {bt.first_move_score:.1%} for the first player '
           'between equal heroes.' if math.isfinite(bt.first_move) else
           '<b>No rating</b> (shown empty): a hero won or lost every game against the others, '
           'so no finite rating fits; play more games.')
        + '</p>' + table_html(shown(tables["strength"], sort=False)))
    sec("matchups", "Matchups",
        img(pngs["matchups"], "matchup heatmap")
        + table_html(matchup_grid(tables["matchups"], names, sensitive_marks(tables))) + _sensitive(tables, names) +
        ('<p class="note">To watch games of a matchup: <a href="#examples">Example games</a>.</p>' if examples
         else "") +
        "<details><summary>all matchup rows (wins, draws, losses)</summary>" +
        table_html(shown(tables["matchups"])) + "</details>")
    sec("battlefields", "Battlefields",
        img(pngs["battlefield_hero"], "battlefield by hero heatmap") + table_html(shown(tables["battlefield_hero"])) +
        "<details><summary>matchups per battlefield</summary>" +
        table_html(shown(tables["matchups_by_battlefield"]), max_rows=2000) + "</details>")
    sec("first", "First-player advantage",
        '<p class="note">P1 moves first. <i>p1_score</i> = (P1 wins + draws/2) / games, all games '
        'including mirrors.</p>' + table_html(shown(tables["first_player"])) +
        '<p class="note">Each hero\'s score when it moves first and when it moves second (mirrors '
        'excluded).</p>' + table_html(shown(tables["first_player_by_hero"])))
    sec("length", "Game length and how games end",
        img(pngs["game_length"], "game length histogram") + table_html(shown(tables["game_length"])) +
        table_html(shown(tables["end_reasons"])))
    sec("cards", "Cards",
        '<p class="note">Over every game a hero played with the card in its deck (both seats, mirrors '
        'included). <i>played_share</i>: games in which the card was played at least once; '
        '<i>unplayed_share</i>: games it stayed unplayed; <i>score_when_played</i> / '
        '<i>score_when_unplayed</i>: the hero\'s score in those games; <i>lift</i>: the difference '
        '(association, not cause: long games see more cards).</p>' + _per_hero(tables["cards"], names))
    lo = tables["loadouts"]
    if len(lo):
        lo_body = ('<p class="note">Each loadout against the field (every other hero pooled; mirrors excluded):</p>'
                   + table_html(shown(lo[lo["opponent"] == "field"].drop(columns="opponent")))
                   + "<details><summary>each loadout against each opponent</summary>"
                   + table_html(shown(lo[lo["opponent"] != "field"])) + "</details>")
        lb, ge = tables.get("loadout_best"), tables.get("gear_effects")
        if lb is not None and len(lb):
            lo_body += ('<p class="note">The best loadout against each opponent ("all": every opponent pooled; '
                        'mirrors excluded). <i>differ</i>: Pearson\'s chi-square test of homogeneity across the '
                        'loadouts (null hypothesis: every loadout wins equally often against this opponent), '
                        'Holm-corrected over the opponents; <i>ties</i>: loadouts not significantly worse than the '
                        'best (pairwise z-tests, Holm). A matrix spreads its games over every loadout, so these '
                        'are small samples: <code>unmatched-sim loadouts HERO</code> measures them properly.</p>'
                        + table_html(shown(lb[["hero", "opponent", "best_loadout", "score", "lo", "hi", "games",
                                               "differ", "ties"]]))
                        + ("<details><summary>effect of each gear choice (others held fixed)</summary>"
                           + table_html(shown(ge)) + "</details>" if ge is not None and len(ge) else ""))
    else:
        lo_body = '<p class="note">No hero in this run has choice groups (loadouts).</p>'
    sec("loadouts", "Loadouts", lo_body)
    maps = "".join(img(pngs[f"map_{b}"], f"{bf_names.get(b, b)} map") for b in s["battlefields"] if f"map_{b}" in pngs)
    if examples:
        sec("examples", "Example games", examples)
    sec("maps", "Where fighters fall",
        '<p class="note">Each battlefield drawn from its layout: spaces coloured by fighters defeated there '
        'per game (left) and by combats whose defender stood there per game (right).</p>' + maps)

    return write_text(path, page("unmatched-sim matrix report",
                                 f"Unmatched hero balance: matrix report (AI profile {html.escape(str(s['ai']))})",
                                 sections.html()))


def _sensitive(tables: dict, names: dict) -> str:
    """The AI-sensitivity note and table of a report built ``against`` another run ("" if not)."""
    t = tables.get("ai_sensitive")
    if t is None:
        return ""
    ag = tables["against"]
    shown = t[t["hero"] < t["opponent"]].copy()
    for c in ("hero", "opponent"):
        shown[c] = [names.get(v, v) for v in shown[c]]
    shown["p_holm"] = [pvalue(v) for v in shown["p_holm"]]
    cols = ["hero", "opponent", "score_a", "lo_a", "hi_a", "score_b", "lo_b", "hi_b", "change", "change_lo",
            "change_hi", "p_holm", "flip"]
    return (f'<p class="note"><b>† AI-sensitive</b>: the cells whose score changes significantly between this run '
            f'(<i>score_a</i>, AI {html.escape(str(tables["manifest"]["settings"]["ai"]))}) and '
            f'{html.escape(ag["run"])} (<i>score_b</i>, AI {html.escape(str(ag["ai"]))}, {plural(ag["games"], "game")}): '
            'two-proportion z test, Holm-corrected over the cells (<code>unmatched-sim diff</code> gives the '
            f'whole comparison). {len(shown)} of the cells here.</p>'
            + "".join(f'<p class="note"><b>Note</b>: {html.escape(ag[k])}</p>' for k in ("heroes", "same_ai")
                      if ag.get(k))
            + table_html(shown[cols]))
