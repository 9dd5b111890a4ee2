"""Number formatting and labels shared by every report (text summaries, HTML and Markdown tables).

The lowest module of ``reports`` with :mod:`reports.stats`: it imports no other report
module. Scores are fractions (0..1) shown as percentages; differences of scores are
shown as points of win rate (0.01 = one point).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

ALL = "all"             # the battlefield value of rows that pool every battlefield
ALL_OPPONENTS = "all"   # the opponent value of rows that pool every opponent

PERCENT_COLUMNS = frozenset({
    "score", "win_rate", "draw_rate", "lo", "hi", "p1_score", "share", "played_share",
    "unplayed_share", "score_when_played", "score_when_unplayed", "first_score", "first_lo", "first_hi",
    "second_score", "second_lo", "second_hi",
    "score_a", "lo_a", "hi_a", "score_b", "lo_b", "hi_b"})
"""Columns that :func:`format_frame` shows as percentages (``0.512`` -> ``51.2%``)."""
SIGNED_PERCENT = frozenset({"lift", "difference", "change", "change_lo", "change_hi"})
"""Columns that :func:`format_frame` shows as signed points (``0.034`` -> ``+3.4 pts``)."""


# The two figures of a hero's strength, defined once: the CLI summary, the HTML report, the
# strength plot and the README use these words, and the strength table's CSV these columns.
SCORE_DEFINITION = ("score [lo, hi]: the hero's pooled score against the other heroes, wins + draws/2 over every "
                    "game against them (mirrors excluded), with its Wilson 95% interval")
RATING_DEFINITION = ("rating [rating_lo, rating_hi]: its Bradley–Terry rating in Elo points (0 = an average hero; "
                     "+100 = a 64% expected score against one), fitted on every game with a first-move term, "
                     "with its 95% interval")
SCORE_AXIS = "score against the other heroes (pooled; draw = ½) with its Wilson 95% interval"
RATING_AXIS = "rating (Bradley–Terry, Elo points; 0 = an average hero) with its 95% interval"


def pct(v) -> str:
    """A fraction as a percentage with one decimal (``0.5123`` -> ``"51.2%"``); ``""`` for NaN/None."""
    return "" if pd.isna(v) else f"{v:.1%}"


def pts(v, suffix: str = "") -> str:
    """A score difference as signed points of win rate (``0.034`` -> ``"+3.4"``, then
    ``suffix``, e.g. ``" pts"``); ``""`` for NaN/None."""
    return "" if pd.isna(v) else f"{v * 100:+.1f}{suffix}"


def pvalue(v) -> str:
    """A p-value with four decimals, ``"<0.0001"`` below 1e-4; ``""`` for NaN/None."""
    return "" if pd.isna(v) else ("<0.0001" if v < 1e-4 else f"{v:.4f}")


def plural(k: int, word: str) -> str:
    """``"1 opponent"``, ``"3 opponents"``: ``k`` and ``word`` with an ``s`` unless ``k`` is 1."""
    return f"{k} {word}" + ("" if k == 1 else "s")


def hero_names(manifest: dict) -> dict:
    """Hero key -> display name, from a run manifest's ``heroes`` (empty if it has none).
    Two heroes of one name (a copied hero file that kept the installed hero's ``name``)
    are told apart by their keys: ``Medusa [gorgon]``, ``Medusa [medusa]``."""
    names = {k: v["name"] for k, v in manifest.get("heroes", {}).items()}
    return distinct_names(names)


def distinct_names(names: dict) -> dict:
    """``names`` (key -> display name) with every name that two or more keys share made
    unique by its key in brackets (``Medusa [gorgon]``)."""
    count: dict = {}
    for v in names.values():
        count[v] = count.get(v, 0) + 1
    return {k: (f"{v} [{k}]" if count[v] > 1 else v) for k, v in names.items()}


def battlefield_names(manifest: dict) -> dict:
    """Battlefield key -> display name, from a run manifest's ``battlefields``."""
    return {k: v["name"] for k, v in manifest["battlefields"].items()}


def short_name(name: str) -> str:
    """A hero's or fighter's name short enough for a narrow column or a token: without a
    leading 'The ', 'Dr. ' or 'King ', and cut before ' of ' or ' & ' ('Geralt of Rivia' ->
    'Geralt', 'Dr. Jekyll & Mr. Hyde' -> 'Jekyll', 'King Arthur' -> 'Arthur'; 'Harpy 2' stays)."""
    out = name
    for cut in (" of ", " & "):
        out = out.split(cut)[0]
    for head in ("The ", "Dr. ", "King "):
        if out.startswith(head) and len(out) > len(head):
            out = out[len(head):]
    return out


def column_names(keys, names: dict) -> dict:
    """Key -> the heading of its column in a printed table: the display name's
    :func:`short_name` ('Jekyll' for 'Dr. Jekyll & Mr. Hyde'), or the whole display name where
    two keys' short names would be the same."""
    full = {k: names.get(k, k) for k in keys}
    short = {k: short_name(v) for k, v in full.items()}
    clash = {v for v in short.values() if list(short.values()).count(v) > 1}
    return {k: full[k] if short[k] in clash else short[k] for k in keys}


def opponent_label(opponent: str, names: dict) -> str:
    """An opponent's display name (``names``: key -> name); ``"all opponents"`` for the pooled row."""
    return "all opponents" if opponent == ALL_OPPONENTS else names.get(opponent, opponent)


HERO_COLUMNS = ("hero", "opponent", "hero_a", "hero_b", "winner_a", "winner_b", "p1_hero", "p2_hero")
"""The columns of a report table that hold hero keys (shown as display names in the HTML)."""


def display_names(df: pd.DataFrame, names: dict, battlefields: dict | None = None, sort: bool = False) -> pd.DataFrame:
    """A copy of ``df`` for an HTML page: the hero keys of its :data:`HERO_COLUMNS` as display
    names (``names``: key -> name, :func:`hero_names`) and, with ``battlefields`` (key -> name,
    :func:`battlefield_names`), its ``battlefield`` column too. Values that are no key (the
    pooled rows' ``all``, ``field``, an empty winner) stay as they are; the CSV and Parquet
    tables keep the keys. ``sort``: rows ordered by the shown hero columns (a table stored in
    key order, read by name), the order within equal names kept."""
    out = df.copy()
    for c, lookup in [(c, names) for c in HERO_COLUMNS] + [("battlefield", battlefields or {})]:
        if c in out.columns and lookup:
            out[c] = [lookup.get(v, v) for v in out[c]]
    by = [c for c in out.columns if c in HERO_COLUMNS]
    return out.sort_values(by, kind="stable").reset_index(drop=True) if sort and by else out


def by_name(df: pd.DataFrame, names: dict, column: str = "opponent", pooled_first: bool = False) -> pd.DataFrame:
    """``df``'s rows ordered as a reader looks for them: by the display name (``names``: key ->
    name) of ``column``'s hero key, the pooled row (:data:`ALL_OPPONENTS`) last, or first with
    ``pooled_first``; rows of one name keep their order. (Tables are stored in key order, and a
    key can sort apart from its name: invisible_man before jekyll_hyde, "Invisible Man" after
    "Dr. Jekyll & Mr. Hyde".)"""
    pooled = df[column] == ALL_OPPONENTS
    key = pd.DataFrame({"p": ~pooled if pooled_first else pooled, "n": [names.get(v, v) for v in df[column]]},
                       index=df.index)
    return df.loc[key.sort_values(["p", "n"], kind="stable").index]


def format_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` with numbers as display text: :data:`PERCENT_COLUMNS` as
    percentages, :data:`SIGNED_PERCENT` as signed points (``+3.4 pts``), other float
    columns with no decimals when every value is whole, else two; NaN as ``""``. Other
    columns are left as they are."""
    out = df.copy()
    for c in out.columns:
        col = out[c]
        if c in PERCENT_COLUMNS and pd.api.types.is_numeric_dtype(col):
            out[c] = [pct(v) for v in col]
        elif c in SIGNED_PERCENT and pd.api.types.is_numeric_dtype(col):
            out[c] = [pts(v, " pts") for v in col]
        elif pd.api.types.is_float_dtype(col):
            if np.all(np.isnan(col) | (np.mod(col, 1) == 0)):
                out[c] = [("" if pd.isna(v) else f"{v:.0f}") for v in col]
            else:
                out[c] = [("" if pd.isna(v) else f"{v:.2f}") for v in col]
    return out
