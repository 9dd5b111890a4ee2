"""The two kinds of notebook cell of ``make_notebooks.py``: ``md(text)`` a markdown cell,
``code(text)`` a code cell (``parameters=True``: the parameters cell, tagged for papermill)."""


def md(text: str):
    return ("md", text)


def code(text: str, parameters: bool = False):
    return ("params" if parameters else "code", text)
