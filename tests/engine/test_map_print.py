"""`ttr map print`: the board at a real size, ticket sheets and a rules sheet, as SVG and PDF."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ttr.cli.main import main
from ttr.errors import MapError
from ttr.maps import load_map
from ttr.maps.printing import board_svg, parse_size, rules_lines, ticket_sheets

SVG = "{http://www.w3.org/2000/svg}"
MM_PER_PT = 25.4 / 72


def pdf_pages(path: Path) -> list[tuple[float, float]]:
    """Each page's size in millimetres, read from the PDF's page objects (cairo writes them uncompressed)."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    boxes = [tuple(float(v) for v in m.split()) for m in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)]
    assert len(boxes) == pages
    return [((b[2] - b[0]) * MM_PER_PT, (b[3] - b[1]) * MM_PER_PT) for b in boxes]


def test_sizes_parse() -> None:
    assert (parse_size("80x55cm").width_mm, parse_size("80x55cm").height_mm) == (800, 550)
    assert parse_size("800 x 550 mm").width_mm == 800
    assert parse_size("31.5x21.65in").width_mm == pytest.approx(800.1)
    for bad in ("80x55", "big", "0x0cm", "80x55km", "1x1cm"):
        with pytest.raises(MapError, match="--size"):
            parse_size(bad)


def test_print_writes_svg_and_pdf_at_the_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / "print"
    assert main(["map", "print", "new_york", "--size", "80x55cm", "-o", str(out)]) == 0
    assert "wrote 7 files" in capsys.readouterr().out
    root = ET.parse(out / "board.svg").getroot()
    assert (root.get("width"), root.get("height")) == ("800mm", "550mm")
    assert root.get("preserveAspectRatio") == "xMidYMid meet"
    assert len([g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith("route-")]) == 41
    [board] = pdf_pages(out / "board.pdf")
    assert board == pytest.approx((800, 550), abs=0.01)
    tickets = pdf_pages(out / "tickets.pdf")
    assert len(tickets) == 2 and all(p == pytest.approx((210, 297), abs=0.01) for p in tickets)  # 18 tickets, 9 a sheet
    assert len(pdf_pages(out / "rules.pdf")) == 1
    cards = [g.get("data-ticket") for n in range(1, 3)
             for g in ET.parse(out / f"tickets-{n}.svg").getroot().iter(f"{SVG}g") if g.get("class") == "ticket"]
    assert cards == [t.name for t in load_map("new_york").tickets]


def test_svg_only_without_pdf(tmp_path: Path) -> None:
    assert main(["map", "print", "usa", "--size", "60x40cm", "-o", str(tmp_path), "--svg-only"]) == 0
    sheets = [f"tickets-{n}.svg" for n in (1, 2, 3, 4)]  # 30 tickets, 9 a sheet
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg", "rules.svg", *sheets]


def test_sheets_follow_the_map() -> None:
    europe = load_map("europe")
    assert len(ticket_sheets(europe)) == 6  # 46 tickets
    lines = " ".join(rules_lines(europe))
    assert "3 stations" in lines and "Tunnels: turn up 3 cards" in lines and "Ferries" in lines
    assert "Tunnels" not in " ".join(rules_lines(load_map("usa")))
    usa = " ".join(rules_lines(load_map("usa")))
    assert "deal 3 tickets to each player, who keeps at least 2" in usa and "Longest continuous path: 10" in usa
    board = board_svg(europe, parse_size("100x70cm"))
    assert 'width="1000mm" height="700mm"' in board


def test_bad_size_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never"
    assert main(["map", "print", "usa", "--size", "huge", "-o", str(out)]) != 0
    assert "--size" in capsys.readouterr().err and not out.exists()
