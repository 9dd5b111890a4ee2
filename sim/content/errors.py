"""The base of the content files' errors: a message that is always one line.

Hero, battlefield, variant and AI profile files are refused with one line naming the file,
the place in it and the valid choices. A name taken from the file (a key, a card name) may
itself hold a line break; :class:`FileError` writes such breaks as ``\\n`` so that the message
stays one line whatever the file holds.
"""
from __future__ import annotations


class FileError(ValueError):
    """A data file is invalid. ``str(error)`` is one line (line breaks written as ``\\n``)."""

    def __init__(self, message: str = "", *args):
        text = str(message).replace("\r\n", "\n").replace("\r", "\n")
        super().__init__(text.replace("\n", "\\n"), *args)


def toml_form(value) -> str:
    """``value`` as a hero file writes it, for error messages: a string in double quotes,
    ``true``/``false``, a list ``[a, b]``, a table ``{ key = value }`` (never Python's
    ``['a']`` or ``{'k': 1}``, which a designer cannot paste back into the file)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_form(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(k)} = {toml_form(v)}" for k, v in value.items()) + " }"
    return str(value)


def _toml_key(key) -> str:
    """A table key as TOML writes it: bare when it is letters, digits, ``_`` and ``-``."""
    k = str(key)
    return k if k and all(c.isalnum() or c in "_-" for c in k) and k.isascii() else toml_form(k)


def quoted(value) -> str:
    """A value where a name was expected, for "unknown ..." messages: a string as the messages
    quote names ('mine'), anything else (a list, a table) in :func:`toml_form`."""
    return repr(value) if isinstance(value, str) else toml_form(value)


def unknown_fighter(value, valid) -> str:
    """The message for ``value`` where one fighter name was expected (``valid``: the names
    allowed, already quoted): "unknown fighter 'X'" for a string, else that a single name is
    needed (a list of names there is not a choice of several)."""
    if isinstance(value, str):
        return f"unknown fighter {quoted(value)}; valid: {', '.join(valid)}"
    return f"must be one fighter name (a string), got {toml_form(value)}; valid: {', '.join(valid)}"
