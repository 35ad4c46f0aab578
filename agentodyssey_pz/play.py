"""Play the game in a terminal: a person is `agent_0`, policies play the other agents.

Side module (top). Works on a terminal (with readline line editing and history when available) and
through a pipe (commands read line by line from standard input, each echoed after the prompt, so a
transcript reads like a session). Besides the game's commands, a player may type:

    help      the verbs with their parameters, and the valid actions now (numbered)
    <number>  run that valid action from the last list
    look      show the observation again (no time passes)
    score     the reward so far, by component
    quit      stop (so does the end of the input)
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.evaluate.runner import BASE_ENV_SETTINGS, POLICY_SEED_STRIDE, build_policy
from agentodyssey_pz.rules.rewards import COMPONENTS

PLAYER = "agent_0"
PROMPT = "> "
QUIT = frozenset({"quit", "exit", "q"})


class Session:
    """One game for one person: the env, the other agents' policies, the terminal streams."""

    def __init__(
        self,
        env: Any,
        others: Mapping[str, Any],
        stdin: TextIO,
        stdout: TextIO,
        *,
        interactive: bool,
    ) -> None:
        self.env, self.others = env, dict(others)
        self.stdin, self.stdout, self.interactive = stdin, stdout, interactive
        self.observations: dict[str, Any] = {}
        self.infos: dict[str, Any] = {}
        self.choices: list[str] = []

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def read(self) -> str | None:
        """The next command line, or None at the end of the input."""
        if self.interactive:
            try:
                return input(PROMPT)
            except EOFError:
                self.say()
                return None
        self.stdout.write(PROMPT)
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        self.say(line.rstrip("\n"))  # echo, so a piped transcript shows what was typed
        return line

    def start(self, seed: int) -> None:
        self.observations, self.infos = self.env.reset(seed=seed)
        for index, agent in enumerate(self.env.possible_agents):
            policy = self.others.get(agent)
            if policy is not None and hasattr(policy, "bind"):
                policy.bind(self.env, agent, seed * POLICY_SEED_STRIDE + index)
        self.show()

    def show(self) -> None:
        self.say(self.observations[PLAYER]["text"].rstrip("\n"))

    def valid_now(self) -> list[str]:
        return [c for cmds in self.infos[PLAYER].get("valid_actions", {}).values() for c in cmds]

    def help(self) -> None:
        rules = self.env.game.engine.rules.values()
        width = max(len(rule.usage()) for rule in rules)
        self.say("Verbs (<...> are parameters):")
        for rule in rules:
            self.say(f"  {rule.usage():<{width}}  {rule.description}".rstrip())
        self.choices = self.valid_now()
        self.say("Valid actions now:")
        for number, command in enumerate(self.choices, start=1):
            self.say(f"  {number:3d}. {command}")
        self.say(
            "Also: look (observation again), score, help, quit; a number runs that valid action."
        )

    def score(self) -> None:
        total = self.env.game.scores[PLAYER]
        parts = ", ".join(f"{k} {v}" for k, v in total.components().items() if v) or "nothing yet"
        self.say(f"Score: score_total {total.score_total}, xp_total {total.xp_total} ({parts}).")

    def step(self, command: str) -> bool:
        """Play one tick with the player's command; False when the episode has ended."""
        actions: dict[str, Any] = {PLAYER: command}
        for agent in self.env.agents:
            if agent != PLAYER:
                actions[agent] = self.others[agent](self.observations[agent], self.infos[agent])
        self.observations, _, terminations, truncations, self.infos = self.env.step(actions)
        self.choices = []
        self.show()
        gained = self.infos[PLAYER]["reward_breakdown"]
        earned = ", ".join(f"+{v} {k}" for k, v in gained.items() if k in COMPONENTS and v)
        if earned:
            self.say(f"[{earned}]")
        if terminations[PLAYER] or truncations[PLAYER]:
            why = "the main quest is complete" if terminations[PLAYER] else "the time is up"
            self.say(f"The episode is over: {why}.")
            return False
        return True

    def run(self) -> None:
        while True:
            line = self.read()
            if line is None:
                break
            text = line.strip()
            word = text.casefold()
            if not text:
                continue
            if word in QUIT:
                break
            if word in ("help", "?"):
                self.help()
            elif word == "look":
                self.show()
            elif word == "score":
                self.score()
            elif text.isdigit():
                choices = self.choices or self.valid_now()
                number = int(text)
                if 1 <= number <= len(choices):
                    self.say(f"({choices[number - 1]})")
                    if not self.step(choices[number - 1]):
                        break
                else:
                    self.say(f"There is no valid action {number}; type help to list them.")
            elif not self.step(text):
                break
        self.score()


def play(
    world: str = "default",
    agents: int = 2,
    others: str = "random",
    seed: int = 0,
    *,
    steps: int = 1000,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    history_file: str | os.PathLike[str] | None = None,
    rule_packs: Sequence[str] = (),
) -> dict[str, int]:
    """Play until `quit`, the end of the input or the end of the episode; the final breakdown.

    `others` is the policy name (e.g. random, wait, explorer) of every agent but agent_0;
    `rule_packs` are pack folders to play with. With
    no streams given, standard input and output are used, with readline when standard input is a
    terminal."""
    from agentodyssey_pz.adapter.parallel import parallel_env

    # The env checks the seed only at reset, after the banner: check it first, like the rest.
    if type(seed) is not int or seed < 0:
        raise ConfigError(f"seed: expected a non-negative integer, got {seed!r}")
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    interactive = stdin is sys.stdin and stdout is sys.stdout and _is_tty(stdin)
    env = parallel_env(
        world=world,
        num_agents=agents,
        max_cycles=steps,
        rule_packs=tuple(rule_packs),
        **BASE_ENV_SETTINGS,
    )
    policies = {agent: other_policy(others) for agent in env.possible_agents if agent != PLAYER}
    session = Session(env, policies, stdin, stdout, interactive=interactive)
    history = _start_history(history_file) if interactive else None
    try:
        session.say(f"You are {PLAYER}; type help for commands, quit to stop.")
        session.start(seed)
        session.run()
    finally:
        if history is not None:
            _save_history(history)
        env.close()
    return env.game.scores[PLAYER].as_dict()


def other_policy(name: str) -> Any:
    """A policy for one of the other agents; a list of names gets a hint that one is expected."""
    try:
        return build_policy(name)
    except ConfigError as exc:
        if "," not in name:
            raise
        raise ConfigError(f"{exc} (one policy name: it plays every agent but {PLAYER})") from exc


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _start_history(path: str | os.PathLike[str] | None) -> Any:
    """Enable readline editing (and load a history file); the module and file, or None."""
    try:
        import readline
    except ImportError:  # not on every platform; input() still works without it
        return None
    if path is not None:
        with contextlib.suppress(OSError):  # no history yet
            readline.read_history_file(path)
    return readline, path


def _save_history(history: Any) -> None:
    readline, path = history
    if path is None:
        return
    # A history that cannot be saved is not worth failing the game over.
    with contextlib.suppress(OSError):
        readline.write_history_file(path)
