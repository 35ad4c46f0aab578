"""`ScriptedPolicy`: the policy shell around a planner that reads the game state.

Policies layer. A scripted policy is bound to an env and an agent (`bind`), makes a fresh planner
for every episode (a new world object means a new episode, a reset or a resumed game), tells the
planner whether its last command took effect (`info["action_ok"]`) and answers the planner's next
text command. A planner that is stuck gets a detour (exploration) instead of raising: a policy
never fails an evaluation run. In a tutorial room, the policy does what the tutorial says.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from agentodyssey_pz.policies.base import Action, BasePolicy
from agentodyssey_pz.policies.mechanics import base_pack
from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import WAIT, Stuck

QUOTED = re.compile(r"`([^`]+)`")  # a command quoted in an instruction


class ScriptedPolicy(BasePolicy):
    """Base of the bundled scripted policies; subclasses name their planner and component."""

    planner_class: ClassVar[type[Planner]] = Planner
    components: ClassVar[tuple[str, ...]] = ()  # the reward components this policy goes for

    def __init__(self) -> None:
        super().__init__()
        self.planner: Planner | None = None
        self._world: Any = None
        self._tick = -1

    def bind(self, env: Any, agent_id: str, seed: int) -> None:
        super().bind(env, agent_id, seed)
        self.planner = None

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        if self.env is None or self.agent_id is None:
            raise RuntimeError(f"{self.name}: call bind(env, agent_id, seed) before acting")
        game = self.game
        planner = self.planner
        if planner is None or self._world is not game.world or game.tick_index < self._tick:
            planner = self.planner = self.planner_class(game, self.agent_id)
            self._world = game.world
        else:
            planner.observe_info(info)
        self._tick = game.tick_index
        lesson = self.tutorial_command()
        if lesson is not None:
            return lesson
        try:
            return planner.command()
        except Stuck:
            planner.detour()  # explore for a while, then try the goal again
        try:
            return planner.command()
        except Stuck:
            return WAIT

    def tutorial_command(self) -> str | None:
        return tutorial_command(self.game, self.me)


def tutorial_command(game: Any, agent: Any) -> str | None:
    """In the tutorial room: the command its current instruction names, else None. Our
    instructions end in the command after a colon ("... I pick it up: pick up creel_0"), maybe
    followed by an alternative in parentheses; AgentOdyssey's put it in backticks (`pick up
    bag_1`). The planners know only the open world."""
    if agent.tutorial_passed:
        return None
    lessons = base_pack(game)("steps.tutorial_room")
    instruction = lessons.current_instruction(game, agent)
    if instruction is None:
        return None
    quoted = QUOTED.findall(instruction)
    if quoted:
        return quoted[-1].strip() or None
    if ": " not in instruction:
        return None
    return instruction.rsplit(": ", 1)[-1].split(" (", 1)[0].strip() or None
