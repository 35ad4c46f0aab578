"""agentodyssey_pz: the AgentOdyssey open-world text game as a PettingZoo multi-agent environment.

import agentodyssey_pz
env = agentodyssey_pz.parallel_env(world="default", num_agents=3)
observations, infos = env.reset(seed=0)
"""

from __future__ import annotations

from agentodyssey_pz.adapter.aec import env, raw_env
from agentodyssey_pz.adapter.config import EnvConfig, make_config
from agentodyssey_pz.adapter.parallel import AgentOdysseyParallelEnv, parallel_env
from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.worldpack import load_world_pack as load_world
from agentodyssey_pz.world.validate import load_definition
from agentodyssey_pz.world.world import World

__version__ = "0.1.0"

__all__ = [
    "AgentOdysseyParallelEnv",
    "EnvConfig",
    "Game",
    "GameConfig",
    "World",
    "__version__",
    "env",
    "load_definition",
    "load_world",
    "make_config",
    "parallel_env",
    "raw_env",
]
