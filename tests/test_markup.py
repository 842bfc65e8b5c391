"""A statement copied out of a document reads as the statement: its markup is no part of what it says."""
import subprocess
import sys

import pytest

from guard.claims import Scope, Window, comparison_text
from guard.markup import plain_statement


@pytest.mark.parametrize("text, plain", [
    ("- Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("* Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("\u2022 Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("3. Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("12) Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("(b) Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("## Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("> - [x] Prod deploys need two approvals.", "Prod deploys need two approvals."),
    ("Prod deploys **must not** skip review.", "Prod deploys must not skip review."),
    ("Prod deploys *never* skip review.", "Prod deploys never skip review."),
    ("Follow [the release runbook](https://wiki.example.com/runbook) for prod.", "Follow the release runbook for prod."),
    ("Keys are rotated every 90 days.[2]", "Keys are rotated every 90 days."),
    ("Keys are rotated as the policy[3] says.", "Keys are rotated as the policy[3] says."),   # an index, kept
    ("Keys are rotated per the policy[3].", "Keys are rotated per the policy."),
    ("Amazon SNS doesn\u2019t retry the delivery.", "Amazon SNS doesn't retry the delivery."),
    ("\u201cNo deploys on Friday\u201d is the rule.", '"No deploys on Friday" is the rule.'),
    ("\u26a0\ufe0f Never deploy on Fridays.", "Never deploy on Fridays."),
    (":warning: Never deploy on Fridays.", "Never deploy on Fridays."),
    ("\u2705 - Deploys need two approvals.", "Deploys need two approvals."),
    ("Rule 4.2: Indent Python code with 4 spaces.", "Indent Python code with 4 spaces."),
    ("Section 3 \u2014 Deploys need two approvals.", "Deploys need two approvals."),
    ("No change lands w/o a pull request.", "No change lands without a pull request."),
    ("Makefile recipes are indented w/ tabs.", "Makefile recipes are indented with tabs."),
    ("Logs & metrics are kept for 30 days.", "Logs and metrics are kept for 30 days."),
    # a specification's key words and a stressed word in capitals, in a cased statement
    ("Clients MUST NOT retry a 4xx response.", "Clients must not retry a 4xx response."),
    ("All commits to the `master` branch SHOULD be signed.", "All commits to the `master` branch should be signed."),
    ("MUST be signed by two officers.", "Must be signed by two officers."),
    ("Do NOT deploy on Fridays; ONLY hotfixes are allowed.", "Do not deploy on Fridays; only hotfixes are allowed."),
    ("The API MAY return 429 when REQUIRED headers are missing.", "The API may return 429 when required headers are missing."),
    ("iOS apps MUST pin certificates.", "iOS apps must pin certificates."),
    # a compound usually written closed, with its hyphen
    ("Only company.com e-mail addresses may sign up.", "Only company.com email addresses may sign up."),
    ("E-mails, back-ups and set-up notes are kept; re-used tokens and time-outs are logged.",
     "Emails, backups and setup notes are kept; reused tokens and timeouts are logged."),
])
def test_a_document_s_markup_comes_off(text, plain):
    assert plain_statement(text) == plain


@pytest.mark.parametrize("text", [
    "Call `**kwargs` only from `__init__`.",            # code spans keep every character
    "The *.example.com wildcard certificate is approved.",
    "Each worker waits 5 * 60 seconds.",
    "The setting __init__ stays as written.",            # underscores name things
    "items[1] is the first item.",
    "2.5 GB is the limit.",
    "-v turns on verbose output.",                       # a flag, not a bullet
    "-",
    "",
    "Rule 4 applies to every repository.",             # a rule named, no label
    "Keys rotate \u2192 yearly.",                       # a symbol inside the statement is its own
    "\u2b50",
    "R&D and AT&T keep their ampersands.",
    "See https://example.com/w/o/abc for the form.",    # a path is no shorthand
    "Call `a & b` in code.",
    "The `MUST` flag and the `ONLY_ONCE` mode are set.",   # a key word in code, or part of a name
    "NOT_FOUND is returned for a missing key.",
    "Send the X-MUST-REVALIDATE header.",
    "The freeze starts on MAY 4.",                       # the month
    "IT support answers within 4 hours.",
    "Use `e-mail` as the key; the log-in-page and check-in desk stay.",   # in code, a longer compound, another word
    "The on-call engineer owns the back-end.",
])
def test_what_is_no_markup_stays(text):
    assert plain_statement(text) == text


def test_the_guard_reads_the_plain_statement_and_stores_the_text_as_written(store):
    """The stored claim keeps what the user wrote; the stages read it plain."""
    res = store.remember("- Deploys **need** two approvals.[1]")
    assert res.stored
    assert store.list()[0].text == "- Deploys **need** two approvals.[1]"
    assert comparison_text("- Deploys **need** two approvals.[1]") == "Deploys need two approvals."


@pytest.mark.parametrize("marked", [
    "- Amazon SNS doesn\u2019t retry a delivery that fails with a client-side error.",
    "3. Amazon SNS **doesn't** retry a delivery that fails with a client-side error.[4]",
    "> * Amazon SNS *doesn\u2019t* retry a delivery that fails with a client-side error.",
    "\u26a0\ufe0f Rule 12: Amazon SNS doesn't retry a delivery that fails with a client-side error.",
])
def test_a_marked_up_statement_reads_as_the_plain_one(normalizer_v2, marked):
    """A typographic apostrophe made "doesn\u2019t" no negation (the tagger knows "doesn't"), so the rule read as an
    obligation; a bullet became part of the subject, a list number the statement's value."""
    from guard.pipeline import Guard, GuardConfig
    guard = Guard(GuardConfig(stages=("structural",)), normalizer=normalizer_v2)
    plain = guard.normalize("Amazon SNS doesn't retry a delivery that fails with a client-side error.", Scope(), Window())
    n = guard.normalize(marked, Scope(), Window())
    assert (n.modality, n.subject, n.object, n.value) == (plain.modality, plain.subject, plain.object, plain.value)
    assert n.modality.negated


@pytest.mark.parametrize("plain", [
    "All commits to the `master` branch should be cryptographically signed.",
    "All production deploys must go through the Thursday release train, and hotfixes need a second approver.",
    "API-only endpoints should disable HTTP altogether and only support encrypted connections.",
    "Under no circumstances should gifts be given to government officials.",
    "Every HAProxy config we ship should set ulimit-n explicitly in the global section.",
    "Security may scan our Auth0 tenant endpoints without prior approval from Auth0.",
])
def test_a_rule_with_its_key_words_in_capitals_reads_as_written_plainly(normalizer_v2, plain):
    """The tagger took "MUST" and "SHOULD" for names: 18 of 726 bench and gold statements so written read of another
    subject ("commit" became "branch"), 4 of another modality ("should only" an obligation, "should not" "should")."""
    import re

    from guard.pipeline import Guard, GuardConfig
    guard = Guard(GuardConfig(stages=("structural",)), normalizer=normalizer_v2)
    shouted = re.sub(r"\b(must|should|may|not|only|never)\b", lambda m: m.group(1).upper(), plain)
    a, b = (guard.normalize(t, Scope(), Window()) for t in (plain, shouted))
    assert shouted != plain
    assert (b.modality, b.subject, b.object, b.value, b.bound) == (a.modality, a.subject, a.object, a.value, a.bound)


def test_a_hyphenated_compound_is_the_closed_one(normalizer_v2):
    """"company.com e-mail addresses" read as another subject than "company.com email addresses", and the two statements
    conflicted ("kept to …, yet … may too"): 79 of 184 bench and gold statements with such a compound hyphenated read
    of another subject (``guard bench invariance``, "closed compound -> hyphen")."""
    from guard.compare import StructuralComparator, VerdictKind
    from guard.pipeline import Guard, GuardConfig
    guard = Guard(GuardConfig(stages=("structural",)), normalizer=normalizer_v2)
    plain, hyphened = ("Only company.com email addresses may sign up.", "Only company.com e-mail addresses may sign up.")
    a, b = (guard.normalize(t, Scope(), Window()) for t in (plain, hyphened))
    assert (a.subject, a.modality, a.value) == (b.subject, b.modality, b.value)
    verdict = StructuralComparator().compare(a, comparison_text(plain), b, comparison_text(hyphened))
    assert verdict.kind not in (VerdictKind.CONTRADICTION, VerdictKind.VALUE_CONFLICT, VerdictKind.TENSION)


def test_a_marked_up_conflict_is_still_blocked(store):
    assert store.remember("Deploys need two approvals.").stored
    res = store.remember("- Deploys need **one** approval.[1]")
    assert not res.stored and res.decision.tier.value == "block"


def test_markup_on_hostile_text_ends_at_once():
    """Every pattern is bounded: runs of asterisks, brackets and link halves cost linear time."""
    code = ("from guard.markup import plain_statement as p\n"
            "for t in ['*' * 2000, '**a' * 666, '*a ' * 666, '[' * 2000, '[a](' * 500, '[a](http://' * 180,\n"
            "          '- ' * 1000, '1. ' * 666, '.[1]' * 500, '`' * 2000, '**' + 'a' * 1998, '\u26a0' * 2000,\n"
            "          'Rule 1.' * 285, ':a:' * 666, 'a' + ' ' * 100000 + 'b', ':' + 'a' * 30 + ' ' * 100000 + '.',\n"
            "          '\"' + 'a' * 50000 + '\"x', '[' * 50000 + 'x', '\u2705 ' * 20000 + 'x']:\n"
            "    p(t)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 0, r.stderr[-500:]


@pytest.mark.parametrize("text, plain", [
    ("[Security] Delete idle Pub/Sub subscriptions.", "Delete idle Pub/Sub subscriptions."),
    ("[RFC][infra] Deploys need two approvals.", "Deploys need two approvals."),
    ("- [WIP] Deploys need two approvals.", "Deploys need two approvals."),
    # an environment's tag is where the statement holds
    ("[prod] Debug logging is enabled.", "In production, debug logging is enabled."),
    ("[STAGING] The API listens on 8443.", "In staging, the API listens on 8443."),
    ("Deploys need two approvals. \u2705", "Deploys need two approvals."),
    ("Never deploy on Fridays :no_entry: :fire:", "Never deploy on Fridays"),
    ('"Never deploy on Fridays."', "Never deploy on Fridays."),
    ('\u201cNever deploy on Fridays\u201d.', "Never deploy on Fridays."),
    ("'Deploys need two approvals.'", "Deploys need two approvals."),
    ("Deploys need two approvals;", "Deploys need two approvals."),
    ("Deploys need two approvals,", "Deploys need two approvals."),
])
def test_a_note_s_tags_icons_quotes_and_list_stops_come_off(text, plain):
    assert plain_statement(text) == plain


@pytest.mark.parametrize("text, plain", [
    ("[The runbook](https://example.com/runbook) says to page twice.", "The runbook says to page twice."),   # a link
    ('"main" is the default branch.', '"main" is the default branch.'),    # a quoted word, not a quoted statement
    ("'Don't' is a contraction of do not.", "'Don't' is a contraction of do not."),
    ('Use "main" as the default branch.', 'Use "main" as the default branch.'),
    ("\u2705", "\u2705"),                                                  # an icon alone is all there is
    ("[1, 2, 3] are the allowed retry counts.", "[1, 2, 3] are the allowed retry counts."),   # a list, not a tag
])
def test_what_only_looks_like_a_tag_or_a_quote_stays(text, plain):
    assert plain_statement(text) == plain


def test_an_environment_tag_scopes_the_statement(normalizer_v2):
    from guard.claims import Scope, Window, comparison_text
    from guard.compare import StructuralComparator, VerdictKind
    a, b = comparison_text("[prod] Debug logging is disabled."), comparison_text("[dev] Debug logging is enabled.")
    na, nb = normalizer_v2.normalize(a, Scope(), Window()), normalizer_v2.normalize(b, Scope(), Window())
    assert (na.text_scope.env, nb.text_scope.env) == ("prod", "dev")
    assert StructuralComparator().compare(na, a, nb, b).kind is VerdictKind.COEXIST
