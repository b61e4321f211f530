"""The repository stands alone: no code, test, doc, tool or benchmark cites a file outside it.

The rules, the batch formats and the architecture are the project's own pages (docs/rules.md
§1–§13, docs/calculator.md *Batches*, docs/hand.md, docs/dev/architecture.md); a citation of the
working notes they were distilled from, which are not in the repository, cannot be followed.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("src", "tests", "docs", "tools", "bench", "README.md", "pyproject.toml", "Makefile")
SKIP_DIRS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis", "node_modules"}
SKIP_SUFFIXES = {
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".webp",
    ".ico",
    ".woff",
    ".woff2",
    ".gz",
    ".so",
    ".pyc",
    ".sqlite",
    ".db",
    ".pt",
    ".npz",
    ".zst",
}
OUTSIDE = re.compile(
    r"\b(?:RULES|BATCH_FORMATS|DESIGN|OWNERSHIP|GUIDE)\.md\b|\bshared/(?:seeds|RULES)"
)
"""The working notes outside the repository (the rules, batch-format and design notes, the team's
guide and ownership notes), and any path into the reading material's ``shared`` folder."""


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        top = ROOT / name
        if top.is_file():
            out.append(top)
            continue
        for path in top.rglob("*"):
            parts = path.relative_to(ROOT).parts
            if path.is_file() and path.suffix not in SKIP_SUFFIXES and not SKIP_DIRS & set(parts):
                out.append(path)
    return out


def test_pattern_catches_a_citation() -> None:
    """The check itself can fail: each form it looks for is caught, a docs/ citation is not."""
    for bad in (
        "RULES" + ".md §7",
        "(BATCH_FORMATS" + ".md)",
        "DESIGN" + ".md practice 9",
        "`../shared" + "/seeds`",
        "the project's `shared" + "/seeds`",
        "OWNERSHIP" + ".md's contract",
    ):
        assert OUTSIDE.search(bad), bad
    assert not OUTSIDE.search("docs/rules.md §7, docs/dev/architecture.md practice 9")


def test_no_citation_leaves_the_repository() -> None:
    """Every reference resolves inside the repository (issue 32 item 7)."""
    files = _files()
    assert len(files) > 300, len(files)
    found: list[str] = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert not found, "references outside the repository:\n" + "\n".join(found)
