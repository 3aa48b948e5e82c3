"""Reference values for tests/data/metrics_spec.spl from sklearn.metrics (run with the
project's .venv; writes tests/data/metrics_fixtures.spl).

Fixed data sets (numpy RandomState(0), written out as literals so the spec uses the very
same values): a binary problem with tied scores, a 4-class problem where class 3 is never
predicted, an imbalanced 3-class problem, a 3-class problem labelled {1, 3, 5}, and a
binary problem labelled {-1, 1}. Every metric is recorded per data set and option, with the
warnings sklearn raised (their messages, in order) and the error texts of bad input.

sklearn prints the allowed values of a bad parameter as a Python set, whose order changes
from run to run (string hashing); the texts here have the set's items sorted, as
lib.torch.metrics writes them.
"""
import os
import sys
import re
import warnings

import numpy as np
import sklearn
from sklearn import metrics as M
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402


def sorted_sets(text):
    """{'b', 'a'} -> {'a', 'b'} (Python's set order is arbitrary)."""
    return re.sub(r"\{('[^{}]*')\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", text)


def error_text(fn):
    try:
        fn()
    except Exception as e:  # sklearn's ValueError / InvalidParameterError / NotImplementedError
        return sorted_sets(str(e))
    raise AssertionError("expected an error")


def run(fn):
    """(value, [warning messages]) as lib.torch.metrics' catch_warnings gives them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn()
    return value, [str(w.message) for w in caught]


def num(v):
    """A score as the spec compares it: a float, or a list of floats for per-label arrays."""
    if isinstance(v, np.ndarray):
        return [float(x) for x in v.tolist()]
    return float(v)


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def datasets():
    rs = np.random.RandomState(0)
    d = {}
    # binary, with tied scores (rounded to 1 decimal)
    yt = rs.randint(0, 2, 24)
    score = np.round(np.clip(0.35 * yt + rs.rand(24) * 0.65, 0, 1), 1)
    yp = (score > 0.5).astype(np.int64)
    d["binary"] = dict(y_true=yt, y_pred=yp, score=score, labels=[0, 1])
    # 4 classes, class 3 never predicted
    yt = np.array([0, 1, 2, 3] * 6 + [0, 1])
    logits = rs.randn(26, 4) + 1.5 * np.eye(4)[yt]
    logits[:, 3] -= 10.0
    yp = logits.argmax(1)
    assert 3 not in yp
    d["missing"] = dict(y_true=yt, y_pred=yp, probs=softmax(logits), logits=logits, labels=[0, 1, 2, 3])
    # imbalanced 3 classes: 24 / 4 / 2
    yt = np.array([0] * 24 + [1] * 4 + [2] * 2)
    rs.shuffle(yt)
    logits = rs.randn(30, 3) + 1.0 * np.eye(3)[yt] + np.array([1.0, 0.0, 0.0])
    yp = logits.argmax(1)
    d["imbalanced"] = dict(y_true=yt, y_pred=yp, probs=softmax(logits), logits=logits, labels=[0, 1, 2])
    # labels {1, 3, 5}
    classes = np.array([1, 3, 5])
    idx = rs.randint(0, 3, 18)
    logits = rs.randn(18, 3) + 1.2 * np.eye(3)[idx]
    d["shifted"] = dict(y_true=classes[idx], y_pred=classes[logits.argmax(1)], probs=softmax(logits), logits=logits, labels=[1, 3, 5])
    # binary labelled {-1, 1}
    yt = np.where(rs.rand(16) < 0.4, 1, -1)
    score = rs.rand(16) + 0.3 * (yt == 1)
    d["plusminus"] = dict(y_true=yt, y_pred=np.where(score > 0.6, 1, -1), score=score, labels=[-1, 1])
    return d


AVERAGES = ["binary", "micro", "macro", "weighted", None]
ZERO_DIVISION = ["warn", 0, 1, float("nan")]


def main():
    warnings.simplefilter("ignore")  # recorded where it matters, by run()
    data = datasets()
    names = list(data)
    values = {"names": names, "data": {}}
    for name in names:
        d = data[name]
        yt, yp = d["y_true"], d["y_pred"]
        binary = len(d["labels"]) == 2
        out = values["data"].setdefault(name, {})
        out["y_true"] = yt
        out["y_pred"] = yp
        if "score" in d:
            out["score"] = d["score"]
        if "probs" in d:
            out["probs"] = d["probs"]
            out["logits"] = d["logits"]
        out["accuracy"] = [M.accuracy_score(yt, yp), M.accuracy_score(yt, yp, normalize=False)]
        # confusion matrices: counts, then each normalisation, then custom labels
        out["cm"] = M.confusion_matrix(yt, yp)
        out["cm_norm"] = [M.confusion_matrix(yt, yp, normalize=n) for n in ["true", "pred", "all"]]
        custom = list(reversed(d["labels"]))[:-1] + [7]
        out["cm_labels"] = custom
        out["cm_custom"] = M.confusion_matrix(yt, yp, labels=custom)
        # precision / recall / F per average: [value, warnings] each; binary average only on binary data
        averages = [a for a in AVERAGES if a != "binary" or binary]
        pos = d["labels"][-1]
        out["averages"] = averages
        rows = []
        for a in averages:
            row = []
            for fn in [lambda a=a: M.precision_score(yt, yp, average=a, pos_label=pos),
                       lambda a=a: M.recall_score(yt, yp, average=a, pos_label=pos),
                       lambda a=a: M.f1_score(yt, yp, average=a, pos_label=pos),
                       lambda a=a: M.fbeta_score(yt, yp, beta=0.5, average=a, pos_label=pos),
                       lambda a=a: M.fbeta_score(yt, yp, beta=2, average=a, pos_label=pos)]:
                v, w = run(fn)
                row.append([num(v), w])
            rows.append(row)
        out["prf"] = [[r[0] for r in row] for row in rows]
        out["prf_warnings"] = [[r[1] for r in row] for row in rows]
        p, r, f, s = M.precision_recall_fscore_support(yt, yp)
        out["prfs"] = [num(p), num(r), num(f)]
        out["support"] = s
        # zero_division variants (per label and macro) for precision, recall, f1
        zrows = []
        for z in ZERO_DIVISION:
            zrow = []
            for a in [None, "macro", "weighted"]:
                for fn in [M.precision_score, M.recall_score, M.f1_score]:
                    v, w = run(lambda: fn(yt, yp, average=a, zero_division=z, labels=d["labels"] + [9]))
                    zrow.append([num(v), w])
            zrows.append(zrow)
        out["zd"] = [[c[0] for c in row] for row in zrows]
        out["zd_warnings"] = [[c[1] for c in row] for row in zrows]
        # ROC AUC
        if binary:
            s = d["score"]
            out["roc_auc"] = [M.roc_auc_score(yt, s), M.roc_auc_score(yt, s, max_fpr=0.3), M.roc_auc_score(yt, s, max_fpr=0.5)]
            fpr, tpr, thr = M.roc_curve(yt, s, pos_label=pos)
            out["roc_curve"] = [num(fpr), num(tpr), num(thr)]
            fpr, tpr, thr = M.roc_curve(yt, s, pos_label=pos, drop_intermediate=False)
            out["roc_curve_all"] = [num(fpr), num(tpr), num(thr)]
            out["top_k"] = [M.top_k_accuracy_score(yt, s, k=1), M.top_k_accuracy_score(yt, s, k=1, normalize=False)]
        else:
            pr = d["probs"]
            out["roc_auc_ovr"] = [num(M.roc_auc_score(yt, pr, multi_class="ovr", average=a)) for a in ["macro", "weighted", "micro"]]
            out["roc_auc_ovr_none"] = num(M.roc_auc_score(yt, pr, multi_class="ovr", average=None))
            out["roc_auc_ovo"] = [M.roc_auc_score(yt, pr, multi_class="ovo", average=a) for a in ["macro", "weighted"]]
            out["roc_auc_labels"] = M.roc_auc_score(yt, pr, multi_class="ovr", labels=d["labels"])
            top = []
            for k in [1, 2, 3]:
                top.append(run(lambda: M.top_k_accuracy_score(yt, pr, k=k)))
            out["top_k"] = [v for v, _ in top]
            out["top_k_warnings"] = [w for _, w in top]
            # accuracy(logits, target, top_k): column indices as classes
            target = np.searchsorted(d["labels"], yt)
            out["target"] = target
            out["accuracy_logits"] = [M.top_k_accuracy_score(target, d["logits"], k=k, labels=list(range(len(d["labels"])))) for k in [1, 2]]
    # accuracy on binary probabilities (1-D floats) and on labels
    b = data["binary"]
    values["binary_accuracy_probs"] = M.top_k_accuracy_score(b["y_true"], b["score"], k=1, labels=[0, 1])
    logit = np.log(b["score"] + 0.01) - np.log(1.01 - b["score"])
    values["binary_logit"] = logit
    values["binary_accuracy_logit"] = M.top_k_accuracy_score(b["y_true"], logit, k=1, labels=[0, 1])
    # ties in top-k: equal scores, sklearn puts the higher column first
    tie_scores = np.array([[0.5, 0.5, 0.0], [0.2, 0.4, 0.4], [1.0, 1.0, 1.0], [0.1, 0.3, 0.6]])
    tie_target = np.array([0, 1, 0, 2])
    values["tie_scores"] = tie_scores
    values["tie_target"] = tie_target
    values["tie_top_k"] = [M.top_k_accuracy_score(tie_target, tie_scores, k=k) for k in [1, 2]]
    # pos_label 0 on the binary data, and labels given as a subset
    yt, yp = b["y_true"], b["y_pred"]
    values["binary_pos0"] = [M.precision_score(yt, yp, pos_label=0), M.recall_score(yt, yp, pos_label=0), M.f1_score(yt, yp, pos_label=0)]
    m = data["missing"]
    values["missing_subset"] = [M.precision_score(m["y_true"], m["y_pred"], labels=[2, 0], average=None).tolist(),
                                M.f1_score(m["y_true"], m["y_pred"], labels=[2, 0], average="macro")]
    # one class only: warnings as values
    values["one_class_f1"] = run(lambda: M.f1_score([0, 0, 0], [0, 0, 0]))
    values["one_class_auc"] = run(lambda: M.roc_auc_score([1, 1, 1], [0.2, 0.5, 0.9]))
    values["pos_label_ignored"] = run(lambda: M.precision_score([0, 1, 2], [0, 1, 1], average="macro", pos_label=2))
    values["cm_single"] = run(lambda: M.confusion_matrix([1, 1], [1, 1]).tolist())
    values["top_k_perfect"] = run(lambda: M.top_k_accuracy_score([0, 1, 2], [[0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]], k=3))
    # errors
    errors = {
        "lengths": lambda: M.accuracy_score([0, 1, 2], [0, 1, 1, 1]),
        "lengths_f1": lambda: M.f1_score([0, 1, 1, 0], [0, 1, 1]),
        "average": lambda: M.precision_score([0, 1], [0, 1], average="bogus"),
        "average_f1": lambda: M.f1_score([0, 1], [0, 1], average="mean"),
        "average_roc": lambda: M.roc_auc_score([0, 1], [0.1, 0.2], average="bogus"),
        "multiclass_binary": lambda: M.precision_score([0, 1, 2], [0, 1, 1]),
        "pos_label": lambda: M.precision_score([0, 1], [0, 1], pos_label=2),
        "zero_division": lambda: M.f1_score([0, 1], [0, 1], zero_division=2),
        "beta": lambda: M.fbeta_score([0, 1], [0, 1], beta=-1),
        "normalize": lambda: M.confusion_matrix([0, 1], [0, 1], normalize="rows"),
        "cm_labels_empty": lambda: M.confusion_matrix([0, 1], [0, 1], labels=[]),
        "cm_labels_absent": lambda: M.confusion_matrix([0, 1], [0, 1], labels=[5, 6]),
        "continuous": lambda: M.accuracy_score([0, 1, 2], [0.5, 1, 1]),
        "samples": lambda: M.f1_score([0, 1, 2], [0, 1, 1], average="samples"),
        "multi_class": lambda: M.roc_auc_score([0, 1, 2], [[0.2, 0.3, 0.5]] * 3),
        "multi_class_value": lambda: M.roc_auc_score([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, multi_class="ova"),
        "not_probabilities": lambda: M.roc_auc_score([0, 1, 2], [[0.2, 0.3, 0.6]] * 3, multi_class="ovr"),
        "ovo_none": lambda: M.roc_auc_score([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, multi_class="ovo", average=None),
        "ovo_micro": lambda: M.roc_auc_score([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, multi_class="ovo", average="micro"),
        "roc_columns": lambda: M.roc_auc_score([0, 1, 2], [[0.5, 0.5]] * 3, multi_class="ovr"),
        "max_fpr_multiclass": lambda: M.roc_auc_score([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, multi_class="ovr", max_fpr=0.5),
        "max_fpr": lambda: M.roc_auc_score([0, 1], [0.2, 0.3], max_fpr=2),
        "top_k_k": lambda: M.top_k_accuracy_score([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, k=0),
        "top_k_classes": lambda: M.top_k_accuracy_score([0, 1, 1], [[0.2, 0.3, 0.5]] * 3, k=1),
        "top_k_binary_2d": lambda: M.top_k_accuracy_score([0, 1, 1], [[0.2, 0.8], [0.3, 0.7], [0.5, 0.5]], k=1),
        "top_k_labels": lambda: M.top_k_accuracy_score([0, 1, 4], [[0.2, 0.3, 0.5]] * 3, k=1, labels=[0, 1, 2]),
        "roc_curve_labels": lambda: M.roc_curve([2, 3, 3], [0.1, 0.5, 0.7]),
    }
    for k, fn in errors.items():
        values["error_" + k] = error_text(fn)
    write_fixtures(values)


def write_fixtures(values):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "metrics_fixtures.spl")
    write(path, __file__, values, header="Reference values from sklearn {} (numpy {}).\n".format(sklearn.__version__, np.__version__))


if __name__ == "__main__":
    main()
