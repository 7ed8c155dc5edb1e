"""experiments.selfplay: the compiled self-play table's results, the per-seat chains, GAE, and a saved policy."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("torch")

from dixenv.agents.registry import make_agent  # noqa: E402
from dixenv.core.rewards import margins  # noqa: E402
from dixenv.experiments.soak import soak_move  # noqa: E402
from dixenv.experiments.masking import masked_log_softmax  # noqa: E402
from dixenv.experiments.selfplay import Rollout, SelfPlay, SelfPlayConfig, Table  # noqa: E402
from dixenv.games import game_spec  # noqa: E402


@pytest.mark.parametrize("game, options", [
    ("le_dix", {"num_players": 3, "deals": (2, 1)}),
    ("dix_de_suite", {"num_players": 4, "teams": True, "target_score": 60, "max_turns": 10_000}),
    ("dix", {"num_players": 3}),
])
def test_the_table_plays_the_reference_games_and_pays_their_win_rewards(game, options):
    n, seed = 4, 30
    table = Table(game, options, n, seed)
    refs = []
    for i in range(n):
        env = game_spec(game).env_module_().raw_env(**options)
        env.reset(seed=seed + i)
        refs.append(env)
    rng = np.random.default_rng(0)
    done = np.zeros(n, dtype=bool)
    for _ in range(20_000):
        if done.all():
            break
        masks = table.batch.masks()
        actions = np.full(n, -1, dtype=np.int64)
        for i, env in enumerate(refs):
            if done[i]:
                continue
            legal = np.flatnonzero(masks[i])
            assert legal.tolist() == sorted(env.state.legal_actions())
            actions[i] = legal[rng.integers(len(legal))]
            if game == "dix_de_suite" and rng.random() < 0.9:  # random racks rarely sort: the soak's sorting moves
                actions[i] = soak_move(game, "sorting", env.state)
            env.step(int(actions[i]))
        table.batch.apply(actions)
        table.batch.play_forced()
        over = table.batch.terminal()
        for i in np.flatnonzero(over & ~done):
            want = [refs[i].rewards[a] for a in refs[i].possible_agents]
            assert np.allclose(table.results(np.array([i]))[0], want)
            assert np.allclose(table.margins(np.array([i]))[0], margins(refs[i].state.scores(), table.teams))
            done[i] = True
    assert done.all()


def test_decisions_chain_per_game_and_seat_and_the_last_one_takes_the_result():
    cfg = SelfPlayConfig(game="le_dix", options={"num_players": 3, "deals": (1,)}, num_games=8, rollout=12,
                         total_steps=10**9, net_arch=(16,))
    run = SelfPlay(cfg, seed=1)
    buf = run.collect()
    assert buf.size > 0 and buf.done.any()
    # every chain runs forwards in time, and nothing follows a game's last decision
    nxt = buf.next[: buf.size]
    assert np.all((nxt == -1) | (nxt > np.arange(buf.size)))
    assert np.all(nxt[buf.done[: buf.size]] == -1)
    assert set(np.unique(buf.rewards[: buf.size][buf.done[: buf.size]])) <= {-1.0, -0.5, 0.0, 0.5, 1.0}
    assert np.all(buf.rewards[: buf.size][~buf.done[: buf.size]] == 0)


def test_gae_follows_each_chain():
    buf = Rollout(4, 1, 2)
    buf.add(np.zeros((4, 1), np.float32), np.ones((4, 2), bool), np.zeros(4, np.int64), np.zeros(4, np.float32),
            np.array([0.1, 0.2, 0.3, 0.4], np.float32))
    buf.next[:] = [2, 3, -1, -1]  # chain 0 -> 2 (ends with reward 1), chain 1 -> 3 (open, bootstrapped)
    buf.done[2], buf.rewards[2] = True, 1.0
    buf.boot[3] = 0.5
    adv, ret = buf.advantages(gamma=0.9, lam=0.8)
    a2 = 1.0 - 0.3
    a0 = 0.9 * 0.3 - 0.1 + 0.9 * 0.8 * a2
    a3 = 0.9 * 0.5 - 0.4
    a1 = 0.9 * 0.4 - 0.2 + 0.9 * 0.8 * a3
    assert np.allclose(adv, [a0, a1, a2, a3], atol=1e-6) and np.allclose(ret, adv + buf.values[:4])


@pytest.mark.parametrize("game, options", [
    ("dix", {"solo": True, "difficulty": 4}),
    ("dix_de_suite", {"num_players": 2}),
    ("le_dix", {"num_players": 3, "deals": (1,)}),
])
def test_a_short_run_saves_a_policy_that_plays_by_name(tmp_path, game, options):
    cfg = SelfPlayConfig(game=game, options=options, num_games=8, rollout=8, total_steps=256,
                         net_arch=(32,), minibatch=64, epochs=2)
    run = SelfPlay(cfg, seed=2)
    summary = run.train(progress=False)
    assert summary["steps"] >= 256 and summary["updates"] >= 1
    run.policy().save(tmp_path / "final")
    env = game_spec(game).env_module_().raw_env(**options)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    agent = make_agent(game, f"policy:{tmp_path / 'final'}", env)
    assert obs["action_mask"][agent.act(obs)] == 1


def test_a_last_minibatch_of_one_row_leaves_the_network_finite():
    run = SelfPlay(_tiny(minibatch=63, epochs=2), seed=2)  # 8 games x 8 rounds: 64 decisions, so 63 + 1
    buf = run.collect()
    assert buf.size == 64
    run.update(buf)
    assert all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in run.net.numpy_weights())
    assert all(np.isfinite(p.detach().numpy()).all() for p in run.net.critic.parameters())


def test_a_minibatch_larger_than_a_rollout_is_reported_once():
    def lines(minibatch):
        run = SelfPlay(_tiny(minibatch=minibatch, total_steps=200), seed=1)  # 8 games x 8 rounds: 64 decisions
        out: list[str] = []
        run.train(progress=False, log=out.append)
        return [line for line in out if line.startswith("note:")]

    assert lines(4096) == ["note: a rollout gave 64 learner decisions, fewer than a minibatch (4,096): one "
                           "gradient step an epoch (a smaller minibatch takes more)"]
    assert lines(32) == []


def test_snapshots_take_seats_once_the_pool_has_them():
    cfg = SelfPlayConfig(game="le_dix", options={"num_players": 3, "deals": (1,)}, num_games=16, rollout=8,
                         total_steps=16 * 8 * 3, net_arch=(16,), snapshot_share=0.5, snapshot_every=1, minibatch=512, epochs=1)
    run = SelfPlay(cfg, seed=4)
    run.train(progress=False)
    assert run.pool and (run.table.owner > 0).any() and (run.table.owner == 0).any(axis=1).all()


def test_a_baseline_agent_takes_every_seat_but_the_learners_and_plays_its_own_moves():
    from dixenv.experiments.selfplay import BASELINE

    cfg = SelfPlayConfig(game="le_dix", options={"num_players": 3, "deals": (2,)}, num_games=8, rollout=30,
                         total_steps=10**9, net_arch=(16,), baseline="heuristic", baseline_share=1.0)
    run = SelfPlay(cfg, seed=6)
    heuristic, calls = run.baseline, []

    class Recording:
        def act(self, observation):
            action = heuristic.act(observation)
            calls.append((observation["observation"].copy(), observation["action_mask"].copy(), action))
            return action

    run.baseline = Recording()
    buf = run.collect()
    # one learner seat a game, the others the baseline's, at the start and after every redeal
    assert ((run.table.owner == 0).sum(axis=1) == 1).all() and ((run.table.owner == BASELINE).sum(axis=1) == 2).all()
    assert run.games > 8  # games ended and were dealt again
    assert buf.size + len(calls) == 8 * 30  # every decision was the learner's or the baseline's
    assert buf.size and len(calls) > buf.size
    fresh = make_agent("le_dix", "heuristic", game_spec("le_dix").env_module_().raw_env(num_players=3, deals=(2,)))
    for obs, mask, action in calls:
        assert mask[action] == 1 and fresh.act({"observation": obs, "action_mask": mask}) == action
    assert run.results  # the learner's results in games with the baseline


def test_the_command_trains_evaluates_on_unseen_deals_and_writes_its_summary(tmp_path):
    import json

    from dixenv.experiments.selfplay import main

    args = ["--game", "le_dix", "--option", "num_players=3", "--option", "deals=(1,)", "--games", "8", "--rollout", "4",
            "--steps", "64", "--net", "16", "--eval-every", "32", "--eval-games", "3", "--final-games", "6",
            "--out", str(tmp_path), "--no-progress"]
    assert main(args) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [c["steps"] for c in summary["curve"]] == sorted(c["steps"] for c in summary["curve"]) and summary["curve"]
    assert summary["final"]["games"] == 6 and summary["final"]["opponents"] == ["heuristic", "heuristic"]
    assert (tmp_path / "final.npz").exists() and summary["command"].endswith("--no-progress")
    kept = sorted(p.stem for p in (tmp_path / "checkpoints").glob("*.npz"))
    assert kept == sorted(f"step_{c['steps']}" for c in summary["curve"])  # each policy of the curve, kept


LE_DIX_3 = {"num_players": 3, "deals": (1,)}


def _tiny(**kw):
    return SelfPlayConfig(**{"game": "le_dix", "options": LE_DIX_3, "num_games": 8, "rollout": 8, "total_steps": 64,
                             "net_arch": (16,), "minibatch": 64, "epochs": 1, **kw})


def test_a_warm_start_begins_from_the_saved_policy_and_refuses_one_made_for_another_table(tmp_path):
    first = SelfPlay(_tiny(), seed=5)
    first.update(first.collect())
    first.policy().save(tmp_path / "p")
    warm = SelfPlay(_tiny(init=str(tmp_path / "p")), seed=6)
    for (w, b), (w0, b0) in zip(warm.net.numpy_weights(), first.net.numpy_weights()):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    with pytest.raises(ValueError, match="network is tanh \\[16\\], this trainer's tanh \\[32\\]"):
        SelfPlay(_tiny(init=str(tmp_path / "p"), net_arch=(32,)), seed=6)
    with pytest.raises(ValueError, match="its game is 'le_dix', this table's 'dix'"):
        SelfPlay(_tiny(game="dix", options={"num_players": 3}, init=str(tmp_path / "p")), seed=6)
    with pytest.raises(ValueError, match="its layout is"):
        SelfPlay(_tiny(options={"num_players": 4, "deals": (1,)}, init=str(tmp_path / "p")), seed=6)
    with pytest.raises(ValueError, match="no saved policy"):
        SelfPlay(_tiny(init=str(tmp_path / "absent")), seed=6)


def test_features_reach_the_networks_the_snapshots_and_the_saved_policy(tmp_path):
    from dixenv.agents.features import Featurizer

    run = SelfPlay(_tiny(features="cards", snapshot_share=0.5, snapshot_every=1), seed=8)
    featurizer = Featurizer(game_spec("le_dix").env_module_().raw_env(**LE_DIX_3), "cards")
    assert run.input_size == run.table.obs_size + featurizer.size
    buf = run.collect()
    rows = buf.obs[:buf.size]
    assert np.array_equal(featurizer.extend_batch(rows[:, :run.table.obs_size]), rows), "every input row carries its features"
    run.update(buf)
    run.pool.append(run.policy())
    run.table.deal_owners(np.arange(run.table.n), 0.5, 1)
    run.collect()  # the snapshot acts from the same inputs
    run.policy().save(tmp_path / "p")
    env = game_spec("le_dix").env_module_().raw_env(**LE_DIX_3)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][make_agent("le_dix", f"policy:{tmp_path / 'p'}", env).act(obs)] == 1
    warm = SelfPlay(_tiny(features="cards", init=str(tmp_path / "p")), seed=9)
    assert np.array_equal(warm.net.numpy_weights()[0][0], run.net.numpy_weights()[0][0])
    with pytest.raises(ValueError, match="its features is 'cards', this table's None"):
        SelfPlay(_tiny(init=str(tmp_path / "p")), seed=9)
    # features of another version: the same size, other meanings
    from dixenv.agents.policy import Policy

    old = Policy.load(tmp_path / "p")
    Policy(old.weights, old.activation, {**old.metadata, "features_version": 7}).save(tmp_path / "v7")
    with pytest.raises(ValueError, match="cannot start from .*v7: the policy was trained on version 7 of the 'cards' features"):
        SelfPlay(_tiny(features="cards", init=str(tmp_path / "v7")), seed=9)


def test_a_policy_that_takes_a_hint_is_no_warm_start(tmp_path):
    from dixenv import dix_de_suite_v0
    from dixenv.agents.policy import Policy, policy_metadata

    env = dix_de_suite_v0.env(num_players=2)
    hint = "heuristic:secure=1,prefix_weight=0.3"
    meta = policy_metadata("dixenv/DixDeSuite-v0", {"num_players": 2}, env, hint=hint)
    inputs, actions = meta["obs_size"] + meta["num_actions"], meta["num_actions"]
    Policy([(np.zeros((actions, inputs), dtype=np.float32), np.zeros(actions, dtype=np.float32))], "tanh",
           meta).save(tmp_path / "hinted")
    with pytest.raises(ValueError, match=f"takes the hint '{hint}' as an input"):
        SelfPlay(_tiny(game="dix_de_suite", options={"num_players": 2}, net_arch=(256, 256),
                       init=str(tmp_path / "hinted")), seed=0)


def _sharp_teacher(tmp_path):
    """A policy of another network size (8 hidden units) with strong move preferences, saved for LE_DIX_3."""
    from dixenv.agents.policy import Policy

    source = SelfPlay(_tiny(net_arch=(8,)), seed=3)
    weights = source.net.numpy_weights()
    weights[-1] = (weights[-1][0] * 3000.0, weights[-1][1])  # the near-uniform initial head, sharpened
    Policy(weights, "tanh", source.policy().metadata).save(tmp_path / "teacher")
    return str(tmp_path / "teacher")


def _kl_to_teacher(run, buf):
    """KL(teacher || actor) over a rollout's rows, written out in numpy."""
    m = buf.size
    t_p, t_logp = run.teacher_targets(buf.obs[:m], buf.masks[:m])
    logits = np.where(buf.masks[:m], run.policy().logits(buf.obs[:m]), -np.inf).astype(np.float64)
    z = logits - logits.max(axis=1, keepdims=True)
    logp = np.where(buf.masks[:m], z - np.log(np.exp(z).sum(axis=1, keepdims=True)), 0.0)
    return float((t_p * (t_logp - logp)).sum(axis=1).mean())


def test_a_teacher_pulls_the_actor_toward_its_moves(tmp_path):
    import torch

    teacher = _sharp_teacher(tmp_path)
    run = SelfPlay(_tiny(teacher=teacher, teacher_coef=5.0, ent_coef=0.0, learning_rate=1e-2, epochs=4), seed=4)
    buf = run.collect()
    m = buf.size
    t_p, t_logp = run.teacher_targets(buf.obs[:m], buf.masks[:m])
    assert np.allclose(t_p.sum(axis=1), 1.0) and np.all(t_p[~buf.masks[:m]] == 0) and np.all(t_logp[~buf.masks[:m]] == 0)
    assert t_p.max(axis=1).mean() > 0.7, "the teacher is sharp"
    # the loss's KL term is KL(teacher || actor), as written out
    t = [torch.from_numpy(a) for a in (buf.obs[:m], buf.masks[:m].astype(np.float32), buf.actions[:m], buf.logp[:m])]
    zeros = torch.zeros(m)
    kl = run._loss_terms(*t, zeros, zeros, torch.from_numpy(t_p), torch.from_numpy(t_logp))[3]
    before = _kl_to_teacher(run, buf)
    assert kl.item() == pytest.approx(before, rel=1e-4) and before > 0.05
    plain = SelfPlay(_tiny(ent_coef=0.0, learning_rate=1e-2, epochs=4), seed=4)  # the same run without the teacher
    plain.teacher = run.teacher  # only to measure the KL
    for _ in range(8):
        stats = run.update(buf)
        plain.update(buf)
    assert stats["teacher_kl"] > 0
    assert _kl_to_teacher(run, buf) < 0.5 * before, "the actor moved toward the teacher"
    assert _kl_to_teacher(plain, buf) > 0.9 * before, "without the term it does not"


def test_a_teacher_must_be_made_for_the_table(tmp_path):
    teacher = _sharp_teacher(tmp_path)
    with pytest.raises(ValueError, match="cannot take as teacher .*teacher: its layout is"):
        SelfPlay(_tiny(options={"num_players": 4, "deals": (1,)}, teacher=teacher, teacher_coef=1.0), seed=0)
    with pytest.raises(ValueError, match="cannot take as teacher .*teacher: its features is None, this table's 'cards'"):
        SelfPlay(_tiny(features="cards", teacher=teacher, teacher_coef=1.0), seed=0)
    with pytest.raises(ValueError, match="no saved policy"):
        SelfPlay(_tiny(teacher=str(tmp_path / "absent"), teacher_coef=1.0), seed=0)


def test_the_command_takes_a_teacher_and_records_it(tmp_path):
    import json

    from dixenv.experiments.selfplay import main

    teacher = _sharp_teacher(tmp_path)
    args = ["--game", "le_dix", "--option", "num_players=3", "--option", "deals=(1,)", "--games", "8", "--rollout", "4",
            "--steps", "32", "--net", "16", "--final-games", "0", "--teacher", teacher, "--teacher-coef", "0.3",
            "--out", str(tmp_path / "out"), "--no-progress"]
    assert main(args) == 0
    config = json.loads((tmp_path / "out" / "final.json").read_text())["training"]["config"]
    assert config["teacher"] == teacher and config["teacher_coef"] == 0.3
    assert "teacher_kl" in json.loads((tmp_path / "out" / "summary.json").read_text())["last_losses"]


def test_critic_warmup_updates_leave_the_actor_as_it_was():
    run = SelfPlay(_tiny(critic_warmup=1), seed=7)
    actor = [w.copy() for w, _ in run.net.numpy_weights()]
    critic = [p.detach().numpy().copy() for p in run.net.critic.parameters()]
    run.update(run.collect())
    assert all(np.array_equal(a, w) for a, (w, _) in zip(actor, run.net.numpy_weights()))
    assert not all(np.array_equal(c, p.detach().numpy()) for c, p in zip(critic, run.net.critic.parameters()))
    run.update(run.collect())  # the warm-up is over: the actor learns
    assert not all(np.array_equal(a, w) for a, (w, _) in zip(actor, run.net.numpy_weights()))


def test_the_margin_reward_pays_each_seat_its_final_lead_over_the_scale():
    run = SelfPlay(_tiny(reward="margin", margin_scale=4.0, rollout=40), seed=8)
    buf = run.collect()
    paid = buf.rewards[: buf.size][buf.done[: buf.size]]
    assert paid.size and np.allclose(paid * 4.0, np.round(paid * 4.0))  # whole points over 4
    assert np.abs(paid).max() > 1.0  # leads of more than 4 points: not a win reward


@pytest.mark.parametrize("game, options", [
    ("le_dix", {"num_players": 3, "deals": (2, 1)}),
    ("le_dix", {"num_players": 4, "deals": (1, 2)}),
])
def test_the_dense_margin_pays_each_round_as_scored_and_a_chain_sums_to_the_final_lead(game, options):
    def tiny(reward):
        return SelfPlayConfig(game=game, options=options, num_games=6, rollout=120, total_steps=10**9, net_arch=(16,),
                              reward=reward, margin_scale=5.0)

    dense, end = SelfPlay(tiny("margin_dense"), seed=3), SelfPlay(tiny("margin"), seed=3)
    a, b = dense.collect(), end.collect()  # same seed, same net: the same games and moves
    m = a.size
    assert m == b.size and np.array_equal(a.actions[:m], b.actions[:m]) and np.array_equal(a.done[:m], b.done[:m])
    # scores move before the games end (each deal or round), and those decisions are paid then
    assert np.any(a.rewards[:m][~a.done[:m]] != 0)
    # every chain of this first rollout starts at its game's start, before any score (le_dix scores a deal
    # once every seat has played), so its rewards sum to its final lead
    heads = np.setdiff1d(np.arange(m), a.next[:m][a.next[:m] >= 0])
    checked = 0
    for i in heads.tolist():
        total, j = 0.0, i
        while True:
            total += a.rewards[j]
            if a.done[j] or a.next[j] < 0:
                break
            j = a.next[j]
        if a.done[j]:
            assert total == pytest.approx(b.rewards[j], abs=1e-5)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("game, options", [
    ("le_dix", {"num_players": 3, "deals": (2, 1)}),
    ("le_dix", {"num_players": 4, "deals": (1, 2)}),
])
def test_the_points_reward_pays_each_seat_its_own_score_as_scored(game, options):
    cfg = SelfPlayConfig(game=game, options=options, num_games=6, rollout=120, total_steps=10**9, net_arch=(16,),
                         reward="points", margin_scale=5.0)
    run = SelfPlay(cfg, seed=3)
    finals: list[float] = []  # every seat's score in every game that ends, read just before its slot is redealt
    redeal = run.table.redeal

    def recording(slots):
        finals.extend(run.table.scores(slots).ravel().tolist())
        redeal(slots)

    run.table.redeal = recording
    buf = run.collect()
    m = buf.size
    assert np.any(buf.rewards[:m][~buf.done[:m]] != 0)  # deals pay before the game ends
    # a seat's chain starts at its game's first decision (le_dix scores nothing before it) and, once the
    # game is over, its rewards sum to that seat's final score over the scale: every ended game's seats
    heads = np.setdiff1d(np.arange(m), buf.next[:m][buf.next[:m] >= 0])
    sums = []
    for i in heads.tolist():
        total, j = 0.0, i
        while not buf.done[j] and buf.next[j] >= 0:
            total += buf.rewards[j]
            j = buf.next[j]
        if buf.done[j]:
            sums.append((total + buf.rewards[j]) * 5.0)
    assert len(finals) >= 6 * cfg.options["num_players"] and max(finals) > 0
    assert np.allclose(sorted(sums), sorted(finals), atol=1e-3)


def test_the_masked_softmax_matches_log_softmax_of_masked_logits_in_values_and_gradients():
    import torch

    g = np.random.default_rng(0)
    logits = g.normal(0.0, 3.0, (64, 40)).astype(np.float32)
    logits[:8] *= 40.0  # spreads of hundreds: illegal actions far above and below the legal ones
    legal = g.random((64, 40)) < 0.3
    legal[np.arange(64), g.integers(40, size=64)] = True
    legal[0] = False
    legal[0, 5] = True  # one legal action: probability 1
    chosen = torch.from_numpy(np.array([g.choice(np.flatnonzero(r)) for r in legal]))[:, None]
    weights = torch.from_numpy(g.normal(size=64).astype(np.float32))

    def loss_and_grad(fn):
        x = torch.from_numpy(logits).requires_grad_(True)
        logp_all, probs = fn(x)
        entropy = -(probs * logp_all).sum(dim=1)
        loss = (weights * logp_all.gather(1, chosen)[:, 0]).sum() + entropy.sum()
        loss.backward()
        return logp_all.gather(1, chosen)[:, 0].detach(), probs.detach(), entropy.detach(), x.grad

    def reference(x):
        logp_all = torch.log_softmax(x.masked_fill(~torch.from_numpy(legal), -1e9), dim=1)
        return logp_all, logp_all.exp()

    new = loss_and_grad(lambda x: masked_log_softmax(x, torch.from_numpy(legal.astype(np.float32))))
    old = loss_and_grad(reference)
    for a, b in zip(new, old):
        assert torch.allclose(a, b, atol=1e-5, rtol=1e-5)
    assert torch.all(new[1][torch.from_numpy(~legal)] == 0.0)  # illegal actions: exactly no probability
    assert new[1][0, 5] == 1.0 and torch.allclose(new[1].sum(dim=1), torch.ones(64))


@pytest.mark.parametrize("bad, match", [
    ({"reward": "score"}, "unknown reward 'score'; allowed: \\['win', 'margin', 'margin_dense', 'points'\\]"),
    ({"margin_scale": 0.0}, "margin_scale must be positive"),
    ({"clip": 0.0}, "clip must be positive, got 0.0"),
    ({"baseline_share": 0.5}, "baseline_share=0.5 needs a baseline agent"),
    ({"baseline": "heuristic", "baseline_share": 1.5}, "baseline_share must be in \\[0, 1\\], got 1.5"),
    ({"baseline": "heuristic", "baseline_share": 0.6, "snapshot_share": 0.6}, "snapshot_share \\+ baseline_share must be at most 1"),
    ({"critic_warmup": -1}, "critic_warmup must be >= 0"),
    ({"features": "bids"}, "features 'bids' are not a feature set of le_dix; allowed: cards"),
    ({"teacher": "p", "teacher_coef": -1.0}, "teacher_coef must be >= 0, got -1.0"),
    ({"teacher": "p"}, "a teacher needs a teacher_coef above 0 .* teacher='p', teacher_coef=0.0"),
    ({"teacher_coef": 0.5}, "a teacher needs a teacher_coef above 0 .* teacher=None, teacher_coef=0.5"),
])
def test_bad_settings_are_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        _tiny(**bad)


def test_the_compiled_loss_takes_the_same_steps_as_the_eager_one():
    """--compile (torch.compile of the loss) changes the speed, not the update: the same rollout gives
    the same weights after two updates (the second with a smaller last minibatch: a new shape)."""
    pytest.importorskip("torch")
    from tests.skips import skip_without_cxx

    skip_without_cxx()
    eager, compiled = (SelfPlay(_tiny(minibatch=48, epochs=2, compile=flag), seed=11) for flag in (False, True))
    for _ in range(2):
        buf_e, buf_c = eager.collect(), compiled.collect()
        np.testing.assert_array_equal(buf_e.obs[:buf_e.size], buf_c.obs[:buf_c.size])
        stats_e, stats_c = eager.update(buf_e), compiled.update(buf_c)
        assert stats_e == pytest.approx(stats_c, rel=1e-4, abs=1e-6)
    for (we, be), (wc, bc) in zip(eager.net.numpy_weights(), compiled.net.numpy_weights()):
        np.testing.assert_allclose(wc, we, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(bc, be, rtol=1e-4, atol=1e-5)
