"""docs/rules.md is the repository's own record of the rules cases and decisions: every case
id (R01, R02, ...) cited in the code, tests, reports and READMEs has an entry there, every
test it names exists, and no file points to rules material kept outside the repository."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
# a case id, or a range of them ("R42-R46": its two ends must have entries); "test_R07_..."
# and "R28a" cite R07 and R28
CITE = re.compile(r"(?<![A-Za-z0-9])R(\d\d)(?:-R?(\d\d))?(?!\d)")
ENTRY = re.compile(r"^\*\*R(\d\d):", re.M)
TEST_REF = re.compile(r"`(test_[a-z0-9_]+\.py)::(test_[A-Za-z0-9_]+)`")
# material that lives beside the repository, not in it (rules, rulings, reference card data)
OUTSIDE = ("shared/" + "rules", "shared/" + "reference", "cases" + ".md")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".json", ".ipynb", ".cfg", ".ini", ".yml", ".yaml"}


def _files():
    """The repository's files (tracked ones in a git checkout, else every file below it)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        files = [ROOT / f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = [p for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts and ".venv" not in p.parts]
    # this test spells the ids and names it looks for
    return [f for f in files if f.is_file() and f.resolve() != Path(__file__).resolve()]


def _text(path):
    if path.suffix not in TEXT_SUFFIXES:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def _cited():
    """{case id: [file:line, ...]} of the ids cited in sim/, reports/, tests/, heroes/ and README.md."""
    cited = {}
    for f in _files():
        rel = f.relative_to(ROOT)
        if not (rel.parts[0] in ("sim", "reports", "tests", "heroes") or rel.as_posix() == "README.md"):
            continue
        text = _text(f)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            for m in CITE.finditer(line):
                for case in {m.group(1), m.group(2)} - {None}:
                    cited.setdefault(f"R{case}", []).append(f"{rel}:{n}")
    return cited


def test_every_cited_case_id_has_an_entry_in_docs_rules_md():
    entries = {f"R{n}" for n in ENTRY.findall(DOC.read_text(encoding="utf-8"))}
    cited = _cited()
    assert len(cited) > 40          # the scan found the citations (R01 ... R65)
    missing = {case: where[:3] for case, where in sorted(cited.items()) if case not in entries}
    assert not missing, f"case ids cited but missing from docs/rules.md: {missing}"


def test_the_tests_named_in_docs_rules_md_exist():
    refs = TEST_REF.findall(DOC.read_text(encoding="utf-8"))
    assert len(refs) > 100
    missing = []
    for fname, test in refs:
        path = ROOT / "tests" / fname
        if not path.is_file() or not re.search(rf"^def {test}\(", path.read_text(encoding="utf-8"), re.M):
            missing.append(f"{fname}::{test}")
    assert not missing, f"docs/rules.md names tests that do not exist: {missing}"


def test_no_file_points_to_rules_material_outside_the_repository():
    files = _files()
    if not any(f.name == "README.md" for f in files):
        pytest.skip("not a checkout of the repository")
    bad = []
    for f in files:
        text = _text(f)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if any(s in line for s in OUTSIDE):
                bad.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not bad, "point these inside the repository (rules: docs/rules.md):\n" + "\n".join(bad)
