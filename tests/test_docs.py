"""The documentation's screenshots come from the browser tests, so they never go stale.

Every picture under ``docs/screenshots/`` that the README or a page of ``docs/`` shows must be
written there by the browser test that takes it (``tests/e2e/conftest.py``'s ``for_docs``, called
with the picture's name as a literal), and exist. A picture copied in by hand, or one whose test
was removed, fails here. (``scripts/docs`` checks the rest: every link and page, strictly.)
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOWN = re.compile(r"!\[[^\]]*\]\((?:\.\./)*(?:docs/)?screenshots/([\w.-]+\.png)\)")
WRITTEN = re.compile(r"for_docs\([^()]*(?:\([^()]*\))?[^()]*,\s*\"([\w.-]+\.png)\"\s*\)", re.S)


def shown() -> dict[str, list[str]]:
    """Picture name → the pages that show it."""
    pages: dict[str, list[str]] = {}
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for name in SHOWN.findall(doc.read_text(encoding="utf-8")):
            pages.setdefault(name, []).append(str(doc.relative_to(ROOT)))
    return pages


def written() -> set[str]:
    return {
        name
        for test in sorted((ROOT / "tests" / "e2e").glob("test_*.py"))
        for name in WRITTEN.findall(test.read_text(encoding="utf-8"))
    }


def test_every_picture_the_docs_show_is_written_by_a_browser_test() -> None:
    assert {"game-in-progress.png", "event-bracket.png", "my-page.png"} <= set(shown())
    missing = {name: pages for name, pages in shown().items() if name not in written()}
    assert not missing, f"no browser test writes these pictures with for_docs(): {missing}"
    absent = [name for name in shown() if not (ROOT / "docs" / "screenshots" / name).is_file()]
    assert not absent, f"run the browser tests to write {absent}"
