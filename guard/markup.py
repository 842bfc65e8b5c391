"""A statement as written in a document, without the document's markup (and a note's shorthand written out).

Why: the claims people bring are copied out of handbooks, wikis, READMEs and chat, so they arrive as list
items ("- Prod deploys need two approvals.", "3. …", "Rule 4.2: …"), behind an icon ("⚠️ Never …", ":warning: …"),
with Markdown emphasis ("**must not**"), links ("see [the runbook](https://…)"), footnote markers ("…within 24
hours.[2]"), typographic quotes ("doesn’t"), a note-taker's shorthand ("w/o approval", "logs & metrics"), or
written all in capitals ("NEVER DEPLOY ON FRIDAYS.") or with a specification's key words in capitals ("Clients MUST NOT
retry …", "do NOT deploy …").
None of that changes what the statement says, but the normalizer read it as words (``guard bench invariance``, each
of the 2,883 bench and gold statements against its marked-up copy, v2 at session 78's start): a leading "- " changed
the subject of 877, "3. " the subject of 1,774 and the value of 1,736 (a number as the value), an icon the subject
of 2,839, a footnote marker the value of 1,429, and a typographic apostrophe the modality of 38 of 375 ("Amazon SNS
doesn’t retry …" was an obligation: "doesn’t" is no negation to the tagger) — 237 conflicts of a statement with its
own copy in all, 7 now. The text a claim is stored with stays as written; this is only the form the stages read
(``claims.comparison_text``).

What is left alone: code spans (`` `**kwargs` ``, `` `__init__` ``), underscores (identifiers use them), a lone
asterisk ("*.example.com", "5 * 60"), and brackets that index ("items[1] is …"). Every pattern is bounded, so a
hostile text costs linear time.
"""
from __future__ import annotations

import re

# typographic quotes and primes to the ASCII the tagger and the value patterns know
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"'})
# a Slack shortcode for an emoji (":warning:", ":white_check_mark:")
_SHORTCODE = r":[a-z0-9_+-]{1,40}:"
# what opens a line of a document and is no word of the statement: a heading's hashes, a quote's ">", a list
# item's bullet, number or letter, a task box ("- [x] ")
_LINE_MARKUP = re.compile(r"^(?:#{1,6}|>|[-*+\u2022\u2023\u25e6\u25aa\u25cf\u2043]|\d{1,3}[.)]|\(\d{1,3}\)"
                          r"|\(?(?:[a-z]|[ivx]{1,4})\)|\[[ xX]\]|" + _SHORTCODE +
                          # a numbered rule's label: "Rule 4.2:", "Section 3 —", "§ 12"
                          r"|(?:rule|section|policy|requirement|control|clause|article|step)[ \t]+\d{1,3}(?:\.\d{1,3}){0,3}[a-z]?"
                          r"[ \t]*[:.)\u2014\u2013-]|\u00a7[ \t]*\d{1,3}(?:\.\d{1,3}){0,3}[ \t]*[:.)\u2014\u2013-]?)[ \t]+",
                          re.IGNORECASE)
# a pictograph or other symbol that opens a line ("\u26a0\ufe0f Never …", "\u2705 …"): an icon, not a word
_ONE_ICON = r"[\u2190-\u2bff\u2600-\u27bf\U0001f000-\U0001faff][\ufe0e\ufe0f]?"
_ICON = re.compile(r"^(?:" + _ONE_ICON + r"[ \t]*){1,4}")
CODE_SPAN = re.compile(r"(`[^`]*`)")
# Markdown strong and emphasis around words: "**must not**", "*never*"; not "*.example.com" nor "5 * 60"
_STRONG = re.compile(r"\*\*(?=\S)([^*\n]{1,300}?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]{1,300}?)(?<=[^\s*])\*(?![\w*])")
# a Markdown link: its words stay, its address goes
_LINK = re.compile(r"\[([^\[\]\n]{1,300})\]\((?:https?://|mailto:|/|#|\.\.?/)[^()\s]{0,500}\)")
# the shorthand of notes, written out: "w/o" without, "w/" with, "&" and ("No deploys w/o approval": read as
# words of a subject, "w/o" made 9 statements conflict with themselves, "w/" 8)
_SHORTHAND = ((re.compile(r"(?<![\w/])w/o(?![\w/])", re.IGNORECASE), "without"),
              (re.compile(r"(?<![\w/])w/(?=\s)", re.IGNORECASE), "with"),
              (re.compile(r"(?<=\s)&(?=\s)"), "and"))
# a compound usually written closed, written with its hyphen ("e-mail", "set-up", "back-up", "log-in"): read closed, as
# the bench and gold statements write every one of them ("email" 101 times, "e-mail" never), so "company.com e-mail
# addresses" is what "company.com email addresses" is (79 of 184 statements so rewritten read of another subject, and
# two conflicted with themselves: ``guard bench invariance``, "closed compound -> hyphen")
CLOSED_COMPOUNDS = ("e-mail", "re-use", "web-hook", "on-boarding", "off-boarding", "set-up", "log-in", "back-up",
                    "time-out", "web-site", "sub-domain", "co-worker")
_CLOSED_COMPOUND = re.compile(r"(?<![\w./@-])(?:" + "|".join(map(re.escape, CLOSED_COMPOUNDS)) +
                              r")(?=(?:s|d|ed|ing)?(?![\w/@-]))", re.IGNORECASE)


# a footnote marker after a stop ("… 24 hours.[2] Next …"), or after a word and before a stop or the end ("… the
# policy[3].", "… RS256[1]."); an index a word runs into with more words after it stays ("items[1] is the first")
_FOOTNOTE = re.compile(r"(?<=[.,;:!?)'\"])\[\d{1,3}\](?=[\s.,;:!?]|$)|(?<=\S)\[\d{1,3}\](?=[.,;:!?]|$)")


def _shouted(t: str) -> bool:
    """A statement written all in capitals ("NEVER DEPLOY ON FRIDAYS."): the tagger reads every word as a name, so
    1,240 of 2,769 statements so written had another subject (310 now: names' capitals are lost). The NLI model is
    uncased and never saw the difference."""
    outside = CODE_SPAN.sub(" ", t)
    letters = [c for c in outside if c.isalpha()]
    return len(letters) >= 8 and len(outside.split()) >= 3 and not any(c.islower() for c in letters)


# a specification's key words (RFC 2119: "MUST NOT", "SHALL", "SHOULD", "MAY", "REQUIRED", "RECOMMENDED", "OPTIONAL")
# and a word stressed in capitals ("do NOT deploy", "NEVER share", "ONLY on Fridays") in an otherwise cased statement:
# the tagger took "MUST" and "SHOULD" for names, so 18 of the 726 statements of the bench and gold files with their
# modals so written read of another subject and 4 of another modality ("All commits to the `master` branch SHOULD be
# …" was about "branch"; ``guard bench invariance``, "modal in capitals"). "MAY" before a day or a year is the month.
_KEY_WORD = re.compile(r"(?<![\w`-])(?:MUST|SHALL|SHOULD|MAY(?![ \t]+\d)|NOT|NEVER|ALWAYS|ONLY|CANNOT|REQUIRED|RECOMMENDED"
                       r"|OPTIONAL)(?![\w`-])")


def _key_words_lowered(t: str) -> str:
    if not any(c.islower() for c in t):
        return t
    parts = CODE_SPAN.split(t)
    return "".join(p if i % 2 else _KEY_WORD.sub(lambda m: m.group(0).lower(), p) for i, p in enumerate(parts))


# a tag in brackets before a note ("[Security] Rotate keys …", "[prod] Debug logging is on.", "[RFC][infra] …"): a word
# first, no comma (not "[1, 2, 3] are the allowed ports"), not a Markdown link ("[the runbook](…)") nor a task box
# (``_LINE_MARKUP``)
_TAG = re.compile(r"^\[(?P<tag>[A-Za-z][\w &/.+-]{0,29})\](?!\()[ \t]*")
# an environment's tag is where the note holds ("[prod] …" is "In prod, …"), which the normalizer reads as the claim's
# scope in the prose; any other tag is a label
_ENV_TAGS = {"prod": "production", "production": "production", "staging": "staging", "stage": "staging",
             "dev": "development", "development": "development", "qa": "QA", "sandbox": "the sandbox",
             "test": "test", "testing": "test"}
# an icon or a Slack shortcode after the statement ("… two approvals. \u2705", "… :white_check_mark:")
_TRAILING_ICON = re.compile(r"(?:[ \t]*(?:" + _ONE_ICON + "|" + _SHORTCODE + r")){1,4}[ \t]*$")
# a statement quoted whole ('"Never deploy on Fridays."', "'Deploys need two approvals'."), its stop in or out
_QUOTED = re.compile(r'^(?P<q>["\'])(?P<body>[^"\n]{3,}?)(?P<stop>[.!?]?)(?P=q)(?P<after>[.!?]?)$')


def _tag_off(t: str) -> str | None:
    """``t`` without its leading tag, an environment's tag written as where the statement holds; None if it has none."""
    m = _TAG.match(t)
    if m is None or m.end() >= len(t):
        return None
    rest, env = t[m.end():], _ENV_TAGS.get(m.group("tag").strip().lower())
    if env is None:
        return rest
    return f"In {env}, {rest[:1].lower() + rest[1:] if rest[:2].istitle() else rest}"


def _unquoted(t: str) -> str:
    """A statement quoted whole, without its quotes (a quote inside it, or an apostrophe in a single-quoted one, leaves
    it as it is: "'Don't' is …" opens a quotation, not a quoted statement)."""
    m = _QUOTED.match(t)
    if m is None or m.group("q") == "'" and "'" in m.group("body"):
        return t
    return m.group("body") + (m.group("stop") or m.group("after"))


def plain_statement(text: str) -> str:
    """``text`` without the markup of the document it came from (the module's docstring says which)."""
    if not text:
        return text
    t = text.translate(_QUOTES)
    if _shouted(t):
        parts = CODE_SPAN.split(t)
        t = "".join(p if i % 2 else p.lower() for i, p in enumerate(parts))
        t = t[:1].upper() + t[1:]
    elif _KEY_WORD.search(t) is not None:
        lowered = _key_words_lowered(t)
        t = lowered[:1].upper() + lowered[1:] if t[:1].isupper() else lowered
    for _ in range(4):                       # "- 1. …", "> - \u26a0\ufe0f …": a few levels at most
        m = _LINE_MARKUP.match(t) or _ICON.match(t)
        if m is not None and m.group(0) and m.end() < len(t):
            t = t[m.end():]
        elif (untagged := _tag_off(t)) is not None:
            t = untagged
        else:
            break
    tail = len(t) - min(len(t), 200)        # looked for in the last characters only: a run of spaces costs linear time
    if (m := _TRAILING_ICON.search(t, tail)) is not None and m.start() > 0:
        t = t[:m.start()]
    t = _unquoted(t)
    if t[-1:] in (";", ",") and len(t) > 1:
        t = t[:-1] + "."                     # a list item's own stop ("- Deploys need two approvals;")
    if "-" in t and _CLOSED_COMPOUND.search(t) is not None:
        parts = CODE_SPAN.split(t)
        t = "".join(p if i % 2 else _CLOSED_COMPOUND.sub(lambda m: m.group(0).replace("-", ""), p)
                    for i, p in enumerate(parts))
    if not any(c in t for c in "*[]/&"):
        return t
    parts = CODE_SPAN.split(t)
    for i in range(0, len(parts), 2):        # the even parts are outside code spans
        p = _STRONG.sub(r"\1", parts[i])
        p = _EMPHASIS.sub(r"\1", p)
        p = _LINK.sub(r"\1", p)
        for pattern, words in _SHORTHAND:
            p = pattern.sub(words, p)
        parts[i] = p
    return _FOOTNOTE.sub("", "".join(parts))


# a label that only asks for attention ("Note:", "IMPORTANT:", "Heads-up:"), before a statement of a few words
ATTENTION_LABEL = re.compile(r"^(?:please\s+note|note|n\.?b\.?|important|reminder|remember|warning|caution|attention|fyi"
                             r"|psa|heads[- ]up|tl;\s?dr|tldr)\s*:\s+(?=\S+\s+\S+\s+\S)", re.IGNORECASE)


def attention_label_off(text: str) -> str:
    """"Note: No root containers.", "IMPORTANT: …", "Heads-up: …": the statement after the label. The normalizer's
    ``heading_label`` takes a label off only before a clause with a finite verb (so that "Retry-After: 30" keeps its
    value), and the small model often tags none (".NET major versions ship every September" has "ship" a base form):
    146 of 2,883 statements read with "Note: " before them had "note" in their subject; the NLI model, read so, moved
    20 of claims_dev's 320 pairs from block to warn (``model_text``)."""
    m = ATTENTION_LABEL.match(text)
    return text if m is None else text[m.end():]
