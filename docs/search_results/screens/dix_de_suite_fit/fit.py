"""Fit the acting seat's round-win chance to the two rack costs (data from collect.py).

Models (logistic, fitted by Newton's method on the first file, scored on the second):
  current: sigmoid((other - acting) / 8), the search's softmax(-cost / COST_TAU), no fit;
  diff:    sigmoid(a + b (other - acting));
  log:     sigmoid(a + b log((1 + other) / (1 + acting)));
  both:    sigmoid(a + b (other - acting) + c log((1 + other) / (1 + acting))).

    python docs/search_results/screens/dix_de_suite_fit/fit.py TRAIN.npz TEST.npz
"""
import sys

import numpy as np


def features(d, model):
    diff = d["other"] - d["acting"]
    logr = np.log1p(d["other"]) - np.log1p(d["acting"])
    cols = {"diff": [diff], "log": [logr], "both": [diff, logr]}[model]
    return np.column_stack([np.ones_like(diff)] + cols)


def fit(x, y, steps=30):
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        g = x.T @ (y - p)
        h = (x * (p * (1 - p))[:, None]).T @ x + 1e-9 * np.eye(x.shape[1])
        w += np.linalg.solve(h, g)
    return w


def logloss(p, y):
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


train, test = np.load(sys.argv[1]), np.load(sys.argv[2])
y_test = test["won"]
print(f"train {len(train['won'])} decisions, test {len(y_test)}; acting seat wins {y_test.mean():.3f} of test rows")
p = 1 / (1 + np.exp(-(test["other"] - test["acting"]) / 8.0))
print(f"current (tau 8, no fit): test log-loss {logloss(p, y_test):.4f}")
for tau in (2.0, 3.0, 4.0, 6.0):
    p = 1 / (1 + np.exp(-(test["other"] - test["acting"]) / tau))
    print(f"tau {tau}: test log-loss {logloss(p, y_test):.4f}")
predictions = {}
for model in ("diff", "log", "both"):
    w = fit(features(train, model), train["won"])
    p = predictions[model] = 1 / (1 + np.exp(-features(test, model) @ w))
    print(f"{model}: weights {np.round(w, 4).tolist()}, test log-loss {logloss(p, y_test):.4f}")
# calibration by cost-difference bins: the data, the softmax at 8, the fitted log model
p_log = predictions["log"]
diff = test["other"] - test["acting"]
for lo, hi in ((-99, -10), (-10, -5), (-5, -2), (-2, 0), (0, 2), (2, 5), (5, 10), (10, 99)):
    sel = (diff >= lo) & (diff < hi)
    if sel.any():
        print(f"other - acting in [{lo}, {hi}): {sel.sum():6d} rows, acting wins {y_test[sel].mean():.3f}, "
              f"tau-8 model {np.mean(1 / (1 + np.exp(-diff[sel] / 8))):.3f}, log model {p_log[sel].mean():.3f}")
# the same gap at low and high costs: what the log model sees and the softmax does not
low = np.minimum(test["other"], test["acting"])
for lo, hi in ((1, 4), (-4, -1)):
    for clo, chi in ((0, 6), (6, 15), (15, 999)):
        sel = (diff >= lo) & (diff < hi) & (low >= clo) & (low < chi)
        if sel.sum() > 50:
            print(f"other - acting in [{lo}, {hi}), lower cost in [{clo}, {chi}): {sel.sum():6d} rows, "
                  f"acting wins {y_test[sel].mean():.3f}, tau-8 model {np.mean(1 / (1 + np.exp(-diff[sel] / 8))):.3f}, "
                  f"log model {p_log[sel].mean():.3f}")
