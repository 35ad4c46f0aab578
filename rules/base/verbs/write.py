"""`write <text> <writable>`: write on a writable I hold, with a writing tool in my other hand.

Rule pack `base`; docs/mechanics/verbs.md#write. The text is one parameter (quote it to include
spaces) and is appended to what is already written, cut to the room left
(`max_text_length - len(text)`; pre-written `obj_given_*` writables have no room beyond their text).
Feedback echoes the part written and says when the text ran out of space. Writing an empty text
succeeds and writes nothing. A writing tool is any held object whose usage is `write`.

Quirk fixed: when the room is zero *or negative* (text already over its limit) writing fails; the
reference appended a tail-truncated copy when the room was negative
(docs/mechanics/verbs.md#quirk-a-writable-over-its-limit-refuses-more-text).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import WritableInstance
from agentodyssey_pz.world.quests import texts_to_write
from agentodyssey_pz.world.world import World

from ..carrying import hand_loc
from ..containers import names_itself

WRITING_TOOL_USAGE = "write"
TEXT_HINT = "your text"  # the text parameter valid_params offers (any text is accepted)


def writing_tool(world: World, agent: AgentState) -> str | None:
    """The first held object usable for writing, if any."""
    for oid in agent.hands:
        if world.def_of(oid).usage == WRITING_TOOL_USAGE:
            return oid
    return None


def room_left(world: World, writable: WritableInstance) -> int:
    return world.def_of(writable.id).text_limit - len(writable.text)


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Write(BaseActionRule):
    name = "write"
    verb = "write"
    params = ("text", "writable_name")
    param_min = 2
    param_max = 2
    description = (
        'Write text on a writable I hold, with a writing tool in hand: write "text" note_1.'
    )
    # Discrete agents write the texts the world's quests ask for (`texts_to_write`).
    catalogue = CatalogueShape("writable", name=1, text=0)

    # Its listings read only what the agent carries: offered in a dark that hides only the
    # surroundings (docs/rule-packs.md#listings-in-the-dark).
    dim_safe = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        text, wname = ctx.params
        wid = world.obj_name_to_id.get(wname)
        if wid is None:
            return res.fail(
                agent.id,
                "write.unknown_object",
                f"I cannot write on {wname}: I know of no such thing.",
            )
        writable = world.writables.get(wid)
        if writable is None:
            return res.fail(
                agent.id,
                "write.not_writable",
                f"I cannot write on {wname}: it is not something to write on.",
            )
        tool = writing_tool(world, agent)
        if tool is None:
            return res.fail(
                agent.id,
                "write.no_tool",
                f"I cannot write on {wname}: I hold nothing to write with.",
            )
        if agent.hands.get(wid, 0) <= 0:
            return res.fail(
                agent.id, "write.not_held", f"I cannot write on {wname}: I am not holding it."
            )
        return self._write(ctx, tool, writable, text, wname, res)

    def _write(
        self,
        ctx: RuleContext,
        tool: str,
        writable: WritableInstance,
        text: str,
        wname: str,
        res: RuleResult,
    ) -> None:
        """Room check (fixed: fail when <= 0), then append what fits."""
        agent = ctx.actor
        room = room_left(ctx.world, writable)
        if room <= 0:
            return res.fail(
                agent.id,
                "write.no_room",
                f"I cannot write on {wname}: there is no space left on it.",
            )
        written = text[:room]
        writable.text += written
        res.say(agent.id, "write.done", f'I wrote "{written}" on {wname}.')
        if len(text) > room:
            res.say(
                agent.id,
                "write.truncated",
                f"I ran out of space on {wname}: {len(text) - room} characters did not fit.",
            )
        res.track_utilize(agent.id, tool, 1, hand_loc(agent))
        res.track_utilize(agent.id, writable.id, 1, hand_loc(agent))
        res.emit(
            "writable_written",
            agent.id,
            {"obj_id": writable.id, "written_text": written, "area_id": agent.area_id},
        )
        return None

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        """A template entry for each held writable with room left, if a writing tool is held."""
        held = self.writable_in_hand(ctx)
        return [(TEXT_HINT, name) for _, name in held] if held else []

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        """Each text the quests ask for on each writable I could write on now."""
        held = self.writable_in_hand(ctx)
        if not held:
            return []
        texts = texts_to_write(ctx.game.quests)
        return [((kind, text), (text, name)) for text in texts for kind, name in held]

    @staticmethod
    def writable_in_hand(ctx: RuleContext) -> list[tuple[str, str]]:
        """(definition id, name) of each held writable with room left, if a writing tool is held."""
        agent, world = ctx.actor, ctx.world
        if writing_tool(world, agent) is None:
            return []
        listed: list[tuple[str, str]] = []
        for oid in agent.hands:
            writable = world.writables.get(oid)
            name = names_itself(world, oid) if writable is not None else None
            if writable is not None and name is not None and room_left(world, writable) > 0:
                listed.append((world.def_of(oid).id, name))
        return listed
