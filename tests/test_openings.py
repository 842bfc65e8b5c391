"""An opening phrase or clause written without its comma (guard.normalize.openings), read by normalizer.rules.v2 as it
reads the statement with the comma, with the real spaCy model."""
import pytest

from guard.claims import Scope, Window
from guard.normalize.openings import opening_without_comma


def norm(n, text):
    return n.normalize(text, Scope(), Window())


def reading(n):
    def read(text):
        x = norm(n, text)
        return x.subject, x.modality, x.object, x.value, x.bound, x.attribute
    return read


@pytest.mark.parametrize("with_comma", [
    "In the local dev environment, the login page is served over plain HTTP on port 8080.",
    "From FY2025, the professional development allowance is $1,500 per teammate per fiscal year.",
    "After the emergency is resolved, you should look over the emergency CLs again.",
    "For most teams, the default retention is 30 days.",
    "In a container environment, AWS recommends that you set the IMDS hop limit to 2.",
    "On our Enterprise Okta org, the /api/v1/apps create/list limit is 600.",
    "For a Cloud Run request timeout longer than 15 minutes, Google recommends implementing retries.",
    "During an incident call, do not perform any actions unless the Incident Commander has told you to.",
    "For runtime changes, please include benchmarks if possible.",
    "In the Payments API, request_id should be a required field on CreatePayment.",
    "If rootpw is set, sudo will prompt for the root password.",
    "If the global maxconn value is not set, HAProxy calculates it from the file descriptor limit.",
    "Unless customized, Netlify functions deploy to the cmh region.",
    "Whenever possible, production releases should proceed automatically.",
    "Unless configured otherwise, git rerere gc forgets resolved conflict records after 60 days.",
    "While conducting a security test of your own application, it is not permitted to test Auth0 infrastructure.",
    "If you are alerted out of hours, you can claim 0.25 days of TOIL.",
    # a hyphen or a dot inside a word is no stop of the phrase's own; "then" opens the rule; two conditions
    "If the audit-log sink is unreachable, the payments API must fail closed.",
    "When the token lacks the Mail.Read permission, the API returns 403 Forbidden.",
    "If a service does not support UPSERT, then a PATCH call against a missing resource must return 409.",
    "If a failure occurs and no postmortem is written, the work is considered incomplete.",
    # an aside in brackets inside the clause, a name in code the small model tags a verb
    "If the user does not specify page_size (or specifies 0), the API chooses an appropriate default.",
    "In the local dev environment (the laptop stack), the login page is served over plain HTTP.",
    # a condition that ran on into the rule up to the sentence's first comma
    "Whenever possible, production releases should proceed automatically, typically after 24 hours open.",
])
def test_a_statement_without_its_opening_comma_reads_as_with_it(normalizer_v2, with_comma):
    without = with_comma.replace(",", "", 1)
    read = reading(normalizer_v2)
    assert read(without) == read(with_comma)


@pytest.mark.parametrize("text, phrase", [
    ("In the local dev environment the login page is served on port 8080.", "In the local dev environment"),
    ("After the emergency is resolved you should look over the CLs again.", "After the emergency is resolved"),
    ("For such a change we need two approvals.", "For such a change"),       # "such a change" is one phrase
    ("Once they have set their new password the user should log in.", "Once they have set their new password"),
    ("If PORT is left undefined the HTTP server listens on port 8080.", "If PORT is left undefined"),
    ("Where applicable Wikimedia DC shall use the approved government rates.", "Where applicable"),
    ("If the audit-log sink is unreachable the payments API fails closed.", "If the audit-log sink is unreachable"),
    ("If a service does not support UPSERT then a PATCH call must return 409.", "If a service does not support UPSERT"),
    ("If the build fails (rarely) the deploy stops.", "If the build fails (rarely)"),
    ("If you are not comfortable presenting at the quarterly all-hands you should ask your manager.",
     "If you are not comfortable presenting at the quarterly all-hands"),       # "all-hands" one word: "you should" opens
    ("If a failure occurs and no postmortem is written the work is incomplete.",
     "If a failure occurs and no postmortem is written"),
])
def test_the_phrase_ends_where_the_main_clause_begins(normalizer_v2, text, phrase):
    assert text[:opening_without_comma(normalizer_v2.nlp(text), normalizer_v2._verbs)] == phrase


@pytest.mark.parametrize("text", [
    "At least two approvals are required before merging.",            # a quantity, not a phrase
    "During the holiday freeze releases are paused.",                  # the words do not say where the phrase ends
    "When the Eco pool runs dry before the hackathon ends we'll buy more.",   # a clause inside the clause
    "When Angular ships a minor release applications must bump their dependencies.",   # "ships" may take an object
    "When Key Vault purge protection is on a vault in the deleted state cannot be purged.",   # "the deleted state"
    "Per Twilio's current limits OTP messages can sit in the queue.",    # "'s" is no "is"
    "Deploys need two approvals in production.",                       # no opening phrase
    "In production, the API listens on 8443.",                         # its comma is written
    "If the build fails - which is rare - the deploy stops.",          # a dash set off by spaces is a stop
    "If the build fails (see the runbook the deploy stops.",           # a bracket never closed
])
def test_no_boundary_is_guessed_where_the_words_do_not_mark_one(normalizer_v2, text):
    assert opening_without_comma(normalizer_v2.nlp(text), normalizer_v2._verbs) is None


def test_the_statement_is_stored_as_written_and_its_phrase_kept_as_a_qualifier(normalizer_v2):
    x = norm(normalizer_v2, "In the local dev environment the login page is served over plain HTTP on port 8080.")
    assert x.subject == "login page"
    assert "In the local dev environment" in x.qualifiers
