"""``normalizer.rules.v2``: v1's parse, read on the main clause of a long sentence, with the
attribute a value belongs to, typed values in canonical units, and scope stated in the prose.

Why a v2 beside v1: real documents write rules inside conditions, exceptions, leading adverbials
and asides ("Out of the box, the scheduler retries a failed job three times."), and v1 took the
leading words for the subject. v1 stays registered so the two can be compared on the same gold
file; norms of v1 do not change.

- Main clause: parentheticals, a leading adverbial or subordinate clause and trailing
  ", unless …"/", so …"-style clauses are cut off and kept as ``qualifiers``. Clauses joined by
  ";" stay: the second is often the rule's other half ("…; tags like @v1 are prohibited").
- Attribute: a configuration identifier near the value (``max_connections``, ``--flag``,
  ``a.b.c``), else what the value's kind says it is (port, <product> version, end-of-support date,
  <verb> count), else the noun nearest before the value ("stipend", "timeout").
- Values: ``typed_values`` (dates, money per period, sizes, rates, counts) before v1's selectors.
- Scope in the prose: one environment named in the text ("… in staging") fills ``text_scope``.
"""
from __future__ import annotations

import calendar
import logging
import re
from dataclasses import replace
from functools import cached_property, lru_cache

from guard.claims import ANY_VARIANT, ENV_NAMES, Modality, Norm, Scope, StateVerb, SubjectKind, Window
from guard.normalize.actors import read_permission, sentence_root
from guard.normalize.assignments import read_assignment
from guard.normalize.base import fail_open, register
from guard.normalize.durations import duration_attribute
from guard.normalize.subject_phrases import predicate_phrases, subject_phrases
from guard.normalize.negative_conditions import required_through_without
from guard.normalize.numbered_names import numbered_variants
from guard.normalize.opening_boundary import OpeningBoundary
from guard.normalize.openings import opening_without_comma
from guard.markup import attention_label_off as _emphasis_label_off
from guard.normalize.lead_phrases import lead_phrase_variants
from guard.normalize.open_compounds import hyphenated
from guard.normalize.sentence_case import english_words, plural_bases, sentence_case
from guard.normalize.stated_windows import read_window
from guard.normalize.lexicon import (ADVICE_LABELS, DECISION_LEADS, HALT_PREDICATES, IMPERATIVE_PREFIXES,
                                     MODAL_PREDICATES, MODAL_VERBS, NEGATION_WORD, PERSON_SUBJECTS,
                                     V2_MODAL_PREDICATES)
from guard.normalize.rules import (_BOUNDARIES, _NAMING, _NEED_WORDS, _RECIPIENTS, CODE_NAME, NOUN_ATTACHMENTS, VERBS,
                                   Parsed, RuleNormalizer, _merge_hyphenated, _to_a_verb, fixed_lemma, manner_adverb,
                                   pronoun_object)
from guard.normalize.typed_values import (_COMPARED_BEFORE, _COMPARED_START, _OP_NOT, ANY_UNIT, GEOGRAPHIES,
                                          PLATFORMS, POINT_UNITS, extract_typed_values, version_base)
from guard.normalize.values import UNITS, WORD_NUMBERS, one_of

_PAREN = re.compile(r"\s*\([^()]{1,200}\)")
_LEAD_ADVERB = re.compile(
    r"^(?:out of the box|by default|in general|generally|typically|usually|normally|currently|today|"
    r"in the first instance|as soon as possible|where possible|if possible|for example|e\.g\.|in practice|"
    r"in most cases|in addition|additionally|also|however|otherwise|as a rule(?: of thumb)?|as of [^,]{1,40}|"
    # when a decision holds and how it is told ("Going forward, …", ``lexicon.DECISION_LEADS``)
    + DECISION_LEADS + "|"
    # any sentence adverb set off by its comma ("Separately, Shopify caps …", "Historically, …"): how it is said, not
    # what (read whole, "separately" was the subject); not a noun that ends alike
    r"(?!(?:italy|july|family|supply|assembly|reply|ally|rally|anomaly|monopoly|butterfly|apply|comply|only)\b)"
    r"[a-z]{2,}ly(?=\s*,))\b\s*,?\s*", re.I)
_LEAD_CLAUSE = re.compile(
    r"^(?:and\s+)?(?:even\s+)?(?:if|when|whenever|unless|once|while|after|before|during|for|in|on|within|across|outside|inside|under|"
    r"from|as|because|since|although|though|where|with|without|at|to|after|upon|except|according to|as per|per(?=\s)|"
    r"in line with|in accordance with|regardless of|irrespective of|no matter|so that|in order (?:to|that)|"
    # a means, a start or an assumption before the rule: "By granting …, an administrator can …",
    # "Starting January 1st 2026, Fly.io charges …", "Assuming two people are on call, …" ("Using X …,"
    # stays: as often the gerund subject of the sentence itself); a comma before a year is the date's
    # own ("On July 1, 2023, CAs must …"), and one between digits a number's ("Because … greater than 86,400
    # seconds counts as …, certificates …" was cut at "86," and read "400 seconds counts …" as the rule)
    r"by(?=\s+\w+ing\b)|starting|beginning|effective|assuming|depending\s+(?:on|upon)|given\s+that|"
    # a contrast, a cause or a replacement before the rule ("Despite claims to the contrary, enabling the TRACE method
    # does not …", "Unlike a password salt, the pepper should not be public", "Till uWSGI 2.1, …", "Due to …, Django
    # asks …"): read whole, the phrase's noun was the subject
    r"despite|in\s+spite\s+of|unlike|till|until|between|due\s+to|owing\s+to|thanks\s+to|"
    r"notwithstanding|contrary\s+to|compared\s+(?:to|with)|apart\s+from|aside\s+from|besides|prior\s+to|following)\b(?!-)"
    r"(?:[^,;]|,(?=\s*\d{4}\b)|(?<=\d),(?=\d{3}\b)){1,140}(?:(?<!\d),|,(?!\d{3}\b))\s*",
    re.I)
# a relative clause between commas right after a leading phrase ("During the code freeze, which runs from …, only …"), not
# one whose comma begins a list's last item ("…, which covers A, B, and C")
_LEAD_RELATIVE = re.compile(r"^(?:which|who|whose)\s[^,;]{1,100},\s*(?!(?:and|or)\b)(?![^,;]{1,40},\s*(?:and|or)\b)(?=\S)",
                            re.IGNORECASE)
# a leading participle's phrase, set off by its comma ("Left at its defaults, git gc only prunes …", "Left alone, etcd's
# backend quota is …", "Configured this way, the proxy …"): how the thing is, before the rule; read whole, "left" was the
# subject. Only a participle before a preposition, an adverb of state or "this"/"that" (not a noun it describes:
# "Deprecated API functionality must not …"), and no finite verb before the comma ("Ingested samples are grouped …, …")
_LEAD_PARTICIPLE = re.compile(
    r"^(?:[a-z]+ed|left|kept|set|run|built|held|unset|given|shown|written)\s+"
    r"(?=(?:alone|untouched|unchanged|as\s+is|at|with|by|on|in|to|as|for|under|from|without|this|that|like)\b)"
    r"(?![^,;]{0,80}?\b(?:is|are|was|were|must|should|shall|can|cannot|will|may|has|have|does|do)\b[^,;]{0,80},)"
    r"[^,;]{1,80},\s*", re.IGNORECASE)
# a phrase of place or case with no comma of its own, that runs on into the statement's verb before the first comma
# ("On our Enterprise Okta org the /api/v1/apps create/list limit is 600, the same as …"): cut up to that comma, it took
# the whole statement for its leading phrase and left "the same as …". Not where the verb is a relative clause's
# ("For tasks that use the Fargate launch type, …")
_PLACE_RUNS_ON = re.compile(
    r"^(?:for|in|on|within|across|outside|inside|under|from|with|without|at|upon|during)\s+"
    r"(?:(?!\b(?:that|which|who|whom|whose|where|when|if)\b)[^,;])*?\b(?:is|are|was|were|must|should|shall|may|can|"
    r"cannot|will|won't|can't|isn't|aren't)\b", re.IGNORECASE)
# the cases a leading phrase takes in, after its comma: "…, including physical and mental needs, …", "…, such as a
# customer on a Premium Support plan, …", "…, including if the limit hint is not configured, …"
_LEAD_CASES = re.compile(r"^(?:including|excluding|such\s+as|like|e\.g\.|especially|particularly|notably)\s[^,;]{1,100},\s*",
                         re.IGNORECASE)
# a span of time or of releases before the rule, counted from an event ("Two releases after a deprecation is announced,
# the deprecated bits … are removed", "30 days before the trip, book …"): when, not what; read whole, its count was
# the statement's first words and it had no subject
_LEAD_SPAN = re.compile(
    r"^(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|several)\s+[\w-]+\s+"
    r"(?:after|before|from|since|into|prior\s+to)\s+[^,;]{1,100},\s*", re.IGNORECASE)
# a leading phrase of when by how many or how long ("After 3 retries", "Within 30 days of joining", "After every 5
# failed attempts"): a count first, in digits or words
_LEAD_COUNT = re.compile(r"^(?:after|within|before|upon)\s+(?:every\s+|the\s+first\s+)?(?:\d|(?:an?|one|two|three|four|"
                         r"five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|several)\s)", re.IGNORECASE)
_MORE_CONDITION = re.compile(r"^(?:or|and)\s+(?!then\b)[^,;:]{3,100}?,\s*(?=\S)", re.IGNORECASE)
# a leading phrase of place, time or case with no comma, ended where a new noun phrase or a person begins
# ("On SIGTERM our worker processes also flush …", "During the launch year we discourage …", "On developer
# laptops the app writes …"): read whole, its words joined the subject ("sigterm worker process"). Not where
# the phrase goes on into the next words ("During the period of your unpaid leave", "For tasks that use the …"),
# nor where it holds a number, which may be the rule's value ("After 3 retries the job fails.", "On gateway v10 …")
_LEAD_PHRASE = re.compile(
    r"^(?:on|in|at|during|after|before|under|with|without|for|outside|inside|across|within)\s+"
    r"(?!least\b|most\b|all\b|any\b|each\b|every\b|some\b|general\b)(?:(?!\d|v\d)[\w.'/-]+\s+){1,3}?"
    r"(?<!\bof\s)(?<!\bin\s)(?<!\bon\s)(?<!\bfor\s)(?<!\bto\s)(?<!\bthat\s)(?<!\bwhich\s)(?<!\bwho\s)"
    r"(?<!\buse\s)(?<!\bbring\s)(?<!\bwith\s)(?<!\bat\s)(?<!ing\s)(?<!\bdown\s)(?<!\bup\s)(?<!\boff\s)(?<!\bout\s)"
    r"(?=(?:our|the|all|every|each|any|we|you|they|it|its|their|your|a|an)\s)", re.IGNORECASE)
# a rule wrapped in a verb of making sure or of noting ("Make sure the session time … is set to no more
# than 30 minutes.", "Ensure that backups are encrypted.", "Note that …", "It is recommended that …"):
# the rule is the clause inside. Read whole, the wrapper took the subject ("sure session time …") or
# left none ("a statement has no subject"). Verbs that also take a plain object ("check the logs",
# "verify the signature") count only before "that".
_LEAD_WRAPPER = re.compile(
    r"^(?:please\s+)?(?:(?:make|be)\s+sure|ensure|(?:verify|confirm|check|note|remember)\s+that|"
    # the same with the person and the modal before it ("You should ensure that …", "Teams must make sure …")
    r"(?:you|we|they|teams?|everyone|staff|engineers?|developers?)\s+(?P<modal>must|should|shall|need\s+to|have\s+to)\s+"
    r"(?:always\s+)?(?:make\s+sure|ensure)|"
    r"(?:keep|bear)\s+in\s+mind\s+that|be\s+aware\s+that|"
    r"it(?:\s+is|['’]s)\s+(?P<how>recommended|advised|advisable|suggested|preferred|required|mandatory|essential|important|"
    r"critical|necessary|expected)\s+that|"
    # who says it, and how: "AWS recommends that you …", "Sourcegraph requires that all personnel …",
    # "We recommend that a full backup be rotated …", "The httpd documentation recommends that …"
    r"(?:(?-i:[A-Z][\w.&'-]*)|we|the\s+[\w-]+(?:\s+[\w-]+)?|our\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:also\s+|strongly\s+|generally\s+)?"
    r"(?P<says>recommends?|suggests?|advises?|requires?|asks?|mandates?|expects?|insists?)\s+that|"
    # a rule said as what a policy or a piece of advice is: "Our policy is that all teammates have …", "the mobile
    # team's guidance is to send logic changes first …", "The current best practice is to select a key size of …"
    r"(?:our|the|(?-i:[A-Z][\w.&-]*)['’]s)\s+(?:[\w-]+\s+){0,3}?(?:[\w-]+['’]s\s+)?(?P<noun>policy|rule|guidance|"
    r"recommendation|advice|expectation|requirement|convention|norm|standard|practice|position|view)\s+is\s+(?:that|to))"
    r"(?:\s+that)?\s+"
    r"(?:you\s+(?=[a-z]+\s))?", re.IGNORECASE)
# the unit families a value of an action comes in, and the attribute's noun for each ("retry count",
# "rotate frequency", "deploy day", "ship month")
_EVENT_VERBS = frozenset({"be", "have", "happen", "occur", "do", "hold"})
# a verb that only bounds how often a thing may happen ("Bulk exports are limited to one per hour.", "Deploys are allowed
# twice a week."): no action of its own ("limit frequency" / "run frequency" were two settings)
_NO_ACTION_OF_A_PERIOD = _EVENT_VERBS | {"limit", "cap", "restrict", "allow", "permit"}
_ACTION_NOUNS = {"count": "count", "period": "frequency", "weekday": "day", "month": "month", "monthday": "day of month",
                 "yearday": "date"}
_CONDITION_WORDS = r"if|when|whenever|once|after|before|until"
# a rule's modal verb: what a leading condition that ran on into the rule holds (``RuleNormalizerV2._clause_ran_on``)
_RULE_MODAL = re.compile(r"\b(?:must|should|shall|may|can|will|cannot|can't|won't|mustn't|shouldn't|needs?\s+to|"
                         r"ha(?:s|ve)\s+to)\b", re.IGNORECASE)
_CONDITION = re.compile(r"^(?:even\s+)?(?:" + _CONDITION_WORDS + r")\s+", re.IGNORECASE)
# a leading clause whose subject a main clause's "it"/"they" may stand for: a condition, or a concession or a cause
# ("Although Vue 2 has reached End of Life, it is still available …", "Because the cache is shared, it must …")
_SUBJECT_CLAUSE = re.compile(r"^(?:even\s+)?(?:" + _CONDITION_WORDS + r"|although|though|while|since|because)\s+",
                             re.IGNORECASE)
_BACK_PRONOUNS = frozenset({"it", "they"})
_ADVISORY = frozenset({"recommended", "advised", "advisable", "suggested", "preferred", "recommend", "suggest", "advise"})
# what a policy noun says is advice; not "position" ("The default position is that …" is the rule)
_ADVICE_NOUNS = frozenset({"guidance", "recommendation", "advice", "practice", "view"})
_TRAIL_WORDS = (r"(?:unless|except|provided that|as long as|even if|even when|so that|so|which|whereas|while|but|"
                r"because|since|although|though|otherwise|in which case)\b")
_TRAIL = re.compile(r"(?:,\s*|\s+)" + _TRAIL_WORDS + ".*$", re.I)
# a trailing "with" and a participle after what it is said of ("Node.js 18+ is supported, with 22 LTS recommended.", "…,
# with PII redacted."): how the rest stands, not the statement — read in, "22" was the value and "recommended" the mood
_WITH_PARTICIPLE = re.compile(r",\s*with\s+(?:[^\s,;()]+\s+){1,4}(?:[a-z]+ed|[a-z]+en)\s*\.?\s*$")
# what a figure leaves out, after it ("A standard week is 35 hours, Monday to Friday, not counting lunch.", "…, excluding
# lunch."): a qualifier of the figure; read in, "not" negated the statement ("35h, …, not counting lunch" was a
# prohibition, ``guard bench invariance``, "hours -> h")
_LEAVING_OUT = re.compile(r",\s*(?:not\s+(?:counting|including)|excluding)\s+[^,;]{1,100}?\s*\.?\s*$", re.IGNORECASE)
# a clause between commas before the statement's verb ("A request for refactoring, while encouraged, should not block a
# merge.", "The API gateway default for /login responses, which set the session cookie, is …"): an aside, not the
# trailing clause ``_TRAIL`` cuts to the end — read so, the statement lost its verb ("A request for refactoring.")
_ASIDE_BEFORE_THE_VERB = re.compile(
    r",\s*" + _TRAIL_WORDS + r"[^,]{1,60},\s*(?=(?:(?:must|should|shall|may|can|could|would|will|is|are|does|do|has|have)"
    r"(?:n't)?|cannot|won't|shan't|needs?|requires?)\b)", re.IGNORECASE)
# what opens a trailing clause: a leading clause that ends where one begins had no comma of its own
# ("During the annual pentest the red team may scan …, since it's our own tenant." is no leading
# clause before "since …")
_TRAIL_START = re.compile("^" + _TRAIL_WORDS, re.IGNORECASE)
_IDENT = re.compile(r"`([^`]{1,60})`|(?<![\w-])(--?[a-z][\w-]*(?:=\S+)?)|\b([a-z][a-z0-9]*(?:[_.][A-Za-z0-9]+)+)\b|"
                    r"\b([a-z]+[A-Z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*)\b")
# the scope fields' names for an environment (claims.ENV_NAMES), so the two always meet
_ENV_RE = re.compile(r"\b(?:in|on|for|to|across)\s+(?:the\s+|our\s+)?(" + "|".join(ENV_NAMES) + r")\b(?:\s+environments?)?",
                     re.I)
# an environment named as the subject's first word ("The staging cluster runs 3 nodes", "Production
# deploys need two approvals"); only the unambiguous names ("test cards", "stage 2", "dev teams" are not)
_ENV_SUBJECT = re.compile(r"^\s*(?:the\s+|our\s+|all\s+)?(production|prod|staging)\s+(?!environments?\b|of\b)[a-z]",
                          re.IGNORECASE)
_EOS = re.compile(r"\b(end[- ]of[- ]life|eol|supported|support ends?|long[- ]term support|lts|security (?:support|updates)"
                  r"|maintained)\b", re.I)
_RELEASE = re.compile(r"\b(released?|general availability|ga|launch(?:es|ed)?|available)\b", re.I)
_DEPRECATE = re.compile(r"\b(deprecat\w*|sunset\w*|retire\w*|remov\w*|shut\w* down)\b", re.IGNORECASE)
# the end of a thing's availability is when it goes away ("remains available until the end of 2027" / "will be shut
# down on March 1, 2027"), not when it was released
_AVAILABLE_UNTIL = re.compile(r"\b(?:available|online|accessible|usable|operational|up)\s+(?:until|till|through|thru)\b",
                              re.IGNORECASE)
_UNIT_WORDS = set(UNITS) | {u + "s" for u in UNITS} | {"time", "times", "per", "week", "weeks", "month", "months",
                                                        "default", "value", "number", "setting", "amount", "total"}


# only those whose first half is no word: the parser splits "can't" into "ca" + "n't" (and "won't" into "wo" +
# "n't"), while "doesn't" is "does" + "n't" as "does not" is
_CONTRACTED = {"can't": "cannot", "won't": "will not", "shan't": "shall not"}
_CONTRACTION = re.compile(r"\b(can|won|shan)['’]t\b", re.IGNORECASE)
_QUOTED = re.compile(r"(\"[^\"]*\"|“[^”]*”|`[^`]*`)")


def _expanded(text: str) -> str:
    """The statement with "can't", "won't" and "shan't" written out, outside quotes and code: the parser read
    "Releases are an append-only ledger and a release can't be mutated …" as another clause than the same with
    "cannot" (a rule against itself); written out, both read alike. Only these three: a value's words are
    kept as written ("doesn't enforce a quota" is compared with the text it came from)."""
    if "n't" not in text and "n’t" not in text:
        return text
    parts = _QUOTED.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = _CONTRACTION.sub(lambda m: _same_case(m.group(0), _CONTRACTED[m.group(1).lower() + "'t"]), parts[i])
    return "".join(parts)


def _same_case(written: str, expanded: str) -> str:
    return expanded[0].upper() + expanded[1:] if written[0].isupper() else expanded


def _upper_first(text: str) -> str:
    """The text with its first letter in capitals: a rewritten clause is read as a sentence that starts there."""
    return text[:1].upper() + text[1:]


_STOPPED = re.compile(r"[.!?]['\"’”)\]]*\s*$")
_EXCLAIMED = re.compile(r"(?<=[\w)\]'\"’”%`])!+(['\"’”)\]]*)\s*$")


def _stopped(text: str) -> str:
    """The statement with a full stop where it has none: an agent's note is often written without one
    ("Contributions are accepted only under Apache-2.0"), and the parser read 14 of 2,742 benchmark
    statements otherwise without theirs (a subject, a value, a rule's modality). An exclamation mark is a full
    stop said louder ("Logs rotate daily!" had no frequency: 18 of 2,883 statements read otherwise with one)."""
    text = _EXCLAIMED.sub(r".\1", text)
    return text if not text.strip() or _STOPPED.search(text) else text.rstrip() + "."


# "If you have been woken up by an alert you are not expected to start work at your normal time.", "When you are
# working from home you are expected to pay for your own expenses.", "Once soft-delete is enabled on a key vault it
# cannot be disabled.": a condition with no comma before the rule, which starts again with the person it is for or
# the thing the condition named. Read whole, the condition's verb was the statement's and it had no
# subject. The comma is put where the last person and a verb of the rule follow (not after "and", "or", "but":
# "… you must tell the on-call and you should stay online" is one rule), in the first stretch without punctuation
_UNMARKED_CONDITION = re.compile(
    r"^(?P<lead>(?:if|when|whenever|while|once|unless)\s+[^,;:.()]{3,160}[^,;:.()\s])(?<!\band)(?<!\bor)(?<!\bbut)(?<!\bthen)"
    r"\s+(?P<rest>(?:you|we|they|it)\s+(?:must|should|shall|can|can't|cannot|may|will|won't|need|needn't|have|has|are|"
    r"aren't|do|don't|get|receive|earn)\b.*)$", re.IGNORECASE | re.DOTALL)


# "It is not true that a key vault's soft-delete can be turned off again.": a statement denied as a whole, which
# left it without a subject ("it") and with the denial as its only force. Read as the statement with its first
# auxiliary negated ("… soft-delete cannot be turned off again"). A statement with no auxiliary to negate ("It is
# not true that Caddy retries requests") is left as written
_DENIED = re.compile(r"^it(?:'s\s+not|\s+is\s+not|\s+isn't|(?:'s|\s+is)\s+never)\s+(?:true|the\s+case)\s+that\s+(?P<p>\w.*)$", re.IGNORECASE | re.DOTALL)
_AUXILIARY = re.compile(r"\s(?P<aux>cannot|can|may|must|should|will|would|could|shall|is|are|was|were|does|do|did|has|have|"
                        r"wo(?=n't))(?P<neg>\s+not\b|n't\b|'t\b)?(?=\s)", re.IGNORECASE)
_NEGATED_AUX = {"can": "cannot", "will": "will not", "shall": "shall not"}
_AFFIRMED_AUX = {"cannot": "can", "wo": "will"}


def _denied_statement(main: str) -> str:
    m = _DENIED.match(main)
    if m is None:
        return main
    p = m.group("p")
    a = _AUXILIARY.search(p)
    if a is None:
        return main
    aux = a.group("aux")
    if a.group("neg") or aux.lower() == "cannot":          # "not true that X can't": X can
        said = _AFFIRMED_AUX.get(aux.lower(), aux)
    else:
        said = _NEGATED_AUX.get(aux.lower(), f"{aux} not")
    return f"{_upper_first(p[:a.start()])} {said}{p[a.end():]}"


# "Users must not be able to delete audit logs.", "It should not be possible to completely deactivate application
# logging.": a rule on an action said through ability or possibility, which left it about "able" or about nothing.
# For a rule, what must (not) be possible is what must (not) be done: read as "Users must not delete audit logs.",
# "You should not completely deactivate application logging."
_ABLE_TO = re.compile(r"\b(?P<modal>must|should|shall|will|need\s+to|needs\s+to|has\s+to|have\s+to"
                      r"|(?:must|should|wo)(?=n['’]t))(?:\s+(?P<neg>not\s+|never\s+)|(?P<nt>n['’]t\s+)|\s+)"
                      r"be\s+able\s+to\s+", re.IGNORECASE)
_POSSIBLE_TO = re.compile(r"^it\s+(?P<modal>must|should|shall|(?:must|should)(?=n['’]t))"
                          r"(?:\s+(?P<neg>not\s+|never\s+)|(?P<nt>n['’]t\s+)|\s+)be\s+possible\s+"
                          r"(?:for\s+(?P<who>(?!it\b)[^,;:]+?)\s+)?to\s+(?P<rest>\w.*)$", re.IGNORECASE | re.DOTALL)


def _able_to(main: str) -> str:
    """"shouldn't", "mustn't", "won't" as "should not", "must not", "will not"."""
    def neg(m) -> str:
        return (m.group("neg") or "").lower() or ("not " if m.group("nt") else "")
    if m := _POSSIBLE_TO.match(main):
        who = m.group("who") or "You"
        return f"{_upper_first(who)} {_full_modal(m.group('modal')).lower()} {neg(m)}{m.group('rest')}"
    return _ABLE_TO.sub(lambda m: f"{_full_modal(m.group('modal'))} {neg(m)}", main)


def _full_modal(modal: str) -> str:
    return "will" if modal.lower() == "wo" else modal


def _mark_condition(main: str) -> str:
    m = _UNMARKED_CONDITION.match(main)
    return main if m is None else f"{m.group('lead')}, {m.group('rest')}"


# the alternative a statement turns down ("… in Cloudflare rather than Route 53.", "… renew on a three year cycle
# instead of every two years"): not what it says, so not its value, theme or subject; up to the clause's end. Not
# where the phrase has a verb of its own: "Wanting to launch this week rather than next week is not an emergency"
# goes on with the sentence's own predicate
_ALTERNATIVE = re.compile(r",?\s+(?:rather\s+than|instead\s+of)\s+[^,;:.()]*?(?=\s*[,;:]|\.?\s*$)", re.IGNORECASE)
_FINITE_WORD = re.compile(r"\b(?:is|are|was|were|be|will|would|must|should|shall|can|could|may|might|does|do|did|has|have"
                          r"|had|qualifies|counts|means)(?:n['’]t)?\b", re.IGNORECASE)


# "Under no circumstances should gifts … be given to …", "At no time may you share your password.", "In no event shall
# the authors be liable …", "Never do we share …": a rule denied in every case, its auxiliary before its subject. Read as
# written, the case was the subject ("circumstance") and the rule lost its own subject, or its denial. Read in the
# usual order instead: "Gifts … must never be given to …". A modal said of no case at all is a must ("under no
# circumstances should" allows no exception, which is what "must not" says); after a bare "Never" the modal stays
_NO_CASE = re.compile(r"^(?:(?P<any>(?:under|in|on|at)\s+no\s+(?:circumstances?|cases?|events?|account|time|point|"
                      r"conditions?|way))|never)\s*,?\s+(?=\S)", re.IGNORECASE)
_INVERTED = re.compile(_NO_CASE.pattern + r"(?:should|may|must|shall|can|could|might|will|would|do|does|did|is|are|was|"
                       r"were|has|have)\b", re.IGNORECASE)
_MODALS_OF_NO_CASE = frozenset({"should", "may", "can", "could", "might", "must", "shall"})
_DO = frozenset({"do", "does", "did"})
_BE = frozenset({"is", "are", "was", "were"})


def _inverted_denial(doc) -> str | None:
    m = _NO_CASE.match(doc.text)
    if m is None:
        return None
    aux = next((t for t in doc if t.idx >= m.end()), None)
    if aux is None or aux.idx != m.end() or not (aux.tag_ == "MD" or aux.lower_ in _DO | _BE | {"has", "have"}):
        return None
    # the subject runs to the verb (or, after a form of "be", an adjective): "should [gifts or entertainment] be
    # given", "are [refunds] issued", "is [it] acceptable"; none found, or none before it, and the order is left
    # as written ("may contractors access production": the small model tags "contractors" a verb)
    ends = {"VB", "VBN", "VBG"} | ({"JJ"} if aux.lower_ in _BE else set())
    verb = next((t for t in doc[aux.i + 1:] if t.tag_ in ends), None)
    if verb is None or verb.i == aux.i + 1 or any(t.tag_ in ("MD", "VBZ", "VBP", "VBD") or t.is_punct
                                                   for t in doc[aux.i + 1:verb.i]):
        return None
    subject = doc[aux.i + 1:verb.i].text
    said = aux.lower_
    if m.group("any") and said in _MODALS_OF_NO_CASE:
        said = "must"
    said = f"{said} not" if said in _DO else f"{said} never"
    return f"{_upper_first(subject)} {said} {doc[verb.i:].text}"


# "Please" or "Kindly" before an order's verb: politeness, not a word of the rule
_POLITE = re.compile(r"^(?:please|kindly)\s*,?\s+(?=[a-z])", re.IGNORECASE)


# where one sentence of a claim ends and another begins: a full stop after a word, a number or a closing bracket and
# before a capital, not after an abbreviation ("e.g. Markdown", "i.e. UPPER_SNAKE_CASE", "vs. Rust", "No. 5", "U.S.")
_SENTENCE_END = re.compile(r"(?<![A-Z])(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bapprox)(?<!\bincl)(?<!\bNo)"
                           r"(?<!\bno)(?<!\bInc)(?<!\bLtd)(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bSt)(?<!\bcf)(?<!\bviz)"
                           r"(?<=[\w)\]\"'])\.\s+(?=[A-Z\"'(])")


def _one_sentence(text: str) -> str:
    """A claim of two or more sentences read as one with its sentences joined as clauses ("A backup counts as valid
    as soon as the job finishes. No restore drill is needed." as with ";"): read as two sentences, the subject was
    the first's and the modality the second's, so the claim contradicted itself written with a semicolon (24 of
    235 statements with one)."""
    body, end = text.rstrip()[:-1], text.rstrip()[-1:]
    return _SENTENCE_END.sub("; ", body) + end if "." in body else text


# an aside between two dashes ("The = operator — or no operator — allows only …", "a JSON object -- and not an array --
# as the top level", "word—aside—word"): spaced em or en dashes (an en dash not between numbers: "10:00 – 18:00" is a
# range), unspaced em dashes between words, and spaced double or single hyphens between words (not "--flag", "2 - 4",
# nor a command's "git checkout -- file", which has one)
_DASH = r"(?:\s+—\s+|(?<![\d\s])\s+–\s+(?!\d)|(?<=\w)—(?=\w)|(?<=[A-Za-z)])\s+--?\s+(?=[A-Za-z(]))"
_PAIRED_DASHES = re.compile(_DASH + r"(?P<aside>[^—–()]{1,200}?)" + _DASH.replace("(?=\\w)", "(?=[\\w,;:.])"))
# a last part after one dash ("Deploys are frozen on Fridays — no exceptions.", "Use Postgres — MySQL is not allowed.")
_FINAL_DASH = re.compile(r"(?:\s+—\s+|(?<![\d\s])\s+–\s+(?!\d))(?P<rest>[^—–()]{1,200}?)(?P<end>[.!?]?)$")


def _dash_asides(text: str) -> str:
    """Dashes read as the writer meant them: an aside between two as if in parentheses, and a last part after one as an
    aside where it has no verb of its own ("… — no exceptions.") or as a clause of its own where it has ("… — MySQL is
    not allowed." as with ";"). Why: read as words, the aside ran into the statement ("The = operator — or no operator —
    allows only one exact version" was a permission against "cannot be combined", a conflict with itself; an example
    after a dash, "— "Add feature" not "Added feature"", negated the rule): 23 of 137 statements whose parentheses
    were written as dashes changed their subject, 4 conflicted with themselves (``guard bench invariance``)."""
    if "—" not in text and "–" not in text and " -" not in text:
        return text
    text = _PAIRED_DASHES.sub(lambda m: f" ({m.group('aside').strip()})"
                              + (" " if m.end() < len(m.string) and m.string[m.end()].isalnum() else ""), text)
    m = _FINAL_DASH.search(text)
    if m is None:
        return text
    head, rest, end = text[:m.start()], m.group("rest").strip(), m.group("end")
    return f"{head}; {rest}{end}" if _FINITE_WORD.search(rest) else f"{head} ({rest}){end}"


# words that open a clause's subject or an order
_SUBJECT_OPENERS = frozenset({"the", "a", "an", "our", "your", "their", "its", "this", "these", "those", "all", "every",
                              "each", "no", "any", "some", "most", "we", "you", "they", "it", "only", "never", "always",
                              "do", "don't", "please"})
# a label of one to three words before a colon and a sentence of its own, capitalised (or a number or code first) and
# of four words or more ("Security: Pull requests …", "Team convention: Start enums at iota …", "Heads-up: 429 errors
# …"); not a setting's name ("MaxAuthTries:"), nor a value after it ("Retry-After: 30", "Owner: Platform team")
_SHORT_LABEL = re.compile(r"^(?P<label>[A-Za-z][A-Za-z&-]*(?:[ \t]+[A-Za-z][A-Za-z&-]*){0,2})[ \t]*:[ \t]+"
                          r"(?=[A-Z0-9`][^\s:]*(?:[ \t]+[^\s]+){3})")


def _advice_label(qualifier: str) -> bool:
    """A short label, kept with its colon, that says what follows is advice ("Tip:", "Platform recommendation:"); not a
    word in parentheses ("(21 LTS recommended)")."""
    words = qualifier.lower().split()
    return qualifier.endswith(":") and len(words) <= 3 and any(w.rstrip(":") in ADVICE_LABELS for w in words)


def _a_sentence(text: str, verbs: frozenset[str], only_verbs: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` reads as a sentence of its own, not a name for what the label names ("FIPS-mode password hashing:
    PBKDF2-HMAC-SHA256 with …"): a first word that opens a subject or an order ("The edge proxy …", "Book flights …",
    "Never …"), a finite verb the words show (an auxiliary or a modal: "Wildcard imports … are not used."; a word only a
    verb is, of ``only_verbs``: "Changes to core code require …"), or an opening phrase and its comma before such a
    sentence ("After the canary, traffic moves …", "On a 404 from a webhook, retry …")."""
    first = text.split(maxsplit=1)[0].lower() if text.strip() else ""
    if first in _SUBJECT_OPENERS or first.isalpha() and not first.endswith("s") and first in verbs \
            or _FINITE_WORD.search(text) is not None:
        return True
    if any(_verb_form(w.lower(), only_verbs) for w in re.findall(r"(?<![\w.-])[A-Za-z]+(?![\w.-])", text)[1:]):
        return True
    opening = _OPENING_AND_COMMA.match(text)
    return opening is not None and _a_sentence(text[opening.end():], verbs, only_verbs)


# an opening phrase or clause and its comma, within its first twelve words ("From 8.4 on, …", "Starting January 1st
# 2026, …")
_OPENING_AND_COMMA = re.compile(r"^(?:in|on|during|for|after|before|within|under|at|outside|inside|without|across|over|"
                                r"from|since|starting|as of|beyond|except|per|throughout|upon|following|by default|"
                                r"if|when|unless|once|whenever|while|where|because|although)\b(?:[ \t]+[^\s,;:]+){0,11}"
                                r",[ \t]+", re.IGNORECASE)


def _verb_form(word: str, only_verbs: frozenset[str]) -> bool:
    """A word that is one of ``only_verbs`` (base forms listed as verbs and never as nouns), as written or as a third
    person's ("requires", "applies") or a past tense ("expired") — not "-ing", which names things as often."""
    if word in only_verbs:
        return True
    for cut, add in (("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""), ("ed", "e"), ("d", "")):
        if word.endswith(cut) and len(word) > len(cut) + 2 and word[:-len(cut)] + add in only_verbs:
            return True
    return False


def _polite_order(text: str) -> str:
    """"Please disable remote root logins over SSH." is the order "Disable remote root logins over SSH.": read with
    "Please" first, the order's verb was the subject's first word and the prohibition an obligation."""
    m = _POLITE.match(text)
    return text if m is None else _upper_first(text[m.end():])


def split_main_clause(text: str) -> tuple[str, tuple[str, ...]]:
    """(main clause, qualifiers). Falls back to the whole text where cutting would leave too little."""
    quals: list[str] = []
    main = _mark_condition(text.strip())

    def cut(new: str, removed: str) -> None:
        nonlocal main
        if len(new.split()) >= 3:
            quals.append(removed.strip(" ,;"))
            main = new.strip()

    for m in list(_PAREN.finditer(main))[::-1]:
        cut(main[:m.start()] + main[m.end():], m.group(0).strip()[1:-1])
    for _ in range(2):
        for pat in (_LEAD_WRAPPER, _LEAD_ADVERB, _LEAD_PHRASE, _LEAD_CLAUSE, _LEAD_SPAN, _LEAD_PARTICIPLE):
            if _INVERTED.match(main):       # "Under no circumstances should you …": the rule's own words
                break
            m = pat.match(main)
            if m and pat is _LEAD_CLAUSE and (rel := _LEAD_RELATIVE.match(main[m.end():])) is not None:
                # "During the annual code freeze, which runs from December 15 to January 5, only security fixes may be
                # deployed …": the relative clause is the leading phrase's aside; read as a trailing clause, it took
                # the rule with it and left "During the annual code freeze." as the statement
                cut(_sentence_start(main[m.end() + rel.end():]), m.group(0) + rel.group(0))
                continue
            # a leading clause that ends where a trailing one begins had no comma of its own, unless what
            # follows is a second leading clause with its comma ("If …, so that …, you do not need to …")
            if m and not (pat is _LEAD_CLAUSE and _TRAIL_START.match(main[m.end():])
                          and not _LEAD_CLAUSE.match(main[m.end():])) \
                    and not (pat is _LEAD_CLAUSE and _PLACE_RUNS_ON.match(m.group(0))):
                cut(_sentence_start(main[m.end():]), m.group(0))
                # a condition with no comma of its own after the phrase ("Going forward, once soft-delete is enabled
                # it cannot be …"), marked as at the start
                main = _mark_condition(main)
                if (cases := _LEAD_CASES.match(main)) is not None:
                    # "If time off is taken for sickness, including physical and mental needs, please enter …": what
                    # the leading phrase takes in is the phrase's too (its subject was "physical")
                    cut(_sentence_start(main[cases.end():]), cases.group(0))
                if pat is _LEAD_CLAUSE and _CONDITION.match(m.group(0)) and (more := _MORE_CONDITION.match(main)):
                    # "When your trip leaves in under three days, or your travel card hasn't arrived, book by phone
                    # …": the condition's second case, after its comma, is the condition's too
                    cut(_sentence_start(main[more.end():]), more.group(0))
    m = _ASIDE_BEFORE_THE_VERB.search(main)
    if m and m.start() > 0:
        cut(main[:m.start()] + main[m.end() - 1:], m.group(0).strip(" ,"))
    m = _TRAIL.search(main)
    if m and m.start() > 0:
        cut(main[:m.start()].rstrip(" ,") + ".", m.group(0))
    for pattern in (_WITH_PARTICIPLE, _LEAVING_OUT):
        if (m := pattern.search(main)) is not None and m.start() > 0:
            cut(main[:m.start()].rstrip(" ,") + ".", m.group(0).rstrip(" ."))
    for m in list(_ALTERNATIVE.finditer(main))[::-1]:
        if m.start() > 0 and not _FINITE_WORD.search(m.group(0)):
            cut(main[:m.start()] + main[m.end():], m.group(0))
    said = _existential_limit(_extraposed_rule(_takes_time(_how_often_last(_setting_in_code(_able_to(_denied_statement(main)))))))
    said = _default_of(_approval_for(_asked_of(_felt_free(_existential_obligation(said)))))
    return _ONE_NOUN.sub("-", said), tuple(q for q in quals if q)


# "Set `sslmode=require` for every connection.", "Set `imagePullPolicy: IfNotPresent` on every deployment.", "Set
# `max_connections` to 200.": an order to configure a setting, its name (and value) in code. The small model parsed
# "Set `sslmode" as a subject and "require" as the verb, and "`imagePullPolicy` to" gave the subject "to"; the name
# was a literal value, so the rule had no subject. Read as the same order said with the name bare and the value in
# code ("Set sslmode to `require` …"), which the normalizer reads as the setting, valued require. Only after a verb
# that sets; a value alone ("Set the mode to `strict`") is untouched
_SETTING_VERBS = r"(?:set|change|configure|keep|leave|raise|lower|increase|decrease|reduce|limit|cap|pin)"
_SETTING_IN_CODE = re.compile(
    r"^(?P<verb>(?:(?:always|never|please|do\s+not|don't)\s+)?" + _SETTING_VERBS + r")\s+`(?P<name>" + CODE_NAME
    + r")(?:(?:\s*[=:]\s*|\s+(?=(?:yes|no|on|off|true|false)`))(?P<value>[^`]+?)`|`(?=\s+(?:to|at)\s))",
    re.IGNORECASE)


def _setting_in_code(main: str) -> str:
    m = _SETTING_IN_CODE.match(main)
    if m is None:
        return main
    said = f"{m.group('verb')} {m.group('name')}" + (f" to `{m.group('value').strip()}`" if m.group("value") else "")
    return said + main[m.end():]


def _sentence_start(rest: str) -> str:
    """What is left after a leading phrase is cut starts upper-case again, but an identifier keeps its spelling
    ("On the NAT gateways, ip_local_port_range is …" must not become "Ip_local_port_range")."""
    return _upper_first(rest) if re.fullmatch(r"[a-z]+[,;:]?", rest.split(" ", 1)[0]) else rest


# "Every quarter, each squad must rotate one person onto the support queue.": how often is the rule's value, but
# read first it was the subject ("quarter"). Said after the rule, as "… every quarter", it is both read right
_LEAD_FREQUENCY = re.compile(r"^(?P<f>every\s+(?:\w+\s+)?(?:second|minute|hour|day|week|fortnight|month|quarter|year|"
                             r"sprint|release)s?(?:\s+(?:between|after|before|during|of)\s+[^,]{1,60})?),\s*(?P<rest>.+)$",
                             re.IGNORECASE | re.DOTALL)


# "It is not permitted to directly test Auth0 infrastructure.", "It is mandatory to enable MFA.", "It is never
# acceptable for the login page to be reachable without TLS.": a rule said with the extraposed "it", which left
# the statement without a subject (the rule's thing sat in the infinitive) and the adjective's modality unread.
# Read as it is said with the one it binds ("You must not directly test …", "The login page must not be
# reachable …"), so it meets "Testing Auth0 infrastructure directly is allowed." and "The login page may be
# served over plain HTTP.". Only adjectives that state a rule; "It is possible to …" (what can be done) and "It
# is hard to …" are left as written
_EXTRAPOSED_MODAL = {
    **dict.fromkeys(("permitted", "allowed", "acceptable", "ok", "okay", "fine"), ("may", "must not")),
    **dict.fromkeys(("forbidden", "prohibited", "unacceptable", "disallowed"), ("must not", "may")),
    **dict.fromkeys(("required", "mandatory", "compulsory", "obligatory", "necessary", "essential"), ("must", None)),
    **dict.fromkeys(("recommended", "advisable", "advised", "encouraged", "preferred", "important", "best practice",
                     "a best practice", "good practice", "a good practice", "a good idea"), ("should", "should not")),
    **dict.fromkeys(("discouraged", "inadvisable", "a bad idea"), ("should not", "should")),
}
_EXTRAPOSED = re.compile(
    r"^it(?:'s|\s+is|(?=\s+isn't))\s+(?P<neg>not\s+|never\s+|isn't\s+)?(?:(?:always|generally|usually|strongly|highly|also|absolutely|"
    r"strictly|considered)\s+)?(?P<adj>" + "|".join(sorted(map(re.escape, _EXTRAPOSED_MODAL), key=len, reverse=True))
    + r")\s+(?:for\s+(?P<who>(?!it\b)[^,;:]+?)\s+)?to\s+(?P<rest>\w.*)$", re.IGNORECASE | re.DOTALL)


def _extraposed_rule(main: str) -> str:
    m = _EXTRAPOSED.match(main)
    if m is None:
        return main
    positive, negated = _EXTRAPOSED_MODAL[m.group("adj").lower()]
    who = m.group("who") or "You"
    who = _upper_first(who)
    modal = negated if m.group("neg") else positive          # "never acceptable" is "not acceptable" always
    if modal is None:                  # "It is not required to …": a lifted obligation, as "… are not required to"
        be = "are" if who == "You" or _plural(who.split()[-1]) else "is"
        return f"{who} {be} not required to {m.group('rest')}"
    return f"{who} {modal} {m.group('rest')}"


# "It takes up to three weeks for a refund to be processed.", "It usually takes 2 days for new accounts to be approved.":
# how long a thing takes, said with the extraposed "it" — read so, the statement's subject was that "it" (vague), and
# "Refunds are processed within 5 business days." had nothing to meet. Read as "A refund takes up to three weeks to be
# processed.", which gives the thing its span
_TAKES_TIME = re.compile(
    r"^it\s+(?P<aux>(?:(?:usually|typically|normally|generally|often|sometimes|currently|can|may|might|will|could|should|"
    r"would)\s+)*)(?P<verb>takes|take)\s+(?P<span>[^,;:]{1,60}?)\s+for\s+(?P<who>(?!it\b|you\b|us\b|them\b|me\b)[^,;:]{1,80}?)\s+"
    r"to\s+(?P<rest>\w.*)$", re.IGNORECASE | re.DOTALL)


def _takes_time(main: str) -> str:
    m = _TAKES_TIME.match(main)
    if m is None:
        return main
    who, aux = m.group("who"), m.group("aux")
    modal = any(w.lower() in ("can", "may", "might", "will", "could", "should", "would") for w in aux.split())
    verb = "take" if modal or _plural(who.split()[-1]) else "takes"
    return f"{_upper_first(who)} {aux}{verb} {m.group('span')} to {m.group('rest')}"


def _how_often_last(main: str) -> str:
    m = _LEAD_FREQUENCY.match(main)
    if m is None:
        return main
    rest = m.group("rest").rstrip()
    end = rest[-1] if rest[-1] in ".!" else ""
    rest = rest[:-1] if end else rest
    if len(rest.split()) < 3:
        return main
    return f"{_sentence_start(rest)}, {m.group('f')[:1].lower()}{m.group('f')[1:]}{end}"


# two words the small model splits, joined into one noun with a hyphen (the same length, so every character offset
# stays): "time off" ("all time off must be pre-approved", "12 weeks of paid time off": it read "off" as a particle,
# so the subject was "time" and "paid time"; written as "time-off awards" already is), "pull request" and "merge
# request" ("Pull requests to main require …": a sentence-initial "Pull" read as an order's verb and the sentence's
# verb as a noun, so the subject was "request"; their lemma has its space back, ``_fixed_lemmas``)
_ONE_NOUN = re.compile(r"(?i:(?<=\btime) (?=off\b))|(?<=\b[Pp]ull) (?=requests?\b)|(?<=\b[Mm]erge) (?=requests?\b)")


# "There is no rate limit on the internal API." says what the internal API has: read with the
# existential "there" the statement had no subject, and the limit it denies had nothing to belong to.
# Only a denied limit on a named thing (not "no limit to how much time off you can take"); "no limit on
# the number of projects" stays about their number ("Each project holds at most 50 members" is no cap on it).
# A limit stated so is the same reading: "There is a 240 hour limit on the number of hours … you can carry over"
_EXISTENTIAL_LIMIT = re.compile(
    r"^there(?:'s|\s+is|\s+are)\s+(?P<x>(?:no|an?)\s+(?:[\w-]+\s+){0,3}?(?:limit|cap|maximum|quota|ceiling|restriction)s?)"
    r"\s+(?:on|to|for|of(?=\s+the\s+(?:amount|number|size|length|count|quantity|duration)\s+of\b))\s+"
    r"(?!how\b|what\b|whether\b|when\b|who\b)(?P<y>[^,;.]+?)(?P<rest>[,;.].*|$)", re.IGNORECASE)
# "For FIFO queues, there can be a maximum of 20,000 inflight messages in a queue.", "There can only be a maximum of
# 20 people who have the entitlement": the limit said with the existential "there", of the things counted. Read as
# "Inflight messages in a queue have a maximum of 20,000." says it (it had no subject, and "can" made it a may)
_EXISTENTIAL_COUNT = re.compile(
    r"^there\s+(?:can|may|could|will|shall)\s+(?:only\s+)?be\s+(?:only\s+)?(?:a\s+)?(?P<x>maximum|minimum|max|min)\s+of\s+"
    r"(?P<n>\d[\d,.]*|" + one_of(WORD_NUMBERS) + r")\s+"
    r"(?P<y>[^,;.]+?)(?P<rest>[,;.].*|$)", re.IGNORECASE)


# "There is no obligation to attend in-person meetings.", "There is no minimum tenure required to be
# eligible …": a lifted obligation said with the existential "there", which left the statement without a
# subject, so it never met "Staff must attend in-person meetings." Read as "You are not required to attend …"
# and "A minimum tenure is not required …", as written that way
_NO_OBLIGATION = re.compile(r"^there(?:'s|\s+is|\s+are)\s+(?:currently\s+|presently\s+)?no\s+(?:[\w-]+\s+)?"
                            r"(?:obligation|requirement|need)\s+to\s+(?P<rest>[a-z].*)$", re.IGNORECASE)
_NOTHING_REQUIRED = re.compile(r"^there(?:'s|\s+is|\s+are)\s+no\s+(?P<x>(?:[\w-]+\s+){0,3}?[\w-]+)\s+"
                               r"(?P<req>required|needed|necessary)\b(?P<rest>.*)$", re.IGNORECASE)


# "You will need supervisor approval before working extra hours.", "Get People Ops approval for software … that would
# cost more than $500 per year.", "You do not need to get approval for time off from your manager": a rule about what
# needs the approval, said as the person's errand. Read as written, the approval was the subject ("people ops
# approval"), so "Software subscriptions under $1,000 a year don't need anyone's approval." had nothing in common
# with it. Read as "Working extra hours requires supervisor approval.", "Software … requires People Ops approval." —
# as "Time off requires approval from your manager." already reads. Only the person asked (you, we, staff, …) or an
# order; a rule for a group named otherwise keeps its group ("Meetup Champions only need … sign-off …")
_APPROVAL_FOR = re.compile(
    r"^(?:(?:you|we|they|staff|employees|everyone|engineers|teammates)\s+(?:will\s+)?(?P<neg>(?:do|does|will)\s+not\s+|"
    r"don't\s+|doesn't\s+|won't\s+)?(?:need|have)\s+(?:to\s+(?:get|obtain|seek)\s+)?|(?:get|obtain|seek|require|enforce)\s+)"
    r"(?P<whose>(?:(?!for\b|before\b)[\w&'’.-]+\s+){0,3}?)(?P<kind>approval|sign-off|permission|authori[sz]ation|consent)\s+"
    r"(?P<prep>for|before)\s+(?=[a-z])", re.IGNORECASE)
# who gives the approval, said after the thing ("… for time off from your manager")
_APPROVAL_SOURCE = re.compile(r"\s+from\s+(?:your|the|a|an|their|our)\s+[\w -]+$", re.IGNORECASE)


# the same rule said of the approval ("Code owner approval is not required for pull requests to `main`.", "At least two
# approvals are required before merging."): read alike, as what needs it
_APPROVAL_REQUIRED = re.compile(
    r"^(?P<whose>(?:[\w&'’.-]+\s+){0,4}?)(?P<kind>approvals?|sign-offs?|permission|authori[sz]ation|consent)\s+"
    r"(?:is\s+|are\s+|(?P<neg>(?:is|are)\s+not\s+|isn't\s+|aren't\s+))(?:required|needed|necessary|mandatory)\s+"
    r"(?P<prep>for|before)\s+(?=[a-z])", re.IGNORECASE)
_HEAD_ENDS = re.compile(r"\s(?:to|for|that|which|who|in|on|of|with|from|at|under|over|above|below|than)\b")


def _approval_for(main: str) -> str:
    first, sep, rest = main.partition(";")
    first = first.strip()
    m = _APPROVAL_FOR.match(first) or _APPROVAL_REQUIRED.match(first)
    if m is None or ":" in first[m.end():]:
        return main
    what, end = first[m.end():].rstrip(), ""
    if what[-1:] in ".!":
        what, end = what[:-1].rstrip(), what[-1]
    source = ""
    if (f := what.lower().rfind(" from ")) >= 0 and _APPROVAL_SOURCE.fullmatch(what[f:]):
        what, source = what[:f], what[f:]
    if len(what.split()) < 2:
        return main          # "… before merging": a gerund alone reads as no subject at all
    head = _HEAD_ENDS.split(what, 1)[0].split()
    plural = _plural(head[-1]) and not head[0].lower().endswith("ing")
    verb = ("do not require" if plural else "does not require") if m.group("neg") else ("require" if plural else "requires")
    whose = m.group("whose") or ""
    whose = whose[:1].lower() + whose[1:] if whose[:1].isupper() and not whose.split()[0].isupper() \
        and m.re is _APPROVAL_REQUIRED else whose
    said = f"{_upper_first(what)} {verb} {whose}{m.group('kind')}{source}"
    return f"{said}{sep}{rest}" if sep else f"{said}{end or '.'}"


# "The default for AllowOverride is None …": what a setting defaults to, said of the default; read so, the subject was
# "default" (the setting lost). Read as "AllowOverride defaults to None …", as the setting's own statement. Not "the
# default value of X is …", which already reads as X's value (its state "be", as "MySQL ships with X set to 100" is
# compared with; "defaults to" would make it a second action)
_DEFAULT_OF = re.compile(r"^the\s+default(?:\s+value|\s+setting)?\s+for\s+(?:the\s+)?(?P<x>[^\s,;]+(?:\s+(?:setting|"
                         r"parameter|option|directive|flag))?)\s+is\s+(?P<rest>.+)$", re.IGNORECASE)


def _default_of(main: str) -> str:
    m = _DEFAULT_OF.match(main)
    return f"{m.group('x')} defaults to {m.group('rest')}" if m else main


# "Feel free to open a PR …", "Maintainers should feel free to push …": a permission, said as one
_FEEL_FREE = re.compile(r"^(?P<who>.*?)\b(?:(?:should|can|may)\s+)?feel\s+free\s+to\s+", re.IGNORECASE)


def _felt_free(main: str) -> str:
    if m := _FEEL_FREE.match(main):
        who = m.group("who").strip()
        return f"{who + ' may' if who else 'You may'} {main[m.end():]}"
    return main


# "There is no expectation that people will be responsive …", "… no expectation from them to respond …": what
# nobody expects of them, as "People are not expected to be responsive …" says it
_NO_EXPECTATION = re.compile(r"^there(?:'s|\s+is|\s+are)\s+no\s+expectation\s+(?:that\s+(?P<who>[^,;]+?)\s+(?:will|would|should|must)"
                             r"|(?:from|of|on)\s+(?P<whom>[^,;]+?)\s+to)\s+(?P<rest>[a-z].*)$", re.IGNORECASE)
_OBJECT_PRONOUNS = {"them": "they", "him": "he", "her": "she", "us": "we", "me": "I", "you": "you"}


def _existential_obligation(main: str) -> str:
    if m := _NO_EXPECTATION.match(main):
        who = m.group("who") or _OBJECT_PRONOUNS.get(m.group("whom").lower(), m.group("whom"))
        be = "is" if who.lower() in ("he", "she", "it") else "am" if who == "I" else "are"
        return f"{_upper_first(who)} {be} not expected to {m.group('rest')}"
    if m := _NO_OBLIGATION.match(main):
        return f"You are not required to {m.group('rest')}"
    if m := _NOTHING_REQUIRED.match(main):
        return f"A {m.group('x')} is not {m.group('req').lower()}{m.group('rest')}"
    return main


def _plural(head: str) -> bool:
    """A noun that ends in one "s" ("streams", not "access"): the verb it takes is a plural's."""
    return re.search(r"[^s]s$", head.lower()) is not None


def _existential_limit(main: str) -> str:
    if m := _EXISTENTIAL_COUNT.match(main):
        return _having(m.group("y"), f"a {m.group('x').lower()} of {m.group('n')}{m.group('rest')}")
    m = _EXISTENTIAL_LIMIT.match(main)
    if m is None:
        return main
    return _having(m.group("y"), f"{m.group('x')}{m.group('rest')}")


def _having(owner: str, what: str) -> str:
    """"<Owner> has|have <what>", the verb agreeing with the owner's head noun ("the number of projects": number)."""
    owner = owner.strip()
    head = re.split(r"\s+(?:per|that|which|who|in|on|of|for|to|beyond|with|across)\s+", owner, maxsplit=1)[0].split()[-1]
    return f"{_upper_first(owner)} {'have' if _plural(head) else 'has'} {what}"


# "We expect new teammates to spend up to $2,000 …", "We encourage team members to take at least 12 days
# …": what the speaker asks of someone is that person's rule, as "New teammates must spend …" says it.
# Read as written, the speaker's verb and its object became the subject ("expect teammate", "contractor
# use company laptop"), so the two wordings of one rule had different subjects. Only "we" speaking, an
# object of at most five words, and no negation ("we don't expect you to …" lifts an obligation)
_ASKED_OF = re.compile(
    r"^we(?:\s+will|'ll)?\s+(?:(?:also|strongly|generally|usually|really|kindly)\s+)?(?P<verb>expect|require|ask|encourage|"
    r"recommend|advise|"
    r"urge|allow|permit)\s+(?P<who>(?!to\b|it\b|that\b|this\b)(?:[\w'-]+\s+){0,4}?[\w'-]+)\s+to\s+(?P<rest>(?!be\b)\w.*)$",
    re.IGNORECASE)
_ASKED_MODAL = {"expect": "must", "require": "must", "ask": "must", "encourage": "should", "recommend": "should",
                "advise": "should", "urge": "should", "allow": "may", "permit": "may"}


# "During the launch year we discourage anyone on the Cody team from taking more than 20 days of PTO.", "We forbid
# contractors from merging to main.": asked of someone not to, said with "from" and a gerund; read whole it had no
# subject, and its bound turned round ("more than 20 days" became a floor). Read as "Anyone on the Cody team should
# not be taking more than 20 days of PTO."
_KEPT_FROM = re.compile(
    r"^we\s+(?:(?:also|strongly|generally|usually|really)\s+)?(?P<verb>discourage|forbid|prohibit|bar|prevent)\s+"
    r"(?P<who>(?!it\b|that\b|this\b)(?:[\w'-]+\s+){0,5}?[\w'-]+)\s+from\s+(?P<rest>\w+ing\b.*)$", re.IGNORECASE)
_KEPT_MODAL = {"discourage": "should", "forbid": "must", "prohibit": "must", "bar": "must", "prevent": "must"}


# "Verifiers SHALL require subscriber-chosen memorized secrets to be at least 8 characters in length.", "ng update
# requires the version you update from to be within one major version …": what something requires a thing to be is
# that thing's rule, as "Subscriber-chosen memorized secrets must be at least 8 characters" says it (read whole, the
# subject was "verifier"). Not negated: "SHOULD NOT require memorized secrets to be changed" lifts an obligation,
# which "should not be changed" would turn into a prohibition
_REQUIRED_TO_BE = re.compile(
    r"^(?P<by>(?:[\w.'’-]+\s+){1,4}?)(?:(?P<modal>must|shall|should|will)\s+)?(?:require|requires|force|forces)\s+"
    r"(?P<what>(?!(?:you|us|them|him|her|me|it)\s)(?:[\w'’-]+\s+){0,6}?[\w'’-]+)\s+to\s+be\s+(?P<rest>\w.*)$", re.IGNORECASE)


def _required_to_be(main: str) -> str:
    m = _REQUIRED_TO_BE.match(main)
    if m is None or re.search(r"\b(?:not|never|no)\b|n't\b", m.group("by"), re.IGNORECASE):
        return main
    modal = "should" if (m.group("modal") or "").lower() == "should" else "must"
    return f"{_upper_first(m.group('what'))} {modal} be {m.group('rest')}"


def _asked_of(main: str) -> str:
    main = _required_to_be(main)
    if k := _KEPT_FROM.match(main):
        who = k.group("who")
        return f"{_upper_first(who)} {_KEPT_MODAL[k.group('verb').lower()]} not be {k.group('rest')}"
    m = _ASKED_OF.match(main)
    if m is None:
        return main
    who = m.group("who")
    return f"{_upper_first(who)} {_ASKED_MODAL[m.group('verb').lower()]} {m.group('rest')}"


# Variants of one offering that a text restricts itself to ("on the Free plan", "Pro-tier customers",
# "in the EU region"). Two texts that name only different variants of one kind are about different
# things, as two environments are: per-plan limits and per-region settings are the usual siblings of a
# claim store, and read as one subject they were value conflicts ("Customers on the Basic tier get 10
# GB" / "… on the Premium tier get 100 GB": HIGH). A name must look like a variant's: capitalised (not
# merely as the sentence's first word), one of the usual plan words, or a region code; the generic
# words ("same", "default", "paid", "all") name none, so "paid plans" / "the Pro plan" stay comparable.
_VARIANT_KINDS = {"plan": "plan", "plans": "plan", "tier": "tier", "tiers": "tier", "edition": "edition",
                  "editions": "edition", "sku": "sku", "skus": "sku", "region": "region", "regions": "region"}
_PLAN_WORDS = frozenset({"free", "basic", "standard", "premium", "pro", "plus", "enterprise", "business", "team",
                         "starter", "hobby", "developer", "professional", "ultimate", "essential", "essentials",
                         "growth", "scale", "startup", "personal", "individual"})
_NOT_NAMES = frozenset({"the", "a", "an", "our", "your", "their", "its", "this", "that", "these", "those", "same",
                        "current", "default", "new", "old", "existing", "any", "every", "each", "all", "both",
                        "other", "paid", "higher", "lower", "upper", "top", "bottom", "cheaper", "cheapest",
                        "lowest", "highest", "selected", "chosen", "given", "relevant", "respective", "specific",
                        "following", "above", "below", "entire", "whole", "one", "multiple", "several", "single",
                        "various", "different", "another", "customer's", "user's", "my"})
_NAME = r"[A-Za-z][A-Za-z0-9+.]*(?:-[A-Za-z0-9]+)*"
# every separator holds a character of its own (",", "/", "&", "and", "or"): with an empty one a run
# of words splits into names in exponentially many ways, and the regex backtracks for minutes
_LIST_SEP = r"(?:\s*[,/&]\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)"
_VARIANT_RE = re.compile(r"(?<![\w-])(?P<names>" + _NAME + r"(?:" + _LIST_SEP + _NAME + r")*)"
                         r"(?:\s+|-)(?P<kind>" + "|".join(_VARIANT_KINDS) + r")\b", re.IGNORECASE)
_REGION_CODE = re.compile(r"[a-z]{2,}(?:-[a-z]+)+-?\d*|[A-Z]{2,4}")


def _variant_name(word: str, at_start: bool, kind: str) -> str | None:
    low = word.lower()
    if low in _NOT_NAMES:
        return None
    if low in _PLAN_WORDS and kind != "region":
        return low
    if kind == "region":
        return low if _REGION_CODE.fullmatch(word) else None
    capitalised = word[:1].isupper() and (not at_start or word.isupper())
    return low if capitalised else None


# a plan said through who holds it, written as its name ("Enterprise customers", "Free users")
_PLAN_HOLDERS = re.compile(r"(?<![\w-])(?P<plan>" + "|".join(sorted(w.capitalize() for w in _PLAN_WORDS)) +
                           r")\s+(?:customers?|users?|accounts?|orgs?|organi[sz]ations?|tenants?|workspaces?|subscribers?)\b")


def named_variants(text: str) -> tuple[tuple[str, str], ...]:
    """(kind, name) of each variant the text names: ``(("plan", "pro"), ("plan", "enterprise"))`` for
    "… on the Pro and Enterprise plans"."""
    found: dict[tuple[str, str], None] = {}
    lead = len(text) - len(text.lstrip(" \"'(["))
    for m in _VARIANT_RE.finditer(text):
        kind = _VARIANT_KINDS[m.group("kind").lower()]
        words = [(w.group(0), m.start("names") + w.start()) for w in re.finditer(_NAME, m.group("names"))]
        words = [(w, i) for w, i in words if w.lower() not in ("and", "or")]
        if words and words[-1][0].lower() in _NOT_NAMES:
            # "paid plans", "all tiers", "the default region": a class that may hold any named one,
            # so this text is comparable with every variant of the kind
            found[(kind, ANY_VARIANT)] = None
            continue
        names = [_variant_name(w, i == lead, kind) for w, i in words]
        # every word of a list must be a name ("the Pro and Enterprise plans"); the last alone otherwise
        # ("… for Vercel Pro plan users": "Pro")
        if names and all(names):
            keep = names
        else:
            keep = [names[-1]] if names and names[-1] else []
        for n in keep:
            found[(kind, n)] = None
    for m in _PLAN_HOLDERS.finditer(text):
        # "Support tickets from Enterprise customers …" / "… from Free customers …": the plan said through who holds
        # it, written as its name (capitalised); "free users" in lower case is no plan's name
        found[("plan", m.group("plan").lower())] = None
    return tuple(found)



# a product's version as a variant of it ("Python 3.11", "Ubuntu 22.04", "API v2"): a proper noun or
# "API" then a dotted or v-numbered version. Whole numbers alone ("Node 18") are numbered names already.
_VERSION_VARIANT = re.compile(r"(?<![\w.-])(?P<product>[A-Z][A-Za-z0-9+#]*|api)\s+(?P<ver>v\d+(?:\.\d+){0,2}|\d+\.\d+(?:\.\d+)?)"
                              r"(?![\w%]|\.\d)", re.IGNORECASE)


def version_variants(text: str) -> tuple[tuple[str, str], ...]:
    """("<product> version", version) of each product version the text names: ``(("python version", "3.11"),)``."""
    found = []
    for m in _VERSION_VARIANT.finditer(text):
        product = m.group("product")
        if product.lower() in _NOT_NAMES or product.lower() != "api" and not product[:1].isupper():
            continue
        found.append((f"{product.lower()} version", m.group("ver").lower().lstrip("v")))
    return tuple(dict.fromkeys(found))


def restricting_variants(variants: tuple[tuple[str, str], ...], norm: Norm) -> tuple[tuple[str, str], ...]:
    """The variants that restrict what a statement is about, not what it says. A variant in the
    statement's value is what is said of the subject ("Backups are stored in the eu-west-1 region",
    "Our recommended plan is the Pro plan"), and so is one in the complement of an action ("New
    customers must start on the Free plan": "… on the Pro plan" contradicts it); in the complement
    of a state it is where the state holds ("Audit logs are not available on the Free plan")."""
    said = set(re.findall(r"[\w.+-]+", (norm.value or "").lower()))
    if norm.object is not StateVerb.BE:
        said |= set(re.findall(r"[\w.+-]+", (norm.theme or "").lower()))
    said |= {w.lstrip("v") for w in said}
    return tuple((k, n) for k, n in variants if n == ANY_VARIANT or n not in said)


def text_variants(text: str, norm: Norm) -> tuple[tuple[str, str], ...]:
    """``Norm.variants`` of a statement: the offering variants and product versions it names that
    restrict what it is about. One function for every normalizer, so they read variants alike."""
    return restricting_variants(named_variants(text) + version_variants(text) + lead_phrase_variants(text, norm.qualifiers)
                                + numbered_variants(text, norm.subject), norm)


# "… only in staging" says something of every other environment too: no scope of the text's own
_ONLY_BEFORE = re.compile(r"\b(?:only|exclusively|solely)\s*$", re.IGNORECASE)


def text_scope(text: str, main: str | None = None) -> Scope | None:
    """``main``: the main clause, whose subject may name the environment where the text's first words
    are a heading, a wrapper or a leading clause ("Heads-up: the staging cluster runs 3 nodes.")."""
    found = list(_ENV_RE.finditer(text))
    if any(_ONLY_BEFORE.search(text[:m.start()]) for m in found):
        return None
    envs = {ENV_NAMES[m.group(1).lower()] for m in found}
    if m := _ENV_SUBJECT.match(text) or (_ENV_SUBJECT.match(main) if main is not None else None):
        envs.add(ENV_NAMES[m.group(1).lower()])
    return Scope(env=envs.pop()) if len(envs) == 1 else None


# a heading before a colon that names what kind of note follows ("Heads-up for the queue module:", "FYI:",
# "Ops guideline:"), not the rule itself: a label without a finite verb, before a clause with one.
# Not a label: one that states a rule ("No fixup commits:", "Strict equality only:"), a setting's name
# ("LoginGraceTime:", "`imagePullPolicy: …`") or a value after it ("Retry-After: 30").
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD", "VB"})
_RULE_WORDS = frozenset({"no", "never", "always", "only", "not", "don't", "do", "must", "should", "avoid", "prefer"})
# words that open a label as nouns, which the small model tags as imperatives ("Note for on-call:", "Update:")
_LABEL_NOUNS = frozenset({"note", "update", "warning", "notice", "caution", "reminder"})


def _no_verb_word(t) -> bool:
    """A label's first word the small model tags a verb that no verb list knows, before a noun ("Frontend platform
    guidance: …"); not an order's verb before its preposition ("Aim for high coverage: …")."""
    nxt = t.nbor(1) if t.i + 1 < len(t.doc) else None
    return t.tag_ == "VB" and not _a_known_verb(t) and t.lower_ not in IMPERATIVE_PREFIXES \
        and nxt is not None and nxt.tag_ in ("NN", "NNS", "NNP", "NNPS")


def heading_label(doc) -> int | None:
    """Index of the colon that ends a heading label, or None."""
    colon = next((t.i for t in doc[:12] if t.text == ":"), None)
    if colon is None or colon == 0 or colon + 3 >= len(doc):
        return None
    label, rest = doc[:colon], doc[colon + 1:]
    if any(t.tag_ in _FINITE and not (t.i == 0 and (t.lower_ in _LABEL_NOUNS or _no_verb_word(t))) or t.lower_ in _RULE_WORDS
           or _IDENT.search(t.text) or "`" in t.text or re.search(r"[a-z][A-Z]", t.text) for t in label):
        return None
    first = rest[0]
    finite = any(t.tag_ in _FINITE or t.lower_ == "defaults" and t.nbor(1).lower_ == "to" for t in rest[:-1])
    # a rule said without a verb after the label ("Note: No root containers.")
    verbless_rule = first.lower_ in ("no", "never", "always", "only") and len(rest) >= 3
    # a number opening what follows is a value ("Retry-After: 30"), a word that only looks like one is not
    # ("Note: Third-party JavaScript must …": "Third" is like a number to the tokenizer)
    if first.like_num and not first.is_alpha or re.search(r"[/=`]", rest.text.split()[0]) \
            or not (finite or verbless_rule):
        return None
    return colon


def _advisory(qualifier: str) -> bool:
    """Whether a cut-off wrapper says that what it wraps is advice ("It is recommended that")."""
    m = _LEAD_WRAPPER.match(qualifier + " ")
    return m is not None and ((m.group("how") or "").lower() in _ADVISORY
                              or (m.group("noun") or "").lower() in _ADVICE_NOUNS
                              or (m.group("says") or "").lower().removesuffix("s") in _ADVISORY
                              or (m.group("modal") or "").lower() == "should")


# a file a setting is written in ("in postgresql.conf", "to `config/tokens.yml`"): where the value is, not what it is of
_FILE_NAME = re.compile(r".+\.(?:conf|cfg|ini|ya?ml|json|toml|tf|tfvars|env|properties|xml|txt|md|sql|py|js|ts|sh|lock)",
                        re.IGNORECASE)


def _identifier(text: str, near: int | None, skip: tuple[int, int] | None = None) -> str | None:
    """The name in code nearest the value (``skip``: the value's own span, widened by a character each side), by
    the gap between them: measured from the name's start, a long name before the value lost to a file named after
    it ("Set max_connections to 200 in postgresql.conf." was valued for postgresql.conf)."""
    found = []
    for m in _IDENT.finditer(text):
        if skip and m.start() < skip[1] and m.end() > skip[0]:
            continue        # the value itself ("set to `minimal`") is not its own attribute
        ident = next(g for g in m.groups() if g)
        if re.fullmatch(r"[\d.]+|e\.g|i\.e|etc", ident, re.I) or re.fullmatch(r"[a-z]+\.(?:com|org|io|net|dev)", ident) \
                or _FILE_NAME.fullmatch(ident):
            continue
        if near is None:
            gap = m.start()
        elif m.end() <= near:
            gap = near - m.end()
        else:
            gap = m.start() - (skip[1] - 1 if skip else near)
        found.append((gap, ident.split("=")[0].lower()))
    return min(found)[1] if found else None


@lru_cache(maxsize=8192)
def _typed_values(text: str) -> tuple:
    """A statement's values are read twice (by the clause reader and for the attribute they belong
    to): parsed once. Values are frozen, so sharing them is safe."""
    return tuple(extract_typed_values(text))


_DETERMINERS = frozenset({"the", "a", "an", "your", "our", "all", "every", "each", "any", "their", "its", "this",
                          "these", "those"})
# verbs that open orders and are hardly ever a noun at a sentence's start (beside the state verbs, ``VERBS``)
_ORDER_VERBS = frozenset({"write", "send", "delete", "remove", "rotate", "encrypt", "revoke", "ensure", "avoid",
                          "configure", "install", "upgrade", "document", "create", "add", "include", "keep", "pin"})


_NEED_TO = _NEED_WORDS | {"ought"}


def _plural_taken_for_a_verb(t) -> bool:
    """A plural noun the small model tags a third person before "need to" / "have to" ("Debug builds need to …", "All
    hotel stays need to …"), as it does before "shall" (``_before_a_modal``)."""
    return t.tag_ == "VBZ" and t.lower_.endswith("s") and t.i > 0 and t.doc[t.i - 1].pos_ in ("NOUN", "PROPN", "ADJ")


def _need_to_a_verb(doc, value_tok) -> int | None:
    """The index of a "have" / "need" / "ought" that says the rule's need ("have to adhere", "needs to be", "ought to
    use"), after a subject and before any "if"/"when" clause, or None."""
    for t in doc[1:-2]:
        if t.lower_ in _BOUNDARIES or t.i in value_tok or t.tag_ == "MD" and t.lower_ not in ("need", "ought"):
            return None
        if t.lower_ in _NEED_TO and t.tag_ in ("VBP", "VBZ", "VB", "MD") and _to_a_verb(doc, t.i + 1) \
                and (t.dep_ not in ("relcl", "acl", "advcl", "ccomp", "csubj", "pcomp", "conj") or _plural_taken_for_a_verb(
                    doc[t.i - 1]) and t.head.i == t.i - 1):
            return t.i
    return None


class ParsedV2(Parsed):
    """v1's pivot, except that "defaults to" is the verb: spaCy tags "duration defaults to 300
    seconds and is configurable up to 800" as a noun, and v1 read "defaults to … is" as a subject
    noun phrase ("Force pushes to main are blocked"), so the subject took "default" and the value came
    from the later clause."""

    ss_is_no_ending = True
    lower_case_order = False        # the statement opens with an order's verb written lower-case (``__init__``)
    # the base forms the lemmatizer knows only as verbs (``with_verb_lemmas``); empty: not looked for
    verb_lemmas: frozenset[str] = frozenset()
    # every base form the lemmatizer lists as a verb (``with_verb_lemmas``)
    all_verb_lemmas: frozenset[str] = frozenset()
    # every base form it lists as a noun (``with_verb_lemmas``)
    noun_lemmas: frozenset[str] = frozenset()

    def __init__(self, doc, values, offset: int):
        if len(doc) > 2 and doc[0].tag_ == "VBP" and doc[0].is_lower and _a_known_verb(doc[0], self.verb_lemmas):
            # "rotate keys periodically …", "include the raw session cookie value …" after a label ("Recommended:"): a
            # present tense with nothing before it has no subject, so it is an order's verb, which the small model
            # tags a present tense when written lower-case; read as one, the order's verb was its subject's first word
            doc[0].tag_ = "VB"
            self.lower_case_order = True
        if (root := _present_taken_for_a_base_form(doc)) is not None:
            root.tag_ = "VBP"
        super().__init__(doc, values, offset)

    @classmethod
    def with_verb_lemmas(cls, verbs: frozenset[str], all_verbs: frozenset[str] = frozenset(),
                         nouns: frozenset[str] = frozenset()) -> type[ParsedV2]:
        return type(cls.__name__, (cls,), {"verb_lemmas": verbs, "all_verb_lemmas": all_verbs, "noun_lemmas": nouns})

    @cached_property
    def imperative(self) -> bool:
        """v1's, and an order that opens with how it is carried out ("Automatically lock your computer …",
        "Immediately revoke leaked keys."): read as a statement, the adverb was its subject."""
        d = self.doc
        return self.lower_case_order or super().imperative \
            or len(d) > 2 and manner_adverb(d[0]) and d[1].tag_ == "VB" and d[1].dep_ == "ROOT" \
            and not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in d[1].children) \
            or self._order_taken_for_a_noun or _order_before_a_determiner(d)

    @property
    def _order_taken_for_a_noun(self) -> bool:
        """An order whose verb the small model read as a noun's modifier, so a later word became the verb: "Disable
        remote root user logins over SSH." (verb "logins"), "Write unit tests for all new functions." ("tests"), "Send
        logs to the Datadog intake …" ("logs"), "Delete idle Pub/Sub subscriptions to avoid …" ("avoid"). Read as
        statements, the order's verb was its subject ("disable remote root user"). A verb in its base form first,
        and a "verb" after it that no statement's subject has: no form of be / have / do (nor as the sentence's
        root), none agreeing with a plural, no modal anywhere ("Deploy freezes are …", "Delete requests take …",
        "Log data, … debug logs, and backups must not be destroyed …" stay statements), and not "Use of …"."""
        d, p = self.doc, self.pivot
        if p is None or len(d) < 3 or not d[0].text[:1].isupper() or d[1].lower_ in ("of", "'s", "’s", "-") \
                or d[0].lower_ not in VERBS and d[0].lower_ not in _ORDER_VERBS or d[0].lower_.endswith("s"):
            return False
        v, root = d[p], sentence_root(d)
        root = v if root is None else root
        if v.i == 1 and v.tag_ == "VBZ" and d[0].dep_ in ("nsubj", "nsubjpass") and d[0].head.i == v.i \
                and d[0].lemma_.lower() in self.noun_lemmas and v.lemma_.lower() in self.verb_lemmas:
            # "Support responds within 4 hours.", "Access expires after 90 days.": a noun the lists also know as a verb,
            # parsed as the subject of a verb that is nothing but one, agreeing with it — a statement (read as an order,
            # its subject was "respond", supported)
            return False
        plural = v.i > 0 and d[v.i - 1].tag_ in ("NNS", "NNPS") and v.tag_ in ("VB", "VBP")   # "messages follow"
        return v.tag_ not in ("VBP", "VBD") and not plural and _no_statement_verb(d) \
            and not any(t.pos_ == "AUX" or t.lemma_.lower() in ("be", "have", "do") for t in (v, root))

    def _noun_in_subject(self, t) -> bool:
        if t.lower_ in ("defaults", "default") and t.i + 1 < len(self.doc) and self.doc[t.i + 1].lower_ == "to":
            return False
        # a plural the parser makes the subject of a finite verb after it ("Production access reviews for user, admin
        # and service accounts run every 24 months": "reviews" is no verb, "run" is), or of a participle with a finite
        # auxiliary ("Force pushes and deletions are blocked on …": "pushes" was the verb, the subject "force")
        return super()._noun_in_subject(t) or t.tag_ in ("NNS", "NNPS") and t.dep_ in ("nsubj", "nsubjpass") \
            and t.head.i > t.i and (t.head.tag_ in ("VBZ", "VBP") or t.head.tag_ in ("VBN", "VBG") and any(
                c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBZ", "VBP", "MD") for c in t.head.children))

    def _find_pivot(self) -> int | None:
        """v1's pivot, unless it sits in a clause under the sentence's own finite verb: "Linux gives up
        on a dead peer … after the first probe is sent" pivoted on the "is" of the last clause, so the
        subject was "linux give" (everything before it); "HAProxy calculates it automatically from the
        limits that are set" likewise. The main verb outside v1's verb lists is the pivot then. Also
        a coordinated clause with a subject of its own ("Twilio queues messages …, and a US long code
        number can send …" was about "twilio queue message"), not one that goes on with the first's
        subject ("… defines the range, and it must be …": its modal is the rule). Session 43 measured
        every coordinated clause with a refit (CV F1 0.570 → 0.547, inside the refit's noise); session
        50, own subjects only and the gates held: CV one more contradiction blocked and one false block
        fewer, claims_dev unchanged, long-gold subject 0.653 → 0.673."""
        p = super()._find_pivot()
        need = _need_to_a_verb(self.doc, self.value_tok)
        plural = need is not None and _plural_taken_for_a_verb(before := self.doc[need - 1])
        if need is not None and (p is None or p > need or plural):
            if plural:
                low = before.lower_
                base = next((b for b in plural_bases(low) if b in self.noun_lemmas), low[:-1])
                before.tag_, before.pos_, before.lemma_ = "NNS", "NOUN", base if before.lemma_.lower() == low else before.lemma_
            # "Employees have to adhere to … when booking …", "The Orders API has to reject …": "have to", "need to" is
            # the rule's modal, as "must" is (v1 pivots on no "have"; past a "when" it found no pivot, and the subject
            # was "employee adhere")
            return need
        d = next((t.i for t in self.doc[1:-1] if t.lower_ == "defaults" and self.doc[t.i + 1].lower_ == "to"), None)
        if d is not None and (p is None or p > d) and all(t.tag_ in _NOUN_PHRASE_TAGS or t.tag_ == "NNS" for t in self.doc[:d]):
            # "LimitRequestBody defaults to 1073741824 bytes.": v1 pivots on "defaults" only after a noun, and the small
            # model tags a camel-cased name an adjective (the subject was "LimitRequestBody default")
            return d
        if p is not None and p + 1 < len(self.doc) and _before_a_modal(self.doc[p], self.doc[p + 1]):
            # "All hotel stays shall be booked …", "GitHub Actions workflows shall declare …": a verb is never
            # followed by a modal, so the word before it ends the subject (the small model tags "stays" and
            # "workflows" verbs before "shall", not before "must", and made them the root); the modal is the pivot
            return p + 1
        verb = _verb_taken_for_a_noun(self.doc, self.value_tok)
        if verb is None:
            verb = _root_taken_for_a_plural(self.doc, self.value_tok)
        if verb is None and (base := _base_root_after_a_plural(self.doc, self.value_tok, self.all_verb_lemmas)) is not None \
                and (p is None or p >= base - 1):
            # v1 pivots on the plural before it where its lists know the word as a verb (".NET servicing releases land
            # once a month …" was about ".net servicing"): the plural ends the subject, the base form is its verb
            self.doc[base].tag_, self.doc[base].pos_ = "VBP", "VERB"
            return base
        if verb is None and (base := _verb_ending_the_subject_s_phrase(self.doc, self.value_tok,
                                                                      self.all_verb_lemmas)) is not None \
                and (p is None or p >= base):
            self.doc[base].tag_, self.doc[base].pos_ = "VBP", "VERB"
            return base
        if verb is None and (third := _third_person_taken_for_a_plural(self.doc, self.value_tok, self.all_verb_lemmas,
                                                                       self.noun_lemmas)) is not None \
                and (p is None or p >= third[0]):
            t = self.doc[third[0]]
            t.tag_, t.pos_, t.lemma_ = "VBZ", "VERB", third[1]
            return t.i
        if verb is None and self.verb_lemmas:
            verb = _verb_after_its_subject(self.doc, self.value_tok, self.verb_lemmas)
            if verb is not None and (p is None or p > verb):
                _read_as_a_verb(self.doc[verb], self.verb_lemmas)
        if verb is not None and (p is None or p > verb):
            return verb
        root = sentence_root(self.doc)
        finite = root is not None and root.pos_ == "VERB" and (root.tag_ in ("VBZ", "VBP", "VBD") or _perfect(root)) \
            and root.i not in self.value_tok
        if p is None:
            # a main verb outside v1's lists with a subject of its own ("Node 18 reached end of life on
            # 2025-04-30."): with no pivot the sentence was read as an order, about its object ("end life").
            # Not "have": what a thing has is what is said of it ("Every RDS DB instance has a weekly
            # maintenance window …" is about the window)
            own = finite and root.lemma_ != "have" and not any(t.text == ";" for t in self.doc[:root.i]) \
                and any(c.dep_ in ("nsubj", "nsubjpass") and c.i < root.i and not (c.i == 0 and c.lower_ in VERBS)
                        for c in root.children)
            return root.i if own else None
        if root is not None and root.i > p and root.tag_ in ("VBZ", "VBP", "VBD") and self.doc[p].lower_ in ("'s", "’s") \
                and self.doc[p].dep_ != "ROOT" and p > 0 and _upper_first(self.doc[p - 1].text) not in _IS_AFTER:
            return root.i     # "IT's published requirement … is now …": a possessive the small model took for "is"
        if not finite or not 0 < root.i < p:
            return p
        t, under = self.doc[p], False
        while t.head.i != t.i and t.i != root.i:
            under |= t.dep_ in _UNDER_THE_VERB or t.dep_ == "conj" and _own_subject(t)
            t = t.head
        return root.i if t.i == root.i and under else p


# words whose "'s" is "is" ("that's", "there's", "It's"); an acronym written in capitals ("IT's") owns what follows
_IS_AFTER = frozenset({"It", "That", "There", "Here", "What", "Who", "This", "He", "She", "Where", "How", "Everything",
                       "Nothing", "Everyone", "Nobody", "Someone", "Anyone", "Let"})


def _a_known_verb(t, verb_lemmas: frozenset[str] = frozenset()) -> bool:
    """``t`` is a verb one of the lexicons (or ``verb_lemmas``) knows, as written or by its lemma."""
    low, lem = t.lower_, t.lemma_.lower()
    return low in VERBS or lem in VERBS or low in MODAL_VERBS or lem in MODAL_VERBS or lem in verb_lemmas


def _before_a_modal(t, nxt) -> bool:
    """``t``, taken for the verb, stands right before a modal: it is the subject's last word."""
    return nxt.tag_ == "MD" and t.tag_ != "MD" and t.pos_ != "AUX"


def _perfect(verb) -> bool:
    """A participle with a finite "has"/"have"/"had" ("Vue 2 has reached End of Life on December 31st, 2023."): the
    sentence's verb, as a finite one is (with no pivot, the statement was read as an order about its object)."""
    return verb.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_.lower() == "have" and c.tag_ in ("VBZ", "VBP", "VBD")
                                      for c in verb.children)


def _verb_taken_for_a_noun(doc, value_tok) -> int | None:
    """A verb after a plural noun that the small model reads as an adjective or a noun: "Sprints last two
    weeks." ("last two weeks" one phrase), "Builds time out after 60 minutes." ("time" a noun). Read so, the
    sentence had no verb and the subject was "sprint last", "build time"."""
    return next((t.i for t in doc[1:-1] if t.pos_ != "VERB" and doc[t.i - 1].pos_ in ("NOUN", "PROPN")
                 and doc[t.i - 1].tag_ != "NN"
                 and (t.lower_ in ("last", "lasts") and t.i + 1 in value_tok
                      or t.lower_ == "time" and doc[t.i + 1].lower_ == "out")), None)


# what follows a verb and not a plural noun heading its sentence: an adverb, an object's
# determiner or number ("changes weekly", "budgets 2 bytes", "pages the on-call engineer"); not a preposition
# ("Integration tests in the test environment use …": the verb is the tagger's noun "use")
_AFTER_A_VERB = frozenset({"RB", "DT", "CD", "PRP$"})
_AFTER_A_VERB_OR_PREPOSITION = _AFTER_A_VERB | {"IN"}
_FINITE_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})


def _verbless_root(doc, value_tok):
    """The sentence's root where the small model found no verb at all and the root may be it: nothing in the sentence
    finite, the root neither first nor last nor part of a value, followed by what follows a verb or a preposition, and
    the sentence no order (an order's verb before the word's own subject, or a second one joined to the root:
    "Define SNS delivery policies per subscription and avoid …", the first verb tagged a name). None otherwise."""
    root = sentence_root(doc)
    if root is None or root.i < 1 or root.i + 1 >= len(doc) or root.i in value_tok:
        return None
    condition = _condition_after(root)
    if doc[root.i + 1].tag_ not in _AFTER_A_VERB_OR_PREPOSITION and not condition \
            or any(t.tag_ in _FINITE_TAGS for t in doc if t.i not in condition) \
            or any(t.tag_ == "VB" for t in doc[:root.i - 1]) or any(c.dep_ == "conj" and c.tag_ == "VB" for c in root.children):
        return None
    return root


_CONDITION_WORDS = frozenset({"when", "whenever", "once", "if", "unless", "while"})   # not "after", "before": prepositions as often


def _condition_after(root) -> set[int]:
    """The tokens of a condition right after the root ("An alert fires when CPU stays above 90% …", "Disk alerts fire
    once a volume is 95% full."): its verb is the condition's, not the sentence's, so it says nothing of whether the
    root is a verb the small model took for a noun (it is then its only verb)."""
    for c in root.children:
        if c.dep_ == "advcl" and c.i > root.i:
            first = c.left_edge
            if first.i == root.i + 1 and first.lower_ in _CONDITION_WORDS:
                return {t.i for t in c.subtree}
    return set()


def _root_taken_for_a_plural(doc, value_tok) -> int | None:
    """A sentence's verb in the third person that the small model tags a plural noun and makes the root: "The
    on-call rotation changes weekly.", "Our capacity sheet budgets 2 bytes per sample …". Read so, the sentence had
    no verb and the subject ran on ("on-call rotation change"). Only where nothing else in the sentence is finite,
    after a singular noun that is not the sentence's first word ("Book flights at least 21 days before …" is an
    order) or after a product's name ("MySQL ships with …", "Fly.io charges for …"), and before what follows a verb
    or a preposition."""
    root = _verbless_root(doc, value_tok)
    if root is None or root.tag_ != "NNS" or not _plural(root.lower_):
        return None
    before = doc[root.i - 1]
    # a product's name, however the small model tagged it ("MySQL ships with …": a determiner; "Fly.io charges for …": a
    # verb), is a subject even as the first word, which no order starts with
    named = before.tag_ not in ("NN", "NNP") and bool(_PRODUCT_NAME.search(before.text))
    # a noun right after the opening determiner that the small model tagged an adjective of the "plural" ("An alert
    # fires when …")
    after_the_determiner = root.i == 2 and before.tag_ == "JJ" and doc[0].tag_ == "DT"
    if not (named or root.i >= 2 and before.tag_ in ("NN", "NNP") or after_the_determiner):
        return None
    if named:
        # read as the name it is, the subject of the verb (this Doc is the statement's own, parsed for this reading)
        before.tag_, before.pos_, before.dep_ = "NNP", "PROPN", "nsubj"
    return root.i


def _present_taken_for_a_base_form(doc):
    """The sentence's root verb right after its plural subject, tagged a base form with no auxiliary or modal to
    take one: "Code reviews happen twice a week.", "Performance reviews happen every year." (the small model tags
    "happen" VB there and VBP in "Access reviews happen quarterly."). Read so, v1 found its pivot in the plural ("reviews",
    a verb in its lists) and the statement was about "code", reviewed. A present tense is what it is."""
    root = sentence_root(doc)
    if root is None or root.tag_ != "VB" or root.pos_ != "VERB" or root.i == 0:
        return None
    subject = doc[root.i - 1]
    if subject.tag_ not in ("NNS", "NNPS") or subject.dep_ not in ("nsubj", "nsubjpass") or subject.head.i != root.i \
            or any(c.dep_ in ("aux", "auxpass") or c.tag_ == "MD" for c in root.children):
        return None
    return root


def _base_root_after_a_plural(doc, value_tok, verbs: frozenset[str]) -> int | None:
    """A verb in the base form that the small model tags a singular noun and makes the root, right after a plural
    noun: "Our cert-manager renewals trigger at two thirds of …", "Unused credit hours lapse at the end of …", ".NET
    servicing releases land once a month …". Read so, the sentence had no verb and the subject ran on ("unused
    credit hour lapse"). Only a verb the lemmatizer lists, in a sentence ``_verbless_root`` allows."""
    root = _verbless_root(doc, value_tok)
    if root is None or root.tag_ != "NN" or doc[root.i - 1].tag_ != "NNS" or root.lower_ not in verbs:
        return None
    return root.i


def _verb_ending_the_subject_s_phrase(doc, value_tok, verbs: frozenset[str]) -> int | None:
    """A plural subject's verb in the base form that the small model reads as the last noun of the subject's own
    phrase: "Orders from Canada ship with DHL." ("from Canada ship"), "Builds on main run nightly.", "Jobs in the batch
    queue retry three times.". Read so, the sentence had no verb and the verb was the subject's ("canada ship"). Only in
    a sentence with nothing finite whose root is its plural subject, where the phrase's last noun is a verb the
    lemmatizer lists, has words of the phrase before it, and is followed by what follows a verb."""
    root = sentence_root(doc)
    if root is None or root.tag_ != "NNS" or not _plural(root.lower_) or any(t.tag_ in _FINITE_TAGS for t in doc) \
            or any(t.tag_ == "VB" for t in doc[:root.i]):
        return None
    for prep in (c for c in root.children if c.dep_ == "prep" and c.i == root.i + 1):
        t = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if t is None or t.tag_ != "NN" or not t.is_lower or t.lower_ not in verbs or t.i in value_tok \
                or t.i + 1 >= len(doc) or doc[t.i + 1].tag_ not in _AFTER_A_VERB_OR_PREPOSITION | {"NNS"} \
                or not any(c.i < t.i and c.dep_ in ("compound", "amod") for c in t.children) \
                or any(c.dep_ == "poss" or c.tag_ == "PRP$" for c in t.children):
            continue            # "in our production AWS account now last 4 hours": a possessive's noun is no verb
        return t.i
    return None


# what may stand in a subject's phrase before its verb ("Our issuing CA", "The partner portal", "Fly's autostart")
_BEFORE_A_THIRD_PERSON = frozenset({"DT", "PRP$", "POS", "JJ", "NN", "NNP", "HYPH", "VBG", "VBN", "CD"})
# what follows a verb's third person and not a plural noun ending a phrase: its object's first word
_AFTER_A_THIRD_PERSON = frozenset({"DT", "CD", "PRP", "PRP$", "JJ", "NN", "NNS", "NNP", "NNPS", "``"})


def _finite_in_its_clause(doc, i: int) -> bool:
    """A finite verb after token ``i`` before its clause ends, a subordinate clause's ("… once traffic exceeds …")
    not counted (``_finite_after``, ending also at the word that opens a subordinate clause)."""
    end = next((t.i for t in doc[i + 1:] if t.dep_ == "mark"), len(doc))
    return _finite_after(doc[:end], i) is not False


def _third_person_taken_for_a_plural(doc, value_tok, verbs: frozenset[str],
                                     nouns: frozenset[str]) -> tuple[int, str] | None:
    """A verb in the third person singular that the small model reads as a plural noun inside its subject's phrase:
    "The partner portal stores user passwords AES-encrypted …", "The customer portal caps passwords at 32 characters",
    "Our issuing CA reissues end-entity CRLs every 14 days", "Fly's autostart provisions brand-new Machines …". Read
    so, the sentence had no verb before its object, and the subject ran on into it ("partner portal store user password
    aes-encrypted"). Only the first word after a singular noun that opens the sentence, where the word is a verb the
    lemmatizer lists with nothing finite before it nor in its own clause after it, and what follows it is an object's
    first word. Not after an order's verb the small model tags a name ("Book flights no less than 21 days before …").
    The word's index and its base form."""
    first = doc[0]
    if first.tag_ not in _BEFORE_A_THIRD_PERSON or first.tag_ in ("VBG", "VBN") \
            or first.text[:1].isupper() and not first.is_upper and first.lower_ in verbs \
            and not (len(doc) > 1 and doc[1].tag_ == "POS"):
        return None
    for t in doc[1:-1]:             # the words between ``first`` and the candidate are checked on the way
        if t.tag_ in _FINITE_TAGS or t.lower_ in _CLAUSE_ENDS:
            return None
        if t.tag_ not in ("NNS", "NNPS"):
            if t.tag_ not in _BEFORE_A_THIRD_PERSON:
                return None
            continue
        prev, nxt = doc[t.i - 1], doc[t.i + 1]
        # the word's own base ("nodes" is "node", a noun, never the verb "nod"; "specifies" is "specify")
        base = next((b for b in plural_bases(t.lower_) if b in verbs or b in nouns), None)
        base = base if base in verbs and base not in _AUXILIARIES else None
        # a noun before it that the small model tags an adjective ("The partner portal stores …": "portal" JJ)
        singular = prev.tag_ in ("NN", "NNP") or prev.tag_ == "JJ" and t.i > 1 and doc[t.i - 2].tag_ in ("NN", "NNP")
        if not (t.is_alpha and t.is_lower) or base is None or t.i in value_tok or not singular \
                or nxt.tag_ not in _AFTER_A_THIRD_PERSON or _finite_in_its_clause(doc, t.i):
            return None
        return t.i, base
    return None


_PRODUCT_NAME = re.compile(r"[a-z][A-Z]|[A-Z]{2}|\w\.\w")


# what a subject's noun phrase is made of, and what may end it
_NOUN_PHRASE_TAGS = frozenset({"DT", "JJ", "JJR", "NN", "NNP", "NNPS", "PRP$", "POS", "HYPH", "CD", "NFP", "XX", "ADD", "AFX"})
_PHRASE_ENDS = frozenset({"NN", "NNP", "NNPS", "JJ", "JJR", "XX", "ADD"})
# adverbs that stand between a subject and its verb ("never relies", "also flushes", "automatically renews")
_BETWEEN_SUBJECT_AND_VERB = frozenset({"never", "always", "also", "only", "still", "usually", "normally", "automatically",
                                       "just", "simply", "already", "typically", "generally", "often", "rarely", "now"})
# what ends the clause a verb's object and adjuncts belong to
_CLAUSE_ENDS = frozenset({",", ";", ":", "(", ")", "—", "–", "so", "because", "if", "when", "while", "whether", "unless",
                          "which", "where", "until", "since", "though", "although", "whereas"})


def _finite_after(doc, i: int) -> int | bool:
    """Where the clause after token ``i`` has a finite verb (False: nowhere): not a participle that modifies a noun
    ("forgets resolved conflict records", "X11 forwarding switched on"), not a second verb of the same subject
    ("deduplicates on eid and keeps …"), not a name the small model tags a verb ("returns camelCase JSON",
    "returns HTTP 429")."""
    for t in doc[i + 1:]:
        if t.lower_ in _CLAUSE_ENDS:
            return False
        if t.tag_ not in _FINITE_TAGS or not (t.text.isalpha() and t.text[1:].islower()):
            continue
        nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
        if t.tag_ in ("VBD", "VBN") and nxt is not None and nxt.tag_ in ("NN", "NNS", "JJ", "RP"):
            continue
        if doc[t.i - 1].lower_ in ("and", "or"):
            continue
        return t.i
    return False


def lemma_index(nlp, pos: str) -> frozenset[str]:
    """The base forms the pipeline's rule lemmatizer lists for ``pos`` (its ``lemma_index`` table: WordNet's); empty
    where the pipeline has no such table."""
    if "lemmatizer" not in nlp.pipe_names:
        return frozenset()
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or "lemma_index" not in lookups.tables:
        return frozenset()
    return frozenset(lookups.get_table("lemma_index").get(pos, ()))


# the verbs that help another ("is", "has", "does"): never a verb taken for a noun, nor a plural taken for a verb
_AUXILIARIES = frozenset({"be", "have", "do"})


def _plurals_taken_for_verbs(doc, nouns: frozenset[str], verbs: frozenset[str]):
    """A plural the small model tags a verb in the third person although no sense of it is a verb: "Merchant Center
    payloads use camelCase …", "On our Prometheus 2.45 servers the WAL stays …", "for file servers or workloads
    that …". Read as the verb, "payloads" ended the subject at "Merchant Center" and made "use …" its object. Only
    where the lemmatizer's tables list the word as a noun and under no base form as a verb (so "The partner API
    versions its endpoints", a verb WordNet does not know, is kept where a possessive follows it). A word that is both
    a noun and a verb is the noun where a plural copula follows it straight after a noun ("Status updates are posted
    at most once an hour.": the subject was "status")."""
    if not nouns:
        return doc
    for t in doc:
        if t.tag_ != "VBZ" or not (t.is_alpha and t.is_lower) or t.lemma_ in _AUXILIARIES:
            continue
        nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
        bases = plural_bases(t.lower_)
        # a plural copula right after it has no other subject to agree with ("Status updates are posted …")
        plural_copula = nxt is not None and nxt.lower_ in ("are", "were") and t.i > 0 \
            and doc[t.i - 1].tag_ in ("NN", "NNS", "NNP", "NNPS")
        if (nxt is None or nxt.tag_ != "PRP$") and (plural_copula or not any(b in verbs for b in bases)) \
                and (noun := next((b for b in bases if b in nouns), None)) is not None:
            t.tag_, t.pos_, t.lemma_ = "NNS", "NOUN", noun
    return doc


def _acronyms_taken_for_plurals(doc):
    """An acronym in capitals ending in S that the small model tags a plural ("AWS doesn't recommend …", "SMS is …" at a
    sentence's start): its lemma was the "singular" ("aw", "sm"), so the subject was a word no other statement says.
    An acronym has no plural in capitals ("APIs", "VMs" keep their lower-case "s", and a statement written all in
    capitals is put in sentence case first), so it is its own lemma — also where it is tagged a verb in the past and
    lemmatized to the same stem ("SMS one time codes expire …" was about "sm time code")."""
    for t in doc:
        if len(t.text) >= 2 and t.text.isalpha() and t.text.isupper() and t.lemma_ != t.text \
                and (t.tag_ in ("NNS", "NNPS") or t.tag_ == "VBD" and t.lemma_.lower() == t.lower_[:-1]):
            t.lemma_ = t.text
    return doc


def _nouns_taken_for_verbs(doc):
    """A base form the small model tags a verb right after a noun, attached as an object, compound or bare dependent
    and with no subject of its own: the head of that noun phrase ("Prometheus cuts a new on-disk TSDB block every
    six hours", "80 hours of award leave", "the gds-users account"). Read as a verb, "block" made the statement a
    prohibition ("must not"), and "leave" an order."""
    for t in doc[1:]:
        if t.tag_ in ("VB", "VBP") and t.dep_ in NOUN_ATTACHMENTS and t.is_alpha \
                and doc[t.i - 1].tag_ in ("NN", "NNS", "NNP", "NNPS") and doc[t.i - 1].dep_ != "ROOT" \
                and not any(c.dep_ in ("nsubj", "nsubjpass", "aux", "neg") for c in t.children):
            t.tag_, t.pos_ = ("NNP", "PROPN") if t.text[0].isupper() and doc[t.i - 1].tag_.startswith("NNP") else ("NN", "NOUN")
    return doc


def _subjects_taken_for_verbs(doc):
    """A base form the small model tags a verb yet attaches as a clause's subject, with nothing of a verb's own below
    it (no subject, auxiliary or object): a noun, since a bare verb is never a subject ("SIGTERM cleanly shuts the
    server down": the subject was "sigterm cleanly", the name read as an order and the adverb kept; "Fly keeps the
    daily snapshots …", "Squash merges are disabled"). A name in capitals stays a name."""
    for t in doc:
        if t.tag_ in ("VB", "VBP") and t.dep_ in ("nsubj", "nsubjpass") and t.is_alpha \
                and not any(c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass", "neg", "dobj") for c in t.children):
            t.tag_, t.pos_ = ("NNP", "PROPN") if t.is_upper and len(t) > 1 else ("NN", "NOUN")
    return doc


# nouns that also stand before a noun as its degree or kind ("the minimum supported JDK", "the default allowed origin")
_DEGREE_NOUNS = frozenset({"minimum", "maximum", "default", "standard"})


def _noun_taken_for_a_second_verb(doc):
    """"Write commit messages in the present tense.": the small model tags "commit" a second verb of the order, with
    "messages" its object, so the order was about "message". Two verbs never follow each other without a word
    between them; a base form right after the order's verb, before a noun it governs, is that noun's modifier."""
    if len(doc) < 3 or doc[0].tag_ != "VB" or doc[0].dep_ != "ROOT":
        return doc
    t, n = doc[1], doc[2]
    if t.tag_ in ("VB", "VBP") and t.is_alpha and t.is_lower and t.head.i == 0 and t.dep_ in ("dep", "dobj", "compound") \
            and n.tag_ in ("NN", "NNS") and n.head.i == 1 and n.dep_ == "dobj" \
            and not any(c.dep_ in ("nsubj", "aux", "neg") for c in t.children):
        for c in [c for c in t.children if c.i != n.i]:
            c.head = doc[0]
        n.head, n.dep_ = doc[0], "dobj"
        t.head, t.dep_ = n, "compound"
        t.tag_, t.pos_, t.lemma_ = "NN", "NOUN", t.lower_
    return doc


# the words an auxiliary can be; the small model also tags a noun before a subject so ("Commit messages have to …")
_AUXILIARY_WORDS = frozenset({"be", "am", "is", "are", "was", "were", "been", "being", "have", "has", "had", "having",
                              "do", "does", "did", "will", "would", "can", "could", "shall", "should", "may", "might",
                              "must", "ought", "need", "dare", "ca", "wo", "sha", "'s", "'ve", "'d", "'ll", "'re", "'m",
                              "’s", "’ve", "’d", "’ll", "’re", "’m"})


def _noun_taken_for_an_auxiliary(doc):
    """"Commit messages have to be written in English.": the small model tags "Commit" an auxiliary of "have", so the
    subject lost it ("message"), where "Commit messages must be …" reads "commit message". A word that is no
    auxiliary, tagged one right before a noun that is the subject of the same verb, is that noun's modifier."""
    for t in doc[:-1]:
        n = doc[t.i + 1]
        if t.pos_ == "AUX" and t.dep_ == "aux" and t.is_alpha and t.lower_ not in _AUXILIARY_WORDS \
                and n.tag_ in ("NN", "NNS", "NNP", "NNPS") and n.dep_ in ("nsubj", "nsubjpass") and n.head.i == t.head.i:
            t.head, t.dep_ = n, "compound"
            t.tag_, t.pos_, t.lemma_ = "NN", "NOUN", t.lower_
    return doc


def _department_taken_for_a_pronoun(doc):
    """"GSA IT manages software updates; you should not …": the small model tags "IT" written in capitals the pronoun
    "it", so the statement read as a person's and its subject came from what IT manages ("gsa IT manage software
    update"). "IT" in capitals is the department's name, unless the next word is in capitals too ("IT IS FORBIDDEN …":
    the pronoun, shouted)."""
    for t in doc:
        if t.text == "IT" and t.tag_ == "PRP" and not (t.i + 1 < len(doc) and doc[t.i + 1].text.isupper()
                                                        and doc[t.i + 1].is_alpha):
            t.tag_, t.pos_ = "NNP", "PROPN"
    return doc


def _degree_taken_for_a_subject(doc):
    """"The minimum supported JDK is 11.": the small model reads "The minimum" as a subject that "supported" something,
    and "JDK is 11" as what it supported, so the statement's subject was "minimum". A degree word before a participle
    and a bare noun phrase that is the subject of a copula is that noun phrase's modifier ("The minimum supported
    Python version", "The default allowed origin"); the copula is the statement's verb. Not where a determiner opens
    the second phrase or the first word is no degree word ("The team decided the JDK is 11")."""
    for t in doc[2:]:
        n = doc[t.i - 1]
        if t.tag_ not in ("VBD", "VBN") or n.lower_ not in _DEGREE_NOUNS or n.dep_ != "nsubj" or n.head.i != t.i \
                or doc[t.i - 2].tag_ != "DT":
            continue
        c = next((c for c in t.children if c.dep_ == "ccomp" and c.lemma_ == "be" and c.i > t.i), None)
        s = None if c is None else next((x for x in c.children if x.dep_ == "nsubj" and x.i > t.i), None)
        if s is None or any(x.tag_ == "DT" or x.dep_ not in ("compound", "amod", "nmod") for x in doc[t.i + 1:s.i]):
            continue
        c.head, c.dep_ = c, "ROOT"
        for x in [*(x for x in t.children if x.dep_ == "punct"), *(x for x in n.children if x.dep_ == "det")]:
            x.head = c if x.dep_ == "punct" else s
        for x in (n, t):
            x.head, x.dep_ = s, "amod"
        n.tag_, n.pos_ = "JJ", "ADJ"
        t.tag_ = "VBN"
    return doc


def _verb_base(t, verb_lemmas: frozenset[str]) -> str | None:
    """The verb a third-person form ``t`` tagged a plural noun is of ("specifies" → "specify"), if the lemmatizer
    knows it only as one."""
    return next((b for b in plural_bases(t.lower_) if b in verb_lemmas), None)


def _read_as_a_verb(t, verb_lemmas: frozenset[str]) -> None:
    """Correct the tagger where ``_verb_after_its_subject`` found its verb: the rest of the reading (the state verb,
    the value after it) takes a token tagged a noun for a name ("TCPKeepAlive specifies whether …" had the value
    "specifies"). The Doc is this statement's own, parsed for this reading."""
    if t.tag_ == "VBZ":
        return
    base = _verb_base(t, verb_lemmas)
    t.tag_, t.pos_ = "VBZ", "VERB"
    if base is not None:
        t.lemma_ = base


def _third_person(doc, t) -> bool:
    """``t`` may be a verb in the third person: tagged a plural noun, or tagged so and not followed by a second verb
    of its own ("Each postmortem identifies the individual at fault and records …", "The billing-db project sits
    idle … and is never auto-paused"), which v1's lists and the sentence's root already read."""
    if not _plural(t.lower_):
        return False
    if t.tag_ == "NNS":
        return True
    return t.tag_ == "VBZ" and t.is_alpha and t.lemma_.lower() not in _AUXILIARIES \
        and not _second_verb_after(doc, t.i)


def _second_verb_after(doc, i: int) -> bool:
    for t in doc[i + 1:]:
        if t.lower_ in _CLAUSE_ENDS:
            return False
        nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
        if t.lower_ in ("and", "or") and nxt is not None and (nxt.tag_ in _FINITE_TAGS
                                                              or nxt.lower_.endswith("s") and nxt.tag_ == "NNS"):
            return True
    return False


def _verb_after_its_subject(doc, value_tok, verb_lemmas: frozenset[str]) -> int | None:
    """A verb in the third person that the small model tags a plural noun (or leaves outside every list) right
    after a noun phrase: "SQLite enforces foreign keys out of the box", "The customer portal caps passwords at 32
    characters", "docker compose refuses to start …". Read so, the sentence's verb was part of its subject ("sqlite
    enforce foreign key", "customer portal cap password"). (A plural that is a noun too, as "charges", is the root's
    case: ``_root_taken_for_a_plural``.) Taken for the verb only where the word's base form is a verb, the words before
    it in its clause are one noun phrase, and nothing after it in its clause is a finite verb it could be the subject
    of ("Access reviews for production IAM roles run quarterly.", "Stable-channel refreshes carrying security fixes
    ship every two weeks." keep their nouns). A finite verb of a main clause before it ends the search; one in a
    leading clause ("When we collaborate on …, its Eco dyno usage counts against …") does not."""
    start, spoiled, subordinate = 0, False, False
    finite_at: int | bool | None = None       # where the clause's next finite verb is (False: none), looked up once
    for t in doc[:-1]:
        low = t.lower_
        if low in _CLAUSE_ENDS:
            start, spoiled, subordinate, finite_at = t.i + 1, False, t.is_alpha, None
            continue
        if t.lower_ in _BETWEEN_SUBJECT_AND_VERB and t.i > start and not spoiled:
            continue          # "A twelve-factor app never relies on …", "The worker also flushes …"
        k = t.i - 1
        while k > start and doc[k].lower_ in _BETWEEN_SUBJECT_AND_VERB:
            k -= 1
        # not spoiled: every word since the clause began is part of a noun phrase (or an adverb before its verb)
        if not spoiled and not subordinate and k >= start and t.i > start and t.i not in value_tok \
                and doc[k].tag_ in _PHRASE_ENDS \
                and _third_person(doc, t) and (t.tag_ == "VBZ" or _verb_base(t, verb_lemmas)):
            if finite_at is None or finite_at <= t.i:
                finite_at = _finite_after(doc, t.i)
            if finite_at is False:
                return t.i
        if t.tag_ in _FINITE_TAGS and t.pos_ in ("VERB", "AUX") and not subordinate:
            return None
        if t.tag_ not in _NOUN_PHRASE_TAGS and t.tag_ != "NNS":
            spoiled = True
    return None


# "… defines the range, and it must be at least …": a coordinated clause whose subject is the first's
# (a pronoun, or none of its own) goes on with the same statement, and its modal is the rule
_ANAPHORS = frozenset({"it", "they", "this", "these", "that", "those", "he", "she", "which"})


def _own_subject(verb) -> bool:
    return any(c.dep_ in ("nsubj", "nsubjpass", "expl") and c.lower_ not in _ANAPHORS for c in verb.children)


# a clause under the sentence's verb, or inside what it governs ("Anthropic suggests reading your current
# rate limits …" pivoted on "limits"): where a later copula, modal or verb-like word is not the statement's verb
_UNDER_THE_VERB = frozenset({"advcl", "relcl", "ccomp", "acl", "xcomp", "dobj"})


@register("normalizer.rules.v2")
class RuleNormalizerV2(RuleNormalizer):
    name = "normalizer.rules.v2"
    negation_before_pivot = True
    cut_subject_clauses = True
    quotes_are_names = True
    relative_negations_inner = True
    contrast_not_inner = True
    negated_need_lifts = True
    modal_phrases = True
    verb_negation_apart = True
    person_head_subjects = True
    action_subjects = True
    parsed = ParsedV2
    speaker_subjects = True
    max_name_tokens = 3
    location_names = True
    naming_verbs = _NAMING | {StateVerb.STORE}
    # where a thing runs, is sent through or deployed to, said only as a named place: "CI runs on
    # Jenkins" / "… on GitHub Actions", "sent through SendGrid" (not "runs nightly jobs": "run" as a
    # naming verb was measured worse)
    place_verbs = frozenset({StateVerb.RUN, StateVerb.SEND, StateVerb.DEPLOY})
    negated_bounds_turn = True
    timed_undoing = True
    finite_person_verbs = True
    kept_states = True
    pole_verbs = True
    adverbial_nouns = True
    aspect_keep = True
    adverbs_before_verb = True
    compound_participles = True
    named_people = True
    provider_subjects = True
    # "Everyone logs their daily hours …", "Anyone off sick … has to send a fit note": a rule for
    # whoever does it is about what they do (v1 read such a subject as vague, and found none)
    # "Nobody may push …", "No one may push …": a rule for no one is as much about what they do
    person_subjects = frozenset(PERSON_SUBJECTS | {"manager", "managers",
                                                   "everyone", "everybody", "anyone", "anybody", "someone", "somebody",
                                                   "nobody", "one"})
    modal_predicates = MODAL_PREDICATES | HALT_PREDICATES | V2_MODAL_PREDICATES
    predicate_infinitives = True
    action_gerunds = True
    numbered_names = True
    particles_apart = True
    modal_nouns = True
    # spaCy counts "call", "name", "part", "side" as stop words, so "Every call to the Ledger API needs …"
    # had no subject and "Branch names must …" was about "branch"; "IT" (the department) was the pronoun
    subject_stop_words = frozenset({"call", "name", "part", "side", "front", "bottom", "IT"})
    subject_degree_words = frozenset({"additional", "further", "certain", "current", "designated", "specific",
                                      "particular"})
    trim_subject_phrase = True
    domain_subjects = True
    negation_not_counted = True
    expletive_it = True
    no_object_negates = True
    nor_goes_on = True
    person_adverbs = True
    person_when_no_object = True
    counted_object_subject = True
    state_before_object = True
    setting_gerunds = True
    whole_words = True
    participle_words = True
    purpose_subjects = True
    verb_before_place = True
    event_poles = True
    code_object_subjects = True
    verbs_share_object = True
    advised_predicates = True
    releasing_subjects = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._nouns, self._verbs = lemma_index(self.nlp, "noun"), lemma_index(self.nlp, "verb")
        # the base forms listed as verbs and not as nouns: "enforce", "specify", "forget", not "ship", "cap" or "return",
        # which head plural subjects as often ("Prod RDS instances keep …" is tagged no better than "SQLite enforces
        # …"); empty where the pipeline has no such table (then ``_verb_after_its_subject`` is not looked for)
        self._only_verbs = self._verbs - self._nouns
        self.parsed = ParsedV2.with_verb_lemmas(self._only_verbs, self._verbs, self._nouns)
        self._english = english_words(self.nlp)
        self._stop_words = frozenset(getattr(self.nlp.Defaults, "stop_words", ()))
        try:
            self._opening_model: OpeningBoundary | None = OpeningBoundary.load()
        except (OSError, ValueError) as exc:
            # the hand rule alone still reads most openings; a missing model must not stop the normalizer
            logging.getLogger(__name__).warning("opening-boundary model not loaded, comma-less openings are read by "
                                                "the hand rule alone: %s", exc)
            self._opening_model = None

    @staticmethod
    def _values(text: str):
        return _typed_values(text)

    def _prepare(self, text: str):
        """(main clause, qualifiers, the sentence they were cut from — None where a short label was taken off it)."""
        said = hyphenated(sentence_case(_emphasis_label_off(text), *self._english), self._nouns, self._verbs,
                          self._stop_words)
        label = _SHORT_LABEL.match(said)
        if label is not None and (_setting_name(label.group("label"))
                                  or not (_a_sentence(said[label.end():], self._verbs, self._only_verbs)
                                          or self._tagged_a_sentence(said[label.end():]))):
            label = None
        # "Security: Pull requests to main require …", "Team convention: Start enums at iota …": a label of a few words
        # before a sentence of its own, kept as a qualifier; read with it, its words ran into the subject ("security
        # pull request"), and ``heading_label`` missed it where the sentence's verb was parsed as a noun
        sentence = said if label is None else said[label.end():]
        body = _dash_asides(_one_sentence(_stopped(_expanded(_polite_order(sentence)))))
        main, quals = split_main_clause(body)
        return (main, quals, body) if label is None else (main, (label.group("label") + ":", *quals), None)

    def _tagged_a_sentence(self, text: str) -> bool:
        """Whether the words after a label, tagged alone, have a finite verb or open with an order's verb: tagged with
        the label before them, the small model takes many a verb for a noun ("Security: Internal … traffic runs/NNS
        over plain HTTP", "… releases move/NN to …"), so ``_a_sentence``'s words missed them and the label ran into the
        subject ("security internal service-to-service traffic")."""
        doc = self._repaired(self.nlp(text))
        if any(t.tag_ in _FINITE_TAGS for t in doc) or len(doc) > 0 and doc[0].tag_ == "VB":
            return True
        # a verb the model took for the noun the sentence hangs on ("… traffic runs/NNS over plain HTTP", "… releases
        # move/NN to Active LTS"): a root that a verb's form is, with words before it and a phrase or object after
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        return root is not None and root.tag_ in ("NN", "NNS") and root.i > 0 and root.is_lower \
            and (root.lower_ in self._verbs or root.lower_.endswith("s") and root.lower_[:-1] in self._verbs) \
            and any(k.dep_ in ("prep", "dobj", "advmod", "prt") and k.i > root.i for k in root.children)

    def _repaired(self, doc):
        """``doc`` with the parse repairs applied, in order: each reads the tags and heads the ones before it left."""
        for repair in _PARSE_REPAIRS:
            doc = repair(doc, self._nouns, self._verbs) if repair is _plurals_taken_for_verbs else repair(doc)
        return doc

    def normalize_many(self, items: list[tuple[str, Scope, Window]]) -> list[Norm]:
        prepared = [self._prepare(t) for t, _, _ in items]
        n_proc = self.n_process if len(prepared) >= 20000 else 1
        docs = self.nlp.pipe([p[0] for p in prepared], batch_size=self.batch_size, n_process=n_proc)
        return [fail_open(self.name, text, s, w, lambda: self._read(doc, main, quals, body, text, s, w))
                for doc, (main, quals, body), (text, s, w) in zip(docs, prepared, items)]

    def _read(self, doc, main: str, quals, body: str | None, text: str, s: Scope, w: Window) -> Norm:
        """``body``: the sentence ``main`` and ``quals`` were cut from, where no short label was taken off it."""
        if body is not None and (ran_on := self._clause_ran_on(quals, body, doc)) is not None:
            main, quals = ran_on
            doc = self.nlp(main)
        label, advice = heading_label(doc), False
        if label is not None:
            advice = any(t.lower_ in ADVICE_LABELS for t in doc[:label])
            main, more = split_main_clause(main[doc[label].idx + 1:].strip())
            quals = (*quals, doc[:label].text, *more)
            doc = self.nlp(main)
        if (end := self._opening_end(doc)) is not None:
            # "In the local dev environment the login page is …": the opening phrase as if its comma were written
            cut, more = split_main_clause(main[:end] + "," + main[end:])
            if more:
                main, quals, doc = cut, (*quals, *more), self.nlp(cut)
        if (said := _inverted_denial(doc)) is not None:
            main, doc = said, self.nlp(said)
        doc = self._repaired(doc)
        norm = self._norm(doc, main, 0, s, w)
        if norm.modality.strength == "must" and (advice or any(_advisory(q) or _advice_label(q) for q in quals)):
            # "It is recommended that …", "Tip: …", "Ops guidance: …": advice, whatever the clause's mood
            norm = replace(norm, modality=Modality("should_not" if norm.modality.negated else "should"))
        if not norm.subject:
            norm = self._subject_of_the_condition(doc, quals, norm)
        norm = self._values_in_parentheses(text, quals, norm)
        norm = self._values_of_conditions(text, quals, norm)
        norm = self._value_of_a_leading_count(quals, self._value_of_a_span(quals, norm))
        norm = _forbidden_past_a_bound(_prohibited_beyond(_date_over_product_version(_number_of_a_product(norm, main)), main),
                                       main)
        variant, taken = None, ()
        if norm.value_kind == "region" or norm.value_kind == "version" and _BARE_VERSION.fullmatch(norm.value or ""):
            taken = (norm.value,)
            norm, variant = _variant_of_the_subject(norm, self.parsed(doc, list(self._values(main)), 0))
        if norm.subject_kind is SubjectKind.FUZZY and norm.subject and norm.value \
                and norm.subject in norm.value.lower():
            norm = replace(norm, subject_kind=SubjectKind.PRESENT)   # "one approving review is …": counted thing
        if norm.object is StateVerb.REQUIRE and norm.modality is Modality.MUST_NOT:
            norm = replace(norm, modality=Modality.MAY_NOT)   # "never need(s) X": X is not required
        variants = text_variants(text, replace(norm, qualifiers=quals))
        if variant is None:
            variant = self._region_of_the_subject(doc, main, norm)
        if variant is not None and variant not in variants:
            variants += (variant,)
        named = {n for _, n in variants}         # a region or a plan already says which ("Customers in the EU")
        variants += tuple(v for v in subject_phrases(doc, norm.subject) if v[1] not in named)
        said = tuple(x for x in (norm.value, *(v[1] for v in norm.values)) if x)
        # a phrase that names a plan or a region already read says no more ("Users on the Free or Pro plan …")
        variants += tuple(v for v in predicate_phrases(doc, said) if not named & set(v[1].split()))
        # a value made a variant names which of the subject, so no attribute comes from it
        # ("Instances in the eu-west-1 region use gp3 volumes." has no attribute, not "instance")
        skip = taken if variant is not None and norm.value is None else ()
        norm = replace(norm, attribute=self._attribute(doc, main, norm, skip), qualifiers=quals,
                       text_scope=text_scope(text, main), variants=variants, permission=read_permission(doc),
                       assignment=read_assignment(doc))
        # "No change lands without a pull request."
        norm = required_through_without(doc, defined_setting(text, norm, self._values(text)))
        stated = read_window(norm.qualifiers)       # "Until March 2026, …": when it holds, in its words
        return norm if stated is None else replace(norm, text_window=stated)

    def _values_of_conditions(self, text: str, quals, norm: Norm) -> Norm:
        """"If you're unwell for more than 7 calendar days, you need a fit note" / "A fit note is only
        needed once you've been off sick for more than 14 calendar days": the threshold a rule applies
        from sits in its condition, cut off as a qualifier, so the first statement had no value to set
        against the second's. The condition's quantities join the statement's values (never its own
        value: what the rule says stays the main clause's). A condition in parentheses is
        ``_values_in_parentheses``'s, so its quantities are not added twice."""
        found = [v for q in quals if _CONDITION.match(q) and f"({q})" not in text for v in self._values(q)
                 if v.bound is not None and v.bound.unit and v.bound.unit not in POINT_UNITS]
        if not found:
            return norm
        return replace(norm, values=(*norm.values, *((v.kind, v.text, v.bound) for v in found)))

    def _value_of_a_span(self, quals, norm: Norm) -> Norm:
        """"30 days before the trip, book your flights.", "Two releases after a deprecation is announced, the deprecated
        bits … are removed.": the span cut off first (``_LEAD_SPAN``) is when the rule applies, and where the main
        clause gives no value of its own, how long it is is the rule's value."""
        span = next((q for q in quals if _LEAD_SPAN.match(q + ", ")), None)
        if span is None or norm.value is not None:
            return norm
        v = next(iter(self._values(span)), None)
        if v is None:
            return norm
        return replace(norm, value=v.text, value_kind=v.kind, bound=v.bound, values=((v.kind, v.text, v.bound), *norm.values))

    def _value_of_a_leading_count(self, quals, norm: Norm) -> Norm:
        """"After 3 retries, the job fails.", "After 90 days, inactive accounts are disabled.": the count or span a
        leading "after"/"within"/"before" phrase gives is when the rule applies — its value, as it is where the phrase
        follows the rule ("The job fails after 3 retries." is valued 3 retries); cut off as a qualifier, the statement
        had none. Only where the main clause gives no value of its own, and not a date ("After 2025-06-01, …" is when
        the claim holds: ``stated_windows``)."""
        if norm.value is not None:
            return norm
        lead = next((q for q in quals if _LEAD_COUNT.match(q)), None)
        v = next((v for v in self._values(lead) if v.bound is not None and v.kind != "date"), None) if lead else None
        if v is None:
            return norm
        return replace(norm, value=v.text, value_kind=v.kind, bound=v.bound,
                       values=((v.kind, v.text, v.bound), *(x for x in norm.values if x[1] != v.text)))

    def _values_in_parentheses(self, text: str, quals, norm: Norm) -> Norm:
        """"a very small buffer (4096 bytes)", "at least 1 week (7 days)", "5 minutes (300 seconds)": a
        value in parentheses gives or restates the value of what it follows. Cut off with the
        parentheses, it was lost: a statement whose only value stood there had none ("uWSGI allocates a
        very small buffer (4096 bytes)" / "uWSGI's default buffer-size is 8192 bytes" went unread), and
        one that restated its value in another unit did not hold that spelling among its values."""
        found = [v for q in quals if f"({q})" in text for v in self._values(q) if v.bound is not None]
        if not found:
            return norm
        values = (*norm.values, *((v.kind, v.text, v.bound) for v in found))
        if norm.value is None and len(found) == 1:
            v = found[0]
            return replace(norm, value=v.text, value_kind=v.kind, bound=v.bound, values=values)
        return replace(norm, values=values)

    def _opening_end(self, doc) -> int | None:
        """Where a comma-less opening phrase or clause of ``doc`` ends: the hand rule's boundary where the words mark
        it, else the learned model's where the parser can read it (``opening_boundary``); None where neither finds
        one. None where the sentence opens with a denial that inverts its rule ("Under no circumstances should gifts
        be given …", ``_inverted_denial``'s): that phrase is the rule's "never", not an opening to cut off."""
        if _INVERTED.match(doc.text):
            return None
        end = opening_without_comma(doc, self._verbs)
        if end is None and self._opening_model is not None:
            end = self._opening_model.boundary(doc, self.nlp)
        return end

    def _clause_ran_on(self, quals, body: str, main_doc=None) -> tuple[str, tuple[str, ...]] | None:
        """(main clause, qualifiers) where the leading phrase or condition, written without its comma, ran on into the
        rule up to the sentence's first comma: "Whenever possible production releases should proceed automatically,
        typically after …" was read from "typically …" (no subject), "Once the sunset window has passed a deprecated
        resource may be removed even if …, …" from what followed, "When a test fails the fix goes into the production
        code, not into the test." from "not into the test" and "For a long PTO block send one Slack message to your
        manager, department head and People Partner together." from "department head …". The lead is cut where
        ``_opening_end`` finds its opening's end in it, and only where a finite verb (or an order's) comes after that
        end and either the lead is a condition with a rule's modal verb after that end, or what followed the comma
        (``main_doc``) is no clause of its own — not a word tagged a verb in it: a fragment, which no reading of the
        sentence takes for its rule (an order the small model misreads, "…, track hours spent on each client …" with
        "track" a noun, still has its participles, and its opening is not cut again). None otherwise (the parse this
        costs is spent only on those two kinds). ``body``: the sentence as cut."""
        if not quals or not body.startswith(quals[0]):
            return None
        lead = quals[0]
        modal = _CONDITION.match(lead) is not None and _RULE_MODAL.search(lead) is not None
        if not modal and not (main_doc is not None and len(main_doc) > 0
                              and not any(t.tag_.startswith("VB") or t.tag_ == "MD" for t in main_doc)):
            return None
        ldoc = self.nlp(lead)
        end = self._opening_end(ldoc)
        if end is None and not modal:
            # the lead alone may be too short to read as an opening and the clause after it ("In dev prefer": an
            # order's verb and nothing more), while the whole sentence reads so ("In dev prefer the `latest` image tag
            # …" was about "the latest image tag" with no verb, an obligation where it advises): its opening's end,
            # where that lies inside the lead
            ldoc = self.nlp(body)
            end = self._opening_end(ldoc)
            if end is None or end >= len(lead):
                return None
            ldoc = ldoc[:next((t.i for t in ldoc if t.idx >= len(lead)), len(ldoc))]
            rest = [t for t in ldoc if t.idx >= end]
            if len(rest) != 1 or rest[0].tag_ not in ("VB", "VBP"):
                return None      # only the order's verb ran into the lead ("For P0 | incidents post": a wrong place)
        if end is None:
            return None
        after = [t for t in ldoc if t.idx >= end]
        if not (any(t.tag_ in _FINITE_TAGS for t in after) or after and after[0].tag_ == "VB") \
                or modal and not _RULE_MODAL.search(lead[end:]):
            return None
        return split_main_clause(body[:end] + "," + body[end:])

    def _subject_of_the_condition(self, doc, quals, norm: Norm) -> Norm:
        """"If the server does not support sorting …, it must return 400.", "When a LiSaaS ATO is granted,
        it is limited to one year.", "Although Vue 2 has reached End of Life, it is still available …": the main
        clause's "it"/"they" is the subject of the leading condition (or concession, or cause), which the
        cut-off condition took with it, so the statement had no subject ("a statement has no subject"
        left every such pair to NLI alone). Only a pronoun that is the main clause's subject, or what its action is
        done to ("If a secret is committed, rotate it immediately …": the order's thing is the secret; it was
        "immediately"), and only a condition's own subject — a person ("If you …") is none, but where the rule acts
        on "it", the thing a person's condition names ("If you need a standing desk …, request it …": the desk)."""
        if not any(t.dep_ in ("nsubj", "nsubjpass") and t.lower_ in _BACK_PRONOUNS or pronoun_object(t) for t in doc):
            return norm
        for q in quals:
            m = _SUBJECT_CLAUSE.match(q)
            if m is None:
                continue
            cdoc = _merge_hyphenated(self.nlp(q[m.end():].strip()))     # "soft-delete" one word, as in the rule
            subj = next((t for t in cdoc if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"), None)
            if subj is not None and subj.lower_ in {"you", "we"} and any(pronoun_object(t) for t in doc):
                # "If you need a standing desk …, request it through your manager.": a person's condition, and
                # the rule acts on "it": the thing the person's condition names
                subj = next((t for t in cdoc if t.dep_ == "dobj" and t.head.dep_ == "ROOT" and t.pos_ in ("NOUN", "PROPN")),
                            None)
                if subj is None:
                    return norm
            elif subj is None or subj.lower_ in _BACK_PRONOUNS | {"you", "we", "i", "one"} | self.person_subjects:
                return norm
            words = self._subject_words(cdoc[subj.left_edge.i:subj.i + 1], set())
            return replace(norm, subject=" ".join(words), subject_kind=SubjectKind.PRESENT) if words else norm
        return norm

    def _region_of_the_subject(self, doc, main: str, norm: Norm) -> tuple[str, str] | None:
        """"Customers in the EU get 30 days to return items.": a region named before the verb, while
        the value is another (30 days), says which customers — a variant, as when the region is the
        value (``_variant_of_the_subject``). Read without it, "… in the US get 14 days" was a HIGH
        value conflict with it."""
        regions = [v for v in self._values(main) if v.kind == "region" and v.text != norm.value]
        if not regions:
            return None
        parsed = self.parsed(doc, list(self._values(main)), 0)
        if parsed.pivot is None or parsed.imperative:
            return None
        pivot = doc[parsed.pivot].idx
        for v in regions:
            if v.end <= pivot and not re.search(r"(?<![\w-])" + re.escape(v.text.lower()) + r"(?![\w-])",
                                                (norm.subject or "").lower()):
                return "region", GEOGRAPHIES.get(v.text.lower(), (v.text.lower(),))[0]
        return None

    def _attribute(self, doc, text: str, norm: Norm, skip: tuple[str, ...] = ()) -> str | None:
        # a value that is the subject itself ("Fly.io takes …") is no value of an attribute, nor is a name in code
        # that is a word of the subject ("The `master` branch is unstable …": its attribute was "literal", and
        # written without the backticks it had none)
        named = set((norm.subject or "").split())
        values, in_subject = [], set()
        for v in self._values(text):
            if v.text in skip or v.text.lower() == norm.subject:
                continue
            if v.kind == "literal" and v.text.lower() in named:
                in_subject.add(v.text.lower())
            else:
                values.append(v)
        primary = next((v for v in values if v.text == norm.value), values[0] if values else None)
        ident = _identifier(text, primary.start if primary else None,
                            (primary.start - 1, primary.end + 1) if primary else None)
        # that word in code is no setting's name either, unless written as only code writes one ("pushes to `main`")
        if ident and not (ident.lower() in in_subject and not _setting_name(ident)):
            return ident
        if norm.value_kind == "version" and norm.value and not any(v.text == norm.value for v in values):
            # a product's number made its version (``_number_of_a_product``): "React 18" is the react version
            return _version_attribute(norm.value)
        if primary is None:
            return None
        if primary.kind == "port":
            return "port"
        if primary.kind == "version":
            return _version_attribute(primary.text)
        if primary.kind == "date":
            if _DEPRECATE.search(text) or _AVAILABLE_UNTIL.search(text):
                return "deprecation date"
            if _EOS.search(text):
                return "end of support date"
            if _RELEASE.search(text):
                return "release date"
            return "date"
        unit = primary.bound.unit if primary.bound else ""
        before = [t for t in doc if t.idx + len(t) <= primary.start]
        if unit in _ACTION_NOUNS:
            # how many times, how often or on which day an action happens is an attribute of the
            # action: "retry count", "rotate frequency", "deploy day" ("Logs are rotated daily." /
            # "… archived weekly." are two)
            noun = _ACTION_NOUNS[unit]
            verb = _governing_verb(doc, primary.start)
            # a copula names no action ("Standups are on Mondays": the day, as "… happen on Mondays"), nor
            # does a verb that only says an event takes place ("Reviews happen quarterly." / "… are done
            # once a year.", "Planning is held on Tuesdays.")
            no_action = _NO_ACTION_OF_A_PERIOD if unit == "period" else _EVENT_VERBS
            return f"{verb.lemma_.lower()} {noun}" if verb is not None and verb.lemma_.lower() not in no_action \
                else noun
        after = [t for t in doc if t.idx >= primary.end]
        if len(after) >= 2 and after[0].lower_ == "of" and (after[1].pos_ in ("NOUN", "PROPN") or _adjective(after[1])):
            phrase = [t for t in after[1:4] if t.pos_ in ("NOUN", "PROPN") or _adjective(t)]
            nouns = [t for t in phrase if not _adjective(t)] or phrase
            return nouns[-1].lemma_.lower()     # "160 bits of entropy", "3 days of paid leave"
        if primary.kind == "number" and not unit and (counted := _counted_noun(before, after)) is not None:
            return counted     # "at most 10 IAM groups", "runs 4 API replicas": a count of that thing
        owner = _set_noun(doc, primary.start)
        described = _described_noun(doc, primary.start, primary.end) if owner is None else None
        if described is not None:     # "its two-week sprints", "a 12-character password": that noun, not the unit
            return described
        if unit == "time":
            # "retained for 30 days", "issued within 5 business days": the verb names what is measured,
            # and the noun nearest before the value is its object ("stores a message … for 3 days")
            named = duration_attribute(doc, primary.start, primary.end)
            if named is not None:
                return named
        for t in reversed(before):          # the noun this value is said of, within its own phrase
            if t.pos_ == "VERB":
                break
            if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in _UNIT_WORDS and t.lower_ not in PERSON_SUBJECTS \
                    and not t.like_num and primary.start - (t.idx + len(t)) < 40 and any(c.isalpha() for c in t.text):
                if owner is not None and owner.left_edge.i <= t.i <= owner.right_edge.i:
                    # within the set noun's own phrase ("the recovery point objective for the warehouse": not
                    # the warehouse; the set noun itself is named below, with its compounds)
                    break
                return _noun_name(t)
        if owner is not None:
            return _noun_name(owner)
        return (unit if unit != ANY_UNIT else None) or primary.kind


# a reference entry: a setting's name, a colon, then what it does ("gc.auto: when there are approximately more than
# this many loose objects …, and the default value is 6700.", "LoginGraceTime: the server disconnects after this
# time …; if the value is 0 there is no time limit, and the default is 120 seconds.")
_DEFINED_SETTING = re.compile(r"^`?(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)`?:\s")
_DEFAULT_GIVEN = re.compile(r"\b(?:the\s+|its\s+)?default(?:\s+value)?\s+is\s+|\bdefaults\s+to\s+", re.IGNORECASE)


def _setting_name(word: str) -> bool:
    """A name only code writes: dotted, with an underscore, or with a capital inside ("gc.auto", "max_connections",
    "LoginGraceTime") — not a heading word ("Note:", "Exception:")."""
    return "." in word or "_" in word.strip("_") or bool(re.search(r"[a-z][A-Z]", word))


def defined_setting(text: str, norm: Norm, values) -> Norm:
    """A reference entry's default is the value of the setting it defines. Why: read as prose, the value was the
    nearest one to another name ("git gc --auto will pack them, and the default value is 6700" valued --auto) or
    one in a condition ("if the value is 0 there is no time limit", "if it is set to true"), so the entry and a
    note that names the setting ("Git's built-in gc.auto threshold is 10,000 loose objects") were two settings,
    or one setting valued by its condition against the other's default."""
    m = _DEFINED_SETTING.match(text)
    if m is None or not _setting_name(m.group("name")):
        return norm
    d = next((d for d in _DEFAULT_GIVEN.finditer(text) if d.start() > m.end()), None)
    v = next((v for v in values if d is not None and 0 <= v.start - d.end() <= 2), None)
    if v is None:
        return norm
    name = m.group("name")
    have = tuple(x for x in norm.values if x[1] != v.text)
    return replace(norm, subject=name, subject_kind=SubjectKind.PRESENT, value=v.text, value_kind=v.kind, bound=v.bound,
                   values=((v.kind, v.text, v.bound), *have), attribute=name.lower())


def _adjective(t) -> bool:
    """An adjective, or a participle the parser calls a verb ("paid" in "3 days of paid leave")."""
    return t.pos_ == "ADJ" or t.pos_ == "VERB" and t.dep_ == "amod"


# verbs that give a setting its value: "X is set / limited / capped to V", "set / raise X to V"
_SETTING_VERBS = frozenset({"set", "configure", "limit", "cap", "fix", "default", "raise", "lower", "increase",
                            "decrease", "reduce", "extend", "change", "adjust", "restrict", "throttle"})


def _set_noun(doc, char: int):
    """The noun whose value the value at ``char`` is, where the clause says so: the subject of "is"
    ("The recovery point objective for the warehouse is 24 hours"), of a passive setting verb ("The
    request timeout is set by default to 5 minutes") or the object of an active one ("set the
    retention period for … queues to 14 days"). Why: the noun nearest before the value is often the
    thing the setting belongs to ("warehouse", "queues"), and a verb between them hid the setting
    altogether; RPO and RTO of one warehouse then read as one attribute."""
    verb = _governing_verb(doc, char)
    if verb is None:
        return None
    lemma = verb.lemma_.lower()
    deps: tuple[str, ...] = ()
    if lemma == "be":
        deps = ("nsubj",)
    elif lemma in _SETTING_VERBS:
        deps = ("nsubjpass", "dobj")
    noun = next((c for c in verb.children if c.dep_ in deps), None)
    if noun is None or noun.pos_ != "NOUN" or noun.lower_ in _UNIT_WORDS or noun.lower_ in PERSON_SUBJECTS \
            or noun.idx >= char:
        return None
    return noun


# nouns that only place a span in time; with a noun before them they name one ("a 2-hour maintenance window")
_TIME_POSITIONS = frozenset({"mark", "point", "stage", "time", "period", "span", "window", "interval", "stretch"})
# a number and its unit joined into one modifier: "30-second", "two-week", "1,000-hour", "10-GB"
_AS_MODIFIER = re.compile(r"(?:\d[\d,.]*|" + one_of(w for w in WORD_NUMBERS if " " not in w) + r")\s?-\s?[a-z]+", re.IGNORECASE)


# units a count is written in that the value reader leaves apart ("32 random bytes", "10,000 km", "10,000 RPS", "200 OK")
_COUNT_UNITS = frozenset({"byte", "bytes", "bit", "bits", "km", "mi", "px", "rps", "rpm", "qps", "ok"})
_NOT_COUNTED = _UNIT_WORDS | _COUNT_UNITS | PERSON_SUBJECTS | _RECIPIENTS     # a unit, or people: no counted thing


def _counted_noun(before: list, after: list) -> str | None:
    """The noun a bare count is of, written right after it ("at most 10 IAM groups", "4 API replicas", "50 active
    preview deployments"): the attribute is that noun, not a name or a person nearer before the number ("An IAM
    user can be a member of at most 10 IAM groups" took "iam"). Not a number that ends a product's name ("a personal
    Windows 11 laptop"), nor a count of people ("two finance managers": who, not what). ``before`` and ``after``: the
    statement's tokens either side of the number."""
    if before and before[-1].is_alpha and before[-1].text[:1].isupper() and before[-1].i > 0:
        return None
    head = None
    for t in after[:4]:
        if t.pos_ in ("NOUN", "PROPN") or _adjective(t):
            head = t if t.pos_ == "NOUN" else head
            continue
        break
    if head is None or not head.is_alpha or {head.lower_, head.lemma_.lower()} & _NOT_COUNTED:
        return None
    return _noun_name(head)


def _described_noun(doc, start: int, end: int) -> str | None:
    """The name of the noun a value written as its modifier describes ("a 30-second execution limit", "its
    two-week sprints", "a 12-character password", "a 10-GB storage quota"): the attribute is that noun's,
    not the unit's ("time", "characters", "bytes")."""
    if _AS_MODIFIER.fullmatch(doc.text[start:end]) is None:
        return None
    # the value's last token: the unit ("30 - second") or the whole value where the parse joined it ("30-second")
    tok = next((t for t in reversed(doc) if t.idx < end and t.idx + len(t) > start), None)
    if tok is None or tok.dep_ not in ("amod", "compound", "nmod") or tok.head.pos_ != "NOUN" or tok.head.idx < end:
        return None
    name = _noun_name(tok.head, after=end)
    # a bare "mark" or "window" (no compound before it): only when, no attribute of anything ("at the six-month mark")
    return None if name in _TIME_POSITIONS else name


def _noun_name(noun, after: int = 0) -> str:
    """A noun with its common-noun compounds ("request timeout", "authorization reuse period"); names
    of things ("Cloud Run") and adjectives ("maximum") are not part of what is measured, nor is anything
    before character ``after`` (the value a described noun is given: "two-week" of "its two-week sprints")."""
    words = [c.lower_ for c in noun.subtree
             if c.i < noun.i and c.idx >= after and c.pos_ == "NOUN" and _compound_of(c, noun.i)]
    return " ".join([*words, noun.lemma_.lower()])


def _compound_of(tok, top: int) -> bool:
    """Whether ``tok`` reaches the token at index ``top`` through compound links alone."""
    while tok.i != top:
        if tok.dep_ != "compound" or tok.head.i == tok.i:
            return False
        tok = tok.head
    return True


def _version_attribute(version: str) -> str:
    """"Python 3.12" is the python version; a version without its product ("3.12", "v2") is a version."""
    product = re.sub(r"[\d.+\s]+$", "", version_base(version)).strip().lower()
    return f"{product} version" if product and product != "v" else "version"


_NOT_A_NAME = frozenset({"PRON", "ADP", "ADV", "X", "NUM", "PUNCT", "DET", "CCONJ", "SCONJ", "PART", "INTJ", "SYM"})


def _code_names(doc):
    """A word alone between backticks is a name in code ("`ssl_protocols` is set to TLSv1.3", "The
    `Retry-After` header …"), whatever the small model tags it: as a pronoun it made the statement a
    speaker's with no subject, as a preposition ("Retry-After" merged with "After"'s tag) it ended the
    subject phrase before its head. Written without backticks, the same words were read right."""
    for t in doc:
        if (0 < t.i < len(doc) - 1 and doc[t.i - 1].text == "`" and doc[t.i + 1].text == "`"
                or _DOTTED_NAME.fullmatch(t.text)) and t.pos_ in _NOT_A_NAME and any(c.isalpha() for c in t.text):
            # a dotted name in code ("Set linuxParameters.sharedMemorySize to 512"): tagged punctuation, the order
            # had no object and the statement no subject
            t.pos_, t.tag_ = "PROPN", "NNP"
    return doc


_DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def _order_before_a_determiner(doc) -> bool:
    """"Harden the bastion host, …", "Provision the small config container at 100 RU/s …", "Page the on-call
    overnight …": a first word the small model tags a noun, right before "the"/"a"/"your"/…, opens an order (no
    noun stands so before a determiner; a gerund does, "Creating a new public repository requires …", and stays
    a statement's subject). With no modal and no finite "be" in the sentence, as for ``_order_taken_for_a_noun``."""
    d = doc
    if len(d) < 3 or not d[0].is_alpha or not d[0].text[:1].isupper() or d[0].lower_.endswith("ing") \
            or d[0].tag_ not in ("NN", "NNP", "VB", "VBP") or d[1].lower_ not in _DETERMINERS:
        return False
    return _no_statement_verb(d)


def _no_statement_verb(doc) -> bool:
    """No modal, and no finite "be" outside a relative or adverbial clause: what a statement has and an order lacks."""
    return not any(t.tag_ == "MD" or t.lemma_.lower() == "be" and t.tag_ in ("VBZ", "VBP", "VBD")
                   and t.dep_ not in ("relcl", "advcl") for t in doc)


def _order_verb(doc):
    """An order's first word that the small model tagged a noun ("Harden the bastion host", "Provision the small
    config container …") tagged the verb it is (``_order_before_a_determiner``), so every reader skips it
    as the order's verb: read as a noun, it was the first word of the subject ("harden bastion host")."""
    if _order_before_a_determiner(doc) and doc[0].tag_ != "VB":
        doc[0].tag_, doc[0].pos_ = "VB", "VERB"
    return doc


def _fixed_lemmas(doc):
    """The small model's wrong lemmas (``rules._LEMMA_FIX``: "retries" → "retrie", "cookies" → "cooky") put
    right on the tokens, so every reader sees them, not only the subject's: "Retries" and "the retry
    limit" were "retrie" and "retry", two words to the comparator."""
    for t in doc:
        if _JOINED.fullmatch(t.text):
            t.lemma_ = t.text.lower().split("-")[0] + " request"       # "pull-requests" (``_ONE_NOUN``)
        elif (fixed := fixed_lemma(t)) != t.lemma_.lower():
            t.lemma_ = fixed
        elif _ACRONYM_PLURAL.fullmatch(t.text):
            # "APIs", "SDKs", "CAs": an acronym's plural, whatever the tag ("APIs shall not …" tagged it a name
            # and kept "apis", where "APIs must not …" gave "api")
            t.lemma_ = t.text[:-1]
    return doc


_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")
_JOINED = re.compile(r"(?:pull|merge)-requests?", re.IGNORECASE)


_QUANTITY_DEGREES = frozenset({"more", "most", "less", "least", "fewer", "fewest"})


def _degrees_as_written(doc):
    """A comparative or superlative that modifies a noun keeps its own word: "the latest release" is
    not "the late release", and the small model takes "ingest" for a superlative ("ingest pipeline"
    became "ing pipeline"). The quantity words ("more", "fewer") keep their lemma."""
    for t in doc:
        if t.tag_ in ("JJS", "JJR") and t.dep_ in ("amod", "compound", "nmod") and t.lower_ not in _QUANTITY_DEGREES \
                and t.head.pos_ in ("NOUN", "PROPN") and not (t.i + 1 < len(doc) and doc[t.i + 1].lower_ == "than"):
            t.lemma_ = t.lower_          # "files larger than 2 GB" compares: the bound readers see to it
    return doc


def _hyphenated_as_modifiers(doc):
    """"on-call stipend", "built-in": a merged hyphenated word whose first part is a preposition or
    adverb modifies the noun after it; left as ADP it would end the subject phrase before its head."""
    for t in doc:
        if "-" not in t.text:
            continue
        if t.pos_ in ("ADP", "ADV", "VERB") and t.i + 1 < len(doc) and doc[t.i + 1].pos_ in ("NOUN", "PROPN"):
            t.pos_, t.tag_ = "ADJ", "JJ"
        elif t.pos_ == "ADP" and t.text.rsplit("-", 1)[1].isalpha():
            # "On-call for the Web team covers business hours only.": the merged word took its first part's tag
            # (the preposition "On"), so the statement had no subject; a compound's last part is its head
            t.pos_, t.tag_ = "NOUN", "NN"
    return doc


def _governing_verb(doc, char: int):
    """The verb the value at ``char`` hangs from ("retries … three times" → retry)."""
    tok = next((t for t in doc if t.idx <= char < t.idx + len(t) or t.idx >= char), None)
    seen = 0
    while tok is not None and seen < 8:
        if tok.pos_ in ("VERB", "AUX") and tok.dep_ not in ("amod", "acl"):
            return tok
        if tok.head.i == tok.i:
            break
        tok, seen = tok.head, seen + 1
    return None


_BARE_VERSION = re.compile(r"v\d+(?:\.\d+)*", re.IGNORECASE)


def _variant_of_the_subject(norm: Norm, parsed) -> tuple[Norm, tuple[str, str] | None]:
    """"Instances in the eu-west-1 region use gp3 volumes" says what instances of one region use, and
    "The v1 endpoint returns XML." what one version of the endpoint returns: a region or a bare
    version named before the statement's verb (the pivot the norm was read at), beside a subject
    that is not that name itself, says which of its subject the statement is about — a variant (the
    second item returned) — not its value. Read as the value, two such statements about two regions
    were one subject with two values ("'instance' is eu-west-1 … us-east-1": HIGH)."""
    if not norm.value or not norm.subject or norm.value.lower() in norm.subject.lower() \
            or parsed.pivot is None or parsed.imperative:
        return norm, None
    before = parsed.doc.text[:parsed.doc[parsed.pivot].idx]
    if norm.value.lower() not in before.lower():
        return norm, None
    if norm.value_kind == "region":
        return replace(norm, value=None, value_kind=None, bound=None), ("region", norm.value.lower())
    # a bare version counts only right before the subject's own noun ("the v1 endpoint", "v2 clients"),
    # not inside a path ("/v1/coupons") or before another word ("On gateway v10 the bot")
    head = (norm.subject.split() or [""])[-1]
    if not head:
        return norm, None
    m = re.search(r"(?<![\w/.-])" + re.escape(norm.value) + r"\s+([A-Za-z][\w-]*)", before, re.IGNORECASE)
    if m is None or m.group(1).lower() not in (head, head + "s", head + "es"):
        return norm, None
    return replace(norm, value=None, value_kind=None, bound=None), (f"{head} version", norm.value.lower().lstrip("v"))


_NOT_PRODUCTS = frozenset(m.lower() for m in (*calendar.month_name[1:], *calendar.month_abbr[1:], *calendar.day_name,
                                               "Sept", "The", "A", "An", "Our", "All", "Only", "Each", "Every",
                                               # a level or a numbered part, not a product ("Sev 3", "Tier 2", "Phase 1")
                                               "Sev", "Severity", "Priority", "Level", "Tier", "Phase", "Stage", "Step",
                                               "Grade", "Category", "Class", "Section", "Chapter", "Article", "Page"))


_PLATFORM_VERSION_IS = re.compile(r"\b(?P<platform>" + PLATFORMS + r")\s+version\s+(?:is|of)\s+(?P<n>\d+(?:\.\d+)*)\b",
                                  re.IGNORECASE)


def _number_of_a_product(norm: Norm, text: str) -> Norm:
    """"The frontend is built with React 18." / "… must meet WCAG 2.1 AA.": a bare number right after a
    capitalised name is that name's version. Read as a number alone ("18", "2.1") the two were one
    subject's two values, a HIGH value conflict; as "React 18" and "WCAG 2.1" they are two products'
    versions and are not compared, while "React 18" / "React 17" still are. Not a month or a day
    ("December 28"), and not the text's first word (a numbered name, "Shard 4 …")."""
    if norm.value_kind != "number" or norm.bound is None or norm.bound.unit or not norm.value \
            or not re.fullmatch(r"\d+(?:\.\d+)*", norm.value):
        return norm
    if (p := _PLATFORM_VERSION_IS.search(text)) is not None and p.group("n") == norm.value:
        # "The minimum supported iOS version is 15." against "The app supports iOS 14 and later.": the platform's
        # release, a floor where it is the least supported, as the other's version reads it
        floor = " or later" if norm.bound.op == "ge" else ""
        return replace(norm, value=f"{p.group('platform')} {norm.value}{floor}", value_kind="version", bound=None)
    m = re.search(r"(?<![\w.-])([A-Z][A-Za-z]*[A-Za-z])\s+" + re.escape(norm.value) + r"(?![\w%+-]|\.\d)", text)
    if m is None or m.start() == len(text) - len(text.lstrip(" \"'([")) or m.group(1).lower() in _NOT_PRODUCTS:
        return norm
    return replace(norm, value=f"{m.group(1)} {norm.value}", value_kind="version", bound=None)


def _date_over_product_version(norm: Norm) -> Norm:
    """"Node 18 reached end of life on 2025-04-30" is about a date of Node 18: when the primary value
    is a version and a date is also stated, the date is the value."""
    if norm.value_kind != "version":
        return norm
    date = next(((k, t, b) for k, t, b in norm.values if k == "date"), None)
    if date is None:
        return norm
    return replace(norm, value=date[1], value_kind="date", bound=date[2])


# the prohibition said in words, not by a verb of refusal or disapproval: "rejects any request larger than
# 512 KiB" is already an upper bound (``typed_values._rejected_beyond``), and "Chasing coverage above 80 %
# is discouraged" advises, it sets no bound
_PROHIBITED = {Modality.MUST_NOT: Modality.MUST, Modality.SHOULD_NOT: Modality.SHOULD}


_MAY_NOT_BEFORE = re.compile(r"\b(?:may|might|can)\s*not\b|\bcan['’]t\b", re.IGNORECASE)


def _forbidden_past_a_bound(norm: Norm, text: str) -> Norm:
    """"The item cannot exceed 2 MB.", "may not exceed 2 MB": the "not" is the bound's (at most 2 MB), and what
    is left is no permission but a limit — must, as "must not exceed" and "can't exceed" were read. Read as
    "may: at most 2 MB", "cannot exceed" and "can't exceed" disagreed on the modality of one rule."""
    b = norm.bound
    if norm.modality is not Modality.MAY or b is None or b.op not in ("le", "ge") or not norm.value:
        return norm
    at = text.find(norm.value)
    if at < 0 or not _MAY_NOT_BEFORE.search(text, max(0, at - 40), at):
        return norm
    return replace(norm, modality=Modality.MUST)


def _prohibited_beyond(norm: Norm, text: str) -> Norm:
    """"No workday may exceed 10 hours.", "Nobody may work more than 40 hours a week.", "Meetings should
    not run longer than an hour.": to forbid going past an amount is to require staying within it — must,
    at most 10 hours. Read as a prohibition of "at least 10 hours", the rule met "A workday can last 12
    hours." as an opposing modality on another aspect (clean), not as 12 hours against at most 10. "must
    not exceed" was already read this way (its "not" is the bound's); this is the prohibition said by
    "no", "never" or "should not" elsewhere in the clause, before the value. Only where the comparison
    word stands right before the value: "no more than 3" is an upper bound whose "no" is its own, not
    the rule's."""
    to = _PROHIBITED.get(norm.modality)
    b = norm.bound
    if to is None or b is None or b.op not in ("ge", "le") or b.unit in POINT_UNITS or b.unit == ANY_UNIT \
            or not norm.value:
        return norm
    at = text.find(norm.value)
    # a comparison word just before the value ("… may exceed" 10 hours) or opening it ("more than 40 hours"):
    # the words ``typed_values`` reads a refused amount by
    if at < 0 or not (_COMPARED_BEFORE.search(text, max(0, at - 30), at) or _COMPARED_START.match(norm.value)) \
            or not NEGATION_WORD.search(text, 0, at) or _OP_NOT.search(text, max(0, at - 30), at):
        # the last: "no less than 1.5 times" — the "no" is the comparison's own, the bound already reads it
        return norm
    flipped = replace(b, op="le" if b.op == "ge" else "ge")
    values = tuple((k, t, flipped if t == norm.value and bb == b else bb) for k, t, bb in norm.values)
    return replace(norm, modality=to, bound=flipped, values=values)


def _marks_as_punctuation(doc):
    """A backtick is the mark of code around a name or a value, whatever the small model tags it: before "30s" it
    was a plural noun and after "100" a number, and so a word of what the statement says ("`" its theme and one of
    its terms); around a name it is punctuation already. So is a full stop: after a short unit ("within 5 min.") the
    small model tagged it a name, and "." became a word of the subject ("acknowledge alert .")."""
    for t in doc:
        if t.pos_ != "PUNCT" and (set(t.text) == {"`"} or t.text in (".", ";", ",")):
            t.pos_, t.tag_ = "PUNCT", "``" if t.text[0] == "`" else t.text
    return doc


# the small model's misreadings put right on the statement's own Doc before it is read, in this order
_PARSE_REPAIRS = (_marks_as_punctuation, _merge_hyphenated, _department_taken_for_a_pronoun, _noun_taken_for_a_second_verb,
                  _noun_taken_for_an_auxiliary,
                  _degree_taken_for_a_subject, _plurals_taken_for_verbs, _acronyms_taken_for_plurals, _nouns_taken_for_verbs,
                  _subjects_taken_for_verbs, _code_names, _hyphenated_as_modifiers, _degrees_as_written, _fixed_lemmas,
                  _order_verb)
