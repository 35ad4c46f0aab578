"""Test world pack `packdemo`: the init rule.

Counts its own runs in `world_state` (so a test can see it ran exactly once), records the tick index
it ran at, and puts three shells on the spawn area's ground (so the first observation shows it ran
before that observation was built). Imports only the rule framework and the world core.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseInitRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext

SHELL = "obj_demo_shell"  # content of this test world (tests/data may name its own ids)
SHELLS = 3


class DemoOpening(BaseInitRule):
    name = "packdemo_opening"
    description = "Seeds world_state and scatters shells on the pier."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game = ctx.game
        game.set_world_state("init_runs", game.world_state.get("init_runs", 0) + 1, res)
        game.set_world_state("init_tick", ctx.step_index, res)
        ctx.world.spawn_on_ground(ctx.world.spawn_area, SHELL, SHELLS)
