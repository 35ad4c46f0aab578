"""The text observation of one agent, for language agents.

Layer: observe. Elements and their order follow
docs/mechanics/observations.md#the-observation-text: time, location, the tick's feedback,
what I hold, what I wear, what lies here (with what a step rule shows there that is not an
object, `ground_text`), who is here (NPCs, then other agents), level, attack, defense, health,
experience, neighbouring areas. Names, never ids. The wording is ours; the labels
`Current Time:`, `Current Location:` and `Neighboring areas:` are fixed tokens agents may parse.

An agent in the dark (`world.darkness`: an unlit area, no light in hand) sees no hands, equipment,
ground or people: a fixed line (`TOO_DARK`) follows the feedback instead, and the rest is as usual
(docs/world-format.md#91-darkness). Where the dark hides only the surroundings
(`features.darkness.hides` "surroundings": AgentOdyssey's quarantine), a notice (`PITCH_DARK`) comes
before the feedback, the layout stays, and the ground and the people here are only shapes
(`DARK_GROUND`, `DARK_PEOPLE`, or `DARK_NO_ONE` when nobody else is here).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.darkness import hides_holdings, in_darkness
from agentodyssey_pz.world.world import World

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game

INTRO = (
    "\nI wake on cold ground with no memory of arriving. A scrap of paper in my hand reads: "
    '"Look around. Pick things up. Make things. Go further than you think you can." '
    "As I finish reading, the words fade and the paper crumbles to ash.\n"
)
# In place of what I hold and wear, the ground and the people here, when I cannot see.
TOO_DARK = (
    "It is too dark here to see anything: what I hold, what I wear, what lies around or who is "
    "near."
)
# Where the dark hides only the surroundings: before the feedback, then for the ground and people.
PITCH_DARK = "[Pitch dark: I can see what I carry, but around me only vague shapes.]"
DARK_GROUND = "shapes I cannot make out in the dark"
DARK_PEOPLE = "dark figures moving close by"
DARK_NO_ONE = "no one, as far as I can tell"
COMPLETION_BANNER = (
    "=== The main quest is complete: this world's story has been told. The game is won. ==="
)


def item_list(world: World, items: Mapping[str, int]) -> str:
    """`2 coin, 1 bag_0` in insertion order; instances by instance name."""
    if not items:
        return "nothing"
    name_of = world.name_of
    return ", ".join([f"{n} {name_of(oid)}" for oid, n in items.items()])


# An ItemLists memo forgets everything beyond this many texts: about 1 KB each, so at most about
# 1 MB per env however many different grounds and hands it sees (16 agents fill it in a few hundred
# ticks; a bound 4 times larger saved only 4% of the texts written).
ITEM_LIST_TEXTS = 1024


class ItemLists:
    """`item_list` texts by content, for an environment that writes the same lists tick after
    tick (an area's ground and an agent's hands mostly stay as they were). Valid for one World
    while its names stay (`names_revision`); a key of the items themselves costs a fraction of
    writing the text anew."""

    __slots__ = ("_revision", "_texts", "_world")

    def __init__(self) -> None:
        self._world: World | None = None
        self._revision = -1
        self._texts: dict[tuple[tuple[str, int], ...], str] = {}

    def text(self, world: World, items: Mapping[str, int]) -> str:
        if not items:
            return "nothing"
        if world is not self._world or world.names_revision != self._revision:
            self._world, self._revision = world, world.names_revision
            self._texts = {}
        key = tuple(items.items())
        found = self._texts.get(key)
        if found is None:
            if len(self._texts) >= ITEM_LIST_TEXTS:
                self._texts.clear()
            found = self._texts[key] = item_list(world, items)
        return found


def people_list(world: World, area_id: str, viewer: str, others: Iterable[AgentState]) -> str:
    names = []  # plain loops, no comprehensions: a few names, every agent, every tick
    for npc in world.npcs_seen_by(area_id, viewer):
        names.append(npc.name)
    for other in others:
        names.append(other.name)
    return ", ".join(names) if names else "no one"


def ground_text(game: Game, area_id: str, listed: str) -> str:
    """The ground's list (`listed`), then what the game's sight rules show there
    (`ground_sights`: seen, not objects, nothing to act on; e.g. a salt mirage as `1 <name>`)."""
    sights = []
    for rule in game.hooks.sights:
        for count, name in rule.ground_sights(game.world, area_id):
            sights.append(f"{count} {name}")
    if not sights:  # most ticks: nothing in sight
        return listed
    seen = ", ".join(sights)
    return seen if listed == "nothing" else f"{listed}, {seen}"


def observation_text(
    game: Game, agent: AgentState, feedback: str = "", item_lists: ItemLists | None = None
) -> str:
    """The observation lines for `agent` in the current state, with this tick's feedback.
    `item_lists`: an environment's memo of the lists it wrote before."""
    world = game.world
    area = world.areas[agent.area_id]
    place = world.places[area.place_id]
    neighbors, areas = [], world.areas
    for neighbor in world.graph.visible_neighbors(area.id, agent.id):
        neighbors.append(areas[neighbor].name)
    lines = [
        "",
        f"Current Time: {game.time_text}",
        f"Current Location: {place.name}, {area.name}",
        "",
    ]
    feedback = feedback.strip()
    # `in_darkness`, not even called in a world without darkness (every agent, every tick).
    dark = world.definition.features.darkness is not None and in_darkness(world, agent)
    if dark and hides_holdings(world):
        if feedback:
            lines.append(feedback)
        lines.append(TOO_DARK)
    else:
        if dark:
            lines.append(PITCH_DARK)
        if feedback:
            lines += [feedback, ""]
        else:
            lines.append("")
        items = item_list if item_lists is None else item_lists.text
        others = []  # plain loops, as in `people_list`
        for other in game.agents_in(area.id):
            if other.id != agent.id:
                others.append(other)
        if dark:  # only the surroundings are hidden
            anyone = others or world.npcs_seen_by(area.id, agent.id)
            ground, people = DARK_GROUND, DARK_PEOPLE if anyone else DARK_NO_ONE
        else:
            ground = items(world, area.objects)
            if game.hooks.sights:  # most worlds have none: not even a call
                ground = ground_text(game, area.id, ground)
            people = people_list(world, area.id, agent.id, others)
        lines += [
            f"I am holding: {items(world, agent.hands)}.",
            f"I have equipped: {items(world, agent.equipped)}.",
            f"On the ground here I see: {ground}.",
            f"Here with me: {people}.",
        ]
    lines += [
        "",
        f"My level is {agent.level}.",
        f"My attack is {agent.attack}.",
        f"My defense is {agent.defense}.",
        f"My health is {agent.hp} of {agent.max_hp}.",
        f"My experience is {agent.xp} of {game.config.xp_per_level} toward the next level.",
        "",
        f"Neighboring areas: {', '.join(neighbors) if neighbors else 'none'}.",
    ]
    return "\n".join(lines) + "\n"


def tick_observation(
    game: Game,
    agent_id: str,
    feedback: str,
    *,
    bootstrap: bool,
    terminated: bool,
    item_lists: ItemLists | None = None,
) -> str:
    """The text an agent receives after a tick: the intro on the bootstrap tick, the banner at the
    end of the game."""
    text = observation_text(game, game.agents[agent_id], feedback, item_lists)
    if bootstrap:
        text = INTRO + text
    if terminated:
        text += COMPLETION_BANNER + "\n"
    return text
