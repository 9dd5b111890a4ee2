"""Helpers shared by the test files: the replay checker of the invariant tests (``replay``)
and the card-test helpers (``cards``).

Imported as ``helpers`` (``from helpers.cards import ...``): pytest's default (prepend)
import mode puts ``tests/`` on ``sys.path`` for the test files there, the same way
``from conftest import write_gorgon`` works.
"""
