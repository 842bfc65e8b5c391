"""Where an opening phrase or clause written without its comma ends ("In the local dev environment the login page is
served over plain HTTP", "After the emergency is resolved you should look over …").

Why: the main clause is found by the comma after an opening phrase (``rules_v2.split_main_clause``), and notes often
leave it out. Read whole, the small model runs the phrase into the subject ("local dev environment login page",
"fy2025 professional development allowance") or takes the phrase's noun for it ("emergency"): of 399 meaning-preserving
rewrites of the bench's statements that drop such a comma, 277 changed the subject (``guard bench invariance``, families
"opening phrase comma off" and "opening clause comma off"; 198 now). Where the words themselves mark the boundary — a
new noun phrase's determiner or a subject pronoun after the phrase's last word, a name or a code identifier right before
its verb, an order's first word, a noun phrase and its verb after a passive's last word, a clause cut short ("Unless
customized …") — the comma is put back; elsewhere ("During the holiday freeze releases are paused") the words do not say
where the phrase ends, and ``normalizer.rules.v2`` asks the learned model (``opening_boundary``), which puts the comma
back where its best-ranked places parse as an opening and a main clause (this rule's hand-picked cues: few false
places, many misses).
"""
from __future__ import annotations

# words that open a new noun phrase: after a noun, a number or an adverb they start the main clause
_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "their", "its", "this", "these", "those", "each", "every", "all",
                          "no", "any", "some", "most", "many", "my", "his", "her"})
# pronouns only a subject takes; "you" and "it" are a subject only before a verb ("you should", "it is")
_NOMINATIVE = frozenset({"we", "they", "i", "he", "she", "there"})
_SUBJECT_BEFORE_A_VERB = frozenset({"you", "it"})
# tags a phrase's last word has: a noun, a number, an adverb, an adjective after its noun, a closing bracket
_PHRASE_ENDS = frozenset({"NN", "NNS", "NNP", "NNPS", "CD", "RB", "RBR", "VBN", "JJ", "NFP", "-RRB-"})
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_VERBS = frozenset({"VBZ", "VBP", "VBD", "VBN", "VB", "RP"})
_BE = frozenset({"is", "are", "was", "were", "been", "being", "be", "'s", "'re"})
# adverbs that belong to what comes after them ("then a PATCH call …") or to the verb before ("sends back an etag")
_NOT_AN_END = frozenset({"not", "also", "only", "just", "even", "then", "so", "back", "out", "up", "down", "off", "away",
                         "over", "around"})
# words that stand before a determiner inside one noun phrase ("such a change", "half the time", "quite a few")
_BEFORE_A_DETERMINER = frozenset({"such", "half", "quite", "rather", "worth", "many", "what", "all", "both", "double",
                                  "twice"})
# openers that are a quantity, not a phrase ("At least two approvals are required")
_QUANTITIES = frozenset({"at least", "at most", "up to", "more than", "less than", "no more", "no less", "fewer than",
                         "as many", "as much"})
# openers of a clause, which has a finite verb of its own before the main clause starts
_CLAUSE_OPENERS = frozenset({"if", "when", "unless", "once", "whenever", "while", "where", "because", "although", "though",
                             "after", "before", "until", "since", "as", "whereas"})
_NOT_OPENERS = frozenset({"that", "whether", "than", "like", "of"})


def opening_without_comma(doc, verbs: frozenset[str] = frozenset()) -> int | None:
    """The character offset where a comma-less opening phrase or clause of ``doc`` ends, or None. A preposition or a
    subordinating word first; the boundary is the first place where the main clause's first word follows a phrase's
    last word — a determiner, a subject pronoun, a name or a code identifier before its verb, an order's verb — before
    the phrase could have ended (a prepositional phrase has no finite verb, a clause one).
    ``verbs``: the base forms the lemmatizer lists as verbs (an order's first word must be one; none: not looked for)."""
    if len(doc) < 5 or doc[0].tag_ not in ("IN", "WRB") or doc[0].lower_ in _NOT_OPENERS \
            or doc[:2].text.lower() in _QUANTITIES:
        return None
    # a clause has a verb of its own, unless it is cut short ("Unless customized …", "Where applicable …", "If using
    # the Fargate launch type …"): then it ends as a phrase does
    short = _cut_short(doc)
    clause = doc[0].lower_ in _CLAUSE_OPENERS
    own_verbs = 1 if clause and short is None else 0
    if clause and short is not None and (end := _short_clause_end(doc, short)) is not None:
        return _boundary(doc, end, 0, 0)
    finite, passive, aside_end = 0, False, 0
    for i in range(1, min(len(doc) - 3, 30)):
        if i < aside_end:
            continue                        # inside a bracketed aside: its verbs are not the clause's
        word, after = doc[i], doc[i + 1]
        if word.text == "(":
            # "If the user does not specify page_size (or specifies 0) the API chooses …": an aside, skipped whole;
            # its closing bracket ends the phrase where the main clause's first word follows it
            aside_end = next((j for j in range(i + 1, min(len(doc) - 2, i + 20)) if doc[j].text == ")"), 0)
            if not aside_end:
                return None
            continue
        if word.tag_ in _FINITE:
            finite += 1
            if finite > own_verbs:          # past the opener's own verb: the main clause's, so no boundary was seen
                return None
        passive = passive or _be(word)
        if word.is_punct and word.tag_ not in ("NFP", "-RRB-") and not _inside_a_word(word) \
                or after.is_punct and not _inside_a_word(after) and after.text != "(":
            return None                     # a comma or other stop of its own: the phrase is marked, or not one
        if clause and finite >= own_verbs and after.lower_ == "then" and after.tag_ == "RB":
            return _boundary(doc, i, finite, own_verbs)     # "If … UPSERT then a PATCH call …": "then" opens the rule
        if clause and finite >= own_verbs and word.tag_ == "CC":
            own_verbs += 1                  # "If a failure occurs and no postmortem is written …": two conditions
        w = after.lower_
        lower = after.text == w or after.text == "I"            # "IT" (the team) is no pronoun
        subject = lower and (w in _NOMINATIVE or w in _SUBJECT_BEFORE_A_VERB and doc[i + 2].tag_ in _FINITE)
        # a name in code ("page_size", "max_connections") is a noun whatever its tag (the small model tags some verbs)
        code = "_" in word.text.strip("_")
        if word.tag_ in _VERBS and not code:
            # a clause's verb, then its main clause's subject ("… ends we'll buy …", "… is resolved you should …");
            # "you"/"it" after an active verb is its object ("When you see it it is …" is too rare to guess)
            if subject and not (w in _SUBJECT_BEFORE_A_VERB and word.tag_ not in ("VBN", "RP")):
                return _boundary(doc, i, finite, own_verbs)
            if word.tag_ != "VBN" or not passive:
                continue                    # an active verb's object follows ("… set their new password")
        if word.tag_ not in _PHRASE_ENDS and not code or word.lower_ in _NOT_AN_END:
            continue
        if subject or lower and w in _DETERMINERS and word.lower_ not in _BEFORE_A_DETERMINER \
                and doc[i + 2].tag_ != "HYPH" \
                or not own_verbs and _an_order_starts(doc, i + 1, verbs) or _a_name_then_its_verb(doc, i) \
                or _an_identifier_then_its_verb(doc, i) or passive and _a_noun_phrase_then_its_verb(doc, i):
            return _boundary(doc, i, finite, own_verbs)
    return None


# subordinators that are never a preposition ("After parental leave …" is a phrase, "Unless customized …" a clause)
_ONLY_SUBORDINATORS = frozenset({"if", "when", "unless", "once", "whenever", "while", "where", "wherever", "although",
                                 "though"})
# adjectives a clause cut short is ("Where applicable", "If possible", "When in doubt" aside)
_SHORT_CLAUSE_ADJECTIVES = frozenset({"possible", "applicable", "necessary", "needed", "appropriate", "available",
                                      "feasible", "practical", "relevant", "unsure", "ready", "unavailable", "idle"})


def _short_word(t) -> bool:
    """A participle or a listed adjective, written as one (the small model tags names and settings adjectives:
    "If requiretty is set …", "When Angular ships …")."""
    if not t.is_alpha or not t.is_lower:
        return False
    return t.tag_ == "VBN" and t.lower_.endswith(("ed", "en", "wn", "ne", "lt", "pt", "et", "ut")) \
        or t.lower_ in _SHORT_CLAUSE_ADJECTIVES or t.tag_ == "VBG" and t.lower_.endswith("ing")


def _cut_short(doc) -> int | None:
    """The index of the participle, adjective or gerund a clause cut short has right after its subordinator ("Unless
    customized …", "Where applicable …", "If using the Fargate launch type …", after an adverb: "Unless otherwise
    specified …"): such a clause has no finite verb to wait for before its end. None for any other opening."""
    if doc[0].lower_ not in _ONLY_SUBORDINATORS:
        return None
    i = 1 if doc[1].tag_ != "RB" else 2
    return i if _short_word(doc[i]) else None


def _short_clause_end(doc, i: int) -> int | None:
    """The last token of a clause that is the one participle or adjective at ``i`` ("Unless customized Netlify functions
    deploy …", "Whenever possible production releases should …", "Unless configured otherwise git rerere gc forgets …"),
    or None where more follows it (a preposition, an object) or it is a gerund, which takes an object."""
    if doc[i].tag_ == "VBG":
        return None
    if doc[i + 1].lower_ == "otherwise":
        i += 1
    nxt = doc[i + 1]
    if nxt.is_punct or nxt.tag_ in ("IN", "TO", "RB", "RP", "CC") or nxt.lower_ in _DETERMINERS:
        return None
    return i


def _an_identifier_then_its_verb(doc, i: int) -> bool:
    """A noun or a number, then a name only code writes and a finite verb: the name is the main clause's subject ("In the
    Payments API request_id should be …", "In the Returns API is_gift may be null …")."""
    word, name = doc[i], doc[i + 1]
    return word.tag_ in ("NN", "NNS", "NNP", "NNPS", "CD") and any(c in name.text.strip("_") for c in "_.") \
        and name.text[:1].isalpha() and doc[i + 2].tag_ in _FINITE


def _a_noun_phrase_then_its_verb(doc, i: int) -> bool:
    """After a passive or a copula's last word ("If rootpw is set sudo will prompt …", "If the global maxconn value is not
    set HAProxy calculates …", "When the disk is full writes fail"), a noun phrase and a finite verb: that phrase is the
    main clause's subject, for the clause's own verb has had its complement."""
    if doc[i].tag_ not in ("VBN", "JJ") or not (_be(doc[i - 1]) or doc[i - 1].tag_ == "RB"):
        return False        # not said of the clause's subject ("… in the deleted state cannot …": the state's)
    j = i + 1
    while j < len(doc) and (doc[j].tag_ in ("NN", "NNS", "NNP", "NNPS", "JJ", "CD", "HYPH")):
        j += 1
    return j > i + 1 and j < len(doc) and doc[j].tag_ in _FINITE and doc[j - 1].tag_ in ("NN", "NNS", "NNP", "NNPS")


# words that open an order after the phrase ("For runtime changes please include …", "During an incident call do not
# perform …", "If pre-commit fails always implement …", "For the new tool let's skip …")
_ORDER_OPENERS = frozenset({"please", "always", "never", "kindly"})


def _an_order_starts(doc, j: int, verbs: frozenset[str]) -> bool:
    """Whether an order starts at token ``j``, right after a noun: a verb in its base form ("During incidents prefer
    reversible actions.", "For legacy systems … use a work factor of 10") — one the lemmatizer knows as a verb ("For a
    reasonable email address length the local part …": "length" was tagged one) — or a word that opens an order. Only
    after a prepositional phrase: after a clause, a plural and a base form are the main clause's subject and verb
    ("Unless org policy says otherwise new GCS buckets keep …")."""
    first, second = doc[j], doc[j + 1]
    noun = doc[j - 1]
    if noun.tag_ not in ("NN", "NNS") or not noun.text.islower():
        return False            # after a name, the verb's word is more often a compound's ("the new FAS pay memo")
    w = first.lower_
    return first.tag_ == "VB" and w != "be" and first.lemma_.lower() in verbs or w in _ORDER_OPENERS and second.tag_ in ("VB", "VBP") \
        or w == "do" and second.lower_ in ("not", "n't") or w == "let" and second.lower_ == "'s"


def _a_name_then_its_verb(doc, i: int) -> bool:
    """A lower-case noun (or a number, or a closing bracket), then a name and a finite verb: the name is the main
    clause's subject ("In a container environment AWS recommends …", "For stopped Fly Machines Fly charges …")."""
    word = doc[i]
    if not (word.tag_ in ("NN", "NNS") and word.text.islower() or word.tag_ in ("CD", "-RRB-")):
        return False
    j = i + 1
    while j < len(doc) and doc[j].tag_ in ("NNP", "NNPS") and doc[j].text[:1].isupper():
        j += 1
    return j > i + 1 and j < len(doc) and doc[j].tag_ in _FINITE


def _inside_a_word(t) -> bool:
    """A hyphen or a dot with no space on either side ("audit-log", "Mail.Read"): part of a word, not a stop."""
    return t.i > 0 and not t.doc[t.i - 1].whitespace_ and not t.whitespace_ and t.i + 1 < len(t.doc)


def _be(t) -> bool:
    return t.lower_ in _BE and t.tag_ != "POS"          # not the possessive "'s"


def _boundary(doc, i: int, finite: int, own_verbs: int) -> int | None:
    """The end of token ``i`` if a clause opener has had its verb and a verb is left for the main clause."""
    if finite < own_verbs or not a_verb_after(doc, i):
        return None
    return doc[i].idx + len(doc[i])


def a_verb_after(doc, i: int) -> bool:
    """Whether a finite verb or a base form follows token ``i``: a main clause's verb, were the phrase to end there."""
    return any(t.tag_ in _FINITE or t.tag_ == "VB" for t in doc[i + 1:])
