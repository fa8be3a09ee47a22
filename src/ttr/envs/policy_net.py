"""A trained policy as plain numpy: an MLP from the observation vector to masked action logits.

The file is a numpy `.npz` (`PolicyNet.save` / `PolicyNet.load`), so playing a policy needs numpy alone
(training it needs torch, `ttr.envs.ppo`). Keys:

- `meta`: a JSON object (UTF-8 bytes): `format` (`ttr-policy-1`), `map`, `players`, `obs_size`,
  `num_actions`, `hidden` (the hidden layer sizes), `activation` (`tanh`), and `training` (how it was
  trained: free-form, for the reader);
- `scale`: float32 (obs_size,), the observation is multiplied by it first (1 / the observation space's high);
- `hidden{i}.weight` (out, in) and `hidden{i}.bias` (out,), one pair per hidden layer, then `actor.weight`
  (num_actions, last hidden) and `actor.bias`; stored as float16, computed in float32.

Logits of illegal actions are set to -inf before the argmax or the sample.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "ttr-policy-1"


class PolicyNet:
    """An MLP policy: `act(observation, mask)` gives a legal action id (argmax, or sampled with an rng)."""

    def __init__(self, meta: dict[str, Any], scale: np.ndarray, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        if meta.get("format") != FORMAT:
            raise ValueError(f"not a ttr policy (format {meta.get('format')!r}, expected {FORMAT!r})")
        self.meta = meta
        self.scale = scale.astype(np.float32)
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        size = self.scale.shape[0]
        for w, b in self.layers:
            if w.shape[1] != size or b.shape != (w.shape[0],):
                raise ValueError(f"policy layers do not fit: {w.shape} after {size} inputs")
            size = w.shape[0]
        if self.scale.shape != (meta["obs_size"],) or size != meta["num_actions"]:
            raise ValueError("policy sizes do not match its meta data")

    @property
    def map_name(self) -> str:
        """The map the policy was trained on."""
        return str(self.meta["map"])

    @property
    def players(self) -> int:
        """The player count it was trained for."""
        return int(self.meta["players"])

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The action logits (before masking) of one observation vector, or of a batch (N, obs_size)."""
        x = observation.astype(np.float32) * self.scale
        for w, b in self.layers[:-1]:
            x = np.tanh(x @ w.T + b)
        w, b = self.layers[-1]
        out: np.ndarray = x @ w.T + b
        return out

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """A legal action id: the most likely one, or one sampled from the masked softmax when `rng` is given."""
        legal = np.flatnonzero(mask)
        if not legal.size:
            raise ValueError("no legal action in the mask")
        logits = self.logits(observation)[legal]
        if rng is None:
            return int(legal[int(np.argmax(logits))])
        p = np.exp(logits - logits.max())
        return int(legal[int(rng.choice(legal.size, p=p / p.sum()))])

    def save(self, path: str | Path) -> None:
        """Write the policy to an `.npz` file (float16 weights)."""
        arrays: dict[str, np.ndarray] = {
            "meta": np.frombuffer(json.dumps(self.meta, sort_keys=True).encode(), np.uint8),
            "scale": self.scale,
        }
        for i, (w, b) in enumerate(self.layers):
            name = "actor" if i == len(self.layers) - 1 else f"hidden{i}"
            arrays[f"{name}.weight"] = w.astype(np.float16)
            arrays[f"{name}.bias"] = b.astype(np.float16)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]  # numpy's stub wants positional arrays
        Path(path).write_bytes(buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> PolicyNet:
        """Read a policy written by `save`; `ValueError` naming the problem if it is not one."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                count = sum(1 for k in data.files if k.startswith("hidden") and k.endswith(".weight"))
                layers = [(data[f"hidden{i}.weight"], data[f"hidden{i}.bias"]) for i in range(count)]
                layers.append((data["actor.weight"], data["actor.bias"]))
                scale = data["scale"]
        except (OSError, KeyError, ValueError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not a readable ttr policy file ({exc})") from None
        return cls(meta, scale, layers)


__all__ = ["FORMAT", "PolicyNet"]
