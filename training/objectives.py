"""Training objectives for the claim stage other than plain cross-entropy, and lower-layer freezing.

Why these exist: the claim stage lifts out-of-fold separation of claim contradictions but carries
less of it to new documents (claims_dev), and dev's false blocks are the shortcut it teaches —
"nearly the same words about one thing" read as a contradiction (the RTO is 4 hours / the RPO is 1
hour). Each option here is a known remedy for such a shortcut, kept so the measurement of it can be
rerun (``python -m training.claim_stage_ablation --objective … --freeze …``):

- ``poe``: product of experts with a lexical bias model (Clark et al., 2019; He et al., 2019): the
  model is trained through ``log_softmax(logits) + log p_bias``, so it gets no credit for what word
  overlap, length, numbers, negation and modal words already explain.
- ``reweight``: each claim pair's loss weighted by ``1 - p_bias(gold)`` (Schuster et al., 2019).
- ``label-smoothing``: cross-entropy with 0.1 of the target spread over the labels (less confident
  shortcuts).
- ``symmetric``: both directions of every pair in each step, plus the symmetric KL between them
  (the claim labels hold both ways, and the gate reads both).
- ``freeze_layers`` N: the embeddings and the lowest N transformer layers keep their general-NLI
  weights ("surgical" fine-tuning: the claim stage can move only the upper layers).
- ``distill``: knowledge distillation from a stronger model's scores of the same claim pairs
  (``TrainConfig.teacher_scores``: a file of per-row forward / backward probabilities in the format
  ``training.cv_nli`` writes, e.g. the large profile's out-of-fold scores): (1 − α) × T² ×
  KL(teacher ‖ student) at temperature T plus α × cross-entropy on the gold label (Hinton et al.,
  2015); pairs the teacher did not score (general-NLI replay) keep plain cross-entropy. Why: the
  larger base separates claim contradictions better (out-of-fold AUC 0.838 against 0.772) but costs
  seven times as much per pair; its graded scores carry which compatible pairs look like
  contradictions and how sure to be, which one-hot labels do not. ``TrainConfig.teacher_pairs`` adds
  unlabelled pairs (``claim_pairs.document_pairs``: two statements of one document that no row
  pairs) learnt from the teacher's scores alone — no cross-entropy term — where a teacher's
  labels are what there is more of than gold ones.
- ``consistency`` W (with any objective): R-Drop (Liang et al., 2021): every batch goes through the
  model twice, each pass with its own dropout; the loss is the mean of the two passes' losses plus W ×
  the symmetric KL between their label distributions. Why: a model whose answer moves with which
  units dropout silences is leaning on a few features — the shortcut again — and a fine-tuning set of
  a thousand pairs is where that regulariser pays most; it costs a second forward pass in training
  and nothing at inference.

The bias model is a multinomial logistic regression fitted on the claim pairs a run trains on (the
pairs whose source starts with "claims"); other pairs (general-NLI replay) get a uniform bias, which
leaves their loss plain cross-entropy under ``poe`` and weight 2/3 under ``reweight``.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
from torch import nn

from training.data import LABELS_3WAY, Pair

OBJECTIVES = ("ce", "poe", "reweight", "label-smoothing", "symmetric", "distill")

_NEG = re.compile(r"\b(?:not|no|never|none|cannot|without|nothing|nobody|neither|nor)\b|n't", re.IGNORECASE)
_MODAL = re.compile(r"\b(?:must|should|shall|may|can|required?|requires|allowed|forbidden|prohibited|"
                    r"mandatory|optional)\b", re.IGNORECASE)
_NUM = re.compile(r"\d+(?:\.\d+)?")
_TOKEN = re.compile(r"[a-z0-9]+")


def check_objective(objective: str, consistency: float = 0.0) -> None:
    """Refuse an unknown objective or an R-Drop weight that is no weight in one line (``train`` asks
    before it loads data or a model)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective {objective!r} is none of {', '.join(OBJECTIVES)}")
    if not (isinstance(consistency, (int, float)) and math.isfinite(consistency) and consistency >= 0):
        raise ValueError(f"consistency must be a finite weight >= 0, not {consistency!r}")


def bias_features(a: str, b: str) -> list[float]:
    """What a reader with no understanding sees in a pair: word overlap, lengths, whether numbers,
    negations and modal words appear on each side and differ."""
    ta, tb = _TOKEN.findall(a.lower()), _TOKEN.findall(b.lower())
    sa, sb = set(ta), set(tb)
    inter = len(sa & sb)
    na, nb = set(_NUM.findall(a)), set(_NUM.findall(b))
    nga, ngb = bool(_NEG.search(a)), bool(_NEG.search(b))
    la, lb = math.log1p(len(ta)), math.log1p(len(tb))
    return [inter / (len(sa | sb) or 1), inter / (min(len(sa), len(sb)) or 1), la, lb, abs(la - lb),
            float(bool(na and nb)), float(bool(na and nb and na != nb)), float(bool(na & nb)),
            float(nga), float(ngb), float(nga != ngb),
            float(bool(_MODAL.search(a))), float(bool(_MODAL.search(b))),
            len(sa - sb) / (len(sa) or 1), len(sb - sa) / (len(sb) or 1)]


class LexicalBias:
    """The bias-only model: fit on labelled pairs, then log p(label) per pair in LABELS_3WAY order."""

    def __init__(self, C: float = 1.0):
        self.C = C

    def fit(self, pairs: list[Pair]) -> LexicalBias:
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        X = np.array([bias_features(p.premise, p.hypothesis) for p in pairs])
        y = np.array([LABELS_3WAY.index(p.label) for p in pairs])
        if len(set(y.tolist())) < 2:
            raise ValueError("the bias model needs pairs of at least two labels")
        self.model_ = make_pipeline(StandardScaler(), LogisticRegression(C=self.C, max_iter=2000)).fit(X, y)
        self.classes_ = self.model_.classes_
        self.training_accuracy_ = float((self.model_.predict(X) == y).mean())
        return self

    def log_proba(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        p = np.full((len(pairs), len(LABELS_3WAY)), 1e-6)
        p[:, self.classes_] = self.model_.predict_proba(np.array([bias_features(a, b) for a, b in pairs]))
        return np.log(np.clip(p, 1e-6, 1.0))


def bias_table(pairs: list[Pair]) -> tuple[dict[tuple[str, str], np.ndarray], float]:
    """log p_bias per claim pair of ``pairs`` (the others are left out: uniform) and the bias model's
    training accuracy, for the run's summary."""
    claims = [p for p in pairs if p.source.startswith("claims")]
    if not claims:
        raise ValueError("the poe / reweight objectives need claim pairs to fit the bias model on")
    bias = LexicalBias().fit(claims)
    keys = [(p.premise, p.hypothesis) for p in claims]
    return dict(zip(keys, bias.log_proba(keys))), bias.training_accuracy_


def freeze_lower(model, n: int) -> int:
    """Stop gradients to the embeddings and transformer layers 0…n−1; returns how many tensors froze."""
    if n <= 0:
        return 0
    frozen = 0
    pattern = re.compile(r"(?:^|\.)embeddings\.|(?:^|\.)layer\.(\d+)\.")
    for name, param in model.named_parameters():
        m = pattern.search(name)
        if m and (m.group(1) is None or int(m.group(1)) < n):
            param.requires_grad = False
            frozen += 1
    if not frozen:
        raise ValueError(f"freeze_layers {n}: no embedding or layer parameters found to freeze")
    return frozen


def teacher_table(scores: str | Path, rows: list[dict]) -> dict[tuple[str, str], np.ndarray]:
    """log p_teacher (LABELS_3WAY order) per directed claim pair: a score file's forward scores for
    (existing, incoming) and backward for (incoming, existing), joined to ``rows`` by id. Rows the
    file does not hold are left out (their pairs train on the gold label alone).

    Keyed by the texts as the training pairs hold them (``nli.model_text``, as ``claim_pairs.to_nli_pairs``
    writes them): keyed by the raw texts, the 24 claims_train rows whose model text differs (a "shall" read
    "must") found no teacher score and trained on the gold label alone."""
    from guard.nli.model_text import model_text
    from training.gate_data import read_predictions
    by_id = read_predictions(scores)              # temperature 1: the probabilities as stored
    out: dict[tuple[str, str], np.ndarray] = {}
    for r in rows:
        if r["id"] not in by_id:
            continue
        forward, backward = by_id[r["id"]]
        a, b = model_text(r["existing"]["text"]), model_text(r["incoming"]["text"])
        for key, d in (((a, b), forward), ((b, a), backward)):
            out[key] = np.log(np.clip([float(d[lab]) for lab in LABELS_3WAY], 1e-6, 1.0))
    if not out:
        raise ValueError(f"teacher_scores {scores}: none of its ids is a row of the claim file")
    return out


def read_teacher_pairs(path: str | Path, rows: list[dict], sources: list[str] | None = None) -> tuple[list[Pair], dict]:
    """Unlabelled training pairs and the teacher's log-probabilities of them (``teacher_table``'s
    form) from a ``training.teacher_pairs`` file, its references resolved in ``rows``; only the pairs
    of ``sources`` (a fold's training documents) where given. ValueError in one line for a missing or
    unreadable file, a reference to no row, or an empty selection."""
    from training.claim_pairs import statement_texts
    from training.data import UNLABELLED
    texts = statement_texts(rows)
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"teacher_pairs {p} is not a file")
    keep = set(sources) if sources is not None else None
    pairs: list[Pair] = []
    table: dict[tuple[str, str], np.ndarray] = {}
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            key, scores = (texts[d["refs"][0]], texts[d["refs"][1]]), d["teacher"]
            logp = np.log(np.clip([float(scores[lab]) for lab in LABELS_3WAY], 1e-6, 1.0))
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ValueError(f"teacher_pairs {p} line {n}: not a scored pair of these rows "
                             f"({type(exc).__name__}: {exc})") from None
        if keep is not None and d.get("source") not in keep:
            continue
        pairs.append(Pair(key[0], key[1], UNLABELLED, "teacher-pairs"))
        table[key] = logp
    if not pairs:
        raise ValueError(f"teacher_pairs {p}: no pair of the training documents")
    return pairs, table


def make_loss(model, objective: str, pairs: list[Pair], teacher: dict | None = None,
              alpha: float = 0.5, temperature: float = 2.0, consistency: float = 0.0):
    """The trainer's loss for an objective (``ce``: sentence-transformers' own CrossEntropyLoss, so
    the shipped recipes train exactly as before) and a summary entry for the run. ``teacher``
    (``teacher_table``), ``alpha`` and ``temperature``: the ``distill`` objective's; ``consistency``:
    the weight of R-Drop's term between two dropout passes (0: one pass)."""
    check_objective(objective, consistency)
    if consistency:     # around the objective's own loss; plain cross-entropy as a ClaimObjective, which reads logits
        inner, info = ((ClaimObjective(model, "ce"), {}) if objective == "ce"
                       else make_loss(model, objective, pairs, teacher, alpha, temperature))
        return TwoPasses(inner, consistency), {**info, "consistency": consistency}
    if objective == "ce":
        from sentence_transformers.cross_encoder.losses import CrossEntropyLoss
        return CrossEntropyLoss(model), {}
    if objective == "distill":
        if not teacher:
            raise ValueError("the distill objective needs teacher_scores")
        hit = sum((p.premise, p.hypothesis) in teacher for p in pairs)
        if not hit:
            raise ValueError("the distill objective: the teacher scored none of the training pairs")
        return (ClaimObjective(model, objective, teacher, alpha=alpha, temperature=temperature),
                {"teacher_scored_pairs": hit, "distill_alpha": alpha, "distill_temperature": temperature})
    table, acc = (bias_table(pairs) if objective in ("poe", "reweight") else ({}, None))
    return ClaimObjective(model, objective, table), ({"bias_training_accuracy": round(acc, 4)} if acc is not None else {})


class ClaimObjective(nn.Module):
    """The loss for the non-default objectives (sentence-transformers' cross-encoder loss protocol:
    ``forward(inputs, labels)`` with the two text columns)."""

    def __init__(self, model, objective: str, table: dict | None = None, alpha: float = 0.5,
                 temperature: float = 2.0):
        super().__init__()
        self.model = model
        self.objective = objective
        self.table = table or {}
        self.alpha, self.temperature = alpha, temperature
        # the model's label order against LABELS_3WAY (the bias table's order)
        self.order = [LABELS_3WAY.index(model.config.id2label[i]) for i in range(len(LABELS_3WAY))]

    def _logits(self, pairs, prompt=None, task=None):
        from sentence_transformers.util import batch_to_device
        tokens = batch_to_device(self.model.preprocess(pairs, prompt=prompt, task=task), self.model.device)
        return self.model(tokens)["scores"].float()

    def forward(self, inputs, labels, prompt=None, task=None):
        pairs = list(zip(inputs[0], inputs[1]))
        return self.loss(pairs, self._logits(pairs, prompt, task), labels.view(-1), prompt, task)

    def loss(self, pairs, logits, labels, prompt=None, task=None):
        """This objective's loss of one pass's logits (``TwoPasses`` calls it once per pass)."""
        import torch
        import torch.nn.functional as F
        if self.objective == "ce":
            return F.cross_entropy(logits, labels)
        if self.objective == "label-smoothing":
            return F.cross_entropy(logits, labels, label_smoothing=0.1)
        if self.objective == "symmetric":
            back = self._logits([(b, a) for a, b in pairs], prompt, task)
            return 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(back, labels)) + symmetric_kl(logits, back)
        if self.objective == "distill":
            return self._distill(pairs, logits, labels)
        uniform = np.log(np.full(len(LABELS_3WAY), 1.0 / len(LABELS_3WAY)))
        bias = torch.tensor(np.stack([self.table.get(p, uniform)[self.order] for p in pairs]),
                            dtype=torch.float32, device=logits.device)
        if self.objective == "poe":
            return F.cross_entropy(F.log_softmax(logits, -1) + bias, labels)
        weight = 1.0 - bias.exp().gather(1, labels[:, None]).squeeze(1)        # reweight
        return (weight * F.cross_entropy(logits, labels, reduction="none")).sum() / weight.sum().clamp_min(1e-6)

    def _distill(self, pairs, logits, labels):
        """(1 − α) T² KL(teacher ‖ student) over the pairs the teacher scored, α × cross-entropy over
        all of them; a batch with no teacher-scored pair is plain cross-entropy."""
        import torch
        import torch.nn.functional as F
        # teacher-only pairs (label -1) have no cross-entropy; a batch of them only has none at all
        ce = F.cross_entropy(logits, labels, ignore_index=-1) if bool((labels >= 0).any()) else logits.sum() * 0.0
        have = [i for i, p in enumerate(pairs) if p in self.table]
        if not have:
            return ce
        t = self.temperature
        teacher = torch.tensor(np.stack([self.table[pairs[i]][self.order] for i in have]), dtype=torch.float32,
                               device=logits.device)
        kl = F.kl_div(F.log_softmax(logits[have] / t, -1), F.log_softmax(teacher / t, -1), log_target=True,
                      reduction="batchmean") * t * t
        return (1 - self.alpha) * kl * len(have) / len(pairs) + self.alpha * ce


class TwoPasses(nn.Module):
    """R-Drop around an objective: the batch's logits from two passes, each with its own dropout
    mask (the trainer has the model in training mode), their mean loss plus ``weight`` × the
    symmetric KL between the two label distributions."""

    def __init__(self, objective: ClaimObjective, weight: float):
        super().__init__()
        self.objective, self.weight = objective, weight
        self.model = objective.model

    def forward(self, inputs, labels, prompt=None, task=None):
        pairs = list(zip(inputs[0], inputs[1]))
        labels = labels.view(-1)
        one = self.objective._logits(pairs, prompt, task)
        two = self.objective._logits(pairs, prompt, task)
        task_loss = 0.5 * (self.objective.loss(pairs, one, labels, prompt, task)
                           + self.objective.loss(pairs, two, labels, prompt, task))
        return task_loss + self.weight * symmetric_kl(one, two)


def symmetric_kl(a, b):
    """The mean of KL(p_a ‖ p_b) and KL(p_b ‖ p_a) over a batch of logits: how far two readings of one
    batch (two directions, two dropout passes) disagree, whichever is taken as the reference."""
    import torch.nn.functional as F
    lp, lq = F.log_softmax(a, -1), F.log_softmax(b, -1)
    return 0.5 * (F.kl_div(lq, lp, log_target=True, reduction="batchmean")
                  + F.kl_div(lp, lq, log_target=True, reduction="batchmean"))
