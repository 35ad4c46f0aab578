"""Smoke test of the masked PPO learner (agentodyssey_pz.training): a few hundred agent-steps of
training on the default world must give finite losses and change the parameters; the pieces it is
built from (masked categorical, GAE, masked-random chooser, bootstrap CI) are checked on known
values. Skipped without torch (the `[train]` extra)."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agentodyssey_pz.training import (  # noqa: E402  (after the importorskip)
    PPOConfig,
    PPOTrainer,
    bootstrap_ci,
    compute_gae,
    masked_categorical,
    random_chooser,
)

ENV = {"num_agents": 2, "max_cycles": 20, "tutorial": False}


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Tiny networks: a second intra-op thread only adds contention (ten times slower on a busy
    two-core machine)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_training_gives_finite_losses_and_changes_parameters() -> None:
    config = PPOConfig(hidden=32, minibatch_size=64, update_epochs=2)
    trainer = PPOTrainer(ENV, num_envs=2, num_steps=32, config=config, seed=0)
    before = [p.detach().clone() for p in trainer.model.parameters()]
    stats = [trainer.iteration(progress=i / 3) for i in range(3)]
    assert trainer.agent_steps == 3 * 32 * 2 * 2  # iterations x steps x envs x agents
    for s in stats:
        for key in ("loss", "policy_loss", "value_loss", "entropy", "approx_kl"):
            assert math.isfinite(s[key]), (key, s)
    after = list(trainer.model.parameters())
    changed = [not torch.equal(b, a.detach()) for b, a in zip(before, after, strict=True)]
    assert all(changed), "every layer (actor and critic) should have been updated"
    # 96 env steps per env with 20-step episodes: 4 episodes ended in each of the 2 envs.
    assert len(trainer.episodes) == 8
    assert [e.agent_steps for e in trainer.episodes[:2]] == [80, 80]


def test_training_is_seeded_and_leaves_torch_global_generator_alone() -> None:
    global_state = torch.get_rng_state()
    config = PPOConfig(hidden=16, minibatch_size=32, update_epochs=1)
    runs = []
    for _ in range(2):
        trainer = PPOTrainer(ENV, num_envs=1, num_steps=16, config=config, seed=5)
        trainer.iteration()
        runs.append([p.detach().clone() for p in trainer.model.parameters()])
    assert all(torch.equal(a, b) for a, b in zip(*runs, strict=True))
    assert torch.equal(torch.get_rng_state(), global_state)
    other = PPOTrainer(ENV, num_envs=1, num_steps=16, config=config, seed=6)
    assert not torch.equal(next(other.model.parameters()), runs[0][0])


def test_collected_actions_respect_the_mask() -> None:
    trainer = PPOTrainer(ENV, num_envs=2, num_steps=16, config=PPOConfig(hidden=16), seed=1)
    rollout, _ = trainer.collector.collect(trainer.model, 16, gamma=0.99)
    chosen = torch.gather(rollout.mask, 2, rollout.actions.unsqueeze(-1))
    assert bool(chosen.all())
    assert rollout.obs.shape == (16, 4, trainer.collector.obs_size)


def test_masked_categorical_gives_masked_actions_no_probability() -> None:
    logits = torch.tensor([[5.0, 0.0, 1.0, -2.0]])
    mask = torch.tensor([[False, True, False, True]])
    dist = masked_categorical(logits, mask)
    assert dist.probs[0, 0].item() == 0.0 and dist.probs[0, 2].item() == 0.0
    expected = torch.softmax(torch.tensor([0.0, -2.0]), 0)
    assert torch.allclose(dist.probs[0, [1, 3]], expected)
    samples = dist.sample((500,))
    assert set(samples.flatten().tolist()) <= {1, 3}
    assert math.isfinite(dist.entropy().item())


def test_gae_matches_hand_computation_and_stops_at_episode_ends() -> None:
    gamma, lam = 0.9, 0.5
    rewards = torch.tensor([[1.0], [0.0], [2.0]])
    values = torch.tensor([[0.5], [0.2], [0.1]])
    dones = torch.tensor([[0.0], [1.0], [0.0]])  # the episode ends after step 1
    next_value = torch.tensor([0.3])
    adv, ret = compute_gae(rewards, values, dones, next_value, gamma, lam)
    d2 = 2.0 + gamma * 0.3 - 0.1
    d1 = 0.0 - 0.2  # nothing bootstrapped across the episode end
    d0 = 1.0 + gamma * 0.2 - 0.5
    expected = torch.tensor([[d0 + gamma * lam * d1], [d1], [d2]])
    assert torch.allclose(adv, expected)
    assert torch.allclose(ret, expected + values)


def test_random_chooser_picks_only_unmasked_actions_uniformly() -> None:
    choose = random_chooser(seed=0)
    mask = np.zeros((2000, 6), dtype=bool)
    mask[:, [1, 4]] = True
    picks = choose(np.zeros((2000, 3), dtype=np.float32), mask)
    assert set(picks.tolist()) == {1, 4}
    assert 0.45 < np.mean(picks == 1) < 0.55


def test_bootstrap_ci_brackets_the_mean() -> None:
    mean, low, high = bootstrap_ci([1.0, 2.0, 3.0, 4.0, 10.0])
    assert mean == 4.0
    assert 1.0 <= low < mean < high <= 10.0
    assert bootstrap_ci([2.0, 2.0]) == (2.0, 2.0, 2.0)
