"""`ttr report` and `ttr.sim.stats`: one self-contained page, numbers that match the rows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ttr.cli.main import main
from ttr.sim import stats
from ttr.sim.ratings import wilson
from ttr.sim.rows import read_table
from ttr.sim.simulate import simulate, table_path
from ttr.sim.tournament import TournamentConfig

pytest.importorskip("matplotlib", reason="the report needs matplotlib (ttr[sim])")


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("sims")
    simulate(TournamentConfig("europe", 3, ("greedy", "random"), 4, 1, 1), base / "a")
    simulate(TournamentConfig("europe", 3, ("greedy",), 3, 9, 1), base / "b", "csv")
    return base / "a", base / "b"


def _row(game: int, seat: int, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"game": game, "seed": game, "players": 2, "seat": seat, "bot": "x", "score": 0,
                           "route_points": 0, "ticket_points": 0, "station_points": 0, "express_bonus": 0,
                           "attractions": 0, "longest_path": 0, "tickets_completed": 0, "tickets_failed": 0,
                           "tickets_completed_names": "", "tickets_failed_names": "", "routes_claimed": 0,
                           "trains_used": 0, "route_ids": "", "contested_routes": "", "stations_built": 0,
                           "borrowed_routes": "", "turns": 10, "actions": 20, "winner": False, "win_share": 0.0}
    row.update(kw)
    return row


def test_stats_from_known_rows() -> None:
    rows = [
        _row(0, 0, bot="a", score=10, winner=True, win_share=1.0, tickets_completed_names="P-Q;R-S",
             tickets_completed=2, route_ids="1 2", contested_routes="2", express_bonus=10, stations_built=1),
        _row(0, 1, bot="b", score=5, tickets_failed_names="P-Q", tickets_failed=1, route_ids="3"),
        _row(1, 0, bot="b", score=7, winner=True, win_share=0.5, route_ids="1", turns=12),
        _row(1, 1, bot="a", score=7, winner=True, win_share=0.5, tickets_failed_names="R-S", tickets_failed=1),
    ]
    seats = stats.per_seat(rows)
    assert [s["wins"].hits for s in seats] == [1.5, 0.5] and [s["wins"].n for s in seats] == [2, 2]
    assert seats[0]["wins"].ci == wilson(1.5, 2)
    bots = {b["bot"]: b for b in stats.per_bot(rows)}
    assert bots["a"]["wins"].rate == 0.75 and bots["b"]["wins"].rate == 0.25
    assert bots["a"]["ticket_completion"].hits == 2 and bots["a"]["ticket_completion"].n == 3
    assert bots["a"]["express"].rate == 0.5 and bots["a"]["stations_built"] == 0.5
    tickets = {t["ticket"]: t for t in stats.tickets(rows, ["P-Q", "R-S", "T-U"])}
    assert (tickets["P-Q"]["held"], tickets["P-Q"]["completion"].hits) == (2, 1)
    assert tickets["T-U"]["held"] == 0
    claimed, contested = stats.routes(rows, 5)
    assert claimed == [0.0, 1.0, 0.5, 0.5, 0.0] and contested == [0.0, 0.0, 0.5, 0.0, 0.0]
    assert stats.lengths(rows) == [10, 12]


def test_one_folder_gives_a_self_contained_page(folders: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(folders[0]), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    for network in ("<script", "<link", "src=", "url(http", "@import"):
        assert network not in page
    assert set(re.findall(r"https?://[^\"' <]*", page)) <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert main(["report", str(folders[0]), "-o", str(tmp_path / "again.html")]) == 0
    assert (tmp_path / "again.html").read_text(encoding="utf-8") == page  # no dates: the same page again
    assert page.count("<svg") >= 9  # two board heatmaps with legends, and the plots
    for title in ("Score distributions", "First-player advantage", "Route claims", "Contested routes",
                  "Ticket completion", "Game length", "Longest path and stations"):
        assert f"<h2>{title}</h2>" in page
    rows = read_table(table_path(folders[0], "parquet"))
    claimed, contested = stats.routes(rows, 101)
    # every route's tooltip carries its rates, and the route claimed most is drawn darkest
    for r in (0, 50, 100):
        assert re.search(rf'id="route-{r}" .*?\n<title>[^<]*: claimed in {claimed[r]:.0%} of games, contested in '
                         rf'{contested[r]:.0%}</title>', page)
    top = max(range(101), key=lambda r: claimed[r])
    fill = re.search(rf'id="route-{top}" [^>]*data-owner="(#[0-9a-f]{{6}})"', page)
    assert fill is not None and fill.group(1) == "#800026"  # the top of the YlOrRd colour map


def test_two_folders_side_by_side(folders: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "both.html"
    assert main(["report", str(folders[0]), str(folders[1]), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "A: a: europe, 3 players, 4 games" in page and "B: b: europe, 3 players, 3 games" in page
    assert page.count("--n:2") == 8  # every section in two columns
    assert "<h2>Differences (B - A)</h2>" in page and "Welch" in page  # other seeds and bots: not paired


def test_the_sections_follow_the_maps(folders: tuple[Path, Path], tmp_path: Path) -> None:
    """New York has tourist attractions and neither stations nor a longest-path bonus: its report has an
    attractions section and no longest-path one; side by side with Europe, both sections, each saying
    where its map has none."""
    ny = tmp_path / "ny"
    simulate(TournamentConfig("new_york", 2, ("greedy", "route_focus"), 6, 3, 1), ny)
    rows = read_table(table_path(ny, "parquet"))
    bots = {b["bot"]: b for b in stats.per_bot(rows)}
    for name, b in bots.items():
        mine = [r["attractions"] for r in rows if r["bot"] == name]
        assert b["attractions"] == sum(mine) / len(mine) and sum(b["attractions_hist"].values()) == len(mine)
    out = tmp_path / "ny.html"
    assert main(["report", str(ny), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>Tourist attractions</h2>" in page and "Longest path and stations" not in page
    assert "tourist-attraction points per seat" in page
    assert main(["report", str(folders[0]), str(ny), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>Longest path and stations</h2>" in page and "<h2>Tourist attractions</h2>" in page
    assert page.count("This map has none.") == 2


def test_bad_folders_are_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         folders: tuple[Path, Path]) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "nothing"), "-o", str(out)]) == 1
    assert "no simulation.json" in capsys.readouterr().err
    assert main(["report", str(folders[0]), str(folders[1]), str(folders[0]), "-o", str(out)]) == 1
    assert "two to compare" in capsys.readouterr().err
    assert not out.exists()


def test_markdown_table(folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(folders[0]), str(folders[1]), "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| map | players | games | bot |") and len(lines) == 2 + 2 + 1
    rows = read_table(table_path(folders[0], "parquet"))
    greedy = [r for r in rows if r["bot"] == "greedy"]
    wins = sum(r["win_share"] for r in greedy)
    lo, hi = wilson(wins, len(greedy))
    assert f"| europe | 3 | 4 | greedy | {len(greedy)} | {wins / len(greedy):.1%} ({lo:.1%}-{hi:.1%}) |" in lines[2]


def test_error_bars_of_certain_rates_are_not_negative() -> None:
    from ttr.sim.report import _errors

    below, above = _errors([stats.Rate(5, 5), stats.Rate(0, 7), stats.Rate(1, 3), stats.Rate(0, 0)])
    assert min(below + above) >= 0.0
    assert above[0] == 0.0 and below[1] == 0.0 and below[2] > 0 and above[2] > 0
