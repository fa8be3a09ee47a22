"""Environments for learning agents: PettingZoo (`aec_env`), Gymnasium (`gym_env`, batched: `vector_env`),
OpenSpiel (`ttr.envs.openspiel`).

Needs the `envs` extra (`pip install 'ttr-game[envs]'`); the OpenSpiel game needs `ttr[openspiel]`. The action and
observation layouts are in docs/envs.md.
"""

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"ttr.envs needs the envs extra: pip install 'ttr-game[envs]' ({exc})") from None

from ttr.envs.aec import TicketToRideAEC, aec_env
from ttr.envs.core import EnvCore
from ttr.envs.gym_env import TicketToRideGym, gym_env
from ttr.envs.observation import ObservationEncoder
from ttr.envs.vector import TicketToRideVector, vector_env

GYM_ID = "ttr/TicketToRide-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="ttr.envs.gym_env:TicketToRideGym",
                       vector_entry_point="ttr.envs.vector:TicketToRideVector")

__all__ = ["GYM_ID", "EnvCore", "ObservationEncoder", "TicketToRideAEC", "TicketToRideGym", "TicketToRideVector",
           "aec_env", "gym_env", "vector_env"]
