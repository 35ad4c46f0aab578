"""quarantine's last fight: the test solver with a team tactic against the tyrant.

Test helper for tests/published/test_walkthrough.py (the quarantine case). `QuarantineSolver` is
the test solver (`quest_solver.QuestSolver`, the quester's planner) for every goal but the last;
at the last goal (the tyrant dead, the serum left in the reactor area with both agents there) it
fights the tyrant with these tactics, commands only, through `Game.tick`:

* gear: a weapon if I have none (`get_weapon`); HERB_STOCK herbs (the best healers first: blue,
  red, green) picked up where they lie, on my way (in the tyrant's area I take only the herbs lying
  there, and only when I am short of a pair);
* both together: each walks to the tyrant's area, heals there to READY_SHARE of its health and
  waits (MAX_WAIT ticks at most) until every teammate still at that goal stands there healed (or
  without a pair of herbs to heal with); then all strike in the same tick, each in its own rhythm
  with the tyrant;
* the rhythm: `defend` on the tyrant's attack beats (a tenth of its blow), strike on its defend
  and wait beats, and drink a concoction (`concoct`, the outbreak pack's verb) on a defend beat
  when the pair's potency fits the health missing, or on any beat that is not an attack beat when
  the next run of attack beats could kill;
* once the tyrant is dead, the quester's own plan for the goal: the serum carried to the reactor
  area and dropped when the teammates stand there (`put_on_ground`, `wait_for_mates_in_place`).

It names the quest's variables (`ch2_tyrant_npc`) and the pack's verb and herbs (read from the
`concoct` rule's settings); nothing else of the game's content.
"""

from __future__ import annotations

from typing import Any

from quest_solver import QuestSolver

from agentodyssey_pz.policies.planning import WAIT, Plan, Stuck
from agentodyssey_pz.world.agents import possession

TYRANT_VAR = "ch2_tyrant_npc"  # the quest variable naming the last fight's enemy
CONCOCT = "concoct"
HERB_STOCK = 12  # herbs each agent carries into the fight
READY_SHARE = 0.9  # health share at which an agent is ready to start the fight
MAX_WAIT = 150  # ticks waited in the tyrant's area for teammates before striking anyway
ATTACK, DEFEND = "attack", "defend"


class QuarantineSolver(QuestSolver):
    """The test solver, with a team fight against quarantine's tyrant (module docstring)."""

    waited = 0

    # ------------------------------------------------------------------ herbs
    def concoct_rule(self) -> Any:
        return self.game.engine.rules[CONCOCT]

    def herbs(self) -> list[str]:
        return list(self.concoct_rule().settings["herbs"])

    def herb_count(self) -> int:
        return sum(self.have(h) for h in self.herbs())

    def best_pair(self, missing: int, *, fit: bool) -> tuple[str, str, int] | None:
        """The pair of carried herbs to drink: with `fit`, the strongest whose potency does not
        exceed the health missing (none wasted); else the strongest."""
        rule, herbs = self.concoct_rule(), self.herbs()
        options = []
        for i, h1 in enumerate(herbs):
            for j in range(i, len(herbs)):
                h2 = herbs[j]
                if self.have(h1) < (2 if i == j else 1) or not self.have(h2):
                    continue
                potency = rule.potency(i, j)
                if fit and potency > missing:
                    continue
                options.append((potency, h1, h2))
        if not options:
            return None
        potency, h1, h2 = max(options)
        return h1, h2, potency

    def can_heal(self, body: Any) -> bool:
        """Whether an agent carries a pair of herbs (it heals itself before it is ready)."""
        held = possession(self.world, body)
        return sum(held.get(h, 0) for h in self.herbs()) >= 2

    def concoct(self, h1: str, h2: str) -> str:
        names = self.world.objects
        return f"{CONCOCT} {names[h1].name} {names[h2].name}"

    def stock_herbs(self) -> Plan:
        """Carry HERB_STOCK herbs, the best healers first, from where they lie."""
        for herb in reversed(self.herbs()):  # blue, red, green
            short = HERB_STOCK - self.herb_count()
            if short <= 0:
                return
            lying = sum(
                area.objects.get(herb, 0)
                for area in self.world.areas.values()
                if self.distance(area.id) < 10**6
            )
            take = min(short, lying)
            if take > 0:
                try:
                    yield from self.obtain(herb, self.have(herb) + take)
                except Stuck:
                    continue

    def heal_up(self, share: float) -> Plan:
        """Outside a fight: drink concoctions while my health is below `share` of its maximum."""
        agent = self.agent
        while agent.hp < agent.max_hp * share:
            pair = self.best_pair(agent.max_hp - agent.hp, fit=True) or self.best_pair(0, fit=False)
            if pair is None:
                return
            yield self.concoct(pair[0], pair[1])
            if not self.ok():
                return

    # ------------------------------------------------------------------ the fight
    def achieve(self, stage: Any) -> Plan:
        tyrant = self.variables.get(TYRANT_VAR)
        npc = self.world.npcs.get(tyrant) if tyrant else None
        if npc is None or npc.hp <= 0 or npc.area_id is None or not self.last_goal(stage):
            yield from super().achieve(stage)
            return
        yield from self.team_fight(npc)

    def mates_at_goal(self) -> list[Any]:
        """Teammates playing the same last goal (alive)."""
        stage = self.next_stage()
        return [m for m in self.teammates() if m.hp > 0 and self.stage_of(m) is stage]

    def team_fight(self, npc: Any) -> Plan:
        agent = self.agent
        while npc.hp > 0 and npc.area_id is not None:
            if npc.id in agent.combats:
                yield self.beat(npc)
                continue
            if agent.combats:
                yield from self.finish_fights()
                continue
            away = agent.area_id != npc.area_id  # there, I never leave it for herbs
            if away and self.herb_count() < HERB_STOCK // 2 and not self.is_blocked("herbs"):
                start = self.issued
                yield from self.stock_herbs()
                if self.issued == start:
                    self.block("herbs")
                continue
            if self.best_weapon() is None and not self.is_blocked("weapon"):
                start = self.issued
                try:
                    yield from self.get_weapon()
                except Stuck:
                    self.block("weapon")
                if self.issued == start:
                    self.block("weapon")
                continue
            yield from self.arm(npc.id)
            yield from self.goto(npc.area_id)
            if self.herb_count() < 2:  # short of a pair: the herbs lying here, if any
                start = self.issued
                for herb in reversed(self.herbs()):
                    yield from self.stow(herb, HERB_STOCK, force=False)
                if self.issued != start:
                    continue
            start = self.issued
            yield from self.heal_up(READY_SHARE)
            if self.issued != start:
                continue
            ready = all(
                m.area_id == npc.area_id
                and (m.hp >= m.max_hp * READY_SHARE or not self.can_heal(m))
                for m in self.mates_at_goal()
            )
            if not ready and self.waited < MAX_WAIT:
                self.waited += 1
                yield WAIT
                continue
            self.waited = 0
            yield from self.arm(npc.id)
            yield f"{ATTACK} {npc.name}"

    def beat(self, npc: Any) -> str:
        """My command on this beat of the fight (module docstring)."""
        agent = self.agent
        pattern = npc.combat_pattern
        index = agent.combats[npc.id].rhythm_index
        action = pattern[index % len(pattern)] if pattern else WAIT
        if action == ATTACK:
            return DEFEND
        hit = max(0, npc.attack_power - agent.defense)
        guarded = int(hit * self._base("steps.combat_rhythm").DEFEND_FACTOR)
        run = 0  # the attack beats that follow this one
        while (
            pattern and pattern[(index + 1 + run) % len(pattern)] == ATTACK and run < len(pattern)
        ):
            run += 1
        danger = run * guarded + hit // 2  # and an ambush's worth
        missing = agent.max_hp - agent.hp
        pair = self.best_pair(missing, fit=True)
        if action == DEFEND and pair is not None and pair[2] >= min(missing, 40):
            return self.concoct(pair[0], pair[1])
        if agent.hp <= danger:
            pair = pair or self.best_pair(0, fit=False)
            if pair is not None:
                return self.concoct(pair[0], pair[1])
        return f"{ATTACK} {npc.name}"
