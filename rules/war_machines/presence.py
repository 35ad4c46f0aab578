"""`united_presence_step` (priority 1) and `tactical_warning_step` (priority 4): standing together.

Rule pack `war_machines`; AgentOdyssey's robot_kingdom.

`united_presence_step`: living agents are grouped by area (agent order); an area with 2 or more
is "co-located". Every agent not co-located with a recorded bonus above 0 loses it (`defense =
max(0, defense - bonus)`, a line, bonus 0). Every co-located agent's bonus becomes `2 x (agents
there - 1)` (setting `per_ally`): when it differs from the recorded one, `defense = max(0, defense
+ new - old)`, recorded, a line. Then hesitation, per co-located area: for each agent there (agent
order), each of its fights recorded in this area with a living enemy that has a pattern, once per
NPC: its rhythm index moves on by one (modulo the pattern), the same index is copied into the other
co-located agents' fights with that NPC, lines to everyone there; event
`united_presence_hesitation {area_id, hesitated_npcs, agent_ids}`. Running every tick, an NPC
fighting co-located agents skips every other pattern action. A death sets defense to 0 but keeps
the record, so the later removal stops at 0 (as published). The bonus lives in each agent's record
(common.py, `presence_bonus`).

`tactical_warning_step`: per living agent with fights, the friendly NPCs of its area (non-enemy,
not guides, setting `guides`; area order); for each fight recorded in this area with a living NPC
that has a pattern, the next action `pattern[index % len]`: for each friendly NPC in order, one
`random()` above `chance` (0.3) passes to the next friendly; otherwise a `choice` among three
warnings for that action, a line, event `tactical_warning {ally_npc_id, enemy_npc_id,
predicted_action, area_id}` (the agent's), and no more warnings about this enemy. An action
without warnings (none but attack, defend and wait exist) is passed over without a draw.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.world.agents import AgentState

from .common import GUIDE_DEFINITIONS, PRESENCE, STATE_KEY, friendly_npcs, peek, record

WARNINGS = {
    "attack": (
        '{ally} shouts: "Look out, {enemy} is winding up to strike!"',
        '{ally} calls: "{enemy}\'s pistons are charging. It will attack next!"',
        '{ally} cries: "Brace! {enemy} is about to hit you!"',
    ),
    "defend": (
        '{ally} shouts: "{enemy} is locking its plates. It will defend next!"',
        '{ally} calls: "Hold your blow, {enemy} is raising its guard!"',
        '{ally} cries: "{enemy} is bracing. A strike now would glance off!"',
    ),
    "wait": (
        '{ally} shouts: "{enemy} is stalling. Strike now!"',
        '{ally} calls: "{enemy}\'s gears are grinding to a halt. Your opening!"',
        '{ally} cries: "{enemy} hesitates. Hit it while it waits!"',
    ),
}


class UnitedPresence(BaseStepRule):
    name = "united_presence_step"
    priority = 1
    description = "Agents together gain defense; enemies fighting them hesitate (skip an action)."
    settings = {"per_ally": 2}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game = ctx.game
        agents = game.agents.values()
        groups: dict[str, list[AgentState]] = {}  # living agents by area, in agent order
        for agent in agents:
            if agent.hp > 0:
                members = groups.get(agent.area_id)
                if members is None:
                    groups[agent.area_id] = [agent]
                else:
                    members.append(agent)
        for agent in agents:
            mine = agent.progress.get(STATE_KEY)
            old = mine.get(PRESENCE, 0) if mine else 0
            if old > 0 and (agent.hp <= 0 or len(groups[agent.area_id]) < 2):  # not together
                agent.defense = max(0, agent.defense - old)
                mine[PRESENCE] = 0
                res.say(agent.id, "presence.lost", f"Alone again, I lose {old} defense.")
        if len(groups) == len(game.agents):
            return  # everyone alone (or dead): nobody stands together
        for area_id, members in groups.items():
            if len(members) < 2:
                continue
            new = self.settings["per_ally"] * (len(members) - 1)
            for agent in members:
                old = peek(agent, PRESENCE, 0)
                if new != old:
                    agent.defense = max(0, agent.defense + new - old)
                    record(agent)[PRESENCE] = new
                    res.say(
                        agent.id,
                        "presence.bonus",
                        f"Standing with {len(members) - 1} other(s), my defense bonus is {new}.",
                    )
            self._hesitate(ctx, res, area_id, members)

    @staticmethod
    def _hesitate(ctx: RuleContext, res: RuleResult, area_id: str, members: list) -> None:
        npcs = ctx.world.npcs
        here = ctx.world.areas[area_id].npcs
        done: list[str] = []
        for agent in members:
            for npc_id, engagement in agent.combats.items():
                npc = npcs.get(npc_id)
                if npc_id in done or engagement.area_id != area_id or npc is None:
                    continue
                if not npc.enemy or npc.hp <= 0 or not npc.combat_pattern or npc_id not in here:
                    continue
                index = (engagement.rhythm_index + 1) % len(npc.combat_pattern)
                engagement.rhythm_index = index
                for other in members:
                    theirs = other.combats.get(npc_id)
                    if other is not agent and theirs is not None:
                        theirs.rhythm_index = index
                done.append(npc_id)
        if not done:
            return
        names = ", ".join(npcs[n].name for n in done)
        for agent in members:
            res.say(agent.id, "presence.hesitation", f"Facing us together, {names} hesitate(s).")
        res.emit(
            "united_presence_hesitation",
            WORLD_AGENT,
            {"area_id": area_id, "hesitated_npcs": done, "agent_ids": [a.id for a in members]},
        )


class TacticalWarning(BaseStepRule):
    name = "tactical_warning_step"
    priority = 4
    description = "Friendly NPCs near a fight may shout the enemy's next move."
    settings = {"chance": 0.3, "guides": list(GUIDE_DEFINITIONS)}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        rng, chance = game.rng, self.settings["chance"]
        npcs = world.npcs
        for agent in game.agents.values():
            if agent.hp <= 0 or not agent.combats:
                continue
            here = agent.area_id
            friends = friendly_npcs(world, here, self.settings["guides"])
            if not friends:
                continue
            present = world.areas[here].npcs
            for npc_id, engagement in agent.combats.items():
                npc = npcs.get(npc_id)
                if engagement.area_id != here or npc is None or npc.hp <= 0:
                    continue
                if not npc.combat_pattern or npc_id not in present:
                    continue
                pattern = npc.combat_pattern
                action = pattern[engagement.rhythm_index % len(pattern)]
                lines = WARNINGS.get(action)
                if lines is None:
                    continue
                for friend in friends:
                    if rng.random() > chance:
                        continue
                    text = rng.choice(lines).format(ally=friend.name, enemy=npc.name)
                    res.say(agent.id, "warning.shout", text)
                    res.emit(
                        "tactical_warning",
                        agent.id,
                        {
                            "ally_npc_id": friend.id,
                            "enemy_npc_id": npc.id,
                            "predicted_action": action,
                            "area_id": here,
                        },
                    )
                    break
