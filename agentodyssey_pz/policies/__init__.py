"""Policies: the protocol (`Policy`), and the bundled baselines that play the game.

`make_policy(name)` builds one of `POLICIES` (random, wait, explorer, crafter, fighter, trader,
quester) or a policy registered with `register_policy`. Scripted policies read the game state
through the env they are bound to (`bind(env, agent_id, seed)`) and only ever issue commands.
`LLMPolicy` (a language model through any OpenAI-compatible server) lives in `agentodyssey_pz.llm`
and is offered here too, imported on first use.
"""

from __future__ import annotations

from agentodyssey_pz.policies.base import Action, BasePolicy, Policy
from agentodyssey_pz.policies.crafter import CrafterPolicy
from agentodyssey_pz.policies.explorer import ExplorerPolicy
from agentodyssey_pz.policies.fighter import FighterPolicy
from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import Replan, Stuck
from agentodyssey_pz.policies.quester import QuesterPolicy, QuestPlanner
from agentodyssey_pz.policies.random_policy import RandomPolicy
from agentodyssey_pz.policies.registry import (
    POLICIES,
    PolicyRegistry,
    make_policy,
    policy_names,
    register_policy,
)
from agentodyssey_pz.policies.scripted import ScriptedPolicy
from agentodyssey_pz.policies.trader import TraderPolicy
from agentodyssey_pz.policies.wait import WaitPolicy

__all__ = [
    "POLICIES",
    "Action",
    "BasePolicy",
    "CrafterPolicy",
    "ExplorerPolicy",
    "FighterPolicy",
    "LLMPolicy",
    "Planner",
    "Policy",
    "PolicyRegistry",
    "QuestPlanner",
    "QuesterPolicy",
    "RandomPolicy",
    "Replan",
    "ScriptedPolicy",
    "Stuck",
    "TraderPolicy",
    "WaitPolicy",
    "make_policy",
    "policy_names",
    "register_policy",
]


def __getattr__(name: str) -> object:
    # Lazy: the language-model side module is only loaded by those who use it.
    if name == "LLMPolicy":
        from agentodyssey_pz.llm.policy import LLMPolicy

        return LLMPolicy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
