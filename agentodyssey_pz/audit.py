"""`agentodyssey-pz audit`: does a world's rule set keep the listing promises the env relies on?

Sits on top (drives the env and copies of its game). For rule-pack authors: the env trusts each
verb's listings (docs/rule-packs.md, "The exact-mask contract"), and a verb that breaks a promise
gives agents wrong masks or lists with no error anywhere. This plays masked random walks and checks
three things, each verb on its own:

- **kept listings**: at every tick, every agent's action mask and valid-action list as the env
  built them (listings kept across ticks for `lists_from_reach` verbs, work shared through
  `ctx.shared` within a listing phase, the mask's findings reused for the list) equal ones built
  afresh without any of that. A difference means the verb's listings read more than its
  `lists_from_reach` promise allows, or a `ctx.shared` entry or `WorldTable` of it reads the agent
  or positions.
- **exact mask**: at sampled states, with the other agents waiting, each unmasked catalogue entry
  of one agent takes effect (`action_ok`) on a copy of the game, and a sample of masked ones does
  not.
- **valid actions**: at the same states, a sample of the agent's listed commands take effect.
- **raised**: no action tried on a copy, masked or not, makes a rule raise (in the env, that stops
  the game).

Copies are made by pickling the live game in memory (this process's own objects, never a file).
"""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

import agentodyssey_pz
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import RuleError, RulePackError
from agentodyssey_pz.observe.catalogue import ActionCatalogue
from agentodyssey_pz.observe.masks import MaskOptions, action_mask, resolve_entry, valid_actions
from agentodyssey_pz.rules.parse import Command

KEPT, MASK, VALID, RAISED = "kept listings", "exact mask", "valid actions", "raised"


@attrs.frozen
class Problem:
    """One broken promise of one verb: how often it was seen, and the first case in words."""

    check: str  # KEPT, MASK, VALID or RAISED
    verb: str  # verb id
    rule: str  # the rule's class and source file
    count: int
    first: str


@attrs.define
class AuditReport:
    world: str
    agents: int
    ticks: int
    states: int  # states whose entries and commands were tried on copies
    tries: int  # actions tried on copies
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        lines = [
            f"audit of {self.world}: {self.agents} agents, {self.ticks} ticks compared, "
            f"{self.tries} actions tried at {self.states} states"
        ]
        if self.ok:
            lines.append("no problems: exact masks, listed commands taken, kept listings fresh")
            return "\n".join(lines)
        lines.append(f"{len(self.problems)} problem(s):")
        for p in self.problems:
            lines.append(f"- {p.check}: verb {p.verb!r}, {p.rule}, {p.count} time(s)")
            lines.append(f"    first: {p.first}")
        return "\n".join(lines)


def rule_origin(rule: object) -> str:
    """`Class (file)` of a rule, for a report."""
    try:
        where = inspect.getsourcefile(type(rule)) or type(rule).__module__
    except TypeError:
        where = type(rule).__module__
    return f"{type(rule).__qualname__} ({where})"


class _Findings:
    """Problems grouped by (check, verb): a count and the first case."""

    def __init__(self, game: Game) -> None:
        self._rules = game.engine.rules
        self._seen: dict[tuple[str, str], list[Any]] = {}
        # Verb phrase ("pick up", as valid-action lists are keyed) -> verb id ("pick_up").
        self.verb_of = {rule.verb: verb for verb, rule in self._rules.items()}

    def add(self, check: str, verb: str, text: str) -> None:
        found = self._seen.setdefault((check, verb), [0, text])
        found[0] += 1

    def problems(self) -> list[Problem]:
        """In the order of the checks, then of the verbs."""
        order = {KEPT: 0, MASK: 1, VALID: 2, RAISED: 3}
        return [
            Problem(check, verb, rule_origin(self._rules.get(verb)), count, first)
            for (check, verb), (count, first) in sorted(
                self._seen.items(), key=lambda item: (order[item[0][0]], item[0][1])
            )
        ]


def audit(
    world: str = "default",
    *,
    agents: int = 3,
    ticks: int = 500,
    states: int = 30,
    seed: int = 0,
    tutorial: bool | None = None,
    rule_packs: Sequence[str] = (),
    masked_sample: int = 20,
    valid_sample: int = 20,
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Play `ticks` ticks of masked random actions and check every tick's listings; at `states`
    random ticks, try one agent's (in turn) unmasked entries, `masked_sample` masked ones
    and `valid_sample` listed commands on copies of the game. `progress(tick)` after each tick."""
    env = agentodyssey_pz.parallel_env(
        world=world,
        num_agents=agents,
        tutorial=tutorial,
        obs_mode="text",  # vector, mask and text: the valid-action list reuses the mask's findings
        valid_actions_in_info=True,
        max_cycles=ticks + 1,
        rule_packs=list(rule_packs),
    )
    rng = np.random.default_rng(seed)
    observations, infos = env.reset(seed=seed)
    game, catalogue = env.game, env.catalogue
    findings = _Findings(game)
    # Random ticks, not evenly spaced ones: a verb may behave differently on odd ticks.
    chosen = rng.choice(ticks, size=min(states, ticks), replace=False) + 1
    sample_at = set(chosen.tolist())
    tried = sampled = 0
    for tick in range(1, ticks + 1):
        actions = {a: _masked_choice(rng, observations[a]["action_mask"]) for a in env.agents}
        observations, _, _, _, infos = env.step(actions)
        if not env.agents:  # the main quest was completed: a new episode
            observations, infos = env.reset(seed=seed + tick)
            game = env.game
        for agent in env.agents:
            _compare_kept(game, catalogue, agent, observations[agent], infos[agent], findings, tick)
        if tick in sample_at:
            agent = env.agents[sampled % len(env.agents)]
            tried += _try_state(
                game, catalogue, agent, observations[agent]["action_mask"], infos[agent],
                rng, masked_sample, valid_sample, findings, tick,
            )  # fmt: skip
            sampled += 1
        if progress is not None:
            progress(tick)
    return AuditReport(str(world), agents, ticks, sampled, tried, findings.problems())


def _masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _compare_kept(
    game: Game,
    catalogue: ActionCatalogue,
    agent: str,
    observation: dict[str, Any],
    info: dict[str, Any],
    findings: _Findings,
    tick: int,
) -> None:
    """The env's mask and list against ones built afresh (no kept listings, no shared memo)."""
    mask = observation["action_mask"]
    fresh_mask = action_mask(game, agent, catalogue)
    for i in np.flatnonzero(mask != fresh_mask):
        entry = catalogue.entries[int(i)]
        findings.add(
            KEPT,
            entry.verb,
            f"tick {tick}, {agent}: the env's mask has {entry.label!r} "
            f"{'on' if mask[i] else 'off'}, a fresh mask {'on' if fresh_mask[i] else 'off'}",
        )
    listed, fresh = info["valid_actions"], valid_actions(game, agent)
    if listed == fresh:
        return
    for phrase in dict.fromkeys([*listed, *fresh]):
        kept, anew = listed.get(phrase, []), fresh.get(phrase, [])
        if kept != anew:
            only_kept = [c for c in kept if c not in anew][:3]
            only_fresh = [c for c in anew if c not in kept][:3]
            findings.add(
                KEPT,
                findings.verb_of.get(phrase, phrase),
                f"tick {tick}, {agent}: the env listed {len(kept)} {phrase!r} command(s), a fresh "
                f"list {len(anew)}; only in the env's: {only_kept}, only in the fresh: "
                f"{only_fresh}",
            )


def _try_state(
    game: Game,
    catalogue: ActionCatalogue,
    agent: str,
    mask: np.ndarray,
    info: dict[str, Any],
    rng: np.random.Generator,
    masked_sample: int,
    valid_sample: int,
    findings: _Findings,
    tick: int,
) -> int:
    """Try entries and listed commands of `agent` on copies of this state; the number tried."""
    try:
        frozen = pickle.dumps(game)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:  # e.g. a lambda in a rule
        raise RulePackError(
            f"cannot copy the game to try actions on it ({type(exc).__name__}: {exc}); a rule "
            "holds something that cannot be copied. `--states 0` checks the kept listings only"
        ) from exc
    # What each verb reports in this state, to run an entry as the env would (a fresh listing).
    options: MaskOptions = {}
    action_mask(game, agent, catalogue, options=options)
    bound = [i for i in range(len(catalogue)) if i not in catalogue.unbound]
    on = [i for i in bound if mask[i]]
    off = [i for i in bound if not mask[i]]
    picked_off = rng.choice(off, size=min(masked_sample, len(off)), replace=False) if off else []
    for index in [*on, *(int(i) for i in picked_off)]:
        copy = pickle.loads(frozen)
        command = resolve_entry(copy, agent, catalogue, index, options)
        entry = catalogue.entries[index]
        try:
            ok, feedback = _outcome(copy, agent, command)
        except RuleError as exc:
            findings.add(RAISED, entry.verb, f"tick {tick}, {agent}: entry {index}: {exc}")
            continue
        if ok != bool(mask[index]):
            state = "unmasked but refused" if mask[index] else "masked but taken"
            findings.add(
                MASK,
                entry.verb,
                f"tick {tick}, {agent}: entry {index} {entry.label!r} ({state}; ran "
                f"{_shown(copy, command)!r}): {feedback!r}",
            )
    listed = [(phrase, c) for phrase, lines in info["valid_actions"].items() for c in lines]
    picked = rng.choice(len(listed), size=min(valid_sample, len(listed)), replace=False)
    for i in picked:
        phrase, text = listed[int(i)]
        verb = findings.verb_of.get(phrase, phrase)
        try:
            ok, feedback = _outcome(pickle.loads(frozen), agent, text)
        except RuleError as exc:
            findings.add(RAISED, verb, f"tick {tick}, {agent}: {text!r}: {exc}")
            continue
        if not ok:
            findings.add(
                VALID,
                verb,
                f"tick {tick}, {agent}: listed {text!r} was refused: {feedback!r}",
            )
    return len(on) + len(picked_off) + len(picked)


def _outcome(game: Game, agent: str, command: Command | str) -> tuple[bool, str]:
    """Whether `command` takes effect for `agent` with the others waiting, and its feedback."""
    actions: dict[str, Any] = dict.fromkeys(game.agent_ids, "wait")
    actions[agent] = command
    result = game.tick(actions)
    return bool(result.action_ok[agent]), result.feedback(agent).strip()


def _shown(game: Game, command: Command) -> str:
    rule = game.engine.rules.get(command.verb)
    words = [rule.verb if rule is not None else command.verb, *command.params]
    return " ".join(words)
