"""`pickpocket <npc>`: try to steal from an NPC here.

Rule pack `scavenging` (docs/rule-packs.md#bundled-packs); AgentOdyssey's remnant and mark.
The only check: the NPC is here. The chance starts at 0.4: +0.1 with empty hands, -0.2 with both
hands full (2 units or more), -0.15 against a merchant; clamped to [0, 1]. One `random()` from the
game's generator decides; below the chance the theft succeeds:

* an NPC with coins loses min(its coins, randint(1, 5)) of them (a second draw) to me;
* one without coins but with items loses one unit, chosen by `choice` over its stock entries
  (inventory order; a second draw); a container or writable becomes a new instance;
* one with neither loses nothing (the try still counts).

What I steal goes to my hands if one was free before the theft (at most 1 unit held), else to the
ground here. Coins that do not fit in my hands fall to the ground too: AgentOdyssey fills the hands
past their two units there; we keep the two-hands limit. Event `npc_pickpocketed {npc_id,
what_was_stolen: {obj_id, amount}, area_id}` (obj_id None and amount 0 when nothing was taken).
Money is the world's currency (`obj_coin` in remnant and mark); in a world without one, coins are
never taken and the NPC's items are tried instead.

A caught thief is hit for max(1, the NPC's attack power - my defense) (a `defend` does not help)
and may drop to 0 HP, which the death rule handles later in the tick; event
`agent_caught_stealing {npc_id, damage, area_id}`. Guides and quest NPCs hit hard enough to kill.

A try always takes effect, so every NPC here is listed (catalogue: one entry per prototype).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.rules.targets import nameable_npcs
from agentodyssey_pz.world.agents import HAND_CAPACITY, AgentState, add_count, remove_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

BASE_CHANCE = 0.4
EMPTY_HANDS_BONUS = 0.1
FULL_HANDS_PENALTY = 0.2  # with FULL_HANDS units or more in hand
FULL_HANDS = 2
MERCHANT_PENALTY = 0.15
MERCHANT_ROLE = "merchant"
MAX_COINS = 5  # at most this many coins per theft (randint(1, MAX_COINS))
MIN_DAMAGE = 1


def chance(agent: AgentState, npc: Npc) -> float:
    """The chance that a try on this NPC succeeds."""
    held = agent.hands_used
    c = BASE_CHANCE
    if held == 0:
        c += EMPTY_HANDS_BONUS
    elif held >= FULL_HANDS:
        c -= FULL_HANDS_PENALTY
    if npc.role == MERCHANT_ROLE:
        c -= MERCHANT_PENALTY
    return min(1.0, max(0.0, c))


def stealable(world: World, npc: Npc) -> list[tuple[str, int]]:
    """The NPC's stock entries a theft may take from, in inventory order (ids no definition has
    are left out: world validation refuses them)."""
    return [(oid, n) for oid, n in npc.inventory.items() if n > 0 and world.find_def(oid)]


def stow(world: World, agent: AgentState, oid: str, count: int, free: bool, res: RuleResult) -> int:
    """Put stolen units of a plain id in my hands while they have room (if a hand was free before
    the theft), the rest on the ground here; returns how many went to my hands."""
    to_hand = min(count, max(0, HAND_CAPACITY - agent.hands_used)) if free else 0
    if to_hand > 0:
        add_count(agent.hands, oid, to_hand)
        res.track_spawn(agent.id, oid, to_hand, location("hand", agent.id))
    if count > to_hand:
        world.areas[agent.area_id].add_objects(oid, count - to_hand)
        res.track_spawn(agent.id, oid, count - to_hand, location("area", agent.area_id))
    return to_hand


class Pickpocket(BaseActionRule):
    name = "pickpocket"
    verb = "pickpocket"
    params = ("npc_name",)
    param_min = param_max = 1
    description = (
        "Try to steal coins or an item from someone here (better with empty hands, worse with "
        "full ones or from a merchant); if caught, they hit me."
    )
    catalogue = CatalogueShape("npc", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        npc = world.npc_here(name, agent.area_id, agent.id)
        if npc is None:
            return res.fail(
                agent.id, "pickpocket.not_here", f"I cannot pickpocket {name}: they are not here."
            )
        rng = ctx.game.rng
        if rng.random() < chance(agent, npc):
            self.steal(ctx, res, npc)
        else:
            self.caught(agent, res, npc)
        return None

    @staticmethod
    def steal(ctx: RuleContext, res: RuleResult, npc: Npc) -> None:
        agent, world, rng = ctx.actor, ctx.world, ctx.game.rng
        free = agent.hands_used < HAND_CAPACITY  # a hand free before the theft
        coin = world.currency_id
        items = stealable(world, npc)
        if npc.coins > 0 and coin is not None:
            amount = min(npc.coins, rng.randint(1, MAX_COINS))
            npc.coins -= amount
            in_hand = stow(world, agent, coin, amount, free, res)
            stolen: dict[str, object] = {"obj_id": coin, "amount": amount}
            text = f"I stole {amount} {world.objects[coin].name} from {npc.name}"
            text += f" ({amount - in_hand} fell to the ground)." if in_hand < amount else "."
        elif items:
            oid, _ = rng.choice(items)
            remove_count(npc.inventory, oid, 1)
            def_id = world.def_of(oid).id
            if world.is_instance(oid):  # an existing instance changes hands as it is
                unit = oid
            else:
                [(unit, _)] = world.materialise(def_id, 1)
            in_hand = stow(world, agent, unit, 1, free, res)
            stolen = {"obj_id": def_id, "amount": 1}
            where = "" if in_hand else " (it fell to the ground)"
            text = f"I stole 1 {world.name_of(unit)} from {npc.name}{where}."
        else:
            stolen = {"obj_id": None, "amount": 0}
            text = f"I went through {npc.name}'s pockets unseen, but they held nothing."
        res.say(agent.id, "pickpocket.stole", text)
        res.emit(
            "npc_pickpocketed",
            agent.id,
            {"npc_id": npc.id, "what_was_stolen": stolen, "area_id": agent.area_id},
        )

    @staticmethod
    def caught(agent: AgentState, res: RuleResult, npc: Npc) -> None:
        damage = max(MIN_DAMAGE, npc.attack_power - agent.defense)
        agent.hp -= damage
        res.say(
            agent.id,
            "pickpocket.caught",
            f"{npc.name} caught my hand in their pocket and struck me for {damage} HP "
            f"({agent.hp}/{agent.max_hp} left).",
        )
        res.emit(
            "agent_caught_stealing",
            agent.id,
            {"npc_id": npc.id, "damage": damage, "area_id": agent.area_id},
        )

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for npc in nameable_npcs(ctx.world, ctx.actor, ctx.shared):  # a plain loop: a few NPCs
            out.append((npc.def_id, (npc.name,)))
        return out
