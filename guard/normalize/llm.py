"""``normalizer.llm.v1`` and ``normalizer.hybrid.v1``: the norm read by a language model behind
any OpenAI-compatible endpoint, for prose the spaCy rules read badly.

Why schema-checked: a model's answer is untrusted input. It is parsed from the first JSON object
in the reply, validated by pydantic against the same fields the rule normalizer v2 fills (closed
sets stay closed: a modality or state verb outside them rejects the answer), and its value is kept
only if it is written in the statement — the comparator may block on a value, so a value the model
invented must never reach it. Typed values, bounds and the scope stated in the prose are parsed by
the same deterministic code the rules use, not by the model.

Why fail open: a timeout, an HTTP error, a refusal or chatter without a valid norm gives an
unknown norm whose ``error`` names the reason; the write goes on, checked without structure, and
says so in its notes. A normalizer hiccup never fails a write.

The hybrid asks the model only where the rules return an unknown, vague or missing subject, so a
scan of a large store stays at rule speed and the model is paid for the few statements that need it.
"""
from __future__ import annotations

import functools
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Literal, Optional

from guard.claims import Modality, Norm, Scope, StateVerb, SubjectKind, Window
from guard.json_text import NoJSONObject, first_json_object, validated
from guard.normalize.base import PROVISIONAL, register
from guard.normalize.build import build_id
from guard.normalize.lexicon import QUANTIFIERS
from guard.normalize.llm_client import ChatClient, EndpointDown, LLMConfig, LLMError

log = logging.getLogger(__name__)

_MODALITIES = tuple(m.value for m in Modality)
_VERBS = tuple(v.value for v in StateVerb)
_KINDS = tuple(k.value for k in SubjectKind)

SYSTEM_PROMPT = f"""You read one statement from a team's rules, policies, decisions or facts and return its
structured reading as one JSON object, nothing else. Fields:
- modality: one of {", ".join(_MODALITIES)}. A plain fact ("The API listens on 8443") is "must".
  "is not required"/"optional" lifts an obligation: "may_not". "must not"/"never"/"forbidden": "must_not".
  "unknown" only when the statement states no rule or fact.
- subject: the thing the statement is about, a short lowercase noun phrase, singular, no article
  ("production deploy", "max_connections", "on-call stipend"); null if there is none.
- object: the state verb, one of {", ".join(_VERBS)} ("other" when none fits; "be" for "is"/"are").
- value: the value it sets, copied exactly as written in the statement (a port, number with unit, version,
  date, name, domain); null if none.
- attribute: what the value is of ("port", "retry count", "end-of-life date", "max_connections"); null if none.
- theme: the complement the state is about, a few lowercase words ("null key", "approval"); null if none.
- subject_kind: PRESENT, FUZZY (a pronoun or vague "it", "this", "everything") or MISSING.
- exclusive: true when the statement allows only its value ("only example.com mail is allowed").
- qualifiers: conditions, exceptions and asides kept apart from the main clause, as written (may be empty).
Example: "Unless a hotfix is urgent, production deploys must be approved by two reviewers." ->
{{"modality": "must", "subject": "production deploy", "object": "require", "value": "two reviewers",
"attribute": "reviewer count", "theme": "approval", "subject_kind": "PRESENT", "exclusive": false,
"qualifiers": ["unless a hotfix is urgent"]}}"""


def _schema_model():
    """The pydantic model of an answer (built on first use: importing pydantic is not free at start-up)."""
    from pydantic import BaseModel, ConfigDict, Field

    class LLMNorm(BaseModel):
        model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)
        modality: Literal[_MODALITIES]  # type: ignore[valid-type]
        subject: Optional[str] = Field(None, max_length=200)
        object: Literal[_VERBS] = "other"  # type: ignore[valid-type]
        value: Optional[str] = Field(None, max_length=200)
        attribute: Optional[str] = Field(None, max_length=200)
        theme: Optional[str] = Field(None, max_length=200)
        subject_kind: Literal[_KINDS] = "PRESENT"  # type: ignore[valid-type]
        exclusive: bool = False
        qualifiers: list[str] = Field(default_factory=list, max_length=10)

    return LLMNorm


answer_model = functools.cache(_schema_model)


def answer_schema() -> dict:
    """JSON schema for the server's ``response_format`` (strict mode wants every field required)."""
    schema = answer_model().model_json_schema()
    schema["required"] = list(schema["properties"])
    schema["additionalProperties"] = False
    return schema


_STOP = QUANTIFIERS | {"is", "are", "be", "was", "were", "to", "of", "and", "or", "for", "in", "on", "at", "by",
                       "with", "from", "as", "it", "must", "should", "may", "can", "will", "not", "never", "shall"}


def _words(text: str) -> list[str]:
    out = []
    for w in re.findall(r"[a-z0-9_][a-z0-9_.+-]*", text.lower()):
        w = w.rstrip(".")
        if not w or w in _STOP:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        out.append(w)
    return out


def _phrase(text: str | None) -> str | None:
    words = [w for w in re.findall(r"[^\s]+", (text or "").lower().replace("`", "")) if w not in QUANTIFIERS]
    return " ".join(words) or None


def _grounded(value: str | None, text: str) -> str | None:
    """The value as written in the statement, or None where the model did not copy it from there."""
    v = re.sub(r"\s+", " ", value or "").strip().strip("`'\"")
    flat = re.sub(r"\s+", " ", text).strip()
    i = flat.lower().find(v.lower()) if v else -1
    return flat[i:i + len(v)] if i >= 0 else None


def to_norm(answer: dict, text: str, scope: Scope, window: Window, name: str) -> Norm:
    """Validate a model's answer and turn it into a Norm; raises ``ValueError`` naming the problem."""
    from guard.normalize.rules_v2 import text_scope, text_variants
    from guard.normalize.stated_windows import read_window
    from guard.normalize.typed_values import extract_typed_values
    a = validated(answer_model(), answer, "bad schema", "answer")
    values = extract_typed_values(text)
    value = _grounded(a.value, text)
    typed = None
    if value:
        # the typed value the model's span holds, in the rules' canonical surface ("port 8443" → 8443),
        # so a norm read by the model compares with one read by the rules
        low = value.lower()
        typed = next((v for v in values if v.text.lower() == low), None) or \
            next((v for v in values if v.text.lower() in low or low in v.text.lower()), None)
        if typed is not None:
            value = typed.text
    subject = _phrase(a.subject)
    kind = SubjectKind(a.subject_kind)
    if not subject and kind is SubjectKind.PRESENT:
        kind = SubjectKind.MISSING
    terms = tuple(dict.fromkeys(_words(text) + [v.text.lower() for v in values]))
    norm = Norm(modality=Modality(a.modality), subject=subject, object=StateVerb(a.object), value=value,
                value_kind=(typed.kind if typed else ("literal" if value else None)),
                bound=typed.bound if typed else None, theme=_phrase(a.theme), scope=scope, window=window,
                subject_kind=kind, terms=terms, values=tuple((v.kind, v.text, v.bound) for v in values),
                exclusive=a.exclusive, attribute=_phrase(a.attribute), qualifiers=tuple(q for q in a.qualifiers if q),
                text_scope=text_scope(text), text_window=read_window(tuple(q for q in a.qualifiers if q)),
                normalizer=name)
    return replace(norm, variants=text_variants(text, norm))


@register("normalizer.llm.v1")
class LLMNormalizer:
    """One request per distinct statement (cached by text), at most ``concurrency`` in flight."""

    name = "normalizer.llm.v1"

    def __init__(self, client: ChatClient | None = None, **config):
        self.client = client or ChatClient(LLMConfig(**config))
        from cachetools import LRUCache
        self._cache: LRUCache = LRUCache(maxsize=self.client.config.cache_size)
        self._lock = threading.Lock()
        self._schema = answer_schema()
        # the model asked (not the endpoint): another model reads statements differently
        self.build = build_id(self.name, self.client.config.model)

    @property
    def model(self) -> str:
        return self.client.usage.get("model") or self.client.config.model

    def normalize(self, text: str, scope: Scope, window: Window) -> Norm:
        return self.normalize_many([(text, scope, window)])[0]

    def normalize_many(self, items: list[tuple[str, Scope, Window]]) -> list[Norm]:
        texts = list(dict.fromkeys(t for t, _, _ in items))
        with self._lock:
            found: dict[str, Norm | str] = {t: self._cache[t] for t in texts if t in self._cache}
        todo = [t for t in texts if t not in found]
        if len(todo) > 1:
            with ThreadPoolExecutor(max_workers=min(self.client.config.concurrency, len(todo))) as pool:
                found.update(zip(todo, pool.map(self._ask, todo)))
        elif todo:
            found[todo[0]] = self._ask(todo[0])
        out = []
        for text, scope, window in items:
            got = found[text]
            out.append(replace(got, scope=scope, window=window) if isinstance(got, Norm)
                       else Norm.unknown(scope, window, normalizer=self.name, error=got))
        return out

    def _ask(self, text: str) -> Norm | str:
        """The norm, or the reason there is none. Only successes are cached: the next write retries."""
        try:
            ans = self.client.complete([{"role": "system", "content": SYSTEM_PROMPT},
                                        {"role": "user", "content": text}], self._schema)
            norm = to_norm(first_json_object(ans.content), text, Scope(), Window(), self.name)
        except EndpointDown as exc:          # the next open of a store asks again (is_provisional)
            log.warning("LLM normalizer failed on %r: %s", text[:60], exc)
            return f"{PROVISIONAL}llm: {exc}"
        except (LLMError, NoJSONObject, ValueError) as exc:
            log.warning("LLM normalizer failed on %r: %s", text[:60], exc)
            return f"llm: {exc}"
        with self._lock:
            self._cache[text] = norm
        return norm


@register("normalizer.hybrid.v1")
class HybridNormalizer:
    """Rules first; the model only where the rules found no clear subject (or could not read the
    statement). Where the model fails too, the rules' reading stands — never worse than the rules."""

    name = "normalizer.hybrid.v1"

    def __init__(self, rules=None, llm: LLMNormalizer | None = None, **llm_config):
        from guard.normalize.rules_v2 import RuleNormalizerV2
        self.llm = llm or LLMNormalizer(**llm_config)      # first: a missing endpoint fails before spaCy loads
        self.rules = rules or RuleNormalizerV2()
        self.asked = 0
        self.build = build_id(self.name, getattr(self.rules, "build", self.rules.name), self.llm.build)

    @staticmethod
    def needs_llm(norm: Norm) -> bool:
        return norm.is_unknown or not norm.subject or norm.subject_kind is not SubjectKind.PRESENT

    def normalize(self, text: str, scope: Scope, window: Window) -> Norm:
        return self.normalize_many([(text, scope, window)])[0]

    def normalize_many(self, items: list[tuple[str, Scope, Window]]) -> list[Norm]:
        norms = self.rules.normalize_many(items)
        idx = [i for i, n in enumerate(norms) if self.needs_llm(n)]
        if idx:
            self.asked += len(idx)
            for i, n in zip(idx, self.llm.normalize_many([items[i] for i in idx])):
                if not n.is_unknown:
                    # who may act, and who is given what, come from the parse, which the model's answer
                    # does not replace
                    norms[i] = replace(n, normalizer=f"{self.name}+llm", permission=norms[i].permission,
                                       assignment=norms[i].assignment)
        return [replace(n, normalizer=self.name) if n.normalizer != f"{self.name}+llm" else n for n in norms]
