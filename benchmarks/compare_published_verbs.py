"""Side-by-side outcome checks of the published games' verbs: our rule packs against AgentOdyssey's
own engine, the same commands in the same situations (docs/published-comparison.md).

For every situation (a verb, a small edit of its game's world so the spawn holds what the verb
needs, a short command script), both engines load the same world file, play the same commands for
each seed, and the outcome of the last command (the probe) is sorted into a kind: success, a
refusal reason, or a random branch. Each engine has its own patterns: ours reads the refusal key or
the event our rule emitted, theirs the feedback text of its observation. Deterministic situations
must give the same kind on every seed; random ones compare the rate of one kind with a binomial
standard error and agree when the two rates are within 3 standard errors of their difference.

AgentOdyssey's engine runs as a black box in a child process (`agentodyssey_pz.integrations.
published_engine.run_child`: this interpreter, working directory and first `sys.path` entry = the
user's copy), through its documented interface only:
`AgentOdysseyEnv(seed, agents, world_definition_path, run_dir, config_path,
enable_obs_valid_actions)`, `reset()`, `step({agent: command})`. Nothing of it is imported here.
It needs gymnasium, numpy, termcolor and psutil beside it.

    python benchmarks/compare_published_verbs.py                  # every situation, default seeds
    python benchmarks/compare_published_verbs.py --verbs jam,scavenge --random-seeds 2000
    python benchmarks/compare_published_verbs.py --markdown table.md --raw
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import logging
import math
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

# --------------------------------------------------------------------------------- situations


@attrs.frozen
class Kind:
    """One kind of outcome and how each engine shows it. `ours`: `key:<key>` (a feedback key of
    the probe tick, e.g. our rule's refusal key), `event:<type>` (an event about the agent that
    tick; `event:<type>:<field>=<value>` also tests a field of its payload) or `text:<regex>` (our
    feedback); `theirs`: a regex on AgentOdyssey's feedback text, or with `obs:` on its whole
    observation (case-insensitive, `^` at every line)."""

    name: str
    ours: str
    theirs: str


@attrs.frozen
class Situation:
    """A verb in a situation. `objects`/`npcs` are added to the spawn of the game's world;
    `npc_edits` change NPC prototypes (`{definition id: {field: value}}`); `script` is the
    commands of agent_0 tick by tick, the last being the probe. Commands may name things by
    definition: `@npc_<id>` (the name of the first such NPC in my area), `@obj_<id>` (the name of
    the first such object in my hands, then on my ground, else the definition's), `@area_<id>` (an
    area's name), `@locked` (the first locked neighbour of my area, else "nowhere").
    `rate` names the kind whose rate is compared (random situations; `expected` is the rate the
    published game's code gives, shown for reference)."""

    key: str
    game: str
    verb: str
    label: str
    script: tuple[str, ...]
    kinds: tuple[Kind, ...]
    objects: dict[str, int] = attrs.field(factory=dict)
    npcs: dict[str, int] = attrs.field(factory=dict)
    npc_edits: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    rate: str | None = None
    expected: float | None = None
    seeds: int = 3  # default number of seeds (random situations: more)


def K(name: str, ours: str, theirs: str) -> Kind:
    return Kind(name, ours, theirs)


# Refusal patterns of AgentOdyssey's feedback are short fragments, enough to tell its reasons
# apart; the kinds are ours (docs/published-comparison.md lists them).
# eavesdrop's alert line (AgentOdyssey): the heard enemy comes through.
ALERT = r"noise alerted .* burst through"
# listen's hint kinds: our event's `hint_type`; a few words of each of AgentOdyssey's phrasings.
LISTEN_HINTS = (
    K(
        "hint: object",
        "event:saltglass_listened:hint_type=nearby_object",
        r"white hush lies|left half-buried in salt|remembers a shape nearby",
    ),
    K(
        "hint: locked way",
        "event:saltglass_listened:hint_type=locked_path",
        r"sealed way sleeps|still bound shut|remembers a locked passage",
    ),
    K(
        "hint: rhythm",
        "event:saltglass_listened:hint_type=enemy_rhythm",
        r"hostile measure|habit:|catches the rhythm",
    ),
    K("hint: none", "event:saltglass_listened:hint_type=none", r"^I listened to the saltglass\.?$"),
)
RK = "robot_kingdom"
QU = "quarantine"
ME = "metropolis"
SA = "saltglass"
RE = "remnant"

SITUATIONS: tuple[Situation, ...] = (
    # ----------------------------------------------------------------- robot_kingdom
    Situation(
        "salvage-ok",
        RK,
        "salvage",
        "kit in hand, 2 scrap iron on the ground",
        ("pick up @obj_repair_kit", "salvage @obj_scrap_iron"),
        (K("success", "event:material_salvaged", r"^I salvaged"),),
        objects={"obj_repair_kit": 1, "obj_scrap_iron": 2},
    ),
    Situation(
        "salvage-nokit",
        RK,
        "salvage",
        "no repair kit in hand",
        ("salvage @obj_scrap_iron",),
        (K("refused: no kit", "key:salvage.no_tool", r"repair_kit must"),),
        objects={"obj_scrap_iron": 2},
    ),
    Situation(
        "salvage-short",
        RK,
        "salvage",
        "kit in hand, 1 scrap iron (2 needed)",
        ("pick up @obj_repair_kit", "salvage @obj_scrap_iron"),
        (K("refused: too few", "key:salvage.too_few", r"Need \d+ in the current area"),),
        objects={"obj_repair_kit": 1, "obj_scrap_iron": 1},
    ),
    Situation(
        "rally-ok",
        RK,
        "rally",
        "100 coins in the inventory, the marshal here",
        (
            "pick up @obj_small_bag",
            "equip @obj_small_bag",
            "store 100 @obj_coin inventory",
            "rally @npc_old_marshal",
        ),
        (K("success", "event:npc_rallied", r"^I rallied"),),
        objects={"obj_coin": 100},
        npcs={"npc_old_marshal": 1},
    ),
    Situation(
        "rally-poor",
        RK,
        "rally",
        "no coins, the marshal here",
        ("rally @npc_old_marshal",),
        (K("refused: cost", "key:rally.too_poor", r"Need \d+ coins but only have"),),
        npcs={"npc_old_marshal": 1},
    ),
    Situation(
        "rally-enemy",
        RK,
        "rally",
        "an automaton here",
        ("rally @npc_scrap_automaton",),
        (K("refused: enemy", "key:rally.enemy", r"hostile"),),
        npcs={"npc_scrap_automaton": 1},
    ),
    Situation(
        "rally-twice",
        RK,
        "rally",
        "rallied already, rally again",
        (
            "pick up @obj_small_bag",
            "equip @obj_small_bag",
            "store 100 @obj_coin inventory",
            "rally @npc_old_marshal",
            "rally @npc_old_marshal",
        ),
        (K("refused: has ally", "key:rally.has_ally", r"is already fighting alongside"),),
        objects={"obj_coin": 100},
        npcs={"npc_old_marshal": 1},
    ),
    Situation(
        "attack-rallied",
        RK,
        "attack",
        "rallied marshal, attack an automaton",
        (
            "pick up @obj_small_bag",
            "equip @obj_small_bag",
            "store 100 @obj_coin inventory",
            "rally @npc_old_marshal",
            "attack @npc_scrap_automaton",
        ),
        (
            K("bonus", "key:rally.strike", r"strikes alongside me, dealing \d+ bonus damage"),
            K("no bonus", "key:attack.hit", r"^I attacked"),
        ),
        objects={"obj_coin": 100},
        npcs={"npc_old_marshal": 1, "npc_scrap_automaton": 1},
    ),
    Situation(
        "siphon-ok",
        RK,
        "siphon",
        "in combat with an automaton, a cog in hand",
        ("pick up @obj_cog", "attack @npc_scrap_automaton", "siphon @obj_cog @npc_scrap_automaton"),
        (K("success", "event:energy_siphoned", r"^I channeled"),),
        objects={"obj_cog": 1},
        npcs={"npc_scrap_automaton": 1},
    ),
    Situation(
        "siphon-nocombat",
        RK,
        "siphon",
        "not in combat, a cog in hand",
        ("pick up @obj_cog", "siphon @obj_cog @npc_scrap_automaton"),
        (K("refused: no combat", "key:siphon.not_fighting", r"must be in active combat"),),
        objects={"obj_cog": 1},
        npcs={"npc_scrap_automaton": 1},
    ),
    Situation(
        "jam-random",
        RK,
        "jam",
        "in combat with an automaton (A A D A), a wood log",
        (
            "pick up @obj_wood_log",
            "attack @npc_scrap_automaton",
            "jam @obj_wood_log @npc_scrap_automaton",
        ),
        (
            K("removed attack", "text:no longer attack", r"disabled the machine's 'attack'"),
            K("removed defend", "text:no longer defend", r"disabled the machine's 'defend'"),
        ),
        objects={"obj_wood_log": 1},
        npcs={"npc_scrap_automaton": 1},
        rate="removed attack",
        expected=0.625,
        seeds=400,
    ),
    Situation(
        "jam-coin",
        RK,
        "jam",
        "in combat, coins in hand",
        ("pick up @obj_coin", "attack @npc_scrap_automaton", "jam @obj_coin @npc_scrap_automaton"),
        (K("refused: currency", "key:jam.currency", r"Coins are too small"),),
        npcs={"npc_scrap_automaton": 1},
    ),
    Situation(
        "overload-ok",
        RK,
        "overload",
        "buckler equipped, hellcoal in hand",
        (
            "pick up @obj_scrap_buckler",
            "equip @obj_scrap_buckler",
            "pick up @obj_hellcoal",
            "overload @obj_hellcoal",
        ),
        (K("success", "event:armor_overloaded", r"^I overloaded"),),
        objects={"obj_scrap_buckler": 1, "obj_hellcoal": 1},
    ),
    Situation(
        "overload-noarmor",
        RK,
        "overload",
        "hellcoal in hand, no armour",
        ("pick up @obj_hellcoal", "overload @obj_hellcoal"),
        (K("refused: no armour", "key:overload.no_armor", r"No armor is currently equipped"),),
        objects={"obj_hellcoal": 1},
    ),
    Situation(
        "overload-notcomponent",
        RK,
        "overload",
        "a cog in hand (not a component)",
        ("pick up @obj_cog", "overload @obj_cog"),
        (
            K(
                "refused: not a component",
                "key:overload.not_component",
                r"Eligible devil-forged components",
            ),
        ),
        objects={"obj_cog": 1},
    ),
    Situation(
        "scavenge-random",
        RK,
        "scavenge",
        "at the spawn, no kills",
        ("scavenge",),
        (
            K("nothing", "event:scavenge_failed", r"found nothing"),
            K("found", "event:area_scavenged", r"^I (searched|scavenged)(?!.*found nothing)"),
        ),
        rate="found",
        expected=0.30,
        seeds=400,
    ),
    Situation(
        "scavenge-cooldown",
        RK,
        "scavenge",
        "scavenged last tick",
        ("scavenge", "scavenge"),
        (K("refused: cooldown", "key:scavenge.cooldown", r"recently scavenged"),),
    ),
    # ----------------------------------------------------------------- quarantine
    Situation(
        "barricade-ok",
        QU,
        "barricade",
        "3 wood logs in the inventory, barricade the ward",
        (
            "pick up @obj_small_bag",
            "equip @obj_small_bag",
            "store 3 @obj_wood_log inventory",
            "barricade @area_hospital_ward",
        ),
        (K("success", "event:path_barricaded", r"^I barricaded"),),
        objects={"obj_wood_log": 3},
    ),
    Situation(
        "barricade-nowood",
        QU,
        "barricade",
        "no wood",
        ("barricade @area_hospital_ward",),
        (K("refused: wood", "key:barricade.no_wood", r"Need 3 wood units"),),
    ),
    Situation(
        "concoct-ok",
        QU,
        "concoct",
        "green and red herb in hand",
        (
            "pick up @obj_green_herb",
            "pick up @obj_red_herb",
            "concoct @obj_green_herb @obj_red_herb",
        ),
        (K("success", "event:herbs_concocted", r"^I combined .* to concoct"),),
        objects={"obj_green_herb": 1, "obj_red_herb": 1},
    ),
    Situation(
        "concoct-missing",
        QU,
        "concoct",
        "a green herb only, concoct green and blue",
        ("pick up @obj_green_herb", "concoct @obj_green_herb @obj_blue_herb"),
        (K("refused: missing herb", "key:concoct.missing", r"not enough"),),
        objects={"obj_green_herb": 1},
    ),
    Situation(
        "shove-ok",
        QU,
        "shove",
        "in combat with a zombie, a desk here",
        ("attack @npc_zombie", "shove @obj_desk @npc_zombie"),
        (K("success", "event:furniture_shoved", r"^I shoved"),),
        objects={"obj_desk": 1},
        npcs={"npc_zombie": 1},
    ),
    Situation(
        "shove-nocombat",
        QU,
        "shove",
        "a zombie and a desk here, no combat",
        ("shove @obj_desk @npc_zombie",),
        (K("refused: no combat", "key:shove.not_fighting", r"must be in active combat"),),
        objects={"obj_desk": 1},
        npcs={"npc_zombie": 1},
    ),
    Situation(
        "eavesdrop-random",
        QU,
        "eavesdrop",
        "in the ward, a zombie in the lobby",
        ("enter @area_hospital_ward", "eavesdrop @area_hospital_lobby"),
        (
            K("alert", "event:eavesdrop_alert", ALERT),
            K("heard", "event:eavesdrop", r"^I pressed my ear"),
        ),
        npcs={"npc_zombie": 1},
        rate="alert",
        expected=0.15,
        seeds=400,
    ),
    Situation(
        "eavesdrop-combat",
        QU,
        "eavesdrop",
        "in combat here",
        ("attack @npc_zombie", "eavesdrop @area_hospital_ward"),
        (K("refused: in combat", "key:eavesdrop.in_combat", r"Cannot eavesdrop while in combat"),),
        npcs={"npc_zombie": 1},
    ),
    Situation(
        "burn-ok",
        QU,
        "burn corpses",
        "a 1-HP zombie killed here, chemical and rag in hand",
        ("attack @npc_zombie", "pick up @obj_chemical", "pick up @obj_rag", "burn corpses"),
        (K("success", "event:corpses_burned", r"have been incinerated"),),
        objects={"obj_chemical": 1, "obj_rag": 1},
        npcs={"npc_zombie": 1},
        npc_edits={"npc_zombie": {"base_hp": 1, "slope_hp": 0}},
    ),
    Situation(
        "burn-nocorpse",
        QU,
        "burn corpses",
        "no corpse here",
        ("burn corpses",),
        (K("refused: no corpses", "key:burn_corpses.none", r"no corpses to burn"),),
    ),
    Situation(
        "refuel-ok",
        QU,
        "refuel",
        "lantern and fuel in hand",
        ("pick up @obj_lantern", "pick up @obj_lantern_fuel", "refuel @obj_lantern"),
        (K("success", "event:light_source_refueled", r"^I refueled"),),
        objects={"obj_lantern_fuel": 1},
    ),
    Situation(
        "refuel-nofuel",
        QU,
        "refuel",
        "lantern in hand, no fuel",
        ("pick up @obj_lantern", "refuel @obj_lantern"),
        (K("refused: no fuel", "key:refuel.no_fuel", r"No lantern_fuel found"),),
    ),
    # ----------------------------------------------------------------- metropolis
    Situation(
        "invoke-unlock",
        ME,
        "invoke law",
        "'open the passage' written, a statute shard in hand",
        (
            "pick up @obj_pen",
            "pick up @obj_paper",
            'write "open the passage" @obj_paper',
            "drop @obj_pen",
            "pick up @obj_statute_shard",
            "invoke law @obj_paper",
        ),
        (
            K(
                "success: unlock",
                "text:law opens the way",
                r"^I invoke the law(.|\n)*locked passages",
            ),
        ),
        objects={"obj_statute_shard": 1},
    ),
    Situation(
        "invoke-reveal",
        ME,
        "invoke law",
        "'reveal the hidden' written, a shard in hand",
        (
            "pick up @obj_pen",
            "pick up @obj_paper",
            'write "reveal the hidden" @obj_paper',
            "drop @obj_pen",
            "pick up @obj_statute_shard",
            "invoke law @obj_paper",
        ),
        (
            K(
                "success: reveal",
                "text:lays bare what was hidden",
                r"^I invoke the law(.|\n)*warps gravity",
            ),
        ),
        objects={"obj_statute_shard": 1},
    ),
    Situation(
        "invoke-pacify",
        ME,
        "invoke law",
        "'silence' written, a shard in hand, fighting an advocate",
        (
            "pick up @obj_pen",
            "pick up @obj_paper",
            'write "silence" @obj_paper',
            "drop @obj_pen",
            "pick up @obj_statute_shard",
            "attack @npc_rogue_advocate",
            "invoke law @obj_paper",
        ),
        (
            K(
                "success: pacify",
                "text:law silences violence",
                r"^I invoke the law(.|\n)*silences all hostility",
            ),
        ),
        objects={"obj_statute_shard": 1},
        npcs={"npc_rogue_advocate": 1},
    ),
    Situation(
        "invoke-noshard",
        ME,
        "invoke law",
        "'open the passage' written, no shard",
        (
            "pick up @obj_pen",
            "pick up @obj_paper",
            'write "open the passage" @obj_paper',
            "invoke law @obj_paper",
        ),
        (K("refused: no shard", "key:invoke_law.no_shard", r"statute_shard is required"),),
    ),
    Situation(
        "invoke-nokeyword",
        ME,
        "invoke law",
        "'hello' written, a shard in hand",
        (
            "pick up @obj_pen",
            "pick up @obj_paper",
            'write "hello" @obj_paper',
            "drop @obj_pen",
            "pick up @obj_statute_shard",
            "invoke law @obj_paper",
        ),
        (K("refused: no keyword", "key:invoke_law.no_keyword", r"recognizable legal invocation"),),
        objects={"obj_statute_shard": 1},
    ),
    Situation(
        "objection-sustained",
        ME,
        "file objection",
        "'no consecutive attacks' vs A A D A",
        (
            "pick up @obj_pen",
            "pick up @obj_paper",
            'write "no consecutive attacks" @obj_paper',
            "drop @obj_pen",
            "attack @npc_rogue_advocate",
            "file objection @npc_rogue_advocate",
        ),
        (K("sustained", "event:objection_sustained", r"OBJECTION SUSTAINED"),),
        npcs={"npc_rogue_advocate": 1},
    ),
    Situation(
        "objection-overruled",
        ME,
        "file objection",
        "'must defend' vs A A D A",
        (
            "pick up @obj_pen",
            "pick up @obj_paper",
            'write "must defend" @obj_paper',
            "drop @obj_pen",
            "attack @npc_rogue_advocate",
            "file objection @npc_rogue_advocate",
        ),
        (K("overruled", "event:objection_overruled", r"no applicable law was found.*OVERRULED"),),
        npcs={"npc_rogue_advocate": 1},
    ),
    Situation(
        "objection-nocombat",
        ME,
        "file objection",
        "not in combat",
        ("file objection @npc_rogue_advocate",),
        (K("refused: no combat", "key:file_objection.not_fighting", r"not in active combat"),),
        npcs={"npc_rogue_advocate": 1},
    ),
    Situation(
        "appeal-alive",
        ME,
        "appeal verdict",
        "alive, coins in hand",
        ("pick up @obj_coin", "appeal verdict"),
        (K("refused: not dying", "key:appeal_verdict.alive", r"I am not defeated"),),
    ),
    Situation(
        "appeal-ok",
        ME,
        "appeal verdict",
        "felled by a 500-attack advocate, coins in hand",
        ("pick up @obj_coin", "attack @npc_rogue_advocate", "appeal verdict"),
        (K("granted", "event:appeal_verdict_granted", r"appeal is GRANTED"),),
        npcs={"npc_rogue_advocate": 1},
        npc_edits={"npc_rogue_advocate": {"base_attack_power": 500, "slope_attack_power": 0}},
    ),
    # ----------------------------------------------------------------- saltglass
    Situation(
        "listen-paper",
        SA,
        "listen",
        "paper in hand at the hall",
        ("pick up @obj_paper", "listen saltglass"),
        LISTEN_HINTS,
    ),
    Situation(
        "listen-hint-a",
        SA,
        "listen",
        "paper in hand, a tidebound here, listen at tick 2",
        ("pick up @obj_paper", "listen saltglass"),
        LISTEN_HINTS,
        npcs={"npc_tidebound": 1},
    ),
    Situation(
        "listen-hint-b",
        SA,
        "listen",
        "paper in hand, a tidebound here, listen at tick 3",
        ("pick up @obj_paper", "wait", "listen saltglass"),
        LISTEN_HINTS,
        npcs={"npc_tidebound": 1},
    ),
    Situation(
        "listen-noglass",
        SA,
        "listen",
        "nothing in hand",
        ("listen saltglass",),
        (K("refused: no glass", "key:listen.no_glass", r"Cannot listen to the saltglass here"),),
    ),
    Situation(
        "listen-target",
        SA,
        "listen",
        "paper in hand, listen to the wind",
        ("pick up @obj_paper", "listen wind"),
        (K("refused: target", "key:listen.target", r"Invalid target for listen"),),
    ),
    Situation(
        "refract-ok",
        SA,
        "refract",
        "a lens shard in hand",
        ("pick up @obj_lens_shard", "refract @obj_lens_shard"),
        (K("success", "event:refracted", r"^I held up .* refracted"),),
        objects={"obj_lens_shard": 1},
    ),
    Situation(
        "refract-paper",
        SA,
        "refract",
        "paper in hand (not glass)",
        ("pick up @obj_paper", "refract @obj_paper"),
        (K("refused: not glass", "key:refract.not_glass", r"is not a glass object"),),
    ),
    # ----------------------------------------------------------------- remnant (part 1's packs)
    Situation(
        "eat-full",
        RE,
        "eat",
        "at full health, an apple here",
        ("eat @obj_apple",),
        (K("refused: full health", "key:eat.full_health", r"already at full health"),),
    ),
    Situation(
        "eat-ok",
        RE,
        "eat",
        "hurt by a 30-attack goblin, an apple on the ground",
        ("attack @npc_goblin_warrior", "eat @obj_apple"),
        (K("success", "event:object_consumed", r"^I ate "),),
        npcs={"npc_goblin_warrior": 1},
        npc_edits={
            "npc_goblin_warrior": {
                "base_attack_power": 30,
                "slope_attack_power": 0,
                "base_hp": 1000,
                "slope_hp": 0,
            }
        },
    ),
    Situation(
        "throw-random",
        RE,
        "throw",
        "an apple at a villager (lands with p = 0.7)",
        ("pick up @obj_apple", "throw @obj_apple @npc_villager"),
        (
            K("landed", "event:object_landed", r"obs:^I see [^\n]*\b2 apple\b"),
            K("shattered", "event:object_shattered", r"obs:^I see [^\n]*\b1 apple\b"),
        ),
        npcs={"npc_villager": 1},
        rate="landed",
        expected=0.7,
        seeds=400,
    ),
    Situation(
        "disassemble-random",
        RE,
        "disassemble",
        "a torch (rod 1, sulfur 1: each kept with p = 0.5)",
        ("disassemble @obj_torch",),
        (
            K("nothing back", "text:nothing", r"recovered nothing useful"),
            K("something back", "event:object_disassembled", r"^I disassembled .* and recovered"),
        ),
        rate="nothing back",
        expected=0.25,
        seeds=400,
    ),
    Situation(
        "pickpocket-random",
        RE,
        "pickpocket",
        "a villager, empty hands (p = 0.5)",
        ("pickpocket @npc_villager",),
        (
            K("stole", "event:npc_pickpocketed", r"^I pickpocketed|had nothing to steal"),
            K("caught", "event:agent_caught_stealing", r"was caught"),
        ),
        npcs={"npc_villager": 1},
        rate="stole",
        expected=0.5,
        seeds=400,
    ),
    Situation(
        "lockpick-random",
        RE,
        "lockpick",
        "a lockpick in hand, the first locked way if any (p = 0.2)",
        ("pick up @obj_lockpick", "lockpick @locked"),
        (
            K("picked", "event:path_unlocked", r"^I picked the lock"),
            K("failed", "event:lockpick_failed", r"failed to pick the lock"),
            K("no locked way", "text:no locked path leads", r"Cannot lockpick nowhere"),
        ),
        objects={"obj_lockpick": 1},
        rate="picked",
        seeds=400,
    ),
    Situation(
        "lockpick-wrench",
        RE,
        "lockpick",
        "a tension wrench only, the first locked way if any (p = 0.1)",
        ("pick up @obj_tension_wrench", "lockpick @locked"),
        (
            K("picked", "event:path_unlocked", r"^I picked the lock"),
            K("failed", "event:lockpick_failed", r"failed to pick the lock"),
            K("no locked way", "text:no locked path leads", r"Cannot lockpick nowhere"),
        ),
        objects={"obj_tension_wrench": 1},
        rate="picked",
        seeds=400,
    ),
    Situation(
        "lockpick-notool",
        RE,
        "lockpick",
        "no tool in hand",
        ("lockpick @locked",),
        (
            K("refused: no tool", "key:lockpick.no_tool", r"No lockpick tool in hand"),
            K("no locked way", "text:no locked path leads", r"Cannot lockpick nowhere"),
        ),
    ),
)


# --------------------------------------------------------------------------------- world files


def published_root() -> Path:
    from agentodyssey_pz.world.published.locate import find_published

    return Path(find_published().root)


def game_world(root: Path, game: str) -> dict[str, Any]:
    from agentodyssey_pz.world.published.games import game_spec

    spec = game_spec(game)
    return json.loads((root / spec.world_file).read_text(encoding="utf-8"))


def situation_world(root: Path, situation: Situation) -> dict[str, Any]:
    """The game's world file, edited for the situation: no quests, tutorial or expansion (their
    NPCs and draws would differ: our quest import of these games is partial), the spawn holding
    what the verb needs, and the features that make our loader play the game's packs (AgentOdyssey
    ignores them)."""
    from agentodyssey_pz.world.published.games import game_spec

    spec = game_spec(situation.game)
    world = copy.deepcopy(game_world(root, situation.game))
    world["custom_events"] = []
    features: dict[str, Any] = {"online_expansion": False, "rule_packs": list(spec.rule_packs)}
    if spec.rule_settings:
        features["rule_settings"] = copy.deepcopy(spec.rule_settings)
    if spec.synthesis != "base":
        features["synthesis"] = spec.synthesis
    if spec.darkness:
        features["darkness"] = {"light_objects": ["obj_torch"]}
    world["features"] = features
    spawn = world["initializations"]["spawn"]
    for obj, count in situation.objects.items():
        spawn["objects"][obj] = spawn["objects"].get(obj, 0) + count
    for npc, count in situation.npcs.items():
        spawn.setdefault("npcs", {})[npc] = spawn.get("npcs", {}).get(npc, 0) + count
    for npc in world["entities"]["npcs"]:
        npc.update(situation.npc_edits.get(npc["id"], {}))
    return world


def ours_world(world: dict[str, Any]) -> dict[str, Any]:
    """The situation's world for our engine: ids that nothing defines (remnant's and mark's) handled
    as our loader handles the game's own file (docs/agentodyssey-games.md), which it recognises
    by its content and an edited copy no longer matches."""
    from agentodyssey_pz.world.published.definition import fix_undefined_ids

    world = copy.deepcopy(world)
    fix_undefined_ids(world)
    return world


# --------------------------------------------------------------------------------- placeholders

_HOLE = re.compile(r"@((obj|npc|area)_[A-Za-z0-9_]+|locked)")


def _is_of(instance_id: str, definition: str) -> bool:
    return (
        instance_id == definition
        or re.fullmatch(re.escape(definition) + r"_\d+", instance_id) is not None
    )


def _fill_ours(game: Any, agent_id: str, command: str) -> str:
    world = game.world
    agent = game.agents[agent_id]

    def name(match: re.Match[str]) -> str:
        ident, kind = match.groups()
        if ident == "locked":
            for to, path in world.graph.neighbors(agent.area_id).items():
                if path["locked"]:
                    return world.areas[to].name
            return "nowhere"
        if kind == "area":
            return world.areas[ident].name
        if kind == "npc":
            for npc_id in world.areas[agent.area_id].npcs:
                if _is_of(npc_id, ident):
                    return world.npcs[npc_id].name
            return ident
        for obj_id in list(agent.hands) + list(world.areas[agent.area_id].objects):
            if _is_of(obj_id, ident):
                return world.name_of(obj_id)
        return world.name_of(ident)  # nothing of it here: the definition's name

    return _HOLE.sub(name, command)


# --------------------------------------------------------------------------------- our engine


def run_ours(world_file: Path, script: Sequence[str], seeds: Iterable[int]) -> list[dict[str, Any]]:
    """Our engine on the situation's world file, one game reset per seed: per seed, the probe
    tick's feedback, failure keys and event types of agent_0."""
    from agentodyssey_pz.engine.config import GameConfig
    from agentodyssey_pz.engine.game import Game

    game = Game(str(world_file), 1, GameConfig(tutorial=False))
    out = []
    for seed in seeds:
        game.reset(seed)
        result, trace = None, []
        for command in script:
            filled = _fill_ours(game, "agent_0", command)
            result = game.tick({"agent_0": filled})
            trace.append(f"> {filled}\n{result.feedback('agent_0')}")
        assert result is not None
        events = [e.type for e in result.events_of("agent_0")]
        trace.append(f"[keys {result.feedback_keys('agent_0')}; events {events}]")
        out.append(
            {
                "trace": trace,
                "feedback": result.feedback("agent_0"),
                "keys": result.feedback_keys("agent_0"),
                "events": events,
                "event_data": [(e.type, dict(e.data)) for e in result.events_of("agent_0")],
                "ok": bool(result.action_ok.get("agent_0")),
            }
        )
    return out


# --------------------------------------------------------------------------------- their engine

# The child's program, after `CHILD_PRELUDE` (`request`, `out`, `load`): plays every run, writes
# one JSON document.
_CHILD = r"""
import re, shutil, tempfile

package = request["package"]
Env, Agent = load(package + ".env").AgentOdysseyEnv, load(package + ".agent").Agent
HOLE = re.compile(r"@((obj|npc|area)_[A-Za-z0-9_]+|locked)")

def is_of(instance_id, definition):
    suffix = re.fullmatch(re.escape(definition) + r"_\d+", instance_id)
    return instance_id == definition or suffix is not None

def fill(env, agent, command):
    world = env.world
    here = env.curr_agents_state["area"][agent.id]
    def name(match):
        ident, kind = match.groups()
        if ident == "locked":
            for to, path in world.area_instances[here].neighbors.items():
                if path.locked:
                    return world.area_instances[to].name
            return "nowhere"
        if kind == "area":
            return world.area_instances[ident].name
        if kind == "npc":
            for npc_id in world.area_instances[here].npcs:
                if is_of(npc_id, ident):
                    return world.npc_instances[npc_id].name
            return ident
        for obj_id in list(agent.items_in_hands) + list(world.area_instances[here].objects):
            if is_of(obj_id, ident):
                for table in (world.container_instances, world.writable_instances, world.objects):
                    if obj_id in table:
                        return table[obj_id].name
        return world.objects[ident].name if ident in world.objects else ident
    return HOLE.sub(name, command)

def feedback(text):
    # The observation: time and place, a blank line, the feedback, then "I am holding ...".
    body = text.split("\n\n", 1)[1] if "\n\n" in text else text
    return body.split("\nI am holding", 1)[0].strip()

results = []
for run in request["runs"]:
    run_dir = tempfile.mkdtemp(prefix="agentodyssey-verbs-")
    try:
        config = os.path.join(run_dir, "config.json")
        shutil.copy(request["config"], config)
        with contextlib.redirect_stdout(io.StringIO()):
            agent = Agent("agent_0", "agent_0")
            env = Env(seed=run["seed"], agents=[agent], world_definition_path=run["world"],
                      run_dir=run_dir, config_path=config, enable_obs_valid_actions=False)
            env.reset()
            obs, trace = None, []
            for command in run["script"]:
                filled = fill(env, agent, command)
                obs, reward, terminated, info = env.step({"agent_0": filled})
                trace.append("> " + filled + "\n" + feedback(obs["agent_0"]["text"]))
        results.append({"feedback": feedback(obs["agent_0"]["text"]), "trace": trace,
                        "obs": obs["agent_0"]["text"],
                        "invalid": bool(info["step_invalid_action"]["agent_0"])})
    except Exception as exc:
        results.append({"error": repr(exc)})
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
out.write(json.dumps(results))
"""


def run_theirs(root: Path, game: str, runs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """AgentOdyssey's engine of `game` on each run (`{world, seed, script}`), all in one child.
    A run takes about 0.1 s; the time limit only guards against a hang."""
    from agentodyssey_pz.integrations.published_engine import engine_package, run_child
    from agentodyssey_pz.world.published.games import game_spec

    spec = game_spec(game)
    package = engine_package(spec.folder)
    request = {
        "package": package,
        "config": str(root / "assets" / "env_configs" / spec.folder / "initial.json"),
        "runs": list(runs),
    }
    return run_child(root, _CHILD, request, what=package, timeout=120 + 5 * len(runs))


# --------------------------------------------------------------------------------- classifying

OTHER = "other"


def classify_ours(situation: Situation, outcome: dict[str, Any]) -> str:
    for kind in situation.kinds:
        how, _, what = kind.ours.partition(":")
        if how == "key" and what in outcome["keys"]:
            return kind.name
        if how == "event":
            type_, _, condition = what.partition(":")
            field, _, value = condition.partition("=")
            for event, data in outcome.get("event_data", [(e, {}) for e in outcome["events"]]):
                if event == type_ and (not condition or str(data.get(field)) == value):
                    return kind.name
        if how == "text" and re.search(what, outcome["feedback"], re.IGNORECASE | re.MULTILINE):
            return kind.name
    return OTHER


def classify_theirs(situation: Situation, outcome: dict[str, Any]) -> str:
    if "error" in outcome:
        return "crash"
    for kind in situation.kinds:
        pattern, text = kind.theirs, outcome["feedback"]
        if pattern.startswith("obs:"):  # the whole observation, not only the feedback
            pattern, text = pattern[4:], outcome.get("obs", "")
        if re.search(pattern, text, re.IGNORECASE | re.MULTILINE):
            return kind.name
    return OTHER


@attrs.frozen
class Row:
    situation: Situation
    seeds: int
    ours: Counter[str]
    theirs: Counter[str]
    same_per_seed: int  # seeds whose two kinds are equal
    samples: tuple[str, str]  # the first seed's ticks on each engine (for --raw)
    odd: tuple[tuple[int, str, str, str, str], ...] = ()  # seeds whose kinds differ or are "other"

    def rate(self, counts: Counter[str]) -> tuple[float, float]:
        assert self.situation.rate is not None
        p = counts[self.situation.rate] / self.seeds
        return p, math.sqrt(p * (1 - p) / self.seeds)

    @property
    def agree(self) -> bool:
        if OTHER in self.ours or OTHER in self.theirs or "crash" in self.theirs:
            return False
        if self.situation.rate is None:
            return self.same_per_seed == self.seeds
        if set(self.ours) != set(self.theirs) and self.seeds >= 100:
            return False
        (p, a), (q, b) = self.rate(self.ours), self.rate(self.theirs)
        se = math.sqrt(a * a + b * b)
        return abs(p - q) <= 3 * se if se > 0 else p == q


def compare(
    situations: Sequence[Situation], seeds: int | None, random_seeds: int | None, root: Path
) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="compare-verbs-") as tmp:
        files = {}
        for situation in situations:
            world = situation_world(root, situation)
            theirs_file = Path(tmp) / f"{situation.key}.json"
            theirs_file.write_text(json.dumps(world), encoding="utf-8")
            ours_file = Path(tmp) / f"{situation.key}.ours.json"
            ours_file.write_text(json.dumps(ours_world(world)), encoding="utf-8")
            files[situation.key] = (ours_file, theirs_file)

        def count(situation: Situation) -> int:
            if situation.rate is not None:
                return random_seeds or situation.seeds
            return seeds or situation.seeds

        theirs: dict[str, list[dict[str, Any]]] = {}
        for game in dict.fromkeys(s.game for s in situations):
            mine = [s for s in situations if s.game == game]
            runs = [
                {"world": str(files[s.key][1]), "seed": seed, "script": list(s.script)}
                for s in mine
                for seed in range(count(s))
            ]
            answers = iter(run_theirs(root, game, runs))
            for s in mine:
                theirs[s.key] = [next(answers) for _ in range(count(s))]
        for situation in situations:
            ours = run_ours(files[situation.key][0], situation.script, range(count(situation)))
            kinds_ours = [classify_ours(situation, o) for o in ours]
            kinds_theirs = [classify_theirs(situation, t) for t in theirs[situation.key]]
            rows.append(
                Row(
                    situation,
                    count(situation),
                    Counter(kinds_ours),
                    Counter(kinds_theirs),
                    sum(a == b for a, b in zip(kinds_ours, kinds_theirs, strict=True)),
                    (
                        "\n".join(ours[0]["trace"]),
                        "\n".join(theirs[situation.key][0].get("trace", []))
                        or theirs[situation.key][0].get("error", ""),
                    ),
                    tuple(
                        (seed, a, b, o["feedback"], t.get("feedback", t.get("error", "")))
                        for seed, (a, b, o, t) in enumerate(
                            zip(kinds_ours, kinds_theirs, ours, theirs[situation.key], strict=True)
                        )
                        if a != b or OTHER in (a, b)
                    ),
                )
            )
    return rows


# --------------------------------------------------------------------------------- the table

HEADER = (
    "game",
    "verb",
    "situation",
    "seeds",
    "ours",
    "theirs",
    "rate ours",
    "rate theirs",
    "same seed by seed",
    "agree",
)


def _kinds(counts: Counter[str]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))


def _rate(row: Row, counts: Counter[str]) -> str:
    if row.situation.rate is None:
        return ""
    p, se = row.rate(counts)
    return f"{p:.3f} ± {se:.3f}"


def table_rows(rows: Sequence[Row]) -> list[tuple[str, ...]]:
    out = []
    for row in rows:
        s = row.situation
        label = s.label
        if s.rate is not None:
            label += f" (rate of {s.rate}" + (f"; expected {s.expected})" if s.expected else ")")
        out.append(
            (
                s.game,
                s.verb,
                label,
                str(row.seeds),
                _kinds(row.ours),
                _kinds(row.theirs),
                _rate(row, row.ours),
                _rate(row, row.theirs),
                f"{row.same_per_seed}/{row.seeds}",
                "yes" if row.agree else "NO",
            )
        )
    return out


def markdown(rows: Sequence[Row]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(cells) + " |" for cells in table_rows(rows)]
    return "\n".join(lines) + "\n"


def plain(rows: Sequence[Row]) -> str:
    cells = [HEADER, *table_rows(rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEADER))]
    return "\n".join("  ".join(c[i].ljust(widths[i]) for i in range(len(HEADER))) for c in cells)


def select(verbs: str | None, keys: str | None) -> list[Situation]:
    chosen = list(SITUATIONS)
    if verbs:
        wanted = {v.strip() for v in verbs.split(",")}
        chosen = [s for s in chosen if s.verb in wanted]
    if keys:
        wanted = {k.strip() for k in keys.split(",")}
        chosen = [s for s in chosen if s.key in wanted]
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbs", help="comma-separated verbs (default: all)")
    parser.add_argument("--situations", help="comma-separated situation keys")
    parser.add_argument("--seeds", type=int, help="seeds per deterministic situation")
    parser.add_argument("--random-seeds", type=int, help="seeds per random situation")
    parser.add_argument("--markdown", help="also write the table as Markdown to this file")
    parser.add_argument("--raw", action="store_true", help="print one probe feedback per engine")
    parser.add_argument("--list", action="store_true", help="list the situations and stop")
    args = parser.parse_args(argv)
    situations = select(args.verbs, args.situations)
    if args.list:
        for s in situations:
            print(f"{s.key:24} {s.game:14} {s.verb:16} {s.label}")
        return 0
    if not situations:
        print("no situation matches", file=sys.stderr)
        return 2
    from agentodyssey_pz.integrations.published_engine import EngineUnavailable

    logging.disable(logging.WARNING)
    try:
        root = published_root()
    except Exception as exc:  # PublishedGameError: no copy
        print(f"AgentOdyssey's published copy is needed: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        rows = compare(situations, args.seeds, args.random_seeds, root)
    except EngineUnavailable as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(plain(rows))
    if args.raw:
        for row in rows:
            ours, theirs = row.samples
            print(f"\n== {row.situation.key}\n-- ours:\n{ours}\n-- theirs:\n{theirs}")
            for seed, a, b, o, t in row.odd[:3]:
                print(f"-- seed {seed}: ours {a}, theirs {b}\n{o}\n--\n{t}")
    print(f"\n{len(rows)} situations in {time.perf_counter() - started:.1f} s")
    if args.markdown:
        Path(args.markdown).write_text(markdown(rows), encoding="utf-8")
    return 0 if all(row.agree for row in rows) else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
