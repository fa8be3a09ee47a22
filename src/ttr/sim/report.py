"""`ttr report`: one self-contained HTML page of plots from one or two simulation folders.

Plots are drawn with matplotlib (Agg backend) as inline SVG; the route heatmaps are the board of
`ttr.maps.render` with each route's pieces coloured by its rate. The page loads nothing from the network.
With two folders every section shows them side by side (A left, B right).
"""

from __future__ import annotations

import html
import io
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ttr.maps import GameMap, load_map
from ttr.maps.model import parse_map
from ttr.maps.render import render_svg
from ttr.sim import stats
from ttr.sim.compare import Difference, are_paired, compare
from ttr.sim.rows import read_table
from ttr.sim.simulate import SETTINGS

BOT_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


class ReportError(ValueError):
    """A folder that is not a readable simulation output."""


@dataclass
class Results:
    """One simulation folder: its settings, its rows and its map."""

    folder: Path
    settings: dict[str, Any]
    rows: list[dict[str, Any]]
    game_map: GameMap

    @property
    def title(self) -> str:
        """A short description: folder, map, players, bots, games."""
        s = self.settings
        return (f"{self.folder.name or self.folder}: {self.game_map.name}, {s['players']} players, "
                f"{len(stats.games(self.rows))} games, bots {', '.join(s['bots'])}, seed {s['seed']}")


def load_results(folder: Path) -> Results:
    """Read a folder written by `ttr simulate` (its table and `simulation.json`)."""
    path = folder / SETTINGS
    if not path.is_file():
        raise ReportError(f"{folder}: no {SETTINGS}; give a folder written by `ttr simulate --out`")
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))["settings"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ReportError(f"{path}: not a simulation settings file ({exc})") from None
    tables = [folder / f"games.{fmt}" for fmt in ("parquet", "csv")]
    table = next((t for t in tables if t.is_file()), None)
    if table is None:
        raise ReportError(f"{folder}: no games.parquet or games.csv (has the simulation finished a game?)")
    try:
        rows = read_table(table)
    except ImportError:
        raise ReportError(f"{table}: reading Parquet needs pyarrow (pip install 'ttr-game[sim]')") from None
    except (ValueError, OSError, KeyError) as exc:
        raise ReportError(f"{table}: cannot read the table ({exc})") from None
    if not rows:
        raise ReportError(f"{table}: no games in the table")
    if settings.get("map_json"):
        game_map = parse_map(json.loads(settings["map_json"]), where=settings["map"])
    else:
        game_map = load_map(settings["map"])
    return Results(folder, settings, rows, game_map)


# ---------------------------------------------------------------------- plots


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ReportError("the report needs matplotlib (pip install 'ttr-game[sim]')") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "path", "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False})
    return plt


class Figures:
    """Turns matplotlib figures into inline SVG, each with its own id salt (no clashes in one page)."""

    def __init__(self) -> None:
        self.plt = _plt()
        self.count = 0

    def svg(self, fig: Any) -> str:
        """The figure as an inline `<svg>` element (closed afterwards)."""
        self.count += 1
        self.plt.rcParams["svg.hashsalt"] = f"ttr-report-{self.count}"
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight")
        self.plt.close(fig)
        text = buf.getvalue()
        return re.sub(r"\s*<metadata>.*?</metadata>", "", text[text.index("<svg"):], count=1, flags=re.S)


def _errors(rates: list[stats.Rate]) -> list[list[float]]:
    """Error bar lengths below and above each rate for its 95% interval (never negative)."""
    return [[max(0.0, r.rate - r.ci[0]) for r in rates], [max(0.0, r.ci[1] - r.rate) for r in rates]]


def _colour(i: int) -> str:
    return BOT_COLOURS[i % len(BOT_COLOURS)]


def score_plots(fx: Figures, res: Results) -> str:
    """Score distributions: a box per bot and a box per seat, means marked."""
    plt = fx.plt
    per_bot = stats.per_bot(res.rows)
    per_seat = stats.per_seat(res.rows)
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.4), gridspec_kw={"width_ratios": [max(2, len(per_bot)),
                                                                                      max(2, len(per_seat))]})
    boxes = a.boxplot([p["scores"] for p in per_bot], showmeans=True, patch_artist=True)
    for i, patch in enumerate(boxes["boxes"]):
        patch.set_facecolor(_colour(i))
        patch.set_alpha(0.6)
    a.set_xticks(range(1, len(per_bot) + 1), [p["bot"] for p in per_bot], rotation=20, ha="right")
    a.set_ylabel("final score")
    a.set_title("score per bot")
    b.boxplot([s["scores"] for s in per_seat], showmeans=True)
    b.set_xticks(range(1, len(per_seat) + 1), [f"seat {s['seat'] + 1}" for s in per_seat])
    b.set_title("score per seat (seat 1 moves first)")
    return fx.svg(fig)


def seat_plot(fx: Figures, res: Results) -> str:
    """Win rate per seat with 95% intervals, against the fair share 1/players."""
    plt = fx.plt
    per_seat = stats.per_seat(res.rows)
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    rates = [s["wins"].rate for s in per_seat]
    xs = list(range(1, len(per_seat) + 1))
    ax.bar(xs, rates, color="#6a9fd4", yerr=_errors([s["wins"] for s in per_seat]), capsize=4)
    ax.axhline(per_seat[0]["fair"], color="#b22", linestyle="--", label="fair share")
    ax.set_xticks(xs, [f"seat {x}" for x in xs])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title("win rate by seat")
    ax.legend(frameon=False)
    return fx.svg(fig)


def ticket_plot(fx: Figures, res: Results) -> str:
    """Completion rate of every ticket held at least once, sorted, with 95% intervals."""
    plt = fx.plt
    rows = [t for t in stats.tickets(res.rows, [t.name for t in res.game_map.tickets]) if t["held"]]
    rows.sort(key=lambda t: t["completion"].rate)
    fig, ax = plt.subplots(figsize=(6, max(2.5, 0.16 * len(rows) + 0.8)))
    ys = list(range(len(rows)))
    rates = [t["completion"].rate for t in rows]
    ax.barh(ys, rates, xerr=_errors([t["completion"] for t in rows]), color="#7bb36e",
            error_kw={"elinewidth": 0.6, "capsize": 1.5})
    ax.set_yticks(ys, [f"{t['ticket']} ({t['held']})" for t in rows], fontsize=6.5)
    ax.set_xlim(0, 1)
    ax.set_xlabel("completed / held (95% CI); in brackets: times held")
    ax.set_title("ticket completion")
    return fx.svg(fig)


def length_plot(fx: Figures, res: Results) -> str:
    """Histogram of game length in turns."""
    plt = fx.plt
    turns = stats.lengths(res.rows)
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    ax.hist(turns, bins=min(40, max(5, len(set(turns)))), color="#c9a227")
    ax.axvline(stats.mean([float(t) for t in turns]), color="#333", linestyle="--", label="mean")
    ax.set_xlabel("turns per game (all seats)")
    ax.set_ylabel("games")
    ax.set_title("game length")
    ax.legend(frameon=False)
    return fx.svg(fig)


def express_station_plot(fx: Figures, res: Results) -> str:
    """Per bot: the European Express (longest path) rate with intervals, and stations built per game."""
    plt = fx.plt
    per_bot = stats.per_bot(res.rows)
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.2))
    xs = list(range(len(per_bot)))
    rates = [p["express"].rate for p in per_bot]
    a.bar(xs, rates, yerr=_errors([p["express"] for p in per_bot]), capsize=4, color=[_colour(i) for i in xs],
          alpha=0.75)
    a.set_xticks(xs, [p["bot"] for p in per_bot], rotation=20, ha="right")
    a.set_ylabel("share of seats (95% CI)")
    a.set_title("longest-path bonus (European Express)")
    most = max((k for p in per_bot for k in p["stations_hist"]), default=0)
    bottom = [0.0] * len(per_bot)
    for k in range(most + 1):
        share = [p["stations_hist"].get(k, 0) / p["seats"] for p in per_bot]
        b.bar(xs, share, bottom=bottom, label=f"{k} built", color=plt.cm.Blues(0.25 + 0.75 * k / max(1, most)))
        bottom = [x + y for x, y in zip(bottom, share, strict=True)]
    b.set_xticks(xs, [p["bot"] for p in per_bot], rotation=20, ha="right")
    b.set_ylabel("share of seats")
    b.set_title("stations built per game")
    b.legend(frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
    return fx.svg(fig)


def attraction_plot(fx: Figures, res: Results) -> str:
    """Per bot: the share of seats by the tourist-attraction points they scored (New York, N-SCORE-1)."""
    plt = fx.plt
    per_bot = stats.per_bot(res.rows)
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    xs = list(range(len(per_bot)))
    points = sorted({k for p in per_bot for k in p["attractions_hist"]})
    bottom = [0.0] * len(per_bot)
    for i, k in enumerate(points):
        share = [p["attractions_hist"].get(k, 0) / p["seats"] for p in per_bot]
        ax.bar(xs, share, bottom=bottom, label=f"{k} pts", color=plt.cm.Greens(0.2 + 0.8 * i / max(1, len(points) - 1)))
        bottom = [x + y for x, y in zip(bottom, share, strict=True)]
    handles, labels = ax.get_legend_handles_labels()
    ax.set_xticks(xs, [f"{p['bot']} (mean {p['attractions']:.1f})" for p in per_bot], rotation=20, ha="right")
    ax.set_ylabel("share of seats")
    ax.set_title("tourist-attraction points per seat")
    ax.legend(handles[::-1], labels[::-1], frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
    return fx.svg(fig)


def heatmap(fx: Figures, res: Results, which: str) -> str:
    """The board with every route coloured by how often it was claimed (or contested), with a legend."""
    plt = fx.plt
    claimed, contested = stats.routes(res.rows, len(res.game_map.routes))
    values = claimed if which == "claimed" else contested
    cmap = plt.get_cmap("YlOrRd")
    top = max(values, default=0.0) or 1.0
    owners = {i: _hex(cmap(0.08 + 0.92 * v / top)) for i, v in enumerate(values)}
    board = render_svg(res.game_map, owners=owners)
    board = board[board.index("<svg"):]
    for i, route in enumerate(res.game_map.routes):  # each route's tooltip gets its rates
        tag = f'id="route-{i}" '
        at = board.index(tag)
        start = board.index("<title>", at)
        end = board.index("</title>", start)
        text = html.escape(f"{route.name}: claimed in {claimed[i]:.0%} of games, contested in {contested[i]:.0%}")
        board = board[:start + 7] + text + board[end:]
    board = re.sub(r'<svg ([^>]*?)width="\d+" height="\d+"', r'<svg \1class="board"', board, count=1)
    fig, ax = plt.subplots(figsize=(4.5, 0.55))
    norm = plt.Normalize(0, top)
    fig.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=cmap), cax=ax, orientation="horizontal")
    ax.set_xlabel(f"share of games the route was {which} in (darkest: {top:.0%})")
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    return board + fx.svg(fig)


def _hex(rgba: tuple[float, ...]) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgba[:3])


# ---------------------------------------------------------------------- tables


def bot_table(res: Results) -> str:
    """Per bot: seats, win rate with interval, score, tickets, stations, longest path."""
    head = ("bot", "seats", "win rate (95% CI)", "mean score (sd)", "tickets done / failed per game",
            "ticket completion", "routes claimed", "stations built", "longest-path bonus")
    lines = []
    for p in stats.per_bot(res.rows):
        lo, hi = p["wins"].ci
        lines.append((p["bot"], str(p["seats"]), f"{p['wins'].rate:.1%} ({lo:.1%}-{hi:.1%})",
                      f"{p['mean_score']:.1f} ({p['sd_score']:.1f})",
                      f"{p['tickets_completed']:.2f} / {p['tickets_failed']:.2f}",
                      f"{p['ticket_completion'].rate:.1%}", f"{p['routes_claimed']:.1f}",
                      f"{p['stations_built']:.2f}", f"{p['express'].rate:.1%}"))
    return _table(head, lines)


def seat_table(res: Results) -> str:
    """Per seat: win rate with interval and mean score."""
    lines = []
    for s in stats.per_seat(res.rows):
        lo, hi = s["wins"].ci
        lines.append((f"seat {s['seat'] + 1}", str(s["wins"].n), f"{s['wins'].rate:.1%} ({lo:.1%}-{hi:.1%})",
                      f"{s['fair']:.1%}", f"{s['mean_score']:.1f}"))
    return _table(("seat", "games", "win rate (95% CI)", "fair share", "mean score"), lines)


def route_table(res: Results, top: int = 10) -> str:
    """The routes claimed most and least often, and the most contested."""
    claimed, contested = stats.routes(res.rows, len(res.game_map.routes))
    names = [r.name for r in res.game_map.routes]
    order = sorted(range(len(names)), key=lambda i: (-claimed[i], names[i]))
    most = ", ".join(f"{names[i]} {claimed[i]:.0%}" for i in order[:top])
    least = ", ".join(f"{names[i]} {claimed[i]:.0%}" for i in order[::-1][:top])
    hot = sorted(range(len(names)), key=lambda i: (-contested[i], names[i]))[:top]
    contest = ", ".join(f"{names[i]} {contested[i]:.0%}" for i in hot)
    return (f"<p><b>Claimed most:</b> {html.escape(most)}</p><p><b>Claimed least:</b> {html.escape(least)}</p>"
            f"<p><b>Contested most:</b> {html.escape(contest)}</p>")


def _table(head: tuple[str, ...], lines: Sequence[tuple[str, ...]]) -> str:
    out = ["<table><tr>", *(f"<th>{html.escape(h)}</th>" for h in head), "</tr>"]
    for line in lines:
        out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in line) + "</tr>")
    out.append("</table>")
    return "".join(out)


def compare_results(a: Results, b: Results) -> tuple[list[Difference], bool]:
    """Every figure of B against A (`ttr.sim.compare`), paired when the runs are; and whether they are."""
    paired = are_paired(a.settings, b.settings)
    differences = compare(a.rows, a.game_map, b.rows, b.game_map, paired=paired,
                          players=(a.settings["players"], b.settings["players"]))
    return differences, paired


def difference_table(differences: list[Difference], paired: bool) -> str:
    """The comparison as an HTML table, real differences first and marked."""
    head = ("figure", "A", "B", "B - A (95% CI)", "p", "adjusted p", "real")
    lines = []
    for d in sorted(differences, key=lambda d: (not d.real, d.p_adjusted, d.group, d.figure)):
        scale = 100.0 if _is_rate(d) else 1.0
        unit = " pp" if _is_rate(d) else ""
        interval = (f"{d.difference * scale:+.2f}{unit} ({d.low * scale:+.2f} to {d.high * scale:+.2f})"
                    if math.isfinite(d.low) else f"{d.difference * scale:+.2f}{unit}")
        fmt = ".1%" if _is_rate(d) else ".2f"
        lines.append((d.figure, format(d.a, fmt), format(d.b, fmt), interval, f"{d.p:.3g}", f"{d.p_adjusted:.3g}",
                      "yes" if d.real else ""))
    kind = "paired t-tests on the same deals (same seed, players and bots)" if paired else "Welch's t-tests"
    real = sum(d.real for d in differences)
    note = (f"<p>{len(differences)} figures compared with {kind}; Benjamini-Hochberg adjusted; "
            f"<b>{real} real difference{'s' if real != 1 else ''}</b> (adjusted p &lt; 0.05). Rates are in "
            "percentage points (pp).</p>")
    return note + _table(head, lines).replace("<td>yes</td></tr>", "<td><b>yes</b></td></tr>")


def _is_rate(d: Difference) -> bool:
    return d.group in ("seats", "bots", "tickets", "routes")


# ---------------------------------------------------------------------- page

STYLE = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 1.5em; color: #222; max-width: 1800px; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ccc; }
.cols { display: grid; grid-template-columns: repeat(var(--n), minmax(0, 1fr)); gap: 1.5em; }
.cols > div { min-width: 0; overflow-x: auto; } svg { max-width: 100%; height: auto; } svg.board { width: 100%; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; } th { background: #f0f0f0; }
.label { font-weight: bold; color: #555; } p.note { color: #555; font-size: 0.85em; }
"""

NOTES = {
    "scores": "Boxes: quartiles and median; triangles: means; circles: outliers.",
    "seats": "Seat 1 moves first. A win shared by k seats counts 1/k. Bars: 95% Wilson intervals.",
    "tickets": "Every ticket kept at least once: the share of the times it was held that it was completed.",
    "routes": "Darker: claimed in more games. Hover a route for its rates. A route counts as contested in a "
              "game when its owner claimed it while it lay on the shortest path (in trains, on the empty board) "
              "of a ticket another seat held.",
    "length": "Turns of all seats together, from the first move after the starting ticket choices.",
    "express": "The longest-path bonus (Europe: the European Express), ties counted for each seat that shares "
               "it; stations built by each seat.",
    "attractions": "Points for the tourist attractions a seat's routes reach (1 each in New York).",
}


def build_report(folders: list[Path]) -> str:
    """The HTML page for one or two simulation folders."""
    results = [load_results(f) for f in folders]
    fx = Figures()
    labels = ["A", "B"] if len(results) == 2 else [""]

    def section(title: str, note: str, parts: list[str]) -> str:
        cells = "".join(f"<div><div class='label'>{html.escape(label)}</div>{part}</div>"
                        for label, part in zip(labels, parts, strict=True))
        return f"<h2>{html.escape(title)}</h2><p class='note'>{html.escape(note)}</p>" \
               f"<div class='cols' style='--n:{len(parts)}'>{cells}</div>"

    body = ["<h1>Ticket to Ride simulation report</h1>", "<ul>"]
    for label, res in zip(labels, results, strict=True):
        body.append(f"<li>{html.escape((label + ': ') if label else '')}{html.escape(res.title)}</li>")
    body.append("</ul>")
    if len(results) == 2:
        differences, paired = compare_results(*results)
        body.append("<h2>Differences (B - A)</h2><p class='note'>Each figure is a mean of one value per game; "
                    "the interval and the p-value come from a t-test, and the p-values of all figures are "
                    "adjusted together for multiple comparisons.</p>" + difference_table(differences, paired))
    body.append(section("Bots", "Win rates with 95% Wilson intervals; a win shared by k seats counts 1/k.",
                        [bot_table(r) for r in results]))
    body.append(section("Score distributions", NOTES["scores"], [score_plots(fx, r) for r in results]))
    body.append(section("First-player advantage", NOTES["seats"],
                        [seat_plot(fx, r) + seat_table(r) for r in results]))
    body.append(section("Route claims", NOTES["routes"],
                        [heatmap(fx, r, "claimed") + route_table(r) for r in results]))
    body.append(section("Contested routes", NOTES["routes"], [heatmap(fx, r, "contested") for r in results]))
    body.append(section("Ticket completion", NOTES["tickets"], [ticket_plot(fx, r) for r in results]))
    body.append(section("Game length", NOTES["length"], [length_plot(fx, r) for r in results]))
    none = "<p>This map has none.</p>"
    if any(_has_express_or_stations(r.game_map) for r in results):
        parts = []
        for r in results:
            if not _has_express_or_stations(r.game_map):
                parts.append(none)
                continue
            es = stats.express_and_stations(r.rows)
            parts.append(express_station_plot(fx, r) + f"<p>{es['stations_built']} stations built in {es['games']} "
                         f"games ({es['seats_with_station'].rate:.1%} of seats built one), {es['borrowed']} routes "
                         f"borrowed at scoring; the bonus was shared in {es['express_shared']} games.</p>")
        body.append(section("Longest path and stations", NOTES["express"], parts))
    if any("attractions" in r.game_map.score_extras for r in results):
        body.append(section("Tourist attractions", NOTES["attractions"],
                            [attraction_plot(fx, r) if "attractions" in r.game_map.score_extras else none
                             for r in results]))
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<title>ttr simulation report</title>"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _has_express_or_stations(game_map: GameMap) -> bool:
    return bool({"express", "stations"} & set(game_map.score_extras))


def markdown_table(folders: list[Path]) -> str:
    """Per folder and bot: players, games, seats, win rate with its 95% Wilson interval, mean score, tickets."""
    lines = ["| map | players | games | bot | seats | win rate (95% CI) | mean score | tickets done / failed |",
             "|---|---|---|---|---|---|---|---|"]
    for folder in folders:
        res = load_results(folder)
        n = len(stats.games(res.rows))
        for p in stats.per_bot(res.rows):
            lo, hi = p["wins"].ci
            lines.append(f"| {res.game_map.name} | {res.settings['players']} | {n} | {p['bot']} | {p['seats']} | "
                         f"{p['wins'].rate:.1%} ({lo:.1%}-{hi:.1%}) | {p['mean_score']:.1f} | "
                         f"{p['tickets_completed']:.2f} / {p['tickets_failed']:.2f} |")
    return "\n".join(lines) + "\n"


def comparison(folders: list[Path]) -> dict[str, Any]:
    """The comparison of two folders as JSON (`ttr report A B --json`, format in docs/simulate.md)."""
    from ttr.sim.compare import comparison_json

    if len(folders) != 2:
        raise ReportError("--json compares two simulation folders: give two")
    a, b = (load_results(f) for f in folders)
    differences, paired = compare_results(a, b)
    return {**comparison_json(differences, paired), "a": str(folders[0]), "b": str(folders[1])}


def write_report(folders: list[Path], out: Path) -> None:
    """Build the page and write it to `out`."""
    if not 1 <= len(folders) <= 2:
        raise ReportError("give one simulation folder, or two to compare")
    page = build_report(folders)
    out.write_text(page, encoding="utf-8")
