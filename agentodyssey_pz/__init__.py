"""agentodyssey_pz: the AgentOdyssey open-world text game as a PettingZoo multi-agent environment."""

from __future__ import annotations

from agentodyssey_pz.world.validate import load_definition
from agentodyssey_pz.world.world import World

__version__ = "0.1.0"

__all__ = ["World", "__version__", "load_definition"]
