"""`parse_action`: free text -> (verb id, params), or a `ParseFailure`
(docs/mechanics/verbs.md#parsing-commands).

The unit tests use a small verb table; the fuzz test sends thousands of seeded random and hostile
commands through whole ticks of a bundled world with three agents.
"""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
from harness import make_game
from worlds_helper import bundled_worlds

from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import (
    MAX_COMMAND_LENGTH,
    Command,
    ParseFailure,
    VerbTable,
    parse_action,
)

VERBS = VerbTable(
    [
        ("wait", "wait"),
        ("pick up", "pick_up"),
        ("take", "take"),
        ("take out", "take_out"),
        ("write", "write"),
        ("pass", "pass"),
    ]
)


def parse(text: Any) -> Command | ParseFailure:
    return parse_action(text, VERBS)


# ----------------------------------------------------------------------------- verbs
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wait", Command("wait", ())),
        ("  wait  ", Command("wait", ())),
        ("WAIT", Command("wait", ())),
        ("pick up coin", Command("pick_up", ("coin",))),
        ("Pick Up coin", Command("pick_up", ("coin",))),
        ("pick up Coin", Command("pick_up", ("Coin",))),  # parameter case is kept
        ("pick up", Command("pick_up", ())),
        ("take out coin crate_0", Command("take_out", ("coin", "crate_0"))),  # longest verb first
        ("take outx", Command("take", ("outx",))),  # "take out" needs a word boundary
        ("take coin", Command("take", ("coin",))),
        ("wait now", Command("wait", ("now",))),  # the arity is the dispatcher's business
        ("pick up  coin   label_2 ", Command("pick_up", ("coin", "label_2"))),
    ],
)
def test_verbs_match_longest_first_at_a_word_boundary(text: str, expected: Command) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "pick upcoin",  # no boundary after the verb
        "pick  up coin",  # the verb's own single space must match exactly
        "pickup coin",
        "waiting",
        "dance",
        "up coin",
        "xwait",
    ],
)
def test_no_known_verb_is_a_failure(text: str) -> None:
    assert isinstance(parse(text), ParseFailure)


def test_equal_length_verbs_keep_registration_order() -> None:
    table = VerbTable([("grab", "first"), ("grab", "second")])
    assert parse_action("grab x", table) == Command("first", ("x",))


# ----------------------------------------------------------------------------- parameters
@pytest.mark.parametrize(
    ("text", "params"),
    [
        ('write "hello world" label_0', ("hello world", "label_0")),
        ("write 'hello world' label_0", ("hello world", "label_0")),
        (r"write hello\ world label_0", ("hello world", "label_0")),
        (r'write "say \"hi\"" label_0', ('say "hi"', "label_0")),
        ('write "it\'s" label_0', ("it's", "label_0")),
        ("write '' label_0", ("", "label_0")),
        ("write Straße label_0", ("Straße", "label_0")),
        ("write \u05e9\u05dc\u05d5\u05dd label_0", ("\u05e9\u05dc\u05d5\u05dd", "label_0")),
        ("write 🍐🍐 label_0", ("🍐🍐", "label_0")),
    ],
)
def test_parameters_split_with_shell_quoting(text: str, params: tuple[str, ...]) -> None:
    assert parse(text) == Command("write", params)


def test_splitting_without_quotes_equals_shell_splitting() -> None:
    """The quote-free fast path splits exactly as shlex does (spaces only: Unicode spaces such as
    U+00A0 or U+3000 stay inside a parameter, as in a shell)."""
    import random
    import shlex

    rng = random.Random(0)
    alphabet = ["a", "b", "7", "_", "-", " ", " ", "\u00a0", "\u3000", "\u2003", "é", "ß", "🍐"]
    compared = 0
    for _ in range(3000):
        rest = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14))).strip(" ")
        result = parse(f"write {rest}")
        if not rest.strip():
            continue
        assert isinstance(result, Command), rest
        assert result.params == tuple(shlex.split(rest.strip(), posix=True)), repr(rest)
        compared += 1
    assert compared > 2000


@pytest.mark.parametrize(
    "text",
    [
        'write "hello label_0',  # unbalanced double quote
        "write 'hello label_0",  # unbalanced single quote
        "write hello\\",  # dangling backslash
    ],
)
def test_broken_quoting_is_a_failure(text: str) -> None:
    failure = parse(text)
    assert isinstance(failure, ParseFailure)
    assert "quot" in failure.reason


# ----------------------------------------------------------------------------- hostile input
@pytest.mark.parametrize(
    "value", [None, "", "   ", "\t \n ", 42, 3.5, b"wait", ["wait"], ("wait",), {"wait": 1}]
)
def test_empty_and_non_text_input_is_a_failure(value: Any) -> None:
    assert isinstance(parse(value), ParseFailure)


@pytest.mark.parametrize(
    "text", ["wait\x00", "pick up co\x1bin", "pick up coin\x7f", "pick\x0bup coin", "wa\x85it"]
)
def test_control_characters_are_refused(text: str) -> None:
    failure = parse(text)
    assert isinstance(failure, ParseFailure)
    assert "control character" in failure.reason


def test_surrounding_newlines_are_stripped_not_refused() -> None:
    assert parse("\n wait \r\n") == Command("wait", ())


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("pick up\tcoin", Command("pick_up", ("coin",))),
        ("take out\t1\tcoin\tinventory", Command("take_out", ("1", "coin", "inventory"))),
        ("take\r\ncoin", Command("take", ("coin",))),
        ('write "two\nlines" label_0', Command("write", ("two\nlines", "label_0"))),
        ("write 'a\tb'\tlabel_0", Command("write", ("a\tb", "label_0"))),
    ],
)
def test_tabs_and_line_breaks_separate_words_and_stay_inside_quotes(
    text: str, command: Command
) -> None:
    """As in the reference: any whitespace ends the verb, and the
    parameters are split with shell rules, which split at tabs and line breaks too."""
    assert parse(text) == command


def test_length_limit() -> None:
    fits = "pick up " + "a" * (MAX_COMMAND_LENGTH - len("pick up "))
    assert parse(fits) == Command("pick_up", ("a" * (MAX_COMMAND_LENGTH - 8),))
    too_long = fits + "a"
    failure = parse(too_long)
    assert isinstance(failure, ParseFailure)
    assert str(MAX_COMMAND_LENGTH) in failure.reason
    # The limit applies to the raw text, padding included.
    assert isinstance(parse("wait" + " " * MAX_COMMAND_LENGTH), ParseFailure)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PICK UP straße", Command("pick_up", ("straße",))),  # "ß" folds to "ss": length changes
        ("PASS ß", Command("pass", ("ß",))),
        ("İ wait", None),  # "İ" folds to two characters, before the verb
        ("waitß", None),
        ("paß x", None),  # a folded "ss" is not the verb's "ss": no partial-character matches
        ("ﬁ wait", None),
    ],
)
def test_unicode_whose_casefold_changes_length(text: str, expected: Command | None) -> None:
    result = parse(text)
    if expected is None:
        assert isinstance(result, ParseFailure)
    else:
        assert result == expected


# ----------------------------------------------------------------------------- fuzz through ticks
NUMBERS = ["0", "1", "2", "-1", "-999", "9" * 40, "1e9", "0x10", "3.0", "\u0663", "\uff12", "+1"]
NASTY = [
    '"',
    "'",
    "\\",
    '"a b"',
    "'a'b'",
    "\\\\",
    "\u200b",
    "\u202e",
    "e\u0301",
    "ß",
    "İ",
    "ﬁ",
    "🍐",
    "\udc80",
    "\x00",
    "\x1b[31m",
    "\n",
    "\t",
    "",
    " ",
    "inventory",
    "None",
    "null",
    "{}",
    "%s",
    "{0}",
    "$(rm -rf /)",
    "; wait",
    "&&",
    "*",
    "?",
    ".." * 3,
]


def hostile_command(rng: random.Random, rules: list[Any], names: list[str]) -> Any:
    """A command text (or a non-text action) built to stress the parser and the verbs."""
    roll = rng.random()
    if roll < 0.05:
        return rng.choice([None, 7, 2.5, b"wait", ["wait"], ("pick up", [1]), ("nope", []), {}])
    if roll < 0.15:
        alphabet = string.printable + "ßİﬁ🍐\u200b\u202e\u0301\x00\x7f\u05e9"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
    rule = rng.choice(rules)
    if roll < 0.18:
        return f"{rule.verb} {'x' * rng.randint(MAX_COMMAND_LENGTH - 20, 2 * MAX_COMMAND_LENGTH)}"
    verb = rule.verb.upper() if rng.random() < 0.1 else rule.verb
    arity = rule.param_min if rng.random() < 0.7 else rng.randint(0, 4)
    pool = [NUMBERS, NASTY, names, names, names]
    params = [rng.choice(rng.choice(pool)) for _ in range(arity)]
    quoted = [f'"{p}"' if rng.random() < 0.2 else p for p in params]
    return " ".join([verb, *quoted])


def listed_command(game: Any, agent_id: str, rng: random.Random) -> Any:
    """A command the verbs' valid_params offer right now (a Command, so names may hold spaces)."""
    ctx = RuleContext(game, game.world, game.agents[agent_id], "", (), game.tick_index)
    options = [
        Command(verb_id, params)
        for verb_id, rule in game.engine.rules.items()
        for params in rule.valid_params(ctx, all_amounts=False)
    ]
    return rng.choice(options) if options else "wait"


def check_feedback(tick: Any, agent_id: str, verb_ids: set[str]) -> None:
    keys = tick.feedback_keys(agent_id)
    assert keys and tick.feedback(agent_id).strip(), agent_id
    if tick.invalid[agent_id]:
        assert not tick.action_ok[agent_id]
        assert keys[0].startswith("invalid.")
    else:
        # Accepted or a soft failure: the first line comes from the verb that ran.
        assert keys[0].split(".")[0] in verb_ids, keys


@pytest.mark.parametrize("world", bundled_worlds())
def test_fuzz_hostile_commands_never_raise(world: str) -> None:
    """Thousands of commands per world: no exception, feedback for everyone, a clear outcome."""
    game = make_game(world, agents=3, seed=11)
    rng = random.Random(world)
    rules = list(game.engine.rules.values())
    verb_ids = set(game.engine.rules)
    w = game.world
    names = [*w.obj_name_to_id, *w.npc_name_to_id, *(a.name for a in w.areas.values())]
    outcomes = {"ok": 0, "invalid": 0, "failed": 0}
    for _ in range(700):
        actions = {
            aid: listed_command(game, aid, rng)
            if rng.random() < 0.3
            else hostile_command(rng, rules, names)
            for aid in game.agent_ids
        }
        tick = game.tick(actions)
        for aid in game.agent_ids:
            check_feedback(tick, aid, verb_ids)
            kind = "ok" if tick.action_ok[aid] else "invalid" if tick.invalid[aid] else "failed"
            outcomes[kind] += 1
        if tick.terminated:
            game.reset(rng.randrange(1000))
    # The generator reaches all three outcomes often, so the checks above are exercised.
    assert min(outcomes.values()) > 200, outcomes
