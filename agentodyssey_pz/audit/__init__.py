"""`agentodyssey-pz audit`: does a world's rule set keep the promises the env relies on?

Sits on top (drives envs and copies of their games). For rule-pack authors: the env trusts each
verb's listings (docs/rule-packs.md, "The exact-mask contract") and each rule's randomness and
state, and a rule that breaks a promise gives agents wrong masks or lists, or games that cannot be
replayed or resumed, with no error anywhere. This plays a masked random walk and checks, each verb
on its own where a verb is to blame:

- **kept listings**: at every tick, every agent's action mask and valid-action list as the env
  built them (listings kept across ticks for `lists_from_reach` verbs, work shared through
  `ctx.shared` within a listing phase, the mask's findings reused for the list) equal ones built
  afresh without any of that. A difference means the verb's listings read more than its
  `lists_from_reach` promise allows, or a `ctx.shared` entry or `WorldTable` of it reads the agent
  or positions.
- **exact mask**: at sampled states, with the other agents waiting, each unmasked catalogue entry
  of one agent takes effect (`action_ok`) on a copy of the game, and a sample of masked ones does
  not (in the dark, `world.darkness`, masked ones may: they are tried for `raised` only).
- **valid actions**: at the same states, a sample of the agent's listed commands take effect.
- **raised**: no action tried on a copy, masked or not, makes a rule raise (in the env, that stops
  the game).
- **hidden in the dark**: at the same states, when the agent is in the dark, its mask and list are
  the same on a copy where everything darkness hides from it is changed (`audit.darkness`): a
  `dark_safe` verb whose listing reads what the agent cannot see is named.
- **replay**: a second env of the same configuration, given the same seeds and actions, has the
  same game state at every tick (no unseeded randomness).
- **another process**: the walk played again in a new Python process, with other string hashes,
  has the same game state at every tick (no outcome following the order of a set of strings).
- **resume**: the walk's last state, saved and loaded back, plays on exactly like the original
  for `resume_ticks` ticks (no state kept outside the saved game).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import agentodyssey_pz
from agentodyssey_pz.audit.continuity import Replay, check_resume
from agentodyssey_pz.audit.listings import compare_kept, masked_choice, try_state
from agentodyssey_pz.audit.processes import check_other_process
from agentodyssey_pz.audit.report import (
    CHECKS,
    DARK,
    KEPT,
    MASK,
    PROCESSES,
    RAISED,
    REPLAY,
    RESUME,
    VALID,
    AuditReport,
    Findings,
    Problem,
)
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.errors import ConfigError

__all__ = [
    "CHECKS",
    "DARK",
    "KEPT",
    "MASK",
    "PROCESSES",
    "RAISED",
    "REPLAY",
    "RESUME",
    "VALID",
    "AuditReport",
    "Problem",
    "audit",
]


def audit(
    world: Any = "default",
    *,
    agents: int = 3,
    ticks: int = 500,
    states: int = 30,
    seed: int = 0,
    tutorial: bool | None = None,
    rule_packs: Sequence[str] = (),
    masked_sample: int = 20,
    valid_sample: int = 20,
    resume_ticks: int = 50,
    other_process: bool = True,
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Play `ticks` ticks of masked random actions, checking every tick's listings and replaying
    each tick in a second env; at `states` random ticks, try one agent's (in turn) unmasked
    entries, `masked_sample` masked ones and `valid_sample` listed commands on copies of the game;
    with `other_process`, play the walk again in another process; then resume the last state from a
    snapshot for `resume_ticks` ticks. `progress(tick)` after each tick of the walk. `world`: a
    bundled name, a folder or file path, or (with `other_process=False`) anything `parallel_env`
    takes as its world."""
    packs = [str(pack) for pack in rule_packs]
    if isinstance(world, os.PathLike):
        world = str(world)
    if other_process and not isinstance(world, str):
        raise ConfigError(
            "world: the replay in another process needs the world as a name or a path "
            f"(got a {type(world).__name__}); pass other_process=False to skip it"
        )
    settings = {
        "world": world,
        "num_agents": agents,
        "tutorial": tutorial,
        "obs_mode": "text",  # vector, mask and text: the list reuses the mask's findings
        "valid_actions_in_info": True,
        "max_cycles": ticks + 1,
        "rule_packs": packs,
    }

    def make_env() -> Any:
        return agentodyssey_pz.parallel_env(**settings)

    env = make_env()
    rng = np.random.default_rng(seed)
    observations, infos = env.reset(seed=seed)
    game, catalogue = env.game, env.catalogue
    findings = Findings(game.engine.rules)
    # The walk as another process replays it, and the state hash after its reset and after each
    # tick: one hash per state, for both the replay here and the one in another process.
    walk: dict[str, Any] = {"env": settings, "seed": seed, "actions": [], "resets": {}}
    hashes = [state_hash(game)]
    replay = Replay(make_env(), findings)
    replay.reset(seed, game, hashes[0], tick=0)
    # Random ticks, not evenly spaced ones: a verb may behave differently on odd ticks.
    chosen = rng.choice(ticks, size=min(states, ticks), replace=False) + 1
    sample_at = set(chosen.tolist())
    tried = sampled = 0
    for tick in range(1, ticks + 1):
        actions = {a: masked_choice(rng, observations[a]["action_mask"]) for a in env.agents}
        walk["actions"].append(actions)
        observations, _, _, _, infos = env.step(actions)
        now = state_hash(game)
        replay.step(actions, game, now, tick)
        if not env.agents:  # the main quest was completed: a new episode
            observations, infos = env.reset(seed=seed + tick)
            game = env.game
            walk["resets"][str(tick)] = seed + tick
            now = state_hash(game)
            replay.reset(seed + tick, game, now, tick)
        hashes.append(now)
        for agent in env.agents:
            compare_kept(game, catalogue, agent, observations[agent], infos[agent], findings, tick)
        if tick in sample_at:
            agent = env.agents[sampled % len(env.agents)]
            tried += try_state(
                game, catalogue, agent, observations[agent]["action_mask"], infos[agent],
                rng, masked_sample, valid_sample, findings, tick,
            )  # fmt: skip
            sampled += 1
        if progress is not None:
            progress(tick)
    if other_process:
        check_other_process(walk, hashes, findings)
    resumed = check_resume(game, world, packs, resume_ticks, seed, findings) if resume_ticks else 0
    return AuditReport(
        str(world), agents, ticks, sampled, tried, resumed, other_process, findings.problems()
    )
