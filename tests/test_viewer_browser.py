"""The replay page in a real headless browser: Chromium from the system's packages, driven by
playwright with that browser (``executable_path``; playwright's own browser download is not
used). CI installs both (``.ci/run``: ``apt-get install chromium``, playwright from the
``test`` extra) and fails here if either is missing; elsewhere the tests skip with the
reason. ``UNMATCHED_SIM_CHROMIUM`` names another Chromium binary.

What is checked: stepping through a whole game with the page's own controls, the tokens'
drawn positions and the health written on them equal the engine's log at several events
(and the engine's state at the ends of turns); a screenshot of one step shows one token of
the right colour on each occupied space and none elsewhere, at the board's size; the duel
command, the page and its address (#event=N) count events alike; a 200-turn team game's page
opens whole and fetches nothing (its time to get ready is printed, never asserted); the
report pages' wide tables scroll in their own boxes inside a 1,400-pixel window."""
import os
import shutil

import numpy as np
import pytest

from sim.engine import layout as L
from sim.play.replay import record
from sim.play.teams import TeamMatch

pytestmark = pytest.mark.browser

CHROMIUM = next((p for p in (os.environ.get("UNMATCHED_SIM_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser")) if p), None)
IN_CI = bool(os.environ.get("CI"))


def _missing(why: str):
    if IN_CI:
        pytest.fail(f"{why}: .ci/run installs it, so CI must have it")
    pytest.skip(f"{why} (the browser test runs in CI, which installs it)")


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    if CHROMIUM is None:
        _missing("Chromium is not installed (apt-get install chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A team game on Kaer Morhen (one-way paths, four seats, sidekicks, fog tokens) and its page."""
    from reports.replay_html import write_replay
    rep = record(TeamMatch(["medusa", "sinbad"], ["alice", "invisible_man"], "kaer_morhen"), 3,
                 ("standard", "standard"))
    path = write_replay(tmp_path_factory.mktemp("browser") / "game.html", rep, reveal=True)
    return rep, path


def open_page_plain(browser, path, fragment=""):
    """A page of ``path`` opened in a 1400 x 1000 window, with the script errors and the
    requests it made (lists filled as they come)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors, requests = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri() + fragment)
    return page, errors, requests


def open_page(browser, path, fragment=""):
    """A replay page, opened as :func:`open_page_plain` does, once its script is ready."""
    page, errors, requests = open_page_plain(browser, path, fragment)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)   # a hang guard only
    return page, errors, requests


# the tokens as drawn: the centre of each (in the board's SVG units) and the health written on it
TOKENS_JS = """() => {
  const svg = document.getElementById('board'), inv = svg.getScreenCTM().inverse();
  return Array.from(document.querySelectorAll('#overlay .token')).map(g => {
    const shown = g.style.display !== 'none', r = g.querySelector('circle').getBoundingClientRect();
    const p = new DOMPoint(r.x + r.width / 2, r.y + r.height / 2).matrixTransform(inv);
    return {slot: +g.dataset.fighter, shown, x: p.x, y: p.y, health: g.querySelector('.health').textContent};
  });
}"""


def fold(log, health, maxhp):
    """Each fighter's space and health after every event, read straight from the log;
    ``health``, ``maxhp``: every fighter's health and maximum health when the game starts (the
    engine's, after setup); a fighter brought back (EV_RETURN) comes back at its maximum."""
    space, health = np.full(L.MAX_FIGHTERS, -1), np.array(health, int)
    out = []
    for ev, a, b, c, _d, _e in log.tolist():
        if ev == L.EV_SETUP:
            space[a] = b
        elif ev in (L.EV_MOVE, L.EV_PLACE):
            space[a] = c
        elif ev == L.EV_SWAP:
            space[a], space[b] = space[b], space[a]
        elif ev in (L.EV_DEFEATED, L.EV_REMOVE):
            space[a] = -1
        elif ev == L.EV_RETURN:
            space[a], health[a] = b, maxhp[a]
        elif ev in (L.EV_DAMAGE, L.EV_RECOVER):
            health[a] = c
        elif ev == L.EV_SET_HP:
            health[a] = b
        out.append((space.copy(), health.copy()))
    return out


STEP_JS = """([n, checks]) => {
  const read = """ + TOKENS_JS + """;
  const want = new Set(checks), visited = [];
  for (let k = 0; k < n; k++) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    const ev = +document.body.dataset.log, v = {event: ev};
    if (want.has(ev)) { v.tokens = read(); v.line = document.querySelector('#narration li.current').textContent; }
    visited.push(v);
  }
  return {visited};
}"""


def check_board(seen, rep, event, geo, truth):
    """The drawn tokens ``seen`` (TOKENS_JS) at ``event`` against ``truth`` = (space, health)
    per fighter slot."""
    space, health = truth
    xy = np.array(geo["xy"])
    assert sorted(t["slot"] for t in seen) == [f for f in range(L.MAX_FIGHTERS) if rep.fighters[f]]
    for t in seen:
        f = t["slot"]
        want = int(space[f])
        assert t["shown"] == (want >= 0), (event, f)
        if want >= 0:
            nearest = int(np.argmin(((xy - [t["x"], t["y"]]) ** 2).sum(1)))
            assert nearest == want and np.hypot(*(xy[want] - [t["x"], t["y"]])) < 0.05 * geo["r"], (event, f)
        assert int(t["health"]) == int(health[f]), (event, f)


def test_stepping_through_a_whole_game_shows_the_engine_board(browser, game):
    rep, path = game
    page, errors, _ = open_page(browser, path)
    steps = page.evaluate("replayViewer.steps")
    told = [i for i in range(rep.n_events) if rep.lines[i]]
    assert steps == told and page.get_attribute("body", "data-log") == str(told[0])
    geo = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent).board")
    truth = fold(rep.log, *([rep.snapshots[0][L.fslot(f, k)] for f in range(L.MAX_FIGHTERS)]
                            for k in (L.F_HP, L.F_MAXHP)))
    turn_ends = {int(a) - 1 for a in rep.snapshot_at[1:]}    # last event of each turn (engine state known)
    damage = [i for i in told if rep.log[i, 0] == L.EV_DAMAGE]
    moves = [i for i in told if rep.log[i, 0] == L.EV_MOVE]
    checks = {told[0], moves[0], moves[len(moves) // 2], damage[0], damage[-1], told[-1]} | \
        set(sorted(turn_ends & set(told))[::7])
    # the first steps with real key presses, then the rest of the game through the page's own key
    # handler from inside the page (one round trip), reading the board at the checkpoints
    for ev in told[1:25]:
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-log") == str(ev)
    seen = page.evaluate(STEP_JS, [len(told) - 25, sorted(checks)])
    assert [s["event"] for s in seen["visited"]] == told[25:]
    boards = {s["event"]: s for s in seen["visited"] if "tokens" in s}
    checked = 0
    for ev in sorted(checks):
        if ev in boards:
            tokens, line = boards[ev]["tokens"], boards[ev]["line"]
        else:     # (one of the first steps)
            page.evaluate(f"replayViewer.go({told.index(ev)})")
            tokens, line = page.evaluate(TOKENS_JS), page.inner_text("#narration li.current")
        check_board(tokens, rep, ev, geo, truth[ev])
        if ev in turn_ends:     # and the engine's own state at the end of that turn
            st = rep.snapshots[list(rep.snapshot_at).index(ev + 1)]
            check_board(tokens, rep, ev, geo, ([int(st[L.fslot(f, L.F_SPACE)]) for f in range(L.MAX_FIGHTERS)],
                                               [int(st[L.fslot(f, L.F_HP)]) for f in range(L.MAX_FIGHTERS)]))
        assert line == rep.lines[ev].strip()
        checked += 1
    page.evaluate(f"replayViewer.go({len(told) - 1})")
    assert checked >= 8
    page.keyboard.press("ArrowRight")    # past the end: stays on the last event
    assert page.get_attribute("body", "data-log") == str(told[-1])
    # the other controls
    page.click("#first")
    page.click("#next-turn")
    assert rep.log[int(page.get_attribute("body", "data-log")), 0] == L.EV_TURN
    page.click("#next-turn")
    second = int(page.get_attribute("body", "data-log"))
    page.click("#prev")
    assert int(page.get_attribute("body", "data-log")) == told[told.index(second) - 1]
    page.click("#prev-turn")
    assert rep.log[int(page.get_attribute("body", "data-log")), 0] == L.EV_TURN
    page.fill("#slider", str(len(told) // 2))
    assert page.get_attribute("body", "data-log") == str(told[len(told) // 2])
    # the last event's panels: hand sizes and the hands (--reveal), deck sizes, discard piles
    page.click("#last")
    mo = rep.moment(-1)
    for p in range(4):
        hand = page.inner_text(f'.player[data-player="{p}"] dd[data-key="hand"]')
        assert hand.split(":")[0] == str(len(mo.hand[p]))
        assert page.inner_text(f'.player[data-player="{p}"] dd[data-key="deck"]') == str(mo.deck[p])
        disc = page.inner_text(f'.player[data-player="{p}"] dd[data-key="discard"]')
        assert disc.split(":")[0] == str(len(mo.discard[p]))
    assert not errors


def test_a_screenshot_shows_one_token_per_fighter_on_the_board(browser, game, tmp_path):
    from matplotlib.colors import to_rgb
    from matplotlib.image import imread

    from reports.replay_html import page_events
    rep, path = game
    attack = int(np.flatnonzero(rep.log[:, 0] == L.EV_VALUES)[2])
    number = page_events(rep).index(attack) + 1          # the page's number of that event
    page, errors, _ = open_page(browser, path, f"#event={number}")
    assert page.get_attribute("body", "data-log") == str(attack)
    box = page.locator("#board").bounding_box()
    shot = tmp_path / "board.png"
    page.locator("#board").screenshot(path=str(shot))
    img = imread(shot)[:, :, :3]
    # the board's size: the element's, with the SVG's proportions
    data = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
    g = data["board"]
    assert abs(img.shape[1] - box["width"]) < 2 and abs(img.shape[0] - box["height"]) < 2   # (whole pixels)
    assert abs(img.shape[1] / img.shape[0] - g["width"] / g["height"]) < 0.01
    scale = img.shape[1] / g["width"]
    colours = [np.array(to_rgb(p["colour"])) for p in data["players"]]
    # look at a ring inside where a token would be, on every space: a token is a disc of its seat's colour
    found = {}
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    for s, (x, y) in enumerate(g["xy"]):
        d = np.hypot(xx - x * scale, yy - y * scale)
        ring = img[(d > 0.3 * g["r"] * scale) & (d < 0.55 * g["r"] * scale)]
        for p, c in enumerate(colours):
            if (np.abs(ring - c).max(axis=1) < 0.08).mean() > 0.45:
                found[s] = p
    mo = rep.moment(attack)
    want = {int(mo.space[f]): f // L.FIGHTERS_PER_PLAYER for f in range(L.MAX_FIGHTERS) if rep.fighters[f] and mo.space[f] >= 0}
    assert found == want and len(found) >= 8
    # the combat's arrow and its two cards are drawn
    label = page.evaluate(
        "Array.from(document.querySelectorAll('#overlay .combat-label text')).map(t => t.textContent).join(' / ')")
    cb = rep.combat[attack]
    names = rep.match.content.card_names
    assert names[cb.attack_card] in label and f"{cb.attack_value}" in label
    assert page.locator("#overlay line.attack").count() == 1
    assert not errors


def test_the_command_the_page_and_the_address_count_events_alike(browser, tmp_path):
    """One numbering of events: `duel ... --html` says "M events", the page "event N of M",
    and the address #event=N opens that event N (README: `game.html#event=120` opens event
    120); stepping writes the shown number back into the address."""
    import re

    from click.testing import CliRunner

    from reports.replay_html import page_events
    from sim.cli import main
    from sim.play.match import Match
    path = tmp_path / "game.html"
    r = CliRunner().invoke(main, ["duel", "medusa", "king_arthur", "-b", "sarpedon", "--seed", "7", "--html",
                                  str(path)])
    assert r.exit_code == 0, r.output
    told = page_events(record(Match(["medusa", "king_arthur"], "sarpedon"), 7, ("standard", "standard")))
    m = len(told)
    assert re.search(r"; (\d+) events, ", r.output).group(1) == str(m)
    page, errors, _ = open_page(browser, path, "#event=120")
    assert page.inner_text("#position").startswith(f"event 120 of {m} ")
    assert page.get_attribute("body", "data-event") == "120" and page.get_attribute("body", "data-log") == str(told[119])
    assert page.get_attribute("#narration li.current", "data-event") == "120"
    assert page.evaluate("location.hash") == "#event=120"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#event=121" and page.inner_text("#position").startswith("event 121 ")
    page.evaluate("location.hash = '#event=5'")          # an address typed into the open page
    page.wait_for_selector("body[data-event='5']", timeout=60_000)   # a hang guard only
    page.click("#last")
    assert page.inner_text("#position").startswith(f"event {m} of {m} ") and page.evaluate("location.hash") == f"#event={m}"
    assert page.inner_text("#narration li.current").startswith("Game over")
    page.close()
    page, errors2, _ = open_page(browser, path)          # no address: the first event
    assert page.get_attribute("body", "data-event") == "1" and page.get_attribute("body", "data-log") == str(told[0])
    assert not errors and not errors2


@pytest.fixture(scope="module")
def report_pages(tmp_path_factory):
    """The pages of small real runs: a diff of two matrix runs (four heroes on Soho, standard
    and greedy AI), its matrix report, and a Geralt loadouts report (two opponents)."""
    from reports import build_report
    from reports.diff import build_diff
    from reports.loadouts import build_loadouts_report
    from sim.runs.matrix import run_matrix
    from sim.runs.versus import run_loadouts
    base = tmp_path_factory.mktemp("pages")
    heroes = ["alice", "king_arthur", "medusa", "sinbad"]
    for ai in ("standard", "greedy"):
        run_matrix(base / ai, games=10, heroes=heroes, battlefields=["soho"], ai=ai, seed=5, jobs=1)
    run_loadouts(base / "geralt", "geralt_of_rivia", games=10, opponents=["medusa", "sinbad"], battlefields=["soho"],
                 seed=5, jobs=1)
    return {"diff.html": build_diff(base / "standard", base / "greedy", base / "diff").html,
            "report.html": build_report(base / "standard", replays=False).html,
            "loadouts.html": build_loadouts_report(base / "geralt").html}


def test_wide_tables_scroll_in_their_own_box_inside_a_1400_pixel_page(browser, report_pages):
    """Every table of the diff, matrix and loadouts pages sits in a box of its own that
    scrolls sideways, so the page is no wider than a 1,400-pixel window (the loadouts
    page's best-loadout table, with every tied loadout named, is far wider than that)."""
    scrolled = {}
    for name, path in report_pages.items():
        page, errors, requests = open_page_plain(browser, path)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        loose = page.evaluate("document.querySelectorAll('table:not(.table-scroll > table)').length")
        width = page.evaluate("document.documentElement.scrollWidth")
        scrolled[name] = page.evaluate("Array.from(document.querySelectorAll('.table-scroll'))"
                                       ".filter(d => d.scrollWidth > d.clientWidth + 1).length")
        print(f"{name}: page {width} px wide in a 1400 px window; {scrolled[name]} table(s) scroll in their box")
        assert loose == 0 and width <= 1400 and not errors, name
        assert requests == [path.as_uri()], name
        page.close()
    assert scrolled["loadouts.html"] >= 1


def test_a_200_turn_team_game_page_opens_whole_and_fetches_nothing(browser, tmp_path):
    """The longest game a page shows (200 turns, four seats, hands revealed): the page stays
    under 2 MB, its script gets ready with every event stepped to (the last one shows the
    engine's end), and it fetches nothing but itself. How long it takes to get ready is
    printed, not asserted (a slow or busy machine is not a failure)."""
    from reports.replay_html import page_events, write_replay
    m = TeamMatch(["medusa", "dracula"], ["sinbad", "ancient_leshen"], "sarpedon",
                  rules={"exhaustion_damage": 0, "turn_cap": 100})
    # the first seed whose random game goes the distance (which one depends on the engine's games)
    seed = next(s for s in range(200) if m.play(s, modes=("random", "random")).turns == 200)
    rep = record(m, seed, ("random", "random"))
    assert rep.game.turns == 200
    path = write_replay(tmp_path / "long.html", rep, reveal=True)
    size = path.stat().st_size
    assert size < 2_000_000
    told = page_events(rep)
    times = []
    for _ in range(3):
        page, errors, requests = open_page(browser, path)
        times.append(page.evaluate("window.viewerReadyMs"))
        assert page.evaluate("replayViewer.steps") == told
        page.click("#last")
        assert page.get_attribute("body", "data-log") == str(rep.n_events - 1) == str(told[-1])
        assert page.inner_text("#position").startswith(f"event {len(told)} of {len(told)} \u00b7 turn 200 of 200")
        assert page.inner_text("#narration li.current") == rep.lines[-1].strip()
        assert requests == [path.as_uri()] and not errors    # the page itself, nothing else
        page.close()
    print(f"200-turn team game page ({size / 1e6:.2f} MB, {rep.n_events} events, {len(told)} on the page): "
          f"ready {min(times):.0f} ms after navigation (runs: {', '.join(f'{t:.0f}' for t in times)})")
