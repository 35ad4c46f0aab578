"""Episodic-memory QA and world-knowledge QA: multiple-choice questions made from a trajectory log
and its world, reference answers, and a scorer for any agent that answers text.

Side module (evaluation). The categories are AgentOdyssey's (the wording is ours):

- episodic (one agent's own episode, from its log and a replay of it, `replay_facts`):
  `visited_area`, `crafted_object`, `killed_npc`, `acquired_object` (answer "none" when the
  agent did none of it), `action_at_time_location` (what it did at an area and clock time),
  `next_action` (the action after five consecutive ones), `drop_discard_location` (where it
  dropped or discarded an object it let go of in one area only);
- world knowledge (the world at the start of the episode): `craft_ingredient`,
  `craft_ingredient_quantity`, `npc_holds_object`, `object_distribution` (an area where an
  object lies at the start, or "none"), `spatial_connection`, `action_rules` (the verb a
  description describes), `step_rules` (which description is of a rule that acts on its own).

Each question has up to `MAX_CHOICES` choices, the right one among distractors of its kind drawn
from the world or the episode. Generation is deterministic: candidates are sorted, and every
category draws from its own `random.Random` seeded with the seed and the category's name.
`next_action` leaves out a run of five actions that is followed by different actions at
different times (AgentOdyssey keeps it, with two right answers and one counted).

An answerer is anything with `answer_questions(questions: list[str]) -> list[str]` (the texts of
`Question.prompt`). `score` accepts an answer that is the 0-based number of the right choice
(AgentOdyssey's rule) or, when it is not a number, the right choice's text (case and surrounding
spaces ignored). Ask before play and after to measure what playing taught.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from agentodyssey_pz.evaluate.replay_facts import EpisodeFacts, replay_facts

MAX_CHOICES = 10
PER_CATEGORY = 20
NONE = "none"
EPISODIC = (
    "visited_area",
    "crafted_object",
    "killed_npc",
    "acquired_object",
    "action_at_time_location",
    "next_action",
    "drop_discard_location",
)
WORLD = (
    "craft_ingredient",
    "craft_ingredient_quantity",
    "npc_holds_object",
    "object_distribution",
    "spatial_connection",
    "action_rules",
    "step_rules",
)
# Step rules that run the game's scripted content rather than its dynamics (AgentOdyssey leaves
# its tutorial and quest rules out of these questions too).
SCRIPTED_STEP_RULES = ("tutorial_room_step", "main_quest_step", "side_quest_step")


@attrs.frozen
class Question:
    category: str
    question: str
    choices: tuple[str, ...]
    answer: int  # index of the right choice

    @property
    def prompt(self) -> str:
        """The question as an answerer reads it."""
        listed = "\n".join(f"{i}. {choice}" for i, choice in enumerate(self.choices))
        return (
            f"{self.question}\n{listed}\n"
            "Reply with the number of the right choice only (numbers start at 0)."
        )

    @property
    def reference(self) -> str:
        return self.choices[self.answer]

    def as_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "question": self.question,
            "choices": list(self.choices),
            "answer": self.answer,
        }


class Answerer(Protocol):
    def answer_questions(self, questions: list[str]) -> list[str]: ...


# ---------------------------------------------------------------------- building questions
def _question(
    rng: random.Random, category: str, text: str, answer: str, pool: Iterable[str]
) -> Question:
    distractors = sorted({p for p in pool if p and p != answer})
    picked = rng.sample(distractors, min(MAX_CHOICES - 1, len(distractors)))
    choices = [*picked, answer]
    rng.shuffle(choices)
    return Question(category, text, tuple(choices), choices.index(answer))


def _sample(rng: random.Random, items: Sequence[Any], k: int) -> list[Any]:
    return list(items) if len(items) <= k else rng.sample(list(items), k)


def _rng(seed: int, category: str) -> random.Random:
    return random.Random(f"{seed}:{category}")


def episodic_questions(
    facts: EpisodeFacts,
    agent: str,
    records: Sequence[Mapping[str, Any]],
    *,
    per_category: int = PER_CATEGORY,
    seed: int = 0,
) -> list[Question]:
    """Questions on one agent's episode (its step records in tick order, and the replay's
    facts)."""
    world = facts.env.game.world
    mine = facts.agents[agent]
    area_names = {a.name for a in world.areas.values()}
    object_names = {o.name for o in world.objects.values()}
    npc_names = {world.npc_protos[n].name for n in world.npc_protos}
    out: list[Question] = []
    sets = (
        ("visited_area", "Which area did you visit?", mine.visited, world.areas, area_names),
        ("crafted_object", "Which object did you craft?", mine.crafted, world.objects,
         object_names),
        ("killed_npc", "Which character did you kill?", mine.killed, world.npc_protos, npc_names),
        ("acquired_object", "Which object did you come to carry?", mine.acquired, world.objects,
         object_names),
    )  # fmt: skip
    for category, text, ids, table, names in sets:
        rng = _rng(seed, category)
        done = sorted({table[i].name for i in ids if i in table})
        if not done:
            out.append(_question(rng, category, text, NONE, names))
            continue
        for answer in _sample(rng, done, per_category):
            out.append(_question(rng, category, text, answer, (names - set(done)) | {NONE}))
    acted = [(r, b) for r, b in zip(records, mine.before, strict=True) if r.get("command")]
    commands = {str(r["command"]) for r, _ in acted}
    rng = _rng(seed, "action_at_time_location")
    for record, before in _sample(rng, acted, per_category):
        text = f"What did you do in {before.area_name} at {before.time}?"
        out.append(
            _question(rng, "action_at_time_location", text, str(record["command"]), commands)
        )
    out += _next_action(records, commands, per_category, seed)
    out += _drop_location(records, mine.before, facts, per_category, seed)
    return out


def _next_action(
    records: Sequence[Mapping[str, Any]], commands: set[str], per_category: int, seed: int
) -> list[Question]:
    actions = [str(r["command"]) for r in records if r.get("command")]
    follows: dict[tuple[str, ...], set[str]] = {}
    for i in range(len(actions) - 5):
        follows.setdefault(tuple(actions[i : i + 5]), set()).add(actions[i + 5])
    starts = [i for i in range(len(actions) - 5) if len(follows[tuple(actions[i : i + 5])]) == 1]
    rng = _rng(seed, "next_action")
    out = []
    for i in _sample(rng, starts, per_category):
        text = f"You did, in this order: {'; '.join(actions[i : i + 5])}. What did you do next?"
        out.append(_question(rng, "next_action", text, actions[i + 5], commands))
    return out


def _drop_location(
    records: Sequence[Mapping[str, Any]],
    before: Sequence[Any],
    facts: EpisodeFacts,
    per_category: int,
    seed: int,
) -> list[Question]:
    rules = facts.env.game.engine.rules
    places: dict[tuple[str, str], set[str]] = {}
    for record, seen in zip(records, before, strict=True):
        verb = record.get("verb")
        if verb not in ("drop", "discard") or not record.get("command"):
            continue
        phrase = rules[verb].verb if verb in rules else verb
        thing = str(record["command"])[len(phrase) :].strip()
        if thing:
            places.setdefault((phrase, thing), set()).add(seen.area_name)
    single = sorted((key, next(iter(areas))) for key, areas in places.items() if len(areas) == 1)
    visited = {b.area_name for b in before}
    rng = _rng(seed, "drop_discard_location")
    return [
        _question(rng, "drop_discard_location", f"Where did you {verb} {thing}?", area, visited)
        for (verb, thing), area in _sample(rng, single, per_category)
    ]


def world_questions(env: Any, *, per_category: int = PER_CATEGORY, seed: int = 0) -> list[Question]:
    """Questions on the world of an env (a log's world at the start: `replay_env(header)`)."""
    game = env.game
    world = game.world
    objects = world.objects
    object_names = {o.name for o in objects.values()}
    area_names = {a.name for a in world.areas.values()}
    out: list[Question] = []
    recipes = sorted((o.id, i, q) for o in objects.values() for i, q in o.craft.ingredients.items()
                     if i in objects)  # fmt: skip
    rng = _rng(seed, "craft_ingredient")
    for product, ingredient, _ in _sample(rng, recipes, per_category):
        needs = {objects[i].name for i in objects[product].craft.ingredients if i in objects}
        text = f"Which ingredient does crafting {objects[product].name} take?"
        out.append(_question(rng, "craft_ingredient", text, objects[ingredient].name,
                             object_names - needs))  # fmt: skip
    rng = _rng(seed, "craft_ingredient_quantity")
    amounts = {_amount(q) for _, _, q in recipes} | {str(n) for n in range(1, MAX_CHOICES + 1)}
    for product, ingredient, quantity in _sample(rng, recipes, per_category):
        text = (f"How many {objects[ingredient].name} does crafting one {objects[product].name} "
                "take?")  # fmt: skip
        out.append(_question(rng, "craft_ingredient_quantity", text, _amount(quantity), amounts))
    holders = sorted((n.name, oid) for n in world.npcs.values() for oid in n.inventory
                     if oid in objects and n.area_id is not None)  # fmt: skip
    rng = _rng(seed, "npc_holds_object")
    for name, oid in _sample(rng, holders, per_category):
        held = {objects[o].name for n, o in holders if n == name}
        text = f"Which object does {name} carry at the start?"
        out.append(_question(rng, "npc_holds_object", text, objects[oid].name,
                             object_names - held))  # fmt: skip
    lying: dict[str, set[str]] = {}
    for area in world.areas.values():
        for oid in area.objects:
            found = world.find_def(oid)
            if found is not None:
                lying.setdefault(found.id, set()).add(area.name)
    rng = _rng(seed, "object_distribution")
    for oid in _sample(rng, sorted(objects), per_category):
        where = sorted(lying.get(oid, ()))
        answer = rng.choice(where) if where else NONE
        text = (f"In which area does {objects[oid].name} lie at the start? (\"{NONE}\": "
                "nowhere)")  # fmt: skip
        pool = (area_names - set(where)) | ({NONE} if where else set())
        out.append(_question(rng, "object_distribution", text, answer, pool))
    rng = _rng(seed, "spatial_connection")
    linked = sorted(a for a in world.areas if a in world.graph and world.graph.neighbors(a))
    for area_id in _sample(rng, linked, per_category):
        near = sorted(world.areas[n].name for n in world.graph.neighbors(area_id)
                      if n in world.areas)  # fmt: skip
        if not near:
            continue
        name = world.areas[area_id].name
        pool = area_names - set(near) - {name}
        text = f"Which area is next to {name}?"
        out.append(_question(rng, "spatial_connection", text, rng.choice(near), pool))
    verbs = [r for r in game.engine.rules.values() if r.description]
    rng = _rng(seed, "action_rules")
    for rule in _sample(rng, verbs, per_category):
        text = f'Which action is this: "{rule.description}"?'
        out.append(_question(rng, "action_rules", text, rule.verb, {r.verb for r in verbs}))
    steps = [r for r in game.step_rules if r.description and r.name not in SCRIPTED_STEP_RULES]
    rng = _rng(seed, "step_rules")
    for rule in _sample(rng, steps, per_category):
        text = "Which of these happens in this world without anyone choosing to do it?"
        out.append(_question(rng, "step_rules", text, rule.description,
                             {r.description for r in verbs}))  # fmt: skip
    return out


def _amount(quantity: float) -> str:
    return str(int(quantity)) if float(quantity).is_integer() else str(quantity)


def questions_from_log(
    path: Any, agent: str, *, per_category: int = PER_CATEGORY, seed: int = 0
) -> tuple[list[Question], list[Question]]:
    """(episodic, world-knowledge) questions for one agent of a trajectory log."""
    from agentodyssey_pz.evaluate.trajectory import read_trajectory, records_by_agent, replay_env

    header, steps = read_trajectory(path)
    if agent not in header.get("policies", {}):
        raise ValueError(f"{path}: no agent {agent!r} in this log")
    facts = replay_facts(header, steps)
    records = records_by_agent(steps).get(agent, [])
    episodic = episodic_questions(facts, agent, records, per_category=per_category, seed=seed)
    world = world_questions(replay_env(header), per_category=per_category, seed=seed)
    return episodic, world


# ---------------------------------------------------------------------- scoring
def is_right(question: Question, answer: str) -> bool:
    """A 0-based choice number, or (when not a number) the right choice's text."""
    text = str(answer).strip()
    if text.isdigit():
        return int(text) == question.answer
    return text.casefold() == question.reference.strip().casefold()


def score(questions: Sequence[Question], answers: Sequence[str]) -> dict[str, Any]:
    """{"correct", "count", "accuracy", "categories": {category: {correct, count, accuracy}}}."""
    if len(answers) != len(questions):
        raise ValueError(f"{len(answers)} answers to {len(questions)} questions")
    categories: dict[str, dict[str, Any]] = {}
    for question, answer in zip(questions, answers, strict=True):
        entry = categories.setdefault(question.category, {"correct": 0, "count": 0})
        entry["count"] += 1
        entry["correct"] += is_right(question, answer)
    for entry in categories.values():
        entry["accuracy"] = round(entry["correct"] / entry["count"], 6)
    correct = sum(e["correct"] for e in categories.values())
    return {
        "correct": correct,
        "count": len(questions),
        "accuracy": round(correct / len(questions), 6) if questions else 0.0,
        "categories": categories,
    }


def ask(answerer: Answerer, questions: Sequence[Question]) -> dict[str, Any]:
    """Put the questions' prompts to an answerer and score its answers."""
    answers = answerer.answer_questions([q.prompt for q in questions])
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise ValueError("answer_questions must return a list of strings")
    return score(questions, answers)


class PerfectAnswerer:
    """Knows the reference answers (a test's upper bound): answers each prompt it was given."""

    def __init__(self, questions: Iterable[Question]) -> None:
        self._answers = {q.prompt: str(q.answer) for q in questions}

    def answer_questions(self, questions: list[str]) -> list[str]:
        return [self._answers.get(prompt, "") for prompt in questions]


class RandomAnswerer:
    """Picks a listed choice number at random (a test's chance level)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def answer_questions(self, questions: list[str]) -> list[str]:
        out = []
        for prompt in questions:
            numbers = [line.split(".", 1)[0] for line in prompt.splitlines()[1:-1]]
            out.append(self._rng.choice(numbers) if numbers else "0")
        return out
