"""The batched environment: Gymnasium's vector conventions, masks after same-step autoreset, per-row seeds."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv

from ttr.envs import GYM_ID, TicketToRideVector, gym_env, vector_env
from ttr.errors import IllegalActionError


def masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def test_it_is_a_gymnasium_vector_env_made_by_make_vec() -> None:
    env = gymnasium.make_vec(GYM_ID, num_envs=3, map_name="new_york", num_players=3, opponents="random")
    assert isinstance(env, TicketToRideVector) and isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    single = gym_env("new_york", 3, opponents="random")
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.action_space == gymnasium.spaces.MultiDiscrete([single.action_space.n] * 3)
    obs, info = env.reset(seed=0)
    assert info == {}
    assert obs["observation"].shape == (3, single.encoder.size) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (3, single.core.num_actions) and obs["action_mask"].dtype == np.int8
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, rewards, terminated, truncated, _ = env.step(masked_random(obs["action_mask"], rng))
        assert env.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (3,)
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
    env.close()


def test_rows_play_what_gymnasiums_same_step_sync_vector_env_plays() -> None:
    """Same seeds, same actions: the native batch and Gymnasium's generic one give the same data."""
    native = vector_env(3, "new_york", 2, opponents="random")
    generic = SyncVectorEnv([lambda: gym_env("new_york", 2, opponents="random") for _ in range(3)],
                            autoreset_mode=AutoresetMode.SAME_STEP)
    obs, _ = native.reset(seed=11)
    other, _ = generic.reset(seed=11)
    assert data_equivalence(obs, other)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(150):
        actions = masked_random(obs["action_mask"], rng)
        obs, rewards, terminated, truncated, infos = native.step(actions)
        other, rewards2, terminated2, truncated2, infos2 = generic.step(actions)
        assert data_equivalence((obs, rewards, terminated, truncated), (other, rewards2, terminated2, truncated2))
        if terminated.any():
            ends += int(terminated.sum())
            assert (infos["_final_obs"] == infos2["_final_obs"]).all()
            for i in np.flatnonzero(infos["_final_obs"]):
                assert data_equivalence(infos["final_obs"][i], infos2["final_obs"][i])
    assert ends >= 3


def test_masks_stay_valid_through_many_episode_ends() -> None:
    env = vector_env(4, "new_york", 2, opponents="random")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    ends = 0
    rewards_at_end: list[float] = []
    for _ in range(400):
        masks = obs["action_mask"]
        assert (masks.sum(axis=1) >= 1).all()  # a masked policy always has a legal move
        assert (env.action_masks() == masks.astype(bool)).all()
        obs, rewards, terminated, truncated, infos = env.step(masked_random(masks, rng))
        done = terminated | truncated
        assert (rewards[~done] == 0).all()
        for i in np.flatnonzero(done):
            ends += 1
            rewards_at_end.append(float(rewards[i]))
            final = infos["final_obs"][i]
            assert not final["action_mask"].any()  # the finished game: nothing legal
            assert env.envs[i].steps == 0  # the row already holds the next game
        # every row's mask is exactly the legal ids of its game now
        for i, single in enumerate(env.envs):
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == single.core.legal_ids()
    assert ends >= 10
    assert set(rewards_at_end) <= {1.0, -1.0} and len(set(rewards_at_end)) == 2


def test_per_row_seeds_reproduce_the_games() -> None:
    def run(seed: int | list[int | None]) -> list[bytes]:
        env = vector_env(2, "europe", 2, opponents="random")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = [obs["observation"].tobytes()]
        for _ in range(60):
            obs, *_ = env.step(masked_random(obs["action_mask"], rng))
            seen.append(obs["observation"].tobytes())
        return seen

    assert run(5) == run([5, 6])
    assert run(5) != run([6, 7])
    same = vector_env(2, "europe", 2, opponents="random")
    obs, _ = same.reset(seed=[9, 9])
    assert (obs["observation"][0] == obs["observation"][1]).all()
    single, _ = gym_env("europe", 2, opponents="random").reset(seed=9)
    assert (single["observation"] == obs["observation"][0]).all()


def test_an_illegal_action_raises_and_no_game_moves() -> None:
    env = vector_env(2, "new_york", 2, opponents="random")
    obs, _ = env.reset(seed=0)
    legal = int(np.flatnonzero(obs["action_mask"][0])[0])
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="sub-environment 1"):
        env.step(np.array([legal, illegal]))
    assert [len(e.core.game.history) for e in env.envs] == [0, 0]
    with pytest.raises(ValueError, match="2 integer action ids"):
        env.step(np.array([legal]))
    with pytest.raises(ValueError, match="one seed per sub-environment"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="num_envs"):
        vector_env(0, "new_york", 2)


def test_gymnasiums_episode_statistics_wrapper_reads_its_same_step_autoreset() -> None:
    """Gymnasium's own vector wrapper, told the autoreset mode by the metadata, counts every row's episodes
    as the rows played them."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(vector_env(3, "new_york", 2, opponents="random"))
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(2)
    returns, lengths, ended = np.zeros(3), np.zeros(3, int), 0
    while ended < 6:
        obs, rewards, terminated, truncated, infos = env.step(masked_random(obs["action_mask"], rng))
        returns += rewards
        lengths += 1
        done = terminated | truncated
        if done.any():
            assert (infos["_episode"] == done).all()
            for i in np.flatnonzero(done):
                assert infos["episode"]["r"][i] == pytest.approx(returns[i])
                assert infos["episode"]["l"][i] == lengths[i]
                assert obs["action_mask"][i].any()  # the next game's first mask, in the same step
            returns[done], lengths[done] = 0.0, 0
            ended += int(done.sum())
    assert len(env.return_queue) == ended
    env.close()
