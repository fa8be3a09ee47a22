"""The compiled build (`TTR_COMPILE=1`, setup.py: the engine and greedy compiled by mypyc) plays the same games
as pure Python: every listed module really is a C extension, and whole games of greedy playouts, the fitted
guide, a paper agent, parameters given outright and the search at a fixed playout count come out action
for action and score for score the same, and the `expert` level with its own budget (playout actions) makes
the same moves after the same work.

It builds the extensions once into a copy of the source, with the mypyc of the development environment, so it
needs a C compiler and the Python headers, as `scripts/bench` does; at the C compiler's -Og (`TTR_COMPILE_OPT`,
setup.py), the same code as the -O3 build that `scripts/compiled` makes, for the least CPU of build and games
together (user CPU of the build, then of the three scripts on it: -O1 52 s and 17 s, -Og 37 s and 19 s, -O0
33 s and 35 s). The whole test takes about 90 s of CPU (build, and the scripts on both builds).
The pure-Python runs start first and play while the extensions are built; the compiled runs then play side by
side."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEVEL_NAMES = {"easy": "long_route_junkie", "medium": "greedy", "hard": "greedy_long_fitted", "expert": "expert"}

# Plays the games in a fresh interpreter and prints one JSON line: each compiled module's file, then per game
# its action history and final scores.
GAMES = r"""
import importlib, json, sys
from ttr.bots import make_bot, play_game
from ttr.bots.greedy import GreedyBot
from ttr.bots.playout import GreedyPlayout
from ttr.engine import Game, final_score
from ttr.maps import load_map

modules = sys.argv[1].split(",")
files = {m: importlib.import_module(m).__file__ for m in modules}
games = []
for map_name, players, seed in (("europe", 2, 3), ("europe", 4, 4), ("new_york", 2, 5), ("new_york", 4, 6)):
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=seed)
    GreedyPlayout(game_map, players, seed).run(game)
    games.append([game.history, final_score(game).to_json()])
europe = load_map("europe")
from ttr.bots.params import PRESETS
no_wilds = PRESETS["greedy"].but({"face_up_wilds": False, "points_weight": 0.6})
for seed, bots in ((7, ["greedy_long_fitted", "route_focus"]), (8, ["mcts:8", "greedy"])):
    seats = [make_bot(name, europe, s, seed) for s, name in enumerate(bots)]
    game = play_game(europe, seats, seed=seed, players=bots)
    games.append([game.history, final_score(game).to_json()])
bot = GreedyBot(europe, 0, 9, params=no_wilds)
game = play_game(europe, [bot, GreedyBot(europe, 1, 9)], seed=9, players=["a", "b"])
games.append([game.history, final_score(game).to_json(), [bot.params.face_up_wilds, bot.params.points_weight]])
# pickling (the server's bot processes receive actions pickled; users send games to worker processes): a game
# half played, pickled with its map (whose cache holds the bots' compiled index) and played on, as the original
import pickle
game = Game.new(europe, 3, seed=11)
GreedyPlayout(europe, 3, 11).run(game, 120)
twin = pickle.loads(pickle.dumps(game))
legal = pickle.loads(pickle.dumps(game.legal_actions()))
assert legal == game.legal_actions() and twin.legal_ids() == game.legal_ids()
for g in (game, twin):
    GreedyPlayout(europe, 3, 12).run(g)
games.append([twin.history, final_score(twin).to_json(), twin.history == game.history])
from ttr.bots import LEVEL_BOTS
from ttr.cli.console import engine_build
names = {level: make_bot(level, europe, 0, 1).name for level in LEVEL_BOTS}  # the bots' own names
# the `expert` level with its own budget (playout actions, ttr.bots.budgets): the same move after the same work
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsExpert
from ttr.engine import SeatView
expert = []
for map_name, players, seed in (("europe", 2, 21), ("europe", 4, 22), ("new_york", 2, 23)):
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=seed)
    GreedyPlayout(game_map, players, seed).run(game, 30)
    bot = MctsExpert(game_map, game.current, seed)
    action = bot.choose(SeatView.of(game, game.current), legal_actions(game)[1])
    expert.append([repr(action), bot.last_iterations, bot.last_actions])
print(json.dumps({"files": files, "games": games, "build": engine_build(), "names": names, "expert": expert}))
"""

# Serves on the build it is run with (the app in-process, bots in a worker process, as `ttr serve`) and plays
# one game of levels through the REST API to its end: prints the bot list, the record's status and length.
SERVER = r"""
import json, time
from fastapi.testclient import TestClient
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.config import ServerConfig
from ttr.server.store import MemoryStore

app = create_app(ServerConfig(static_dir="no-page"), store=MemoryStore(), pool=BotPool(1, "process"))
with TestClient(app) as client:
    bots = client.get("/api/bots")
    assert bots.status_code == 200, bots.text
    seats = [{"type": "bot", "level": "hard"}, {"type": "bot", "level": "medium"}]
    created = client.post("/api/games", json={"map": "new_york", "seed": 5, "bot_delay": 0, "seats": seats})
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    deadline = time.monotonic() + 300
    while client.get(f"/api/games/{gid}").json()["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(0.05)
    final = client.get(f"/api/games/{gid}/replay/0").status_code, client.get(f"/api/games/{gid}/record").json()
    seats = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "medium"}]
    human = client.post("/api/games", json={"map": "europe", "seed": 6, "seats": seats}).json()
    with client.websocket_connect(f"/ws/{human['id']}") as ws:
        ws.send_json({"type": "join", "token": human["seats"][0]["token"]})
        ws.send_json({"type": "hint"})
        hint = next(m for m in iter(ws.receive_json, None) if m["type"] in ("hint", "error"))
print(json.dumps({"bots": bots.json(), "record_status": final[0], "actions": len(final[1]["actions"]),
                  "hint": [hint["type"], hint.get("text"), hint.get("reason_i18n")]}))
"""

# The learning environments on the build it is run with: a PettingZoo game and a Gymnasium episode with seeded
# random masked actions, and an OpenSpiel game (chance outcomes drawn through the engine's chance hook) where
# OpenSpiel is installed; prints one JSON line of what they saw.
ENVS = r"""
import hashlib, importlib.util, json, random
import numpy as np
from ttr.envs import aec_env, gym_env
seen = {}
env = aec_env("new_york", num_players=3)
env.reset(seed=4)
rnd, digest, steps = random.Random(4), hashlib.sha256(), 0
for agent in env.agent_iter():
    obs, reward, done, cut, _ = env.last()
    digest.update(obs["observation"].tobytes() + repr(reward).encode())
    env.step(None if done or cut else rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    steps += 1
seen["aec"] = [steps, digest.hexdigest()]
gym = gym_env("europe", 2, opponents="greedy")
obs, info = gym.reset(seed=5)
total, done = 0.0, False
while not done:
    obs, reward, term, trunc, info = gym.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    total += reward
    done = term or trunc
seen["gym"] = [total, info["steps"], hashlib.sha256(obs["observation"].tobytes()).hexdigest()]
if importlib.util.find_spec("pyspiel") is not None:
    import pyspiel
    import ttr.envs.openspiel  # noqa: F401
    state = pyspiel.load_game("python_ttr(map=europe,players=2)").new_initial_state()
    rng, digest, steps = np.random.RandomState(6), hashlib.sha256(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            digest.update(state.information_state_string().encode())
            state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    seen["openspiel"] = [steps, state.returns(), digest.hexdigest()]
print(json.dumps(seen))
"""

def _setup_modules() -> list[str]:
    """The module names setup.py compiles (`COMPILED_MODULES`), read from its source."""
    namespace: dict[str, object] = {}
    source = (ROOT / "setup.py").read_text().replace("setup(ext_modules=ext_modules)", "")
    exec(compile(source, "setup.py", "exec"), namespace)  # without TTR_COMPILE it builds nothing
    paths = namespace["COMPILED_MODULES"]
    assert isinstance(paths, list)
    return [p.removeprefix("src/").removesuffix(".py").replace("/", ".") for p in paths]


class Run:
    """One of the scripts above running in a fresh interpreter on the source at `src`, its output to a file."""

    def __init__(self, src: Path, modules: list[str], script: str, out: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
        self.out, self.err = out, out.with_suffix(".err")
        with self.out.open("w") as stdout, self.err.open("w") as stderr:
            self.proc = subprocess.Popen([sys.executable, "-c", script, ",".join(modules)], env=env, cwd=src.parent,
                                         stdout=stdout, stderr=stderr, text=True)

    def result(self) -> dict[str, Any]:
        """Wait for the script and return the JSON line it printed."""
        code = self.proc.wait(timeout=600)
        assert code == 0, self.err.read_text()[-3000:]
        result = json.loads(self.out.read_text())
        assert isinstance(result, dict)
        return result


SCRIPTS = {"games": GAMES, "server": SERVER, "envs": ENVS}


@pytest.mark.skipif(shutil.which(sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC")
                                 else "cc") is None, reason="no C compiler for the mypyc build")
def test_the_compiled_build_plays_the_same_games_as_pure_python(tmp_path: Path) -> None:
    modules = _setup_modules()
    assert {"ttr.engine.game", "ttr.bots.greedy", "ttr.bots.playout"} <= set(modules)
    # pure Python plays while the extensions are built (the two do not wait on each other)
    runs = {("pure", name): Run(ROOT / "src", modules, script, tmp_path / f"pure-{name}.json")
            for name, script in SCRIPTS.items()}
    try:
        shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):  # mypyc reads pyproject's mypy settings
            shutil.copy(ROOT / name, tmp_path / name)
        build = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", "src"], cwd=tmp_path,
                               env={**os.environ, "TTR_COMPILE": "1", "TTR_COMPILE_OPT": "g"}, capture_output=True,
                               text=True, timeout=900)
        assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
        for name, script in SCRIPTS.items():
            runs["compiled", name] = Run(tmp_path / "src", modules, script, tmp_path / f"compiled-{name}.json")
        results = {key: run.result() for key, run in runs.items()}
    finally:
        for run in runs.values():
            run.proc.kill()
    pure_results = {name: results["pure", name] for name in SCRIPTS}
    compiled_results = {name: results["compiled", name] for name in SCRIPTS}

    compiled, pure_games = compiled_results["games"], pure_results["games"]
    files = compiled["files"]
    assert isinstance(files, dict)
    ext = sysconfig.get_config_var("EXT_SUFFIX")
    assert sorted(m for m, f in files.items() if not f.endswith(ext)) == []  # every listed module compiled
    assert pure_games["files"] != files
    assert (compiled["build"], pure_games["build"]) == ("compiled (mypyc)", "pure Python")  # what `ttr serve` says
    assert compiled["games"] == pure_games["games"]
    assert compiled["names"] == pure_games["names"] and pure_games["names"] == LEVEL_NAMES
    assert compiled["expert"] == pure_games["expert"] and sum(actions for *_, actions in pure_games["expert"]) > 0
    games = compiled["games"]
    assert isinstance(games, list)
    assert games[-2][2] == [False, 0.6]  # parameters given outright are played in the compiled build
    assert games[-1][2] is True  # a pickled game plays on as the original
    # `ttr serve` on the compiled build (`scripts/run`): the bot list and a game of levels to its end, as pure
    served, served_pure = compiled_results["server"], pure_results["server"]
    assert served == served_pure and served["record_status"] == 200 and served["hint"][0] == "hint"
    assert [b["bot"] for b in served["bots"]] == ["long_route_junkie", "greedy", "greedy_long_fitted", "expert"]
    # the learning environments on the compiled build (OpenSpiel's chance through the engine's hook), as pure
    envs, envs_pure = compiled_results["envs"], pure_results["envs"]
    assert envs == envs_pure and envs["aec"][0] > 50 and envs["gym"]
