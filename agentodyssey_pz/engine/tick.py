"""One tick: snapshot -> action rules per agent -> step rules by priority -> clock -> rewards.

Layer: engine. Agents act one after another in the fixed agent order on the same world, so a later
agent sees what an earlier one did this tick. Visits are recorded by the engine (after the actions
and again at the end of the tick), not by the reward function, so step rules see this tick's visits
(the reference's step rules lag one tick;
docs/mechanics/step-rules.md#quirk-step-rules-see-this-ticks-visits) and a custom reward
function cannot break visit bookkeeping.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.errors import RuleError
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import AGENT_LEVELED_UP, MAIN_QUEST_COMPLETE
from agentodyssey_pz.rules.parse import Command, ParseFailure, command_text
from agentodyssey_pz.rules.rewards import ProgressSnapshot, RewardBreakdown
from agentodyssey_pz.world.agents import AgentState

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game

NO_COMMAND = ParseFailure("no command was given")
# The reference steps once with every agent waiting at reset. By id, not text: a pack may give
# `wait` another phrase.
BOOTSTRAP_COMMAND = Command("wait", ())


def running_tick(game: Game) -> str:
    """The tick being played, in words: "the bootstrap tick", else "tick N" (counted from 1)."""
    return "the bootstrap tick" if game.tick_index < 0 else f"tick {game.tick_index + 1}"


def rule_failed(game: Game, rule: object, exc: Exception, doing: str = "") -> RuleError:
    """The error for a rule that raised mid-tick: which rule (class, id, file), which tick, what it
    was doing, and the original exception (chained by the caller)."""
    try:
        where = inspect.getsourcefile(type(rule)) or type(rule).__module__
    except TypeError:
        where = type(rule).__module__
    tick = running_tick(game)
    if game.tick_index >= 0:  # the number infos and results show; a rule sees ticks completed
        tick += f" (tick_index {game.tick_index} while it ran)"
    name = getattr(rule, "name", None)
    what = f"{type(rule).__qualname__} ({f'{name!r}, ' if name else ''}{where})"
    return RuleError(f"{what} raised {type(exc).__name__}: {exc} during {tick}{doing}")


def resolve_command(game: Game, action: Any) -> Command | ParseFailure:
    """Text, a Command, or a (verb, params) pair -> a Command; anything else -> a ParseFailure."""
    if isinstance(action, (Command, ParseFailure)):  # a ParseFailure: the caller refused it
        return action
    if isinstance(action, str) or action is None:
        return game.engine.parse(action) if action is not None else NO_COMMAND
    if isinstance(action, (tuple, list)) and len(action) == 2 and isinstance(action[0], str):
        verb, params = action
        if isinstance(params, (tuple, list)) and all(isinstance(p, str) for p in params):
            rule = game.engine.rules.get(verb)
            if rule is None:  # a surface phrase such as "pick up"
                found = game.engine.verbs.match(verb)
                rule_id = found[0] if found and found[1] == len(verb) else verb
            else:
                rule_id = verb
            return Command(rule_id, tuple(params))
    return ParseFailure(f"{type(action).__name__} is not a command")


def record_visit(game: Game, agent: AgentState) -> None:
    area_id = agent.area_id
    if area_id not in agent.visited and not game.in_tutorial_room(agent):
        agent.visited[area_id] = None


def act(game: Game, agent: AgentState, raw: Any, res: RuleResult) -> Command | ParseFailure:
    """One agent's action: parsed, then dispatched to its rule (or refused with feedback)."""
    if game.hooks.forcing:
        forced = game.forced_turn(agent)
        if forced is not None:
            return lose_turn(game, agent, raw, res, *forced)
    return play(game, agent, resolve_command(game, raw), raw, res)


def play(
    game: Game, agent: AgentState, command: Command | ParseFailure, raw: Any, res: RuleResult
) -> Command | ParseFailure:
    if isinstance(command, ParseFailure):
        game.engine.reject(agent.id, raw, command, res)
    else:
        ctx = RuleContext(game, game.world, agent, command.verb, command.params, game.tick_index)
        try:
            game.engine.dispatch(ctx, res)
        except Exception as exc:
            rule = game.engine.rules.get(command.verb)
            text = command_text(rule.verb if rule else command.verb, command.params)
            doing = f", acting for {agent.id}: {text!r}"
            raise rule_failed(game, rule or game.engine, exc, doing) from exc
    record_visit(game, agent)
    return command


def lose_turn(
    game: Game, agent: AgentState, raw: Any, res: RuleResult, rule: Any, forced: Command
) -> Command:
    """A lost turn (docs/rule-packs.md#lost-turns): the forcing rule is told, then `forced` is
    played instead of the agent's own command, which counts as taken (`action_ok`) only when it
    was that very command and it took effect."""
    own = resolve_command(game, raw)
    ctx = RuleContext(game, game.world, agent, forced.verb, forced.params, game.tick_index)
    try:
        rule.on_forced(ctx, res)
    except Exception as exc:
        raise rule_failed(game, rule, exc, f", taking {agent.id}'s turn") from exc
    play(game, agent, forced, forced, res)
    if own != forced:
        res.action_ok[agent.id] = False
    return forced


def run_actions(game: Game, actions: Mapping[str, Any], res: RuleResult) -> None:
    for agent_id, agent in game.agents.items():
        act(game, agent, actions.get(agent_id), res)


def run_init_rules(game: Game, res: RuleResult) -> None:
    """A world pack's one-time set-up, on the bootstrap tick."""
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    for rule in game.init_rules:
        try:
            rule.apply(ctx, res)
        except Exception as exc:
            raise rule_failed(game, rule, exc) from exc


def run_step_rules(game: Game, res: RuleResult) -> None:
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    for rule in game.step_rules:
        try:
            rule.apply(ctx, res)
        except Exception as exc:
            raise rule_failed(game, rule, exc) from exc


def gain_experience(game: Game, agent: AgentState, amount: int, res: RuleResult) -> int:
    """Add XP; each full `xp_per_level` is a level: +max HP (and HP), +base attack.

    Fixed reference quirk (docs/mechanics/rewards.md#quirk-a-level-up-raises-attack-at-once): the
    reference raises only the base attack, so the bonus reaches `attack` a tick late; attack (base +
    best item in hand) rises with it here, usable in the very next action."""
    config = game.config
    agent.xp += amount
    gained = 0
    while agent.xp >= config.xp_per_level:
        agent.xp -= config.xp_per_level
        agent.level += 1
        agent.max_hp += config.hp_per_level
        agent.hp += config.hp_per_level
        agent.min_attack += config.attack_per_level
        agent.attack += config.attack_per_level
        gained += 1
    if gained:
        times = "once" if gained == 1 else f"{gained} times"
        res.say(
            agent.id, "progress.level_up", f"I leveled up {times}: I am now level {agent.level}."
        )
        res.emit(AGENT_LEVELED_UP, agent.id, {"levels_gained": gained})
    return gained


def run_tracked(game: Game, actions: Mapping[str, Any], res: RuleResult, bootstrap: bool) -> None:
    """The rule phase with a dependency tracker: as `run_rules`, handing the tracker each rule
    application's slice of the events. Kept apart so a game without a tracker runs the plain
    loops, untouched."""
    tracker, events = game.tracker, res.events
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    if bootstrap:
        for init_rule in game.init_rules:
            start = len(events)
            try:
                init_rule.apply(ctx, res)
            except Exception as exc:
                raise rule_failed(game, init_rule, exc) from exc
            tracker.record_step(game, init_rule.name, events[start:])
        actions = bootstrap_actions(game)
    for agent_id, agent in game.agents.items():
        start = len(events)
        command = act(game, agent, actions.get(agent_id), res)
        tracker.record_action(game, agent_id, command, events[start:])
    for rule in game.step_rules:
        start = len(events)
        try:
            rule.apply(ctx, res)
        except Exception as exc:
            raise rule_failed(game, rule, exc) from exc
        tracker.record_step(game, rule.name, events[start:])


def bootstrap_actions(game: Game) -> dict[str, Command]:
    """What every agent does on the bootstrap tick: it waits
    (docs/mechanics/index.md#the-bootstrap-tick)."""
    return dict.fromkeys(game.agent_ids, BOOTSTRAP_COMMAND)


def run_rules(game: Game, actions: Mapping[str, Any], res: RuleResult, bootstrap: bool) -> None:
    """The rule phase: the actions (after the init rules, everyone waiting, when bootstrapping),
    then the step rules."""
    if bootstrap:
        run_init_rules(game, res)
        actions = bootstrap_actions(game)
    run_actions(game, actions, res)
    run_step_rules(game, res)


def run_tick(game: Game, actions: Mapping[str, Any], *, bootstrap: bool = False) -> TickResult:
    tracking = game.tracker is not None
    res = RuleResult(game.agent_ids, tracking=tracking)
    before = {aid: ProgressSnapshot.of(a) for aid, a in game.agents.items()}
    if tracking:
        run_tracked(game, actions, res, bootstrap)
    else:
        run_rules(game, actions, res, bootstrap)
    return finish_tick(game, before, res, bootstrap)


def finish_tick(
    game: Game, before: dict[str, ProgressSnapshot], res: RuleResult, bootstrap: bool
) -> TickResult:
    """After the rules: visits, the clock, rewards (scores and XP), termination."""
    for agent in game.agents.values():
        record_visit(game, agent)
    game.tick_index += 1
    if bootstrap:
        rewards = {aid: RewardBreakdown() for aid in game.agent_ids}
    else:
        try:
            rewards = game.reward_function.compute(game, before, res)
        except Exception as exc:
            raise rule_failed(game, game.reward_function, exc) from exc
        for aid, breakdown in rewards.items():
            if breakdown.is_zero:
                continue
            game.scores[aid].add(breakdown)
            if breakdown.xp_total:
                gain_experience(game, game.agents[aid], breakdown.xp_total, res)
    terminated = res.has_event(MAIN_QUEST_COMPLETE)
    game.terminated = terminated
    return TickResult(game.tick_index, res, rewards, terminated, bootstrap)
