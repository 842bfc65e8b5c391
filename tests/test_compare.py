import pytest

from guard.claims import Bound, Claim, Scope, StateVerb, Window, comparison_text
from guard.compare import (Confidence, StructuralComparator, SubjectMatch, VerdictKind, bounds_conflict,
                           opposition, subject_match)
from guard.claims import Modality as M


def verdict(normalizer, a, b, sa=None, sb=None, wa=None, wb=None):
    sa, sb = Scope.from_dict(sa), Scope.from_dict(sb)
    wa, wb = Window.parse(*(wa or (None, None))), Window.parse(*(wb or (None, None)))
    na, nb = normalizer.normalize(a, sa, wa), normalizer.normalize(b, sb, wb)
    return StructuralComparator().compare(na, a, nb, b)


def test_rejects_vs_supports_is_a_contradiction(normalizer):
    v = verdict(normalizer, "X rejects null keys.", "X supports null keys.")
    assert v.kind is VerdictKind.CONTRADICTION and v.confidence is Confidence.HIGH


def test_blue_vs_red_canary_is_a_value_conflict(normalizer):
    v = verdict(normalizer, "Deploys must use a blue canary.", "Deploys must use a red canary.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH


def test_same_value_is_consistent(normalizer):
    v = verdict(normalizer, "The API listens on port 8443.", "The API listens on port 8443 in every region.")
    assert v.kind is VerdictKind.CONSISTENT


def test_disjoint_scope_coexists(normalizer):
    v = verdict(normalizer, "Debug logging is enabled.", "Debug logging is disabled.", {"env": "dev"}, {"env": "prod"})
    assert v.kind is VerdictKind.COEXIST
    v = verdict(normalizer, "Debug logging is enabled.", "Debug logging is disabled.", {"env": "dev"}, None)
    assert v.kind is VerdictKind.CONTRADICTION   # an unscoped claim applies in dev too


def test_disjoint_windows_coexist(normalizer):
    v = verdict(normalizer, "Pull requests require 1 approval.", "Pull requests require 2 approvals.",
                wa=("2023-01-01", "2024-12-31"), wb=("2025-01-01", None))
    assert v.kind is VerdictKind.COEXIST
    v = verdict(normalizer, "Pull requests require 1 approval.", "Pull requests require 2 approvals.",
                wa=("2023-01-01", "2025-01-01"), wb=("2025-01-01", None))
    assert v.kind is VerdictKind.VALUE_CONFLICT  # windows are inclusive: they share a day


def test_disjoint_windows_coexist_even_without_a_subject(normalizer_v2):
    """"Our Plus store's GraphQL Admin bucket now restores at 1,000 points per second." has no subject
    the normalizer reads; against a statement valid before it, the pair was "incomparable" and the gate
    judged it (a warn), though claims valid at different times never conflict."""
    v = verdict(normalizer_v2, "The Shopify GraphQL Admin API rate limit is 50 points/second.",
                "Our Plus store's GraphQL Admin bucket now restores at 1,000 points per second.",
                wa=("2023-01-01", "2024-12-31"), wb=("2025-01-01", None))
    assert v.kind is VerdictKind.COEXIST and v.confidence is Confidence.HIGH, v


def test_missing_subject_is_incomparable(normalizer):
    v = verdict(normalizer, "Be careful.", "Privileged containers are not allowed.")
    assert v.kind is VerdictKind.INCOMPARABLE


def test_disjoint_scopes_coexist_even_without_a_subject(normalizer):
    """Scope is checked first: a pair in two teams' scopes coexists whatever its texts are, so it
    never reaches a gate that could block it (an unreadable subject used to send it there)."""
    v = verdict(normalizer, "Be careful.", "Privileged containers are not allowed.", {"team": "a"}, {"team": "b"})
    assert v.kind is VerdictKind.COEXIST and v.confidence is Confidence.HIGH


def test_a_component_that_requires_something_is_the_subject(normalizer_v2):
    """"orders-api-1 requires TLS 1.2" is about the component; "AWS requires MFA" is said by AWS."""
    from guard.claims import SubjectKind
    n = normalizer_v2.normalize_many([("The orders-api-1 requires TLS 1.2.", Scope(), Window())])[0]
    assert n.subject == "orders-api-1" and n.subject_kind is SubjectKind.PRESENT and n.value == "TLS 1.2"
    aws = normalizer_v2.normalize_many([("AWS requires MFA for the root user.", Scope(), Window())])[0]
    assert aws.subject == "mfa"


def test_should_vs_should_not_is_tension(normalizer):
    v = verdict(normalizer, "Services should use gRPC.", "Services should not use gRPC.")
    assert v.kind is VerdictKind.TENSION


def test_different_subjects_are_not_compared(normalizer):
    v = verdict(normalizer, "Debug logs are retained for 5 days.", "Audit logs are retained for 365 days.")
    assert v.kind not in (VerdictKind.CONTRADICTION, VerdictKind.VALUE_CONFLICT)


def test_two_permissions_coexist_unless_one_is_exclusive(normalizer):
    v = verdict(normalizer, "Users with example.com addresses may sign up.", "Users with acme.io addresses may sign up.")
    assert v.kind is VerdictKind.CONSISTENT
    v = verdict(normalizer, "Only users with example.com addresses may sign up.",
                "Users with acme.io addresses may sign up.")
    assert v.kind is VerdictKind.VALUE_CONFLICT


def test_a_value_not_in_the_text_never_blocks():
    from guard.claims import Norm, SubjectKind
    a = Norm(M.MUST, "api", value="8443", value_kind="port", subject_kind=SubjectKind.PRESENT)
    b = Norm(M.MUST, "api", value="9443", value_kind="port", subject_kind=SubjectKind.PRESENT)
    v = StructuralComparator().compare(a, "The API listens on port 8443.", b, "The API listens on its usual port.")
    assert v.kind is VerdictKind.UNCERTAIN and v.confidence is Confidence.LOW


@pytest.mark.parametrize("a, b, conflict", [
    (Bound("le", 30, "t"), Bound("ge", 60, "t"), True),
    (Bound("le", 60, "t"), Bound("ge", 30, "t"), False),
    (Bound("ge", 80, "%"), Bound("eq", 60, "%"), True),
    (Bound("ge", 80, "%"), Bound("eq", 90, "%"), False),
    (Bound("le", 72, "c"), Bound("le", 100, "c"), True),
    (Bound("eq", 5, "d"), Bound("eq", 5, "d"), False),
    (Bound("eq", 5, "d"), Bound("eq", 5, "x"), False),
])
def test_bounds_conflict(a, b, conflict):
    assert bounds_conflict(a, b) is conflict
    assert bounds_conflict(b, a) is conflict


def test_opposition_table():
    assert opposition(M.MUST, M.MUST_NOT) is VerdictKind.CONTRADICTION
    assert opposition(M.MAY_NOT, M.MUST) is VerdictKind.CONTRADICTION
    assert opposition(M.SHOULD, M.SHOULD_NOT) is VerdictKind.TENSION
    assert opposition(M.MAY, M.MAY_NOT) is None
    assert opposition(M.MUST, M.SHOULD) is None


def test_subject_match():
    assert subject_match("api gateway", "api gateway") is SubjectMatch.SAME
    assert subject_match("log", "application log") is SubjectMatch.NEAR
    assert subject_match("recovery time objective", "recovery point objective") is SubjectMatch.RELATED
    assert subject_match("mfa", "vpn access", "vpn access", "mfa") is SubjectMatch.SAME
    assert subject_match("password", "log") is SubjectMatch.DIFFERENT


def test_letter_case_does_not_make_another_subject(normalizer_v2):
    """A name written in another case is the one thing ("StrictModes" / "strictmodes", "GitHub" / "Github", a shouted
    statement's "MAX_CONNECTIONS"): matched case by case, "GitHub Actions runners must not …" / "Github Actions
    runners may …" were "possible opposition on related subjects" and "MAX_CONNECTIONS IS 500 …" / "max_connections is
    100 …" two subjects, both clean on the fast profile. Which words match is unchanged: two names stay two."""
    assert subject_match("StrictModes", "strictmodes") is SubjectMatch.SAME
    assert subject_match("uWSGI default buffer-size", "uwsgi default buffer-size") is SubjectMatch.SAME
    assert subject_match("max_connections", "Max_connections") is SubjectMatch.SAME
    assert subject_match("max_connections", "max_user_connections") is SubjectMatch.DIFFERENT
    assert subject_match("GitHub", "GitLab") is SubjectMatch.DIFFERENT
    v = verdict(normalizer_v2, "Github Actions runners must not use self-hosted machines.",
                "GitHub Actions runners may use self-hosted machines.")
    assert v.kind is VerdictKind.CONTRADICTION and v.confidence is Confidence.HIGH, v
    shouted = comparison_text("MAX_CONNECTIONS IS 500 ON ALL OUR REPLICAS.")     # as a write reads it
    v = verdict(normalizer_v2, shouted, "max_connections is 100 on all our replicas.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH, v


def test_the_word_that_makes_a_limit_does_not_name_another_thing():
    """"maximum message size" / "billing queue message size" were different subjects, so a queue's size over
    the maximum was never compared with it; a default is what one of its kind overrides, so it stays apart."""
    assert subject_match("maximum message size", "billing queue message size") is SubjectMatch.NEAR
    assert subject_match("minimum password length", "admin password length") is SubjectMatch.NEAR
    assert subject_match("default visibility timeout", "transcode queue visibility timeout") is SubjectMatch.DIFFERENT
    assert subject_match("maximum timeout", "minimum timeout") is not SubjectMatch.SAME       # two limits of one thing


def test_a_namespaced_setting_is_the_setting_written_bare():
    """sysctl's "vm.watermark_scale_factor" is the kernel documentation's "watermark_scale_factor": one setting, so
    its two values are compared; two namespaces of one name are two settings, and a name the other statement
    does not write bare keeps its namespace."""
    from guard.compare import attributes_match
    assert subject_match("vm.watermark_scale_factor", "watermark_scale_factor") is SubjectMatch.SAME
    assert subject_match("ingest node vm.watermark_scale_factor", "watermark_scale_factor") is SubjectMatch.NEAR
    assert attributes_match("net.ipv4.tcp_fin_timeout", "tcp_fin_timeout")
    assert attributes_match("gc.autoDetach", "autoDetach")
    assert not attributes_match("fetch.fsckObjects", "transfer.fsckObjects")
    assert subject_match("fetch.fsckObjects", "transfer.fsckObjects") is SubjectMatch.DIFFERENT
    assert subject_match("vm.swappiness", "swappiness") is SubjectMatch.DIFFERENT     # no underscore or camel case: a word


def test_a_namespaced_setting_over_its_documented_maximum_conflicts(normalizer_v2):
    v = verdict(normalizer_v2, "The maximum value of watermark_scale_factor is 1000.",
                "On the ingest nodes we set vm.watermark_scale_factor to 2000.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and "1000" in v.reason and "2000" in v.reason


def test_a_message_over_the_maximum_conflicts(normalizer_v2):
    a = "The maximum message size is 256 KB."
    assert verdict(normalizer_v2, a, "The billing queue message size is 1 MB.").kind is VerdictKind.VALUE_CONFLICT
    assert verdict(normalizer_v2, a, "The billing queue message size is 100 KB.").kind is not VerdictKind.VALUE_CONFLICT


def test_a_four_letter_word_meets_its_ing_form():
    """"on-call paging" / "on-call page" were different subjects: "paging" lost its "ing" and "page" stayed whole."""
    assert subject_match("on-call paging", "on-call page") is SubjectMatch.SAME
    assert subject_match("code review", "coding review") is SubjectMatch.SAME
    assert subject_match("node", "nodes") is SubjectMatch.SAME
    assert subject_match("page", "pipe") is SubjectMatch.DIFFERENT
    assert subject_match("user", "use") is SubjectMatch.DIFFERENT


def test_a_short_name_and_its_long_form_are_one_subject(normalizer_v2):
    """"prod"/"production", "DB"/"database", "repo"/"repository", "app"/"application": one thing spelt two
    ways was "different subjects", so structure could not decide and the pair went to the model."""
    assert subject_match("prod db", "production database") is SubjectMatch.SAME
    assert subject_match("repo", "repository") is SubjectMatch.SAME
    assert subject_match("app config", "application configuration") is SubjectMatch.SAME
    assert subject_match("auth service", "authentication service") is SubjectMatch.DIFFERENT   # or authorisation
    v = verdict(normalizer_v2, "Prod deploys need two approvals.", "Production deploys must not require approval.")
    assert v.kind is VerdictKind.CONTRADICTION and v.confidence is Confidence.HIGH, v
    v = verdict(normalizer_v2, "The prod DB is backed up nightly.", "The production database is backed up weekly.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH, v
    v = verdict(normalizer_v2, "The prod DB is backed up nightly.", "The staging database is backed up weekly.")
    assert v.kind is VerdictKind.COEXIST, v          # the environments still keep them apart


def test_privative_word_with_opposite_modality_agrees(normalizer):
    v = verdict(normalizer, "Postmortems are blameless.", "Postmortems must not assign blame to individuals.")
    assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.MED
    # a privative word on both sides is not a flip: the opposition stands
    v = verdict(normalizer, "Logins must be passwordless.", "Logins must not be passwordless.")
    assert v.kind is VerdictKind.CONTRADICTION
    v = verdict(normalizer, "Postmortems must assign blame.", "Postmortems must not assign blame.")
    assert v.kind is VerdictKind.CONTRADICTION


def test_a_known_verb_against_an_unknown_one_is_not_an_opposition(normalizer):
    v = verdict(normalizer, "X rejects null keys.", "X maps keys to values.")
    assert v.kind is VerdictKind.UNCERTAIN and v.confidence is Confidence.LOW
    v = verdict(normalizer, "X rejects null keys.", "X supports null keys.")
    assert v.kind is VerdictKind.CONTRADICTION and v.confidence is Confidence.HIGH


@pytest.mark.parametrize("a, b, same", [
    ("The catalog-api-10 runs 8 replicas.", "The catalog-api-10 runs 8 replicas.", True),
    ("Production deploys need two approvals.", "  production deploys need  two approvals", True),
    ('"Secrets are stored in Vault."', "Secrets are stored in Vault!", True),
    ("The cache listens on port 6379.", "The cache listens on port 6380.", False),
    ("Deploys are allowed on Fridays.", "Deploys are not allowed on Fridays.", False),
    ("X preserves ordering.", "X preserves ordering and rejects null keys.", False),
    ("", "", False),
])
def test_same_statement_is_the_same_words_in_the_same_order(a, b, same):
    from guard.compare import same_statement
    assert same_statement(a, b) is same


def test_a_claim_said_twice_is_consistent_with_itself_unless_scopes_are_disjoint(normalizer):
    for text in ("The catalog-api-10 runs 8 replicas.", "Be careful.", "Deploys must not run on Fridays."):
        v = verdict(normalizer, text, text.upper())
        assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.HIGH, text
    v = verdict(normalizer, "Debug logging is enabled.", "Debug logging is enabled.", {"env": "dev"}, {"env": "prod"})
    assert v.kind is VerdictKind.COEXIST


@pytest.mark.parametrize("a, b", [
    ("The auth service must log every failed login.", "The auth service must not log failed logins."),
    ("The billing job must notify the finance team.", "The billing job must not notify finance teams."),
])
def test_a_negation_of_the_same_noun_in_the_plural_is_an_opposition(normalizer_v2, a, b):
    """"login" / "logins" were two values, so the negation read as one "of a different value" and
    the pair was clean (HIGH): the plural of the value names the same thing."""
    v = verdict(normalizer_v2, a, b)
    assert v.kind is VerdictKind.CONTRADICTION, v
    # a negation of another thing stays what it was
    v = verdict(normalizer_v2, "The cache listens on port 6379.", "The cache does not listen on port 6380.")
    assert v.kind is VerdictKind.CONSISTENT and "different value" in v.reason


@pytest.mark.parametrize("a, b, kind", [
    ("Deploys are frozen on Fridays.", "Deploys are allowed on Mondays.", VerdictKind.CONSISTENT),
    ("Releases are not allowed in December.", "Releases are allowed in January.", VerdictKind.CONSISTENT),
    ("Deploys must not run at 5pm.", "Deploys may run at 9am.", VerdictKind.CONSISTENT),
    # the same value both ways stays an opposition
    ("Deploys are frozen on Fridays.", "Deploys are allowed on Fridays.", VerdictKind.CONTRADICTION),
])
def test_opposing_stances_on_two_values_of_one_kind_agree(normalizer_v2, a, b, kind):
    """"Deploys are frozen on Fridays." / "Deploys are allowed on Mondays." was "opposing modality on
    different aspects" (the days are the only state words, and they differ), which left it to the
    cross-encoder, and it blocked at p 1.00. A day, a month, a time of day said without a limit is
    the state itself: each stance holds for its own value, as "listens on 6379" / "does not listen on
    6380" already did."""
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (kind, Confidence.HIGH), v


@pytest.mark.parametrize("a, b, kind", [
    ("Logins from Russia are blocked.", "Logins from Germany are allowed.", VerdictKind.COEXIST),
    ("Payments in EUR are settled daily.", "Payments in USD are settled weekly.", VerdictKind.COEXIST),
    # one name both ways stays an opposition
    ("Logins from Russia are blocked.", "Logins from Russia are allowed.", VerdictKind.CONTRADICTION),
])
def test_subjects_narrowed_to_different_names_are_different_things(normalizer_v2, a, b, kind):
    """"Logins from Russia are blocked." / "Logins from Germany are allowed." was an opposing modality on
    'login' at HIGH, a block; the phrase names which logins, as a plan or a region does."""
    assert verdict(normalizer_v2, a, b).kind is kind


def test_a_subject_narrowed_by_a_common_noun_is_not_a_variant(normalizer_v2):
    """A common noun may be the other's class ("in the repo" / "in the Billing service": a rule and a
    case of it), so only names narrow a subject apart."""
    from guard.claims import Scope, Window
    n = normalizer_v2.normalize("Config files in the repo must use YAML.", Scope(), Window())
    assert not [k for k, _ in n.variants if k.endswith("-phrase")]
    v = verdict(normalizer_v2, "Config files in the repo must use YAML.", "Config files in the Billing service use TOML.")
    assert v.kind is not VerdictKind.COEXIST, v


def test_a_configured_value_inside_the_rules_bound_agrees(normalizer_v2):
    """"The session timeout is set to 20 minutes." under "Make sure the session timeout is set to no
    more than 30 minutes." was undecided and the model blocked it at p 1.00; a flat value that is no
    setting ("Workers KV handles 1 write per second" / "… accepts up to 10") stays undecided."""
    rule, logs = "Make sure the session timeout is set to no more than 30 minutes.", "Ensure logs are kept for at least 90 days."
    for a, b, kind, conf in [
            (rule, "The session timeout is set to 20 minutes.", VerdictKind.CONSISTENT, Confidence.HIGH),
            (rule, "The session timeout is set to 4 hours.", VerdictKind.VALUE_CONFLICT, Confidence.HIGH),
            (logs, "Logs are kept for 180 days.", VerdictKind.CONSISTENT, Confidence.HIGH),
            (logs, "Logs are kept for 30 days.", VerdictKind.VALUE_CONFLICT, Confidence.HIGH),
            ("KV handles 1 write per second to the same key.", "KV accepts up to 10 writes per second.",
             VerdictKind.UNCERTAIN, Confidence.LOW),
            # what KV "allows" is its limit (session 59): two limits that differ
            ("KV allows 1 write per second to the same key.", "KV accepts up to 10 writes per second.",
             VerdictKind.VALUE_CONFLICT, Confidence.HIGH)]:
        v = verdict(normalizer_v2, a, b)
        assert (v.kind, v.confidence) == (kind, conf), (a, b, v)


def test_one_span_in_two_calendar_units_is_one_value(normalizer_v2):
    """A month counts 30 days and a year 365, so "24 months" and "two years" came out 1.4 % apart and
    were a structural block; below a month durations stay exact, and a real difference still conflicts."""
    for a, b, kind in [
            ("Audit logs are retained for 24 months.", "Audit logs are retained for two years.", VerdictKind.CONSISTENT),
            ("Support lasts 18 months.", "Support lasts a year and a half.", VerdictKind.CONSISTENT),
            ("Backups are kept for one year.", "Backups are kept for 52 weeks.", VerdictKind.CONSISTENT),
            ("Audit logs are retained for 24 months.", "Audit logs are retained for three years.", VerdictKind.VALUE_CONFLICT),
            ("Audit logs must be retained for at most 12 months.", "Audit logs are retained for 365 days.",
             VerdictKind.CONSISTENT),
            ("The retention period is between 1 and 12 months.", "The retention period is one year.",
             VerdictKind.UNCERTAIN)]:        # inside the range, no setting: undecided, as any value inside it
        v = verdict(normalizer_v2, a, b)
        assert v.kind is kind, (a, b, v)
    assert not bounds_conflict(Bound("eq", 24 * 30 * 86400, "time"), Bound("eq", 2 * 365 * 86400, "time"))
    assert bounds_conflict(Bound("eq", 99, "time"), Bound("eq", 100, "time"))          # seconds are exact
    assert bounds_conflict(Bound("eq", 30 * 86400, "time"), Bound("eq", 31 * 86400, "time"))


def test_two_readings_of_the_same_quantities_are_no_value_conflict(normalizer_v2):
    """A sentence with several values is read with one of them as its value; two statements that state
    the same quantities in other orders picked different ones and were a value conflict. One changed
    number among them still is."""
    a = "TOTP codes must have a maximum lifetime of 30 seconds and out-of-band codes of 10 minutes."
    v = verdict(normalizer_v2, a, "TOTP codes are valid for at most 10 minutes for out-of-band and half a minute for TOTP.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, a, "TOTP codes must have a maximum lifetime of 60 seconds and out-of-band codes of 10 minutes.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("a, b, flagged", [
    ("Every Amazon SQS queue has the default visibility timeout setting of 30 seconds.",
     "The orders queue overrides the SQS default with a 90-second visibility timeout.", True),
    ("LoginGraceTime: the server disconnects after this time, and the default is 120 seconds.",
     "All bastion hosts set LoginGraceTime 30 in sshd_config.", True),
    ("PasswordAuthentication specifies whether password authentication is allowed, and the default is yes.",
     "All prod bastion hosts set PasswordAuthentication no in sshd_config.", True),
    # what holds while nobody sets it is a default too
    ("If the global maxconn value is not set, the proxy calculates it from the file descriptor limit.",
     "Our edge proxy sets maxconn 200000 in the global section.", True),
    ("When the region isn't specified, the client uses us-east-1.", "Our billing service sets its region to eu-west-1.", True),
    ("If you are not set up with a YubiKey, use the authenticator app.", "We set every laptop to lock after 5 minutes.", False),
    # both give the default
    ("The default request timeout is 30 seconds.", "The request timeout defaults to 60 seconds.", False),
    ("The default request timeout is 30 seconds.", "Requests time out after 60 seconds unless the stage overrides it.", False),
    # the configured value breaks a limit the default's statement also gives
    ("The default request timeout is 30 seconds, and the maximum is 60 seconds.",
     "Our API gateway sets the request timeout to 90 seconds.", False),
    # a default the text says to keep is advice
    ("tune.bufsize defaults to 16384, and it is strongly recommended not to change it.",
     "Our gateway team raises tune.bufsize to 65536.", False),
])
def test_a_configured_value_against_a_default(normalizer_v2, a, b, flagged):
    from guard.compare import default_against_override
    na, nb = (normalizer_v2.normalize(t, Scope(), Window()) for t in (a, b))
    assert default_against_override(na, a, nb, b) is flagged
    assert default_against_override(nb, b, na, a) is flagged


def test_a_quantity_each_statement_gives_once_is_compared_too(normalizer_v2):
    from guard.compare import _value_pair, any_value_conflict
    def n(t):
        return normalizer_v2.normalize(t, Scope(), Window())
    a = n("Ubuntu LTS releases come out every two years in April.")
    b = n("Ubuntu LTS releases come out every two years in October.")
    assert any_value_conflict(a, b, _value_pair(a, b))
    c = n("Every two years, in April, an Ubuntu LTS release comes out.")
    assert not any_value_conflict(a, c, _value_pair(a, c))


def test_a_snake_case_names_plural_is_the_same_name():
    """"SendGrid batch_ids stay valid for two weeks" is about the "batch_id" of the other statement: the
    identifier kept its "s", so subjects and attributes differed and the two lifetimes were never compared."""
    from guard.compare import attributes_match, subject_match
    assert subject_match("sendgrid batch_id", "sendgrid batch_ids") is SubjectMatch.SAME
    assert attributes_match("batch_id", "batch_ids")
    assert not attributes_match("max_connections", "max_user_connections")
    assert subject_match("ip_access", "ip_acces") is SubjectMatch.DIFFERENT     # a double s is no plural


@pytest.mark.parametrize("a, b, decided", [
    # one state word is the other's opposite pole: structure cannot call the pair consistent
    ("Daily backups are encrypted.", "Daily backups are written in plaintext to the backup bucket.", False),
    ("Nightly exports are encrypted.", "Nightly exports are stored in plaintext on the partner SFTP server.", False),
    # two facts about one subject with no opposing word stay consistent, decided by structure
    ("Access tokens expire after 15 minutes.", "Access tokens are signed with RS256.", True),
    # opposing modalities alone on different actions are two facts too
    ("The session-api-0 must not call internal APIs without authentication.",
     "The session-api-0 must expose the admin endpoint publicly.", True),
])
def test_different_states_of_one_subject_with_opposite_words_are_left_to_the_gate(normalizer_v2, a, b, decided):
    v = verdict(normalizer_v2, a, b)
    if decided:
        assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.HIGH, v.reason
    else:
        assert v.kind is VerdictKind.UNCERTAIN and v.reason == "same subject, different wording of opposing states", v.reason


def test_a_structural_block_on_a_one_word_subject_is_unsure_between_unlike_texts():
    from guard.compare import Verdict
    from guard.judge import unsure_where_unlike
    v = Verdict(VerdictKind.VALUE_CONFLICT, Confidence.HIGH, "'decision' is 14 days … six weeks",
                {"subjects": ["decision", "decision"]})
    low = unsure_where_unlike(v, 0.39, 0.5)
    assert (low.kind, low.confidence, low.evidence) == (v.kind, Confidence.MED, v.evidence)
    assert "cosine 0.39 < 0.50" in low.reason
    assert unsure_where_unlike(v, 0.5, 0.5) is v and unsure_where_unlike(v, None, 0.5) is v
    named = Verdict(VerdictKind.CONTRADICTION, Confidence.HIGH, "…", {"subjects": ["api key", "api key"]})
    assert unsure_where_unlike(named, 0.1, 0.5) is named              # a subject of two words names one thing
    ident = Verdict(VerdictKind.VALUE_CONFLICT, Confidence.HIGH, "…", {"subjects": ["max_connections", "max_connections"]})
    assert unsure_where_unlike(ident, 0.1, 0.5) is ident             # an identifier is no common word
    med = Verdict(VerdictKind.VALUE_CONFLICT, Confidence.MED, "…", {"subjects": ["decision", "decision"]})
    assert unsure_where_unlike(med, 0.1, 0.5) is med                 # structure did not decide it anyway


def test_a_default_is_compared_with_a_default(normalizer_v2):
    """"the max stop timeout value is 120 seconds, and if the stopTimeout parameter isn't specified, the default value
    of 30 seconds is used" / "When stopTimeout is unset …, ECS waits 60 seconds …": the maximum (120 s, the first
    value) was compared with 60 s, which keeps within it; the default (30 s) is what the other speaks of."""
    from guard.compare import _value_pair, default_values
    a = ("For tasks that use the Fargate launch type, the max stop timeout value is 120 seconds, and if the "
         "stopTimeout parameter isn't specified, the default value of 30 seconds is used.")
    b = "When stopTimeout is unset on Fargate, ECS waits 60 seconds after SIGTERM before sending SIGKILL."
    na, nb = normalizer_v2.normalize(a, Scope(), Window()), normalizer_v2.normalize(b, Scope(), Window())
    assert [v[1] for v in default_values(na, a)] == ["30 seconds"]
    assert [v[1] for v in _value_pair(na, nb, (a, b))] == ["30 seconds", "60 seconds"]
    assert _value_pair(na, nb)[0][1] == "120 seconds"          # without the texts, as before
    c = "ECS waits 60 seconds after SIGTERM before sending SIGKILL."          # says nothing of a default
    assert _value_pair(na, normalizer_v2.normalize(c, Scope(), Window()), (a, c))[0][1] == "120 seconds"


@pytest.mark.parametrize("text,defaults", [
    ("The minimum is 10 seconds, and if the parameter is 0 a default value of 10 seconds is used.", ["10 seconds"]),
    ("Leaving it at 0 gives the default 60-second ack deadline.", ["60-second"]),
    ("The job timeout defaults to 300 seconds and can be raised to 900 seconds.", ["300 seconds"]),
    ("By default, queues keep messages for 4 days.", []),   # a sentence-wide default: its values are all candidates
    ("The timeout is 30 seconds.", []),
])
def test_which_values_are_given_as_the_default(normalizer_v2, text, defaults):
    from guard.compare import default_values
    assert [v[1] for v in default_values(normalizer_v2.normalize(text, Scope(), Window()), text)] == defaults


def test_two_permitted_limits_that_differ_conflict(normalizer_v2):
    """"No more than 3 retries are allowed." / "Up to 5 retries are allowed." were "two permitted values can coexist",
    as "may use Slack" / "may use Teams" are; two limits of one thing do not."""
    v = verdict(normalizer_v2, "No more than 3 retries are allowed.", "Up to 5 retries are allowed.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Up to 5 retries are allowed.", "3 retries are allowed.")      # within the limit
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Users with example.com addresses may sign up.", "Users with acme.io addresses may sign up.")
    assert v.kind is VerdictKind.CONSISTENT, v


@pytest.mark.parametrize("a,b,conflict", [
    ("Auth cookies are set with `httpOnly: true`.", "Auth cookies use `sameSite: 'strict'`.", False),    # two settings
    ("The worker sets `max_connections = 100`.", "The worker sets `statement_timeout = 30s`.", False),
    ("Auth cookies are set with `SameSite=None`.", "Auth cookies use `sameSite: 'strict'`.", True),      # one setting
    ("The worker sets `max_connections = 100`.", "The worker sets `max_connections = 200`.", True),
    ("Auth cookies are set with `SameSite=None`.", "Auth cookies use `sameSite: \"None\"`.", False),     # one value twice
])
def test_settings_written_as_literals_are_compared_key_by_key(normalizer_v2, a, b, conflict):
    """Two literals were two values of one thing, so "`httpOnly: true`" / "`sameSite: 'strict'`" on one
    subject was a HIGH value conflict: a block of two settings that both hold."""
    assert (verdict(normalizer_v2, a, b).kind is VerdictKind.VALUE_CONFLICT) is conflict


def test_a_setting_is_its_key_and_value():
    from guard.compare import setting_of
    assert setting_of("SameSite=None") == setting_of("sameSite: 'none'") == ("samesite", "none")
    assert setting_of("max_connections = 100") == ("maxconnections", "100")
    assert setting_of("feature/<name>") is None and setting_of("10:30:100") is None and setting_of(None) is None


@pytest.mark.parametrize("a,b,conflict", [
    ("The billing service listens on port 8080.", "The billing service exposes metrics on port 9090.", False),
    ("The billing service listens on port 8080.", "The billing service serves its admin API on port 9000.", False),
    ("The billing service listens on port 8080.", "The billing service listens on port 9090.", True),
    ("The billing service serves its admin API on port 9000.", "The billing service serves its admin API on port 9001.", True),
    ("The billing service must listen on port 443.", "The billing service listens on port 8080.", True),
    # the purpose in the subject: a related subject, yet another port
    ("Grafana runs on port 3000.", "Grafana's admin console is on port 3001.", False),
    # "only": it listens on no other port, metrics included
    ("The gateway listens only on port 443.", "The gateway exposes metrics on port 9100.", True),
])
def test_a_port_for_a_purpose_is_another_port(normalizer_v2, a, b, conflict):
    """A service's port and its metrics port were one port's two values: a HIGH value conflict, so structure
    blocked two facts that both hold; then an undecided pair, which the gate blocked on the cross-encoder's
    0.92–1.00 for such pairs. Structure settles it (clean) unless a statement says "only"."""
    v = verdict(normalizer_v2, a, b)
    if conflict:
        assert v.kind is VerdictKind.VALUE_CONFLICT
    else:
        assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH)


def test_a_default_port_is_the_service_s_own_port(normalizer_v2):
    """Only a side port's purpose (metrics, admin, health …) makes another port: "the default port 8080" /
    "falls back to port 3000" is one port's two values (claims_dev labels it a contradiction)."""
    a = "If `PORT` is left undefined, the HTTP server listens on the default port 8080."
    b = "If `PORT` is unset, the HTTP server falls back to port 3000."
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (VerdictKind.VALUE_CONFLICT, Confidence.HIGH)


@pytest.mark.parametrize("a,b,conflict", [
    ("The service reads `DATABASE_URL` at startup.", "The service reads `REDIS_URL` at startup.", False),
    ("The billing service depends on `stripe-go`.", "The billing service depends on `aws-sdk-go`.", False),
    ("The CI job runs `make test`.", "The CI job runs `make lint`.", False),
    ("The gateway exposes `/healthz`.", "The gateway exposes `/metrics`.", False),
    # "only" says it reads no other: the two values are one setting's again
    ("The service reads only `DATABASE_URL`.", "The service reads `REDIS_URL`.", True),
    # a literal written as a setting is a value of its key, whatever the verb
    ("Auth cookies use `sameSite: 'strict'`.", "Auth cookies use `sameSite: 'lax'`.", True),
    # copula, set, pinned, named, target: one value each
    ("The default branch is `main`.", "The default branch is `master`.", True),
    ("The log level is set to `info`.", "The log level is set to `debug`.", True),
    ("The Terraform AWS provider is pinned to `~> 5.0`.", "The Terraform AWS provider is pinned to `~> 4.0`.", True),
    ("Pull requests must target the `develop` branch.", "Pull requests must target `main`.", True),
    ("The container runs as `nobody`.", "The container runs as `app`.", True),
])
def test_literals_read_side_by_side_are_no_two_values(normalizer_v2, a, b, conflict):
    """A code literal that is the object of read, use, depend on, run or expose is one of several: "reads
    `DATABASE_URL`" / "reads `REDIS_URL`" was a HIGH value conflict that blocked two facts that both hold."""
    v = verdict(normalizer_v2, a, b)
    assert (v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH) is conflict
    if not conflict:
        assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH)


@pytest.mark.parametrize("a, b", [
    ("vm.swappiness is used to define how aggressive the kernel will swap memory pages, and its default value is 60.",
     ("FYI for the tuning doc: the upstream kernel default for vm.swappiness is 30, so our setting of 30 is really "
      "just the stock value.")),
    ("The `no_parent_owners` option defaults to `false` if not present.", "`no_parent_owners` defaults to `true` when omitted."),
])
def test_one_setting_named_in_code_with_two_values_is_a_sure_conflict(normalizer_v2, a, b):
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (VerdictKind.VALUE_CONFLICT, Confidence.HIGH), v.reason


def test_a_deployment_s_own_value_of_a_named_setting_against_its_default_stays_the_gate_s(normalizer_v2):
    v = verdict(normalizer_v2, "The permitted number of connections is controlled by the max_connections system variable, "
                "and the default value is 151.", "max_connections is 500 on all our replicas, set via the mysqld role in Ansible.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is not Confidence.HIGH


def test_differing_values_on_related_subjects_are_a_possible_value_conflict_for_the_gate(normalizer_v2):
    # one subject qualified apart from the other ("production web server" / "public web server"): the values of one
    # kind differ, which the learned gate reads as a value conflict it is less sure of, never a structural block
    # (until session 95 the small model's misreading, "production web server time", made this pair's subjects related)
    from guard.judge import Judge, Tier, structure_decides
    v = verdict(normalizer_v2, "Production web servers time out idle sessions after 15 minutes.",
                "Public web servers time out idle sessions after 30 minutes.")
    assert (v.kind, v.confidence) == (VerdictKind.VALUE_CONFLICT, Confidence.LOW), v.reason
    assert "related subjects" in v.reason and structure_decides(v) is None
    assert Judge().judge(v)[0] is Tier.WARN          # the fast profile, with no gate: a warning, not a block


def test_a_product_version_both_name_is_not_their_same_value(normalizer_v2):
    # "PHP 8.1" is what both speak of: taken for their value, the pair was "same value", consistent, and the last
    # releases each gives (8.1.34 / 8.1.31) went uncompared
    v = verdict(normalizer_v2, "PHP 8.1 reached its end of life on 31 Dec 2025, and its last release was 8.1.34.",
                "The final PHP 8.1 release was 8.1.31, published when the branch went end-of-life.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.evidence["values"] == ["8.1.34", "8.1.31"], v.reason
    same = verdict(normalizer_v2, "Our API servers run PHP 8.1.", "The billing workers run PHP 8.1.")
    assert same.kind is not VerdictKind.VALUE_CONFLICT


def test_holidays_and_weekends_are_different_days_not_one_office_s_opposite_stances(normalizer_v2):
    # "closed on public holidays" had no value, so the two were opposing modality on 'office' at HIGH, a structural block
    v = verdict(normalizer_v2, "The office is closed on public holidays.", "The office is open on weekends.")
    assert v.kind is not VerdictKind.CONTRADICTION, v.reason
    same = verdict(normalizer_v2, "The office is closed on public holidays.", "The office is open on public holidays.")
    assert same.kind is VerdictKind.CONTRADICTION


@pytest.mark.parametrize("a, b", [
    ("maximum line-width", "maximum line width"),
    ("request id", "request_id"),
    ("counter failed login", "failed-login counter"),
    ("max_connections", "max connection"),
    ("image pull policy", "imagePullPolicy"),
    ("DelaySeconds", "delay seconds"),
])
def test_a_compound_written_joined_or_apart_is_one_subject(a, b):
    """"Maximum line-width is 100 characters." / "Maximum line width is 80 characters." had different subjects, so the
    value conflict was the cross-encoder's to find: a hyphen or an underscore joins the same words a space does."""
    assert subject_match(a, b) is SubjectMatch.SAME
    assert subject_match(b, a) is SubjectMatch.SAME


def test_compounds_whose_parts_differ_stay_apart():
    assert subject_match("auto_start_machines", "auto_stop_machines") is SubjectMatch.DIFFERENT
    assert subject_match("page token", "next_page_token") is SubjectMatch.DIFFERENT
    assert subject_match("root filesystem", "readOnlyRootFilesystem") is SubjectMatch.DIFFERENT
    assert subject_match("phone app", "iPhone app") is not SubjectMatch.SAME      # "i" is no word the other writes


def test_a_setting_named_in_camel_case_is_the_setting_said_in_words(normalizer_v2):
    # claims_dev's "Image pull policy must be `Always`." / "Set `imagePullPolicy: IfNotPresent` …" met as different
    # subjects, and the cross-encoder (p 0.00) did not see two values of one setting
    v = verdict(normalizer_v2, "Image pull policy must be `Always`.", "Set `imagePullPolicy: IfNotPresent` on every deployment.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH, v.reason
    same = verdict(normalizer_v2, "Image pull policy must be `Always`.", "Set `imagePullPolicy: Always` on every deployment.")
    assert same.kind is not VerdictKind.VALUE_CONFLICT, same.reason


def test_a_day_within_the_days_a_kind_of_the_thing_is_denied(normalizer_v2):
    """"Deployments are prevented during weekends." read as a must with the verb for its state; what is prevented may not
    happen, and a production deploy is a kind of deployment, so Saturday within weekends is an opposition (at MED)."""
    v = verdict(normalizer_v2, "Deployments are prevented during weekends.", "Production deploys are scheduled every Saturday morning.")
    assert v.kind is VerdictKind.CONTRADICTION and v.confidence is Confidence.MED, v.reason
    other = verdict(normalizer_v2, "Deployments are prevented during weekends.", "Production deploys are scheduled every Tuesday morning.")
    assert other.kind is not VerdictKind.CONTRADICTION, other.reason


def test_an_identifier_and_a_deployment_in_their_short_forms_are_one_subject():
    assert subject_match("session identifier", "session id") is SubjectMatch.SAME
    assert subject_match("production deployment", "production deploy") is SubjectMatch.SAME
    assert subject_match("deployment", "production deploy") is SubjectMatch.NEAR


@pytest.mark.parametrize("a, b", [("audit log", "audit logging"), ("shipped order", "ship order"), ("add", "added")])
def test_an_ing_or_ed_form_with_its_consonant_doubled_is_the_word(a, b):
    """"Engineers may not disable audit logging." is about "audit log" (the object, lemmatised) and "Audit logging must
    be enabled." about "audit logging": the stem of "logging" kept its doubled g and the two were different subjects."""
    assert subject_match(a, b) is SubjectMatch.SAME


@pytest.mark.parametrize("text, verb", [
    ("Commits to `master` must not be GPG-signed because the release bot rewrites them.", StateVerb.SIGN),
    ("At HLN Consulting, all time off must be pre-approved.", StateVerb.APPROVE),
    ("Time off is manager-approved.", StateVerb.APPROVE),
])
def test_a_participle_joined_to_its_manner_is_its_verb_s_state(normalizer_v2, text, verb):
    n = normalizer_v2.normalize(text, Scope(), Window())
    assert n.object is verb, n


def test_a_participle_joined_to_its_manner_opposes_the_plain_verb_but_not_another_manner(normalizer_v2):
    """"GPG-signed" was a state of its own, so "must not be GPG-signed" and "should be cryptographically signed" (claims_dev)
    spoke of different actions; the whole word stays the state's theme, so two manners of one verb are two aspects."""
    v = verdict(normalizer_v2, "Commits must not be GPG-signed.", "Commits should be cryptographically signed.")
    assert v.kind is VerdictKind.CONTRADICTION, v.reason
    two = verdict(normalizer_v2, "Commits must not be GPG-signed.", "Commits must be SSH-signed.")
    assert two.kind is not VerdictKind.CONTRADICTION, two.reason
    undone = normalizer_v2.normalize("Branches must stay un-merged.", Scope(), Window())
    assert undone.object is not StateVerb.MERGE


@pytest.mark.parametrize("a, b", [
    ("Deployments are blocked on weekends.", "Deployments are blocked on Fridays."),
    ("Deployments must not happen on weekends.", "Deployments are prevented on Fridays."),
    ("The API must not listen on port 6379.", "The API must not listen on port 6380."),
])
def test_two_denials_of_different_values_both_hold(normalizer_v2, a, b):
    """Two prohibitions on one subject, each of its own value, were "'deployment' is weekends in one claim and Fridays in
    the other", a structural block at HIGH; both can hold, as a denial of another value against an assertion does."""
    v = verdict(normalizer_v2, a, b)
    assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.HIGH, v.reason


def test_two_different_limits_denied_still_conflict(normalizer_v2):
    v = verdict(normalizer_v2, "Uploads must not exceed 10 MB.", "Uploads must not exceed 20 MB.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v.reason
    one = verdict(normalizer_v2, "Deployments are blocked on Fridays.", "Deployments are allowed on Fridays.")
    assert one.kind is VerdictKind.CONTRADICTION, one.reason


@pytest.mark.parametrize("a, b, kind", [
    ("Deployments are prevented during weekends.", "Friday deployments are permitted.", VerdictKind.CONSISTENT),
    ("Deployments are blocked on weekends.", "Saturday deployments are allowed.", VerdictKind.CONTRADICTION),
    ("Deployments are allowed on Fridays.", "Friday deployments are blocked.", VerdictKind.CONTRADICTION),
    ("Friday deployments are permitted.", "Deployments are blocked Monday to Thursday.", VerdictKind.CONSISTENT),
])
def test_a_day_the_subject_names_against_the_days_the_other_rule_is_for(normalizer_v2, a, b, kind):
    """"Deployments are prevented during weekends." / "Friday deployments are permitted." was an opposing modality on a
    subject and a narrower one, which the fast profile blocks: the narrower subject names its day, and each stance
    holds for its own days unless the day is among the other's."""
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v.reason


@pytest.mark.parametrize("a, b", [
    ("PendingDeprecationWarning warning", "PendingDeprecationWarning"),
    ("no_parent_owners option", "no_parent_owners"),
    ("max_connections setting", "max_connections option"),
])
def test_the_kind_a_name_is_said_after_it_adds_nothing(a, b):
    """"`PendingDeprecationWarning` warnings are silent by default." / "`PendingDeprecationWarning` is loud by default …"
    (claims_dev) were related subjects, so their opposition was the gate's; the word after a name in code says only
    what kind of name it is."""
    assert subject_match(a, b) is SubjectMatch.SAME
    assert subject_match(b, a) is SubjectMatch.SAME


def test_a_kind_word_stays_where_it_names_another_thing():
    assert subject_match("log level", "log") is not SubjectMatch.SAME                  # no name in code before it
    assert subject_match("sharedMemorySize parameter", "shmSize") is SubjectMatch.DIFFERENT


@pytest.mark.parametrize("a, b", [
    ("Containers must use a read-only root filesystem.", "Containers must use a read only root filesystem."),
    ("Branch names follow `feature/<short-name>`.", "Branch names follow `feature/<short name>`."),
    ("The on-call engineer must acknowledge pages within 15 minutes.",
     "The on call engineer must acknowledge pages within 15 minutes."),
])
def test_a_compound_written_with_or_without_its_hyphen_is_one_thing(normalizer_v2, a, b):
    v = verdict(normalizer_v2, a, b)
    assert v.kind not in (VerdictKind.CONTRADICTION, VerdictKind.VALUE_CONFLICT, VerdictKind.TENSION), v


def test_a_compound_s_hyphen_does_not_make_two_subjects():
    assert subject_match("on-call engineer", "on call engineer") is SubjectMatch.SAME
    assert subject_match("read-only replica", "read only replica") is SubjectMatch.SAME
    assert subject_match("kv-payments-prod vault", "kv-payments-prod vault") is SubjectMatch.SAME
    assert subject_match("read-only replica", "primary replica") is not SubjectMatch.SAME


@pytest.mark.parametrize("british, american", [
    ("organisation", "organization"), ("authorised", "authorized"), ("prioritising", "prioritizing"),
    ("centre", "center"), ("licence", "license"), ("behaviour", "behavior"), ("catalogue", "catalog"),
    ("cancelled", "canceled"), ("realisations", "realizations"),
])
def test_a_british_spelling_is_the_american_word(british, american):
    from guard.compare import _stem
    assert _stem(british) == _stem(american)


@pytest.mark.parametrize("a, b", [("hour", "hor"), ("tour", "tor"), ("four", "for"),
                                  ("raise", "raze"), ("analysis", "analyzes")])
def test_a_plain_ending_is_no_british_spelling(a, b):
    from guard.compare import _stem
    assert _stem(a) != _stem(b)


def test_a_rule_and_a_note_in_two_spellings_are_about_one_thing(normalizer_v2):
    """"Do not prop open the data centre doors" read as of another subject than "… data center doors" (``guard bench
    invariance``, British spellings): the two opposing rules were not one subject's."""
    a = normalizer_v2.normalize("Do not prop open the data centre doors.", Scope(), Window())
    b = normalizer_v2.normalize("The data center doors may be propped open.", Scope(), Window())
    v = StructuralComparator().compare(a, "Do not prop open the data centre doors.", b,
                                       "The data center doors may be propped open.")
    assert v.kind == VerdictKind.CONTRADICTION, v.reason
