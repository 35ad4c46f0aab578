"""The exact-mask check of a pack's verbs on a staged state (a state made for them, which a random
walk seldom reaches), shared by the packs' mask tests: every unmasked catalogue entry of the
verbs, a sample of the masked ones and every command of theirs listed in the info is stepped
through a restored copy of the env with the other agents waiting. Unmasked entries and listed
commands must take effect (`action_ok`), masked entries must not."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from adapter.rollouts import restore, snapshot


def inexact_entries(
    env: Any,
    observations: dict[str, Any],
    infos: dict[str, Any],
    verbs: Iterable[str],
    rng: np.random.Generator,
    masked_sample: int,
) -> tuple[list[tuple[str, str, Any]], int]:
    """What disagrees with the mask or the listed commands in the env's current state (the state
    `observations` and `infos` describe), as (agent, action, mask bit or "listed"), and how many
    unmasked entries were tried. `verbs` are verb ids (as in action names, e.g. `burn_corpses`);
    `rng` draws `masked_sample` masked entries per agent."""
    verbs = tuple(verbs)
    snap = snapshot(env)
    wrong: list[tuple[str, str, Any]] = []
    unmasked = 0

    def works(actor: str, action: object) -> bool:
        trial = restore(snap)
        actions: dict[str, object] = dict.fromkeys(trial.possible_agents, "wait")
        actions[actor] = action
        return bool(trial.step(actions)[4][actor]["action_ok"])

    for actor in env.possible_agents:
        mask = observations[actor]["action_mask"]
        ours = [i for i in range(len(mask)) if env.action_name(actor, i).split(" ")[0] in verbs]
        masked = [i for i in ours if not mask[i]]
        tried = [i for i in ours if mask[i]] + [
            int(i) for i in rng.choice(masked, size=min(masked_sample, len(masked)), replace=False)
        ]
        for index in tried:
            unmasked += bool(mask[index])
            if works(actor, index) != bool(mask[index]):
                wrong.append((actor, env.action_name(actor, index), int(mask[index])))
        listed = infos[actor]["valid_actions"]
        for command in [c for verb in verbs for c in listed.get(verb, [])]:
            if not works(actor, command):
                wrong.append((actor, command, "listed"))
    return wrong, unmasked
