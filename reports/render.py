"""The pieces every report writes: HTML (inline CSS, tables, embedded PNGs, the page
skeleton), PNG bytes of figures, and the CSV / Parquet files of the tables.

Imports only :mod:`reports.format`; every report module (matrix ``html``,
``loadouts``, ``compare``, ``teams``) builds its page from these.
"""
from __future__ import annotations

import base64
import html
import io
import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .format import format_frame

REPORT_DIR = "report"   # a run folder's report subfolder (RUN_DIR/report)
DPI = 110               # dots per inch of every report PNG

CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1200px;
       color: #1a202c; line-height: 1.45; padding: 0 1em; }
h1 { border-bottom: 2px solid #2b6cb0; padding-bottom: .2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #cbd5e0; padding-bottom: .15em; }
table.data { border-collapse: collapse; font-size: 13px; margin: .6em 0 1.2em; }
.table-scroll { max-width: 100%; overflow-x: auto; }
table.data th, table.data td { border: 1px solid #e2e8f0; padding: 3px 8px; white-space: nowrap; }
table.data th { background: #edf2f7; }
table.data .num { text-align: right; }
table.data .txt { text-align: left; }
table.data tr:nth-child(even) td { background: #f7fafc; }
img { max-width: 100%; border: 1px solid #e2e8f0; margin: .5em 0; }
.note { color: #4a5568; font-size: 14px; }
pre { background: #f7fafc; padding: .8em; border: 1px solid #e2e8f0; overflow-x: auto; font-size: 13px; }
details summary { cursor: pointer; color: #2b6cb0; }
nav a { margin-right: 1em; }
table.kv td { text-align: left; white-space: normal; }
.warn { background: #fffaf0; border: 2px solid #c05621; padding: .6em .8em; color: #7b341e; }
"""


@dataclass
class ReportFiles:
    """What a ``build_*_report`` function wrote: ``out_dir``, the ``html`` path, the
    ``tables`` (DataFrames by name), the plain-text ``summary`` and the ``csv`` /
    ``parquet`` / ``png`` paths by name."""

    out_dir: Path
    html: Path
    tables: dict
    summary: str
    csv: dict = field(default_factory=dict)
    parquet: dict = field(default_factory=dict)
    png: dict = field(default_factory=dict)


def png_data_uri(png: bytes) -> str:
    """PNG bytes as a ``data:image/png;base64,...`` URI (for an ``<img src>``)."""
    return f"data:image/png;base64,{base64.b64encode(png).decode()}"


def img(png: bytes, alt: str) -> str:
    """An ``<img>`` element embedding ``png`` (bytes), with the escaped ``alt`` text."""
    return f'<img alt="{html.escape(alt)}" src="{png_data_uri(png)}">'


def scroll_box(table: str) -> str:
    """``table`` (HTML) in a ``div.table-scroll``, a box of its own that scrolls sideways: a
    table wider than the page (many columns, long loadout names) scrolls there instead of
    widening the whole page."""
    return f'<div class="table-scroll">{table}</div>'


def table_html(df: pd.DataFrame | None, max_rows: int | None = None, cls: str = "data") -> str:
    """A DataFrame as an HTML table: numbers formatted by :func:`reports.format.format_frame`,
    numeric columns right-aligned, text left-aligned, every cell escaped.

    ``max_rows``: show only the first rows (with a note) when the frame is longer;
    ``cls``: the table's CSS class. The table sits in a ``div.table-scroll`` that scrolls
    sideways when the table is wider than the page. An empty or None frame gives a
    "(no rows)" note.
    """
    if df is None or len(df) == 0:
        return '<p class="note">(no rows)</p>'
    shown = df if max_rows is None or len(df) <= max_rows else df.head(max_rows)
    numeric = [pd.api.types.is_numeric_dtype(shown[c]) for c in shown.columns]
    text = format_frame(shown)
    head = "".join(f'<th class="{"num" if n else "txt"}">{html.escape(str(c))}</th>' for c, n in zip(text.columns, numeric))
    rows = []
    for vals in text.itertuples(index=False):
        rows.append("<tr>" + "".join(f'<td class="{"num" if n else "txt"}">{html.escape(str(v))}</td>'
                                     for v, n in zip(vals, numeric)) + "</tr>")
    body = scroll_box(f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>' + "".join(rows)
                      + "</tbody></table>")
    if shown is not df:
        body += f'<p class="note">first {max_rows} of {len(df)} rows; the CSV has them all</p>'
    return body


class Sections:
    """The ``<h2>`` sections of a report page, in order, with a navigation bar.

    ``add(anchor, title, body)`` appends a section (``title`` is escaped, ``body`` is
    HTML); ``html()`` gives the ``<nav>`` line and the sections, newline-separated."""

    def __init__(self):
        self.items: list[tuple[str, str, str]] = []

    def add(self, anchor: str, title: str, body: str) -> None:
        """Append the section ``<h2 id=anchor>title</h2>`` followed by ``body``."""
        self.items.append((anchor, title, f'<h2 id="{anchor}">{html.escape(title)}</h2>\n{body}'))

    def html(self) -> str:
        """The navigation bar and every section, as HTML."""
        nav = "<nav>" + "".join(f'<a href="#{a}">{html.escape(t)}</a>' for a, t, _ in self.items) + "</nav>"
        return f"{nav}\n" + "\n".join(b for _, _, b in self.items)


def page(title: str, heading: str, body: str) -> str:
    """A self-contained HTML document: ``title`` (escaped) in the head with :data:`CSS`,
    then ``<h1>heading</h1>`` (``heading`` is HTML: escape names yourself) and ``body``."""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            f"<h1>{heading}</h1>\n{body}\n</body></html>\n")


def write_atomic(path, write) -> Path:
    """Write a report file so that it is either its old or its new version, never a cut-off
    one (a full disk): ``write(tmp)`` writes a temporary file beside ``path``, which is then
    renamed over it; on any error the temporary file is removed and the error raised
    (OSError for a full disk). Returns ``path``."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def write_text(path, text: str) -> Path:
    """Write ``text`` as UTF-8 to ``path`` atomically (:func:`write_atomic`); returns the
    path. Raises OSError."""
    return write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_frame(df: pd.DataFrame, path) -> Path:
    """Write a table as CSV or Parquet (by ``path``'s suffix, no index) atomically
    (:func:`write_atomic`); returns the path. Raises OSError."""
    path = Path(path)
    if path.suffix == ".csv":
        return write_atomic(path, lambda tmp: df.to_csv(tmp, index=False))
    return write_atomic(path, lambda tmp: df.to_parquet(tmp, index=False))


def report_dirs(run_dir, out_dir=None) -> Path:
    """The report folder (``out_dir``, default ``RUN_DIR/report``) with its ``tables/`` and
    ``plots/`` subfolders created. Raises OSError if they cannot be made."""
    out = Path(out_dir) if out_dir is not None else Path(run_dir) / REPORT_DIR
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "plots").mkdir(parents=True, exist_ok=True)
    return out


def figure_png(fig, dpi: int = DPI) -> bytes:
    """A matplotlib figure as PNG bytes (tight bounding box, white background)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", facecolor="white")
    return buf.getvalue()


def write_pngs(out: Path, figs: dict, paths: dict, dpi: int = DPI) -> dict:
    """Write each figure of ``figs`` (name -> Figure) as ``out/plots/<name>.png``, storing
    the path in ``paths[name]``; returns name -> PNG bytes (for embedding). Each file is
    written atomically (:func:`write_atomic`). Raises OSError."""
    pngs = {}
    for name, fig in figs.items():
        pngs[name] = figure_png(fig, dpi)
        paths[name] = Path(out) / "plots" / f"{name}.png"
        write_atomic(paths[name], lambda tmp, b=pngs[name]: tmp.write_bytes(b))
    return pngs


def write_tables(out: Path, tables: dict, names, csv: dict, parquet: dict, prefix: str = "") -> None:
    """Write ``tables[name]`` (DataFrames) for each of ``names`` as
    ``out/tables/<prefix><name>.csv`` and ``.parquet`` (no index), storing the paths in
    ``csv[name]`` and ``parquet[name]``, each atomically (:func:`write_frame`). Raises
    OSError if a file cannot be written."""
    for name in names:
        csv[name] = write_frame(tables[name], Path(out) / "tables" / f"{prefix}{name}.csv")
        parquet[name] = write_frame(tables[name], Path(out) / "tables" / f"{prefix}{name}.parquet")
