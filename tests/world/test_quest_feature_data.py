"""Checking the main-quest features AgentOdyssey's published quests need
(docs/world-format.md#111-main-quest): a quest using every one of them loads; each mistake (an
unknown key, a `$variable` of the wrong kind, an unknown id, a value outside its choices, a field
with the wrong source) is refused with its JSON path."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from conftest import load_raw

from agentodyssey_pz.errors import QuestDataError
from agentodyssey_pz.world.quests import load_quests, texts_to_write
from agentodyssey_pz.world.validate import parse_definition


def tiny() -> Any:
    return parse_definition(load_raw("tiny_world.json"))


def cond(kind: str, **params: Any) -> dict[str, Any]:
    return {"kind": kind, **params}


CONDITIONS = [
    cond("killed_matching", n=3, enemy_only=True, dark_area=True, min_area_level=1,
         roles=["beast"]),
    cond("killed_each_role", roles=["beast", "bandit"], enemy_only=True),
    cond("lit_dark_areas", k="$two", light_object="obj_quill"),
    cond("paper_text_equals_in_area", text="$word", match="contains", object="obj_label"),
    cond("paper_with_text_in_area", text="salt", area="$vault", match="equals"),
    cond("paper_text_equals_in_hands", text="$word", where="hands+equipped"),
    cond("writable_text_equals_in_inventory", text="salt", where="hands+inventory+held",
         object="obj_label", match="contains"),
    cond("talked_to", npc="$hermit", area="$vault", carrying_text="$word",
         carrying_where="hands+inventory"),
    cond("bought_from", npc="$fence", objects=["obj_cider"]),
    cond("npc_dead", npc="$brute"),
    cond("object_on_ground", objects=["obj_pear", "$seal", "$pear_id"], area="$cellar"),
    cond("npc_coins_at_least", npc="$fence", coins=15),
    cond("area_clear", area="$cellar"),
    cond("area_clear", area="area_rows"),
    cond("visited_k_of_area_set", areas="$cellar", k=1, history="episode",
         include_current=True),
    cond("has_category", category="weapon", where="hands+equipped+inventory"),
    cond("equipped_min_level", category="armor", min_level=2),
]  # fmt: skip


def full_quest() -> dict[str, Any]:
    """A valid quest for the tiny world using every new feature."""
    return {
        "main_quest": {
            "title": "All of it",
            "guide": {"npc": "npc_q_guide", "names": ["Ada", "Bram"], "remind_every": 30,
                      "name_order": "shuffled"},
            "npcs": [
                {"id": "npc_q_guide", "name": "q_guide", "role": "guide", "enemy": False},
                {"id": "npc_q_brute", "name": "q_brute", "role": "bandit", "enemy": True,
                 "unique": False, "combat_pattern": ["attack", "wait"]},
                {"id": "npc_q_hermit", "name": "q_hermit", "role": "sage", "enemy": False},
            ],
            "setup": [
                {"let": "word", "value": "brine"},
                {"let": "two", "value": 2},
                {"let": "pear_id", "value": "obj_pear"},
                {"let": "vault", "area": "area_vault"},
                {"let": "cellar", "areas": ["area_vats", "area_vault"]},
                {"let": "lair", "pick_areas": 2, "keep": "first"},
                {"let": "fence", "place_npc": "npc_cider_seller", "in": "$lair",
                 "stock": {"obj_cider": 2}, "min_coins": 50},
                {"let": "hermit", "place_npc": "npc_q_hermit", "in": "area_vats"},
                {"let": "brute", "place_npc": "npc_q_brute", "in": "$vault"},
                {"let": "seal", "place_object": "obj_label", "in": "$lair",
                 "unless_anywhere_on_ground": True},
            ],
            "bosses": {
                "warden": {
                    "npc": "npc_q_brute", "in": "$lair", "hp": 160, "attack": 36,
                    "shared": True, "reset_hp_on_defeat": "stage_start",
                    "modifiers": [
                        {"when_carrying_text": {"text": "$word", "match": "contains"},
                         "where": "boss_home", "once": True, "attack_cap": 30, "max_hp": 120},
                        {"when_held": ["obj_pruner"], "attack": 45},
                        {"when_carrying_text": {"text": "calm"}, "attack_cap": 10},
                    ],
                },
            },
            "chapters": [
                {
                    "id": "one",
                    "title": "One",
                    "stages": [
                        {"id": "all", "objective": "Everything, at {vault}.",
                         "done_all": copy.deepcopy(CONDITIONS),
                         "on_start": [{"spawn_boss": "warden"}],
                         "on_complete": [{"give": {"obj_pear": 1, "$currency": 2},
                                          "unless_on_ground": True}]},
                        {"id": "win", "objective": "Win.", "quest_complete": True,
                         "done_any": [{"kind": "boss_already_defeated", "boss": "warden"}]},
                    ],
                },
            ],
        }
    }  # fmt: skip


def test_a_quest_using_every_feature_loads() -> None:
    quests = load_quests(full_quest(), tiny())
    quest = quests.main_quest
    assert quest is not None
    assert quest.bosses["warden"].shared and quest.bosses["warden"].modifiers[0].once
    assert quest.guide.remind_every == 30 and quest.guide.name_order == "shuffled"
    assert quest.setup[5].keep == "first" and quest.setup[9].place_object == "obj_label"
    assert quest.chapters[0].stages[0].on_complete[0].unless_on_ground
    # Texts the discrete `write` catalogue offers: the conditions' texts and carried texts, the
    # modifiers' texts, fixed variables resolved.
    assert texts_to_write(quests) == ("brine", "salt", "calm")


def step(data: dict[str, Any], index: int) -> dict[str, Any]:
    return data["main_quest"]["setup"][index]


def condition(data: dict[str, Any], index: int) -> dict[str, Any]:
    return data["main_quest"]["chapters"][0]["stages"][0]["done_all"][index]


def boss(data: dict[str, Any]) -> dict[str, Any]:
    return data["main_quest"]["bosses"]["warden"]


def modifier(data: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return boss(data)["modifiers"][index]


MQ = "$.main_quest"
ALL = f"{MQ}.chapters[0].stages[0]"
COND = f"{ALL}.done_all"
SETUP = f"{MQ}.setup"
BOSS = f"{MQ}.bosses.warden"

# (name, mutation, expected path, message fragment)
MALFORMED: list[tuple[str, Callable[[dict], Any], str, str]] = [
    # unknown keys
    ("unknown condition parameter", lambda d: condition(d, 0).update(dark=True),
     f"{COND}[0].dark", "has no parameter 'dark'"),
    ("unknown modifier key", lambda d: modifier(d).update(when_carrying=["x"]),
     f"{BOSS}.modifiers[0]", "unknown key"),
    ("unknown carrying-text key", lambda d: modifier(d)["when_carrying_text"].update(where="x"),
     f"{BOSS}.modifiers[0].when_carrying_text", "unknown key"),
    ("unknown guide key", lambda d: d["main_quest"]["guide"].update(remind=3),
     f"{MQ}.guide", "unknown key"),
    # wrong kinds of $variables
    ("object_on_ground area is an NPC", lambda d: condition(d, 10).update(area="$fence"),
     f"{COND}[10].area", "is an NPC, expected an area or a list of areas"),
    ("area_clear area is a value", lambda d: condition(d, 12).update(area="$word"),
     f"{COND}[12].area", "is a value, expected an area or a list of areas"),
    ("an area list where one area goes", lambda d: condition(d, 7).update(area="$cellar"),
     f"{COND}[7].area", "is a list of areas, expected an area"),
    ("object_on_ground object is an area", lambda d: condition(d, 10).update(objects=["$vault"]),
     f"{COND}[10].objects[0]", "is an area, expected an object or a value"),
    ("a value that is no object id", lambda d: condition(d, 10).update(objects=["$word"]),
     f"{COND}[10].objects[0]", "'$word' holds 'brine', which is no object id"),
    ("talked_to an area", lambda d: condition(d, 7).update(npc="$vault"),
     f"{COND}[7].npc", "is an area, expected an NPC"),
    ("npc_dead a literal id", lambda d: condition(d, 9).update(npc="npc_q_brute"),
     f"{COND}[9].npc", "expected a variable naming an NPC"),
    ("a value that is no number", lambda d: condition(d, 0).update(n="$word"),
     f"{COND}[0].n", "'$word' holds 'brine', which is no whole number >= 0"),
    ("coins from an area", lambda d: condition(d, 11).update(coins="$vault"),
     f"{COND}[11].coins", "is an area, expected a value"),
    ("modifier text from an area",
     lambda d: modifier(d)["when_carrying_text"].update(text="$vault"),
     f"{BOSS}.modifiers[0].when_carrying_text.text", "is an area, expected a value"),
    ("a keep-first pick used as a list", lambda d: condition(d, 14).update(areas="$lair"),
     f"{COND}[14].areas", "is an area, expected a list of areas"),
    # unknown ids
    ("unknown light object", lambda d: condition(d, 2).update(light_object="obj_torch"),
     f"{COND}[2].light_object", "unknown object 'obj_torch'"),
    ("no light object and no torch", lambda d: condition(d, 2).pop("light_object"),
     f"{COND}[2].light_object", "no light_object given, and the world has no obj_torch"),
    ("unknown writable object", lambda d: condition(d, 3).update(object="obj_scroll"),
     f"{COND}[3].object", "unknown object 'obj_scroll'"),
    ("unknown object on the ground", lambda d: condition(d, 10).update(objects=["obj_moon"]),
     f"{COND}[10].objects[0]", "unknown object 'obj_moon'"),
    ("unknown bought object", lambda d: condition(d, 8).update(objects=["obj_moon"]),
     f"{COND}[8].objects", "unknown object 'obj_moon'"),
    ("unknown placed object", lambda d: step(d, 9).update(place_object="obj_moon"),
     f"{SETUP}[9].place_object", "unknown object 'obj_moon'"),
    ("unknown area to clear", lambda d: condition(d, 13).update(area="area_moon"),
     f"{COND}[13].area", "unknown area 'area_moon'"),
    ("unknown variable", lambda d: condition(d, 9).update(npc="$ghost"),
     f"{COND}[9].npc", "unknown variable '$ghost'"),
    # values outside their choices
    ("match", lambda d: condition(d, 3).update(match="like"),
     f"{COND}[3].match", "expected one of 'equals', 'contains'"),
    ("where", lambda d: condition(d, 5).update(where="pocket"), f"{COND}[5].where", "'carried'"),
    ("carrying_where", lambda d: condition(d, 7).update(carrying_where="bag"),
     f"{COND}[7].carrying_where", "expected one of"),
    ("history", lambda d: condition(d, 14).update(history="life"),
     f"{COND}[14].history", "expected one of 'quest', 'episode'"),
    ("include_current", lambda d: condition(d, 14).update(include_current="yes"),
     f"{COND}[14].include_current", "expected true or false"),
    ("enemy_only", lambda d: condition(d, 1).update(enemy_only=1),
     f"{COND}[1].enemy_only", "expected true or false"),
    ("roles empty", lambda d: condition(d, 1).update(roles=[]),
     f"{COND}[1].roles", "expected a non-empty list of NPC roles"),
    ("roles not words", lambda d: condition(d, 0).update(roles=["beast", 3]),
     f"{COND}[0].roles", "expected a non-empty list of NPC roles"),
    ("negative level", lambda d: condition(d, 16).update(min_level=-1),
     f"{COND}[16].min_level", "expected a whole number >= 0"),
    ("keep", lambda d: step(d, 5).update(keep="last"),
     f"{SETUP}[5].keep", "expected one of 'all', 'first'"),
    ("reset mode", lambda d: boss(d).update(reset_hp_on_defeat="half"),
     f"{BOSS}.reset_hp_on_defeat", "expected one of 'max', 'stage_start', 'never'"),
    ("modifier where", lambda d: modifier(d).update(where="anywhere"),
     f"{BOSS}.modifiers[0].where", "expected one of 'with_boss', 'boss_home'"),
    ("modifier match", lambda d: modifier(d)["when_carrying_text"].update(match="like"),
     f"{BOSS}.modifiers[0].when_carrying_text.match", "expected one of"),
    ("name order", lambda d: d["main_quest"]["guide"].update(name_order="random"),
     f"{MQ}.guide.name_order", "expected one of 'listed', 'shuffled'"),
    ("remind_every 0", lambda d: d["main_quest"]["guide"].update(remind_every=0),
     f"{MQ}.guide.remind_every", "must be at least 1"),
    ("shared not a bool", lambda d: boss(d).update(shared="yes"),
     f"{BOSS}.shared", "expected true or false"),
    ("negative cap", lambda d: modifier(d).update(attack_cap=-5),
     f"{BOSS}.modifiers[0].attack_cap", "must be at least 0"),
    ("a modifier changing nothing",
     lambda d: modifier(d, 1).pop("attack"), f"{BOSS}.modifiers[1]", "needs at least one of"),
    # fields with the wrong source
    ("keep without pick_areas", lambda d: step(d, 3).update(keep="first"),
     f"{SETUP}[3].keep", "'keep' goes with pick_areas"),
    ("in with a value", lambda d: step(d, 0).update({"in": "area_vats"}),
     f"{SETUP}[0].in", "'in' goes with place_npc or place_object"),
    ("stock on an object", lambda d: step(d, 9).update(stock={"obj_pear": 1}),
     f"{SETUP}[9].stock", "'stock' goes with place_npc"),
    ("unless_anywhere on an NPC", lambda d: step(d, 8).update(unless_anywhere_on_ground=True),
     f"{SETUP}[8].unless_anywhere_on_ground", "goes with place_object"),
    ("place_object without in", lambda d: step(d, 9).pop("in"),
     f"{SETUP}[9].in", "place_object needs 'in'"),
    ("two sources", lambda d: step(d, 9).update(place_npc="npc_q_hermit"),
     f"{SETUP}[9]", "needs exactly one of"),
    ("unless_on_ground on a boss spawn",
     lambda d: d["main_quest"]["chapters"][0]["stages"][0]["on_start"][0].update(
         unless_on_ground=True),
     f"{ALL}.on_start[0].unless_on_ground", "'unless_on_ground' goes with give"),
    ("carrying_where alone", lambda d: condition(d, 7).pop("carrying_text"),
     f"{COND}[7].carrying_where", "'carrying_where' goes with 'carrying_text'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "path", "fragment"),
    [pytest.param(m, p, f, id=name) for name, m, p, f in MALFORMED],
)
def test_a_mistake_is_refused_with_its_path(
    mutate: Callable[[dict], Any], path: str, fragment: str
) -> None:
    data = full_quest()
    mutate(data)
    with pytest.raises(QuestDataError) as info:
        load_quests(data, tiny())
    problems = info.value.problems
    assert any(p.path == path and fragment in p.message for p in problems), "\n".join(
        map(str, problems)
    )


def test_the_loader_leaves_the_data_as_it_was() -> None:
    data = full_quest()
    before = copy.deepcopy(data)
    load_quests(data, tiny())
    assert data == before
