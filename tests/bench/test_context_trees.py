"""The context's trees are evaluated with numpy (repomem.service.rank.tree_score), as LightGBM
predicts them (bench/fit_ranker.py tree_dump writes them): no LightGBM at run time."""

from __future__ import annotations

import numpy as np
import pytest

from repomem.service.rank import tree_score, trees_arrays


def test_a_hand_made_tree_is_walked_left_at_or_below_its_threshold():
    # tree 0: x0 <= 0.5 ? (x1 <= 2 ? 1 : 2) : 3; tree 1: a leaf of 10
    data = {"columns": ["a", "b"], "depth": 2, "roots": [0, 5],
            "nodes": [[0, 0.5, 1, 4, 0.0], [1, 2.0, 2, 3, 0.0], [-1, 0.0, 2, 2, 1.0],
                      [-1, 0.0, 3, 3, 2.0], [-1, 0.0, 4, 4, 3.0], [-1, 0.0, 5, 5, 10.0]]}
    x = np.array([[0.5, 2.0], [0.0, 3.0], [0.6, 0.0]])
    assert tree_score(trees_arrays(data), x).tolist() == [11.0, 12.0, 13.0]
    assert tree_score(trees_arrays(data), np.zeros((0, 2))).tolist() == []


def test_the_dumped_trees_score_as_lightgbm_predicts():
    lgb = pytest.importorskip("lightgbm")  # the [fit] extra
    from bench import fit_ranker

    rng = np.random.default_rng(0)
    width = len(fit_ranker._features()) + 3
    x = rng.random((600, width))
    x[:, 3] = rng.integers(0, 2, 600)  # a 0/1 feature, as most are
    y = (x[:, 0] + x[:, 3] > 1.0).astype(float)
    model = lgb.LGBMRanker(objective="lambdarank", n_estimators=30, num_leaves=7,
                           min_child_samples=5, deterministic=True, force_row_wise=True,
                           n_jobs=1, random_state=0, verbose=-1)
    model.fit(x, y, group=[60] * 10)
    ours = tree_score(trees_arrays(fit_ranker.tree_dump(model)), x)
    assert np.allclose(ours, model.predict(x), atol=1e-9)
