"""The package layout is the architecture: each layer imports only itself and the layers below.

Layers, lowest first (README, "Where things live"):

    data     heroes/ (hero files and their folder), sim/battlefields/ (battlefield files)
    engine   sim/engine/    numba kernels: state, rules, effects, AI
    content  sim/content/   load and validate files, compile them to the engine's tables
    play     sim/play/      one game from Python: match, team game, scenario, narration
    runs     sim/runs/      many games: plan, workers, store, drive; matrix, versus, teams, arena, bench
    reports  reports/       tables, statistics, plots, HTML
    cli      sim/cli/       the ``unmatched-sim`` command

Every import is read from the source (function-level imports included), so a lower
layer that reaches up fails here, as does any import cycle between modules.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = [("data", ("heroes", "sim.battlefields")), ("engine", ("sim.engine",)), ("content", ("sim.content",)),
          ("play", ("sim.play",)), ("runs", ("sim.runs",)), ("reports", ("reports",)), ("cli", ("sim.cli",))]
PACKAGES = ("sim", "heroes", "reports")


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for p in (ROOT / pkg).rglob("*.py"):
            parts = list(p.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = p
    return out


MODULES = _modules()


def _layer(module: str) -> int | None:
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    return None


def _imports(module: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported project module, line, at module level) for every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = {id(n) for n in tree.body}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import mod` imports the module pkg.mod when it exists
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for n in names:
            while n and n not in MODULES:
                n = n.rpartition(".")[0]
            if n and n != module:
                out.append((n, node.lineno, id(node) in top))
    return out


def test_every_project_module_belongs_to_a_layer():
    loose = sorted(m for m in MODULES if _layer(m) is None and m != "sim")
    assert not loose, f"modules outside every layer: {loose}; put them in a layer's folder or add the layer here"


def test_no_module_imports_a_higher_layer():
    bad = []
    for m, p in MODULES.items():
        lm = _layer(m)
        if lm is None:
            continue
        for target, line, _ in _imports(m, p):
            lt = _layer(target)
            if lt is not None and lt > lm:
                bad.append(f"{p.relative_to(ROOT)}:{line} ({LAYERS[lm][0]}) imports {target} ({LAYERS[lt][0]})")
    assert not bad, "imports from a higher layer:\n" + "\n".join(bad)


def test_no_import_cycle():
    graph = {m: sorted({t for t, _, _ in _imports(m, p)}) for m, p in MODULES.items()}
    # a package imports its own submodules (its face); that is not a cycle of the code
    graph = {m: [t for t in ts if not t.startswith(m + ".")] for m, ts in graph.items()}
    state, stack, cycles = {}, [], []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in graph.get(m, ()):
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_layer_check_sees_an_upward_import(tmp_path):
    """The checker itself: a made-up engine module importing the runs layer is caught."""
    p = tmp_path / "bad.py"
    p.write_text("from sim.runs.store import read_games\n")
    targets = [t for t, _, _ in _imports("sim.engine.bad", p)]
    assert targets == ["sim.runs.store"] and _layer("sim.engine.bad") < _layer(targets[0])


# One numba function (the replay checker's event loop: one branch per event kind) that a split
# would have to prove equal over the slow run; the only module allowed above the limit.
LONG_MODULES = {"tests/helpers/replay/events.py"}


def test_no_module_above_700_lines():
    import subprocess
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    long = {f: n for f in files if f not in LONG_MODULES and (ROOT / f).exists()
            and (n := len((ROOT / f).read_text(encoding="utf-8").splitlines())) > 700}
    assert not long, f"modules above 700 lines (split them along their sections): {long}"
