"""The intent split: one request → ordered sub-intents with roles and references, and a plan that
gives each its own contract.

Why split before answering: "Compare policy A vs B, then draft an email asking IT to switch our
domain" holds a grounded step (the comparison must cite what was retrieved for it) and a creative
one (the email may cite nothing and may state no fact the comparison does not support). One
contract for the whole request would either forbid the email or let it invent facts. Why from the
parse: the split points are syntactic — list items, ";", sequencing words ("then", "after that"),
and verb phrases coordinated with "and" — while "compare A and B" or "pros and cons of X"
coordinate nouns and stay whole.

Roles: COMPARE, LOOKUP, SUMMARIZE are grounded (answered from retrieved text, citations required);
DRAFT and REWRITE are creative (they build on a grounded step's result, named as ``#k`` the way
BREAK's decompositions do, and echo that step's handoff id).
"""
from __future__ import annotations

import re
import threading
from dataclasses import asdict, dataclass, field

from guard.answer.trace import new_id

COMPARE, LOOKUP, DRAFT, REWRITE, SUMMARIZE = "COMPARE", "LOOKUP", "DRAFT", "REWRITE", "SUMMARIZE"
GROUNDED = (COMPARE, LOOKUP, SUMMARIZE)
CREATIVE = (DRAFT, REWRITE)

_NUMBERED = re.compile(r"(?:^|\s)\(?(\d{1,2})[.)]\s+")
_SEQUENCE = re.compile(r"(?:^|,\s*|\s+and\s+|\s+)(?:then|and\s+also)\b,?\s+|(?:^|,\s*|;\s*|\s+and\s+)(?:after\s+that|afterwards|"
                       r"finally|next),?\s+", re.I)
_ANAPHORA = re.compile(r"\b(?:it|its|this|that|these|those|them|their|the\s+(?:result|results|comparison|answer|summary|"
                       r"findings|above|differences?|outcome)|based\s+on|using\s+(?:that|this|it|the\s+\w+))\b", re.I)
# a result, not a topic: what a LOOKUP must name to build on the step before ("how long does it take" asks anew)
_RESULT_ANAPHORA = re.compile(r"\b(?:them|those|these|the\s+(?:result|results|comparison|answer|summary|findings|above|"
                              r"differences?|outcome)|based\s+on)\b", re.I)
# imperative verbs that open a step of their own ("Find who owns X and draft a message …")
_STEP_VERBS = r"(?:draft|write|compose|rewrite|rephrase|summari[sz]e|compare|translate|shorten|polish|list|explain|find|look\s+up|check|tell\s+me)"
_AND_STEP = re.compile(r"(?:,\s*(?:and\s+)?|\s+and\s+)(?=" + _STEP_VERBS + r"\b)", re.I)
_ROLE_WORDS = [
    (COMPARE, re.compile(r"\b(?:compare|comparing|comparison|contrast|vs\.?|versus|difference(?:s)?\s+between|"
                         r"differ|which\s+(?:is|one\s+is)\s+(?:better|cheaper|faster|more|less)|pros\s+and\s+cons|"
                         r"advantages\s+and\s+disadvantages|trade-?offs?\s+between)\b|"
                         # a choice question: "Which is taller, X or Y?", "Who was born first, A or B?"
                         r"^(?:which|who|what)\b[^?]*\b(?:\w{3,}er|more|less|most|least|first|last|earlier|later)\b[^?]*\bor\b"
                         r"|\b(?:more|less|fewer|\w{3,}er)\s+than\b", re.I)),
    (DRAFT, re.compile(r"^(?:please\s+)?(?:draft|write|compose)\b|"
                       r"\b(?:draft|write|compose|prepare|create)\b(?:\s+\w+){0,3}?\s+(?:an?\s+|the\s+)?(?:\w+\s+)?"
                       r"(?:email|e-mail|mail|message|letter|memo|note|post|reply|response|announcement|ticket|"
                       r"proposal|plan|slack|summary\s+for)\b|\bdraft\b", re.I)),
    (REWRITE, re.compile(r"\b(?:rewrite|rephrase|reword|paraphrase|edit|shorten|polish|simplify|translate|"
                         r"proofread|make\s+(?:it|this|that)\s+(?:more|less|shorter|longer|clearer|formal|friendlier))\b", re.I)),
    (SUMMARIZE, re.compile(r"\b(?:summari[sz]e|summary|sum\s+up|recap|tl;?dr|overview|outline\s+the\s+key)\b", re.I)),
]


@dataclass
class SubIntent:
    index: int                      # 1-based, as BREAK numbers its steps
    text: str
    role: str
    refs: list[int] = field(default_factory=list)

    @property
    def grounded(self) -> bool:
        return self.role in GROUNDED

    def to_dict(self) -> dict:
        return {**asdict(self), "kind": "grounded" if self.grounded else "creative"}


def role_of(text: str) -> str:
    """The first role whose words occur, in order of specificity; a question or anything else is a LOOKUP."""
    head = text.strip()
    for role, pat in _ROLE_WORDS:
        m = pat.search(head)
        if m and (role is not SUMMARIZE or m.start() < 40):
            return role
    return LOOKUP


_NLP: list = []
_NLP_LOCK = threading.Lock()


def _nlp():
    with _NLP_LOCK:
        if not _NLP:
            from guard.normalize.rules import SPACY_MODEL, import_spacy
            _NLP.append(import_spacy().load(SPACY_MODEL, disable=["ner"]))
        return _NLP[0]


def _pieces(request: str) -> list[tuple[str, bool]]:
    """(piece, joined to the previous by a sequencing word) from lists, ';', sentences and 'then'."""
    text = re.sub(r"\s+", " ", request).strip()
    nums = list(_NUMBERED.finditer(text))
    if len(nums) >= 2 and [int(m.group(1)) for m in nums] == list(range(1, len(nums) + 1)):
        items = [text[m.end():(nums[i + 1].start() if i + 1 < len(nums) else len(text))] for i, m in enumerate(nums)]
        return [(p.strip(" ;,"), False) for p in items if p.strip(" ;,")]
    out: list[tuple[str, bool]] = []
    for chunk in re.split(r"\s*;\s*|(?<=[.!?])\s+(?=[A-Z])", text):
        parts = _SEQUENCE.split(chunk)
        for i, p in enumerate(parts):
            if p.strip(" ,.;"):
                out.append((p.strip(" ,;"), i > 0 or (bool(out) and bool(re.match(r"(?:then|after that|finally|next)\b",
                                                                                   chunk, re.I)))))
    return out


def _coordinated_verbs(piece: str) -> list[str]:
    """Split "Summarize the policy and draft an email" at a verb coordinated with the root verb;
    nouns coordinated ("compare A and B") keep the piece whole."""
    doc = _nlp()(piece)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("VERB", "AUX"):
        return _step_verbs(piece)
    cuts = []
    for c in root.children:
        if c.dep_ != "conj" or c.pos_ not in ("VERB", "AUX") or c.i <= root.i:
            continue
        has_own = any(ch.dep_ in ("dobj", "nsubj", "attr", "ccomp", "xcomp", "prep", "advmod", "acomp", "dative",
                                  "nsubjpass", "oprd", "prt", "advcl") for ch in c.children)
        if not has_own:
            continue
        start = min(t.i for t in c.subtree)
        cc = [t for t in root.children if t.dep_ == "cc" and root.i < t.i < start]
        cut_tok = cc[-1].i if cc else start
        cuts.append((doc[cut_tok].idx, doc[start].idx))
    out, prev = [], 0
    for cut, start in sorted(cuts):
        out.append(piece[prev:cut].strip(" ,"))
        prev = start
    out.append(piece[prev:].strip(" ,"))
    return [q for p in out if p for q in _step_verbs(p)]


def _step_verbs(piece: str) -> list[str]:
    """The parser may attach a second imperative under the first one's object ("Find who owns X
    and draft …"): a step verb right after "and" or a comma opens a step of its own."""
    parts = [p.strip(" ,") for p in _AND_STEP.split(piece)]
    parts = [p for p in parts if p]
    return parts if len(parts) > 1 and not _nouns_only(parts) else [piece]


def _nouns_only(parts: list[str]) -> bool:
    """"Compare A and list B" is two steps; a part of one or two words ("X and find") is not a step."""
    return any(len(p.split()) < 3 for p in parts)


def split(request: str) -> list[SubIntent]:
    if not isinstance(request, str) or not request.strip():
        raise ValueError("the request must be a non-empty string")
    if len(request) > 5000:
        raise ValueError("the request is longer than 5000 characters")
    steps: list[SubIntent] = []
    for piece, sequenced in _pieces(request):
        for j, part in enumerate(_coordinated_verbs(piece)):
            idx = len(steps) + 1
            role = role_of(part)
            refs: list[int] = []
            prev_grounded = [s.index for s in steps if s.grounded]
            if steps:
                if role in CREATIVE and prev_grounded:
                    refs = [prev_grounded[-1]]     # a draft builds on the grounded result before it
                elif role in (SUMMARIZE, COMPARE) and (_ANAPHORA.search(part) or (sequenced and j == 0)):
                    refs = [steps[-1].index]
                elif _RESULT_ANAPHORA.search(part):
                    refs = [steps[-1].index]
            steps.append(SubIntent(idx, part.rstrip(".") + ("." if part.endswith(".") else ""), role, refs))
    return steps


# ---- plans and their acceptance -------------------------------------------------------------
@dataclass
class Step:
    intent: SubIntent
    query: str | None = None              # grounded: the retrieval query
    allowed_ids: list[str] | None = None  # grounded: the ids retrieved for this step alone
    handoff_id: str | None = None         # grounded: the id a creative step must echo
    echo: str | None = None               # creative: the handoff id it must echo

    def contract(self) -> dict:
        if self.intent.grounded:
            return {"citations": "required, within allowed_ids", "allowed_ids": self.allowed_ids,
                    "handoff_id": self.handoff_id}
        return {"citations": "none", "must_echo": self.echo, "new_facts": "none beyond the grounded result"}

    def to_dict(self) -> dict:
        return {**self.intent.to_dict(), "query": self.query, "contract": self.contract()}


def plan(request: str, retrieve=None) -> list[Step]:
    """Each grounded step gets its own query (its text, with ``#k`` for what it builds on) and, when
    ``retrieve(query) -> [ids]`` is given, its own allowed ids; each creative step the handoff id of
    the grounded step it builds on."""
    steps: list[Step] = []
    for it in split(request):
        if it.grounded:
            query = it.text
            ids = list(retrieve(query)) if retrieve is not None else None
            steps.append(Step(it, query=query, allowed_ids=ids, handoff_id=new_id("ho")))
        else:
            src = next((s for s in steps if it.refs and s.intent.index == it.refs[0]), None)
            steps.append(Step(it, echo=src.handoff_id if src else None))
    return steps


def _output(raw) -> dict | str:
    """The step's output object, or the reason it has none."""
    from guard.json_text import NoJSONObject, first_json_object
    if isinstance(raw, dict):
        return raw
    try:
        return first_json_object(raw if isinstance(raw, str) else "")
    except NoJSONObject as exc:
        return f"no_json: {exc}"


def accept(steps: list[Step], outputs: dict, auditor=None, trace_path=None) -> dict:
    """Accept a whole plan or nothing. Grounded steps: a claim citing only their own retrieved ids
    (a refusal refuses the whole request — no partial answers). Creative steps: the handoff id of
    an accepted grounded step echoed, no citations, and no factual sentence the grounded result
    does not entail (``new_fact``, judged by the NLI auditor's entailment threshold)."""
    from guard.answer import trace as tracing
    from guard.answer.constraints import is_refusal
    from guard.answer.handoff import factual_sentences
    tr = tracing.Trace("plan", {"steps": [s.to_dict() for s in steps], "outputs": outputs})
    results: dict[int, dict] = {}
    accepted: dict[str, str] = {}          # handoff id → the grounded claim it stands for

    def finish(verdict: str, reason: str | None, step: int | None = None) -> dict:
        rec = {"verdict": verdict, "reason": reason, "step": step, "steps": results, "trace_id": tr.trace_id}
        tracing.append(trace_path, tr.record(verdict, reason, step=step, steps=results))
        return rec

    for s in steps:
        k = s.intent.index
        out = _output(outputs.get(k, outputs.get(str(k))))
        if isinstance(out, str):
            results[k] = {"ok": False, "reason": out}
            tr.check(f"step{k}.json", False, error=out)
            return finish("REJECT", "no_json", k)
        if s.intent.grounded:
            claim, cites = out.get("claim"), out.get("citations")
            if not isinstance(claim, str) or not isinstance(cites, list) or not all(isinstance(c, str) for c in cites):
                results[k] = {"ok": False, "reason": "bad_schema"}
                return finish("REJECT", "bad_schema", k)
            if is_refusal(claim):
                results[k] = {"ok": False, "reason": "not_in_context"}
                tr.check(f"step{k}.refusal", False)
                return finish("REFUSAL", "not_in_context", k)       # one grounded refusal refuses the request
            outside = [c for c in cites if s.allowed_ids is not None and c not in s.allowed_ids]
            if not cites or outside:
                results[k] = {"ok": False, "reason": "citation_scope", "outside": outside}
                tr.check(f"step{k}.citations", False, outside=outside, cited=cites)
                return finish("REJECT", "citation_scope", k)
            tr.check(f"step{k}.citations", True, cited=cites)
            accepted[s.handoff_id] = claim
            results[k] = {"ok": True, "handoff_id": s.handoff_id}
            continue
        text, echo = out.get("text"), out.get("handoff_id")
        if not isinstance(text, str):
            results[k] = {"ok": False, "reason": "bad_schema"}
            return finish("REJECT", "bad_schema", k)
        if not s.echo or echo != s.echo or echo not in accepted:
            results[k] = {"ok": False, "reason": "handoff_mismatch", "expected": s.echo, "got": echo}
            tr.check(f"step{k}.handoff", False, expected=s.echo, got=echo)
            return finish("REJECT", "handoff_mismatch", k)
        if out.get("citations"):
            results[k] = {"ok": False, "reason": "creative_citations"}
            tr.check(f"step{k}.citations", False, cited=out.get("citations"))
            return finish("REJECT", "creative_citations", k)
        facts = factual_sentences(text)
        if facts:
            if auditor is None:
                from guard.answer.handoff import LocalAuditor
                auditor = LocalAuditor()
            te = auditor.thresholds["entail"]
            probs = auditor.scorer.predict([(accepted[echo], f) for f in facts])
            new = [f for f, p in zip(facts, probs) if p["entailment"] < te]
            tr.check(f"step{k}.new_facts", not new, sentences=facts, unsupported=new,
                     entailment=[round(p["entailment"], 4) for p in probs])
            if new:
                results[k] = {"ok": False, "reason": "new_fact", "sentence": new[0]}
                return finish("REJECT", "new_fact", k)
        results[k] = {"ok": True}
    return finish("ACCEPT", None)
