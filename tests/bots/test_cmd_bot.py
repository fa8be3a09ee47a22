"""`cmd:COMMAND` bots over `ttr-bot/1` (docs/bot-protocol.md): whole games against the example bot, and a
fake bot that answers garbage, illegal moves, late, or not at all."""

from __future__ import annotations

import json
import shlex
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ttr.bots import cmd_bot, make_bot, play_game
from ttr.bots.cmd_bot import MAX_LINE, CmdBot, end_bots
from ttr.bots.random_bot import RandomBot
from ttr.engine import Action, Game, SeatView, final_score
from ttr.maps import load_map

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "simple_bot.py"
PYTHON = shlex.quote(sys.executable)

# A fake bot: answers `ready`, then per decision the next answer of its script (argv[1], comma separated):
# good (index 0), garbage, illegal, silent (no answer), late (the last index, after 0.5 s), action (the last legal
# action in record form, tickets in reverse order), overlong (a line of 200,000 bytes), spam (100,000 bytes of
# standard error, then good), deaf (stops reading and answering, alive), exit (ends the process); after the
# script, good.
FAKE = r'''
import json, sys, time
script = sys.argv[1].split(",") if len(sys.argv) > 1 else []
turn = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "fake"}), flush=True)
        continue
    if message["type"] == "end":
        print("end " + json.dumps(message["final"]["winners"]), file=sys.stderr, flush=True)
        break
    mode = script[turn] if turn < len(script) else "good"
    turn += 1
    if mode == "garbage":
        print("this is not json {", flush=True)
    elif mode == "illegal":
        print(json.dumps({"action": "claim_route", "route": "Nowhere-Atlantis", "cards": {"red": 1}}), flush=True)
    elif mode == "silent":
        continue
    elif mode == "late":
        time.sleep(0.5)
        print(json.dumps({"index": len(message["legal"]) - 1}), flush=True)
    elif mode == "action":
        action = dict(message["legal"][-1])
        if "tickets" in action:
            action["tickets"] = list(reversed(action["tickets"]))
        print(json.dumps(action), flush=True)
    elif mode == "overlong":
        print("x" * 200000, flush=True)
    elif mode == "spam":  # 100,000 bytes of standard error, then a good answer
        sys.stderr.write("e" * 100000)
        sys.stderr.flush()
        print(json.dumps({"index": 0}), flush=True)
    elif mode == "deaf":  # never reads its standard input again, nor answers
        time.sleep(3600)
    elif mode == "exit":
        sys.exit(0)
    else:
        print(json.dumps({"index": 0}), flush=True)
'''


@pytest.fixture
def fake(tmp_path: Path) -> str:
    path = tmp_path / "fake_bot.py"
    path.write_text(FAKE, encoding="utf-8")
    return f"{PYTHON} {shlex.quote(str(path))}"


def _play(map_name: str, bots: list[Any], seed: int = 1) -> Game:
    game = play_game(load_map(map_name), bots, seed=seed)
    end_bots(bots, game)
    return game


@pytest.mark.parametrize(("map_name", "players"), [("europe", 2), ("europe", 3), ("new_york", 2), ("new_york", 4)])
def test_whole_games_against_the_example_bot(map_name: str, players: int, tmp_path: Path) -> None:
    game_map = load_map(map_name)
    cmd = CmdBot(f"{PYTHON} {shlex.quote(str(EXAMPLE))}", game_map, 0, 3, log_dir=tmp_path)
    bots: list[Any] = [cmd] + [RandomBot(game_map, seat, 3) for seat in range(1, players)]
    game = _play(map_name, bots, seed=3)
    assert game.is_over
    report = cmd.report()
    assert report["failures"] == [] and report["replaced_by"] is None
    assert report["program"] == "simple_bot 1.0"
    stderr = Path(report["stderr_log"]).read_text(encoding="utf-8")
    assert f"seat 0 on {map_name}" in stderr and "game over" in stderr  # stderr kept; the end message arrived
    assert any(p == 0 and game.cat.kind[aid] == 4 for p, aid, _ in game.history)  # it claimed routes


def test_the_registry_knows_cmd_bots() -> None:
    game_map = load_map("new_york")
    bot = make_bot(f"cmd:{PYTHON} {shlex.quote(str(EXAMPLE))}", game_map, 1, 0)
    assert isinstance(bot, CmdBot)
    game = _play("new_york", [RandomBot(game_map, 0, 0), bot])
    assert game.is_over and bot.report()["failures"] == []


def test_garbage_illegal_and_silence_then_random_takes_over(fake: str, tmp_path: Path) -> None:
    game_map = load_map("new_york")
    bot = CmdBot(f"{fake} garbage,good,illegal,silent,good", game_map, 0, 5, time_per_move=0.05, log_dir=tmp_path)
    game = Game.new(game_map, 2, seed=5)
    firsts = []
    for _ in range(4):  # four decisions of seat 0 (the other seat plays the first legal action)
        while game.current != 0:
            game.apply(game.legal_actions()[0])
        legal = game.legal_actions()
        action = bot.choose(SeatView.of(game, 0), legal)
        assert action in legal
        firsts.append(action == legal[0])
        game.apply(action)
    assert len(bot.failures) == 3
    assert bot.failures[0].startswith("not JSON")
    assert bot.failures[1].startswith("malformed action")
    assert bot.failures[2].startswith("no answer within")
    assert bot.replaced and bot.report()["replaced_by"] == "random"
    assert firsts[0] and firsts[2] and firsts[3]  # failures play the first legal action
    # From now on the seat is `random` (with the bot's seed), and the program is gone.
    expected = RandomBot(game_map, 0, 5)
    while not game.is_over:
        legal = game.legal_actions()
        view = SeatView.of(game, game.current)
        if game.current == 0:
            action = bot.choose(view, legal)
            assert action == expected.choose(view, legal)
        else:
            action = legal[0]
        game.apply(action)
    end_bots([bot], game)


def seat_zero_decisions(bot: CmdBot, game: Game, count: int) -> list[tuple[Action, list[Action]]]:
    """`count` decisions of seat 0 by `bot` (the other seats play their first legal action): what it chose
    among which legal actions, each."""
    out = []
    for _ in range(count):
        while game.current != 0:
            game.apply(game.legal_actions()[0])
        legal = game.legal_actions()
        chosen = bot.choose(SeatView.of(game, 0), legal)
        out.append((chosen, legal))
        game.apply(chosen)
    return out


def test_an_overlong_line_is_one_malformed_answer(fake: str, tmp_path: Path) -> None:
    """A line past `MAX_LINE` bytes is not kept whole: it counts as one malformed answer, and the program's
    next answer is read as usual."""
    game_map = load_map("new_york")
    bot = CmdBot(f"{fake} overlong,good", game_map, 0, 5, time_per_move=2.0, log_dir=tmp_path)
    seat_zero_decisions(bot, Game.new(game_map, 2, seed=5), 2)
    assert bot.failures == [f"not JSON: <a line longer than {MAX_LINE} bytes>"]
    assert not bot.replaced
    bot.close()


def test_a_programs_standard_error_is_kept_up_to_a_limit(fake: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The log keeps `MAX_LOG` bytes and says where it stops; the program is not held up by what is dropped."""
    monkeypatch.setattr(cmd_bot, "MAX_LOG", 1000)
    game_map = load_map("new_york")
    bot = CmdBot(f"{fake} spam,spam", game_map, 0, 5, time_per_move=5.0, log_dir=tmp_path)
    assert all(chosen == legal[0] for chosen, legal in seat_zero_decisions(bot, Game.new(game_map, 2, seed=5), 2))
    bot.close()
    assert bot.failures == [] and bot.stderr_path is not None
    text = bot.stderr_path.read_text()
    assert text.startswith("e" * 1000) and text.endswith("[ttr: the log stops here, at 1000 bytes]\n")
    assert len(text) < 1100


def test_a_program_that_stops_reading_cannot_stall_the_game(fake: str, tmp_path: Path) -> None:
    """Late in a five-seat Europe game a view is about 27 KB: a program that no longer reads its input fills
    the pipe in two or three questions. Writing to it must not block: each question times out, and after 3
    failures `random` plays the seat and the program is killed."""
    game_map = load_map("europe")
    game = Game.new(game_map, 5, seed=1)
    bots = [make_bot("greedy", game_map, s, 1) for s in range(5)]
    while len(game.history) < 240:  # greedy plays until the views are large
        legal = game.legal_actions()
        game.apply(bots[game.current].choose(SeatView.of(game, game.current), legal))
    bot = CmdBot(f"{fake} deaf", game_map, game.current, 5, time_per_move=0.05, grace=0.05, log_dir=tmp_path)
    answers: list[Action] = []

    def ask_four_times() -> None:
        view, legal = SeatView.of(game, game.current), game.legal_actions()
        answers.extend(bot.choose(view, legal) for _ in range(4))

    asker = threading.Thread(target=ask_four_times, daemon=True)
    asker.start()
    asker.join(timeout=30)  # a hang, not a speed test
    assert not asker.is_alive(), "writing to a program that does not read blocked the game"
    assert len(answers) == 4 and bot.replaced and len(bot.failures) == 3
    assert all(f.startswith("no answer within") for f in bot.failures)


def test_answers_as_actions_and_late_answers(fake: str, tmp_path: Path) -> None:
    game_map = load_map("europe")
    bot = CmdBot(f"{fake} action,late,good,action", game_map, 0, 1, time_per_move=0.05, grace=0.2,
                 log_dir=tmp_path)
    game = Game.new(game_map, 2, seed=1)
    legal = game.legal_actions()  # the setup ticket choice: keep all four, named in reverse order
    assert bot.choose(SeatView.of(game, 0), legal) == legal[-1]
    game.apply(legal[-1])
    game.apply(game.legal_actions()[0])
    legal = game.legal_actions()
    assert bot.choose(SeatView.of(game, 0), legal) == legal[0]  # too late: the first legal action
    assert bot.failures and bot.failures[0].startswith("no answer within")
    game.apply(legal[0])
    legal = game.legal_actions()
    time.sleep(0.7)  # the late answer arrives before the next question: it is dropped, the next one is read
    assert bot.choose(SeatView.of(game, game.current), legal) == legal[0]
    assert len(bot.failures) == 1 and not bot.replaced
    bot.close()


def test_a_program_that_exits_or_cannot_start(fake: str, tmp_path: Path) -> None:
    game_map = load_map("new_york")
    exits = CmdBot(f"{fake} good,exit", game_map, 0, 2, time_per_move=0.05, log_dir=tmp_path)
    game = _play("new_york", [exits, RandomBot(game_map, 1, 2)], seed=2)
    assert game.is_over and exits.replaced
    assert exits.failures == ["the program has exited"] * 3
    missing = CmdBot("/nonexistent/bot --x", game_map, 1, 2, log_dir=tmp_path)
    game = _play("new_york", [RandomBot(game_map, 0, 2), missing], seed=2)
    assert game.is_over and missing.replaced and missing.failures == ["the program did not start"]


def test_the_end_message_carries_the_final_breakdown(fake: str, tmp_path: Path) -> None:
    game_map = load_map("new_york")
    bot = CmdBot(fake, game_map, 1, 0, time_per_move=0.5, log_dir=tmp_path)
    game = _play("new_york", [RandomBot(game_map, 0, 0), bot])
    assert not bot.failures
    winners = final_score(game).to_json()["winners"]
    stderr = Path(bot.report()["stderr_log"]).read_text(encoding="utf-8")
    assert stderr.strip() == "end " + json.dumps(winners)


def test_example_bot_answers_by_index() -> None:
    import subprocess

    hello = {"type": "hello", "protocol": "ttr-bot/1", "map": "europe", "seat": 0, "players": ["A", "B"],
             "time_per_move": 1}
    legal = [Action("draw_card", source="face_up", card="red").to_json(), Action("draw_card", source="deck").to_json(),
             {"action": "claim_route", "route": "A-B", "cards": {"red": 2}},
             {"action": "claim_route", "route": "A-C", "cards": {"red": 3}}]
    lines = [json.dumps(hello), json.dumps({"type": "decide", "view": {}, "legal": legal}),
             json.dumps({"type": "decide", "view": {}, "legal": legal[:2]})]
    out = subprocess.run([sys.executable, str(EXAMPLE)], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=30, check=True).stdout.splitlines()
    assert json.loads(out[0])["type"] == "ready"
    assert json.loads(out[1]) == {"index": 3}  # the longest claim
    assert json.loads(out[2]) == {"index": 1}  # else a blind draw
