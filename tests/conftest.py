"""The whole suite's pytest settings: the `full` marker behind `scripts/test --quick`, and a summary of the
skipped tests grouped by reason.

`scripts/test --quick` runs `-m "not full"`: the engine, rules, records, bots and unit tests. `full` marks
the folders of the browser game, the server, the learning environments and the simulations (`FULL_FOLDERS`)
and a few files in the other folders (`FULL_FILES`: the compiled build, the scripts, tournaments, hints).
"""

from __future__ import annotations

from collections import defaultdict
from fnmatch import fnmatch
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
FULL_FOLDERS = ("web", "server", "envs", "sim")  # under tests/: left out of `scripts/test --quick`
FULL_FILES = (  # files in any folder that --quick leaves out (patterns): the slowest, and those of other layers
    "test_compiled.py",  # builds the compiled engine (a minute or more)
    "test_*_script.py",  # the measurement scripts of scripts/
    "test_tournament.py",  # tournaments in worker processes, interrupted and continued
    "test_hint.py",  # the browser's hints: the expert search on whole positions
)


def pytest_configure(config: pytest.Config) -> None:
    """Register the `full` marker."""
    config.addinivalue_line("markers", "full: left out of `scripts/test --quick` (server, web, envs, sim, slow)")


def is_full(path: Path) -> bool:
    """Whether the test file at `path` belongs to the full suite only (not `--quick`)."""
    try:
        parts = path.resolve().relative_to(TESTS).parts
    except ValueError:
        return False
    if len(parts) > 1 and parts[0] in FULL_FOLDERS:
        return True
    return any(fnmatch(parts[-1], pattern) for pattern in FULL_FILES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of `FULL_FOLDERS` and `FULL_FILES` as `full`."""
    for item in items:
        if is_full(item.path):
            item.add_marker(pytest.mark.full)


def skip_groups(reports: list[pytest.TestReport | pytest.CollectReport]) -> dict[str, list[str]]:
    """The skipped tests grouped by reason: reason -> the test ids (or files, for a file skipped whole)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for report in reports:
        longrepr = report.longrepr
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            where, reason = str(longrepr[0]), str(longrepr[2])
        else:
            where, reason = report.nodeid, str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        groups[reason].append(report.nodeid or where)
    return dict(groups)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """After the run: each group of skipped tests, its reason, how many and in which files."""
    reports = [r for r in terminalreporter.stats.get("skipped", [])
               if isinstance(r, pytest.TestReport | pytest.CollectReport)]
    if not reports:
        return
    groups = skip_groups(reports)
    terminalreporter.section(f"skipped: {len(reports)} test(s) or file(s), for {len(groups)} reason(s)")
    for reason, ids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        files = sorted({i.split("::")[0] for i in ids})
        shown = ", ".join(files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4 else "")
        terminalreporter.write_line(f"{len(ids):>4}  {reason}  ({shown})")
