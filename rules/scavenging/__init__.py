"""Rule pack `scavenging`: `eat`, `throw`, `disassemble` and `pickpocket`, the verbs AgentOdyssey's
games remnant and mark add to the base game (docs/rule-packs.md#bundled-packs).

A world plays with it by naming it in `features.rule_packs`. One module per verb; `common.py`
holds what they share: the salvage yield a shattered throw and a disassembly leave, and the extra
numeric fields of object definitions (`hp_restore`, `attack_power`). Every random number comes
from the game's seeded generator, drawn only in `apply`, in the order each verb's docstring gives.

In the discrete catalogue (docs/rule-packs.md#the-discrete-catalogue-catalogueshape):

* `eat <object>`: one entry per object kind (`object`), unmasked while a unit of that kind that I
  may eat is in reach and I am hurt;
* `disassemble <object>`: one entry per craftable kind (only those have a recipe to take apart);
* `pickpocket <npc>`: one entry per NPC prototype, unmasked whenever an NPC of it stands here (a
  try always takes effect: a caught thief is hurt);
* `throw <object> <npc>`: one entry per NPC prototype, throwing the first throwable unit in my
  hands (hand order) at the first NPC of that prototype here. A learner chooses whom to hit; what
  it throws matters little, since every throw deals the same damage unless an object defines
  `attack_power`. The catalogue fills only the NPC's parameter, so the entry's label leaves the
  object's place blank (`throw  goblin`); run while masked, it is refused as naming no object.

Valid-action lists give every command that takes effect, for all four verbs.
"""
