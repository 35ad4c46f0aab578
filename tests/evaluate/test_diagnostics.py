"""AgentOdyssey's diagnostics from trajectory logs: each definition with exact numbers on hand-made
records (compatible beside corrected, windows at their edges, missing fields), the same figures on
real logs of scripted policies (checked against the game's own records), the report's section and
the `diagnose` command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentodyssey_pz import cli
from agentodyssey_pz.evaluate import EvalConfig, evaluate, validate
from agentodyssey_pz.evaluate.diagnostics import (
    agent_diagnostics,
    diagnose_logs,
    diversity,
    episode_diagnostics,
    llm_figures,
    mean_diagnostics,
    prefix_verb,
    step_window_scores,
    window_scores,
)
from agentodyssey_pz.evaluate.trajectory import read_trajectory, state_at

VERBS = ("pick up", "take", "take out", "drop", "wait")  # "take" begins "take out"
VERB_IDS = {"pick_up": "pick up", "take": "take", "take_out": "take out", "drop": "drop"}


def step(command: str | None, verb: str | None, ok: bool = True, invalid: bool = False,
         **extra: Any) -> dict[str, Any]:  # fmt: skip
    return {
        "agent": "agent_0",
        "tick": 0,
        "command": command,
        "verb": verb,
        "reward": {},
        "flags": {"action_ok": ok, "invalid_action": invalid},
        **extra,
    }


# Six steps: a capitalised command (AgentOdyssey drops it), a command whose verb phrase another
# phrase begins ("take" steals "take out"), an unknown command, a refused drop.
RECORDS = [
    step("pick up stick", "pick_up"),
    step("Pick up stone", "pick_up"),
    step("wait", "wait"),
    step("take out box", "take_out"),
    step("dance", None, ok=False, invalid=True),
    step("drop stick", "drop", ok=False),
]


# ---------------------------------------------------------------------- the definitions
def test_prefix_matching_is_case_sensitive_and_first_phrase_wins() -> None:
    assert prefix_verb("pick up stick", VERBS) == "pick up"
    assert prefix_verb("Pick up stone", VERBS) is None
    assert prefix_verb(" wait", VERBS) is None
    assert prefix_verb("take out box", VERBS) == "take"
    assert prefix_verb(None, VERBS) is None


def test_diversity_is_entropy_over_ln_of_the_verb_count() -> None:
    assert diversity(["a", "b", "c", "d"], 5) == 0.861353  # ln 4 / ln 5
    assert diversity(["a", "a", "a"], 5) == 0.0
    assert diversity(["a", "b"], 2) == 1.0
    assert diversity([], 5) == 0.0
    assert diversity(["a"], 1) == 0.0  # ln 1 = 0: AgentOdyssey divides by zero


def test_compatible_and_corrected_figures_of_hand_made_records() -> None:
    figures = agent_diagnostics(RECORDS, VERBS, verb_ids=VERB_IDS, k=3)
    # Compatible: matched [pick up, wait, take, drop]; "Pick up stone" and "dance" dropped.
    assert figures["dropped_actions"] == 2
    assert figures["action_exploration"] == 0.8  # 4 of 5 verbs
    assert figures["action_diversity"] == 0.861353  # ln 4 / ln 5
    # Corrected: parsed [pick up, pick up, wait, take out, -, drop]; took effect: pick up,
    # wait, take out.
    assert figures["action_exploration_corrected"] == 0.6
    assert figures["action_diversity_corrected"] == 0.827729  # counts 2,1,1,1
    assert figures["invalid_action_rate"] == 0.166667
    assert figures["steps"] == 6 and figures["tutorial_steps"] == 0
    assert figures["verbs_total"] == 5
    # No replay: object figures are null.
    assert figures["object_exploration"] is None
    assert figures["object_exploration_corrected"] is None
    assert figures["objects_total"] is None


def test_windowed_diversity_compatible_and_corrected() -> None:
    figures = agent_diagnostics(RECORDS, VERBS, verb_ids=VERB_IDS, k=3)
    # Compatible: 4 matched actions, windows [pick up, wait, take], [wait, take, drop].
    assert figures["windows"] == 2
    assert figures["action_diversity_window"] == 0.682606  # ln 3 / ln 5 each
    # Corrected: windows of 3 steps at 0..3: (2,1), (1,1,1), (1,1), (1,1) verb counts.
    assert figures["windows_corrected"] == 4
    assert figures["action_diversity_window_corrected"] == 0.484862


def test_window_edges() -> None:
    actions = ["a", "b", "c"]
    assert window_scores(actions, 5, k=3) == [0.682606]  # exactly k: one window
    assert window_scores(actions, 5, k=4) == []  # fewer than k: none (AgentOdyssey)
    assert step_window_scores(actions, 5, k=4) == [0.682606]  # corrected: one of all
    assert window_scores(["a", "b", "c", "a"], 5, k=3) == [0.682606, 0.682606]
    assert step_window_scores([], 5, k=3) == []
    assert step_window_scores([None, None], 5, k=3) == [0.0]
    short = agent_diagnostics(RECORDS[:2], VERBS, verb_ids=VERB_IDS, k=3)
    assert (short["windows"], short["action_diversity_window"]) == (0, None)
    assert (short["windows_corrected"], short["action_diversity_window_corrected"]) == (1, 0.0)


def test_tutorial_steps_leave_the_action_figures_but_not_the_invalid_rate() -> None:
    tutorial = [True, True, True, False, True, False]
    figures = agent_diagnostics(RECORDS, VERBS, verb_ids=VERB_IDS, tutorial=tutorial, k=3)
    assert figures["tutorial_steps"] == 4
    assert figures["action_exploration"] == 0.4  # take, drop
    assert figures["action_exploration_corrected"] == 0.2  # take out (the drop was refused)
    assert figures["invalid_action_rate"] == 0.166667  # the invalid step was a tutorial one
    with pytest.raises(ValueError, match="tutorial flags for 2 records, got 6"):
        agent_diagnostics(RECORDS, VERBS, tutorial=[True, False])


def test_object_exploration_shares() -> None:
    figures = agent_diagnostics(RECORDS, VERBS, acquired=3, carried=4, object_kinds=51)
    assert figures["object_exploration"] == 0.058824
    assert figures["object_exploration_corrected"] == 0.078431
    assert figures["objects_total"] == 51


def test_missing_optional_fields_read_as_absent() -> None:
    bare = [{"agent": "a", "tick": 1, "reward": {}, "flags": {"action_ok": True,
             "invalid_action": False}}]  # fmt: skip
    figures = agent_diagnostics(bare, VERBS)
    assert figures["dropped_actions"] == 1
    assert figures["action_exploration"] == figures["action_exploration_corrected"] == 0.0
    assert agent_diagnostics([], VERBS)["invalid_action_rate"] == 0.0


# ---------------------------------------------------------------------- language-model figures
LLM = [
    {"input_tokens": 100, "output_tokens": 20, "seconds": 0.5, "format_error": False},
    {"input_tokens": 120, "output_tokens": 10, "seconds": 1.5, "format_error": True},
    {"input_tokens": 80, "output_tokens": 30, "seconds": 1.0, "format_error": False},
    {"input_tokens": 100, "output_tokens": 0, "seconds": 1.0, "format_error": True},
]


def test_llm_figures_from_the_llm_field() -> None:
    records = [step("wait", "wait", llm=call) for call in LLM]
    figures = llm_figures(records)
    assert figures["llm_steps"] == 4 and figures["format_errors"] == 2
    assert figures["format_error_rate"] == 0.5
    assert (figures["input_tokens"], figures["output_tokens"]) == (400, 60)
    assert figures["input_tokens_per_step"] == 100.0
    assert figures["output_tokens_per_step"] == 15.0
    assert figures["timing"] == {"seconds_per_step": 1.0, "llm_seconds": 4.0}


def test_scripted_agents_have_no_token_figures_and_no_format_errors() -> None:
    figures = llm_figures(RECORDS)
    assert figures["format_error_rate"] == 0.0 and figures["llm_steps"] == 0
    assert figures["input_tokens"] is None and figures["input_tokens_per_step"] is None
    assert figures["timing"] == {"seconds_per_step": None, "llm_seconds": None}


def test_means_leave_nulls_out() -> None:
    llm = agent_diagnostics([step("wait", "wait", llm=c) for c in LLM], VERBS)
    scripted = agent_diagnostics(RECORDS, VERBS, verb_ids=VERB_IDS)
    mean = mean_diagnostics([llm, scripted])
    assert mean["format_error_rate"] == 0.25  # (0.5 + 0) / 2
    assert mean["input_tokens_per_step"] == 100.0  # the scripted agent has none
    assert mean["input_tokens"] == 400 and mean["steps"] == 10
    assert mean["verbs_total"] == 5
    assert mean["object_exploration"] is None
    assert mean["timing"]["seconds_per_step"] == 1.0
    empty = mean_diagnostics([])
    assert empty["action_diversity"] is None and empty["steps"] is None


# ---------------------------------------------------------------------- real logs
@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    folder = tmp_path_factory.mktemp("logs")
    config = EvalConfig(episodes=2, steps=40, num_agents=4, seed=3, trajectory_dir=str(folder))
    return evaluate(config), folder


def test_real_logs_agree_with_the_game_and_the_report(run) -> None:
    report, folder = run
    path = folder / "episode-0000.jsonl"
    header, steps = read_trajectory(path)
    figures = episode_diagnostics(header, steps)
    end = state_at(path, max(int(s["tick"]) for s in steps)).game
    verbs_total = len(end.engine.rules)
    for agent, mine in figures.items():
        metrics = report["episodes"][0]["agents"][agent]
        # Scripted policies log catalogue labels: nothing dropped, compatible = corrected.
        assert mine["dropped_actions"] == 0
        assert mine["action_diversity"] == mine["action_diversity_corrected"]
        assert mine["verbs_total"] == verbs_total
        assert mine["action_exploration"] == round(len(metrics["verbs"]) / verbs_total, 6)
        assert mine["objects_total"] == len(end.world.definition.entities.objects)
        acquired = len(end.agents[agent].acquired)
        assert mine["object_exploration"] == round(acquired / mine["objects_total"], 6)
        assert mine["invalid_action_rate"] == metrics["invalid_action_rate"]
        assert mine["steps"] == metrics["steps"]
        assert mine["windows"] == 0  # 40 steps < 100
        assert mine["windows_corrected"] == 1
        assert mine["format_error_rate"] == 0.0 and mine["input_tokens"] is None
    assert report["diagnostics"]["episodes"][0]["agents"] == figures


def test_report_sections_validate_and_print(run) -> None:
    report, _ = run
    assert validate(report) == []
    section = report["diagnostics"]
    assert section["window"] == 100
    assert set(section["agents"]) == set(report["config"]["assignment"])
    assert set(section["policies"]) == set(report["config"]["assignment"].values())
    agent_0 = [ep["agents"]["agent_0"] for ep in section["episodes"]]
    assert section["agents"]["agent_0"]["mean"] == mean_diagnostics(agent_0)
    from agentodyssey_pz.evaluate import format_table

    text = format_table(report)
    assert "diagnostics (AgentOdyssey's definitions" in text and "AD@100*" in text
    assert "challenge (AgentOdyssey's aggregate" in text


def test_a_run_without_logs_has_null_diagnostics() -> None:
    report = evaluate(EvalConfig(episodes=1, steps=5, num_agents=2))
    assert report["diagnostics"] is None and validate(report) == []
    assert report["challenge"]["games"]["default"]


def test_llm_fields_added_to_a_real_log(run, tmp_path: Path) -> None:
    _, folder = run
    header, steps = read_trajectory(folder / "episode-0000.jsonl")
    lines = [header]
    for record in steps:
        if record["agent"] == "agent_1":
            record = {**record, "llm": LLM[int(record["tick"]) % 4]}
        lines.append(record)
    log = tmp_path / "episode-0000.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    result = diagnose_logs([log])
    agent_1 = result["episodes"][0]["agents"]["agent_1"]
    assert agent_1["format_error_rate"] == 0.5  # ticks 1..40: 20 of them are 1 or 3 mod 4
    assert agent_1["input_tokens_per_step"] == 100.0
    assert result["episodes"][0]["agents"]["agent_0"]["input_tokens"] is None


# ---------------------------------------------------------------------- the command
def test_diagnose_prints_tables_and_json(run, capsys: pytest.CaptureFixture[str]) -> None:
    report, folder = run
    assert cli.main(["diagnose", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 logs\n")
    assert "AD@100*" in out and "supplementary" in out
    assert cli.main(["diagnose", "--json", str(folder / "episode-0001.jsonl")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["episodes"][0]["agents"] == report["diagnostics"]["episodes"][1]["agents"]
    assert cli.main(["diagnose", "--json", "--no-replay", str(folder)]) == 0
    quick = json.loads(capsys.readouterr().out)
    assert quick["episodes"][0]["agents"]["agent_0"]["object_exploration"] is None
    assert quick["challenge"] == diagnose_logs([folder])["challenge"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such log file or folder"),
        ("not json\n", ":1: not JSON"),
        ('{"kind": "step"}\n', ":1: expected a agentodyssey_pz.trajectory episode header"),
        ('{"kind": "episode", "format": "agentodyssey_pz.trajectory", "version": 1}\n',
         "the episode header lacks world, episode, seed"),
    ],
)  # fmt: skip
def test_diagnose_refuses_bad_logs_in_one_line(
    content: str | None, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "episode-0000.jsonl"
    if content is not None:
        log.write_text(content, encoding="utf-8")
    assert cli.main(["diagnose", str(log)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_diagnose_names_a_record_missing_fields(
    run, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, folder = run
    lines = (folder / "episode-0000.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    del record["flags"]["invalid_action"]
    lines[3] = json.dumps(record)
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["diagnose", str(log)]) == 1
    assert "step record 3 lacks flags.invalid_action" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli.main(["diagnose", str(empty)]) == 1
    assert "a folder without episode-*.jsonl logs" in capsys.readouterr().err
