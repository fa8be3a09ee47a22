"""The whole suite's pytest settings: the `full` marker behind `scripts/test --quick`, the longest test files
first, and a summary of the skipped tests grouped by reason.

`scripts/test --quick` runs `-m "not full"`: the engine, rules, records, bots and unit tests. `full` marks
the folders of the browser game, the server, the learning environments and the simulations (`FULL_FOLDERS`)
and a few files in the other folders (`FULL_FILES`: the compiled build, the scripts, tournaments, hints).
Under `-m "not full"` the `FULL_FOLDERS` are not collected at all (`pytest_ignore_collect`).

`scripts/test` runs pytest with `--dist loadgroup --no-loadscope-reorder`: the workers take units of work in
collection order, each when it is nearly done with the last. Under that option `LONG_TESTS` (the slowest tests,
slowest first) are collected first, each test its own unit (or a whole file, where the entry is a file), so
they start at once and spread over the workers; every other file is one unit after them, the `full` files
first and the short tests of the quick folders last, each in its usual order, so a module's server is set up
once and the workers run out of work at nearly the same time.
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


# The slowest tests, slowest first (relative durations of a whole run): a `file::test` entry makes that test (each
# of its parameters) a unit of its own; a file entry keeps the file one unit (its module fixtures set up once)
# and moves it to the front. A test that becomes slow belongs here; one that no longer is can leave.
LONG_TESTS = (
    "sim/test_sim_report.py",  # three reports over one module-scoped simulation
    "sim/test_simulate.py::test_ctrl_c_keeps_the_finished_games_and_a_rerun_completes_the_same_table",
    "bots/test_compiled.py",  # builds the compiled engine, then plays the same games on both builds
    "server/test_cluster.py",
    "envs/test_policy.py::test_a_short_ppo_run_trains_and_saves_a_playable_policy",
    "envs/test_train_nfsp_script.py::test_a_short_nfsp_run_learns_and_plays_on_paired_deals",
    "sim/test_sim_ray.py",  # starting a local Ray instance
    "web/test_review.py",
    "sim/test_tournament.py::test_an_interrupted_tournament_keeps_its_games_and_the_same_command_continues",
    "server/test_clock_restart.py::test_a_restart_resumes_each_clock",
    "server/test_online_cluster.py",
    "server/test_kept_bots.py::test_a_served_game_of_bots_is_the_tournament_game_of_the_same_seed",
    "web/test_editor.py::test_build_check_fix_save_play_and_simulate",
    "web/test_online_flow.py",
    "web/test_pass_and_play.py::test_pass_and_play_to_the_end",
    "web/test_lobby.py::test_game_and_replay_errors_in_the_pages_language",
    "engine/test_properties.py::test_hypothesis_chosen_europe_games_keep_every_invariant",
    "web/test_full_game.py::test_europe_to_the_end_with_the_express_path",
    "server/test_bots_and_leaving.py::test_process_pool_plays_like_the_bot_in_process",
    "web/test_accounts_page.py::test_a_guest_registers_keeps_the_game_and_opens_it_elsewhere",
    "server/test_deploy.py::test_json_log_lines",
    "engine/test_properties.py::test_hundreds_of_random_games_per_map",
    "web/test_lobby.py::test_language_follows_the_browser_and_switches",
    "web/test_ticket_map.py::test_the_hint_draws_its_move_and_names_its_ticket",
    "server/test_defences.py::test_a_hint_does_not_hold_up_the_sockets_other_messages",
    "web/test_clock_page.py::test_a_clock_runs_out_and_the_hidden_tab_is_told_of_its_turn",
    "web/test_board_view.py::test_the_hand_and_the_draw_stay_on_screen_in_a_bar",
    "web/test_tutorial.py::test_the_guided_first_game_to_its_end",
    "server/test_ws_fuzz.py::test_random_messages_never_break_the_server",
    "server/test_no_leak.py::test_no_message_leaks_hidden_information",
    "server/test_restart.py",
    "web/test_full_game.py::test_new_york_to_the_end_then_replay_and_record",
    "bots/test_tracking.py::test_tracked_worlds_show_exactly_what_the_seat_has_seen",
    "bots/test_tracking.py::test_against_the_modelled_policy_the_weight_gathers_on_the_other_seats_real_tickets",
    "server/test_bots_and_leaving.py::test_bots_only_game_finishes_with_the_process_pool",
    "web/test_motion.py::test_a_confirmed_claim_can_be_changed_before_it_is_sent",
    "web/test_open_games_page.py",
    "bots/test_hint.py::test_the_default_hint_is_the_expert_search_and_the_same_every_time",
    "web/test_board_view.py::test_text_is_readable_at_the_default_zoom",
    "web/test_board_labels.py::test_names_clear_the_routes_in_the_browser",
    "bots/test_blocking.py::test_the_search_adds_the_worlds_blocking_claim",
    "envs/test_openspiel.py::test_pyspiel_random_sim_test",
    "bots/test_bench_review_script.py::test_random_moves_put_in_are_among_the_costliest",
    "bots/test_inference.py::test_replaying_the_claims_deals_the_other_seats_real_tickets_far_more_often",
    "bots/test_mcts.py::test_tiny_mcts_plays_legal_games_reproducibly",
)


def long_rank(suite_test: str) -> tuple[int, bool]:
    """Where the test `suite_test` (relative to tests/, e.g. "web/test_x.py::test_y[a]") stands in `LONG_TESTS`
    (its length where it is not there), and whether it is a unit of its own (a `file::test` entry)."""
    file, _, name = suite_test.partition("::")
    for rank, entry in enumerate(LONG_TESTS):
        entry_file, _, entry_test = entry.partition("::")
        if entry_file != file:
            continue
        if not entry_test:
            return rank, False
        if name == entry_test or name.startswith(entry_test + "["):
            return rank, True
    return len(LONG_TESTS), False


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


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under `-m "not full"` (`scripts/test --quick`) the folders of `FULL_FOLDERS` are not collected at all:
    every test in them would be deselected, and importing their modules (the server, browser and learning
    libraries, every assert rewritten) costs each worker more CPU than collecting the quick suite."""
    if config.getoption("markexpr", default="") != "not full":
        return None
    try:
        parts = collection_path.resolve().relative_to(TESTS).parts
    except ValueError:
        return None
    return True if parts and parts[0] in FULL_FOLDERS else None


def suite_id(item: pytest.Item) -> str:
    """The item's id relative to tests/ ("web/test_x.py::test_y[a]"; its own id outside tests/)."""
    try:
        file = item.path.resolve().relative_to(TESTS).as_posix()
    except ValueError:
        return item.nodeid
    return file + "::" + item.nodeid.partition("::")[2]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of `FULL_FOLDERS` and `FULL_FILES` as `full`; under `--dist loadgroup`, the slowest
    tests first (`LONG_TESTS`), and every other test grouped with its file."""
    for item in items:
        if is_full(item.path):
            item.add_marker(pytest.mark.full)
    if config.getoption("dist", default="no") != "loadgroup":
        return
    ranks = {id(item): long_rank(suite_id(item)) for item in items}
    for item in items:
        if not ranks[id(item)][1]:
            item.add_marker(pytest.mark.xdist_group(suite_id(item).partition("::")[0]))
    # then the files of the full suite (fewer, longer tests), and last the many short tests of the rest, which
    # share out evenly at the end; stable: each file's tests keep their order
    items.sort(key=lambda item: (ranks[id(item)][0], not item.get_closest_marker("full")))


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
