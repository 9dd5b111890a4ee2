"""Processes as /proc shows them (Linux), for the tests that stop a command and its workers."""
from __future__ import annotations

from pathlib import Path

PROC = Path("/proc")


def children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (read from /proc/<id>/stat; a process that ends
    while it is read is skipped)."""
    out = []
    for p in PROC.iterdir():
        if p.name.isdigit():
            try:
                stat = (p / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(p.name))
    return out
