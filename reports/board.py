"""A battlefield drawn from its layout, once for every picture of it.

:func:`draw_battlefield` draws the spaces at their layout positions, the lines joining
adjacent spaces, one-way paths as arrows, secret passages as dashed rings and the start
spaces, with each space filled either with its zones' colours (a space in several zones
is split into wedges, as on the printed battlefield) or with a value on a colour scale.
The report's "where fights happen" maps (:func:`reports.plots.plot_space_map`), the
replay viewer's board (:func:`board_svg`, drawn once as SVG; the viewer's script puts the
fighters on it) and the board of one moment of a game (:func:`board_figure`, for
notebooks) all call it.

``info`` is a battlefield's facts as a run manifest stores them
(``sim.runs.plan.battlefield_facts``): ``name``, ``space_ids``, ``xy`` (layout pixels,
None when unknown), ``edges`` (adjacent pairs), ``starts``, ``passages`` and, in runs of
this version on, ``one_way`` (``[from, to]`` pairs) and ``zones`` (each space's zone
colours). Older manifests lack the last two: their maps show no arrows and no zones.
"""
from __future__ import annotations

import io
import re

import matplotlib

matplotlib.use("Agg")
import numpy as np
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Wedge

from sim.engine import layout as L
from sim.engine.codes import FS_IN_PLAY

from .format import short_name

HEAT_CMAP = "YlOrRd"
#: token colours per seat: a duel's two players; a team game's seats 1-4 (team 1 blue and
#: teal, team 2 red and orange)
SEAT_COLOURS = {2: ("#2b6cb0", "#c53030"), 4: ("#2b6cb0", "#c53030", "#2c7a7b", "#c05621")}
LINE_COLOUR = "#9e9e9e"
PASSAGE_COLOUR = "#6b46c1"
START_COLOUR = "#1a365d"
ONE_WAY_COLOUR = "#2d3748"


def _pale(colour: str, keep: float = 0.6) -> str:
    """``colour`` ("#RRGGBB") mixed with white, ``keep`` of the colour: a zone's fill,
    light enough for the tokens and the ids to stand out."""
    rgb = [int(colour[k:k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - keep * (255 - v)):02x}" for v in rgb)


def layout_xy(info: dict) -> np.ndarray:
    """(S, 2) float64 space centres in layout pixels (x right, y down); spaces without a
    layout are placed on a circle (all of them, so the picture stays readable)."""
    xy = np.array([[np.nan if v is None else v for v in p] for p in info["xy"]], float).reshape(-1, 2)
    if len(xy) and np.isnan(xy).any():
        ang = np.linspace(0, 2 * np.pi, len(xy), endpoint=False)
        xy = np.column_stack([500 + 400 * np.cos(ang), 400 + 400 * np.sin(ang)])
    return xy


def space_radius(xy: np.ndarray) -> float:
    """Radius of a space circle in layout pixels: 0.42 of the smallest distance between
    two space centres (so circles never touch), 50 for a single space."""
    if len(xy) < 2:
        return 50.0
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    return float(0.42 * d.min())


def draw_battlefield(ax, info: dict, values=None, cmap: str = HEAT_CMAP, vmax: float | None = None,
                     show_values: bool = True, fontsize: float = 6.0, labels: bool = True):
    """Draw battlefield ``info`` on matplotlib axes ``ax`` (aspect equal, y down, no ticks).

    ``values``: (S,) floats to colour the spaces by (NaN: no value), on ``cmap`` from 0 to
    ``vmax`` (default: the largest value, 1 if none is positive), printed inside each
    space when ``show_values``; None fills each space with its zones' colours (grey when
    the manifest has no zones). Space ids are written next to the spaces, under them where
    there is room (:func:`label_spaces`; ``labels=False`` leaves them to the caller, once its
    figure's layout is final), start spaces ringed and labelled S1..S4, secret passages ringed
    with a dashed line, lines join adjacent spaces and one-way paths are arrows in their
    direction of movement.

    Returns ``(xy, radius, mappable)``: (S, 2) float64 space centres in the axes' data
    coordinates (layout pixels), the space radius in the same units, and the colour
    mapping of ``values`` (for a colour bar; None without values).
    """
    xy = layout_xy(info)
    r = space_radius(xy)
    one_way = {tuple(p) for p in info.get("one_way", [])}
    both = {(i, j) for i, j in one_way} | {(j, i) for i, j in one_way}
    segs = [[xy[i], xy[j]] for i, j in info["edges"] if (i, j) not in both]
    ax.add_collection(LineCollection(segs, colors=LINE_COLOUR, linewidths=1.4, zorder=1))
    for i, j in one_way:    # a dark line with its arrowhead halfway, pointing the way a fighter may move
        a, b = xy[i], xy[j]
        ax.plot([a[0], b[0]], [a[1], b[1]], color=ONE_WAY_COLOUR, linewidth=1.8, zorder=1, solid_capstyle="butt")
        ax.add_patch(FancyArrowPatch(tuple(a + 0.38 * (b - a)), tuple(a + 0.6 * (b - a)),
                                     arrowstyle="-|>,head_length=7,head_width=4.5", color=ONE_WAY_COLOUR,
                                     linewidth=1.8, zorder=3, shrinkA=0, shrinkB=0, mutation_scale=1.0))
    mappable = None
    if values is not None:
        v = np.asarray(values, float)
        top = vmax if vmax is not None else (float(np.nanmax(v)) if len(v) and np.isfinite(v).any()
                                              and np.nanmax(v) > 0 else 1.0)
        mappable = PatchCollection([Circle(tuple(p), r) for p in xy], cmap=cmap, edgecolors="#555555",
                                   linewidths=0.8, zorder=2)
        mappable.set_array(np.nan_to_num(v, nan=0.0))
        mappable.set_clim(0, top)
        ax.add_collection(mappable)
        if show_values:
            for i, val in enumerate(v):
                if np.isfinite(val):
                    ax.text(xy[i, 0], xy[i, 1], f"{val:.2f}", ha="center", va="center", fontsize=fontsize + 0.5,
                            zorder=4, color="white" if val > 0.6 * top else "black")
    else:
        zones = info.get("zones") or [["#cbd5e0"]] * len(xy)
        for i, p in enumerate(xy):
            cols = zones[i] or ["#cbd5e0"]
            step = 360.0 / len(cols)
            for k, c in enumerate(cols):
                ax.add_patch(Wedge(tuple(p), r, 90 + k * step, 90 + (k + 1) * step, facecolor=_pale(c),
                                   edgecolor="none", zorder=2))
            ax.add_patch(Circle(tuple(p), r, facecolor="none", edgecolor="#4a5568", linewidth=0.9, zorder=2))
    for s in info.get("passages", []):
        ax.add_patch(Circle(tuple(xy[s]), r * PASSAGE_RING, facecolor="none", edgecolor=PASSAGE_COLOUR,
                            linewidth=PASSAGE_WIDTH, linestyle="--", zorder=3))
    for s in info.get("starts", []):
        if 0 <= s < len(xy):
            ax.add_patch(Circle(tuple(xy[s]), r * START_RING, facecolor="none", edgecolor=START_COLOUR,
                                linewidth=START_WIDTH, zorder=3))
    ax.set_aspect("equal")
    pad = r * 1.6
    if len(xy):
        ax.set_xlim(xy[:, 0].min() - pad, xy[:, 0].max() + pad)
        ax.set_ylim(xy[:, 1].max() + pad + r * 0.5, xy[:, 1].min() - pad)    # y down, room for the ids
    ax.set_xticks([])
    ax.set_yticks([])
    for sp in ax.spines.values():
        sp.set_visible(False)
    if labels:
        label_spaces(ax, info, fontsize)
    return xy, r, mappable


#: the rings around start spaces and secret passages: radius in space radii, line width in points
START_RING, START_WIDTH = 1.12, 2.0
PASSAGE_RING, PASSAGE_WIDTH = 1.22, 1.6
#: where a space's id goes, in order of preference: the directions (degrees from straight down,
#: y down) tried from under the space round to above it, the first clear of every space, ring
#: and id taken
LABEL_ANGLES = (0, 22.5, -22.5, 45, -45, 67.5, -67.5, 90, -90, 112.5, -112.5, 135, -135, 157.5, -157.5, 180)


def label_spaces(ax, info: dict, fontsize: float = 6.0) -> list:
    """Write each space's id (a start space's with its tag S1..S4, in bold) next to its space on
    axes ``ax`` already drawn by :func:`draw_battlefield`, at the first direction of
    :data:`LABEL_ANGLES` where the id's box is clear of every space, every start or passage
    ring and every id placed before it, inside the axes' limits and nearer its own space than
    any other (under the space when nothing is clear). The boxes are measured for the axes' size on the figure, so call it once
    the figure's layout is final (``draw_battlefield(..., labels=False)``, the layout, then
    this). Returns the texts."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    xy = layout_xy(info)
    r = space_radius(xy)
    if not len(xy):
        return []
    per_pt = _data_per_point(ax)
    outer = np.full(len(xy), r)
    for s in info.get("passages", []):
        outer[s] = max(outer[s], r * PASSAGE_RING + PASSAGE_WIDTH / 2 * per_pt)
    tags = {}
    for k, s in enumerate(info.get("starts", [])):
        if 0 <= s < len(xy):
            tags[s] = f"S{k + 1}"
            outer[s] = max(outer[s], r * START_RING + START_WIDTH / 2 * per_pt)
    gap = 0.08 * r
    (x0, x1), (y1, y0) = sorted(ax.get_xlim()), sorted(ax.get_ylim(), reverse=True)
    placed: list = []
    texts = []
    for i, sid in enumerate(info["space_ids"]):
        tag = tags.get(i)
        text = sid + (f" {tag}" if tag else "")
        weight = "bold" if tag else "normal"
        ext = TextPath((0, 0), text, size=fontsize, prop=FontProperties(weight=weight)).get_extents()
        hw, hh = (ext.width / 2 + 1.0) * per_pt, 0.62 * fontsize * per_pt       # (a line is ~1.2 em high)
        best = None
        for angle in LABEL_ANGLES:
            ux, uy = np.sin(np.radians(angle)), np.cos(np.radians(angle))
            reach = outer[i] + gap + hw * abs(ux) + hh * abs(uy)     # (the box just clear of the ring)
            cx, cy = xy[i, 0] + reach * ux, xy[i, 1] + reach * uy
            box = (cx - hw, cy - hh, cx + hw, cy + hh)
            inside = x0 <= box[0] and box[2] <= x1 and y0 <= box[1] and box[3] <= y1
            near = np.hypot(xy[:, 0] - cx, xy[:, 1] - cy)
            clear = inside and int(np.argmin(near)) == i \
                and not any(_box_hits_circle(box, xy[j], outer[j] + gap / 2) for j in range(len(xy))) \
                and not any(_boxes_meet(box, b) for b in placed)
            if clear or best is None:
                best = (cx, cy, box)
            if clear:
                break
        cx, cy, box = best
        placed.append(box)
        texts.append(ax.text(cx, cy, text, ha="center", va="center", fontsize=fontsize, zorder=4,
                             color=START_COLOUR if tag else "#4a5568", fontweight=weight))
    return texts


def _data_per_point(ax) -> float:
    """The axes' data units per typographic point as the figure is laid out now (aspect equal)."""
    fig = ax.figure
    ax.apply_aspect()
    pos = ax.get_position()
    w_pt, h_pt = pos.width * fig.get_figwidth() * 72, pos.height * fig.get_figheight() * 72
    (xa, xb), (ya, yb) = ax.get_xlim(), ax.get_ylim()
    return max(abs(xb - xa) / max(w_pt, 1e-9), abs(yb - ya) / max(h_pt, 1e-9))


def _box_hits_circle(box, centre, radius: float) -> bool:
    """Whether the rectangle ``box`` (x0, y0, x1, y1) and the disc of ``radius`` around ``centre`` meet."""
    nx = min(max(centre[0], box[0]), box[2])
    ny = min(max(centre[1], box[1]), box[3])
    return (nx - centre[0]) ** 2 + (ny - centre[1]) ** 2 < radius ** 2


def _boxes_meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def board_svg(info: dict, width_in: float = 9.0) -> tuple[str, dict]:
    """The battlefield ``info`` with its zones (:func:`draw_battlefield`) as an SVG
    document (text as text, no date: the same battlefield gives the same bytes), and its
    geometry in the SVG's user units: ``{"width", "height", "r": space radius, "xy": [[x,
    y] per space]}``, so that a script can put tokens on the spaces. ``width_in``: the
    figure's width in inches (the SVG's user unit is the point, 72 per inch)."""
    xy = layout_xy(info)
    r = space_radius(xy)
    pad = r * 1.6
    w = float(np.ptp(xy[:, 0]) + 2 * pad) if len(xy) else 1.0
    h = float(np.ptp(xy[:, 1]) + 2 * pad + r * 0.5) if len(xy) else 1.0
    fig = Figure(figsize=(width_in, width_in * h / w))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    draw_battlefield(ax, info, fontsize=7.0)
    ax.set_adjustable("datalim")
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "unmatched-sim"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, facecolor="white")
    svg = _compact_svg(buf.getvalue())
    width_pt, height_pt = fig.get_figwidth() * 72, fig.get_figheight() * 72
    disp = ax.transData.transform(xy)
    k = 72.0 / fig.dpi
    pts = [[round(float(x) * k, 2), round(height_pt - float(y) * k, 2)] for x, y in disp]
    scale = (ax.transData.transform((r, 0))[0] - ax.transData.transform((0, 0))[0]) * k
    return svg, {"width": round(width_pt, 2), "height": round(height_pt, 2), "r": round(float(scale), 2), "xy": pts}


def _compact_svg(svg: str) -> str:
    """Matplotlib's SVG made smaller for embedding: numbers to 0.1 point (a tenth of a
    pixel on screen), no metadata block, whitespace between path commands collapsed."""
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    svg = re.sub(r"(\d+\.\d)\d+", r"\1", svg)
    return re.sub(r"\s*\n\s*", "\n", svg).replace(" \n", " ")


def token_label(name: str) -> str:
    """A fighter's name short enough for its token (:func:`reports.format.short_name`)."""
    return short_name(name)


def defense_chosen(replay) -> np.ndarray:
    """bool (n,): per event of ``replay`` (a :class:`sim.play.replay.Replay`), whether the
    defender of the combat in progress has made its choice (a defense card or none: its
    ``EV_DEFENSE`` event is at or before this one since the combat's ``EV_ATTACK``). Until then
    a combat without a defense card shows that the choice is to come, not "no defense"."""
    out = np.zeros(len(replay.log), bool)
    chosen = False
    for i, ev in enumerate(replay.log[:, 0]):
        if ev == L.EV_ATTACK:
            chosen = False
        elif ev == L.EV_DEFENSE:
            chosen = True
        out[i] = chosen
    return out


def defense_label(card_name: str | None, chosen: bool) -> str:
    """The defender's side of a combat's label: its card (``card_name``), ``no defense`` once it
    chose none, ``defense not chosen yet`` before its choice (:func:`defense_chosen`)."""
    return card_name if card_name is not None else "no defense" if chosen else "defense not chosen yet"


def board_figure(replay, event: int, width_in: float = 9.0) -> Figure:
    """The board after event ``event`` of ``replay`` (a :class:`sim.play.replay.Replay`)
    as a matplotlib Figure: the battlefield with its zones, every fighter on the board as
    a token in its seat's colour with its health, fog tokens, the combat in progress as an
    arrow from attacker to defender with the two cards and their values, and under the
    board each player's hand size, deck size, discard pile size, ongoing scheme and hero
    counters (Alice's size, a form); the
    narration line of the event is the title. Raises IndexError for an event outside the
    game."""
    mo = replay.moment(event)
    m = replay.match
    info = viewer_battlefield(m.battlefield)
    xy = layout_xy(info)
    r = space_radius(xy)
    pad = r * 1.6
    w = float(np.ptp(xy[:, 0]) + 2 * pad)
    h = float(np.ptp(xy[:, 1]) + 2 * pad + r * 0.5)
    extra = 0.32 * replay.players + 0.5
    fig = Figure(figsize=(width_in, width_in * h / w + extra))
    ax = fig.add_axes((0, extra / fig.get_figheight(), 1, 1 - extra / fig.get_figheight()))
    draw_battlefield(ax, info)
    cols = SEAT_COLOURS[4 if replay.players > 2 else 2]
    names = replay.fighters
    for f in range(len(names)):
        s = int(mo.space[f])
        if not names[f] or s < 0 or mo.status[f] != FS_IN_PLAY:
            continue
        p = f // L.FIGHTERS_PER_PLAYER
        hero = f % L.FIGHTERS_PER_PLAYER == 0
        rt = r * (0.8 if hero else 0.64)
        ax.add_patch(Circle(tuple(xy[s]), rt, facecolor=cols[p], edgecolor="#ffd54f" if hero else "white",
                            linewidth=2.2 if hero else 1.2, zorder=6))
        label = token_label(names[f])
        size = (6.5 if hero else 5.5) * min(1.0, (9 if hero else 7) / max(1, len(label)))
        ax.text(xy[s, 0], xy[s, 1] - rt * 0.25, label, ha="center", va="center", color="white",
                fontsize=size, fontweight="bold", zorder=7)
        ax.text(xy[s, 0], xy[s, 1] + rt * 0.38, str(int(mo.health[f])), ha="center", va="center", color="white",
                fontsize=8 if hero else 7, fontweight="bold", zorder=7)
    for p, spaces in enumerate(mo.fog):
        for s in spaces:
            if s >= 0:
                ax.add_patch(Circle((xy[s, 0] - r * 0.72, xy[s, 1] - r * 0.72), r * 0.3, facecolor="#a0aec0",
                                    edgecolor=cols[p], linewidth=1.0, alpha=0.9, zorder=8))
    cb = mo.combat
    cards = m.content.card_names
    if cb is not None and mo.space[cb.attacker] >= 0 and mo.space[cb.defender] >= 0:
        a, d = xy[int(mo.space[cb.attacker])], xy[int(mo.space[cb.defender])]
        ax.add_patch(FancyArrowPatch(tuple(a), tuple(d), arrowstyle="-|>,head_length=10,head_width=6",
                                     color="#e53e3e", linewidth=3, zorder=9, shrinkA=r * 0.5, shrinkB=r * 0.5,
                                     mutation_scale=1.0))
        dv = "" if cb.defense_value is None else f" ({cb.defense_value})"
        av = "" if cb.attack_value is None else f" ({cb.attack_value})"
        dcard = defense_label(cards[cb.defense_card] + dv if cb.defense_card >= 0 else None,
                              bool(defense_chosen(replay)[mo.event]))
        ax.text((a[0] + d[0]) / 2, (a[1] + d[1]) / 2, f"{cards[cb.attack_card]}{av}\nvs {dcard}", ha="center",
                va="center", fontsize=7, zorder=10, bbox=dict(boxstyle="round", facecolor="white", edgecolor="#e53e3e"))
    heroes = m.hero_names
    rows = []
    for p in range(replay.players):
        og = mo.ongoing[p]
        states = [f", {name} {vals[mo.counters[p][slot]] if mo.counters[p][slot] < len(vals) else mo.counters[p][slot]}"
                  for name, (slot, vals) in m.specs[p].counters.items()]
        rows.append(f"{heroes[p]}: hand {len(mo.hand[p])}, deck {mo.deck[p]}, discard {len(mo.discard[p])}"
                    + (f", ongoing {cards[og]}" if og >= 0 else "") + "".join(states))
    for k, text in enumerate(rows):
        fig.text(0.02, (extra - 0.3 - 0.3 * k) / fig.get_figheight(), text, color=cols[k], fontsize=9,
                 fontweight="bold", va="center")
    title = replay.lines[mo.event] or f"event {mo.event}"
    fig.suptitle(f"Turn {mo.turn}: {title.strip()}", fontsize=10, y=0.995)
    return fig


def viewer_battlefield(bf) -> dict:
    """The facts of a ``sim.content.battlefields.Battlefield`` for drawing, as a run
    manifest stores them (``sim.runs.plan.battlefield_facts``), with all four start spaces."""
    from sim.runs.plan import battlefield_facts
    return dict(battlefield_facts(bf), starts=[int(s) for s in bf.starts[:4]])
