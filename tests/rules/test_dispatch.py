"""`ActionRuleEngine`: invalid input of every kind is flagged, changes nothing and runs no verb.

docs/mechanics/verbs.md#parsing-commands. The three invalid paths (unparsable text, unknown verb,
wrong number of parameters) behave alike here: the invalid flag, feedback naming the known verbs (or
the expected form), no state change. Quirk "parse failures run no wait" (the reference runs `wait`
after a parse failure only) is fixed: nothing runs, so an agent in combat keeps its stamina and
attack streak.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import pytest
from harness import act, agent, make_game, state_of

from agentodyssey_pz.rules.base import BaseActionRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.dispatch import ActionRuleEngine
from agentodyssey_pz.rules.parse import Command
from agentodyssey_pz.world.agents import Engagement

INVALID_INPUTS = [
    ("unknown verb", Command("dance", ()), "invalid.unknown_verb"),
    ("unknown verb with params", Command("fly", ("north",)), "invalid.unknown_verb"),
    ("too few params", "pick up", "invalid.param_count"),
    ("too few params (Command)", Command("store", ("1", "coin")), "invalid.param_count"),
    ("too many params", "pick up coin key", "invalid.param_count"),
    ("too many params (Command)", Command("wait", ("now",)), "invalid.param_count"),
    ("unparsable text", "dance wildly", "invalid.unparsable"),
    ("unbalanced quote", 'pick up "coin', "invalid.unparsable"),
    ("empty text", "", "invalid.unparsable"),
    ("no command", None, "invalid.unparsable"),
    ("not text", 12, "invalid.unparsable"),
]


@pytest.mark.parametrize(("case", "command", "key"), INVALID_INPUTS)
def test_invalid_input_is_flagged_and_changes_nothing(case: str, command: Any, key: str) -> None:
    game = make_game()
    before = state_of(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] is True, case
    assert res.action_ok["agent_0"] is False
    assert res.feedback_keys("agent_0") == [key]
    assert res.events == []
    assert state_of(game) == before


@pytest.mark.parametrize("command", [Command("dance", ()), "dance wildly", 'pick up "coin', None])
def test_unknown_and_unparsable_name_every_known_verb(command: Any) -> None:
    game = make_game()
    text = act(game, "agent_0", command).feedback_text("agent_0")
    for rule in game.engine.rules.values():
        assert rule.verb in text, rule.verb


@pytest.mark.parametrize(("command", "count"), [("pick up", 0), ("pick up coin key", 2)])
def test_wrong_parameter_count_states_the_expected_form(command: str, count: int) -> None:
    game = make_game()
    text = act(game, "agent_0", command).feedback_text("agent_0")
    assert "pick up <object_name>" in text
    assert f"{count} parameter" in text


def test_a_soft_failure_is_not_invalid() -> None:
    """The contrast case: a well-formed command that fails is only a failure."""
    game = make_game()
    res = act(game, "agent_0", "pick up unicorn")
    assert res.invalid["agent_0"] is False
    assert res.action_ok["agent_0"] is False
    assert res.feedback_keys("agent_0") == ["pick_up.not_here"]


def fighting(game: Any) -> Any:
    """agent_0 engaged with the wasp in rows, tired from an attack streak."""
    body = agent(game)
    game.move_agent(body, "area_rows")
    body.combats["npc_wasp_0"] = Engagement(rhythm_index=1, area_id="area_rows")
    body.stamina = 0.4
    body.consecutive_attacks = 3
    return body


@pytest.mark.parametrize("command", ["dance", "", None, 'wait "', Command("dance", ()), "wait 3"])
def test_invalid_input_does_not_run_wait(command: Any) -> None:
    """Quirk "parse failures run no wait": in the reference a parse failure runs the real `wait`
    there (stamina refilled, streak reset). Ours does nothing for every invalid input: the agent
    keeps its stamina and streak."""
    game = make_game()
    body = fighting(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] is True
    assert body.stamina == 0.4
    assert body.consecutive_attacks == 3


def test_wait_itself_refills_stamina_in_combat() -> None:
    """The control for the test above: the real `wait` does change both values."""
    game = make_game()
    body = fighting(game)
    res = act(game, "agent_0", "wait")
    assert res.action_ok["agent_0"] is True
    assert body.stamina == 1.0
    assert body.consecutive_attacks == 0


def test_a_whole_tick_flags_missing_and_invalid_commands_per_agent() -> None:
    game = make_game(agents=3)
    tick = game.tick({"agent_0": "wait", "agent_2": "dance"})  # agent_1 sent nothing
    assert tick.invalid == {"agent_0": False, "agent_1": True, "agent_2": True}
    assert tick.action_ok["agent_0"] is True
    assert tick.feedback_keys("agent_1")[0] == "invalid.unparsable"
    assert tick.feedback_keys("agent_2")[0] == "invalid.unparsable"


def test_verb_pairs_resolve_by_id_or_phrase() -> None:
    game = make_game()
    res = act(game, "agent_0", ("pick up", ["unicorn"]))
    assert res.feedback_keys("agent_0") == ["pick_up.not_here"]
    res = act(game, "agent_0", ("pick_up", ["unicorn"]))
    assert res.feedback_keys("agent_0") == ["pick_up.not_here"]
    res = act(game, "agent_0", ("pick up", [3]))
    assert res.feedback_keys("agent_0") == ["invalid.unparsable"]


# ----------------------------------------------------------------------------- the engine alone
class _Shout(BaseActionRule):
    name = "shout"
    verb = "shout"
    params = ("words",)
    param_min = param_max = 1
    tag: ClassVar[str] = "first"

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        res.say(ctx.actor.id, f"shout.{self.tag}", ctx.params[0])


class _LaterShout(_Shout):
    tag = "second"


class _Bellow(_Shout):
    """Another id, the same verb phrase."""

    name = "bellow"
    tag = "bellow"


def test_a_later_rule_with_the_same_verb_string_replaces_the_earlier(caplog: Any) -> None:
    """The reference's engine is indexed by verb string, so a pack rule reusing a
    base verb's phrase under another id replaces it (with a warning), and the phrase is listed
    once."""
    game = make_game()
    with caplog.at_level(logging.WARNING, logger="agentodyssey_pz.rules"):
        engine = ActionRuleEngine([_Shout(), _Bellow()])
    assert list(engine.rules) == ["bellow"]
    assert "replaces the earlier 'shout' (shout)" in caplog.text
    assert engine.parse("shout hey") == Command("bellow", ("hey",))
    assert engine.verb_list == "shout"
    res = RuleResult(["agent_0"])
    engine.dispatch(RuleContext(game, game.world, agent(game), "bellow", ("hey",), 0), res)
    assert res.feedback_keys("agent_0") == ["shout.bellow"]


def test_a_later_rule_with_the_same_id_replaces_the_earlier() -> None:
    game = make_game()
    engine = ActionRuleEngine([_Shout(), _LaterShout()])
    assert list(engine.rules) == ["shout"]
    res = RuleResult(["agent_0"])
    ctx = RuleContext(game, game.world, agent(game), "shout", ("hey",), 0)
    engine.dispatch(ctx, res)
    assert res.feedback_keys("agent_0") == ["shout.second"]
    assert engine.parse("SHOUT hey") == Command("shout", ("hey",))


def test_feedback_for_an_id_without_an_entry_creates_one() -> None:
    """Adding feedback creates the agent's entry if it is missing (a pack
    rule may address the world or an id the tick did not start with)."""
    res = RuleResult(["agent_0"])
    res.say("agent_9", "note.seen", "Someone saw this.")
    res.fail("env", "env.refused", "Nothing to do.")
    assert res.feedback_keys("agent_9") == ["note.seen"]
    assert res.feedback_keys("env") == ["env.refused"] and res.action_ok["env"] is False
    assert res.feedback_keys("agent_0") == []


def test_parsed_commands_are_kept_bounded_and_equal_to_a_fresh_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`parse` keeps what it parsed (agents repeat commands), never more than PARSE_CACHE_SIZE
    texts, never over-long text or a str subclass, and always answers what `parse_action` says."""
    import agentodyssey_pz.rules.dispatch as dispatch
    from agentodyssey_pz.rules.parse import MAX_COMMAND_LENGTH, parse_action

    monkeypatch.setattr(dispatch, "PARSE_CACHE_SIZE", 8)
    engine = make_game().engine
    texts = [f"pick up coin_{i}" for i in range(20)] + ["dance", 'write "a b" note', "  wait  "]
    for text in texts * 2:
        assert engine.parse(text) == parse_action(text, engine.verbs)
        assert len(engine._parsed) <= 8
    assert engine.parse("  wait  ") is engine.parse("  wait  ")  # kept

    class Loud(str):
        pass

    engine._parsed.clear()
    assert engine.parse(Loud("wait")) == Command("wait", ())
    too_long = "wait " + "x" * MAX_COMMAND_LENGTH
    assert "characters long" in engine.parse(too_long).reason
    assert engine._parsed == {}
