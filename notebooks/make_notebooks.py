"""Write the worked-analysis notebooks of this folder (the ``.ipynb`` files) from the cells in the
``nb0*.py`` modules beside it (one per notebook).

The notebooks are kept in git without outputs, so their diffs stay small; this script is
their source. To change a notebook, edit its cells in its ``nb0*.py`` module and run::

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

# the cells of each notebook (this folder is on sys.path when the script runs)
from nb01_balance_walkthrough import WALKTHROUGH
from nb02_geralt_gear import GEAR
from nb03_what_if_variant import WHAT_IF
from nb04_card_statistics import CARDS

HERE = Path(__file__).resolve().parent

#: the environment variable that makes every notebook tiny (the test suite sets it)
QUICK_ENV = "UNMATCHED_SIM_NOTEBOOK_QUICK"

KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


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
