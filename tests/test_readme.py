"""The README's own examples work as written, so the README cannot rot.

- The homebrew hero file (the ```toml block after ``<!-- homebrew-example: PATH``) validates
  with ``unmatched-sim validate`` and plays a duel with ``--homebrew``, as the README says.
- Each variant file (``<!-- variant-example: NAME -->``) loads against the installed heroes.
- Every ``unmatched-sim ...`` command line in the README (shell blocks and the commands
  table's examples) parses: the command exists and every option and value is accepted (the commands
  themselves are not run here; the cheap ones are).
- The heatmap picture the README shows exists and is small.
- Each output excerpt (the ``` block after ``<!-- output-of: COMMAND -->``) is what COMMAND
  prints after the commands before it in the README's shell block, played for real.
"""
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(marker: str) -> str:
    """The body of the first ``` block after ``marker``."""
    i = README.index(marker)
    m = re.compile(r"```[a-z]*\n(.*?)```", re.S).search(README, i)
    assert m, f"no code block after {marker!r}"
    return m.group(1)


def _homebrew():
    m = re.search(r"<!-- homebrew-example: (\S+)", README)
    assert m, "README has no homebrew example"
    return Path(m.group(1)), _block_after(m.group(0))


def _command_lines() -> list[str]:
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("unmatched-sim "):
                lines.append(line)
    for row in re.findall(r"^\| `[a-z]+` \|.*$", README, re.M):          # the commands table's examples
        lines += re.findall(r"`(unmatched-sim [^`]+)`", row)
    out = []
    for line in lines:
        line = line.split(" #")[0].strip()
        if "..." in line or "COMMAND" in line:      # a pattern, not a command
            continue
        out.append(line)
    return out


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_homebrew_hero_validates_and_plays(tmp_path, monkeypatch):
    rel, text = _homebrew()
    assert rel.parts[0] == "my_heroes" and rel.suffix == ".toml"
    key = rel.stem
    monkeypatch.chdir(tmp_path)
    rel.parent.mkdir(parents=True)
    rel.write_text(text, encoding="utf-8")
    # the README's own commands, as written
    assert f"unmatched-sim validate {rel}" in README
    assert f"unmatched-sim --homebrew {rel.parent} duel {key} medusa --seed 3" in README
    r = run("validate", rel)
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"ok  {rel}: hero ") and "30 cards" in r.output
    assert "warning" not in r.output
    assert f"`ok  {rel}: hero The Lamplighter, 30 cards`" in README      # what the README says it prints
    r = run("--homebrew", rel.parent, "duel", key, "medusa", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "Game over" in r.output and "The Lamplighter" in r.output


@pytest.mark.nojit
def test_variant_examples_load(tmp_path):
    from sim.content.variants import load_variant
    names = re.findall(r"<!-- variant-example: (\S+) -->", README)
    assert "arthur_plus4.toml" in names and len(names) >= 2
    for name in names:
        p = tmp_path / name
        p.write_text(_block_after(f"<!-- variant-example: {name} -->"), encoding="utf-8")
        v = load_variant(p)
        assert v.changes and not v.is_noop, name
    assert "health = 22" in _block_after("<!-- variant-example: arthur_plus4.toml -->")


def test_every_command_line_in_the_readme_parses(monkeypatch):
    lines = _command_lines()
    used = {shlex.split(line)[1] for line in lines}
    # the commands table names every command
    assert set(main.commands) <= {w for line in lines for w in shlex.split(line)}, sorted(set(main.commands) - used)
    for cmd in main.commands.values():
        monkeypatch.setattr(cmd, "callback", lambda **kw: None)
    for line in lines:
        r = CliRunner().invoke(main, shlex.split(line)[1:])
        assert r.exit_code == 0, f"{line}\n{r.output}"


def test_readme_runs_do_not_share_a_folder_with_other_settings():
    """Following the README top to bottom never meets "holds a run with different settings"."""
    seen = {}
    for line in _command_lines():
        args = shlex.split(line)[1:]
        while args and args[0] == "--homebrew":
            args = args[2:]
        if args[0] not in ("matrix", "loadouts", "compare"):
            continue
        out, rest, i = None, [], 1
        while i < len(args):
            a = args[i]
            if a in ("--out", "-o"):
                out, i = args[i + 1], i + 2
            elif a in ("--jobs", "-j", "--backend", "--scheduler"):
                i += 2
            else:
                rest.append(a)
                i += 1
        if out is None:      # the command's default folder (sim/cli/)
            if args[0] == "matrix":
                out = "runs/matrix"
            elif args[0] == "loadouts":
                out = f"runs/loadouts_{rest[0].split('@')[0]}"
            else:
                opt = dict(zip(rest[::1], rest[1::1]))
                out = f"runs/compare_{Path(opt['--variant']).stem}_{opt['--hero'].split('@')[0]}"
        key = (args[0], tuple(rest))
        assert seen.setdefault(out, key) == key, f"{out}: used by {seen[out]} and {key}"


def _excerpts() -> list[tuple[str, list[str], list[str]]]:
    """Each output excerpt: (its command, the commands of the shell block before it that come
    before that command, the excerpt's lines)."""
    out = []
    for m in re.finditer(r"<!-- output-of: (.+?) -->", README):
        cmd = m.group(1)
        blocks = re.findall(r"```sh\n(.*?)```", README[:m.start()], re.S)
        lines = [line.split(" #")[0].strip() for line in blocks[-1].splitlines()]
        lines = [line for line in lines if line.startswith("unmatched-sim ")]
        assert cmd in lines, f"{cmd!r} is not in the shell block before its excerpt"
        out.append((cmd, lines[:lines.index(cmd)], _block_after(m.group(0)).splitlines()))
    return out


def _matches(excerpt: str, line: str) -> bool:
    """Whether an excerpt line stands for an output line: equal, where ``(...)`` in the
    excerpt stands for any text in parentheses."""
    pattern = r"\(.*?\)".join(re.escape(part) for part in excerpt.split("(...)"))
    return re.fullmatch(pattern, line) is not None


def test_output_excerpts_are_what_the_commands_print(tmp_path, monkeypatch):
    """The README's output excerpts come from real runs: the commands before each excerpt
    are played as written (with --jobs 1 --quiet --no-report, which change no game), then
    its command; every excerpt line must be a line of that output, in order."""
    excerpts = _excerpts()
    assert [c for c, _, _ in excerpts] == ["unmatched-sim diff runs/four_standard runs/four_greedy"]
    monkeypatch.chdir(tmp_path)
    for cmd, before, lines in excerpts:
        for line in before:
            args = shlex.split(line)[1:]
            if args[0] in ("matrix", "loadouts", "compare"):
                args += ["--jobs", "1", "--quiet", "--no-report"]
            r = run(*args)
            assert r.exit_code == 0, f"{line}\n{r.output}"
        r = run(*shlex.split(cmd)[1:])
        assert r.exit_code == 0, f"{cmd}\n{r.output}"
        printed = r.output.splitlines()
        at = 0
        for want in lines:
            found = next((i for i in range(at, len(printed)) if _matches(want, printed[i])), None)
            assert found is not None, f"README excerpt of `{cmd}`: {want!r} is not printed (in this order); " \
                                      f"the command printed:\n{r.output}"
            at = found + 1


def test_cheap_readme_commands_run():
    for args in (["heroes"], ["battlefields"], ["profiles", "standard"], ["validate", ROOT / "heroes" / "medusa.toml"]):
        r = run(*args)
        assert r.exit_code == 0, r.output


def test_readme_picture_exists_and_is_small():
    pics = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", README)
    assert pics
    for p in pics:
        f = ROOT / p
        assert f.exists(), p
        assert f.stat().st_size < 200_000, p


def test_the_strength_figures_are_defined_as_the_reports_define_them():
    """The README defines a hero's score and rating in the words the CLI summary, the HTML
    report and the plot use (reports.format), and names the strength table's columns."""
    from reports.format import RATING_DEFINITION, SCORE_DEFINITION
    from reports.tables import STRENGTH_COLUMNS
    assert SCORE_DEFINITION in README and RATING_DEFINITION in README
    for col in ("score", "lo", "hi", "rating", "rating_lo", "rating_hi"):
        assert col in STRENGTH_COLUMNS
    assert "field_score" not in README and "bt_rating" not in README and "log-odds" not in README


def test_the_version_the_command_prints_is_pyprojects_and_the_readmes_release():
    import tomllib
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    out = CliRunner().invoke(main, ["--version"], prog_name="unmatched-sim")
    assert out.exit_code == 0 and out.stdout == f"unmatched-sim, version {version}\n"
    release = ".".join(version.split(".")[:2])
    assert f"This README describes\nrelease {release} (`unmatched-sim --version` prints `unmatched-sim, version " \
           f"{version}`)" in README
    # every "release X.Y" the README speaks of is this one or an earlier one
    assert max(tuple(map(int, r.split("."))) for r in re.findall(r"release (\d+\.\d+)", README)) \
        == tuple(map(int, release.split(".")))
