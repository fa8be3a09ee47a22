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


CODE = re.compile(r"`([^`\s]+)`")
REPO_PATH = re.compile(r"(?:src|tests|scripts|research|examples)/[\w./-]+")
DOTTED = re.compile(r"ttr(?:\.\w+)+")


def _placeholder(path: str) -> bool:
    """Whether a path stands for many (`profiles/MAP-SEATS.json`): a part of it in capitals, not a file's."""
    return any(part.split(".")[0].replace("-", "").isupper() and part.split(".")[0] not in ("README", "LICENSE",
               "CHANGELOG") for part in path.split("/"))


def stale_names(page: Path) -> list[str]:
    """The repository paths and `ttr.module.name` references in a page's code spans that name nothing:
    a path that does not exist, or a name that its module's source never mentions (a module missing from
    a ttr package counts as a name its `__init__.py` never mentions)."""
    out = []
    for span in CODE.findall(page.read_text(encoding="utf-8")):
        span = span.split("(")[0].rstrip(".,:;")
        if REPO_PATH.fullmatch(span) and not any(c in span for c in "*<>{}") and not _placeholder(span):
            if not (ROOT / span.rstrip("/")).exists():
                out.append(span)
        elif DOTTED.fullmatch(span):
            parts = span.split(".")
            found = next((i for i in range(len(parts), 1, -1)
                          if (ROOT / "src" / Path(*parts[:i])).with_suffix(".py").is_file()
                          or (ROOT / "src" / Path(*parts[:i]) / "__init__.py").is_file()), None)
            if found is None:
                continue  # `ttr.seats` and the like: a key of the page's storage, not a module
            module = ROOT / "src" / Path(*parts[:found])
            source = module.with_suffix(".py") if module.with_suffix(".py").is_file() else module / "__init__.py"
            rest = parts[found:]
            if rest and not re.search(rf"\b{re.escape(rest[0])}\b", source.read_text(encoding="utf-8")):
                out.append(span)
    return out


def test_the_pages_name_files_and_code_that_exist() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    stale = [f"{page.relative_to(ROOT)}: {name}" for page in pages for name in stale_names(page)]
    assert not stale, "\n".join(stale)


def test_the_scan_finds_a_stale_name(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See `tests/engine/test_golden.py`, `tests/test_golden.py`, `research/README.md`, "
                    "`src/ttr/bots/data/profiles/MAP-SEATS.json`, `ttr.engine.game.Game`, "
                    "`ttr.engine.game.NoSuchThing`, `ttr.no_such_module.x` and `ttr.seats`.\n", encoding="utf-8")
    assert stale_names(page) == ["tests/test_golden.py", "ttr.engine.game.NoSuchThing"]
