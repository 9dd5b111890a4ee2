"""Overlapping text in a rendered matplotlib figure: labels and titles that run into each
other (an axis label into the next panel's, a tick label into an axis label).

:func:`text_overlaps` draws the figure with the Agg renderer and reads every visible text's
rendered box (``Text.get_window_extent``), as a rectangle turned by the text's rotation
(a 30-degree tick label is tested as the slanted box it is, not the upright box around
it), and returns the pairs that overlap; :func:`texts_on_circles` does the same for texts and
circles (a battlefield's spaces and rings). :func:`record_report_figures` collects every
figure a report writes (every report writes its PNGs through
``reports.render.figure_png``).
"""
import math
from unittest import mock

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text


def _corners(t: Text, renderer) -> np.ndarray:
    """The four corners (4, 2) of ``t``'s rendered box in display pixels, turned by its
    rotation: the box's size is the text's unrotated extent; its centre is the centre of the
    upright box around the rotated text (the same point for any rotation and alignment)."""
    box = t.get_window_extent(renderer)
    angle = t.get_rotation()
    if angle % 180:
        t.set_rotation(0)
        flat = t.get_window_extent(renderer)
        t.set_rotation(angle)
        w, h = flat.width, flat.height
    else:
        w, h = box.width, box.height
    a = math.radians(angle)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    c = np.array([(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2])
    return np.array([c + sx * w / 2 * u + sy * h / 2 * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _separated(p: np.ndarray, q: np.ndarray, slack: float) -> bool:
    """Whether convex quadrilaterals ``p`` and ``q`` (4, 2) are apart by more than ``-slack``
    pixels along one of their edge normals (separating axis test; ``slack`` forgives
    touching boxes)."""
    for poly in (p, q):
        for k in range(4):
            e = poly[(k + 1) % 4] - poly[k]
            n = np.array([-e[1], e[0]]) / (np.hypot(*e) or 1.0)
            a, b = p @ n, q @ n
            if a.max() <= b.min() + slack or b.max() <= a.min() + slack:
                return True
    return False


def drawn_texts(fig) -> tuple[list[Text], object]:
    """Draw ``fig`` with the Agg renderer and return the texts it drew (titles, axis and
    tick labels, annotations, legend entries; not the hidden ones, nor the labels of ticks
    outside the axes' limits) and the renderer."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    drawn, draw = [], Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return draw(self, renderer)

    with mock.patch.object(Text, "draw", record):
        fig.draw(renderer)
    return list({id(t): t for t in drawn}.values()), renderer


def text_overlaps(fig, slack: float = 1.0) -> list[tuple[str, str]]:
    """The pairs of texts drawn in ``fig`` (:func:`drawn_texts`) whose rendered boxes
    overlap by more than ``slack`` pixels, each as (text, text); empty when no two texts run
    into each other."""
    texts, renderer = drawn_texts(fig)
    boxes = [_corners(t, renderer) for t in texts]
    clash = []
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            if not _separated(boxes[i], boxes[j], slack):
                clash.append((texts[i].get_text(), texts[j].get_text()))
    return clash


def _box_to_circle(corners: np.ndarray, centre: np.ndarray) -> float:
    """The distance from ``centre`` to the convex quadrilateral ``corners`` (4, 2); 0 inside."""
    inside = True
    best = np.inf
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        e = b - a
        t = np.clip(np.dot(centre - a, e) / (np.dot(e, e) or 1.0), 0.0, 1.0)
        best = min(best, float(np.hypot(*(a + t * e - centre))))
        if e[0] * (centre[1] - a[1]) - e[1] * (centre[0] - a[0]) < 0:
            inside = False
    return 0.0 if inside else best


def texts_on_circles(fig, circles, which=lambda text: True, slack: float = 1.0) -> list[tuple[str, str]]:
    """The (text, circle name) pairs where a text drawn in ``fig`` (:func:`drawn_texts`) for
    which ``which(text)`` holds runs into a circle by more than ``slack`` pixels; ``circles``:
    ``(name, ax, (x, y), radius, linewidth)`` with the centre and radius in ``ax``'s data
    units and the outline's width in points (half of it lies outside the radius)."""
    texts, renderer = drawn_texts(fig)
    out = []
    for t in texts:
        if not which(t.get_text()):
            continue
        box = _corners(t, renderer)
        for name, ax, centre, radius, lw in circles:
            c = ax.transData.transform(centre)
            rad = abs(ax.transData.transform((centre[0] + radius, centre[1]))[0] - c[0]) + lw / 2 * fig.dpi / 72
            if _box_to_circle(box, c) < rad - slack:
                out.append((t.get_text(), name))
    return out


def figure_name(fig) -> str:
    """A figure's suptitle, else its first axes' title (for a failure message)."""
    sup = fig._suptitle.get_text() if fig._suptitle is not None else ""
    return sup or next((a.get_title() for a in fig.axes if a.get_title()), "(untitled figure)")


def record_report_figures(monkeypatch) -> list:
    """Collect every figure a report writes from now on (a list, in order), by wrapping
    ``reports.render.figure_png``, which writes every report's PNGs."""
    import reports.render as R
    seen, original = [], R.figure_png

    def record(fig, dpi=R.DPI):
        seen.append(fig)
        return original(fig, dpi)

    monkeypatch.setattr(R, "figure_png", record)
    return seen
