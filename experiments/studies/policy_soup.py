"""Average the weights of saved policies of one network (a "model soup", Wortsman et al. 2022).

Fine-tunes of one policy often end level with it in wins while differing move by move; averaging
their weights, or interpolating between a policy and its fine-tune (WiSE-FT), sometimes plays
better than either. This writes the average as a new policy file, which ``experiments.paired``
then measures like any other (``policy:OUT``). No library averages our policy files, hence these
few lines.

    python -m experiments.studies.policy_soup --policies agents/weights/dix_solo runs/solo6_win/final --out runs/solo6_soup

``--weights`` gives each policy's share (default equal). The policies must have the same game,
layout, actions, features and network; anything else is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from dixenv.agents.policy import Policy

#: Metadata that must agree for an average to mean anything.
SAME = ("game", "layout", "obs_size", "num_actions", "features", "features_version", "hint")


def soup(policies: list[Policy], weights: list[float]) -> Policy:
    """The weighted average of ``policies`` (``ValueError`` unless they share a network and a table)."""
    if len(policies) < 2 or len(weights) != len(policies):
        raise ValueError(f"give two or more policies and one weight each; got {len(policies)} and {len(weights)}")
    if any(not np.isfinite(w) or w <= 0 for w in weights):
        raise ValueError(f"weights must be positive numbers; got {weights}")
    first = policies[0]
    for p in policies[1:]:
        for key in SAME:
            if p.metadata.get(key) != first.metadata.get(key):
                raise ValueError(f"cannot average: {key} is {p.metadata.get(key)!r} in one policy and "
                                 f"{first.metadata.get(key)!r} in the first")
        shapes = [w.shape for w, _ in p.weights], [w.shape for w, _ in first.weights]
        if shapes[0] != shapes[1]:
            raise ValueError(f"cannot average: layers of shapes {shapes[0]} in one policy and {shapes[1]} in the first")
        if p.activation != first.activation:
            raise ValueError(f"cannot average: activation {p.activation!r} against {first.activation!r}")
    share = np.asarray(weights, dtype=np.float64) / float(np.sum(weights))
    layers = []
    for i in range(len(first.weights)):
        w = sum(s * np.asarray(p.weights[i][0], dtype=np.float64) for s, p in zip(share, policies))
        b = sum(s * np.asarray(p.weights[i][1], dtype=np.float64) for s, p in zip(share, policies))
        layers.append((w.astype(np.float32), b.astype(np.float32)))
    return Policy(layers, first.activation, dict(first.metadata))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m experiments.studies.policy_soup", description=__doc__.split("\n")[0])
    p.add_argument("--policies", nargs="+", required=True, help="saved policies (PATH of PATH.npz / PATH.json)")
    p.add_argument("--weights", nargs="+", type=float, default=None, help="each policy's share (default equal)")
    p.add_argument("--out", required=True, help="where to write the average (OUT.npz + OUT.json)")
    args = p.parse_args(argv)
    policies = [Policy.load(path) for path in args.policies]
    weights = args.weights or [1.0] * len(policies)
    out = soup(policies, weights)
    out.metadata["training"] = {"soup_of": [str(path) for path in args.policies], "soup_weights": weights,
                                "trainings": [q.metadata.get("training") for q in policies],
                                "command": "python -m experiments.studies.policy_soup " + " ".join(sys.argv[1:] if argv is None else argv)}
    npz, meta = out.save(Path(args.out))
    print(f"wrote {npz} and {meta}: {json.dumps(dict(zip(args.policies, weights)))}")


if __name__ == "__main__":
    main()
