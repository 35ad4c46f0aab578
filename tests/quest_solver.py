"""A scripted player that completes a world's main quest with legal text commands only.

Test helper over the package's quest planner (`agentodyssey_pz.policies.quester.QuestPlanner`,
which the `quester` policy runs too). `QuestSolver` reads the game state - its agent, the world
graph and grounds, the quest data, the agent's quest progress and the quest variables - and answers
one text command per tick; the game changes only through `Game.tick`. It names no world's content.

Here the solver sees each tick's `TickResult` (`observe`), so it learns where it died and which
quest rewards appeared from the events; and unlike the policy, it raises `Stuck` when it finds no
way to progress, so a quest, world or planner bug fails the test instead of becoming a detour.
"""

from __future__ import annotations

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.policies.planning import Replan, Stuck
from agentodyssey_pz.policies.quester import QuestPlanner
from agentodyssey_pz.policies.scripted import tutorial_command

__all__ = ["QuestSolver", "Replan", "Stuck", "run", "run_team"]


class QuestSolver(QuestPlanner):
    """Plays one agent through the main quest; `command()` gives the next command (and keeps a
    log of every command given)."""

    def __init__(self, game: Game, agent_id: str, *, wait_for_team: bool = False) -> None:
        self.log: list[str] = []
        self.wait_for_team = wait_for_team  # hold back from a shared last boss for the others
        super().__init__(game, agent_id)

    def command(self) -> str:
        """In a tutorial room, what its instruction says (as the scripted policies do); after
        it, the planner's next command."""
        cmd = tutorial_command(self.game, self.agent) or super().command()
        self.log.append(cmd)
        return cmd


def run(game: Game, solvers: dict[str, QuestSolver | None], max_ticks: int) -> list[TickResult]:
    """Tick the game with the solvers' commands (None: that agent waits) until the episode ends
    or `max_ticks` have passed; returns every tick's result."""
    results = []
    for _ in range(max_ticks):
        actions = {aid: (s.command() if s is not None else "wait") for aid, s in solvers.items()}
        result = game.tick(actions)
        results.append(result)
        for solver in solvers.values():
            if solver is not None:
                solver.observe(result)
        if result.terminated:
            break
    return results


def run_team(
    game: Game, solvers: dict[str, QuestSolver], max_ticks: int
) -> tuple[list[TickResult], dict[str, str]]:
    """As `run`, for a team whose members may give up one by one: a solver that raises `Stuck`
    is recorded (agent id -> the reason) and its agent waits from then on, while the others play
    on. Returns every tick's result and the reasons."""
    stuck: dict[str, str] = {}
    results = []
    for _ in range(max_ticks):
        actions = {}
        for aid, solver in solvers.items():
            if aid not in stuck:
                try:
                    actions[aid] = solver.command()
                    continue
                except Stuck as exc:
                    stuck[aid] = str(exc)
            actions[aid] = "wait"
        result = game.tick(actions)
        results.append(result)
        for aid, solver in solvers.items():
            if aid not in stuck:
                solver.observe(result)
        if result.terminated:
            break
    return results, stuck
