"""Helpers of the card tests (``tests/test_cards_*.py``): positions for the scenario API
(``sim.play.scenario``) and readers of its result.

A position is a dict ``{"battlefield", "active", "players": [seat 0, seat 1]}``; each player
is ``{"hero": key, "fighters": {name: at(space, health)}, "hand": [...], "deck": [...], ...}``.
``resolve`` and ``Scenario.run`` return a result dict with ``fighters`` (by name) and
``players`` (by seat); the readers below pick the numbers the tests assert.
"""
from sim.content.battlefields import load_battlefield

MARMOREAL = load_battlefield("marmoreal")


def dist(a, b, bf=MARMOREAL):
    """Steps between spaces ``a`` and ``b`` (by id) along the battlefield's lines."""
    return int(bf.dist[bf.index(a), bf.index(b)])


# ---------------------------------------------------------------- positions

def game(p0, p1, active=0, battlefield="marmoreal", **extra):
    """Position (Marmoreal unless stated): ``p0`` is seat 0, ``p1`` seat 1 (each a dict with 'hero')."""
    return {"battlefield": battlefield, "active": active, "players": [p0, p1], **extra}


def hero(key, **kw):
    return {"hero": key, **kw}


def arthur(**kw):
    return {"hero": "king_arthur", **kw}


def alice(size, **kw):
    return {"hero": "alice", "counters": {"size": size}, **kw}


def medusa(**kw):
    return {"hero": "medusa", **kw}


def sinbad(**kw):
    return {"hero": "sinbad", **kw}


def at(space, health=None):
    """A fighter's entry: on ``space``, with ``health`` if given (else its full health)."""
    d = {"space": space}
    if health is not None:
        d["health"] = health
    return d


# ---------------------------------------------------------------- running and reading results

def run(sc, step, choices=()):
    """Run one step on a Scenario with scripted choices (an unscripted choice is an error)."""
    return sc.run(step, list(choices), "error")


def hp(out, name):
    return out["fighters"][name]["health"]


def space(out, name):
    return out["fighters"][name]["space"]


def status(out, name):
    return out["fighters"][name]["status"]


def pl(out, seat):
    return out["players"][seat]


def p0(out):
    return out["players"][0]


def p1(out):
    return out["players"][1]


def log_text(out):
    return "\n".join(out["log"])
