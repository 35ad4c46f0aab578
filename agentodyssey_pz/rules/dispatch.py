"""`ActionRuleEngine`: routes a command to its verb's rule after checking it exists and its arity.

Layer: rule framework. All three kinds of invalid input - unparsable text, an unknown verb, a wrong
number of parameters - are handled alike: feedback naming what went wrong (and the known verbs), the
`invalid` flag, and no action at all this tick.
(docs/mechanics/verbs.md#quirk-parse-failures-run-no-wait: the reference runs `wait` after a parse
failure only; we never run it, so a garbage command is a no-op.)
"""

from __future__ import annotations

from collections.abc import Iterable

from agentodyssey_pz.rules.base import LOG, BaseActionRule, RuleResult, add_action_rule
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.hints import name_hint
from agentodyssey_pz.rules.parse import (
    MAX_COMMAND_LENGTH,
    Command,
    ParseFailure,
    VerbTable,
    parse_action,
)

# Parsed commands kept per engine: parsing is a pure function of the text (the verb table never
# changes), and agents repeat the same few hundred commands. Emptied when full: at most about 4 MB.
PARSE_CACHE_SIZE = 4096


class ActionRuleEngine:
    """The verb index of a game: one rule instance per verb id."""

    def __init__(self, rules: Iterable[BaseActionRule]) -> None:
        self.rules: dict[str, BaseActionRule] = {}
        for rule in rules:
            add_action_rule(self.rules, rule)
        phrases = [(r.verb, r.name) for r in self.rules.values()]
        owner = {verb.casefold(): rule_id for verb, rule_id in phrases}
        for rule in self.rules.values():
            for alias in rule.aliases:
                taken = owner.setdefault(alias.casefold(), rule.name)
                if taken != rule.name:
                    LOG.warning(
                        "alias '%s' of verb '%s' is already %s's: it stays %s's",
                        alias, rule.verb, taken, taken,
                    )  # fmt: skip
                else:
                    phrases.append((alias, rule.name))
        self.verbs = VerbTable(phrases)
        self.verb_list = ", ".join(r.verb for r in self.rules.values())
        self._parsed: dict[str, Command | ParseFailure] = {}

    def parse(self, text: object) -> Command | ParseFailure:
        # Not kept: a str subclass (it may compare unlike its text) and over-long text (refused).
        if type(text) is not str or len(text) > MAX_COMMAND_LENGTH:
            return parse_action(text, self.verbs)
        parsed = self._parsed.get(text)
        if parsed is None:
            if len(self._parsed) >= PARSE_CACHE_SIZE:
                self._parsed.clear()
            parsed = self._parsed[text] = parse_action(text, self.verbs)
        return parsed

    def reject(self, agent_id: str, raw: object, failure: ParseFailure, res: RuleResult) -> None:
        if raw is failure or raw is None:  # refused before parsing, or no command at all
            what = f"{failure.reason}."
        else:
            shown = raw if isinstance(raw, str) else str(raw)
            if len(shown) > 80:
                shown = f"{shown[:77]}..."
            what = f"I could not act on '{shown}' because {failure.reason}."
        res.mark_invalid(
            agent_id,
            "invalid.unparsable",
            f"Invalid action: {what} Known actions: {self.verb_list}. I do nothing this turn.",
        )

    def dispatch(self, ctx: RuleContext, res: RuleResult) -> None:
        agent_id = ctx.actor.id
        rule = self.rules.get(ctx.action)
        if rule is None:
            res.mark_invalid(
                agent_id,
                "invalid.unknown_verb",
                f"Invalid action: there is no action '{ctx.action}'. "
                f"Known actions: {self.verb_list}. I do nothing this turn.",
            )
            return
        if not rule.validate_params(ctx, res):
            said = res.feedback[agent_id]
            if not said or not res.invalid[agent_id]:  # a pack's check that said nothing
                res.mark_invalid(
                    agent_id,
                    "invalid.params",
                    f"Invalid action: '{rule.verb}' does not take these parameters "
                    f"('{rule.usage()}'). I do nothing this turn.",
                )
            # Name the verbs here too (one line, one key): all three invalid paths read alike.
            key, text = said[-1]
            said[-1] = (key, f"{text} Known actions: {self.verb_list}.")
            return
        res.action_ok[agent_id] = True
        rule.apply(ctx, res)
        if not res.action_ok[agent_id] and ctx.params and res.feedback[agent_id]:
            hint = name_hint(ctx)  # only after a failure: nothing on the common path
            if hint is not None:
                key, text = res.feedback[agent_id][-1]
                res.feedback[agent_id][-1] = (key, f"{text} {hint}")
