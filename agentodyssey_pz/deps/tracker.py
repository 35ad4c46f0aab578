"""`DependencyTracker`: which earlier rule application made a later one possible, per item unit.

Side module (on top of the engine; docs/mechanics/dependency-tracking.md). Every unit of every item
is a token (`"<obj_id>#<n>"`) queued FIFO at a location `(kind, id)`; every rule application is a
node (`"<step>:<seq>:<actor>:<rule>"`); a rule that moves, consumes or reads a token last touched by
an earlier node gets an edge producer -> consumer in a networkx DiGraph. The root node `INIT` owns
what existed when the tracker was bootstrapped from a game's state; its edges are kept but left
out of every export.

The engine drives it (`Game(tracker_factory=DependencyTracker)`): `bootstrap(game)` at reset and
load, then `record_action` / `record_step` with the events each rule application produced.

Our readings and fixes (the `Quirk:` sections of docs/mechanics/dependency-tracking.md):
* An agent that has not passed the tutorial is not recorded (no node for its actions; tracking
  events by it or at its hand/equip are skipped), judged per agent, so a world without a tutorial
  records from the first tick (the reference never records there;
  docs/mechanics/dependency-tracking.md#quirk-tracking-starts-when-the-tutorial-is-passed-per-agent).
* `track.utilize` is a read-only dependency: an edge to the last toucher, tokens stay put and keep
  their last toucher (docs/mechanics/dependency-tracking.md#quirk-reads-are-dependencies).
* Orders are deterministic: nodes in creation order, edges by creation order of their ends.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import networkx as nx

from agentodyssey_pz.rules.events import TRACK_CONSUME, TRACK_MOVE, TRACK_SPAWN, TRACK_UTILIZE
from agentodyssey_pz.rules.parse import Command

ROOT = "INIT"
HINT_EVENT = "dep_tracker_hint"
ENV_ACTOR = "env"
INVALID_RULE = "invalid"  # node rule of an action that could not be parsed (nothing ran)
# Locations that belong to one agent's body: events there are skipped while it is in the tutorial.
BODY_KINDS = frozenset(("hand", "equip"))
TRACKED = frozenset((TRACK_MOVE, TRACK_SPAWN, TRACK_CONSUME, TRACK_UTILIZE))

Location = tuple[str, str]


class TokenShortfallError(RuntimeError):
    """Strict mode: a rule used more units at a location than the tracker holds there."""


def parse_location(value: Any) -> Location:
    """`{"kind": ..., "id": ...}` -> `(kind, id)`; anything else raises ValueError."""
    if not isinstance(value, Mapping) or "kind" not in value or "id" not in value:
        raise ValueError(f"malformed tracking location {value!r}: need a dict with kind and id")
    return str(value["kind"]), str(value["id"])


def _fields(event: Any) -> tuple[str, Any, Mapping[str, Any]]:
    """(type, agent_id, data) of an Event or of a `{type, agent_id, data}` dict."""
    if isinstance(event, Mapping):
        return event.get("type", ""), event.get("agent_id"), event.get("data") or {}
    return event.type, event.agent_id, event.data


class DependencyTracker:
    """Tokens per location, one node per rule application, edges producer -> consumer."""

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict
        self.clear()

    def clear(self) -> None:
        """Forget everything: only the root node remains."""
        self.graph: nx.DiGraph = nx.DiGraph()
        self.graph.add_node(ROOT, step=-1, actor=ENV_ACTOR, rule="init", seq=0, hint="")
        self.next_token = 0
        self.token_last: dict[str, str] = {}
        self.loc_tokens: dict[Location, dict[str, deque[str]]] = {}
        self.step_hints: dict[int, list[str]] = {}
        self._seq: dict[int, int] = {}
        self._unpassed: frozenset[str] = frozenset()
        self._refreshed_for: int | None = None

    # ------------------------------------------------------------------ engine hook
    def bootstrap(self, game: Any) -> None:
        """Start over from a game's current state: everything that exists belongs to the root
        (docs/mechanics/dependency-tracking.md#tokens-nodes-and-edges): grounds in world order, then
        hands and equipment in agent order, then the contents of every container instance."""
        self.clear()
        world = game.world
        for area in world.areas.values():
            for oid, count in area.objects.items():
                self.spawn_tokens(oid, int(count), ("area", area.id), ROOT)
        for agent in game.agents.values():
            for oid, count in agent.hands.items():
                self.spawn_tokens(oid, int(count), ("hand", agent.id), ROOT)
            for oid, count in agent.equipped.items():
                self.spawn_tokens(oid, int(count), ("equip", agent.id), ROOT)
        for container in world.containers.values():
            for oid, count in container.items.items():
                self.spawn_tokens(oid, int(count), ("container", container.id), ROOT)
        self._refresh(game)

    def record_action(
        self, game: Any, agent_id: str, command: Any, events: Iterable[Any]
    ) -> str | None:
        """One agent's action this tick; None when the agent is still in the tutorial."""
        agent = game.agents[agent_id]
        if not agent.tutorial_passed:
            return None
        name = agent.name
        if isinstance(command, Command):
            rule = game.engine.rules.get(command.verb)
            # The node's rule is the verb as dispatched, `pick up`, not its id.
            phrase = rule.verb if rule is not None else command.verb
            hint = " ".join([f"{name}: {phrase}", *command.params])
            return self.process(game.tick_index, agent_id, phrase, events, hint)
        return self.process(game.tick_index, agent_id, INVALID_RULE, events, f"{name}: None")

    def record_step(self, game: Any, rule_name: str, events: Iterable[Any]) -> str:
        """One step (or init) rule's application this tick; hints from its hint events."""
        if self._refreshed_for != game.tick_index:  # the first rule of a tick: as actions left it
            self._refresh(game)
        events = list(events)
        hints = [str(d.get("hint", "")) for t, _, d in map(_fields, events) if t == HINT_EVENT]
        hint = "\n".join(h for h in hints if h)
        node = self.process(game.tick_index, ENV_ACTOR, rule_name, events, hint)
        self._refresh(game)  # the tutorial rule may have let an agent out
        return node

    def _refresh(self, game: Any) -> None:
        """Note who is still in the tutorial (only the step rules change that)."""
        self._unpassed = frozenset(a.id for a in game.agents.values() if not a.tutorial_passed)
        self._refreshed_for = game.tick_index

    # ------------------------------------------------------------------ nodes and events
    def new_node(self, step: int, actor: str, rule: str, hint: str = "") -> str:
        seq = self._seq.get(step, 0)
        self._seq[step] = seq + 1
        node = f"{step}:{seq}:{actor}:{rule}"
        self.graph.add_node(node, step=step, actor=actor, rule=rule, seq=seq, hint=hint or "")
        if hint:
            self.step_hints.setdefault(step, []).append(hint)
        return node

    def process(
        self, step: int, actor: str, rule: str, events: Iterable[Any], hint: str = ""
    ) -> str:
        """A new node for one rule application, fed with the events it produced, in order."""
        node = self.new_node(step, actor, rule, hint)
        unpassed = self._unpassed
        for event in events:
            kind, agent_id, data = _fields(event)
            if kind not in TRACKED:
                continue
            if unpassed and agent_id in unpassed:
                continue
            obj = str(data.get("obj_id"))
            amount = int(data.get("amount", 0))
            if amount <= 0:
                continue
            src = parse_location(data.get("src")) if kind != TRACK_SPAWN else None
            dst = parse_location(data.get("dst")) if kind in (TRACK_MOVE, TRACK_SPAWN) else None
            if unpassed and any(
                loc is not None and loc[0] in BODY_KINDS and loc[1] in unpassed
                for loc in (src, dst)
            ):
                continue
            if kind == TRACK_MOVE:
                self.move(node, obj, amount, src, dst)  # type: ignore[arg-type]
            elif kind == TRACK_SPAWN:
                self.spawn_tokens(obj, amount, dst, node)  # type: ignore[arg-type]
            elif kind == TRACK_CONSUME:
                self.consume(node, obj, amount, src)  # type: ignore[arg-type]
            else:
                self.utilize(node, obj, amount, src)  # type: ignore[arg-type]
        return node

    # ------------------------------------------------------------------ token algebra
    def _queue(self, loc: Location, obj: str) -> deque[str]:
        by_obj = self.loc_tokens.get(loc)
        if by_obj is None:
            by_obj = self.loc_tokens[loc] = {}
        queue = by_obj.get(obj)
        if queue is None:
            queue = by_obj[obj] = deque()
        return queue

    def spawn_tokens(self, obj: str, amount: int, loc: Location, last: str) -> None:
        queue = self._queue(loc, obj)
        for _ in range(amount):
            token = f"{obj}#{self.next_token}"
            self.next_token += 1
            self.token_last[token] = last
            queue.append(token)

    def pop_tokens(self, obj: str, amount: int, loc: Location) -> list[str]:
        """The `amount` oldest tokens at `loc`; a shortfall raises (strict) or is fabricated from
        the root at the end of the queue."""
        queue = self._queue(loc, obj)
        if len(queue) < amount:
            if self.strict:
                raise TokenShortfallError(
                    f"not enough tokens of {obj} at {loc[0]} {loc[1]}: need {amount}, "
                    f"have {len(queue)}"
                )
            self.spawn_tokens(obj, amount - len(queue), loc, ROOT)
        return [queue.popleft() for _ in range(amount)]

    def add_deps(self, node: str, tokens: Iterable[str]) -> None:
        last = self.token_last
        for token in tokens:
            producer = last.get(token)
            if producer is not None and producer != node:
                self.graph.add_edge(producer, node)

    def move(self, node: str, obj: str, amount: int, src: Location, dst: Location) -> None:
        tokens = self.pop_tokens(obj, amount, src)
        self.add_deps(node, tokens)
        for token in tokens:
            self.token_last[token] = node
        self._queue(dst, obj).extend(tokens)

    def consume(self, node: str, obj: str, amount: int, src: Location) -> None:
        tokens = self.pop_tokens(obj, amount, src)
        self.add_deps(node, tokens)
        for token in tokens:
            self.token_last.pop(token, None)  # gone for good: nothing can touch it again

    def utilize(self, node: str, obj: str, amount: int, src: Location) -> None:
        """A read-only use: an edge to whoever last touched the units; they stay where they were,
        at the front of the queue, last touched by the same node as before."""
        tokens = self.pop_tokens(obj, amount, src)
        self.add_deps(node, tokens)
        self._queue(src, obj).extendleft(reversed(tokens))

    # ------------------------------------------------------------------ reading
    def nodes(self) -> list[str]:
        """Every node but the root, in creation order."""
        return [n for n in self.graph.nodes if n != ROOT]

    def edges(self) -> list[tuple[str, str]]:
        """Every (producer, consumer) pair without the root, by consumer then producer creation
        order (deterministic across processes)."""
        order = {n: i for i, n in enumerate(self.graph.nodes)}
        pairs = [(p, c) for p, c in self.graph.edges if ROOT not in (p, c)]
        return sorted(pairs, key=lambda e: (order[e[1]], order[e[0]]))

    def tokens_at(self, kind: str, ident: str, obj: str) -> list[str]:
        """The tokens of `obj` at a location, oldest first."""
        return list(self.loc_tokens.get((kind, ident), {}).get(obj, ()))

    # ------------------------------------------------------------------ exports (see export.py)
    def to_dict(self) -> dict[str, Any]:
        from agentodyssey_pz.deps.export import summary

        return summary(self)

    def to_dot(self, mode: str = "action") -> str:
        from agentodyssey_pz.deps.export import to_dot

        return to_dot(self, mode)

    def to_mermaid(self, mode: str = "step") -> str:
        from agentodyssey_pz.deps.export import to_mermaid

        return to_mermaid(self, mode)

    def to_axis_svg(self, **options: Any) -> str:
        from agentodyssey_pz.deps.export import to_axis_svg

        return to_axis_svg(self, **options)

    def export(self, folder: str | Path, stem: str = "dependency_graph") -> dict[str, Path]:
        """Write every export format into `folder` once; returns format -> path."""
        from agentodyssey_pz.deps.export import write_all

        return write_all(self, folder, stem)
