"""Rule pack `outbreak`: the verbs and background rules of AgentOdyssey's quarantine ("Patient
Zero"): barricades, herbal concoctions, shoved furniture, eavesdropping, burning corpses and
refuelling lights; light fuel and the darkness it brings, corpse corruption and mutated spawns,
quarantine lockdowns, stunned NPCs that skip a rhythm action, and ambushes four times as likely
in the dark (docs/rule-packs.md#the-outbreak-pack).

One module per verb and per step rule; `common.py` holds what they share (the state keys, the
possession sources, taking units out of them). Every number, draw (all from `ctx.game.rng`, in
`apply` only), event type and payload key is AgentOdyssey's; the lines are ours.

This file only documents the pack: a pack's `__init__.py` is not run.
"""
