"""A league: ratings of named agents kept across runs in one JSON file, a new agent rated by paired deals.

An agent is a name and a bot spec (`greedy`, `mcts:medium`, `cmd:python3 bot.py`, `policy:PATH`, ... as
`ttr.bots.make_bot` reads them). `add_agent` plays the new agent against every agent already in the league
on paired deals: for deal i (seed `seed + i`) one game with the new agent in the first seat and one with
the seats turned (two tournaments of `ttr.sim.tournament`, the bots in both orders, the same seeds). Each
game updates the ratings of both agents with openskill's Plackett-Luce model, in a fixed order (deal by
deal), so the ratings do not depend on the number of worker processes. A game's ranking: the winners
first (tied), then the other seats by final score. With more seats than agents in a game (3 or more seats,
head-to-head) an agent holds several seats: each seat is rated, and the agent takes the mean of its seats'
new ratings.

The file (`LEAGUE_FORMAT`, `League.to_json`):

    {"format": "ttr-league/1", "map": "new_york", "players": 2,
     "model": {"name": "PlackettLuce", "mu": 25.0, "sigma": 8.333333333333334},
     "agents": [{"name": "greedy", "spec": "greedy", "mu": 27.1, "sigma": 3.2, "games": 80, "wins": 61.0}],
     "matches": [{"agent": "ppo", "opponent": "greedy", "deals": 20, "seed": 0, "games": 40,
                  "agent_wins": 9.0, "opponent_wins": 31.0}]}

`games` and `wins` of an agent count its seats (a shared win counts 1/k to each of k winners); `matches`
lists every match played, oldest first. Shown intervals are mu +- 1.96 sigma; the table is sorted by the
conservative rating mu - 3 sigma.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from openskill.models import PlackettLuce
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"the league needs the sim extra: pip install 'ttr[sim]' ({exc})") from None

from ttr.sim.tournament import GameResult, TournamentConfig, run_games

LEAGUE_FORMAT = "ttr-league/1"
MODEL = "PlackettLuce"


@dataclass
class Agent:
    """One agent of the league and its rating."""

    name: str
    spec: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma (what the table is sorted by)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """The agent as the league file holds it."""
        return {"name": self.name, "spec": self.spec, "mu": self.mu, "sigma": self.sigma, "games": self.games,
                "wins": self.wins}


@dataclass
class League:
    """The agents, their ratings and the matches played, for one map and seat count."""

    map_name: str
    players: int
    mu: float = 25.0
    sigma: float = 25.0 / 3
    agents: list[Agent] = field(default_factory=list)
    matches: list[dict[str, Any]] = field(default_factory=list)

    def agent(self, name: str) -> Agent:
        """The agent called `name`; `KeyError` if there is none."""
        for a in self.agents:
            if a.name == name:
                return a
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The league file's JSON object (see the module)."""
        return {"format": LEAGUE_FORMAT, "map": self.map_name, "players": self.players,
                "model": {"name": MODEL, "mu": self.mu, "sigma": self.sigma},
                "agents": [a.to_json() for a in self.agents], "matches": [dict(m) for m in self.matches]}

    @classmethod
    def from_json(cls, data: Any) -> League:
        """A league from its JSON object; `ValueError` naming the first problem."""
        if not isinstance(data, dict) or data.get("format") != LEAGUE_FORMAT:
            raise ValueError(f"not a league file (expected format {LEAGUE_FORMAT!r})")
        try:
            model = data["model"]
            if model["name"] != MODEL:
                raise ValueError(f"unknown rating model {model['name']!r} (this version rates with {MODEL})")
            league = cls(str(data["map"]), int(data["players"]), float(model["mu"]), float(model["sigma"]))
            for a in data["agents"]:
                agent = Agent(str(a["name"]), str(a["spec"]), float(a["mu"]), float(a["sigma"]), int(a["games"]),
                              float(a["wins"]))
                if any(x.name == agent.name for x in league.agents):
                    raise ValueError(f"agent {agent.name!r} is listed twice")
                if not (math.isfinite(agent.mu) and math.isfinite(agent.sigma) and agent.sigma > 0):
                    raise ValueError(f"agent {agent.name!r} has no valid rating")
                league.agents.append(agent)
            league.matches = [dict(m) for m in data["matches"]]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"league file: missing or malformed field ({exc})") from None
        return league

    def table(self) -> list[dict[str, Any]]:
        """The agents best first (by mu - 3 sigma), each with its 95% interval mu +- 1.96 sigma."""
        rows = []
        for a in sorted(self.agents, key=lambda a: -a.ordinal):
            rows.append({**a.to_json(), "ordinal": a.ordinal, "ci95": [a.mu - 1.96 * a.sigma, a.mu + 1.96 * a.sigma],
                         "win_rate": a.wins / a.games if a.games else None})
        return rows


def load_league(path: str | Path) -> League:
    """The league in file `path`; `ValueError` naming the problem if it cannot be read."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the league file ({exc})") from None
    try:
        return League.from_json(data)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def save_league(league: League, path: str | Path) -> None:
    """Write the league to `path` at once (a reader never sees half a file)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(league.to_json(), out, indent=1, ensure_ascii=False)
        out.write("\n")
    os.replace(tmp, target)


def ranks(result: GameResult) -> list[float]:
    """Each seat's place in a game: 0 for the winners, then the others by final score (ties share a place)."""
    winners = set(result.winners)
    losers = sorted({result.scores[s] for s in range(len(result.scores)) if s not in winners}, reverse=True)
    return [0.0 if s in winners else 1.0 + losers.index(result.scores[s]) for s in range(len(result.scores))]


def play_match(league: League, first: Agent, second: Agent, deals: int, seed: int,
               jobs: int = 1) -> list[tuple[GameResult, list[Agent]]]:
    """Both games of every paired deal (the first agent's seat order, then the turned one), deal by deal, each
    with the agent at every seat."""
    orders = [(first, second), (second, first)]
    played: list[list[GameResult]] = []
    for a, b in orders:
        config = TournamentConfig(league.map_name, league.players, (a.spec, b.spec), deals, seed, jobs)
        played.append(sorted(run_games(config), key=lambda r: r.game))
    out = []
    for i in range(deals):
        for (a, b), results in zip(orders, played, strict=True):
            result = results[i]
            out.append((result, [(a, b)[e] for e in result.entries]))
    return out


def rate_game(model: PlackettLuce, result: GameResult, seats: list[Agent]) -> None:
    """Update the ratings of the agents at `seats` from one game (an agent at several seats takes the mean)."""
    teams = [[model.rating(mu=a.mu, sigma=a.sigma)] for a in seats]
    rated = model.rate(teams, ranks=ranks(result))
    new: dict[str, list[tuple[float, float]]] = {}
    for agent, [r] in zip(seats, rated, strict=True):
        new.setdefault(agent.name, []).append((r.mu, r.sigma))
    share = 1.0 / len(result.winners) if result.winners else 0.0
    for s, agent in enumerate(seats):
        agent.games += 1
        if s in result.winners:
            agent.wins += share
    for agent in {a.name: a for a in seats}.values():
        values = new[agent.name]
        agent.mu = sum(m for m, _ in values) / len(values)
        agent.sigma = sum(s for _, s in values) / len(values)


def add_agent(league: League, name: str, spec: str, deals: int = 20, seed: int = 0, jobs: int = 1,
              progress: Callable[[str], None] | None = None) -> Agent:
    """Rate a new agent: paired deals against every agent already in the league (see the module). The league
    changes only once every match is played (an error leaves it as it was)."""
    if not name.strip():
        raise ValueError("an agent needs a name")
    if any(a.name == name for a in league.agents):
        raise ValueError(f"the league already has an agent called {name!r}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    from ttr.bots import check_bot_spec
    from ttr.maps import load_map

    check_bot_spec(spec, load_map(league.map_name))
    model = PlackettLuce(mu=league.mu, sigma=league.sigma)
    pool = [Agent(a.name, a.spec, a.mu, a.sigma, a.games, a.wins) for a in league.agents]  # changed on success
    agent = Agent(name, spec, league.mu, league.sigma)
    matches = []
    for opponent in pool:
        if progress is not None:
            progress(f"{name} against {opponent.name}: {deals} paired deals")
        wins = [0.0, 0.0]
        for result, seats in play_match(league, agent, opponent, deals, seed, jobs):
            share = 1.0 / len(result.winners) if result.winners else 0.0
            for s in result.winners:
                wins[0 if seats[s] is agent else 1] += share
            rate_game(model, result, seats)
        matches.append({"agent": name, "opponent": opponent.name, "deals": deals, "seed": seed, "games": 2 * deals,
                        "agent_wins": wins[0], "opponent_wins": wins[1]})
    league.agents = [*pool, agent]
    league.matches.extend(matches)
    return agent


__all__ = ["LEAGUE_FORMAT", "MODEL", "Agent", "League", "add_agent", "load_league", "play_match", "ranks",
           "rate_game", "save_league"]
