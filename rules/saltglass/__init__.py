"""Rule pack `saltglass`: the verbs and background rules of AgentOdyssey's saltglass ("The Salt
Oath"); docs/rule-packs.md#the-saltglass-pack.

Verbs `listen` (listen.py) and `refract` (refract.py); step rules `salt_glaze_step` (glaze.py),
`forge_alert_step` (forge_alert.py), `resonance_imprint_step` (resonance.py),
`collect_unattended_step` (unattended.py) and `salt_mirage_step` (mirage.py). Area classes and the
glass-like test are in common.py. Every number, draw, event type and payload key is the published
game's; the lines are ours. This file only documents the pack (a pack's `__init__.py` is not run).
"""
