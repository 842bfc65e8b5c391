"""The statement as the NLI model and the bi-encoder read it: what it says, without the ways of writing it down
that say nothing.

Why: the structural stages read a statement through the normalizer, which already ignores an attention label
("Note:", "IMPORTANT:"), an exclamation mark or a missing full stop; the models read the text itself, and those
marks moved their scores. Judged whole by the default guard, claims_dev's 320 pairs with the incoming statement
written "Note: …" changed tier 41 times (20 blocks became warns), ending in "!" 11 times and without its full stop
18 times (``python -m benchmarks.pipeline_invariance``). Every statement of claims_train and claims_dev ends with a
stop and none opens with such a label, so the NLI scores the learned gate was fitted on are the scores of these
texts too. A topic label ("Security: …", "Ops suggestion: …") stays: what it names is part of the statement, and
the normalizer reads some of them as advice.
"""
from __future__ import annotations

import re

from guard.markup import attention_label_off

_EXCLAIMED = re.compile(r"\s*!+$")
_OPEN_END = re.compile(r"[\w%]$")


def model_text(text: str) -> str:
    t = attention_label_off(text.strip())
    t = _EXCLAIMED.sub(".", t)
    return t + "." if _OPEN_END.search(t) else t
