"""`ttr map analyze`: the static analysis of a map, on a tiny board with known answers and Europe's golden file."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from ttr.cli.main import main
from ttr.maps import parse_map
from ttr.maps.analyze import analyze_map, fit_line, format_analysis, suggested_points

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "analysis"


def tiny_data() -> dict[str, Any]:
    """A square A-B-C-D-A with a diagonal A-C, and a tail D-E (the only bridge).

    Lengths: A-B 1, B-C 1, C-D 2, D-A 2, A-C 3 (a double route), D-E 4. Shortest paths: A-C 2 (via B),
    B-D 3 (via A), A-E 6, B-E 7."""
    base = json.loads(resources.files("ttr.maps").joinpath("new_york.json").read_text(encoding="utf-8"))
    data = copy.deepcopy(base)
    data["name"] = "tiny"
    data.pop("board", None)
    data["tourist_attractions"] = []
    data["spelling_variants"] = {}
    data["cities"] = [{"name": n, "lat": 40 + i * 0.01, "lon": -74 + i * 0.01} for i, n in enumerate("ABCDE")]

    def route(a: str, b: str, length: int, color: str = "blue") -> dict[str, Any]:
        return {"a": a, "b": b, "length": length, "color": color, "tunnel": False, "ferry_locomotives": 0}

    data["routes"] = [route("A", "B", 1), route("B", "C", 1, "green"), route("C", "D", 2, "gray"),
                      route("D", "A", 2, "gray"), route("A", "C", 3, "red"), route("A", "C", 3, "black"),
                      route("D", "E", 4, "gray")]
    data["rules"]["route_points"] = {"1": 1, "2": 2, "3": 4, "4": 7}
    data["tickets"] = [{"a": a, "b": b, "points": p, "long": False}
                       for a, b, p in (("A", "C", 2), ("B", "D", 3), ("A", "E", 6), ("B", "E", 9))]
    data["rules"]["players_max"] = 2
    data["rules"]["setup_tickets"] = {"long": 0, "regular": 2, "keep_min": 1, "returned": "bottom"}
    data["rules"]["draw_tickets"] = {"draw": 2, "keep_min": 1}
    return data


@pytest.fixture(scope="module")
def tiny() -> dict[str, Any]:
    return analyze_map(parse_map(tiny_data(), where="tiny"))


def test_tickets_shortest_paths_and_fit(tiny: dict[str, Any]) -> None:
    rows = {r["ticket"]: r for r in tiny["tickets"]}
    assert {name: r["shortest"] for name, r in rows.items()} == {"A-C": 2, "B-D": 3, "A-E": 6, "B-E": 7}
    # least squares through (2,2) (3,3) (6,6) (7,9): slope Sxy/Sxx = 22/17, through the means (4.5, 5)
    slope = 22 / 17
    intercept = 5 - slope * 4.5
    assert tiny["fit"]["slope"] == pytest.approx(slope, abs=1e-4)
    assert tiny["fit"]["intercept"] == pytest.approx(intercept, abs=1e-4)
    assert rows["B-E"]["residual"] == pytest.approx(9 - (slope * 7 + intercept), abs=0.01)
    assert sum(r["residual"] for r in rows.values()) == pytest.approx(0, abs=0.02)


def test_bridge_and_bottlenecks(tiny: dict[str, Any]) -> None:
    assert tiny["bridges"] == ["D-E"]
    by_name = {r["connection"]: r for r in tiny["connections"]}
    assert set(by_name) == {"A-B", "B-C", "C-D", "D-A", "A-C", "D-E"}  # a double route is one connection
    assert by_name["A-C"]["tracks"] == ["A-C/red", "A-C/black"]
    tail = by_name["D-E"]
    assert (tail["bridge"], tail["tickets_cut_off"], tail["tickets_on_shortest_path"]) == (True, 2, 2)
    assert tiny["connections"][0]["connection"] == "D-E"  # cutting tickets off ranks first
    # losing A-B: A-C becomes 3 (direct), B-D 1+2=3 via C, A-E stays 6, B-E 7 via C-D: one ticket lengthened by 1
    ab = by_name["A-B"]
    assert (ab["tickets_lengthened"], ab["extra_trains"], ab["tickets_cut_off"]) == (1, 1, 0)
    # A-B lies on the shortest paths of A-C, B-D and B-E (B-A-D-E, 1+2+4 = 7)
    assert ab["tickets_on_shortest_path"] == 3
    assert by_name["A-C"]["tickets_on_shortest_path"] == 0


def test_colors_and_cities(tiny: dict[str, Any]) -> None:
    colors = {r["color"]: r for r in tiny["colors"]}
    assert colors["blue"]["spaces"] == 1 and colors["red"]["spaces"] == 3 and colors["gray"]["spaces"] == 8
    assert colors["blue"]["cards"] == 6 and colors["gray"]["cards"] is None
    assert colors["blue"]["spaces_per_card"] == pytest.approx(1 / 6, abs=1e-3)
    cities = {r["city"]: r for r in tiny["cities"]}
    assert (cities["A"]["tracks"], cities["A"]["neighbours"], cities["A"]["tickets"]) == (4, 3, 2)
    assert tiny["cities"][0]["city"] == "A"


def test_fit_line_and_suggestion() -> None:
    line = fit_line([1, 2, 3], [2, 4, 6])
    assert (line["slope"], line["intercept"], line["r2"], line["rms"]) == (2.0, 0.0, 1.0, 0.0)
    assert suggested_points(5, line) == 10
    assert suggested_points(0, line) == 1  # never below 1


def test_tables_name_the_bridge(tiny: dict[str, Any]) -> None:
    text = format_analysis(tiny)
    assert "Bridges (a connection whose loss splits the board): D-E" in text
    assert "B-E" in text


def test_europe_json_matches_golden(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "analyze", "europe", "--json"]) == 0
    produced = json.loads(capsys.readouterr().out)
    assert produced == json.loads((GOLDEN / "europe.json").read_text(encoding="utf-8"))


def test_analyze_reports_a_bad_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{}", encoding="utf-8")
    assert main(["map", "analyze", str(path)]) != 0
    assert "format" in capsys.readouterr().err
