"""Rule pack `living_world`: the background rules of AgentOdyssey's games remnant and mark.

A world plays with it by naming it in `features.rule_packs` (remnant adds `shifting_paths`); mark
sets its numbers through `features.rule_settings` (docs/rule-packs.md#the-livingworld-pack,
which has mark's object). Nine step rules of its own (`day_cycle.py`, `food_respawn.py`,
`forgotten_caches.py`, `carrion_scavengers.py`, `crafting_momentum.py`, `rumor_mill.py`,
`soundscape.py`, `wandering_patrols.py`, `enemy_respawn.py`) and two base rules replaced by
subclasses of the base classes (`active_attack.py`, `new_craftable_feedback.py`); what they share
(the tutorial phase, the clock, the modifier bag) is in `common.py`. Each module's docstring states
its rule; every number, draw, event type and payload key is AgentOdyssey's, the lines are ours.

Choices where AgentOdyssey is ambiguous, inconsistent or process-dependent (each explained where
it is made, and in the guide):

* the tutorial phase is "some agent still has its tutorial room" (common.py);
* the modifier bag is saved with the world (AgentOdyssey keeps it unsaved) and piles up during the
  tutorial phase as AgentOdyssey's does;
* forgotten caches walk areas in definition order, not a set's; their dead branch is left out;
* carrion scavengers stay state only (interest capped below the raid level, as in AgentOdyssey);
* noise never decays in remnant and grows in mark, both kept as settings; areas gone leave the
  soundscape's tables;
* only today's dawn payments are remembered;
* rumour tips: the stock tip's choice is drawn while gathering, the location tip names the note's
  area, quest tips read remnant's quest variables, no tip says "quiet";
* patrols never move quest NPCs or anyone's personal NPC; scouts and respawned enemies are of
  non-quest prototypes;
* death is not replaced: the base rule already resets attack on respawn;
* coins are the world's currency.

This file only documents the pack: a pack's `__init__.py` is not run (packs import their modules
one by one, docs/rule-packs.md#inside-a-pack-a-private-namespace).
"""
