"""Training batches of pairs of similar length, for training on a CPU.

Why: a cross-encoder batch is padded to its longest pair, so with random batches most of a CPU
step is spent on padding. Over 20,000 pairs of the v2 recipe's general files (batch 64, MiniLM's
tokenizer, at most 128 tokens) random batches hold 2.9x the real tokens; shuffled then sorted
within windows of 50 batches — what transformers' ``LengthGroupedSampler`` does for its own
Trainer, which sentence-transformers' trainer does not use — 1.04x. Each window is a random draw of
the data, the batches' order is shuffled again, and the order depends only on the seed and the
epoch, so an interrupted run resumes on the same batches.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
try:                                    # sentence-transformers >= 6
    from sentence_transformers.base.sampler import DefaultBatchSampler
except ImportError:                     # 5.x kept it one level up
    from sentence_transformers.sampler import DefaultBatchSampler

WINDOW = 50        # batches sorted together: the same window transformers' LengthGroupedSampler uses


class LengthGroupedBatchSampler(DefaultBatchSampler):
    """sentence-transformers' batch sampler interface; ``lengths[i]`` is row i's token count.

    Pass it to ``CrossEncoderTrainingArguments(batch_sampler=...)`` through ``functools.partial``
    with ``lengths`` bound: the trainer calls it with the dataset and its batch settings."""

    def __init__(self, dataset, batch_size: int, drop_last: bool, valid_label_columns=None, generator=None,
                 seed: int = 0, lengths: Sequence[int] | None = None, window: int = WINDOW) -> None:
        super().__init__(dataset, batch_size=batch_size, drop_last=drop_last,
                         valid_label_columns=valid_label_columns, generator=generator, seed=seed)
        if lengths is None or len(lengths) != len(dataset):
            raise ValueError(f"need one length per row: {len(dataset)} rows, "
                             f"{'no' if lengths is None else len(lengths)} lengths")
        if window < 1:                  # (torch's BatchSampler has already refused a batch size under 1)
            raise ValueError(f"the window must be at least 1 batch, not {window}")
        self.lengths = np.asarray(lengths)
        self.window = window

    def batches(self) -> list[np.ndarray]:
        """This epoch's batches, in the order the trainer gets them."""
        rng = np.random.default_rng([self.seed, self.epoch])
        order = rng.permutation(len(self.lengths))
        span = self.batch_size * self.window
        out: list[np.ndarray] = []
        for start in range(0, len(order), span):
            chunk = order[start:start + span]
            chunk = chunk[np.argsort(-self.lengths[chunk], kind="stable")]
            out += [chunk[i:i + self.batch_size] for i in range(0, len(chunk), self.batch_size)]
        if self.drop_last:
            out = [b for b in out if len(b) == self.batch_size]
        return [out[k] for k in rng.permutation(len(out))]

    def __iter__(self) -> Iterator[list[int]]:
        for b in self.batches():
            yield b.tolist()

    def __len__(self) -> int:
        n = len(self.lengths)
        # only the last window can end in a short batch, so the count is the plain one
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def rows_taken(lengths: Sequence[int], batch_size: int, seed: int, n_batches: int) -> np.ndarray:
    """The rows a length-grouped run with this seed took in its first ``n_batches`` steps (epoch 0,
    no last-batch drop: the trainer's defaults), so a run that continues it can leave them out."""
    sampler = LengthGroupedBatchSampler(range(len(lengths)), batch_size=batch_size, drop_last=False,
                                        seed=seed, lengths=lengths)
    batches = sampler.batches()
    if n_batches > len(batches):
        raise ValueError(f"cannot leave out {n_batches} batches: one epoch is {len(batches)} batches")
    return np.sort(np.concatenate(batches[:n_batches])) if n_batches else np.zeros(0, dtype=int)


def pair_lengths(tokenizer, premises: list[str], hypotheses: list[str], max_length: int,
                 chunk: int = 4096) -> list[int]:
    """Token counts of the pairs as the model will see them (truncated to ``max_length``)."""
    out: list[int] = []
    for i in range(0, len(premises), chunk):
        enc = tokenizer(premises[i:i + chunk], hypotheses[i:i + chunk], truncation=True, max_length=max_length)
        out += [len(ids) for ids in enc["input_ids"]]
    return out


def sampler_args(on: bool, tokenizer, premises: list[str], hypotheses: list[str], max_length: int) -> dict:
    """The training-arguments entry that turns length grouping on (``{}`` when off), for every
    trainer here (plain, claim-stage and distillation runs) to set it up one way."""
    if not on:
        return {}
    from functools import partial
    return {"batch_sampler": partial(LengthGroupedBatchSampler,
                                     lengths=pair_lengths(tokenizer, premises, hypotheses, max_length))}
