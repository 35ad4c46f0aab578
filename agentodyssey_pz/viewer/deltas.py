"""Frames to what the page embeds: a string table, one full frame, then per-tick deltas.

Side module (viewer). A 6-agent, 1,000-tick episode read as full frames is about 3 MB of
observation text alone; nearly all of it repeats from one tick to the next. So:

- every string (areas, names, commands, feedback, observation lines, event text) is stored once
  in `strings` and referred to by its index;
- `base` is the first frame in full; each later tick's entry in `deltas` holds only what changed:
  agent fields (`a`: [[agent index, {field: value}], ...]), the step each agent took (`s`, one per
  agent: [command, feedback, flags, reward, llm]), each observation as edit operations on the
  agent's previous text's lines (`o`: [[agent index, [[from, to, [line ids]], ...]], ...]),
  events (`e`: [[agent index or -1, type, text]]) and the paths locked (`l+`) or unlocked (`l-`).

`decode` rebuilds the frames (the page's script does the same, in `assets/viewer.js`); the tests
check that it gives back exactly the recorded frames.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from agentodyssey_pz.viewer.frames import REWARD_PARTS

FORMAT_VERSION = 1
STRING_FIELDS = ("area",)  # agent fields holding a string (stored as a string index)
ITEM_FIELDS = ("hands", "equipped", "inventory")  # name -> count, stored as [[name, count], ...]
LLM_STRINGS = ("answer", "reasoning", "errors", "waited")
OK, INVALID = 1, 2  # step flags


class StringTable:
    def __init__(self) -> None:
        self.strings: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            found = self._index[text] = len(self.strings)
            self.strings.append(text)
        return found


def encode(frames: Sequence[Mapping[str, Any]], agents: Sequence[str]) -> dict[str, Any]:
    """The page's data for these frames (the first is stored in full)."""
    if not frames:
        raise ValueError("no frames to encode")
    table = StringTable()
    index = {agent: i for i, agent in enumerate(agents)}
    first = frames[0]
    states = [encode_state(first["agents"][a], table) for a in agents]
    lines = [obs_lines(first["obs"].get(a, ""), table) for a in agents]
    locked = {tuple(path) for path in first["locked"]}
    base = {
        "tick": first["tick"],
        "agents": list(states),
        "obs": list(lines),
        "locked": [[table(a), table(b)] for a, b in sorted(locked)],
        "events": encode_events(first["events"], index, table),
    }
    deltas = []
    for current in frames[1:]:
        delta: dict[str, Any] = {"t": current["tick"]}
        changed = []
        for i, agent in enumerate(agents):
            state = encode_state(current["agents"][agent], table)
            fields = {k: v for k, v in state.items() if states[i].get(k) != v}
            if fields:
                changed.append([i, fields])
                states[i] = state
        if changed:
            delta["a"] = changed
        steps = [encode_step(current["steps"].get(a), table) for a in agents]
        if any(step != 0 for step in steps):
            delta["s"] = steps
        edits = []
        for i, agent in enumerate(agents):
            if agent not in current["obs"]:
                continue
            now = obs_lines(current["obs"][agent], table)
            ops = line_edits(lines[i], now)
            if ops:
                edits.append([i, ops])
            lines[i] = now
        if edits:
            delta["o"] = edits
        events = encode_events(current["events"], index, table)
        if events:
            delta["e"] = events
        now_locked = {tuple(path) for path in current["locked"]}
        if now_locked - locked:
            delta["l+"] = [[table(a), table(b)] for a, b in sorted(now_locked - locked)]
        if locked - now_locked:
            delta["l-"] = [[table(a), table(b)] for a, b in sorted(locked - now_locked)]
        locked = now_locked
        deltas.append(delta)
    return {
        "version": FORMAT_VERSION,
        "agents": list(agents),
        "parts": list(REWARD_PARTS),
        "strings": table.strings,
        "base": base,
        "deltas": deltas,
    }


def encode_state(view: Mapping[str, Any], table: StringTable) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in view.items():
        if key in STRING_FIELDS:
            out[key] = table(str(value))
        elif key in ITEM_FIELDS:
            out[key] = [[table(name), count] for name, count in value.items()]
        elif isinstance(value, bool):
            out[key] = int(value)
        else:
            out[key] = value
    return out


def encode_step(step: Mapping[str, Any] | None, table: StringTable) -> Any:
    """[command or -1, feedback, flags, [part index, amount, ...], llm or 0]; 0 for no step."""
    if step is None:
        return 0
    command = step.get("command")
    flags = (OK if step.get("ok") else 0) | (INVALID if step.get("invalid") else 0)
    reward = []
    for part, amount in step.get("reward", {}).items():
        reward += [REWARD_PARTS.index(part), amount]
    llm = step.get("llm")
    encoded = [-1 if command is None else table(str(command)), table(step.get("feedback", "")),
               flags, reward]  # fmt: skip
    if llm:
        encoded.append({k: table(v) if k in LLM_STRINGS else v for k, v in llm.items()})
    return encoded


def encode_events(events: Sequence[Sequence[str]], index: Mapping[str, int],
                  table: StringTable) -> list[list[int]]:  # fmt: skip
    return [[index.get(agent, -1), table(kind), table(text)] for agent, kind, text in events]


def obs_lines(text: str, table: StringTable) -> list[int]:
    return [table(line) for line in text.split("\n")]


def line_edits(before: list[int], after: list[int]) -> list[list[Any]]:
    """Edit operations turning `before` into `after`: [from, to, replacement ids], applied from
    the last to the first so the indices stay those of `before`."""
    if before == after:
        return []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        [i1, i2, after[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


# ---------------------------------------------------------------------------- decoding (tests)
def decode(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The frames `encode` was given, rebuilt from its output (what the page's script does)."""
    strings, agents = data["strings"], data["agents"]
    base = data["base"]
    states = [dict(s) for s in base["agents"]]
    lines = [list(x) for x in base["obs"]]
    locked = {(a, b) for a, b in base["locked"]}
    frames = [make_frame(base["tick"], agents, strings, states, None, lines, base["events"],
                         locked)]  # fmt: skip
    for delta in data["deltas"]:
        for i, fields in delta.get("a", ()):
            states[i].update(fields)
        touched = []
        for i, ops in delta.get("o", ()):
            for start, end, ids in reversed(ops):
                lines[i][start:end] = ids
            touched.append(i)
        locked |= {(a, b) for a, b in delta.get("l+", ())}
        locked -= {(a, b) for a, b in delta.get("l-", ())}
        frames.append(make_frame(delta["t"], agents, strings, states, delta.get("s"), lines,
                                 delta.get("e", ()), locked))  # fmt: skip
    return frames


def make_frame(
    tick: int,
    agents: Sequence[str],
    strings: Sequence[str],
    states: Sequence[dict[str, Any]],
    steps: Any,
    lines: Sequence[list[int]],
    events: Any,
    locked: Any,
) -> dict[str, Any]:
    """One frame as `record` makes it, from the decoded state (string indices resolved)."""
    paths = sorted(sorted((strings[a], strings[b])) for a, b in locked)
    out: dict[str, Any] = {"tick": tick, "agents": {}, "steps": {}, "obs": {}, "events": []}
    out["locked"] = paths
    for i, agent in enumerate(agents):
        view = {}
        for key, value in states[i].items():
            if key in STRING_FIELDS:
                view[key] = strings[value]
            elif key in ITEM_FIELDS:
                view[key] = {strings[n]: c for n, c in value}
            elif key == "dark":
                view[key] = bool(value)
            else:
                view[key] = value
        out["agents"][agent] = view
        out["obs"][agent] = "\n".join(strings[k] for k in lines[i])
        step = steps[i] if steps else 0
        if step != 0:
            reward = {REWARD_PARTS[p]: n for p, n in zip(step[3][::2], step[3][1::2], strict=True)}
            llm = None
            if len(step) > 4:
                llm = {k: strings[v] if k in LLM_STRINGS else v for k, v in step[4].items()}
            out["steps"][agent] = {
                "command": None if step[0] < 0 else strings[step[0]],
                "feedback": strings[step[1]],
                "ok": bool(step[2] & OK),
                "invalid": bool(step[2] & INVALID),
                "reward": reward,
                "llm": llm,
            }
    out["events"] = [[agents[a] if a >= 0 else "", strings[k], strings[t]] for a, k, t in events]
    return out
