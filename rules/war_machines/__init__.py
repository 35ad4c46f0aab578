"""Rule pack `war_machines`: the verbs and background rules of AgentOdyssey's robot_kingdom ("The
Siege of Broken Gears"), docs/rule-packs.md#bundled-packs.

Verbs: `salvage`, `rally`, `siphon`, `jam`, `overload`, `scavenge`, and `attack` with a rallied
ally's bonus. Step rules: united presence, cannibalising war machines, tactical warnings,
corruption decay, intimidation, territory reclamation, forge-echo merchant migration,
devil-forged corruption; the base `combat_rhythm_step` with the overload aura's counter-damage and
the base `death_and_respawn_step` clearing the rally and the aura. Each module's docstring states
its rule in full; `common.py` holds what they share (state keys, the guide definitions, coin
sources, what a ground stack counts as "vulnerable").

Every random number comes from the game's seeded generator, drawn only in `apply`.
"""
