"""robot_kingdom's tactics for the walkthrough's solvers (test helper; text commands only).

`RobotSolver` is the test solver (`quest_solver.QuestSolver`, the quester's planner) with what
robot_kingdom's `war_machines` pack asks of a player on top:

* **Siege.** The kills and the clearing of chapter 3's entrance area (`ch3_entrance_area`, a
  level-4 or level-5 room that territory reclamation refills while nobody stands in it), and the
  three bosses, are fought as sieges: go there, never leave to train or gear up, strike the enemy
  I already fight, else the one a teammate fights (focus fire), else the target, else the
  weakest, and walk straight back after a death. Both agents do it, so one of them is mostly in
  the room, and while one is there reclamation brings nothing new.
* **Hesitation.** Agents standing together make every enemy fighting them skip an action each
  tick (`united_presence_step`, priority 1, before the rhythm at 2): the beat an enemy plays this
  tick is the one after its recorded index, so the siege guards (`defend`) on that beat.
* **Made early and kept.** The war banner wants two salvage cloths and a wooden rod (a log), the
  suppression charge's oil flask a rubble chunk (a rubble), and the grounds' cloth, logs and
  rubble are gone within about 100 ticks (the furnace and the workbench take rubble and logs,
  reclamation and decay eat the rest of unvisited grounds). Between steps each solver makes a
  banner and two rubble chunks and keeps them until their stages are done: never sold or left
  behind, and no recipe may use them but those on the way to the stage's product. The spare
  chunk goes to a teammate standing with me who has none (one solver may find the rubble gone
  when it first looks).
* **Finishing together.** The architect's kill drops the demon core where the last goal wants
  it, so the kill ends the quest: before the final battle each solver waits until its teammate
  has nothing else left, and the one kill then completes the quest for both.
"""

from __future__ import annotations

from typing import Any

from quest_solver import QuestSolver

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.policies.planning import INFINITE, Plan, Stuck

DEFEND = "defend"
# The NPC definitions intimidation leaves alone in the walkthrough: robot_kingdom's two guides (its
# default) and the quest's friendly NPCs, whom it kills within about 15 to 100 ticks as published.
SPARED = (
    "npc_quest_wayfarer_guide", "npc_side_quest_guide", "npc_old_marshal",
    "npc_quest_scout_lyra", "npc_kael_ashworth", "npc_quest_forgemaster_dren",
    "npc_vessa_ironhand",
)  # fmt: skip
SIEGE_AREA = "ch3_entrance_area"
STOCK_RETRY = 20  # ticks after a material could not be had before it is tried again
MAX_SIEGE = 3000  # commands of one siege before it gives up


# What a later quest craft needs that only the grounds hold, and the grounds lose early (the
# furnace and the workbench take rubble and logs, reclamation and decay eat the rest of unvisited
# grounds): (the stage, its product, (what to make early and keep, units, what it becomes on
# the way to the product)). The war banner is made early itself (nothing else uses it); of the
# charge, the rubble chunk its oil flask wants (one rubble, and raw rubble stays free for the
# stations).
STOCKS = (
    ("ch2_craft_banner", "obj_quest_war_banner", (("obj_quest_war_banner", 1, ()),)),
    (
        "ch3_craft_suppression",
        "obj_quest_suppression_charge",
        (("obj_rubble_chunk", 2, ("obj_oil_flask",)),),
    ),
)
FINAL = ("ch4_final_battle", "ch4_destroy_architect")


def robot_game(agents: int, **switches: dict[str, Any]) -> Game:
    """robot_kingdom (tutorial off, as published) with intimidation sparing SPARED, and any
    other settings given (rule name -> settings)."""
    import attrs

    from agentodyssey_pz.engine.worldpack import load_world_pack

    pack = load_world_pack("agentodyssey:robot_kingdom")
    features = pack.definition.features
    settings = {rule: dict(values) for rule, values in (features.rule_settings or {}).items()}
    settings.setdefault("intimidation_step", {})["guides"] = list(SPARED)
    for rule, values in switches.items():
        settings.setdefault(rule, {}).update(values)
    definition = attrs.evolve(
        pack.definition, features=attrs.evolve(features, rule_settings=settings)
    )
    return Game(attrs.evolve(pack, definition=definition), agents, GameConfig(tutorial=False))


class RobotSolver(QuestSolver):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.stock_retry: dict[str, int] = {}  # material -> tick before which it is not tried
        self.shared: dict[str, int] = {}  # material -> units given to teammates
        super().__init__(*args, **kwargs)

    # ------------------------------------------------------------------ materials carried
    def stocks_open(self) -> list[tuple[str, int, tuple[str, ...]]]:
        """The materials still to keep: those of crafts whose stage is not done and whose
        product I do not have."""
        done = set(self.progress.get("completed", ()))
        return [
            material
            for stage, product, materials in STOCKS
            if stage not in done and not self.have(product)
            for material in materials
        ]

    def kept_stock(self) -> set[str]:
        return {d for did, _, forms in self.stocks_open() for d in (did, *forms)}

    def chores(self) -> Plan:
        yield from super().chores()
        for did, units, forms in self.stocks_open():
            units -= self.shared.get(did, 0)
            if self.have(did) + sum(self.have(f) for f in forms) >= units:
                continue
            if self.stock_retry.get(did, -1) > self.game.tick_index:
                continue
            try:
                yield from self.obtain(did, units)
            except Stuck:  # each on its own: one failing holds up no other
                self.stock_retry[did] = self.game.tick_index + STOCK_RETRY
        yield from self.share_stock()

    def share_stock(self) -> Plan:
        """A teammate standing here without any of a kept material gets my spare (dropped at
        its feet, once: I keep the rest)."""
        for did, _, forms in self.stocks_open():
            if self.have(did) < 2 or self.shared.get(did):
                continue
            for mate in self.teammates():
                if mate.hp <= 0 or mate.area_id != self.agent.area_id:
                    continue
                if any(self.mate_has(mate, d) for d in (did, *forms)):
                    continue
                yield from self.hold(did)
                held = next((o for o in self.agent.hands if self.matches(o, did)), None)
                if held is not None:
                    yield f"drop {self.world.name_of(held)}"
                    self.shared[did] = self.shared.get(did, 0) + 1  # my spare is gone
                return

    def stock_chain(self) -> set[str]:
        """What may be made of the kept materials: their later forms and the products."""
        done = set(self.progress.get("completed", ()))
        return {
            d
            for stage, product, materials in STOCKS
            if stage not in done
            for d in (product, *(f for _, _, forms in materials for f in forms))
        }

    def craft_cost(self, did: str, need: int, depth: int = 0) -> float:
        """No recipe eats a kept material unless it leads to the stage's product."""
        kept = self.kept_stock()
        recipe = self.world.objects[did].craft.ingredients
        if kept and did not in self.stock_chain() and any(ing in kept for ing in recipe):
            return INFINITE
        return super().craft_cost(did, need, depth)

    def needed(self) -> set[str]:
        return super().needed() | self.kept_stock()

    def spare(self) -> list[tuple[str, int]]:
        kept = self.kept_stock()
        return [(o, n) for o, n in super().spare() if self.world.def_of(o).id not in kept]

    def siege_area(self) -> str | None:
        return self.variables.get(SIEGE_AREA)

    def beat_now(self, npc: Any) -> str:
        """The action the NPC plays against me this tick. Where living agents stand together,
        united presence first moves on, once, the index of the first of them (in agent order)
        fighting the NPC here, and gives that index to the others fighting it."""
        engaged = self.agent.combats.get(npc.id)
        pattern = npc.combat_pattern
        if engaged is None or not pattern:
            return "wait"
        area = self.agent.area_id
        together = [a for a in self.game.agents.values() if a.hp > 0 and a.area_id == area]
        index = engaged.rhythm_index
        if len(together) > 1 and npc.enemy and npc.hp > 0:
            first = next(
                (
                    e
                    for a in together
                    for e in (a.combats.get(npc.id),)
                    if e is not None and e.area_id == area
                ),
                engaged,
            )
            index = first.rhythm_index + 1
        return pattern[index % len(pattern)]

    # ------------------------------------------------------------------ finishing together
    def waits_for_team(self, stage: Any) -> bool:
        """The architect's kill drops the demon core where the last goal wants it: the kill
        ends the quest. Hold back from the final battle until each teammate has only the final
        battle and the core's goal left."""
        if self.wait_for_team and stage.id in FINAL:
            quest = self.game.quests.main_quest
            for mate in self.teammates():
                progress = mate.progress.get("main_quest") or {}
                if progress.get("chapter") != len(quest.chapters) - 1:
                    return True
                done = set(progress.get("completed", ()))
                if any(
                    s.has_conditions and s.id not in done and s.id not in FINAL
                    for s in quest.chapters[-1].stages
                ):
                    return True
            return False
        return super().waits_for_team(stage)

    # ------------------------------------------------------------------ sieges
    def sieges(self, area: str) -> bool:
        return area == self.siege_area()

    def satisfy(self, cond: Any) -> Plan:
        area = self.siege_area()
        if area is not None:
            p = cond.params
            if cond.kind == "area_clear" and self.resolve(p["area"]) == area:
                yield from self.siege(area, cond)
                return
            if cond.kind == "npc_dead":
                npc = self.world.npcs.get(self.resolve(p["npc"]))
                if npc is not None and npc.area_id is not None and self.sieges(npc.area_id):
                    yield from self.siege(npc.area_id, cond, npc.id)
                    return
            if cond.kind == "boss_already_defeated":
                boss = self.boss_instance(p["boss"])
                npc = self.world.npcs.get(boss) if boss else None
                if npc is not None and npc.area_id is not None and npc.hp > 0:
                    yield from self.siege(npc.area_id, cond, npc.id)
                    return
        yield from super().satisfy(cond)

    def siege(self, area: str, cond: Any, target: str | None = None) -> Plan:
        """Fight in `area` until the condition holds (the target dead, the room empty)."""
        npcs = self.world.npcs
        key = self.stage_key()
        for _ in range(MAX_SIEGE):
            if self.stage_key() != key:
                return
            if target is not None and (npcs[target].hp <= 0 or npcs[target].area_id is None):
                return
            if target is None and self.holds(cond):
                return
            if self.agent.area_id != area:
                yield from self.goto(area)
                continue
            here = self.world.visible_npcs(area, self.aid)
            foes = [n for n in here if npcs[n].enemy and npcs[n].hp > 0]
            if not foes:
                yield "wait"
                continue
            npc = npcs[self.pick(foes, target)]
            if npc.id not in self.agent.combats:
                yield from self.arm(npc.id)
                if npc.id not in self.agent.combats:
                    yield f"attack {npc.name}"
                continue
            beat = self.beat_now(npc)
            strike = self.strikes(npc, beat, self.agent.hp, stamina=self.agent.stamina)
            yield f"attack {npc.name}" if strike else DEFEND
        raise Stuck(f"the siege of {area} does not end")

    def pick(self, foes: list[str], target: str | None) -> str:
        """The enemy to strike: one I fight, else one a teammate fights, else the target, else
        the weakest."""
        npcs = self.world.npcs
        mine = [n for n in foes if n in self.agent.combats]
        if mine:
            return min(mine, key=lambda n: npcs[n].hp)
        theirs = [
            n
            for n in foes
            for a in self.game.agents.values()
            if a.id != self.aid and a.area_id == self.agent.area_id and n in a.combats
        ]
        if theirs:
            return min(theirs, key=lambda n: npcs[n].hp)
        if target is not None and target in foes:
            return target
        return min(foes, key=lambda n: npcs[n].hp)
