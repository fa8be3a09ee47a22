"""The Python examples of the README and the docs run as they are written: each ```python block of the
pages below, in a fresh interpreter, from the repository's root."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/bots.md")
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def python_blocks(page: str) -> list[str]:
    """The ```python blocks of a page, in order."""
    return BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))


EXAMPLES = [(page, i, code) for page in PAGES for i, code in enumerate(python_blocks(page))]


def test_every_page_has_an_example() -> None:
    assert {page for page, _, _ in EXAMPLES} == set(PAGES)


@pytest.mark.parametrize(("page", "index", "code"), EXAMPLES, ids=[f"{p}-{i}" for p, i, _ in EXAMPLES])
def test_the_example_runs(page: str, index: int, code: str) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, f"{page}, python block {index + 1}:\n{done.stderr}"


LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown page's headings, as GitHub makes them."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def test_every_link_between_the_pages_leads_somewhere() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "research").glob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            if not path.exists() or (anchor and path.suffix == ".md" and anchor not in anchors(path)):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)
