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
