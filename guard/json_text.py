"""The first JSON object in a model's text.

Why: language models wrap the JSON they were asked for in chatter ("Sure! Here is the norm:
```json {...}```"), and both the LLM normalizer and the answer-time gates must read the object
without trusting the wrapper. ``json.JSONDecoder.raw_decode`` does the parsing; this only finds
where an object starts.
"""
from __future__ import annotations

import json

_DECODER = json.JSONDecoder()


def validated(model, data, problem: str, whole: str):
    """``model.model_validate(data)`` (a pydantic model), or ``ValueError("<problem>: <field>:
    <message>")`` naming the first bad field — one line a caller can put in a verdict or a note."""
    from pydantic import ValidationError
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or whole
        raise ValueError(f"{problem}: {where}: {err.get('msg')}") from None


class NoJSONObject(ValueError):
    """The text holds no JSON object (the message says what was found instead)."""


def first_json_object(text: str, max_chars: int = 200_000) -> dict:
    if not isinstance(text, str):
        raise NoJSONObject(f"expected text, got {type(text).__name__}")
    text = text[:max_chars]
    start = text.find("{")
    broken = None
    while start != -1:
        try:
            obj, _ = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as exc:
            broken = broken or f"malformed JSON at character {exc.pos}: {exc.msg}"
        else:
            if isinstance(obj, dict):
                return obj
        start = text.find("{", start + 1)
    raise NoJSONObject(broken or ("no JSON object in the text" if text.strip() else "empty text"))
