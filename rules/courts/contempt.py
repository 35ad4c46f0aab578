"""`contempt_of_court_step` (10): an agent that idles in one place is warned, fined, then weakened.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. The action
read is this tick's: `wait` or `defend` (the pack's replacements of those verbs record it), and an
unparsable or missing command counts as `wait`; anything else is another action. Per agent
(`contempt_of_court[agent] = {idle_area, idle_turns, last_action, hp_reduction_applied}`):

* it moved, or acted otherwise than `wait`/`defend`: a max-HP reduction is given back (max HP +r,
  HP + r capped; event `contempt_of_court_cleared {hp_restored, area_id}`), and the record starts
  over here;
* else one more idle turn: 3 -> `contempt_of_court_warning {idle_turns, area_id}`; 4 ->
  `contempt_of_court_final_warning {idle_turns, area_id}`; 5 and 6 -> a fine of 2 coins (hands,
  inventory, held containers; `contempt_of_court_fine {idle_turns, coins_fined, area_id}`); 7 and
  more -> the fine and, while the total reduction is under 30, max HP lowered by min(5, 30 - total)
  (never below 1; HP capped; `contempt_of_court_hp_penalty {idle_turns, coins_fined,
  hp_reduction_this_turn, total_hp_reduction, area_id}`).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import MapOf, Record

from .common import CONTEMPT, IDLE, table, take_coins


class ContemptOfCourt(BaseStepRule):
    name = "contempt_of_court_step"
    priority = 10
    description = "Idling in one place draws warnings, then fines, then lost maximum HP."
    state_key = CONTEMPT
    state_shape = MapOf(
        Record(
            {
                "idle_area": (str, None), "idle_turns": int, "last_action": str,
                "hp_reduction_applied": int,
            }
        )
    )  # fmt: skip
    settings = {"warn_at": 3, "final_at": 4, "fine_from": 5, "hp_from": 7, "fine": 2,
                "hp_step": 5, "hp_cap": 30}  # fmt: skip

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, self.settings
        states, idle = table(world, CONTEMPT), table(world, IDLE)
        for agent in game.agents.values():
            seen = idle.get(agent.id)
            if seen is not None and seen.get("tick") == game.tick_index:
                action = seen["verb"]
            elif res.invalid.get(agent.id, False):
                action = "wait"
            else:
                action = "other"
            here = agent.area_id
            st = states.get(agent.id)
            if st is None or st["idle_area"] != here or action not in ("wait", "defend"):
                r = st["hp_reduction_applied"] if st is not None else 0
                if r > 0:
                    agent.max_hp += r
                    agent.hp = min(agent.hp + r, agent.max_hp)
                    res.say(agent.id, "contempt.cleared", f"The court forgives me: +{r} max HP.")
                    res.emit(
                        "contempt_of_court_cleared", agent.id, {"hp_restored": r, "area_id": here}
                    )
                states[agent.id] = {
                    "idle_area": here, "idle_turns": 0, "last_action": action,
                    "hp_reduction_applied": 0,
                }  # fmt: skip
                continue
            st["last_action"] = action
            st["idle_turns"] += 1
            n = st["idle_turns"]
            if n == s["warn_at"]:
                res.say(agent.id, "contempt.warning", "The court notes my idleness.")
                res.emit("contempt_of_court_warning", agent.id, {"idle_turns": n, "area_id": here})
            elif n == s["final_at"]:
                res.say(agent.id, "contempt.final", "Final warning: idle on and I will be fined.")
                res.emit(
                    "contempt_of_court_final_warning",
                    agent.id,
                    {"idle_turns": n, "area_id": here},
                )
            elif s["fine_from"] <= n < s["hp_from"]:
                fined = take_coins(world, agent, s["fine"])
                res.say(agent.id, "contempt.fine", f"Fined {fined} coins for contempt of court.")
                res.emit(
                    "contempt_of_court_fine",
                    agent.id,
                    {"idle_turns": n, "coins_fined": fined, "area_id": here},
                )
            elif n >= s["hp_from"]:
                fined = take_coins(world, agent, s["fine"])
                total = st["hp_reduction_applied"]
                if total < s["hp_cap"]:
                    cut = min(s["hp_step"], s["hp_cap"] - total)
                    agent.max_hp = max(1, agent.max_hp - cut)
                    agent.hp = min(agent.hp, agent.max_hp)
                    st["hp_reduction_applied"] = total + cut
                    res.say(
                        agent.id, "contempt.hp",
                        f"Fined {fined} coins, and my contempt costs me {cut} max HP.",
                    )  # fmt: skip
                    res.emit(
                        "contempt_of_court_hp_penalty",
                        agent.id,
                        {
                            "idle_turns": n, "coins_fined": fined, "hp_reduction_this_turn": cut,
                            "total_hp_reduction": total + cut, "area_id": here,
                        },
                    )  # fmt: skip
