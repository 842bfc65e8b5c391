"""normalizer.rules.v2: main clause of long sentences, attributes, typed values, scope in the prose."""
import pytest
from conftest import structural_verdict as verdict

from guard.claims import Bound, Modality, Scope, StateVerb, Window
from guard.compare import Confidence, StructuralComparator, VerdictKind, bounds_conflict
from guard.normalize import get_normalizer, registered
from guard.normalize.rules_v2 import split_main_clause, text_scope
from guard.normalize.typed_values import extract_typed_values


def norm(n, text):
    return n.normalize(text, Scope(), Window())


def ends_at_once(code: str, limit_s: int = 60) -> None:
    """Runs ``code`` in its own interpreter, so a runaway regex fails the test instead of hanging it."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=limit_s, check=False)
    assert r.returncode == 0, r.stderr[-500:]


def bound(text):
    [v] = [v for v in extract_typed_values(text) if v.bound is not None]
    return v.bound


def op_number_unit(text):
    b = bound(text)
    return b.op, b.number, b.unit


def test_both_versions_are_registered():
    assert {"normalizer.rules.v1", "normalizer.rules.v2"} <= set(registered())
    assert get_normalizer("rules.v2").name == "normalizer.rules.v2"


@pytest.mark.parametrize("a, b", [
    ("Backups are kept for 5 days.", "Backups are kept for 120 hours."),
    ("The stipend is $250/week.", "The stipend is $250 per week."),
    ("The API allows 6000 requests per minute.", "The API allows 100 requests per second."),
    ("Uploads are limited to 10 MiB.", "Uploads are limited to 10485760 bytes."),
    ("Support ends on 2026-04-30.", "Support ends on April 30, 2026."),
    ("Backups run at 02:00 UTC.", "Backups run at 2am UTC."),
    ("Backups run at 14:00.", "Backups run at 2 p.m."),
    ("The office closes at noon.", "The office closes at 12:00."),
    ("The job starts at midnight.", "The job starts at 12am."),
])
def test_one_quantity_in_two_spellings_is_one_value(a, b):
    x, y = bound(a), bound(b)
    assert x.unit == y.unit and x.number == pytest.approx(y.number)
    assert not bounds_conflict(x, y)


def test_bounds_compare_across_units_and_month_precision():
    assert bounds_conflict(bound("Logs are kept for at most 2 days."), bound("Logs are kept for at least 72 hours."))
    assert not bounds_conflict(bound("Logs are kept for at most 3 days."), bound("Logs are kept for at least 48 hours."))
    assert not bounds_conflict(Bound("eq", 20260415, "date"), Bound("eq", 20260400, "date"))   # April 2026
    assert bounds_conflict(Bound("eq", 20250430, "date"), Bound("eq", 20260400, "date"))


@pytest.mark.parametrize("text, number, op", [
    ("Node 18 is supported until 2026.", 20260000, "eq"),
    # the end or the start of a year is its last or its first day (session 92; it was the year, so "until the end of
    # 2027" and "on March 1, 2027" were one value at year precision)
    ("PHP 7.4 gets security patches through the end of 2023.", 20231231, "eq"),
    ("Support runs until the beginning of 2026.", 20260101, "eq"),
    ("Support runs until mid-2026.", 20260000, "eq"),
    ("Ubuntu 20.04 standard support ends in 2027.", 20270000, "eq"),
    ("Debian 10 reached end of life in 2024.", 20240000, "eq"),
    ("The migration must be finished by 2025.", 20250000, "le"),
    # after a bare "in" where the statement is about a release's life (session 92)
    ("Ubuntu 22.04 stops getting security updates in 2025.", 20250000, "eq"),
    ("The v2 API was launched in 2019.", 20190000, "eq"),
])
def test_a_year_alone_is_a_date_where_its_words_make_it_a_point_in_time(text, number, op):
    assert bound(text) == Bound(op, number, "date")


@pytest.mark.parametrize("text", [
    "The office moved to Berlin in 2019.",          # the year of an event, after a bare "in"
    "The team was founded in 2015 and now has 40 engineers.",
    "RFC 3501 kicked off the 2024 Edition.",          # a name
    "Uptime must stay above 99.9% until 2026%.",      # no year
    "The style guide was written for 2030s hardware.",
])
def test_a_year_elsewhere_is_no_date(text):
    assert all(v.kind != "date" for v in extract_typed_values(text))


def test_a_year_compares_by_year():
    """"supported until 2026" against "end of life on 2025-04-30" is a conflict; against "until October
    2026" it is the same year said less exactly."""
    assert bounds_conflict(Bound("eq", 20250430, "date"), Bound("eq", 20260000, "date"))
    assert not bounds_conflict(Bound("eq", 20261000, "date"), Bound("eq", 20260000, "date"))
    assert not bounds_conflict(Bound("eq", 20260000, "date"), Bound("eq", 20260415, "date"))
    assert bounds_conflict(Bound("eq", 20270000, "date"), Bound("eq", 20250400, "date"))


def test_times_of_day_are_minutes_after_midnight_in_their_zone():
    """Until session 36 a time of day was read as its hour alone: "14:00 UTC" / "2 p.m. UTC" was a
    HIGH value contradiction (14 vs 2) and "1am" / "3am" was "same value"."""
    assert bounds_conflict(bound("The nightly job starts at 1am."), bound("The nightly job starts at 3am."))
    assert bounds_conflict(bound("Backups run at 02:00 UTC."), bound("Backups run at 02:30 UTC."))
    assert bound("Deploys stop by 5pm CET.") == Bound("le", 1020.0, "clock/cet")     # a deadline, in its zone
    assert bound("Tell your manager by 9:00 am ET.").unit == "clock/et"
    assert bound("Deploys stop after 15:00 UTC.") == Bound("ge", 900.0, "clock")
    # "until"/"till" name the end itself, before a time of day as before a date (session 37; it was read
    # as a deadline, so "allowed until 3pm" / "allowed until 5pm" were two compatible upper bounds)
    assert bound("Deploys are allowed until 3pm UTC.") == Bound("eq", 900.0, "clock")
    assert bound("Support runs till 18:00.") == Bound("eq", 1080.0, "clock")
    assert bound("Node 18 is supported until April 2026.") == Bound("eq", 20260400, "date")
    assert bounds_conflict(bound("Deploys are allowed until 3pm UTC."), bound("Deploys are allowed until 5pm UTC."))
    for text in ("A contrast ratio of 3:1 is enough.", "The log line reads 10:30:15.", "We have 2 PMs.",
                 "Backups run at 2am best effort."):
        assert [v.bound.unit for v in extract_typed_values(text) if v.bound and v.bound.unit.startswith("clock")] \
            == (["clock"] if "2am" in text else []), text


def test_money_keeps_its_period_apart_from_a_one_off_amount():
    assert bound("The stipend is $300 per week.").unit == "usd/time"
    assert bound("The laptop budget is $300.").unit == "usd"


@pytest.mark.parametrize("text", ["The Pro plan costs $20 per user per month.", "Pro is $20/seat/month.",
                                  "Pro is billed at $20 a month for each seat.", "Pro costs $20 per month per member.",
                                  "Pro costs $240 per licence per year.", "Pro is 20 dollars per user per month."])
def test_a_price_per_head_is_its_own_quantity_in_any_order_of_words(text):
    """Session 92: "$20 per user per month" was a one-off $20 (the head stopped the period being read) and "$25 per
    month per user" the plan's whole monthly price, so per-seat prices never met and met plans' totals instead."""
    b = bound(text)
    assert b.unit == "usd/time/user" and b.number == pytest.approx(20 / (30 * 86400), rel=0.015), (text, b)
    assert bound("Pro costs $10 per user.").unit == "usd/user"
    assert bound("Each node costs $5 per month.").unit == "usd/time"        # the head is the subject's, not the price's
    assert bound("Hosting is $5 per server per month.").unit == "usd/time/host"


@pytest.mark.parametrize("text, op", [
    ("The meal allowance is $40 per day.", "le"), ("The travel budget is $2,000 per year.", "le"),
    ("Each team has a budget of $500.", "le"), ("The storage quota is 10 GB.", "le"),
    ("The on-call stipend is $300 per week.", "eq"),      # a payment, not what may be spent
    ("The meal allowance is not less than $40 per day.", "ge"),
    # a negated comparison outside the value's own words turns round (it stayed "le": session 92) …
    ("Uploads are not less than 25 MB.", "ge"), ("Uploads are never more than 25 MB.", "le"),
    # … unless the comparison is one already read whole
    ("Uploads are not more than 25 MB.", "le"), ("Uploads are no less than 25 MB.", "ge"),
])
def test_an_allowance_a_budget_or_a_quota_is_what_may_be_spent(text, op):
    """Session 92: "The meal allowance is $40 per day." was the amount itself, which "Travelers can spend up to $60 a
    day on meals." kept (40 within 60): the gate read the values as agreeing and let the pair through clean."""
    assert bound(text).op == op, bound(text)


def test_prices_per_head_meet_each_other_and_not_a_whole_price(normalizer_v2):
    v = verdict(normalizer_v2, "The Pro plan costs $20 per user per month.", "Pro is billed at $25 a month for each seat.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "The Pro plan costs $20 per user per month.", "The Pro plan costs $240 per user per year.")
    assert v.kind is VerdictKind.CONSISTENT, v
    v = verdict(normalizer_v2, "The Pro plan costs $20 per user per month.", "The Pro plan costs $200 per month.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v


def test_one_price_per_month_and_per_year_is_one_value(normalizer_v2):
    """A month is 30 days and a year 365 for money as for spans (session 92: "$100 per month" / "$1,200 a year" was a
    HIGH value conflict, 1.4 % apart); a price that differs by more is still one."""
    v = verdict(normalizer_v2, "The stipend is $100 per month.", "The stipend is $1,200 a year.")
    assert v.kind is VerdictKind.CONSISTENT, v
    v = verdict(normalizer_v2, "The stipend is $100 per month.", "The stipend is $1,250 a year.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


def test_and_is_not_a_rate():
    kinds = [(v.kind, v.text) for v in extract_typed_values("Port 8443, TLS 1.2 and 99.9% uptime")]
    assert ("version", "TLS 1.2") in kinds and all("and" not in t for _, t in kinds)


def test_main_clause_keeps_conditions_and_asides_apart():
    main, quals = split_main_clause("Out of the box, the scheduler retries a failed job (a cron task) three times.")
    assert main == "The scheduler retries a failed job three times." and set(quals) == {"Out of the box", "a cron task"}
    main, quals = split_main_clause("If you travel for a customer visit, the company pays for your hotel.")
    assert main.startswith("The company pays") and quals == ("If you travel for a customer visit",)
    main, _ = split_main_clause("Passwords are hashed with bcrypt, unless the legacy store is used.")
    assert main == "Passwords are hashed with bcrypt."
    assert split_main_clause("Short, but fine.")[0] == "Short, but fine."     # too little would be left


def test_an_even_clause_leads_and_a_clause_without_its_comma_does_not_swallow_the_main():
    """"Even with every paid add-on, an Ubuntu LTS release is covered …" had no subject ("even" opened
    no leading clause); "During the annual pentest the red team may scan …, since it's our own
    tenant." was read as "Since it's our own tenant." (the leading clause ran to the trailing one's comma)."""
    main, quals = split_main_clause("Even with every paid add-on, an Ubuntu LTS release is covered for at most 10 years.")
    assert main == "An Ubuntu LTS release is covered for at most 10 years." and quals == ("Even with every paid add-on",)
    main, quals = split_main_clause("During the annual pentest the red team may scan the tenant, since it's our own.")
    assert main == "The red team may scan the tenant." and quals == ("During the annual pentest", "since it's our own.")


@pytest.mark.parametrize("text, main", [
    ("By granting the admin privilege to administrators only, an administrator can always connect to the server.",
     "An administrator can always connect to the server."),
    ("Starting January 1st 2026, Fly.io charges for snapshot storage at $0.08/GB per month.",
     "Fly.io charges for snapshot storage at $0.08/GB per month."),
    ("Assuming two people are on call, the rotation needs at least eight engineers.",
     "The rotation needs at least eight engineers."),
    ("In most cases and depending upon the country, a minimum of two weeks' notice is required.",
     "A minimum of two weeks' notice is required."),
    ("Effective July 1, 2023, CAs must not sign SHA-1 hashes.", "CAs must not sign SHA-1 hashes."),
    ("On July 1, 2023, the old API was shut down.", "The old API was shut down."),
    # not a leading clause: a gerund subject, and "by" before no gerund
    ("Using both send_at and send_each_at in one request is not valid, and setting both fails.",
     "Using both send_at and send_each_at in one request is not valid, and setting both fails."),
    ("By 2027 all services must use TLS 1.3.", "By 2027 all services must use TLS 1.3."),
])
def test_a_means_a_start_or_an_assumption_leads_the_rule(text, main):
    """Session 49: "By <doing> …,", "Starting <when>,", "Assuming …," and "depending upon …," opened no
    leading clause, so their words became the subject ("grant CONNECTION_ADMIN privilege", "charge"); a
    leading clause ended at a date's own comma ("On July 1," left "2023, CAs …")."""
    assert split_main_clause(text)[0] == main


def test_leading_adverbial_is_not_the_subject(normalizer_v2, normalizer):
    text = "Out of the box, the scheduler retries a failed job three times."
    n = norm(normalizer_v2, text)
    assert n.subject == "scheduler" and n.attribute == "retry count" and n.value == "three times"
    assert n.qualifiers == ("Out of the box",)
    assert norm(normalizer, text).subject != "scheduler"          # v1 stays as it was


@pytest.mark.parametrize("text, attribute", [
    ("The default value of max_connections is 151.", "max_connections"),
    ("MySQL ships with max_connections set to 100.", "max_connections"),
    ("The on-call stipend is $300 per week.", "stipend"),
    ("Node 18 reached end of life on 2025-04-30.", "end of support date"),
    ("The cache listens on port 6379.", "port"),
    ("The secret must have at least 160 bits of entropy.", "entropy"),
    ("Production deploys must be approved by two reviewers.", "approvals"),
    # the setting named by the clause, not the thing it belongs to nor a verb's fallback (session 49)
    ("The recovery point objective for the warehouse is 24 hours.", "recovery point objective"),
    ("The global rate limit for the Cloudflare API is 1200 requests per five minutes.", "rate limit"),
    ("The Cloud Run request timeout is set by default to 5 minutes.", "request timeout"),
    ("AWS recommends setting the maximum retention period for SNS dead-letter queues to 14 days.", "retention period"),
    ("Raw event data is kept for 90 days.", "retention period"),   # kept for: how long, not what is kept
    # a second verb with an auxiliary of its own is a second predicate, not the first verb's list (session 77)
    ("Logs rotate daily and are retained for 30 days.", "retention period"),
    ("Backups run nightly and are kept for 14 days.", "retention period"),
    ("Line managers can allow up to 3 days of paid compassionate leave.", "leave"),   # "paid": a participle
    # a value written as a noun's modifier is that noun's, not its unit's ("characters", "bytes")
    ("Every account needs a 12-character password.", "password"),
    ("Each team gets a 10-GB storage quota.", "storage quota"),
    ("Deploys happen in a 2-hour maintenance window.", "maintenance window"),
    ("Deploys happen in a 2-hour window.", "time"),      # a bare "window", "mark", "point": only when
])
def test_attribute_a_value_belongs_to(normalizer_v2, text, attribute):
    assert norm(normalizer_v2, text).attribute == attribute


@pytest.mark.parametrize("text, attribute", [
    ("Logs are retained for 30 days.", "retention period"),
    ("All Angular major releases are typically supported for 24 months.", "support period"),
    ("Mailgun's store action stores a message temporarily, for up to 3 days, on its servers.", "storage period"),
    ("Interaction tokens are valid for 15 minutes.", "validity period"),
    ("Refunds are issued within 5 business days.", "issuance time"),
    ("Unacknowledged pages escalate to the secondary after 15 minutes.", "escalation time"),
    ("Queries in CloudWatch Logs Insights time out after 15 minutes.", "timeout"),
    ("Logs Insights queries may run for up to 60 minutes.", "run time"),
    # a duration written as a noun's modifier is that noun's, not the unit's
    ("Netlify scheduled functions have a 30-second execution limit.", "execution limit"),
    ("The Onyx team starts its two-week sprints on Wednesdays.", "sprint"),
    # a verb that says nothing of what is measured names nothing: the unit's family, as before
    ("Onboarding takes two weeks.", "time"),
])
def test_a_duration_is_named_by_the_action_it_measures(normalizer_v2, text, attribute):
    """A length of time said through a verb had no noun of its own, so every such value was "time"
    (253 of the benchmark's statements) or the verb's object ("message")."""
    assert norm(normalizer_v2, text).attribute == attribute


def test_within_and_after_name_one_time_of_one_action(normalizer_v2):
    """"deleted after at most 90 days" and "deleted … within three months" say when one action happens;
    the first of coordinated verbs names it."""
    a = norm(normalizer_v2, "Visitor IPs are deleted, aggregated, or de-identified after at most 90 days.")
    b = norm(normalizer_v2, "Raw visitor IPs are deleted, aggregated, or de-identified within three months.")
    assert a.attribute == b.attribute == "deletion time"


def test_two_objectives_of_one_thing_are_two_attributes(normalizer_v2):
    """RPO and RTO of one warehouse both read "warehouse" (the noun nearest their values), so the
    gate saw one attribute with two values."""
    from guard.compare import attributes_match
    rpo = norm(normalizer_v2, "The recovery point objective for the warehouse is 24 hours.").attribute
    rto = norm(normalizer_v2, "The recovery time objective for the warehouse is 8 hours.").attribute
    assert not attributes_match(rpo, rto)
    assert attributes_match(rto, norm(normalizer_v2, "The warehouse's recovery time objective is 4 hours.").attribute)
    # without the owner's phrase the set noun is named as it was with it, compounds and all (it read
    # "objective" alone, so a bare RPO and a bare RTO were one attribute again)
    bare_rto = norm(normalizer_v2, "The recovery time objective is 4 hours.").attribute
    bare_rpo = norm(normalizer_v2, "The recovery point objective is 1 hour.").attribute
    assert bare_rto == rto == "recovery time objective" and not attributes_match(bare_rto, bare_rpo)


def test_statement_without_a_value_has_no_attribute(normalizer_v2):
    assert norm(normalizer_v2, "Privileged containers are not allowed.").attribute is None


def test_scope_stated_in_the_prose():
    assert text_scope("Verbose tracing is on in staging.") == Scope(env="staging")
    assert text_scope("Verbose tracing is off in production.") == Scope(env="prod")
    assert text_scope("Tracing is on in staging and in production.") is None     # two envs: no single scope
    # an environment as the subject's first word (session 36): "The staging cluster runs 3 nodes." and
    # "The production cluster runs 5 nodes." were blocked (the model gives such pairs p ~1.0)
    assert text_scope("The staging cluster runs 3 nodes.") == Scope(env="staging")
    assert text_scope("Production deploys need two approvals.") == Scope(env="prod")
    assert text_scope("All prod bastion hosts accept only hardware keys.") == Scope(env="prod")
    for text in ("Test cards are rejected.", "Stage 2 of the rollout starts in May.", "Dev teams own their alerts.",
                 "Production environments need two approvals.", "The staging of releases takes a day.",
                 # what holds only in one environment speaks of the others too (session 37: "Debug builds
                 # run only in staging." / "Debug builds run in production." coexisted)
                 "Debug builds run only in staging.", "Verbose tracing is enabled exclusively in production."):
        assert text_scope(text) is None, text
    assert text_scope("In staging, only admins may deploy.") == Scope(env="staging")   # "only" of the admins


@pytest.mark.parametrize("text, modality", [
    ("Database migrations never need a DBA review.", Modality.MAY_NOT),
    ("Production deploys must not require approval.", Modality.MAY_NOT),
    ("AWS recommends setting the retention period to 14 days.", Modality.SHOULD),
])
def test_lifted_obligations(normalizer_v2, text, modality):
    assert norm(normalizer_v2, text).modality is modality


def test_halting_words_deny_in_v2_only(normalizer_v2, normalizer):
    """"paused"/"suspended" read as "may not go on" in v2; v1's norms stay as they were."""
    assert norm(normalizer_v2, "Releases are paused during the holiday freeze.").modality is Modality.MUST_NOT
    assert norm(normalizer_v2, "Releases are paused during the holiday freeze.").subject == "release"
    assert norm(normalizer, "Releases are paused during the holiday freeze.").modality is Modality.MUST


def test_speaker_is_not_the_subject(normalizer_v2):
    assert norm(normalizer_v2, "AWS recommends setting the maximum retention period to 14 days.").subject == \
        "maximum retention period"


@pytest.mark.parametrize("text, subject", [
    ("Deploys require approval.", "deploy"),
    ("Refunds require a receipt.", "refund"),
    ("Fly recommends setting auto_stop_machines in your fly.toml file.", "auto_stop_machines"),
    ("Google requires 2FA.", "2fa"),
])
def test_a_plural_noun_opening_the_sentence_is_no_speaker(normalizer_v2, text, subject):
    """Session 96: a capital at the sentence's start is no name's: "Deploys require approval." was spoken by "Deploys",
    as "AWS requires …" is, and so about approval — against "Deploys do not require approval." two subjects."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_requirement_and_its_lifting_on_one_plural_subject_oppose(normalizer_v2):
    v = verdict(normalizer_v2, "Deploys require approval.", "Deploys do not require approval.")
    assert (v.kind, v.confidence) == (VerdictKind.CONTRADICTION, Confidence.HIGH), v


@pytest.mark.parametrize("text, subject", [
    ("Anthropic suggests reading your current rate limits at startup.", "rate limit"),
    ("Security advises rotating access keys every 90 days.", "access key"),
    ("We encourage team members to take at least 12 work days off a year.", "team member"),
])
def test_advice_verbs_are_advice_about_their_object(normalizer_v2, text, subject):
    """"suggests", "advises", "encourages" were read as a fact with the verb in its subject ("suggest read current
    rate limit", modality must), where "recommends" was advice about its object."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality) == (subject, Modality.SHOULD)


@pytest.mark.parametrize("text, subject, modality", [
    ("We strongly recommend enabling MFA on all accounts.", "mfa", Modality.SHOULD),
    ("We also require two approvals for production deploys.", "production deploy", Modality.MUST),
    ("You really should rotate keys every 90 days.", "key", Modality.SHOULD),
])
def test_an_adverb_after_the_person_leaves_the_rule_about_its_object(normalizer_v2, text, subject, modality):
    """Read without the adverb ("We recommend enabling MFA …" is about MFA) these were about "strongly", about
    nothing, or about nothing: the adverb made "we" / "you" look like part of what the rule is about."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality) == (subject, modality)
    plain = norm(normalizer_v2, text.replace(" strongly", "").replace(" also", "").replace(" really", ""))
    assert (plain.subject, plain.modality) == (subject, modality)


@pytest.mark.parametrize("a, b, kind", [
    ("Out of the box, the scheduler retries a failed job three times.",
     "By default the scheduler retries failed jobs five times before giving up.", VerdictKind.VALUE_CONFLICT),
    ("The default value of max_connections is 151.", "MySQL ships with max_connections set to 100.",
     VerdictKind.VALUE_CONFLICT),
    ("Production deploys must be approved by two reviewers.", "Production deploys must not require approval.",
     VerdictKind.CONTRADICTION),
    ("Database migrations must be reviewed by a DBA.", "Database migrations never need a DBA review.",
     VerdictKind.CONTRADICTION),
    ("The cache listens on port 6379.", "The cache does not listen on port 6380.", VerdictKind.CONSISTENT),
    ("Verbose tracing is on in staging.", "Verbose tracing is off in production.", VerdictKind.COEXIST),
    ("Releases are paused during the holiday freeze.", "Releases are permitted during the holiday freeze.",
     VerdictKind.CONTRADICTION),
    ("Secrets are stored in Vault.", "Secrets are stored in AWS Secrets Manager.", VerdictKind.VALUE_CONFLICT),
])
def test_structure_on_the_design_examples(normalizer_v2, a, b, kind):
    assert verdict(normalizer_v2, a, b).kind is kind


def test_where_a_thing_is_kept_is_a_value_only_when_it_is_named(normalizer, normalizer_v2):
    assert norm(normalizer_v2, "Secrets are stored in AWS Secrets Manager.").value == "AWS Secrets Manager"
    assert norm(normalizer_v2, "Build artifacts are kept in Artifactory.").value == "Artifactory"
    assert norm(normalizer_v2, "Secrets are stored in the config directory.").value is None   # a place, not a product
    assert norm(normalizer_v2, "Verbose tracing is stored in staging.").value is None
    assert norm(normalizer, "Secrets are stored in Vault.").value is None                  # v1 stays as it was


def test_values_of_two_named_attributes_are_not_compared(normalizer_v2):
    v = verdict(normalizer_v2, "The database sets max_connections to 151.", "The database sets max_user_connections to 100.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT


def test_a_conjunct_restated_is_consistent(normalizer_v2):
    from guard.compare import restates_a_conjunct
    v = verdict(normalizer_v2, "X preserves ordering and rejects null keys.", "X preserves ordering.")
    assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.HIGH
    assert not restates_a_conjunct("X preserves ordering.", "X preserves ordering only in tests.")
    assert not restates_a_conjunct("X preserves ordering.", "X preserves ordering.")


@pytest.mark.parametrize("a, b", [
    ("Only team leads can grant repository access.", "Team leads can grant repository access."),
    ("SSO is available on the Enterprise plan only.", "SSO is available on the Enterprise plan."),
    ("Refunds are only issued as store credit.", "Refunds are issued as store credit."),
])
def test_what_a_rule_keeps_to_someone_holds_of_them(normalizer_v2, a, b):
    # session 96: the statement without its "only" is what the other keeps to it, which the cross-encoder blocked
    from guard.compare import restated_without_only
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH), v
    assert restated_without_only(b, a)


def test_an_only_on_both_sides_or_other_words_is_no_restatement():
    from guard.compare import restated_without_only
    assert not restated_without_only("Only admins can delete projects.", "Only admins can delete projects.")
    assert not restated_without_only("Only admins can delete projects.", "Owners can delete projects.")
    assert not restated_without_only("Only admins can delete projects.", "Admins can delete")
    assert not restated_without_only("Only.", "")


def test_differently_named_subjects_are_not_compared(normalizer_v2):
    from guard.compare import named_things
    from guard.judge import Tier, structure_decides
    v = verdict(normalizer_v2, "The auth-api-0 request timeout is 5 seconds.", "The search-api-3 request timeout is 10 seconds.")
    assert v.kind is VerdictKind.INCOMPARABLE and structure_decides(v) is Tier.CLEAN
    v = verdict(normalizer_v2, "The auth-api-0 request timeout is 5 seconds.", "The auth-api-0 request timeout is 10 seconds.")
    assert v.kind is VerdictKind.VALUE_CONFLICT
    assert named_things("on-call stipend") == set() and named_things("auth-api-0 log") == {"auth-api-0"}


def test_named_subjects_keep_apart_only_things_the_other_statement_does_not_name(normalizer_v2):
    """Long prose names the other statement's thing in a clause: those pairs go to the gate."""
    from guard.compare import mentions_a_name, names_shared
    from guard.judge import structure_decides
    v = verdict(normalizer_v2, "To allow cancelling a scheduled SendGrid send, you must include a batch_id with it.",
                "Scheduled SendGrid sends can be cancelled later even if they were created without a batch_id.")
    assert "named" not in v.evidence and structure_decides(v) is None
    v = verdict(normalizer_v2, "We recommend the ED25519 algorithm for signing keys.",
                "Use RSA-4096 keys for commit signing; we'd avoid ED25519 for now.")
    assert "named" not in v.evidence
    assert names_shared({"net.ipv4.tcp_fin_timeout"}, {"tcp_fin_timeout"}) and names_shared({"`Foo_bar`"}, {"foo_bar"})
    assert not names_shared({"auth-api-0"}, {"auth-api-01"})
    assert mentions_a_name("Use PBKDF2-HMAC-SHA256 here.", {"pbkdf2"}) and not mentions_a_name("the auth-api-01 host",
                                                                                               {"auth-api-0"})


def test_an_identifier_after_a_leading_clause_keeps_its_spelling():
    assert split_main_clause("On the NAT gateways, ip_local_port_range may start below 1024.")[0] == \
        "ip_local_port_range may start below 1024."
    assert split_main_clause("By default, the scheduler retries a job three times.")[0] == \
        "The scheduler retries a job three times."


def test_two_wordings_of_one_setting_with_differing_values_are_not_settled_by_structure(normalizer_v2):
    """"deploys … with 1024 MB" / "defaults to 512 MB": the verbs differ, the values are one setting's."""
    from guard.judge import Tier, structure_decides
    v = verdict(normalizer_v2, "Every Netlify function deploys with 1024 MB of memory.",
                "Netlify functions default to 512 MB of memory.")
    assert v.confidence is Confidence.LOW and structure_decides(v) is None
    v = verdict(normalizer_v2, "Access tokens expire after 15 minutes.", "Access tokens are signed with RS256.")
    assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.HIGH      # two facts about one thing
    v = verdict(normalizer_v2, "The orders-api-2 must not store secrets in environment files.",
                "The orders-api-2 listens on port 3000.")
    assert structure_decides(v) is Tier.CLEAN      # a prohibition and a fact about one thing: both hold


@pytest.mark.parametrize("which", ["v1", "v2"])
def test_one_statement_that_raises_costs_only_its_own_norm(which, normalizer, normalizer_v2, monkeypatch):
    """A statement whose rules raise becomes an unknown norm; its batch-mates keep theirs and
    nothing is normalised twice (the batch is not redone one by one)."""
    from guard.claims import Scope, Window
    from guard.normalize.base import SafeNormalizer
    inner = normalizer if which == "v1" else normalizer_v2
    texts = ["The API listens on port 8443.", "POISON, this one raises.", "Backups run every 6 hours."]
    items = [(t, Scope(), Window()) for t in texts]
    want = [inner.normalize_many([it])[0] for it in items]
    real, calls = inner._norm, []

    def norm_or_raise(doc, text, *a, **kw):
        calls.append(text)
        if text.startswith("POISON"):
            raise RuntimeError("rule bug")
        return real(doc, text, *a, **kw)

    monkeypatch.setattr(inner, "_norm", norm_or_raise)
    got = SafeNormalizer(inner).normalize_many(items)
    assert len(calls) == 3
    assert got[1].is_unknown and "rule bug" in got[1].error
    assert got[0].to_dict() == want[0].to_dict() and got[2].to_dict() == want[2].to_dict()


def test_a_coordinated_clause_with_its_own_subject_does_not_set_the_rules_polarity(normalizer, normalizer_v2):
    """"…, and nothing can run until …": the second clause's "nothing" is another claim's polarity."""
    for text in ("Auth0 load test requests have to be in at least fourteen days before the test date, "
                 "and nothing can run until Auth0 approves it in writing.",
                 "All computers must have a password or biometric access, and PINs are not allowed."):
        assert normalizer_v2.normalize(text, Scope(), Window()).modality is Modality.MUST
    assert normalizer_v2.normalize("Root can't SSH into the bastion, and passwords are not accepted.", Scope(),
                                   Window()).modality is Modality.MUST_NOT
    # v1 is kept as it was, for comparison
    assert normalizer.normalize("All computers must have a password or biometric access, and PINs are not allowed.",
                                Scope(), Window()).modality is Modality.MUST_NOT


def test_one_verb_on_both_sides_is_not_one_state(normalizer_v2):
    """"must not deploy on Fridays" / "is deployed in eu-central-1": the verb is shared, what it is
    about is not — structure must not block (the fast profile blocked 84 such pairs in a 10k store);
    a derivation across the two sides still counts ("approved" / "approval")."""
    from guard.judge import Tier, structure_decides
    for a, b in (("The auth-db-0 is deployed in eu-central-1.", "The auth-db-0 must not deploy on Fridays."),
                 ("The notify-api-2 must not expose the admin endpoint publicly.", "The notify-api-2 listens on port 6379.")):
        v = verdict(normalizer_v2, a, b)
        assert v.kind is not VerdictKind.CONTRADICTION and structure_decides(v) is not Tier.BLOCK, (a, b, v)
    v = verdict(normalizer_v2, "Production deploys must be approved by two reviewers.",
                "Production deploys must not require approval.")
    assert structure_decides(v) is Tier.BLOCK
    v = verdict(normalizer_v2, "The auth-db-0 must not deploy on Fridays.", "The auth-db-0 deploys on Fridays.")
    assert structure_decides(v) is Tier.BLOCK


def test_defaults_to_is_the_verb(normalizer, normalizer_v2):
    """"X defaults to N and is configurable up to M": the subject is X, the value N (v2); v1 is kept."""
    text = "On the Vercel Pro plan, the maximum function duration defaults to 300 seconds and is configurable up to 800 seconds."
    n = normalizer_v2.normalize(text, Scope(), Window())
    assert n.subject == "maximum function duration" and n.value == "300 seconds"
    assert normalizer_v2.normalize("tune.bufsize defaults to 16384.", Scope(), Window()).subject == "tune.bufsize"
    assert normalizer.normalize(text, Scope(), Window()).subject == "maximum function duration default"
    assert normalizer_v2.normalize("Force pushes to main are blocked.", Scope(), Window()).subject == "force push main"


@pytest.mark.parametrize("a, b", [
    ("Shard 4 holds 200 GB.", "Shard 5 holds 300 GB."),
    ("Database 1 is backed up nightly.", "Database 2 is backed up nightly."),
    ("Region 2 has three availability zones.", "Region 3 has four availability zones."),
    ("Worker pool 1 runs 8 threads.", "Worker pool 2 runs 16 threads."),
    ("Tier 1 incidents page the on-call engineer.", "Tier 2 incidents create a ticket."),
    ("Level 2 support responds within 4 hours.", "Level 1 support responds within 1 hour."),
])
def test_a_number_after_a_noun_names_the_thing_not_its_value(normalizer_v2, normalizer, a, b):
    """"Shard 4 holds 200 GB." / "Shard 5 holds 300 GB." was a HIGH value contradiction ("'shard' is
    200 GB in one claim and 300 GB in the other"), and "Database 1 is backed up nightly." was valued
    1: two numbered things read as one thing with two values. v1 keeps its reading, for comparison."""
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    assert na.subject != nb.subject and any("-" in w for w in na.subject.split())
    v = StructuralComparator().compare(na, a, nb, b)
    assert v.kind is VerdictKind.INCOMPARABLE and "different named subjects" in v.reason, v
    assert StructuralComparator().compare(norm(normalizer, a), a, norm(normalizer, b), b).kind \
        is not VerdictKind.INCOMPARABLE


@pytest.mark.parametrize("a, b, incomparable", [
    ("Shard 4 is the primary shard.", "Shard 5 is the primary shard.", False),     # a role one thing holds
    ("Only shard 4 stores PII.", "Shard 5 stores PII.", False),
    ("The auth-api-0 accepts only TLS 1.3.", "The search-api-0 accepts only TLS 1.2.", True),   # "only" of the value
])
def test_what_holds_only_for_one_named_thing_is_compared(normalizer_v2, a, b, incomparable):
    v = verdict(normalizer_v2, a, b)
    assert (v.kind is VerdictKind.INCOMPARABLE) is incomparable, v


@pytest.mark.parametrize("a, b", [
    ("Shard 4 holds 200 GB.", "Shard 4 holds 300 GB."),
    ("Java JDK 17+ is required.", "Java JDK 21+ is required."),
])
def test_one_numbered_thing_with_two_values_still_conflicts(normalizer_v2, a, b):
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    v = StructuralComparator().compare(na, a, nb, b)
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH, v


@pytest.mark.parametrize("text, value", [
    ("After 3 retries the job fails.", "3 retries"),        # a count before its noun is a quantity
    ("Top 10 customers get a discount.", "10"),
    ("Java JDK 17+ is required.", "17"),                     # a bound is a requirement's value
    ("Node.js 18+ is required.", "Node.js 18+"),             # versions stay values
])
def test_quantities_before_the_verb_stay_values(normalizer_v2, text, value):
    assert norm(normalizer_v2, text).value == value


@pytest.mark.parametrize("text, variants", [
    ("Customers on the Basic tier get 10 GB of storage.", {("tier", "basic")}),
    ("Basic-tier customers get 20 GB of storage.", {("tier", "basic")}),
    ("Free plan users can create 5 projects.", {("plan", "free")}),
    ("It is 2 GB on the Hobby plan and 4 GB on the Pro and Enterprise plans.",
     {("plan", "hobby"), ("plan", "pro"), ("plan", "enterprise")}),
    ("CDN cache limits apply: 512 MB for Free, Pro, and Business plans.",
     {("plan", "free"), ("plan", "pro"), ("plan", "business")}),
    ("Vercel Pro plan users get 3 GB.", {("plan", "pro")}),
    ("Data in the EU region is stored in Frankfurt.", {("region", "eu")}),
    ("Buckets in the us-east-1 region are replicated.", {("region", "us-east-1")}),
    ("Projects on a paid plan cannot be paused.", {("plan", "*")}),              # a class: comparable with any
    ("Quotas are shared by users on the same plan.", {("plan", "*")}),
    ("The migration plan needs two approvals.", set()),                         # a plan, not a variant
    ("Migration plan needs two approvals.", set()),                             # capitalised only as first word
    ("Our disaster recovery plan is reviewed annually.", set()),
])
def test_named_variants(text, variants):
    from guard.normalize.rules_v2 import named_variants
    assert set(named_variants(text)) == variants


@pytest.mark.parametrize("text, variants", [
    ("Python 3.11 is supported until October 2027.", {("python version", "3.11")}),
    ("Ubuntu 22.04 hosts use kernel 5.15.", {("ubuntu version", "22.04")}),     # a lower-case noun: no product
    ("Our API v1 is rate limited to 100 requests per minute.", {("api version", "1")}),
    ("The v1 endpoint returns XML.", set()),
    ("Costs rose 2.5 percent.", set()),
    ("Node 18 reached end of life.", set()),                 # a whole number: a numbered name already
])
def test_version_variants(text, variants):
    from guard.normalize.rules_v2 import version_variants
    assert set(version_variants(text)) == variants


def test_named_variants_on_hostile_text_end_at_once():
    """A first version let list separators be empty, so a run of words split into names in
    exponentially many ways: one 150-character statement ran for minutes. Run apart, under a limit."""
    code = ("from guard.normalize.rules_v2 import named_variants as v\n"
            "for t in ['A ' * 1000, 'A, ' * 660, 'A and ' * 330, 'Pro-' * 490 + 'x', 'a.b' * 600, 'Free, ' * 330 + 'plans',\n"
            "          'Cloudflare does not enforce response body size limits on Workers, but CDN cache limits apply: '\n"
            "          '512 MB for Free, Pro, and Business plans, and 5 GB for Enterprise.']:\n"
            "    v(t[:2000])\n")
    ends_at_once(code)


@pytest.mark.parametrize("a, b, kind", [
    ("Customers on the Basic tier get 10 GB of storage.", "Customers on the Premium tier get 100 GB of storage.",
     VerdictKind.COEXIST),
    ("In the Standard edition, backups are kept for 7 days.", "In the Enterprise edition, backups are kept for 35 days.",
     VerdictKind.COEXIST),
    ("Data in the EU region is stored in Frankfurt.", "Data in the US region is stored in Virginia.", VerdictKind.COEXIST),
    # one variant on both sides, or one side naming none, or a class, or a region within a region: compared
    ("Customers on the Basic tier get 10 GB of storage.", "Customers on the Basic tier get 20 GB of storage.",
     VerdictKind.VALUE_CONFLICT),
    ("Customers on the Basic tier get 10 GB of storage.", "Customers get 20 GB of storage.", None),
    ("Projects on a paid plan cannot be paused.", "Projects on the Pro plan can be paused.", None),
    ("Data in the EU region is kept for 30 days.", "Data in the eu-west-1 region is kept for 90 days.", None),
    # what holds only for one variant speaks of the others too
    ("Only the Enterprise plan includes SSO.", "Only the Pro plan includes SSO.", None),
    ("SSO is available only on the Enterprise plan.", "SSO is available on the Pro plan.", None),
    ("SSO is exclusive to the Enterprise plan.", "The Pro plan includes SSO.", None),
    # a variant inside what the statement says of its subject is its content, not its scope
    ("New customers must start on the Free plan.", "New customers must start on the Pro plan.", None),
    ("Backups are stored in the eu-west-1 region.", "Backups are stored in the us-east-1 region.", None),
    ("All new accounts are placed in the EU region.", "All new accounts are placed in the US region.", None),
    ("Our recommended plan is the Pro plan.", "Our recommended plan is the Team plan.", None),
    # …but in the complement of a state it is where the state holds
    ("Audit logs are not available on the Free plan.", "Audit logs are available on the Enterprise plan.",
     VerdictKind.COEXIST),
    # a product's versions are its variants, unless the version is what the statement says or a role
    # only one version can hold
    ("Python 3.11 is supported until October 2027.", "Python 3.12 is supported until October 2028.",
     VerdictKind.COEXIST),
    ("Our API v1 is rate limited to 100 requests per minute.", "Our API v2 is rate limited to 500 requests per minute.",
     VerdictKind.COEXIST),
    ("Python 3.12 is supported until 2028.", "Python 3.12.1 is supported until 2027.", None),   # a version within one
    ("Clients must use API v2.", "Clients must use API v1.", None),
    ("Python 3.11 is the minimum supported version.", "Python 3.12 is the minimum supported version.", None),
    ("The Pro plan is the most popular plan.", "The Team plan is the most popular plan.", None),
    ("The Enterprise plan is the only plan with SSO.", "Pro plan customers get SSO.", None),
    # an "only" after the variant is about the value
    ("Customers on the Basic tier get only 10 GB of storage.", "Customers on the Premium tier get 100 GB of storage.",
     VerdictKind.COEXIST),
    # a region in the subject's phrase says which of the subject, before the verb (session 38)
    ("Instances in the eu-west-1 region use gp3 volumes.", "Instances in the us-east-1 region use io2 volumes.",
     VerdictKind.COEXIST),
    ("Databases in eu-west-1 must be encrypted.", "Databases in us-east-1 need no encryption.", VerdictKind.COEXIST),
    ("Instances in the eu-west-1 region use gp3 volumes.", "Instances in the eu-west-1 region use io2 volumes.", None),
    ("Databases in eu-west-1 must be encrypted.", "Databases in eu-west-1 must not be encrypted.", None),
    ("The v1 endpoint returns XML.", "The v2 endpoint returns JSON.", VerdictKind.COEXIST),
    ("The v1 endpoint returns XML.", "The v1 endpoint returns JSON.", None),
    ("Clients must use v2.", "Clients must use v1.", None),                   # the version is what is said
])
def test_different_variants_of_one_kind_coexist(normalizer_v2, a, b, kind):
    """Per-plan limits and per-region settings are siblings, as environments are: read as one subject
    with two values they were HIGH value conflicts (and the model gives them p ~1.0)."""
    v = verdict(normalizer_v2, a, b)
    if kind is None:
        assert v.kind is not VerdictKind.COEXIST, v
    else:
        assert v.kind is kind, v


@pytest.mark.parametrize("text, value, region", [
    ("Instances in the eu-west-1 region use gp3 volumes.", None, "eu-west-1"),
    ("Databases in eu-west-1 must be encrypted.", None, "eu-west-1"),
    ("Backups are stored in the eu-west-1 region.", "eu-west-1", None),     # after the verb: what is said
    ("eu-west-1 is the primary region.", "eu-west-1", None),                # the region is the subject
])
def test_a_region_in_the_subject_phrase_is_a_variant_not_the_value(normalizer_v2, text, value, region):
    """Read as the value, "Instances in the eu-west-1 region use gp3 volumes." / "… us-east-1 … io2
    …" was one subject with two values, a HIGH value conflict."""
    n = norm(normalizer_v2, text)
    assert n.value == value
    assert (("region", region) in n.variants) if region else not any(k == "region" for k, _ in n.variants)
    if region:
        assert n.attribute is None          # the region's nearest noun ("instance") is no attribute of anything


@pytest.mark.parametrize("text, value, variant", [
    ("The v1 endpoint returns XML.", None, ("endpoint version", "1")),
    ("v2 clients must send a token.", None, ("client version", "2")),
    ("Calling GET /v1/coupons/{id}/redeem marks the coupon as redeemed.", None, None),   # a path's segment: no value
    # not the subject's noun: the opening phrase's, read as with its comma ("On gateway v10, the bot …"), which
    # leaves the version with the phrase (guard.normalize.openings)
    ("On gateway v10 the bot doesn't need to list intents.", None, None),
])
def test_a_bare_version_before_the_subjects_noun_is_a_variant(normalizer_v2, text, value, variant):
    n = norm(normalizer_v2, text)
    assert n.value == value
    assert (variant in n.variants) if variant else not any(k.endswith("version") for k, _ in n.variants)


def test_how_often_in_one_word_is_a_period_of_its_own():
    """"Log files are rotated daily." / "… weekly." had no value, so structure could not see the
    conflict and the gate let it through (clean). A one-word frequency is a period in its own unit
    family: never compared with a duration, and never chosen over a more exact value."""
    assert bound("Log files are rotated daily.") == Bound("eq", 86400.0, "period")
    assert bound("Restore drills run quarterly.").number == 90 * 86400
    assert bounds_conflict(bound("Log files are rotated daily."), bound("Log files are rotated weekly."))
    assert not bounds_conflict(bound("Backups run nightly."), bound("Backups run daily."))
    assert [v.kind for v in extract_typed_values("Logs rotate daily and are retained for 30 days.")] == ["frequency", "number"]
    for text in ("The daily standup is at 9:30.", "We hold a weekly review.", "Every monthly report is archived."):
        assert not [v for v in extract_typed_values(text) if v.kind == "frequency"], text


def test_a_frequency_is_the_value_only_when_nothing_more_exact_is_said(normalizer_v2):
    assert norm(normalizer_v2, "Log files are rotated daily.").value == "daily"
    assert norm(normalizer_v2, "Backups run nightly at 02:00 UTC.").value == "02:00 UTC"
    assert norm(normalizer_v2, "Logs rotate daily and are retained for 30 days.").value == "30 days"
    v = verdict(normalizer_v2, "Log files are rotated daily.", "Log files are rotated weekly.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Backups run nightly at 02:00 UTC.", "Backups run nightly at 04:00 UTC.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and "02:00" in v.reason, v
    v = verdict(normalizer_v2, "Logs rotate daily.", "Logs are retained for 30 days.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("text, value, attribute", [
    ("The frontend is built with React 18.", "React 18", "react version"),
    ("The frontend must meet WCAG 2.1 AA.", "WCAG 2.1", "wcag version"),
    ("Our clusters run MySQL 8.4.", "MySQL 8.4", "mysql version"),
    ("Java JDK 17+ is required.", "17", None),                             # a bound keeps its number
    ("Shard 4 holds 200 GB.", "200 GB", None),                             # a numbered name, first word
    ("The web repo has a scheduled release merge on December 28.", "December 28", None),   # a day, no product's version
    ("Postmortems are mandatory for every incident, including Sev 3.", "3", None),  # a level is no product
    ("New organizations start at Tier 2.", "2", None),
])
def test_a_number_right_after_a_name_is_that_names_version(normalizer_v2, text, value, attribute):
    n = norm(normalizer_v2, text)
    assert n.value == value
    if attribute:
        assert n.attribute == attribute and n.value_kind == "version"


def test_two_products_numbers_are_not_one_subjects_two_values(normalizer_v2):
    """"'frontend' is 18 in one claim and 2.1 in the other" was a HIGH value conflict."""
    v = verdict(normalizer_v2, "The frontend is built with React 18.", "The frontend must meet WCAG 2.1 AA.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "The frontend is built with React 18.", "The frontend is built with React 17.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


def test_how_often_is_an_attribute_of_its_action(normalizer_v2):
    assert norm(normalizer_v2, "Log files are rotated daily.").attribute == "rotate frequency"
    v = verdict(normalizer_v2, "Logs are rotated daily.", "Logs are archived weekly.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v          # two actions' schedules
    v = verdict(normalizer_v2, "Logs are rotated daily.", "Logs are rotated weekly.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("text, op, seconds", [
    ("Database snapshots are taken every 6 hours.", "eq", 6 * 3600),
    ("Database snapshots are taken twice a day.", "eq", 12 * 3600),
    ("Logs are rotated once a day.", "eq", 86400),
    ("Access reviews are done once a year.", "eq", 365 * 86400),
    ("On-call shifts rotate every two weeks.", "eq", 14 * 86400),
    ("The retro happens every other week.", "eq", 14 * 86400),
    ("CP/CPS documents are reviewed at least once every 365 days.", "le", 365 * 86400),
    ("Authentication is repeated at least once per 12 hours.", "le", 12 * 3600),
    ("Customers hear from us three or more times an hour.", "le", 1200),
    ("Updates should be delivered at least every 20 minutes.", "le", 1200),
    ("Status updates are posted at most once an hour.", "ge", 3600),
    ("You can build up to 500 times per month.", "ge", 30 * 86400 / 500),
    ("Take the tablets twice daily.", "eq", 12 * 3600),
    ("Rust releases on a 6 week cadence.", "eq", 42 * 86400),
    ("Backups are taken at 15-minute intervals.", "eq", 900),
    ("Chrome moved to a four-week release cycle.", "eq", 28 * 86400),
    ("Owners review access rights on an annual basis.", "eq", 365 * 86400),
    ("Invoices are sent on a monthly basis to each customer.", "eq", 30 * 86400),
    ("Stand-ups are held on a bi-weekly basis.", "eq", 14 * 86400),
])
def test_how_often_with_a_count_or_a_span_is_a_period(text, op, seconds):
    """"every 6 hours" was a duration and "twice a day", "once a year" no value at all, so two
    schedules of one job had nothing to compare. A bound on how often turns round on the period:
    "at least every 20 minutes" is at most 20 minutes apart."""
    assert bound(text) == Bound(op, float(seconds), "period"), text


@pytest.mark.parametrize("text", [
    "You work 8 hours every day.",                          # a rate of hours, not how often
    "Discord apps can send 120 gateway events every 60 seconds.",
    "Each month's invoice is sent on the 1st.",             # "each month's" names the invoice
    "The 6-week course is free.",                           # a length
    "Once an app has been retired, its repos are archived.",
    "Teammates accrue 1.25 vacation days for each month of service.",   # counted per month, not how often
    "Access is granted on a per-project basis.",            # a basis that is no period
    "The annual review is held in May.",                    # a name, not how often
])
def test_what_is_not_how_often(text):
    units = [v.bound.unit for v in extract_typed_values(text) if v.bound is not None]
    assert "period" not in units, (text, units)
    if "events" in text:
        assert units == ["event/time"], text


def test_two_schedules_of_one_job_compare(normalizer_v2):
    """Measured on hand-written schedules (benchmarks/data/written_pairs.jsonl): "every 6 hours" /
    "twice a day" and "hourly" / "once a day" were clean; "quarterly" / "once a year" a warn. "on a
    quarterly basis" was no value at all (session 68)."""
    for a, b in (("Database snapshots are taken every 6 hours.", "Database snapshots are taken twice a day."),
                 ("Logs are rotated hourly.", "Logs are rotated once a day."),
                 ("Access reviews happen quarterly.", "Access reviews are done once a year."),
                 ("Sprint planning happens every other Monday.", "Sprint planning is held on Tuesdays."),
                 ("Access reviews are done once a year.", "Access reviews are done on a quarterly basis.")):
        v = verdict(normalizer_v2, a, b)
        assert v.kind is VerdictKind.VALUE_CONFLICT, (a, b, v)
    for a, b in (("Backups run nightly.", "Backups run every 24 hours."),
                 ("Certificates are renewed every 24 months.", "Certificates are renewed every two years."),
                 ("Backups run nightly.", "Backups run on a daily basis."),
                 ("Status updates go out at least every 30 minutes.", "Status updates go out every 20 minutes.")):
        v = verdict(normalizer_v2, a, b)
        assert v.kind is not VerdictKind.VALUE_CONFLICT, (a, b, v)


def test_how_often_one_action_happens_in_two_verbs_of_one_state(normalizer_v2):
    """The attribute of how often is the action's ("rotate frequency"), so "Backups run every 6
    hours." / "Backups are tested every quarter." are two schedules, not one with two values. Two verbs
    of one state ("renewed" / "rotated") are one action; verbs the lexicon does not join stay apart."""
    v = verdict(normalizer_v2, "Certificates are renewed every 90 days.", "Certificates are rotated every 60 days.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    for a, b in (("Backups run every 6 hours.", "Backups are tested with a restore every quarter."),
                 ("Logs are rotated daily.", "Logs are archived every week.")):
        v = verdict(normalizer_v2, a, b)
        assert v.kind is not VerdictKind.VALUE_CONFLICT, (a, b, v)
    # "changed" / "rotated": verbs the lexicon does not join are no two facts for the gate either, so
    # its caps do not lower the pair to clean (claims_dev: block -> clean when they did)
    from guard.nli.evidence_gate import different_quantities
    a, b = (norm(normalizer_v2, t) for t in ("Passwords must be changed every 90 days.",
                                               "Passwords must be rotated every 180 days."))
    assert a.attribute == "change frequency" and b.attribute == "rotate frequency"
    assert not different_quantities(a, b)
    a, b = (norm(normalizer_v2, t) for t in ("Passwords must be changed every 90 days.", "Passwords must be 12 characters."))
    assert different_quantities(a, b)


@pytest.mark.parametrize("text, op, day", [
    ("Payroll runs on the 15th of each month.", "eq", 15),
    ("Payroll runs on the last business day of the month.", "eq", 99),
    ("Payroll is processed on the first of the month.", "eq", 1),
    ("Rent is due by the 5th of every month.", "le", 5),
    ("Expense reports must be submitted no later than the last day of the month.", "le", 99),
    ("Invoices are sent on the 1st.", "eq", 1),
])
def test_the_day_of_the_month_is_a_point_in_the_month(text, op, day):
    """"on the 15th of each month" was a rate ("15" of "th of" per month) and "the last business day of
    the month" no value, so two paydays had nothing to compare."""
    [b] = [v.bound for v in extract_typed_values(text) if v.bound is not None]
    assert b == Bound(op, float(day), "monthday"), text


@pytest.mark.parametrize("text", ["The office is on the 3rd floor.", "She finished in the 2nd round of the cup.",
                                  "Releases ship on the first Thursday of every month."])
def test_what_is_no_day_of_the_month(text):
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.unit == "monthday"], text


@pytest.mark.parametrize("text, values", [
    ("The office is closed on December 24.", [("eq", 1224)]),
    ("Taxes are due by April 15 each year.", [("le", 415)]),
    ("Support ends on 15 April.", [("eq", 415)]),
    ("The office is closed on Dec 24 and Jan 1.", [("eq", 1224), ("eq", 101)]),
    ("The deadline is the 15th of March.", [("eq", 315)]),
    ("Releases ship on May 5.", [("eq", 505)]),
    ("Leap-day jobs run on Feb 29.", [("eq", 229)]),
    # session 96: the end or the start of a month, said as a day, is its last or its first day
    ("Grant reports are due at the end of March.", [("eq", 331)]),
    ("Budgets must be submitted by the end of February.", [("le", 228)]),
    ("The new plan starts at the beginning of April.", [("eq", 401)]),
])
def test_a_day_of_the_year_without_its_year_is_a_point_in_the_year(text, values):
    """"from Dec 24 to Jan 1" had no value and "on December 28" the bare number 28, compared with any other number."""
    assert [(v.bound.op, v.bound.number) for v in extract_typed_values(text) if v.bound and v.bound.unit == "yearday"] \
        == values, text


@pytest.mark.parametrize("text, first, last", [
    ("The office is closed from Dec 24 to Jan 1.", 1224, 101),                 # over the new year
    ("Deploys are frozen between December 20 and January 3.", 1220, 103),
    ("The holiday year runs between 1st January and 31st December.", 101, 1231),
    ("Closed Dec 24 - Jan 1.", 1224, 101),
])
def test_a_span_of_days_of_the_year_is_a_range(text, first, last):
    assert [v.bound for v in extract_typed_values(text)] == [Bound("range", float(first), "yearday", float(last))], text


@pytest.mark.parametrize("text", ["Users may 5 times retry the upload.", "On Feb 30 nothing happens.",
                                  "Node 18 reached end of life on April 30, 2025.", "The freeze starts in December 2025.",
                                  "Section 24 December-notes is archived.",
                                  "Support ends at the end of March 2026.", "Sales peak at the end of the month."])
def test_what_is_no_day_of_the_year(text):
    """The modal "may", a day no month has, and a date with its year (a date, as before)."""
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.unit == "yearday"], text


@pytest.mark.parametrize("a, b, kind", [
    # a day inside a span its rule forbids, over the new year or not
    ("Deploys are frozen from Dec 20 to Jan 3.", "Deploys happen on December 28.", VerdictKind.CONTRADICTION),
    ("Deploys are frozen from Dec 20 to Jan 3.", "Deploys happen on January 2.", VerdictKind.CONTRADICTION),
    ("The office is closed from Dec 24 to Jan 1.", "The office is open on December 27.", VerdictKind.CONTRADICTION),
    ("No deploys between December 20 and January 3.", "Deploys are allowed on December 19.", VerdictKind.CONSISTENT),
])
def test_a_day_against_a_span_of_days_of_the_year(normalizer_v2, a, b, kind):
    """"No code merges … from Dec 24 to Jan 4." had no value; a freeze's span now holds the days in it, as "weekends"
    holds Saturday."""
    assert verdict(normalizer_v2, a, b).kind is kind
    v = verdict(normalizer_v2, "Deploys are frozen from Dec 20 to Jan 3.", "Deploys happen on January 10.")
    assert v.kind is not VerdictKind.CONTRADICTION, v         # after the span


@pytest.mark.parametrize("text", ["Retention is 7d-30d depending on the tier.", "Retention is 7-30d.",
                                  "Retention is 7d to 30d.", "Retention is between 7 and 30d.", "Retention is 7-30 days."])
def test_a_range_of_days_as_a_config_writes_it(text):
    """"7d-30d" had no value and "7-30d" the bare number 7 (the invariance family "days -> d" on "7-30 days")."""
    assert [v.bound for v in extract_typed_values(text)] == [Bound("range", 7 * 86400.0, "time", 30 * 86400.0)], text


@pytest.mark.parametrize("text", ["Use 3D-5D glasses.", "Retention is 30d-7d.", "Keep 7 and 30d backups."])
def test_what_is_no_range_of_days(text):
    """An upper-case "D" is no day, a range ends above its start, and "and" needs a "between"."""
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.op == "range"], text


@pytest.mark.parametrize("a, b, conflict", [
    ("Payroll runs on the last business day of the month.", "Payroll runs on the 15th of each month.", True),
    ("Payroll runs on the 15th of each month.", "Payroll is processed on the 15th of every month.", False),
    ("The office closes on December 24.", "The office closes on December 23.", True),
    ("The office closes on December 24.", "The office is closed on Dec 24.", False),
    # a day of the year is no date of one year: not the same unit, not compared as one
    ("The office closes on December 24.", "The office closes on December 23, 2026.", False),
])
def test_two_paydays_or_two_days_of_the_year_compare(normalizer_v2, a, b, conflict):
    v = verdict(normalizer_v2, a, b)
    assert (v.kind is VerdictKind.VALUE_CONFLICT) is conflict, v


def test_business_working_and_calendar_days_are_days():
    """"within 2 business days" was read as "within 2", a bare number compared with any other."""
    assert bound("Tickets are answered within 2 business days.") == Bound("le", 2 * 86400.0, "time")
    assert bound("Refunds take five working days.") == Bound("eq", 5 * 86400.0, "time")
    assert bound("A fit note is needed after more than 7 calendar days.") == Bound("ge", 7 * 86400.0, "time")
    assert bounds_conflict(bound("Tickets are answered within 4 hours."), bound("Tickets are answered within 2 business days."))


def test_a_day_of_the_week_is_a_value_of_its_own_kind(normalizer_v2):
    """"The auth-db-0 must not deploy on Fridays." had no value, so against "The auth-db-0 is
    deployed in eu-central-1." nothing told the gate that the two speak of different things (the
    short-claim store's last four false blocks). A weekday after "on"/"every"/"each" (or a deadline's
    "by"/"until"), in a list after one, or in the plural is a value in a unit family of its own."""
    assert bound("The auth-db-0 must not deploy on Fridays.") == Bound("eq", 5.0, "weekday")
    assert bound("Timesheets are due by Monday.") == Bound("le", 1.0, "weekday")
    assert [v.text for v in extract_typed_values("Standups happen on Monday, Wednesday and Friday.")] == \
        ["Monday", "Wednesday", "Friday"]
    for text in ("Black Friday sales start early.", "Good Friday is a holiday."):
        assert not [v for v in extract_typed_values(text) if v.kind == "weekday"], text
    # a span of days is one value, not its two ends (since session 69; no value at all before)
    assert [v.bound for v in extract_typed_values("Support runs Monday to Friday.")] == \
        [Bound("range", 1.0, "weekday", 5.0)]
    assert norm(normalizer_v2, "The auth-db-0 must not deploy on Fridays.").attribute == "deploy day"
    assert norm(normalizer_v2, "Backups run on Sundays at 02:00 UTC.").value == "02:00 UTC"   # the more exact value
    v = verdict(normalizer_v2, "Standups are on Mondays.", "Standups are on Tuesdays.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Deploys are not allowed on Fridays.", "Deploys are allowed on Fridays.")
    assert v.kind is VerdictKind.CONTRADICTION, v


def test_a_region_and_a_day_are_two_facts_about_one_subject(normalizer_v2):
    from guard.nli.evidence_gate import different_quantities
    a = norm(normalizer_v2, "The auth-db-0 is deployed in eu-central-1.")
    b = norm(normalizer_v2, "The auth-db-0 must not deploy on Fridays.")
    assert different_quantities(a, b)
    v = verdict(normalizer_v2, "The auth-db-0 is deployed in eu-central-1.", "The auth-db-0 must not deploy on Fridays.")
    assert v.kind not in (VerdictKind.VALUE_CONFLICT, VerdictKind.CONTRADICTION), v


def test_opposite_stances_on_values_of_different_kinds_are_undecided(normalizer_v2):
    """"The office is closed on Sundays." / "… opens at 8am." was a HIGH opposing modality, decided
    by structure alone: one stance holds for a day, the other for a time of day."""
    v = verdict(normalizer_v2, "The office is closed on Sundays.", "The office opens at 8am.")
    assert v.kind is VerdictKind.UNCERTAIN and v.confidence is Confidence.LOW, v
    v = verdict(normalizer_v2, "The office is closed on Sundays.", "The office is open on Sundays.")
    assert v.kind is VerdictKind.CONTRADICTION, v


def test_a_part_of_the_world_is_a_region_that_holds_region_codes(normalizer_v2):
    """"Customer data must stay in the EU." / "… is replicated to us-east-1." was warned at most
    ("EU" a name, "us-east-1" a region: two kinds of value, the gate capped); "must only be stored in
    Europe" / "is stored in eu-west-1" agree."""
    from guard.compare import geographies
    assert [(v.kind, v.text) for v in extract_typed_values("Customer data must stay in the EU.")] == [("region", "EU")]
    for text in ("Send it to us by Friday.", "Contact us in time.", "The European team owns billing."):
        assert not [v for v in extract_typed_values(text) if v.kind == "region"], text
    assert geographies("eu-west-1") == {"eu"} and geographies("North America") == {"us", "ca"}
    assert geographies("Berlin") is None
    v = verdict(normalizer_v2, "Customer data must stay in the EU.", "Customer data is replicated to us-east-1.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Customer data must only be stored in Europe.", "Customer data is stored in eu-west-1.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Customer data is stored in eu-west-1.", "Customer data is stored in eu-central-1.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v           # two codes compare as written, as before


def test_a_region_before_the_verb_says_which_of_the_subject(normalizer_v2):
    assert norm(normalizer_v2, "Customers in the EU get 30 days to return items.").variants == (("region", "eu"),)
    assert norm(normalizer_v2, "Customers in the US get 14 days to return items.").variants == (("region", "us"),)
    v = verdict(normalizer_v2, "Customers in the EU get 30 days to return items.",
                "Customers in the US get 14 days to return items.")
    assert v.kind is VerdictKind.COEXIST, v
    assert norm(normalizer_v2, "Customer data must stay in the EU.").variants == ()       # after the verb: the value


def test_an_un_word_against_the_plain_word_is_not_decided_consistent(normalizer_v2):
    """"Database backups are encrypted at rest." / "… are stored unencrypted." was "same subject,
    different state", consistent at HIGH: structure alone let a contradiction through."""
    v = verdict(normalizer_v2, "Database backups are encrypted at rest.", "Database backups are stored unencrypted.")
    assert v.kind is VerdictKind.UNCERTAIN and v.confidence is Confidence.LOW, v
    v = verdict(normalizer_v2, "Logs are retained for 30 days.", "Logs are shipped to Datadog.")
    assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.HIGH, v      # two facts: still decided
    v = verdict(normalizer_v2, "The union dues are deducted monthly.", "The union dues are paid in euros.")
    assert v.kind is not VerdictKind.UNCERTAIN or "un-" not in v.reason, v                # "union" is no un- word
    # session 96: where a copula's state joins the other's verb as one family, the un- word still denies it ("The door
    # is locked." / "The door is unlocked." was "same subject, same stance", consistent at MED)
    v = verdict(normalizer_v2, "The door is locked.", "The door is unlocked.")
    assert v.kind is VerdictKind.UNCERTAIN and "un-" in v.reason, v


@pytest.mark.parametrize("text,op,number", [
    ("Award leave is capped at 40 hours per fiscal year.", "le", 40 * 3600),
    ("Requests are limited to 25 MB.", "le", 25e6),
    ("PTO requests must not exceed 10 days.", "le", 10 * 86400),
    ("The API has a rate limit of 20 requests per second.", "le", 20.0),
    ("Refunds are issued no later than 10 business days after the return.", "le", 10 * 86400),
    ("Passwords must be not less than 12 characters.", "ge", 12.0),
    ("Jobs that exceed 3 retries are qualified for review.", "ge", 3.0),
    ("Jobs that exceed 3 retries are dropped.", "le", 3.0),          # refused beyond 3: a limit of 3
    ("Keys must have not fewer than 16 characters.", "ge", 16.0),
    ("A build never takes more than 30 minutes.", "ge", 1800.0),      # "never" negates the claim: its own
    ("Builds take 30 minutes.", "eq", 1800.0),
])
def test_bound_words_v1_does_not_know(text, op, number):
    """"capped at", "limited to", "must not exceed", "a limit of", "no later than" bound a value from
    above, "not less than" and a bare "exceeds" (a threshold: more than) from below. v1 read them as
    exact values ("capped at 40 hours" / "up to 80 hours" agreed) and "not less than 12" as at most 12."""
    b = next(v.bound for v in extract_typed_values(text) if v.bound is not None and v.bound.unit != "")
    assert (b.op, b.number) == (op, number), text


def test_a_negated_bound_is_the_values_not_the_claims(normalizer_v2):
    """"must not exceed 30 minutes" is "must: at most 30 minutes". Its "not" read as the claim's own
    negation made "Passwords must be not less than 12 characters." / "… at least 12 characters."
    opposite stances, blocked by structure."""
    n = norm(normalizer_v2, "Builds must not exceed 30 minutes.")
    assert n.modality is Modality.MUST and n.bound == Bound("le", 1800.0, "time"), n
    v = verdict(normalizer_v2, "Passwords must be not less than 12 characters.", "Passwords must be at least 12 characters.")
    assert v.kind is VerdictKind.CONSISTENT, v
    v = verdict(normalizer_v2, "Passwords must be not less than 12 characters.", "Passwords must be at least 8 characters.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Builds must not exceed 30 minutes.", "Builds can run for 45 minutes.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


def test_a_value_inside_the_others_bound_is_not_the_same_value(normalizer_v2):
    """"capped at 40 hours" / "up to 80 hours" (and "1 write per second" / "up to 10") were
    "same value", consistent: neither breaks the other's bound, but they are two limits. Only one
    number in two spellings is the same value."""
    v = verdict(normalizer_v2, "The API handles 1 write per second per key.", "The API accepts up to 10 writes per second per key.")
    assert v.kind is VerdictKind.UNCERTAIN and v.confidence is Confidence.LOW, v
    # what the API "allows" is its limit (session 59), and two limits of one thing that differ conflict
    v = verdict(normalizer_v2, "The API allows 1 write per second per key.", "The API accepts up to 10 writes per second per key.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Tokens expire after at least 1 week.", "Tokens expire after no less than seven days.")
    assert v.kind is VerdictKind.CONSISTENT and v.reason == "same value", v
    v = verdict(normalizer_v2, "The report is due in April 2026.", "The report is due on April 30, 2026.")
    assert v.kind is not VerdictKind.UNCERTAIN, v        # one month, at month precision
    # a year alone against a day of another year (the accuracy issue's dates in different spellings)
    v = verdict(normalizer_v2, "Node 18 reached end of life on 2025-04-30.", "Node 18 is supported until 2026.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "Python 3.8 is supported until October 2024.", "Python 3.8 is supported until 2024.")
    assert v.kind is VerdictKind.CONSISTENT, v


@pytest.mark.parametrize("a, b, kind", [
    # what stops on a day went on until it: opposing stances on one end, where only the days can differ (session 92:
    # the first was "the negation is of a different value", consistent at HIGH, and so clean)
    ("Ubuntu 22.04 receives security updates until April 2027.", "Ubuntu 22.04 stops getting security updates in 2025.",
     VerdictKind.VALUE_CONFLICT),
    ("Ubuntu 22.04 receives security updates until April 2027.",
     "Ubuntu 22.04 stops getting security updates in April 2027.", VerdictKind.CONSISTENT),
    # the end of a thing's availability is its shut-down day (it was a "release date", another setting)
    ("The v1 API will be shut down on March 1, 2027.", "The v1 API remains available until the end of 2027.",
     VerdictKind.VALUE_CONFLICT),
    ("The v1 API will be shut down on December 31, 2027.", "The v1 API remains available until the end of 2027.",
     VerdictKind.CONSISTENT),
])
def test_a_life_that_ends_on_a_day_against_one_that_goes_on_until_one(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


def test_another_negated_value_still_opposes_nothing_outside_a_life_s_end(normalizer_v2):
    """The end-of-life reading is for dates of a life's end only: a port denied is another value, as before."""
    v = verdict(normalizer_v2, "The cache listens on port 6379.", "The cache does not listen on port 6380.")
    assert v.kind is VerdictKind.CONSISTENT and v.reason == "the negation is of a different value", v


def test_one_quantity_in_two_spellings_of_one_subject_is_sure(normalizer_v2):
    """"every 10 minutes" / "six times an hour" was consistent/MED, which sent it to the cross-encoder
    (p 1.00 both ways) and the gate warned. One quantity of the very same subject is as sure as two
    differing ones are a conflict; a shared name or place is not (it may be a condition both share)."""
    v = verdict(normalizer_v2, "The cache is flushed every 10 minutes.", "The cache is flushed six times an hour.")
    assert v.kind is VerdictKind.CONSISTENT and v.confidence is Confidence.HIGH and v.reason == "same value", v
    v = verdict(normalizer_v2, "Orders from Canada ship with DHL.", "Orders from Canada ship with UPS.")
    assert v.confidence is not Confidence.HIGH or v.kind is not VerdictKind.CONSISTENT, v
    v = verdict(normalizer_v2, "Tokens expire after at least 1 week.", "API tokens expire after no less than seven days.")
    assert v.confidence is not Confidence.HIGH, v         # a narrower subject: less sure


@pytest.mark.parametrize("text,lo,hi,unit", [
    ("The backup retention period can be set to between 0 and 35 days.", 0.0, 35 * 86400.0, "time"),
    ("Deleted vaults stay recoverable for 7 to 90 calendar days.", 7 * 86400.0, 90 * 86400.0, "time"),
    ("The integration timeout is 50 milliseconds to 29 seconds.", 0.05, 29.0, "time"),
    ("Vouchers are reviewed in 3-5 business days.", 3 * 86400.0, 5 * 86400.0, "time"),
    ("Backups are kept for anywhere from zero to five weeks.", 0.0, 35 * 86400.0, "time"),
    ("Keep the disk at most 80-85% full.", 80.0, 85.0, "percent"),
])
def test_a_range_of_one_quantity_is_one_value(text, lo, hi, unit):
    [v] = [v for v in extract_typed_values(text) if v.bound is not None and v.bound.unit]
    assert v.bound == Bound("range", lo, unit, hi), text


@pytest.mark.parametrize("text", ["The pool was scaled from 3 to 5 nodes.", "Upgrade Angular 10 to 12 in one step.",
                                  "Sabbaticals need 2 and 5 years of service.", "The final score was 10-4 days ago."])
def test_what_is_not_a_range(text):
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.op == "range"], text


def test_a_value_outside_a_stated_range_breaks_it(normalizer_v2):
    """"configurable between 0 and 35 days" was read as the value 0 (or 35), so "six weeks" was one
    more differing number and "14 days" inside the range looked like a conflict."""
    rng = "The backup retention period can be set to between 0 and 35 days."
    v = verdict(normalizer_v2, rng, "The backup retention period is six weeks.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, rng, "The backup retention period is 14 days.")
    assert v.kind is VerdictKind.UNCERTAIN, v
    v = verdict(normalizer_v2, rng, "The backup retention period can be anywhere from zero to five weeks.")
    assert v.kind is VerdictKind.CONSISTENT and v.reason == "same value", v
    v = verdict(normalizer_v2, "The validity period is between 1 and 36,000 seconds.", "The validity period is up to ten hours.")
    assert v.kind is VerdictKind.CONSISTENT, v          # the range's upper end, said as a limit
    assert bounds_conflict(Bound("range", 3.0, "time", 5.0), Bound("range", 2.0, "time", 3.0))
    assert not bounds_conflict(Bound("range", 3.0, "time", 5.0), Bound("le", 4.0, "time"))


def test_mail_addresses_and_urls_are_values():
    """v1's domain selector never read "noreply@example.com" or "https://status.example.com" (an
    "@" or "/" before the name), so "reports go to security@…" / "… to abuse@…" had no values."""
    assert [(v.kind, v.text) for v in extract_typed_values("Write to first.last+tag@mail.co.uk today.")] == [
        ("email", "first.last+tag@mail.co.uk")]
    assert [(v.kind, v.text) for v in extract_typed_values("See https://example.com/docs/a_b?x=1, then go.")] == [
        ("url", "https://example.com/docs/a_b?x=1")]
    assert [(v.kind, v.text) for v in extract_typed_values("Use `a@b.com` as the sender.")] == [("literal", "a@b.com")]


@pytest.mark.parametrize("a,b,kind", [
    ("Security reports go to security@example.com.", "Security reports go to abuse@example.com.", VerdictKind.VALUE_CONFLICT),
    ("Security reports go to security@example.com.", "Security reports go to Security@Example.com.", VerdictKind.CONSISTENT),
    ("The status page is at https://status.example.com.", "The status page is at https://example.statuspage.io.",
     VerdictKind.VALUE_CONFLICT),
    ("CI runs on GitHub Actions.", "CI runs on Jenkins.", VerdictKind.VALUE_CONFLICT),
    ("Emails to customers are sent through SendGrid.", "Emails to customers are sent through Mailgun.", VerdictKind.VALUE_CONFLICT),
])
def test_where_mail_goes_and_what_runs_it_are_values(normalizer_v2, a, b, kind):
    assert verdict(normalizer_v2, a, b).kind is kind


def test_a_place_verb_names_only_a_place(normalizer_v2):
    """"run" as a naming verb was measured worse ("runs nightly jobs" is no product); only a named
    place after on/in/at/through/via is its value."""
    assert norm(normalizer_v2, "CI runs on GitHub Actions.").value == "GitHub Actions"
    assert norm(normalizer_v2, "The cron service runs nightly jobs.").value is None
    assert norm(normalizer_v2, "Emails to customers are sent through SendGrid.").value == "SendGrid"



def test_never_leaving_a_region_is_staying_in_it(normalizer_v2):
    """"Customer data must never leave the EU." read no region, and against "… must stay in the EU."
    it was an opposing modality (a structural block); "must not be stored outside the EU" against
    "… stored in eu-central-1" was too, and "must not be transferred outside the EEA" against
    "… transferred to the US" was "the negation is of a different value", clean at HIGH."""
    n = norm(normalizer_v2, "Customer data must never leave the EU.")
    assert (n.modality, n.value, n.value_kind) == (Modality.MUST, "EU", "region"), n
    assert norm(normalizer_v2, "Customer data must not be stored outside the EU.").modality is Modality.MUST
    assert not [v for v in extract_typed_values("Backups are stored outside the EU.") if v.kind == "region"]
    for a, b, kind in [
            ("Customer data must never leave the EU.", "Customer data must stay in the EU.", VerdictKind.CONSISTENT),
            ("Customer data must never leave the EU.", "Customer data is replicated to us-east-1.", VerdictKind.VALUE_CONFLICT),
            ("Personal data must not be transferred outside the EEA.", "Personal data is transferred to the US.",
             VerdictKind.VALUE_CONFLICT),
            ("Customer data must not be stored outside the EU.", "Customer data is stored in eu-central-1.",
             VerdictKind.CONSISTENT)]:
        assert verdict(normalizer_v2, a, b).kind is kind, (a, b)


def test_a_negated_bound_is_the_opposite_bound(normalizer_v2):
    """"Logs must not be kept for more than 30 days." is "at most 30 days": read as a negated "more
    than 30" it opposed "Logs must be kept for at most 30 days." (a structural contradiction) and
    agreed with "… can stay up to 18 months" against "… not … more than 1 year". Points in time are
    left alone ("blocked until Thursday"), and so is a negation that is not the verb's ("No loss
    occurs when … at least 1.5 times …")."""
    n = norm(normalizer_v2, "Logs must not be kept for more than 30 days.")
    assert n.modality is Modality.MUST and (n.bound.op, n.bound.number) == ("le", 30 * 86400.0), n
    n = norm(normalizer_v2, "A consumer never gets more than 100 messages in one batch.")
    assert n.modality is Modality.MUST and (n.bound.op, n.bound.number) == ("le", 100.0), n
    n = norm(normalizer_v2, "No loss of content occurs when line height is at least 1.5 times the font size.")
    assert n.modality is Modality.MUST_NOT, n
    assert norm(normalizer_v2, "Deploys must not happen before Thursday.").modality is Modality.MUST_NOT
    for a, b, kind in [
            ("Logs must not be kept for more than 30 days.", "Logs must be kept for at most 30 days.", VerdictKind.CONSISTENT),
            ("Logs must not be kept for more than 30 days.", "Logs are kept for 90 days.", VerdictKind.VALUE_CONFLICT),
            ("Preview features must not stay in preview for more than 1 year.",
             "Preview features can stay in preview for up to 18 months.", VerdictKind.VALUE_CONFLICT),
            ("Passwords must not be less than 12 characters.", "Passwords must be at least 12 characters.",
             VerdictKind.CONSISTENT)]:
        assert verdict(normalizer_v2, a, b).kind is kind, (a, b)


@pytest.mark.parametrize("text,subject", [
    ("Merchants may issue partial refunds.", "partial refund"),
    ("Contractors are allowed to read the wiki.", "wiki"),
    ("Guests cannot create projects.", "project"),
    ("Everyone logs their daily hours in the timesheet tool.", "daily hour"),
    ("Everyone is expected to answer Slack pings within an hour.", "slack ping"),
])
def test_a_rule_for_people_is_about_what_they_act_on(normalizer_v2, normalizer, text, subject):
    """v1 kept any verb outside its lexicon in the subject ("issue partial refund") and read
    "everyone" as a vague subject (none at all); v1's norms stay as they were."""
    assert norm(normalizer_v2, text).subject == subject
    assert norm(normalizer, "Merchants may issue partial refunds.").subject == "issue partial refund"


def test_the_subjects_words_are_not_also_its_named_value(normalizer_v2):
    n = norm(normalizer_v2, "Contractors are allowed to access staging.")
    assert n.subject == "staging" and n.value is None, n


def test_typed_values_on_hostile_text_end_at_once():
    """A run of digits made the money and size patterns try every start inside it (20,000 digits:
    33 s), and a run of "1," did the same to session 40's first range pattern (89 s). Run apart,
    under a limit a linear search meets many times over."""
    code = ("from guard.normalize.typed_values import extract_typed_values as e\n"
            "for t in ['9' * 20000 + ' days to 1 day', '1,' * 10000 + ' GB', '$' + '9' * 20000 + ' per month',\n"
            "          '1 to ' * 4000, 'between 1 and ' * 1500 + 'days', 'must not exceed ' * 1500 + '3 days',\n"
            "          'never leave the ' * 1500 + 'EU', 'not ' * 3000 + 'stored outside the EU', 'a.' * 5000 + '@' + 'b.' * 5000,\n"
            "          'https://' + 'a/' * 10000, '1-' * 10000 + 'x', 'from 1 to 5 days ' * 1500]:\n"
            "    e(t)\n")
    ends_at_once(code)


@pytest.mark.parametrize("text,subject,modality", [
    ("Make sure the session time of privileged access is set to no more than 30 minutes.",
     "session time privileged access", Modality.MUST),
    ("Ensure that all backups are encrypted at rest.", "backup", Modality.MUST),
    ("Please make sure that visitors don't have access to the server room.", "visitor", None),
    ("Note that the API is limited to 100 requests per minute.", "api", Modality.MUST),
    ("It is recommended that the PASS_MAX_DAYS parameter be set to 365 days or less.", "PASS_MAX_DAYS parameter",
     Modality.SHOULD),
    ("Heads-up for the queue module: a newly created SQS queue defaults to a 60-second visibility timeout.",
     None, Modality.MUST),
    ("Tip: save your TOIL up and tack it onto your summer holiday.", "toil", Modality.SHOULD),
    ("Per the CA operations runbook, key-compromise revocations may be completed up to 72 hours after the report.",
     "key-compromise revocation", Modality.MAY),
    ("Facilities recommends that meeting room thermostats be kept at 21 °C.", "meeting room thermostat", Modality.SHOULD),
    ("As a best practice, AWS recommends that you use Amazon RDS Proxy.", "amazon rds proxy", Modality.SHOULD),
    ("The policy requires that laptops be encrypted.", "laptop", Modality.MUST),
    ("Security asks that you never share credentials.", "credential", Modality.MUST_NOT),
])
def test_the_rule_inside_a_wrapper_or_after_a_heading(normalizer_v2, text, subject, modality):
    """A wrapper verb ("Make sure", "Ensure", "Note that", "It is recommended that"), a heading before a
    colon ("Heads-up for the queue module:", "Tip:") and "Per <source>," took the subject ("sure session
    time …", "heads-up", "ca operation runbook") or left none; the rule is the clause they introduce,
    and advice is "should" whatever mood the clause is in."""
    n = norm(normalizer_v2, text)
    if subject is not None:
        assert n.subject == subject, n
    else:
        assert n.subject and "heads" not in n.subject, n
    if modality is not None:
        assert n.modality is modality, n
    assert n.qualifiers, n


@pytest.mark.parametrize("text", [
    "LoginGraceTime: the server disconnects after this time.",      # a setting's name
    "No fixup commits: please squash your review edits.",           # the heading is itself a rule
    "Time off is manager-approved: requests stay pending until your lead accepts them.",   # a clause
    "Our 503 responses carry Retry-After: 30 and the SDK adds jitter.",      # a header and its value
    "Requests with Content-Type: application/json are accepted by our gateway.",
    "Argon2id minimum for password hashing: 15 MiB of memory.",     # no clause after it
])
def test_what_is_not_a_heading(normalizer_v2, text):
    assert text.split(":")[0] not in norm(normalizer_v2, text).qualifiers


@pytest.mark.parametrize("text,op,seconds", [
    ("The first post goes up within half an hour of the call.", "le", 1800),
    ("Everyone answers pages within an hour.", "le", 3600),
    ("Changes are announced at least a day ahead.", "ge", 86400),
    ("Slack keeps DMs for a year and a half.", "eq", 1.5 * 31536000),
    ("An alert that wakes you up earns half a day of TOIL.", "eq", 43200),
    ("Deleted objects stay soft-deleted for a fortnight.", "eq", 1209600),
])
def test_one_of_a_unit_said_with_an_article_is_a_duration(text, op, seconds):
    assert op_number_unit(text) == (op, seconds, "time")


@pytest.mark.parametrize("text", ["Backups run once a week.", "The job writes 50,000 keys a day.",
                                  "Merges need a second reviewer.", "Deploys happen every day.",
                                  "One that arrives later earns a quarter of a day."])
def test_what_is_not_a_duration_with_an_article(text):
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.unit == "time"
                and v.bound.number in (86400, 604800, 1)], extract_typed_values(text)


@pytest.mark.parametrize("text", [
    "There is no limit on the number of log streams in a log group.",
    "You can have an unlimited number of preview deployments.",
    "API Gateway doesn't enforce a quota on concurrent WebSocket connections.",
    "PTO is not capped.", "The internal API has no rate limit.", "Uploads go through without any size limit.",
])
def test_no_limit_is_a_value(text):
    [v] = [v for v in extract_typed_values(text) if v.bound is not None]
    assert (v.bound.op, v.bound.number, v.bound.unit) == ("le", float("inf"), "*"), v


def test_a_cap_breaks_no_limit_and_an_amount_does_not(normalizer_v2):
    """"API Gateway doesn't enforce a quota on concurrent WebSocket connections." / "API Gateway caps
    concurrent WebSocket connections at 10,000 per account." was "opposing modality on different
    actions" (the "doesn't" read as the claim's), left to the gate, which let it through clean."""
    n = norm(normalizer_v2, "The internal API has no rate limit.")
    assert n.modality is Modality.MUST and n.value == "no rate limit", n
    assert norm(normalizer_v2, "There is no limit of 5 retries.").bound.number == 5     # a limit of 5
    assert bound("API Gateway caps concurrent WebSocket connections at 10,000 per account.").op == "le"
    inf = Bound("le", float("inf"), "*")
    assert bounds_conflict(inf, Bound("le", 100, "requests/time")) and bounds_conflict(Bound("range", 1, "time", 5), inf)
    assert not bounds_conflict(inf, Bound("eq", 50, "")) and not bounds_conflict(inf, Bound("ge", 8, "characters"))
    assert not bounds_conflict(inf, inf)
    for a, b, kind in [
            ("The internal API has no rate limit.", "The internal API is limited to 100 requests per second.",
             VerdictKind.VALUE_CONFLICT),
            ("API Gateway doesn't enforce a quota on concurrent WebSocket connections.",
             "API Gateway caps concurrent WebSocket connections at 10,000 per account.", VerdictKind.VALUE_CONFLICT)]:
        v = verdict(normalizer_v2, a, b)
        assert v.kind is kind and v.confidence is Confidence.HIGH, (a, b, v)
    v = verdict(normalizer_v2, "The internal API has no rate limit.", "The internal API serves 100 requests per second.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v


def test_new_patterns_on_hostile_text_end_at_once():
    code = ("from guard.normalize.typed_values import extract_typed_values as e\n"
            "from guard.normalize.rules_v2 import split_main_clause as s\n"
            "for t in ['no ' * 5000 + 'limit', 'half a ' * 5000 + 'day', 'caps ' + 'x ' * 10000 + 'at 5',\n"
            "          'does not enforce a ' * 3000 + 'quota', '1 ' + 'x ' * 10000 + 'a day', 'Ensure that ' * 3000 + 'x',\n"
            "          'unlimited ' * 5000]:\n"
            "    e(t); s(t)\n")
    ends_at_once(code)


@pytest.mark.parametrize("text,subject", [
    ("Every call to the Ledger API needs the X-Ledger-Tenant header.", "call"),
    ("Branch names must start with feature/.", "branch name"),
    ("IT emails a wipe checklist to anyone who keeps their laptop.", "IT"),   # as written (session 77)
    ("A PATCH call against a missing resource returns 404.", "patch call"),
])
def test_stop_words_that_are_the_subjects_nouns(normalizer_v2, normalizer, text, subject):
    """spaCy counts "call" and "name" as stop words: the first statement had no subject ("a statement
    has no subject" against every other), "Branch names …" was about branches, and "IT" was the
    pronoun. v1's norms stay as they were."""
    assert norm(normalizer_v2, text).subject == subject
    assert norm(normalizer, "Every call to the Ledger API needs the X-Ledger-Tenant header.").subject is None


@pytest.mark.parametrize("text", [
    "On-call responsibilities extend beyond normal office hours, and engineers are paged at night.",
    "On-demand TLS must be enabled and restricted, typically with an ask endpoint.",
])
def test_a_hyphenated_word_is_no_leading_preposition(text):
    """"On-call …" and "On-demand …" start with a word, not with "on": read as a leading clause, the
    statement's own subject and verb went to the qualifiers."""
    main, quals = split_main_clause(text)
    assert main.startswith(text.split()[0]), (main, quals)


@pytest.mark.parametrize("text,main", [
    ("There is no rate limit on the internal API.", "The internal API has no rate limit."),
    ("There is no limit on the number of log streams in a log group.",
     "The number of log streams in a log group has no limit."),
    ("There are no quotas for uploads.", "Uploads have no quotas."),
    ("There's no size limit for uploads, as far as we know.", "Uploads have no size limit, as far as we know."),
    ("There is no limit to how much time off you can take.", "There is no limit to how much time-off you can take."),
])
def test_a_denied_limit_belongs_to_what_it_is_on(text, main):
    assert split_main_clause(text)[0] == main


def test_no_limit_on_a_number_is_not_a_cap_on_each(normalizer_v2):
    """Read as "Projects have no limit.", the first was a HIGH value conflict with the second; the
    number of projects is what has no limit, a related subject at most (left to the gate)."""
    v = verdict(normalizer_v2, "There is no limit on the number of projects.", "Each project holds at most 50 members.")
    assert v.confidence is not Confidence.HIGH, v


def test_no_limit_on_a_thing_against_its_cap(normalizer_v2):
    """"There is no rate limit on the internal API." had no subject ("incomparable" against every
    statement), so "The internal API is limited to 100 requests per second." was the gate's, a warn."""
    v = verdict(normalizer_v2, "There is no rate limit on the internal API.",
                "The internal API is limited to 100 requests per second.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH, v


def test_an_environment_subject_after_a_heading_is_the_texts_scope(normalizer_v2):
    """"Heads-up: the staging cluster runs 3 nodes." / "The production cluster runs 5 nodes." was
    blocked by the model at p 0.98: the environment as the subject's first word (session 36) was looked
    for at the text's start, where the heading is."""
    assert norm(normalizer_v2, "Heads-up: the staging cluster runs 3 nodes.").text_scope == Scope(env="staging")
    assert norm(normalizer_v2, "Ensure the production cluster runs 5 nodes.").text_scope == Scope(env="prod")
    v = verdict(normalizer_v2, "Heads-up: the staging cluster runs 3 nodes.", "The production cluster runs 5 nodes.")
    assert v.kind is VerdictKind.COEXIST, v


@pytest.mark.parametrize("text,op,number,unit", [
    ("The queue uses a 90-second visibility timeout.", "eq", 90, "time"),
    ("Staff may take a six-month sabbatical.", "eq", 6 * 2592000, "time"),
    ("Session tokens are 96-bit random values.", "eq", 12, "bytes"),
    ("The signing service uses 2048-bit RSA keys.", "eq", 256, "bytes"),
    ("Commit messages have a 1,000-character limit.", "le", 1000, "characters"),
    ("Passwords have a 12-character minimum.", "ge", 12, "characters"),
    ("A role change can need a quarter of an hour to apply.", "eq", 900, "time"),
    ("An interim release is supported for three quarters of a year.", "eq", 0.75 * 31536000, "time"),
    ("Service Bus caps messages at a quarter of a megabyte on Standard.", "le", 250000, "bytes"),
    ("The node throttles publishers once it passes two fifths of its RAM.", "eq", 40, "percent"),
    # the count in digits reads as in words (the invariance benchmark's "words -> digits" rewrites)
    ("An interim release is supported for 3 quarters of a year.", "eq", 0.75 * 31536000, "time"),
    ("The node throttles publishers once it passes 2 fifths of its RAM.", "eq", 40, "percent"),
    ("An RFC is approved once at least half of the engineering team has approved it.", "ge", 50, "percent"),
])
def test_a_quantity_written_as_a_compound_adjective_or_a_fraction_is_read(text, op, number, unit):
    """"a 30-minute delay": the hyphen kept the unit from the number, so it went unread; "three quarters of
    a year" was read as a rate (quarters per year), "two fifths of its RAM" not at all."""
    assert op_number_unit(text) == (op, pytest.approx(number), unit)


@pytest.mark.parametrize("text", ["SEV-2 incidents page the on-call.", "Builds target x86-64.", "Use a 3-2-1 backup scheme."])
def test_what_is_not_a_compound_quantity(text):
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.unit in ("time", "bytes")]


def test_a_compound_quantity_against_a_bound(normalizer_v2):
    rule = "Session tokens must be at least 128 bits long."
    for b, kind in [("Session tokens are 64-bit random values.", VerdictKind.VALUE_CONFLICT),
                    ("Session tokens are 256-bit random values.", VerdictKind.UNCERTAIN)]:
        na, nb = (normalizer_v2.normalize(t, Scope(), Window()) for t in (rule, b))
        assert StructuralComparator().compare(na, rule, nb, b).kind is kind, b


@pytest.mark.parametrize("text,op,seconds", [
    ("An alert that wakes you up earns 0.5 days of TOIL.", "eq", 43200),
    ("Batch jobs may run for up to 2.5 hours.", "le", 9000),
])
def test_a_decimal_with_its_unit_is_a_quantity_not_a_version(text, op, seconds):
    assert op_number_unit(text) == (op, seconds, "time")


@pytest.mark.parametrize("text,subject", [
    ("If the server does not support sorting as specified in the query parameter sort, it must return 400 Bad Request.",
     "server"),
    ("If reference tokens are used to represent user sessions, they are generated by a CSPRNG.", "reference token"),
    # a person's condition: not the person, but since session 69 the thing it names that the rule acts on ("it")
    ("If you need a standing desk, request it through your manager.", "standing desk"),
])
def test_a_pronoun_subject_is_the_conditions_subject(normalizer_v2, text, subject):
    """"If the server …, it must return 400": the condition was cut off with the only noun the "it" stands
    for, so the statement had no subject."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text,op", [
    ("The default visibility timeout is 30 seconds, and the maximum is 12 hours.", "le"),
    ("The maximum value is 1000 connections.", "le"),
    ("For passwords the minimum is 8 characters.", "ge"),
])
def test_the_maximum_or_minimum_is_a_bound(text, op):
    assert [v.bound.op for v in extract_typed_values(text) if v.bound is not None][-1] == op


def test_a_value_in_parentheses_is_the_statements_value_or_one_of_its_spellings(normalizer_v2):
    """Cut off with its parentheses, "a very small buffer (4096 bytes)" left the statement with no value."""
    n = norm(normalizer_v2, "By default uWSGI allocates a very small buffer (4096 bytes) for the headers of each request.")
    assert n.value == "4096 bytes" and n.bound.unit == "bytes"
    n = norm(normalizer_v2, "The Cloud Run request timeout is set by default to 5 minutes (300 seconds).")
    assert n.value == "5 minutes" and "300 seconds" in [v[1] for v in n.values]


@pytest.mark.parametrize("text,op,month", [
    (".NET major versions ship every September.", "eq", 9),
    ("All Debian 11 hosts must be upgraded before July.", "le", 7),
    ("Feature freeze starts in mid-March.", "eq", 3),
])
def test_a_month_of_the_year_is_a_point_in_the_year(text, op, month):
    assert op_number_unit(text) == (op, month, "month")


@pytest.mark.parametrize("text", ["You may deploy in May 2026.", "Approvals may come later.", "Support ends on June 30, 2026."])
def test_what_is_not_a_month_of_the_year(text):
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.unit == "month"]


def test_two_months_of_the_year_conflict(normalizer_v2):
    a, b = ".NET major versions ship every September.", ".NET major versions ship every November."
    na, nb = (normalizer_v2.normalize(t, Scope(), Window()) for t in (a, b))
    assert StructuralComparator().compare(na, a, nb, b).kind is VerdictKind.VALUE_CONFLICT


@pytest.mark.parametrize("text,quantities", [
    ("Priority actions have to be closed out in 28 or 56 days.", [(28 * 86400, "time"), (56 * 86400, "time")]),
    ("The SLO is either 4 or 8 weeks.", [(4 * 604800, "time"), (8 * 604800, "time")]),
    ("Backups run every 2, 4, or 8 hours.", [(7200, "time"), (14400, "time"), (28800, "time")]),
    ("Volumes come in 3 and 5 GB.", [(3e9, "bytes"), (5e9, "bytes")]),
    # a noun between the two numbers: each keeps what it was
    ("The free plan allows at most 10 applications, 10 connections and 10 rules.",
     [(10, ""), (10, "connections"), (10, "")]),
])
def test_numbers_coordinated_before_one_unit_share_it(text, quantities):
    """"28 or 56 days" read "28" bare, so "4 or 8 weeks" / "28 or 56 days" (one pair of deadlines)
    differed in a value."""
    got = [(v.bound.number, v.bound.unit) for v in extract_typed_values(text) if v.bound is not None]
    assert got == [(pytest.approx(n), u) for n, u in quantities]


def test_a_count_of_timed_things_is_their_total():
    """"30 eight-hour days" is 240 hours: read as a bare 30 beside 8 hours, "a 240 hour limit" on
    carry-over and "at most 30 eight-hour days" differed in every value."""
    vs = [v for v in extract_typed_values("Staff can roll at most 30 eight-hour days of leave into the new year.")
          if v.bound is not None]
    assert [(v.text, v.bound.op, v.bound.number, v.bound.unit) for v in vs] == [
        ("at most 30 eight-hour days", "le", 240 * 3600, "time")]


@pytest.mark.parametrize("a,b,kind", [
    ("Staff get 25 days of holiday each year.", "Staff get five weeks of holiday each year.", VerdictKind.CONSISTENT),
    ("Parents get 12 weeks of paid parental leave.", "Parents get 480 hours of paid parental leave.", VerdictKind.CONSISTENT),
    ("Staff get 25 days of holiday each year.", "Staff get four weeks of holiday each year.", VerdictKind.VALUE_CONFLICT),
    # not about time off: two calendar spans
    ("A batch token is valid for 10 days.", "A batch token is valid for two weeks.", VerdictKind.VALUE_CONFLICT),
])
def test_time_off_is_counted_in_working_time(normalizer_v2, a, b, kind):
    """"25 days of holiday" / "five weeks of paid holiday" and "12 weeks of paid time off" / "480 hours of
    parental leave" are one entitlement (a working week of five days of eight hours); outside time off,
    "10 days" / "two weeks" still differ."""
    assert verdict(normalizer_v2, a, b).kind is kind


@pytest.mark.parametrize("text,op,number,unit", [
    ("etcd rejects any request larger than 512 KiB unless the flag is raised.", "le", 512 * 1024, "bytes"),
    ("CI fails the build on any Go line over 99 characters.", "le", 99, "characters"),
    ("Return an error if a URL exceeds 2083 characters.", "le", 2083, "characters"),
    ("CI pipelines are cancelled if they run longer than 1 hour.", "le", 3600, "time"),
    ("Passwords shorter than 8 characters are rejected.", "ge", 8, "characters"),
    # the limit said itself, or a rule with its consequence: as written
    ("A transaction can include at most 100 messages, and additional messages are rejected.", "le", 100, ""),
    ("Requests must complete in less than 30 seconds or they fail.", "le", 30, "time"),
    ("Any PTO that exceeds 10 business days requires additional approval.", "ge", 10 * 86400, "time"),
    ("Files larger than 10 MB need a review.", "ge", 10e6, "bytes"),
])
def test_what_is_refused_beyond_an_amount_is_a_limit(text, op, number, unit):
    """"rejects any request larger than 512 KiB" read as at least 512 KiB, so "the maximum request is 1.5 MiB"
    seemed to agree with it; "larger than" was not read as a comparison at all."""
    assert op_number_unit(text) == (op, pytest.approx(number), unit)


@pytest.mark.parametrize("text,subject", [
    (("With the stock keepalive sysctls, Linux gives up on a dead peer no more than two minutes after the first "
      "probe is sent."), "linux"),
    ("If the global maxconn value is not set, HAProxy calculates it automatically from the limits that are set.",
     "haproxy"),
    ("Backups are retained for 30 days.", "backup"),
])
def test_the_pivot_is_not_a_verb_of_a_clause_under_the_main_verb(normalizer_v2, text, subject):
    """The first copula or modal was the pivot wherever it was: in "Linux gives up … after the first probe is
    sent" the "is" of the last clause, so the subject was everything before it ("linux give")."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text,subject,modality", [
    (("Twilio queues messages based on the sending rate of a sender, and a US long code number can send one message "
      "segment per second."), "twilio", None),
    ("Amazon SQS provides short polling and long polling, and by default, queues use short polling.", "amazon sqs", None),
    # what the sentence's verb governs holds no pivot: "limits" in its object is not the verb "limit"
    ("The quota service tracks current rate limits for each tenant.", "quota service", None),
    # a coordinated clause that goes on with the first's subject: its modal is the rule
    (("ip_local_port_range defines the local port range used by TCP and UDP, and it must be greater than or equal "
      "to 1024."), "ip_local_port_range", Modality.MUST),
    ("The API gateway validates tokens and must reject expired ones.", "api gateway", Modality.MUST_NOT),
])
def test_a_coordinated_clause_with_a_subject_of_its_own_is_not_the_pivot(normalizer_v2, text, subject, modality):
    """The second clause's modal was the pivot, so the subject was the whole first clause ("twilio queue
    message", "amazon sqs provide short polling"); the first clause is the statement, as the clause reader
    already cuts the predicate at "…, and <subject> <verb>" (session 50: long-gold subject 0.653 → 0.673)."""
    n = norm(normalizer_v2, text)
    assert n.subject == subject, n
    if modality is not None:
        assert n.modality is modality, n


@pytest.mark.parametrize("text,main,qualifier", [
    ("Regardless of plan, every workspace keeps audit logs for 90 days.", "Every workspace keeps audit logs for 90 days.",
     "Regardless of plan"),
    ("If you're unwell for more than 7 days, regardless of your FTE %, you'll need to provide a fit note.",
     "you'll need to provide a fit note.", "Regardless of your FTE %"),
])
def test_a_leading_regardless_phrase_is_a_qualifier(text, main, qualifier):
    """"regardless of your FTE %, you'll need …" took the phrase as the subject ("regardless fte %")."""
    got, quals = split_main_clause(text)
    assert got == main and qualifier in quals


def test_a_conditions_threshold_is_among_the_values(normalizer_v2):
    """"If you're unwell for more than 7 calendar days, you need a fit note" had no value at all: its
    threshold was cut off with the condition, so "a fit note is only needed after more than 14 calendar
    days" had nothing to differ from. The condition's quantity joins the values, never as the value."""
    n = norm(normalizer_v2, "If you're unwell for more than 7 calendar days, you'll need to provide a fit note.")
    assert n.value is None and [(b.op, b.number, b.unit) for _, _, b in n.values] == [("ge", 7 * 86400, "time")]
    n = norm(normalizer_v2, "If you are travelling on Mondays, the office pays for parking.")
    assert not n.values                                   # a point in time is no threshold


def test_session_43s_value_readings_on_hostile_text_end_at_once():
    """Two numbers with thousands of spaces between them made the coordination pattern backtrack
    quadratically (8,000 spaces: 0.65 s, 32,000: ~10 s); only a short gap is looked at now."""
    code = ("from guard.normalize.typed_values import extract_typed_values as e\n"
            "import time\n"
            "t0 = time.time()\n"
            "for t in ['1' + ' ' * 40000 + '2 days', '28 or ' * 3000 + '56 days', '5 ' + 'eight-hour ' * 3000 + 'days',\n"
            "          'rejects requests larger than ' * 3000 + '5 MB', 'x ' * 10000 + 'fails beyond 5 MB']:\n"
            "    e(t)\n"
            "assert time.time() - t0 < 20, time.time() - t0\n")
    ends_at_once(code)


@pytest.mark.parametrize("text,per_second,unit", [
    ("Creating Linodes has a rate limit of 20 requests per 15 seconds.", 20 / 15, "requests/time"),
    ("Failed login attempts are limited to 5 per 15 minutes.", 5 / 900, "events/time"),
    ("The global rate limit is 1200 requests per five minutes per user.", 4.0, "requests/time"),
    ("The API allows 100 requests per second.", 100.0, "requests/time"),
])
def test_a_rate_over_a_counted_span_is_one_rate(text, per_second, unit):
    """"20 requests per 15 seconds" was read as "20 requests" beside "15 seconds", so against "100 requests
    per minute" neither value was the rate."""
    assert (bound(text).number, bound(text).unit) == (pytest.approx(per_second), unit)



def test_a_condition_in_parentheses_adds_its_quantity_once(normalizer_v2):
    """Both the parentheses' reading and the conditions' took "(if unset, 30 seconds)", so the statement
    held "30 seconds" twice — and a unit given twice is not compared as "given once" by the gate's
    values_differ."""
    n = norm(normalizer_v2, "The queue keeps messages for a while (if unset, 30 seconds).")
    assert [t for _, t, _ in n.values] == ["30 seconds"]


@pytest.mark.parametrize("text,subject", [
    ("mysqld actually permits max_connections + 1 client connections.", "mysqld"),
    ("A prerelease version such as 1.2.0-beta can be selected only by an exact version constraint.",
     "prerelease version"),
    ("Amazon ECS services configured to use service discovery have a limit of 1,000 tasks per service.",
     "amazon ecs service"),
    ("Angular minor releases routinely contain breaking changes.", "angular minor release"),
    # what must not change: a gerund that heads the phrase, one that a noun follows, a capitalised
    # adverb inside a name, an adverb before any noun
    ("Debug logging is disabled in production.", "debug logging"),      # as written since session 88
    ("The data processing pipeline runs hourly.", "data processing pipeline"),
    ("MUST return a 429 Too Many Requests error when the client exceeded throttling limits.",
     "many request error"),
])
def test_an_adverb_such_as_or_a_trailing_participle_ends_the_subject(normalizer_v2, text, subject):
    """spaCy's small model leaves a post-nominal modifier inside the subject's phrase ("mysqld actually",
    "prerelease version such", "amazon ecs service configure"), so two statements about one thing had
    different subjects (session 51: long-gold subject 0.673 → 0.693, nothing else moved)."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text,subject,value", [
    ("Fly.io automatically takes daily snapshots of all Fly Volumes.", "fly.io", None),
    ("Socket.io must not be used in production.", "socket.io", None),
    ("Render.com keeps logs for 7 days.", "render.com", "7 days"),
    # what must not change: a domain that modifies the subject's noun, or one of several, is a value
    ("Only example.com mail is allowed.", "mail", "example.com"),
    # (since session 64 about what the users narrowed by their addresses may do: log in through SSO)
    ("Users with gmail.com email addresses are allowed to log in through SSO.", "sso", "gmail.com"),
])
def test_a_product_named_by_its_domain_is_the_subject(normalizer_v2, text, subject, value):
    """"Fly.io takes daily snapshots …" read Fly.io as a domain value and had no subject at all, so it
    was incomparable with every statement about Fly.io."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.value) == (subject, value), n
    if value is None:
        assert n.attribute is None, n                 # the subject is not the value of an attribute


@pytest.mark.parametrize("text,subject,modality", [
    ("Employees are not allowed to share passwords.", "password", Modality.MUST_NOT),
    ("Users are not permitted to install software.", "software", Modality.MUST_NOT),
    ("Employees are allowed to share passwords.", "password", Modality.MAY),
])
def test_a_negated_permission_keeps_what_it_permits(normalizer_v2, text, subject, modality):
    """"are not allowed to share passwords" cut its predicate at "to" (the negation made it look like a
    whole predicate with a purpose clause after it), so the negated rule had no subject while the
    permission had one, and the two were incomparable."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality) == (subject, modality), n
    a, b = "Employees are allowed to share passwords.", "Employees are not allowed to share passwords."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.CONTRADICTION and v.confidence is Confidence.HIGH, v
    # a purpose clause after a whole predicate is still cut, negated or not
    assert norm(normalizer_v2, "Keys are not rotated every 90 days to limit exposure.").subject == "keys"


@pytest.mark.parametrize("text,subject,modality", [
    ("It's okay to publish IAM roles, policies, and group names.", "iam role", Modality.MAY),
    ("It is forbidden to commit secrets.", "secret", Modality.MUST_NOT),
    ("It's fine to commit a temporary API token while prototyping and remove it later.", "temporary api token",
     Modality.MAY),
])
def test_an_expletive_it_rule_is_about_the_actions_object(normalizer_v2, text, subject, modality):
    """"It is okay to publish X" had no subject ("it" is no thing), where "Users may publish X" is about X."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality) == (subject, modality), n


def test_a_referring_it_is_still_no_subject(normalizer_v2):
    assert norm(normalizer_v2, "It must be encrypted at rest.").subject is None


@pytest.mark.parametrize("text,modality", [
    ("Root accounts have no access keys.", Modality.MUST_NOT),
    ("Logs contain no PII.", Modality.MUST_NOT),
    ("Root accounts have access keys.", Modality.MUST),
    ("Root accounts do not have access keys.", Modality.MUST_NOT),
])
def test_no_before_the_object_negates_the_rule(normalizer_v2, text, modality):
    """"have no access keys" read as "have access keys" (the "no" counted only right after a copula), so the
    two statements were one stance: "same subject, same stance", consistent."""
    assert norm(normalizer_v2, text).modality is modality
    a, b = "Root accounts have access keys.", "Root accounts have no access keys."
    assert StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b).kind \
        is not VerdictKind.CONSISTENT


@pytest.mark.parametrize("text,subject,value,modality", [
    ("We use PostgreSQL for all transactional data.", "transactional data", "PostgreSQL", Modality.MUST),
    ("Use single quotes '' for strings.", "string", "single quotes", Modality.MUST),
    ("You must use kebab-case for path segments.", "path segment", "kebab-case", Modality.MUST),
    ("We do not use Scala for new projects.", "project", "Scala", Modality.MUST_NOT),
    ("Use Go for new projects.", "project", "Go", Modality.MUST),
    ("Use ESLint for linting JavaScript.", "JavaScript", "ESLint", Modality.MUST),
    ("The data team uses Airflow for scheduling pipelines.", "scheduling pipeline", "Airflow", Modality.MUST),
    ("Don't use your root user for everyday tasks.", "everyday task", "root user", Modality.MUST_NOT),
])
def test_use_x_for_y_is_about_y_valued_x(normalizer_v2, text, subject, value, modality):
    """"Use X for Y" was about X (the action's object), so two tools for one job ("We use PostgreSQL for
    all transactional data." / "Transactional data lives in MySQL.") had two subjects and never met."""
    n = norm(normalizer_v2, text)
    kind = "naming" if value == "kebab-case" else "name"        # a naming style is a value kind of its own
    assert (n.subject, n.value, n.value_kind, n.modality) == (subject, value, kind, modality), n


@pytest.mark.parametrize("text,subject", [
    ("Use it for 30 days.", None),                        # a duration, not a purpose
    ("Don't use generators for now.", "generator"),       # "for now" is no purpose
    ("Use the shared account for everyone.", "shared account"),    # a person is no purpose
    ("The frontend uses React.", "frontend"),              # no purpose: the thing that uses it stays the subject
    ("The Prettier config uses double quotes for strings.", "prettier config"),   # a thing, not a group of people
])
def test_what_is_not_a_purpose(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text,subject,value", [
    ("Transactional data lives in MySQL.", "transactional data", "MySQL"),
    ("Incident communication happens in Microsoft Teams.", "incident communication", "Microsoft Teams"),
    ("On-call pages go out through Opsgenie.", "on-call page", "Opsgenie"),
    ("Single sign-on is handled by Google Workspace.", "single sign-on", "Google Workspace"),
    # session 96: "take place" is one verb ("All-hands meetings are held on Zoom." / "… take place in Google Meet." was
    # "same subject, same stance")
    ("All-hands meetings take place in Google Meet.", "all-hands meeting", "Google Meet"),
])
def test_where_a_thing_lives_or_who_handles_it_is_its_value(normalizer_v2, text, subject, value):
    n = norm(normalizer_v2, text)
    assert (n.subject, n.value, n.value_kind) == (subject, value, "name"), n


@pytest.mark.parametrize("text", ["Releases happen in the morning.", "The team meets in person.",
                                  "Requests are handled by the support team.", "Standups take place in the kitchen."])
def test_a_common_noun_place_or_agent_is_no_name(normalizer_v2, text):
    assert norm(normalizer_v2, text).value is None


@pytest.mark.parametrize("a,b,kind", [
    ("We use PostgreSQL for all transactional data.", "Transactional data lives in MySQL.",
     VerdictKind.VALUE_CONFLICT),
    ("The team uses Slack for incident communication.", "Incident communication happens in Microsoft Teams.",
     VerdictKind.VALUE_CONFLICT),
    ("We do not use Scala for new projects.", "Use Go for new projects.", VerdictKind.CONSISTENT),
    ("Use Redis for session storage.", "Use Jira for bug tracking.", VerdictKind.UNKNOWN),
])
def test_two_tools_for_one_job_meet_in_structure(normalizer_v2, a, b, kind):
    assert StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b).kind is kind


def test_v1_still_reads_use_x_for_y_as_about_x():
    from guard.normalize.rules import RuleNormalizer
    n = norm(RuleNormalizer(), "We use PostgreSQL for all transactional data.")
    assert n.subject != "transactional data"


@pytest.mark.parametrize("text,value", [
    ("The MaxStartups default is 10:30:100.", "10:30:100"),
    ("The built-in MaxStartups default in OpenSSH is 10:30:60.", "10:30:60"),
])
def test_numbers_joined_by_colons_are_one_setting(normalizer_v2, text, value):
    """Read as three numbers, "10:30:100" and "10:30:60" both gave the value 10, and the pair was "same value"."""
    n = norm(normalizer_v2, text)
    assert (n.value, n.value_kind) == (value, "literal"), n


@pytest.mark.parametrize("text,kind", [("Backups start at 10:30.", "clock"), ("Use a 16:9 aspect ratio.", "number"),
                                       ("The job runs at 02:00:00 UTC.", "number")])
def test_a_time_of_day_or_a_ratio_is_no_colon_setting(text, kind):
    assert extract_typed_values(text)[0].kind == kind


def test_two_colon_settings_that_differ_conflict(normalizer_v2):
    a, b = "The MaxStartups default is 10:30:100.", "The MaxStartups default is 10:30:60."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("text,modality", [
    ("Production deploys are scheduled every Saturday morning.", Modality.MUST),
    ("Pipelines are scheduled with Dagster.", Modality.MUST),
    ("SEV-1 postmortem meetings may be scheduled up to 10 calendar days out.", Modality.MAY),
    ("Backups are scheduled.", Modality.MUST_NOT),      # the state opposite to "continuous", as before
    ("Monthly board reports must be distributed one week before the board meeting.", Modality.MUST),
    ("Load is distributed evenly across the workers.", Modality.MUST),
    ("The cache is distributed.", Modality.MUST_NOT),   # not monolithic
])
def test_scheduled_for_a_time_is_an_event_not_a_negated_state(normalizer_v2, text, modality):
    """"scheduled" is the opposite of "continuous" in the opposition lexicon, so "… are scheduled every Saturday
    morning" read as "are not continuous": must_not, against "Deployments are prevented during weekends"."""
    assert norm(normalizer_v2, text).modality is modality


@pytest.mark.parametrize("text,op", [
    ("The maximum size of an Azure Cosmos DB item is 2 MB.", "le"),
    ("Maximum line length is 80 characters.", "le"),
    ("The maximum line length for code is 120 characters.", "le"),
    ("Minimum password length for staff accounts is 12 characters.", "ge"),
    ("The maximum is 12 hours.", "le"),
    ("Uploads are kept for 30 days.", "eq"),
])
def test_the_maximum_said_before_its_amount_is_an_upper_bound(text, op):
    """"The maximum size of an Azure Cosmos DB item is 2 MB" was an exact 2 MB (only "the maximum" with at most two
    words before "is" was a bound), so against "Cosmos DB documents can be up to 4 MB" the exact 2 MB kept within
    the limit of 4 MB and the two agreed."""
    assert bound(text).op == op


def test_a_maximum_against_a_larger_limit_conflicts(normalizer_v2):
    a, b = "The maximum size of a Cosmos DB item is 2 MB.", "Cosmos DB items can be up to 4 MB."
    assert bounds_conflict(norm(normalizer_v2, a).bound, norm(normalizer_v2, b).bound)


def test_a_bound_word_is_read_where_it_stands_not_where_the_window_begins():
    """The 60 characters before a value were searched as a string of their own, so "^" (a statement that opens
    with "Maximum …") also matched wherever that window happened to begin: "Our maximum … is 90 days" was a bound
    only when "maximum" stood exactly 60 characters before the value."""
    phrase = "maximum retention window for our legal compliance archive is "
    assert len(phrase) == 61
    exact = "Our " + phrase[:-1].replace("our legal", "our lega") + " 90 days."     # "maximum" 60 characters back
    assert exact.index("90") - exact.index("maximum") == 60
    assert bound(exact).op == bound("Our " + phrase + "90 days.").op == "eq"
    assert bound("Maximum retention window for the archive is 90 days.").op == "le"   # the statement's own start


@pytest.mark.parametrize("text,unit,number", [
    ("The maximum number of hours you can work per shift is 12.", "time", 12 * 3600),
    ("KeepAliveTimeout is the number of seconds httpd waits for the next request, and its default is 5.", "time", 5),
    ("The number of days you may carry over is limited to 5.", "time", 5 * 86400),
    ("LimitRequestBody is the number of bytes allowed in a request body, and its default value is 0.", "bytes", 0),
])
def test_a_bare_number_takes_the_unit_its_clause_counts(text, unit, number):
    """"the maximum number of hours … is 12" was a bare 12, which never met "10 hours"."""
    b = bound(text)
    assert (b.unit, b.number) == (unit, number)


@pytest.mark.parametrize("text", [
    "The permitted number of connections is set by max_connections, and the default value is 151.",  # a count
    "The number of retries is 100 by default.",
    "The annual number of hot days (above 35°C) has increased.",      # a unit of its own follows the number
    "The number of hours is unknown; the limit is 12.",                # another sentence
])
def test_a_count_or_a_number_with_a_unit_of_its_own_stays_as_it_was(text):
    assert bound(text).unit == ""


def test_a_call_rate_is_a_request_rate():
    """"300 API calls per minute" (family "call") and "500 API requests per hour" (family "request", the word before
    the unit kept it from the ``UNITS`` family "requests") never met "100 requests per minute"."""
    assert {bound(t).unit for t in ("The API allows 300 API calls per minute.", "Clients make 500 API requests per hour.",
                                    "Clients may send at most 100 requests per minute.")} == {"requests/time"}


@pytest.mark.parametrize("text,modality,op", [
    ("No workday may exceed 10 hours.", Modality.MUST, "le"),
    ("Meetings should not run longer than an hour.", Modality.SHOULD, "le"),
    ("Passwords must not be shorter than 12 characters.", Modality.MUST, "ge"),
    ("Never store logs for more than 30 days.", Modality.MUST, "le"),
    ("Workdays must not exceed 10 hours.", Modality.MUST, "le"),           # read so before: the "not" is the bound's
])
def test_forbidding_more_than_an_amount_requires_at_most_it(normalizer_v2, text, modality, op):
    n = norm(normalizer_v2, text)
    assert (n.modality, n.bound.op) == (modality, op)
    assert [b.op for k, t, b in n.values if t == n.value] == [op]


@pytest.mark.parametrize("text,modality,op", [
    ("No more than 3 retries are allowed.", None, "le"),       # the "no" is the bound's own
    ("etcd rejects any request larger than 512 KiB.", None, "le"),    # a refusal, already an upper bound
    ("Chasing coverage above 80% is discouraged.", None, "ge"),       # advice, no bound
])
def test_other_prohibitions_keep_their_reading(normalizer_v2, text, modality, op):
    from guard.normalize.rules_v2 import _prohibited_beyond
    n = norm(normalizer_v2, text)
    assert n.bound.op == op
    assert n.modality not in (Modality.MUST, Modality.SHOULD) or "allowed" in text
    flipped = _prohibited_beyond(n.__class__(**{**n.__dict__, "modality": Modality.MUST_NOT}), text)
    assert flipped.bound.op == op          # not turned even were the clause read as a prohibition


def test_a_prohibited_excess_meets_a_larger_amount(normalizer_v2):
    a, b = "No workday may exceed 10 hours.", "A workday can last 12 hours."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.VALUE_CONFLICT, v
    b = "A workday can last 8 hours."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("text,op", [
    ("The API rate limit is 100 requests per minute.", "le"),
    ("The upload limit is 2 GB per file.", "le"),
    ("The credit-hour balance ceiling is 40 hours.", "le"),
    ("The limit for free accounts is 5 projects per month.", "le"),
    ("Uploads are 2 GB on average, well under the limit.", "eq"),      # the limit is named after the value
    ("The lower limit is 5 replicas.", "eq"),                           # a floor, not a cap
])
def test_a_limit_said_to_be_an_amount_is_an_upper_bound(text, op):
    """"The API rate limit is 100 requests per minute." was an exact rate, so a client sending 50 a minute broke it,
    and "The API allows a maximum of 1500 requests per minute" / "The API rate limit is 600 requests per minute"
    were a bound and an exact value that kept within it."""
    assert bound(text).op == op


@pytest.mark.parametrize("text,op", [
    ("The free plan allows 3 projects.", "le"),
    ("The API allows 6000 requests per hour.", "le"),
    ("The pricing-worker is allowed 30 seconds of CPU time per request.", "le"),
    ("The gateway allows each client 60 events per minute.", "le"),
    ("The API does not allow 500 requests per minute.", "eq"),       # not a limit said by "allows"
])
def test_what_is_allowed_of_an_amount_is_an_upper_bound(text, op):
    """"The free plan allows 3 projects." against "Free accounts can create up to 5 projects.": an exact 3 kept within
    the limit of 5, so the two agreed."""
    assert bound(text).op == op


@pytest.mark.parametrize("text,op", [
    ("Vacation requests need two weeks' notice.", "ge"),
    ("Giving Auth0 72 hours' notice before the pentest starts is sufficient.", "ge"),
    ("Book the room 3 days in advance.", "ge"),
    ("Submit the form a week ahead of time.", "ge"),
    ("Removal of a desk assignment happens only after 30 days' notice.", "ge"),
    ("The notice period is 30 days.", "eq"),           # the notice is the subject, not said after the amount
])
def test_notice_given_ahead_is_a_lower_bound(text, op):
    """"Vacation requests need two weeks' notice." was an exact two weeks, which kept within "at least one month in
    advance" — so the two agreed."""
    assert bound(text).op == op


def test_two_lead_times_that_differ_conflict(normalizer_v2):
    a, b = "Vacation requests need two weeks' notice.", "Vacation requests need at least one month's notice."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("text", ["Feature flags can stay indefinitely.", "Deprecated APIs are kept forever.",
                                  "Confidential information is kept in perpetuity."])
def test_a_span_without_end_is_longer_than_any_stated_span(normalizer_v2, text):
    b = bound(text)
    assert (b.op, b.unit, b.number) == ("eq", "time", float("inf"))
    assert bounds_conflict(b, bound("Feature flags must be removed within 90 days."))
    assert not bounds_conflict(b, bound("Feature flags stay at least 30 days."))
    assert [v for v in extract_typed_values('He starred in "Diamonds Are Forever".')] == []     # a title


@pytest.mark.parametrize("text,subject", [
    ("`ssl_protocols` is set to TLSv1.3 only.", "ssl_protocols"),             # tagged a pronoun: a speaker's, no subject
    ("The `Retry-After` header value is expressed in milliseconds.", "retry-after header value"),   # tagged "After"'s ADP
    ("The `Retry-After` header is in seconds.", "retry-after header"),
    ("The `max_connections` setting is 100.", "max_connections setting"),
])
def test_a_word_between_backticks_is_a_name(normalizer_v2, text, subject):
    """Without the backticks the same statements had their subjects; with them the small model tagged the
    identifier a pronoun or a preposition and the statement had none."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text,version", [("nginx accepts only TLSv1.3.", "TLSv1.3"), ("SSLv3 must be disabled.", "SSLv3"),
                                          ("TLS 1.2 is the minimum.", "TLS 1.2")])
def test_tls_written_as_in_configuration_is_a_version(text, version):
    assert [(v.kind, v.text) for v in extract_typed_values(text)] == [("version", version)]


def test_tls_versions_in_two_spellings_are_one_product():
    from guard.compare import _comparable
    assert _comparable(("version", "TLSv1.3", None), ("version", "TLS 1.2", None))
    assert not _comparable(("version", "SSLv3", None), ("version", "TLS 1.2", None))


@pytest.mark.parametrize("text,subject", [
    ("The ingest pipeline drops all requests from uptime checkers.", "ingest pipeline"),   # tagged a superlative: "ing"
    ("Only the latest major version is supported.", "latest major version"),               # not "late major version"
    ("The digest job runs daily.", "digest job"),
])
def test_a_degree_word_before_a_noun_keeps_its_own_word(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("asked,direct", [
    ("We expect new teammates to spend up to $2,000 for desk setup.", "New teammates must spend up to $2,000 for desk setup."),
    ("We require contractors to use company laptops.", "Contractors must use company laptops."),
    ("We strongly encourage engineers to rotate keys every 90 days.", "Engineers should rotate keys every 90 days."),
    ("We allow contractors to use personal laptops.", "Contractors may use personal laptops."),
])
def test_what_we_ask_of_someone_is_their_rule(normalizer_v2, asked, direct):
    """The speaker's verb and its object were the subject ("expect teammate"), so the two wordings of one
    rule had different subjects."""
    a, d = norm(normalizer_v2, asked), norm(normalizer_v2, direct)
    assert (a.subject, a.modality, a.value) == (d.subject, d.modality, d.value)


@pytest.mark.parametrize("text", ["We don't expect you to answer pages at night.", "We expect it to be done by Friday."])
def test_a_denied_or_impersonal_request_is_read_as_written(text):
    assert split_main_clause(text)[0] == text


def test_a_rule_for_people_with_only_an_amount_as_object_is_about_them(normalizer_v2):
    """v2 reads a rule for people as about what they act on; where that is only an amount ("12 work days")
    the statement had no subject at all."""
    assert norm(normalizer_v2, "Team members should take at least 12 work days off a year.").subject == "team member"
    assert norm(normalizer_v2, "Maintainers may force-push to `master` to clean up history.").subject == "maintainer"
    assert norm(normalizer_v2, "Engineers must answer pages within 15 minutes.").subject == "page"   # an object: as before


def test_retries_are_retries(normalizer_v2):
    """The small model lemmatises "retries" as "retrie", which the comparator's stemming never meets with "retry"."""
    from guard.compare import SubjectMatch, subject_match
    n = norm(normalizer_v2, "The maximum number of retries for a failed job is 5.")
    assert n.subject == "maximum number retry"
    assert subject_match(norm(normalizer_v2, "Retries are capped at 5.").subject, "retry") is SubjectMatch.SAME


@pytest.mark.parametrize("name", ["normalizer.rules.v1", "normalizer.rules.v2"])
def test_medium_as_an_adjective_is_no_media(name):
    """The plural fixes ("datum" → "data", "medium" → "media") were applied to every word, so "Medium
    severity incidents" were about "media severity incident"."""
    n = get_normalizer(name)
    assert norm(n, "Medium severity incidents need a postmortem within 5 days.").subject == "medium severity incident"
    assert norm(n, "Social media posts need approval.").subject == "social media post"


@pytest.mark.parametrize("text,subject", [
    ("Employees are entitled to 20 days of annual leave.", "annual leave"),
    ("You are eligible for the learning budget after three months.", "learning budget"),
    ("Staff are free to keep client passwords in their personal iCloud Keychain.", "client password"),
    ("It is not possible to enable foreign key constraints in a transaction.", "foreign key constraint"),
])
def test_a_person_s_state_before_what_it_is_to_or_for_is_no_subject(normalizer_v2, text, subject):
    """"entitled to", "eligible for", "free to", "possible to": the word after a person (or the expletive
    "it") was the subject ("entitle", "free client password"), so two statements about annual leave met
    on nothing."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_state_after_a_named_subject_is_read_as_before(normalizer_v2):
    assert norm(normalizer_v2, "The on-call engineer is responsible for rolling back failed deploys.").subject == \
        "on-call engineer"
    assert norm(get_normalizer("normalizer.rules.v1"), "Employees are entitled to 20 days of annual leave.").subject \
        == "entitle"      # v1 stays as it was, for comparison


@pytest.mark.parametrize("text,subject", [
    ("Setting KeepAliveTimeout to a high value may cause performance problems.", "KeepAliveTimeout"),
    ("Changing PostgreSQL `max_connections` requires a server restart.", "PostgreSQL max_connections"),
    ("Raising DelaySeconds on the queue also delays messages already in it.", "DelaySeconds"),
    ("Setting up a new laptop takes about a day.", "set"),          # "set up" is another verb: as before
])
def test_a_setting_verb_s_gerund_is_not_part_of_the_setting(normalizer_v2, text, subject):
    """"Changing max_connections …" was about "change max_connections", another subject than the setting
    itself ("max_connections is set to 100")."""
    assert norm(normalizer_v2, text).subject == subject


def test_id_is_a_word(normalizer_v2):
    """spaCy's tokenizer reads "id" as "I'd" without its apostrophe: "The user id …" was about "user i d"."""
    assert norm(normalizer_v2, "The user id must be a UUID.").subject == "user id"
    assert norm(normalizer_v2, "The id field is required.").subject == "id field"
    assert [t.text for t in normalizer_v2.nlp("Deploys stop on Wed.")][-2] == "Wed"


@pytest.mark.parametrize("text,subject", [
    ("Node 18 reached end of life on 2025-04-30.", "node"),
    ("Processes shut down gracefully when they receive a SIGTERM signal.", "process"),
    ("tcp_keepalive_time controls how often TCP sends out keepalive messages.", "tcp_keepalive_time"),
    (("Every RDS DB instance has a weekly maintenance window, and if a maintenance event is scheduled for a given "
      "week, it's initiated during the 30-minute maintenance window you identify."),
     "rds db instance weekly maintenance window"),                                       # "have": as before
    ("Use pinned image tags.", "pin image tag"),          # an order the tagger parsed as "Use" + "pinned": as before
])
def test_a_main_verb_outside_the_lists_is_the_pivot(normalizer_v2, text, subject):
    """With no verb from v1's lists the sentence had no pivot and was read as an order, about its object:
    "Node 18 reached end of life on …" was about "end life", so it never met "Node 18 is supported until …"."""
    assert norm(normalizer_v2, text).subject == subject


def test_an_end_of_life_date_against_a_later_support_date_conflicts(normalizer_v2):
    """Issue #7's own example, a warn until the end-of-life statement had its product as subject."""
    a, b = "Node 18 reached end of life on 2025-04-30.", "Node 18 is supported until April 2026."
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (VerdictKind.VALUE_CONFLICT, Confidence.HIGH)


@pytest.mark.parametrize("text,main", [
    ("On SIGTERM our worker processes flush buffered metrics.", "Our worker processes flush buffered metrics."),
    ("During the launch year we discourage long vacations.", "We discourage long vacations."),
    ("For new EC2 workloads we prefer Ubuntu LTS over Amazon Linux, even where nothing needs Debian.",
     "We prefer Ubuntu LTS over Amazon Linux, even where nothing needs Debian."),
    ("After 3 retries the job fails.", "After 3 retries the job fails."),     # a number may be the rule's value
    # the phrase goes on into the next words: no cut where a preposition or a relative ends the words taken
    ("During the period of your unpaid leave you will not receive your salary.",
     "During the period of your unpaid leave you will not receive your salary."),
    ("For tasks that use the Fargate launch type the timeout is 120 seconds.",
     "For tasks that use the Fargate launch type the timeout is 120 seconds."),
    ("At least the first reviewer must be a maintainer.", "At least the first reviewer must be a maintainer."),
])
def test_a_leading_phrase_without_a_comma_is_a_qualifier(text, main):
    """With no comma the leading phrase joined the subject ("sigterm worker process"), or, with a comma later
    in the sentence, the whole first clause was cut as a leading clause ("For new EC2 workloads we prefer …,")."""
    assert split_main_clause(text)[0] == main


@pytest.mark.parametrize("text,subject", [
    ("At present, there is no obligation to attend in-person meetings.", "in-person meeting"),
    ("There is currently no internal requirement to label data.", "data"),
    ("There is no minimum tenure required to be eligible for Parental Leave.", "minimum tenure"),
])
def test_there_is_no_obligation_is_a_lifted_obligation(normalizer_v2, text, subject):
    """The existential "there" left these without a subject, so they never met "Staff must attend …"."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality) == (subject, Modality.MAY_NOT)


def test_there_is_no_other_thing_is_read_as_before():
    assert split_main_clause("There is no magic rule for setting the number of processes.")[0] == \
        "There is no magic rule for setting the number of processes."


def test_there_is_a_limit_on_a_thing_is_the_thing_s_limit(normalizer_v2):
    """As "There is no rate limit on the internal API." already was: the existential left it without a subject."""
    n = norm(normalizer_v2, "There is a 240 hour limit on the number of hours of annual leave you can carry over.")
    # read as "a 240-hour limit" (session 86): the compound's value, and a limit's bound is an upper one
    assert (n.subject, n.value, n.bound.op) == ("number hour annual leave", "240-hour", "le")


@pytest.mark.parametrize("text,subject,modality", [
    ("You should ensure that sensitive information is filtered from logs.", "sensitive information", Modality.SHOULD),
    ("You must ensure that backups are encrypted.", "backup", Modality.MUST),
    ("Teams must make sure that every service has an owner.", "service", Modality.MUST),
])
def test_a_person_s_duty_to_make_sure_is_the_rule_inside(normalizer_v2, text, subject, modality):
    """"You should ensure that …" had no subject, where "Ensure that …" was read as the rule it wraps."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality) == (subject, modality)


@pytest.mark.parametrize("text,subject,v1", [
    ("Failed login attempts are limited to 5 per 15 minutes.", "failed login attempt", "fail login attempt"),
    ("Paid parental leave is 26 weeks at full pay.", "paid parental leave", "pay parental leave"),
    ("Stored payment methods are removed after 24 months.", "stored payment method", "store payment method"),
    ("Sleeping Eco dynos keep drawing down the monthly dyno-hour pool.", "sleeping eco dyno", "sleep eco dyno"),
])
def test_a_participle_before_its_noun_stays_as_written(normalizer, normalizer_v2, text, subject, v1):
    """"Failed logins" were "fail login": the verb's lemma read the name of a thing as an action, and the
    subject's words did not match the text's own. v1 keeps its lemmas, for comparison."""
    assert norm(normalizer_v2, text).subject == subject
    assert norm(normalizer, text).subject == v1


@pytest.mark.parametrize("text,subject", [
    ("Blob versioning is enabled on the account.", "blob versioning"),
    ("Object versioning is enabled on the bucket.", "object versioning"),
    ("Request logging is enabled for the API.", "request logging"),
    ("Debug logging is disabled in production.", "debug logging"),
    ("Query caching is off in production.", "query caching"),
])
def test_a_gerund_that_names_the_thing_is_the_subject_as_written(normalizer_v2, text, subject):
    """A gerund heading the subject as a noun does: "Blob versioning" was "blob versione" (the lemmatizer's verb)
    in one statement and "blob" in the next, where the parser hung the gerund as a clause on "Blob"; "Debug
    logging" was "debug log", the name of another thing."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_gerund_with_words_of_its_own_is_not_a_name(normalizer_v2):
    """A gerund with an object is an action ("Running tests …"), and one after its noun with more to say is the
    state the thing is kept in ("keep affected systems running rather than …")."""
    assert "running" not in norm(normalizer_v2, "Keep affected systems running rather than taking them offline.").subject
    assert norm(normalizer_v2, "Running tests locally is recommended.").subject == "running test"
    # and the logs are not the logging
    assert norm(normalizer_v2, "Request logs are kept for 30 days.").subject == "request log"
    assert norm(normalizer_v2, "Changing max_connections requires a restart.").subject == "max_connections"


def test_a_participle_after_its_noun_or_as_the_verb_is_still_a_lemma(normalizer_v2):
    """Only a participle that describes the noun after it keeps its form; the statement's own verb and a
    gerund that is the subject ("Changing …") are read as before."""
    assert norm(normalizer_v2, "Rotated logs are compressed with gzip.").subject == "rotated log"
    assert norm(normalizer_v2, "Changing max_connections requires a restart.").subject == "max_connections"
    assert norm(normalizer_v2, "Logs are rotated daily.").subject == "log"


@pytest.mark.parametrize("a, b", [
    ("Refunds are not automatic: finance doesn't process them without a ticket.", "Refunds are automatic."),
    ("Backups are encrypted: nobody can read them without the key.", "Backups are not encrypted."),
])
def test_a_clause_after_a_colon_does_not_turn_the_rule_s_polarity(normalizer_v2, a, b):
    """The clause after the colon has a subject of its own; its "n't" / "nobody" undid the rule's own
    negation (or made one), so a rule and its denial read as the same stance."""
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    assert na.modality is not nb.modality
    v = StructuralComparator().compare(na, a, nb, b)
    assert (v.kind, v.confidence) == (VerdictKind.CONTRADICTION, Confidence.HIGH)


def test_a_colon_before_a_list_still_belongs_to_the_rule(normalizer_v2):
    """Only a clause with its own subject is cut: a list after the colon is what the rule allows."""
    n = norm(normalizer_v2, "Only three log levels are allowed: debug, info and error.")
    assert (n.modality, n.subject) == (Modality.MAY, "log level")
    assert "debug" in (n.theme or "")


def test_the_colon_cut_is_v2_s_alone(normalizer):
    """v1 stays as it was, for comparison."""
    n = norm(normalizer, "Refunds are not automatic: finance doesn't process them without a ticket.")
    assert n.modality is Modality.MUST


@pytest.mark.parametrize("text, modality", [
    ('The login page shows a "Don\'t remember me" checkbox.', Modality.MUST),
    ("Error pages show a \u201cNot found\u201d message.", Modality.MUST),
    ('The kernel uses a "never overcommit" policy.', Modality.MUST),
    ('The login page does not show a "Remember me" checkbox.', Modality.MUST_NOT),
    ('Error pages show a "Not found" message and never a stack trace.', Modality.MUST_NOT),
])
def test_a_negation_in_double_quotes_is_a_name_not_the_rule_s_polarity(normalizer_v2, text, modality):
    """Words in quotes are mentioned, not used: the label of a checkbox is no denial of it. A negation
    outside the quotes still counts."""
    assert norm(normalizer_v2, text).modality is modality


def test_quoted_negations_still_count_in_v1(normalizer):
    assert norm(normalizer, 'Error pages show a "Not found" message.').modality is Modality.MUST_NOT


@pytest.mark.parametrize("text, modality", [
    ("The bcrypt function should only be used in legacy systems where Argon2 is not available.", Modality.SHOULD),
    ("Release managers must not ship a build that has not passed the performance suite.", Modality.MUST_NOT),
    ("Requests that don't fit into the buffer are rejected with a 400.", Modality.MUST),
    ("A standard week is 35 hours, not counting lunch.", Modality.MUST),
    (("Our policy requires a notice before every pentest, even ones that stay inside our accounts and never touch "
      "production."), Modality.MUST),
    # a main clause after a condition without its comma, which the parser reads as a relative clause
    ("If a webhook returns a 404 status you should not attempt to use it again.", Modality.SHOULD_NOT),
])
def test_a_negation_in_a_clause_that_describes_a_noun_is_the_noun_s(normalizer_v2, text, modality):
    """"systems where Argon2 is not available" says which systems; the rule itself is not denied."""
    assert norm(normalizer_v2, text).modality is modality


def test_a_title_case_not_is_part_of_a_name(normalizer_v2):
    assert norm(normalizer_v2, "The API returns 404 Not Found for unknown widgets.").modality is Modality.MUST
    assert norm(normalizer_v2, "The API must NOT return 500 for unknown widgets.").modality is Modality.MUST_NOT


def test_relative_negations_still_count_in_v1(normalizer):
    text = "The bcrypt function should only be used in legacy systems where Argon2 is not available."
    assert norm(normalizer, text).modality is Modality.SHOULD_NOT


def test_a_modal_in_a_clause_that_describes_a_noun_is_the_noun_s(normalizer_v2):
    """"… a file that may change without warning" is a fact about the file, not a permission."""
    n = norm(normalizer_v2, "Mozilla maintains a latest.json file of its recommendations that may change without warning.")
    assert n.modality is Modality.MUST
    assert norm(normalizer_v2, "Teams may change the file without warning.").modality is Modality.MAY


@pytest.mark.parametrize("text, modality", [
    ("You do not need to notify Auth0.", Modality.MAY_NOT),
    ("You don't have to notify Auth0 before a pentest.", Modality.MAY_NOT),
    ("The handler doesn't have to ack right away.", Modality.MAY_NOT),
    ("You have to notify Auth0.", Modality.MUST),
    ("Staff are not to share passwords.", Modality.MUST_NOT),
    # a verb that denies a state is no negation of the need: the actions must be closed
    ("Priority postmortem actions have to be closed out in 28 days.", Modality.MUST_NOT),
    # "need" as a modal, denied (session 87: it read "must not")
    ("Reviews need not be synchronous.", Modality.MAY_NOT),
    ("Reviews needn't be synchronous.", Modality.MAY_NOT),
    ("Contractors need not sign the NDA twice.", Modality.MAY_NOT),
    ("Backups need not be encrypted.", Modality.MAY_NOT),
    ("Reviews need to be synchronous.", Modality.MUST),
    # a perfect's "have" denied is no need
    ("Teams have not filed the report.", Modality.MUST_NOT),
])
def test_a_negated_need_lifts_an_obligation(normalizer_v2, text, modality):
    """"You don't have to notify Auth0" allows not notifying; it does not forbid notifying, so against "Teams
    may notify Auth0" it was a false opposition."""
    assert norm(normalizer_v2, text).modality is modality


def test_a_negated_need_still_forbids_in_v1(normalizer):
    assert norm(normalizer, "You do not need to notify Auth0.").modality is Modality.MUST_NOT
    assert norm(normalizer, "Reviews need not be synchronous.").modality is Modality.MUST_NOT


@pytest.mark.parametrize("modal, phrase", [
    ("Privileged users must use hardware security keys.", "Privileged users are required to use hardware security keys."),
    ("Support engineers may switch DEBUG on in production for up to 15 minutes.",
     "Support engineers are allowed to switch DEBUG on in production for up to 15 minutes."),
    ("PR authors must leave the merge to someone else.", "PR authors are required to leave the merge to someone else."),
    ("Debug builds must never be uploaded to the app store.", "Debug builds are required to never be uploaded to the app store."),
    ("Debug builds must not be uploaded to the app store.", "Debug builds are not allowed to be uploaded to the app store."),
    ("Teams must respond within 2 hours.", "Teams are expected to respond within 2 hours."),
    ("The service may retry 3 times.", "The service is allowed to retry 3 times."),
    ("Contractors need not sign the NDA.", "Contractors are not required to sign the NDA."),
    ("Employees must adhere to the current travel policy when booking flights.",
     "Employees have to adhere to the current travel policy when booking flights."),
    ("The Orders API must reject ListOrders calls that omit page_size.",
     "The Orders API has to reject ListOrders calls that omit page_size."),
    # a plural the small model tags a verb before "need to" ends the subject, as before "shall"
    ("Debug builds must never be uploaded to the app store.", "Debug builds need to never be uploaded to the app store."),
    ("All hotel stays must be booked through our travel agent.", "All hotel stays need to be booked through our travel agent."),
    # the action as the subject: its gerund's object is what the rule is about
    ("Passwords must not be shared.", "Sharing passwords is forbidden."),
    ("Secrets must not be committed to the repository.", "Committing secrets to the repository is not allowed."),
    ("API keys must be rotated every 90 days.", "Rotating API keys every 90 days is required."),
])
def test_a_modal_said_with_a_phrase_reads_as_the_modal(normalizer_v2, modal, phrase):
    """"are required to use X" was a state of the people ("privileged user", be, valued X) where "must use X" is about
    X; "are required to never upload" lifted the obligation (may not) where it forbids: ``guard bench invariance``,
    families "must -> are required to", "may -> are allowed to" (25 statements read apart, 6 now)."""
    a, b = norm(normalizer_v2, modal), norm(normalizer_v2, phrase)
    assert (a.subject, a.modality, a.object, a.bound) == (b.subject, b.modality, b.object, b.bound)


def test_a_modal_phrase_keeps_a_state_said_of_people(normalizer_v2):
    """A copula before an adjective that is no modal phrase stays the people's state, and a need in a clause on the
    subject is no rule's."""
    n = norm(normalizer_v2, "The on-call engineer is responsible for paging the database team.")
    assert (n.subject, n.object.value) == ("on-call engineer", "be")
    n = norm(normalizer_v2, "The main thing you need to know using the default config is that $HOME must be writeable.")
    assert n.subject == "main thing"
    # a gerund subject that no modal predicate rules stays the subject
    assert norm(normalizer_v2, "Sharing passwords helps attackers.").subject == "share password"
    # "X is optional for Y" stays about X: claims pair it with rules about X ("2FA must be enabled …" / "2FA is optional
    # for internal tools"); read as about Y (measured), two claims_train contradictions lost their block
    assert norm(normalizer_v2, "2FA is optional for internal tools.").subject == "2fa"


def test_a_modal_need_denied_opposes_the_obligation_not_the_permission(normalizer_v2):
    """"Reviews need not be synchronous" against "Reviews can be synchronous" was an opposing modality (must not /
    may) and against "Reviews must be synchronous" agreed nothing with it; it lifts the obligation."""
    assert verdict(normalizer_v2, "Reviews must be synchronous.", "Reviews need not be synchronous.").kind \
        is VerdictKind.CONTRADICTION
    assert verdict(normalizer_v2, "Reviews can be synchronous.", "Reviews need not be synchronous.").kind \
        is not VerdictKind.CONTRADICTION


def test_a_second_leading_clause_with_its_comma_is_cut_too(normalizer_v2):
    """"If …, so that …, you do not need to …": the rule is the last clause, not the condition."""
    n = norm(normalizer_v2, "If a security test is isolated to your own infrastructure, so that there will be no "
                            "testing of Auth0 services, you do not need to notify Auth0.")
    assert (n.subject, n.modality) == ("auth0", Modality.MAY_NOT)
    assert any(q.lower().startswith("so that") for q in n.qualifiers)


@pytest.mark.parametrize("text, modality, subject", [
    ("The service no longer supports TLS 1.0.", Modality.MUST_NOT, "service"),
    ("Passwords no longer expire.", Modality.MUST_NOT, "password"),
    ("Staff are free to keep client passwords in their personal keychain.", Modality.MAY, "client password"),
    ("Feel free to open a PR directly even for large changes.", Modality.MAY, "pr"),
    ("Maintainers should feel free to push small fixes directly to master.", Modality.MAY, "small fix"),
    ("Refrain from deploying on Fridays.", Modality.MUST_NOT, None),
    ("We recommend against deploying on Fridays.", Modality.SHOULD_NOT, None),
    ("Hotfixes are exempt from approval.", Modality.MAY_NOT, None),
    ("Engineers are not obliged to attend the standup.", Modality.MAY_NOT, None),
    ("Nobody may push directly to main.", Modality.MUST_NOT, None),
    ("Nothing merges with failing CI.", Modality.MUST_NOT, None),
])
def test_more_ways_english_says_a_rule_s_force(normalizer_v2, text, modality, subject):
    """Each was read with the wrong force: "no longer" before the verb joined the subject ("service long", a
    plain fact), "free to" was no permission, "exempt from" and "not obliged" were not read at all."""
    n = norm(normalizer_v2, text)
    assert n.modality is modality
    if subject is not None:
        assert n.subject == subject


@pytest.mark.parametrize("text, modality, subject", [
    ("It is mandatory to enable MFA on every account.", Modality.MUST, "mfa"),
    ("It is not required to enable MFA.", Modality.MAY_NOT, "mfa"),
    ("It's not recommended to store secrets in environment files.", Modality.SHOULD_NOT, "secret"),
    ("It is strongly recommended to use a local filesystem for Prometheus' local storage.", Modality.SHOULD,
     "prometheus local storage"),
    ("It is prohibited to share customer exports over email.", Modality.MUST_NOT, "customer export"),
    ("It is not permitted to directly test Auth0 infrastructure.", Modality.MUST_NOT, "auth0 infrastructure"),
    ("It is never acceptable for the login page to be served over plain HTTP.", Modality.MUST_NOT, "login page"),
    ("It is never forbidden to rotate the signing key.", Modality.MAY, "signing key"),     # never forbidden: allowed
    ("While testing your own app, it is not permitted to directly test Auth0 infrastructure.", Modality.MUST_NOT,
     "auth0 infrastructure"),
])
def test_a_rule_said_with_the_extraposed_it(normalizer_v2, text, modality, subject):
    """"It is not permitted to test X." had no subject (the rule's thing sat in the infinitive) and the
    adjective's force was not read, so it never met "Testing X directly is allowed." (session 68)."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.subject) == (modality, subject), text


@pytest.mark.parametrize("text", [
    "It is possible to deploy on Fridays.",               # what can be done, not a rule
    "It is hard to rotate the root key.",
])
def test_an_extraposed_it_that_states_no_rule_is_left_as_written(normalizer_v2, text):
    from guard.normalize.rules_v2 import _extraposed_rule
    assert _extraposed_rule(text) == text


def test_the_extraposed_rule_meets_its_opposite(normalizer_v2):
    v = verdict(normalizer_v2, "It is not permitted to share customer exports over email.",
                "Customer exports may be shared over email.")
    assert v.kind is VerdictKind.CONTRADICTION, v


@pytest.mark.parametrize("text, modality", [
    ("Engineers may not disable audit logging.", Modality.MUST),
    ("Nobody may disable audit logging.", Modality.MUST),
    ("Engineers cannot disable audit logging.", Modality.MUST),
    ("Audit logging cannot be turned off.", Modality.MUST),
    ("Engineers may disable audit logging.", Modality.MAY_NOT),
    ("Debug logging may be turned off in production.", Modality.MAY_NOT),
    ("Engineers may not share passwords.", Modality.MUST_NOT),
    ("Audit logging must be enabled.", Modality.MUST),
])
def test_may_not_forbids_what_it_says_even_a_state_s_denial(normalizer_v2, text, modality):
    """"may not disable" forbids disabling (the logging must stay on; read whole it was "may"), while "may
    disable" only lifts the need to keep it on (it was "must not", as if disabling were forbidden)."""
    assert norm(normalizer_v2, text).modality is modality


def test_a_forbidden_disable_conflicts_with_an_allowed_one(normalizer_v2):
    a, b = "Engineers may not disable audit logging.", "Engineers may disable audit logging."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.CONTRADICTION


@pytest.mark.parametrize("text, subject", [
    ("Anyone may push directly to main.", "main"),
    ("Maintainers are allowed to push directly to `main` without a pull request.", "maintainer"),
    ("Nobody may push directly to main.", "main"),
    ("No one may share customer data with third parties.", "customer data"),
    ("Engineers must not push directly to main.", "main"),
])
def test_an_adverb_after_the_action_or_a_rule_for_nobody_does_not_lose_the_subject(normalizer_v2, text, subject):
    """"push directly to main" was about "directly", and "Nobody may …" / "No one may …" about nothing, so
    "Nobody may push directly to main." never met "Anyone may push directly to main."."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_rule_for_nobody_conflicts_with_one_for_anyone(normalizer_v2):
    a, b = "Nobody may push directly to main.", "Anyone may push directly to main."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.CONTRADICTION


@pytest.mark.parametrize("text, subject", [
    ("Sprints last two weeks.", "sprint"),
    ("Refresh tokens last 7 days.", "refresh token"),
    ("The meeting lasts 30 minutes.", "meeting"),
])
def test_last_before_a_duration_is_the_verb(normalizer_v2, text, subject):
    """The small model reads "Sprints last two weeks" as one noun phrase ("last two weeks"): the subject was
    "sprint last", which never met "Sprints are three weeks long."."""
    n = norm(normalizer_v2, text)
    assert n.subject == subject and n.bound is not None and n.bound.unit == "time"
    # "last" as an adjective after a determiner stays one ("the last two weeks of December")
    assert "december" in norm(normalizer_v2, "The last two weeks of December are a freeze.").subject


@pytest.mark.parametrize("text, subject", [
    ("Contractors on the data team can query production directly.", "production"),
    ("Staff with 18 months' service can apply for a sabbatical of up to three months.", "sabbatical"),
    ("Developers on the data team may keep long-lived IAM user access keys.", "long-lived iam user access key"),
    ("Users with gmail.com email addresses are allowed to log in through SSO.", "sso"),
])
def test_people_narrowed_by_a_phrase_are_still_people_whose_action_is_regulated(normalizer_v2, text, subject):
    """"Contractors …" was about what they do, "Contractors on the data team …" about "contractor": the rule
    for some of them never met the rule for all of them."""
    assert norm(normalizer_v2, text).subject == subject


def test_the_rule_for_some_people_meets_the_rule_for_all(normalizer_v2):
    a, b = "Staff must give at least two weeks' notice.", "Staff in sales must give at least 30 days' notice."
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    assert na.subject == nb.subject == "notice"
    # a thing narrowed by a phrase stays the thing ("Servers in the EU …" are not people)
    assert norm(normalizer_v2, "Servers in the EU must be patched weekly.").subject.startswith("server")


@pytest.mark.parametrize("text, modality", [
    ("The checkout session cookie uses SameSite=None during the migration.", Modality.MUST),
    ("Our token service accepts alg=none JWTs from callers inside the cluster.", Modality.MUST),
    ("The default for AllowOverride is None in httpd 2.3.9 and later.", Modality.MUST),
    ("Cookies must not use SameSite=None.", Modality.MUST_NOT),
    ("None of the services may log tokens.", Modality.MUST_NOT),
])
def test_a_setting_s_value_none_is_no_negation(normalizer_v2, text, modality):
    """"uses SameSite=None" says which value the setting has; read as a negation, the cookie "must not"
    use it, the opposite of what the text says."""
    assert norm(normalizer_v2, text).modality is modality


def test_a_number_and_a_half_of_a_unit_is_read_whole(normalizer_v2):
    """"three and a half years" had no value at all; it equals "42 months" (a month counted as 30 days)."""
    a, b = "A Python minor version stays supported for three and a half years.", \
        "A Python minor version stays supported for 42 months."
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    assert na.value == "three and a half years" and na.bound.unit == "time"
    v = StructuralComparator().compare(na, a, nb, b)
    assert v.kind is VerdictKind.CONSISTENT, v
    assert op_number_unit("The trial lasts 2 and a half hours.") == ("eq", 9000.0, "time")


@pytest.mark.parametrize("text", ["Sessions time out after one hour.", "Idle sessions time out after half an hour."])
def test_time_out_is_the_verb_and_names_the_timeout(normalizer_v2, text):
    """"Sessions time out …" was about "session time"; "The session times out …" (tagged a verb) was about
    the session with a timeout, so the two wordings never met."""
    n = norm(normalizer_v2, text)
    assert n.subject.endswith("session") and n.attribute == "timeout"
    assert norm(normalizer_v2, "The session times out after 30 minutes.").attribute == "timeout"


@pytest.mark.parametrize("text, subject", [
    ("At HLN Consulting, all time off must be pre-approved.", "time-off"),
    ("Time off is self-scheduled: put it on the shared calendar and go.", "time-off"),
    ("Employees get 25 days of paid time off per year.", "paid time-off"),
])
def test_time_off_is_one_noun(normalizer_v2, text, subject):
    """The small model reads "off" as a particle: the subject was "time", and "12 weeks of paid time off" was
    valued as "time". Read as "time-off", as "time-off awards" already was."""
    assert norm(normalizer_v2, text).subject == subject
    assert split_main_clause("Take time off.")[0] == "Take time-off."


def test_a_count_in_words_of_things_that_each_last_a_time_is_their_total(normalizer_v2):
    """"30 eight-hour days" was already 240 hours; "ten 8-hour days" was "8-hour", one day's length."""
    assert op_number_unit("You can take ten 8-hour days.") == ("eq", 288000.0, "time")
    assert op_number_unit("Nobody may take more than ten 8-hour days a year.")[:2] == ("ge", 288000.0)
    assert op_number_unit("An 8-hour day is standard.") == ("eq", 28800.0, "time")


@pytest.mark.parametrize("text, subject, value", [
    ("Every quarter, each squad must rotate one person onto the support queue.", "squad", "every quarter"),
    ("Every day, backups are verified.", "backup", "every day"),
    (("Every six months between LTS versions, Canonical publishes an interim release; these releases are supported "
      "for 9 months."), "interim release", "9 months"),      # the release a name puts out (session 73)
])
def test_how_often_said_first_is_no_subject(normalizer_v2, text, subject, value):
    """"Every quarter, each squad must …" was about "quarter"; read as "… , every quarter." the frequency stays the
    value and the squad is the subject ("Every PR needs …" has no comma and stays about PRs)."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.value) == (subject, value)
    assert norm(normalizer_v2, "Every PR needs one approving review, and hotfixes need two.").subject == "pr"


@pytest.mark.parametrize("text", ["Do not deploy on Fridays.", "Refrain from deploying on Fridays.",
                                  "We recommend against deploying on Fridays."])
def test_an_order_about_an_action_with_nothing_acted_on_is_about_the_action(normalizer_v2, text):
    """It had no subject, so "Refrain from deploying on Fridays." never met "Deploys on Fridays are fine."."""
    assert norm(normalizer_v2, text).subject == "deploy"
    a, b = "Refrain from deploying on Fridays.", "Deploys on Fridays are fine."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.CONTRADICTION
    # an order to use or run a tool stays without a subject: two tools for two languages are no conflict
    assert norm(normalizer_v2, "Run `gofmt -w -s` on all Go code before pushing.").subject is None


@pytest.mark.parametrize("text, main", [
    ("There is no expectation that people will answer Slack pings over the weekend.",
     "People are not expected to answer Slack pings over the weekend."),
    ("There is no expectation from them to respond outside of working hours.",
     "They are not expected to respond outside of working hours."),
    ("There is no expectation of privacy on company devices.", "There is no expectation of privacy on company devices."),
])
def test_no_expectation_is_what_nobody_expects_of_them(text, main):
    """Read with the existential "there" the statement had no subject and "expectation" for its value, so it
    never met "Slack pings must be answered within an hour, evenings and weekends included."."""
    assert split_main_clause(text)[0] == main


def test_no_expectation_lifts_the_obligation(normalizer_v2):
    n = norm(normalizer_v2, "There is no expectation that people will answer Slack pings over the weekend.")
    assert (n.modality, n.subject) == (Modality.MAY_NOT, "slack ping")


@pytest.mark.parametrize("a, b", [
    ("Pull requests must be reviewed by two engineers before merging.",
     "Pull requests must be reviewed by 3 engineers before merging."),
    ("We support the last two major versions of the API.", "We support the last three major versions of the API."),
    ("Each team has three on-call engineers.", "Each team has two on-call engineers."),
])
def test_a_count_said_in_a_word_meets_another_count(normalizer_v2, a, b):
    """"two engineers" had no value while "3 engineers" had one, so the two counts never met; in words on both
    sides neither had one."""
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.VALUE_CONFLICT


def test_a_count_in_a_word_is_the_same_count_in_digits(normalizer_v2):
    a, b = "We support the last two major versions of the API.", "We support the last 2 major versions of the API."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert (v.kind, v.reason) == (VerdictKind.CONSISTENT, "same value")


@pytest.mark.parametrize("text, expected", [
    ("Changes require at least two positive reviews.", ("ge", 2.0, "")),
    ("Keep two or more backups.", ("ge", 2.0, "")),
    ("Keep at most three backups.", ("le", 3.0, "")),
    ("Projects are paused after seven idle days.", ("eq", 7 * 86400.0, "time")),
    ("You can take up to three consecutive weeks of PTO.", ("le", 3 * 604800.0, "time")),
    ("You can take up to 3 consecutive weeks of PTO.", ("le", 3 * 604800.0, "time")),
    ("Worker apps go to sleep after 30 idle minutes.", ("eq", 1800.0, "time")),
    ("Meetups of fewer than five people need no champion.", ("le", 5.0, "")),
    ("Accounts lock after ten consecutive failed login attempts.", ("eq", 10.0, "")),
    ("Staff can roll at most 30 eight-hour days into the new year.", ("le", 30 * 8 * 3600.0, "time")),
])
def test_a_count_in_a_word_keeps_its_bound_and_a_span_its_unit(normalizer_v2, text, expected):
    """A count in digits or words with words before its unit ("30 idle minutes") is that span, in both
    spellings; the words between stay out of the value, since they are as often the subject."""
    assert op_number_unit(text) == expected
    assert norm(normalizer_v2, "You can have up to 24 credit hours accrued at any given time.").subject == "credit hour"


@pytest.mark.parametrize("text", [
    "Two of them are fine.", "The two are the same.", "We require two-factor authentication.",
    "Never share one password between tools.", "Keep two.", "twelve",
])
def test_a_number_word_that_counts_no_noun_is_no_value(text):
    assert [v for v in extract_typed_values(text) if v.bound is not None] == []


def test_a_count_in_a_word_is_the_value_only_where_there_is_no_other(normalizer_v2):
    text = ("Content can be presented without requiring scrolling in two dimensions, for vertical scrolling "
            "content at a width equivalent to 320 CSS pixels.")
    assert norm(normalizer_v2, text).value != "two"
    assert norm(normalizer_v2, "Final-round candidates are asked for five professional references.").value == "five"


def test_counts_in_words_are_read_in_linear_time():
    ends_at_once("from guard.normalize.typed_values import extract_typed_values\n"
                 "for t in ['two ' + 'a' * 200000, ('two ' + 'ab' * 5 + ' ') * 20000, ('two a-b-c-d ') * 20000]:\n"
                 "    extract_typed_values(t)", limit_s=30)


@pytest.mark.parametrize("text", [
    "The item must not exceed 2 MB.", "The item mustn't exceed 2 MB.", "The item cannot exceed 2 MB.",
    "The item can't exceed 2 MB.", "The item can not exceed 2 MB.", "The item may not exceed 2 MB.",
    "The item never exceeds 2 MB.", "The item does not exceed 2 MB.", "The item doesn't exceed 2 MB.",
    "The item won't exceed 2 MB.", "The item is not more than 2 MB.", "The item isn't more than 2 MB.",
    "The item must not be more than 2 MB.", "Items may not be larger than 2 MB.",
])
def test_a_limit_is_read_alike_however_its_negation_is_written(normalizer_v2, text):
    """Only "not"/"never exceed" were read as the bound's own negation: "cannot exceed 2 MB" forbade exactly
    2 MB (must not), "may not exceed" and "can not exceed" allowed at most 2 MB (may), and "is not more than
    2 MB" turned into at least 2 MB, while "can't exceed" and "isn't more than" were read right."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.bound.op, n.bound.number, n.bound.unit) == (Modality.MUST, "le", 2e6, "bytes")


def test_a_limit_written_two_ways_agrees_with_itself_and_meets_a_larger_value(normalizer_v2):
    a, b, c = "The item cannot exceed 2 MB.", "The item can't exceed 2 MB.", "The item is 5 MB."
    cmp = StructuralComparator().compare
    assert cmp(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b).kind is VerdictKind.CONSISTENT
    for x in (a, b):
        assert cmp(norm(normalizer_v2, x), x, norm(normalizer_v2, c), c).kind is VerdictKind.VALUE_CONFLICT
    # a permission to go up to an amount stays a permission
    assert norm(normalizer_v2, "The item can be up to 2 MB.").modality is Modality.MAY


@pytest.mark.parametrize("text, expected", [
    ("Invoices must be no less than $100.", (Modality.MUST, "ge")),
    ("Tokens rotate no more than twice a day.", (Modality.MUST, "ge")),     # a period of at least 12 hours
    ("You must have no less than one allowed domain.", (Modality.MUST, "ge")),
])
def test_the_no_of_a_comparison_is_the_bounds_own(normalizer_v2, text, expected):
    """"no less than $100" was read with its "no" as the rule's negation: at most $100, and "no more than twice
    a day" a prohibition."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.bound.op) == expected


@pytest.mark.parametrize("a, b", [
    ("Updates should be delivered at least every 20 mins.", "Updates should be delivered at least every 20 minutes."),
    ("Authentication must be repeated at least once per 12 hrs.", "Authentication must be repeated at least once per 12 hours."),
    ("A standard week is 35 hrs, Monday to Friday, not counting lunch.",
     "A standard week is 35 hours, Monday to Friday, not counting lunch."),
    ("We pin the chart to 1.4.0.", "We pin the chart to 1.4.0"),
    ("Contributions are accepted only under Apache-2.0.", "Contributions are accepted only under Apache-2.0"),
    ("All packages require at least two approving reviews before a PR can be merged.",
     "All packages require at least two approving reviews before a PR can be merged"),
])
def test_a_statement_written_another_way_is_read_the_same(normalizer_v2, a, b):
    """Short unit spellings, a participle the parser hangs elsewhere, a missing full stop (as an agent's note
    often is): each was read as another rule (must against must not, a value or none)."""
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    assert (na.modality, na.subject, na.bound) == (nb.modality, nb.subject, nb.bound)
    assert StructuralComparator().compare(na, a, nb, b).kind is VerdictKind.CONSISTENT
    assert norm(normalizer_v2, "We pin the chart to 1.4.0.").value == "1.4.0"


@pytest.mark.parametrize("a, b", [
    ("Maximum upload size is 100 megabytes.", "Maximum upload size is 100 MB."),
    ("Data nodes have 128 gigabytes of memory.", "Data nodes have 128 GB of memory."),
    ("You can build up to 500 times/month.", "You can build up to 500 times per month."),
])
def test_a_unit_written_in_full_or_with_a_slash_is_the_same_amount(a, b):
    """"100 megabytes" was a bare 100 against "100 MB", and "500 times/month" a rate of times, not how often."""
    assert op_number_unit(a) == op_number_unit(b)


@pytest.mark.parametrize("text, main", [
    (("Because any amount of time greater than 86,400 seconds counts as an additional day, certificates should "
      "not be valid longer."), "Certificates should not be valid longer."),
    ("From FY2025 the professional development allowance is $1,500 per teammate per fiscal year.",
     "From FY2025 the professional development allowance is $1,500 per teammate per fiscal year."),
    ("To go beyond the default quota of 50,000, you must contact support.", "You must contact support."),
])
def test_a_comma_between_digits_ends_no_leading_clause(text, main):
    """The leading clause ended at a number's comma: "… greater than 86," was cut off and "400 seconds counts as an
    additional day, …" read as the rule, "$1,500" left "500 per teammate …" and "50,000" the value "000"."""
    assert split_main_clause(text)[0] == main


@pytest.mark.parametrize("text, expected", [
    ("Accounts count toward the 1,000-entity AMI sharing quota.", ("eq", 1000.0, "")),
    ("Purchases over EUR 5,000 need a business case.", ("ge", 5000.0, "eur")),
])
def test_grouped_numbers_before_a_hyphen_and_currency_codes_before_the_amount(text, expected):
    assert op_number_unit(text) == expected


@pytest.mark.parametrize("text, modality, subject, theme", [
    ("No laptop is issued without disk encryption enabled.", Modality.MUST, "laptop", "disk encryption"),
    ("No change lands without a pull request.", Modality.MUST, "change", "pull request"),
    ("Third-party JavaScript must never be loaded on the billing page without a security review.", Modality.MUST,
     "third-party JavaScript", "security review"),
    ("Lab equipment should not be left running overnight without a sign on the door.", Modality.SHOULD,
     "lab equipment", "sign door"),
    ("Changes can be merged without a code review.", Modality.MAY_NOT, "change", "code review"),
    ("Interns can open tickets without a manager sign-off.", Modality.MAY_NOT, "ticket", "manager sign-off"),
    # the parse hangs the "without" on the bare place the action goes to (once "pull request" reads as one word)
    ("Maintainers may push directly to main without a pull request.", Modality.MAY_NOT, None, "pull request"),
    ("Maintainers are allowed to push directly to main without a pull request.", Modality.MAY_NOT, None, "pull request"),
    ("Contractors must not deploy to production without approval.", Modality.MUST, None, "approval"),
])
def test_a_rule_said_through_without_requires_what_it_names(normalizer_v2, text, modality, subject, theme):
    """Forbidding an action without Y requires Y ("No change lands without a pull request." is "changes need a
    pull request", not a ban on landing); permitting it without Y lifts that requirement."""
    from guard.claims import StateVerb
    n = norm(normalizer_v2, text)
    assert (n.modality, n.object, n.theme) == (modality, StateVerb.REQUIRE, theme)
    if subject is not None:
        assert n.subject == subject
    assert n.permission is None        # the denial or grant is conditional: no plain permission to compare


@pytest.mark.parametrize("text", [
    "API Gateway closes WebSocket connections after 600 seconds without traffic.",      # on a noun
    "Data team engineers can log up to 5 hours of overtime without asking their supervisor first.",   # no thing
    "Passwords of any composition can be used, without rules limiting the type of characters permitted.",  # aside
    "Deploys must happen without downtime.",          # an obligation's manner: left as it reads
])
def test_a_without_that_is_no_condition_of_the_rule_changes_nothing(normalizer_v2, text):
    from guard.claims import StateVerb
    n = norm(normalizer_v2, text)
    assert n.object is not StateVerb.REQUIRE


@pytest.mark.parametrize("a, b, kinds", [
    # the same rule: no longer an opposing modality on one subject, decided at HIGH without the model
    ("Laptops must have disk encryption enabled.", "No laptop is issued without disk encryption enabled.",
     {VerdictKind.CONSISTENT, VerdictKind.UNCERTAIN, VerdictKind.UNKNOWN}),
    # a requirement against a permission to go without it: they oppose, as the texts do
    ("No change can be merged without a code review.", "Changes can be merged without a code review.",
     {VerdictKind.CONTRADICTION}),
    ("Changes do not require a code review.", "No change can be merged without a code review.",
     {VerdictKind.CONTRADICTION}),
])
def test_rules_said_through_without_compare_as_requirements(normalizer_v2, a, b, kinds):
    v = verdict(normalizer_v2, a, b)
    assert v.kind in kinds, (v.kind, v.reason)
    if VerdictKind.CONTRADICTION not in kinds:
        assert v.confidence is not Confidence.HIGH or v.kind is VerdictKind.CONSISTENT


@pytest.mark.parametrize("text, subject, attribute, value", [
    ("Set `max_connections` to 200 in postgresql.conf.", "max_connections", "max_connections", "200"),
    ("Set max_connections to 200 in postgresql.conf.", "max_connections", "max_connections", "200"),
    ("Change `vm.swappiness` to 10.", "vm.swappiness", "vm.swappiness", "10"),
    ("Set `sslmode=require` for every connection.", "sslmode", "sslmode", "require"),
    ("Set `imagePullPolicy: IfNotPresent` on every deployment.", "imagePullPolicy", "imagepullpolicy", "IfNotPresent"),
    ("Set `imagePullPolicy` to `IfNotPresent` on every deployment.", "imagePullPolicy", "imagepullpolicy",
     "IfNotPresent"),
    ("Always set `httpOnly: true` on auth cookies.", "httpOnly", "httponly", "true"),
    ("You must include a `batch_id` with your send.", "batch_id", "batch_id", None),
])
def test_a_setting_named_in_code_is_what_an_order_is_about(normalizer_v2, text, subject, attribute, value):
    """Read as a literal value, a backticked setting left the order without a subject and took the place of
    its value ("Set `sslmode=require`" was about "set sslmode", "Set `imagePullPolicy` to …" about "to"), and a
    file named after the value was the attribute ("… in postgresql.conf"). Written bare, the same orders were
    read right (session 69)."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.attribute, n.value) == (subject, attribute, value), text


@pytest.mark.parametrize("text", [
    "Run `gofmt -w -s` on all Go code before pushing.",      # a command, not a setting's name
    "Set the mode to `strict`.",                           # the value alone is in code
])
def test_code_that_names_no_setting_stays_a_value(normalizer_v2, text):
    from guard.normalize.rules_v2 import _setting_in_code
    assert _setting_in_code(text) == text


def test_two_orders_that_set_one_setting_in_code_differently_conflict(normalizer_v2):
    v = verdict(normalizer_v2, "Set `sslmode=require` for every connection.", "Set sslmode to `disable` for every connection.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("text, subject", [
    ("If a secret is committed, rotate it immediately and rewrite git history.", "secret"),
    ("Rotate it immediately.", None),                  # "it" with nothing said before: no subject, not "immediately"
    ("Rotate keys regularly.", "key"),
])
def test_how_an_order_is_carried_out_is_not_its_thing(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("Although Vue 2 has reached End of Life, it is still available on all existing distribution channels.", "vue"),
    ("Because the cache is shared between tenants, it must be encrypted at rest.", "cache"),
    ("While the API is in beta, it may change without notice.", "api"),
    ("Although you can deploy on Fridays, it is discouraged.", None),         # a person's concession names no thing
])
def test_it_after_a_concession_or_a_cause_is_that_clauses_subject(normalizer_v2, text, subject):
    """"Although …, it …" and "Because …, it …" had no subject, where "If …, it …" already had the condition's: the
    pronoun stands for the leading clause's subject, which the cut-off clause took with it."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject, modality, number", [
    ("For FIFO queues, there can be a maximum of 20,000 inflight messages in a queue.", "inflight message",
     Modality.MUST, 20000.0),
    ("There can only be a maximum of 20 people who have the support entitlement.", "people", Modality.MUST, 20.0),
    # "you can take" describes the amount (session 75: a modal in a clause describing the subject is not the rule's)
    ("There is no set limit of the amount of PTO you can take.", "pto", Modality.MUST, float("inf")),
])
def test_a_limit_said_with_the_existential_there(normalizer_v2, text, subject, modality, number):
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality, n.bound.op, n.bound.number) == (subject, modality, "le", number), text


def test_a_limit_of_a_number_is_no_limit_on_it():
    from guard.normalize.rules_v2 import _existential_limit
    assert _existential_limit("There is a limit of 100 requests per minute.") == "There is a limit of 100 requests per minute."


@pytest.mark.parametrize("text, subject", [
    ("Automatically lock your computer after a short period of idle time.", "computer"),
    ("Immediately revoke leaked keys.", "leaked key"),
    ("Automatically generated reports are kept for 30 days.", "automatically generated report"),   # no order
])
def test_an_order_that_opens_with_its_manner(normalizer_v2, text, subject):
    """"Automatically lock your computer …" was read as a statement about "automatically" (session 69)."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject, condition", [
    ("If you have been woken up by an alert you are not expected to start work at your normal time.", "work",
     "If you have been woken up by an alert"),
    ("If you are alerted out of hours while you are awake you can claim 0.25 days of TOIL.", "toil",
     "If you are alerted out of hours while you are awake"),
    ("If you deploy on Fridays you must tell the on-call and you should stay online.", "on-call",
     "If you deploy on Fridays"),
    ("If a Discord webhook returns a 404 status you should not attempt to use it again.", "discord webhook",
     "If a Discord webhook returns a 404 status"),
])
def test_a_condition_without_its_comma_is_still_a_condition(normalizer_v2, text, subject, condition):
    """Read whole, the condition's verb was the statement's and the rule had no subject (session 69)."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.qualifiers[0]) == (subject, condition), text


def test_an_unmarked_condition_is_cut_only_before_a_rule():
    from guard.normalize.rules_v2 import _mark_condition
    assert _mark_condition("If the build breaks the deploy stops.") == "If the build breaks the deploy stops."
    assert _mark_condition("When you are on call you get a stipend.") == "When you are on call, you get a stipend."


@pytest.mark.parametrize("text, modality, subject", [
    ("It is not true that a key vault's soft-delete can be turned off again after it has been enabled.", Modality.MUST,
     "key vault soft-delete"),
    ("It is not true that contractors can't access production.", Modality.MAY, "production"),
    ("It's not the case that deploys will happen on Fridays.", Modality.MUST_NOT, "deploy"),
])
def test_a_statement_denied_as_a_whole(normalizer_v2, text, modality, subject):
    """"It is not true that P" had no subject and only the denial as its force (session 69)."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.subject) == (modality, subject), text


def test_a_denied_statement_with_no_auxiliary_is_left_as_written():
    from guard.normalize.rules_v2 import _denied_statement
    assert _denied_statement("It is not true that Caddy retries requests.") == "It is not true that Caddy retries requests."


@pytest.mark.parametrize("text, modality", [
    ("Soft-delete cannot be disabled.", Modality.MUST),          # keeps it enabled, as "cannot be turned off"
    ("Soft-delete can be disabled.", Modality.MAY_NOT),
    ("Soft-delete is disabled.", Modality.MUST_NOT),
    ("The bucket cannot be private.", Modality.MUST),              # must be public
    ("The bucket cannot be public.", Modality.MUST_NOT),
])
def test_a_state_denied_by_an_adjective_reads_as_by_a_verb(normalizer_v2, text, modality):
    assert norm(normalizer_v2, text).modality is modality


def test_a_rule_and_its_denied_negation_agree(normalizer_v2):
    v = verdict(normalizer_v2, "Once soft-delete is enabled on a key vault it cannot be disabled.",
                "Soft-delete cannot be turned off once it has been enabled.")
    assert v.kind not in (VerdictKind.CONTRADICTION, VerdictKind.VALUE_CONFLICT, VerdictKind.TENSION), v


@pytest.mark.parametrize("text, subject", [
    ("Fly recommends setting auto_start_machines = true in your fly.toml file.", "auto_start_machines"),
    ("We should just set processes = 2 * cpucores for every uWSGI service.", "process"),
    ("The = operator allows only one exact version number.", "operator"),       # "=" named, not a setting's
    ("It is not possible to enable or disable foreign key constraints in a transaction.", "foreign key constraint"),
    ("Never create or delete users by hand.", "user"),
])
def test_a_setting_s_value_and_a_second_verb_are_not_the_subject(normalizer_v2, text, subject):
    """"auto_start_machines = true" was the subject whole, and "enable or disable X" (the second verb tagged an
    adjective) made "disable X" the thing (session 69)."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_requirement_and_a_denial_in_other_words_about_a_prose_subject_go_to_the_gate(normalizer_v2):
    """"Same subject, different state" was clean at HIGH, without the model, even where one statement requires
    and the other denies: on claims_train two of the three such pairs were contradictions (session 69)."""
    v = verdict(normalizer_v2, "On-demand certificates must be enabled and restricted.",
                "On-demand certificates may run without any restriction.")
    assert (v.kind, v.confidence) == (VerdictKind.UNCERTAIN, Confidence.LOW), v
    # two facts in one stance stay settled, and so do two rules about one named component
    v = verdict(normalizer_v2, "Access tokens expire after 15 minutes.", "Access tokens are signed with RS256.")
    assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH), v
    v = verdict(normalizer_v2, "The billing-api-1 must use TLS.", "The billing-api-1 may not listen on public ports.")
    assert v.kind is VerdictKind.CONSISTENT, v


@pytest.mark.parametrize("text, low, high", [
    ("Deploys must not happen on weekends.", 6, 7),
    ("Deployments are prevented during the weekend.", 6, 7),
    ("Support answers within eight hours on weekdays.", 1, 5),
    ("The office is staffed Monday to Friday.", 1, 5),
    ("Batch jobs run Tuesday through Thursday.", 2, 4),
])
def test_days_of_the_week_as_a_span(text, low, high):
    spans = [v.bound for v in extract_typed_values(text) if v.bound is not None and v.bound.unit == "weekday"]
    assert spans == [Bound("range", float(low), "weekday", float(high))], text


@pytest.mark.parametrize("text", [
    "Weekend overtime should be used only as a last resort.",     # a noun's modifier, no days
    "The release train leaves every Friday.",                     # one day
    "Support runs Friday to Monday.",                             # across the week's end: not read
])
def test_what_is_no_span_of_days(text):
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.op == "range"
                and v.bound.unit == "weekday"], text


@pytest.mark.parametrize("a, b, kind", [
    ("Deploys must not happen on weekends.", "Deploys happen every Saturday.", VerdictKind.CONTRADICTION),
    ("The reports-cron-1 must not run on weekends.", "The reports-cron-1 is scheduled every Saturday.",
     VerdictKind.CONTRADICTION),
    ("Deploys must not happen on weekends.", "Deploys happen every Tuesday.", VerdictKind.CONSISTENT),
    ("Deploys are allowed Monday to Friday.", "Deploys are allowed on Wednesday.", VerdictKind.UNCERTAIN),
])
def test_a_day_within_a_span_of_days(normalizer_v2, a, b, kind):
    """"must not run on weekends" against "scheduled every Saturday" was settled clean as two facts about one
    named thing: "weekends" was no value (session 69)."""
    assert verdict(normalizer_v2, a, b).kind is kind


@pytest.mark.parametrize("a, b", [
    ("Do not use SMS to communicate about the security incident.", "Never use SMS to communicate about the security incident."),
    ("Do not modify tests to make them pass.", "Never modify tests to make them pass."),
    ("It is not true that a key vault's soft-delete can be turned off again.",
     "It isn't true that a key vault's soft-delete can be turned off again."),
    ("While testing, it is not permitted to directly test Auth0 infrastructure.",
     "While testing, it isn't permitted to directly test Auth0 infrastructure."),
])
def test_an_order_reads_alike_in_its_other_spellings(normalizer_v2, a, b):
    """Found by the invariance benchmark: "Never use SMS to communicate …" kept its purpose in the subject where
    "Do not use SMS …" cut it, and "isn't" was not read where "is not" was (session 69)."""
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    assert (na.subject, na.modality) == (nb.subject, nb.modality), (na.subject, nb.subject)


@pytest.mark.parametrize("text, subject", [
    ("APIs shall not use the database sequence number as the resource identifier.", "api"),
    ("Remediation SLAs are 3 days for Critical.", "remediation sla"),
    ("An AWS account alias shall be lowercase.", "aws account alias"),
    ("AWS credentials are rotated.", "aws credential"),                # "AWS" is no plural
])
def test_an_acronym_s_plural_and_alias_have_their_singular(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


def test_the_session_69_rewrites_on_hostile_text_end_at_once():
    """The unmarked condition, the denied statement, the setting in code and the spans of days are regexes over
    the whole statement: each on long runs of what it looks for, in an interpreter of its own, under a limit."""
    code = ("from guard.normalize.rules_v2 import _mark_condition, _denied_statement, _setting_in_code\n"
            "from guard.normalize.typed_values import extract_typed_values\n"
            "for t in ['If ' + 'you are ' * 300, 'When ' + 'a b ' * 400 + 'it must', 'It is not true that ' + 'x ' * 900,\n"
            "          'Set `' + 'a.' * 900 + '`', 'Set `' + 'a ' * 400 + '= b`', 'Monday to ' * 200 + 'Friday',\n"
            "          'on weekends ' * 150, 'If ' + 'we and ' * 300 + 'we must go']:\n"
            "    t = t[:2000]\n"
            "    _mark_condition(t), _denied_statement(t), _setting_in_code(t), extract_typed_values(t)\n")
    ends_at_once(code)


def test_the_leading_participle_on_hostile_text_ends_at_once():
    """Its check for a finite verb before the comma is bounded: unbounded, a run of "is" after a participle took a
    second for 48,000 characters and grew with the square of the length."""
    code = ("import time\n"
            "from guard.normalize.rules_v2 import _LEAD_PARTICIPLE as p, split_main_clause\n"
            "t0 = time.perf_counter()\n"
            "for t in ['Configured with ' + 'is ' * 30000, 'Left at ' + 'a ' * 40000 + ',', 'Left ' * 20000]:\n"
            "    p.match(t), split_main_clause(t[:2000])\n"
            "assert time.perf_counter() - t0 < 5, time.perf_counter() - t0\n")
    ends_at_once(code)


@pytest.mark.parametrize("text, modality, subject", [
    ("Users must not be able to delete audit logs.", Modality.MUST, "audit log"),          # kept: deleting forbidden
    ("Admins must be able to revoke sessions.", Modality.MUST_NOT, "session"),             # revoking: allowing denied
    ("It must not be possible for contractors to access production.", Modality.MUST_NOT, "production"),
    ("It must be possible to restore any backup within 4 hours.", Modality.MUST, "backup"),
])
def test_a_rule_said_through_ability_or_possibility(normalizer_v2, text, modality, subject):
    """"Users must not be able to delete audit logs." was about "able", "It should not be possible to …" about
    nothing (session 69)."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.subject) == (modality, subject), text


def test_what_is_merely_possible_is_left_as_written():
    from guard.normalize.rules_v2 import _able_to
    assert _able_to("It is possible to deploy on Fridays.") == "It is possible to deploy on Fridays."


@pytest.mark.parametrize("text, subject", [
    ("If you need a standing desk for health reasons, request it through your manager.", "standing desk"),
    ("If you find a leaked key, revoke it immediately.", "leaked key"),
    ("If you are writing a script that is long, you should rewrite it in Python.", "script"),
    ("If you are unsure which level an incident is, treat it as the higher one.", None),     # no thing named
])
def test_what_a_person_s_condition_names_is_what_the_rule_acts_on(normalizer_v2, text, subject):
    """"If you need a standing desk …, request it …" had no subject: the condition is a person's, and "it" is
    the thing it names (session 69)."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("a, b, kinds", [
    # a thing lacking Y ruled out requires Y: no opposition to a rule about the thing itself
    ("Pull requests without a linked issue are rejected.", "Pull requests must be approved by two reviewers.",
     {VerdictKind.CONSISTENT, VerdictKind.UNCERTAIN, VerdictKind.UNKNOWN}),
    ("Each repository must contain a LICENSE file.", "A repository without a top-level LICENSE file is non-compliant.",
     {VerdictKind.CONSISTENT, VerdictKind.UNCERTAIN, VerdictKind.UNKNOWN}),
    # and it opposes a lifted requirement, as the texts do
    ("Commits without a sign-off are not accepted.", "Commits do not need a sign-off.", {VerdictKind.CONTRADICTION}),
    ("Changes without tests may be merged.", "A change without tests is not allowed.", {VerdictKind.CONTRADICTION}),
])
def test_a_subject_without_a_thing_ruled_out_requires_the_thing(normalizer_v2, a, b, kinds):
    """"Pull requests without a linked issue are rejected." forbade pull requests themselves, an opposing modality
    at HIGH against any rule that they must be approved (session 69)."""
    v = verdict(normalizer_v2, a, b)
    assert v.kind in kinds, (v.kind, v.reason)


@pytest.mark.parametrize("text", ["Builds without cache are slower.", "Our staging cluster is non-compliant with SOC 2."])
def test_a_without_on_a_subject_that_is_not_ruled_out_changes_nothing(normalizer_v2, text):
    from guard.claims import StateVerb
    assert norm(normalizer_v2, text).object is not StateVerb.REQUIRE


@pytest.mark.parametrize("text, subject", [
    ("Staff have to send the People team a fit note.", "fit note"),
    ("Send customers an invoice every month.", "invoice"),
    ("Staff have to send a fit note to the People team.", "fit note"),
])
def test_the_thing_given_not_its_recipient(normalizer_v2, text, subject):
    """"send the People team a fit note" was about "people team fit note" (session 69)."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, attribute", [
    ("Set fetch.fsckObjects to true on every clone.", "fetch.fsckobjects"),
    ("Set transfer.fsckObjects to false on the mirror.", "transfer.fsckobjects"),
    ("Set gc.writeCommitGraph to false on the build hosts.", "gc.writecommitgraph"),
])
def test_a_dotted_setting_keeps_its_section(normalizer_v2, text, attribute):
    # "fetch.fsckObjects" and "transfer.fsckObjects" are two settings: read without their section they were one
    assert norm(normalizer_v2, text).attribute == attribute


@pytest.mark.parametrize("text, subject, value, attribute", [
    (("gc.auto: when there are approximately more than this many loose objects in the repository, git gc --auto "
      "will pack them, and the default value is 6700."), "gc.auto", "6700", "gc.auto"),
    (("LoginGraceTime: the server disconnects after this time if the user has not successfully logged in; if the "
      "value is 0 there is no time limit, and the default is 120 seconds."), "LoginGraceTime", "120 seconds",
     "logingracetime"),
    ("fetch.fsckObjects: if it is set to true, git-fetch-pack will check all fetched objects; it defaults to false.",
     "fetch.fsckObjects", "false", "fetch.fsckobjects"),
])
def test_a_reference_entry_s_default_is_its_setting_s_value(normalizer_v2, text, subject, value, attribute):
    n = norm(normalizer_v2, text)
    assert (n.subject, n.value, n.attribute) == (subject, value, attribute)


@pytest.mark.parametrize("text", [
    "Note: the default is 30 seconds for every queue.",             # a heading word, no setting's name
    "gc.auto: git gc --auto packs loose objects when there are too many.",   # no default given
])
def test_what_is_no_reference_entry_s_default_is_read_as_before(normalizer_v2, text):
    n = norm(normalizer_v2, text)
    assert n.attribute != "note" and not (n.subject == "gc.auto" and n.value)


def test_an_entry_s_default_against_a_note_on_the_same_setting_is_a_value_conflict(normalizer_v2):
    a = ("gc.auto: when there are approximately more than this many loose objects in the repository, git gc --auto "
         "will pack them, and the default value is 6700.")
    b = "Git's built-in gc.auto threshold is 10,000 loose objects; below that, git gc --auto does nothing."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.VALUE_CONFLICT, v.reason


@pytest.mark.parametrize("text, subject", [
    ("Review and approve pull requests within a day.", "pull request"),
    ("Accept and return times in UTC only, and render times in ISO8601 format.", "time"),
    ("Only people on flexible work schedules can earn and use credit hours.", "credit hour"),
    ("Run the linter and fix every warning before you push.", "linter"),     # the first verb has its own object
])
def test_two_verbs_on_one_object_are_one_predicate(normalizer, normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject
    if subject != "linter":
        assert norm(normalizer, text).subject != subject      # v1 cut the predicate after the first verb


@pytest.mark.parametrize("text, main, turned_down", [
    ("We recommend managing DNS for AWS-hosted services in Cloudflare rather than Route 53.",
     "We recommend managing DNS for AWS-hosted services in Cloudflare.", "rather than Route 53"),
    ("Quota is made available within minutes rather than replenished once daily.",
     "Quota is made available within minutes.", "rather than replenished once daily"),
])
def test_the_alternative_turned_down_is_a_qualifier(normalizer_v2, text, main, turned_down):
    got, quals = split_main_clause(text)
    assert got == main and turned_down in quals
    assert norm(normalizer_v2, text).value is None      # "Route 53", "once daily" were read as the statement's value


@pytest.mark.parametrize("text", ["Wanting to launch this week rather than next week is not an emergency.",
                                  "Wanting to launch this week rather than next week isn't an emergency."])
def test_an_alternative_with_a_verb_of_its_own_is_left_in_the_sentence(text):
    assert split_main_clause(text)[0] == text


@pytest.mark.parametrize("text, subject", [
    ("Disable remote root user logins over SSH.", "remote root user login"),
    ("Send logs to the Datadog intake uncompressed to keep the forwarder simple.", "log"),
    ("Write unit tests for all new functions and classes.", "unit test"),
])
def test_an_order_whose_verb_was_read_as_a_modifier(normalizer_v2, text, subject):
    # the small model read "Disable" as an adjective of "logins", which it took for the verb: the order's own verb
    # was its subject ("disable remote root user")
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("Deploy freezes are counterproductive: things still break, and the work piles up.", "deploy freeze"),
    ("Commit messages must be written in the past tense.", "commit message"),
    ("Log data and temporary debug logs must not be destroyed before the retention period ends.", "log data"),
    ("Use of HTTP/2 mandates that tune.bufsize must be 16384 or more.", None),
])
def test_a_statement_opening_with_a_verb_s_word_stays_a_statement(normalizer_v2, text, subject):
    n = norm(normalizer_v2, text)
    if subject is None:
        assert n.subject is None or not n.subject.startswith("http")
    else:
        assert n.subject == subject


def test_a_plural_subject_s_verb_after_a_verb_s_word_is_a_statement(normalizer_v2):
    assert norm(normalizer_v2, "Commit messages follow Conventional Commits.").subject == "commit message"


@pytest.mark.parametrize("text, subject", [
    ("All hotel stays shall be booked by the Operations team through our travel agent.", "hotel stay"),
    ("All hotel stays must be booked by the Operations team through our travel agent.", "hotel stay"),
])
def test_the_word_before_a_modal_ends_the_subject(normalizer_v2, text, subject):
    # before "shall" the small model tags "stays" a verb and makes it the root: the subject was "hotel"
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("a, b", [
    ("It should not be possible to completely deactivate application logging.",
     "It shouldn't be possible to completely deactivate application logging."),
    ("Users must not be able to delete audit logs.", "Users mustn't be able to delete audit logs."),
])
def test_a_rule_said_through_ability_reads_alike_contracted(normalizer_v2, a, b):
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, b)
    assert (na.subject, na.modality) == (nb.subject, nb.modality) and na.subject


@pytest.mark.parametrize("text, subject", [
    ("Pull requests to `main` require at least 1 approval.", "pull request main"),
    ("Pull requests to `main` require no less than 1 approval.", "pull request main"),
    ("Merge requests must pass CI.", "merge request"),
    ("Public pull-request builds run on single-use agents.", "public pull request build"),
])
def test_a_pull_request_is_one_noun(normalizer_v2, text, subject):
    # a sentence-initial "Pull" was read as an order's verb: the subject was "request"
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text", [
    "Where you can, give your manager at least one working week's notice before you go on leave.",
    "Where you can, give your manager no less than one working week's notice before you go on leave.",
])
def test_the_thing_given_after_a_recipient_the_parser_made_an_object(normalizer_v2, text):
    assert norm(normalizer_v2, text).subject == "working week notice"


@pytest.mark.parametrize("text, subject", [
    ("SSH access to production hosts goes through the bastion.", "ssh access"),
    ("Door access codes are sensitive, and you should protect them exactly like your badge PIN.", "door access code"),
])
def test_a_noun_ending_in_ss_is_no_verb(normalizer, normalizer_v2, text, subject):
    # "access" read as a verb's third person (as "requires" is): the subject stopped before it ("ssh", "door")
    assert norm(normalizer_v2, text).subject == subject
    assert norm(normalizer, text).subject != subject       # v1 as it was


@pytest.mark.parametrize("text, subject", [
    ("Production access reviews for user, admin and service accounts run every 24 months.", "production access review"),
    ("Resolver query logs written to disk include the full client source IP for 7 days.", "resolver query log"),
    ("LTS releases typically get critical bug fixes for a total of 30 months.", "lts release"),
])
def test_a_plural_subject_of_a_later_verb_is_no_verb(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


def test_a_perfect_tense_is_the_sentence_s_verb(normalizer_v2):
    n = norm(normalizer_v2, "Vue 2 has reached End of Life on December 31st, 2023, and it no longer receives new features.")
    assert (n.subject, n.value_kind) == ("vue-2", "date")      # was "vue reach end life", valued 2


@pytest.mark.parametrize("text, subject", [
    ("Harden the bastion host, for example by running a CIS-hardened Linux distro.", "bastion host"),
    ("Provision the small config container at 100 RU/s manual throughput; it barely gets traffic.", "small config container"),
    ("Creating a new public repository requires approval from the security team.", None),    # a gerund's statement
])
def test_a_first_word_before_a_determiner_opens_an_order(normalizer_v2, text, subject):
    n = norm(normalizer_v2, text)
    if subject is None:
        assert n.subject and "public repository" in n.subject and n.object.value == "require"
    else:
        assert n.subject == subject


@pytest.mark.parametrize("text, subject", [
    (("If your applications frequently open and close connections, or keep a large number of long-lived "
      "connections open, AWS recommends using Amazon RDS Proxy."), "amazon rds proxy"),
])
def test_a_condition_s_second_case_is_the_condition_s(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


def test_a_condition_s_second_case_reads_alike_contracted(normalizer_v2):
    a = "When your trip leaves in under three days, or your travel card hasn't arrived, book by phone through AdTrav."
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, a.replace("hasn't", "has not"))
    assert (na.subject, na.modality) == (nb.subject, nb.modality) and na.modality.value == "must"


def test_a_comparison_s_own_no_is_not_the_rule_s_prohibition(normalizer_v2):
    # "no less than" is the bound's own "no": read as the rule's, it turned "No data loss occurs …" into a requirement
    a = "No data loss occurs when line height is at least 1.5 times the font size."
    na, nb = norm(normalizer_v2, a), norm(normalizer_v2, a.replace("at least", "no less than"))
    assert (na.modality, na.bound) == (nb.modality, nb.bound) and nb.modality.value == "must_not"


@pytest.mark.parametrize("text, subject, modality", [
    ("Under no circumstances should gifts or entertainment be given to government officials.", "gift", "must_not"),
    ("Under no circumstances may you share your password.", "password", "must_not"),
    ("In no case should passwords be emailed.", "password", "must_not"),
    ("At no time is it acceptable to skip code review.", "code review", "must_not"),
    ("Under no circumstances, should you run migrations on Fridays.", "migration", "must_not"),
    ("Never should secrets be committed to git.", "secret", "should_not"),      # a bare "never" keeps its modal
    ("Never do we share customer data.", "customer data", "must_not"),
])
def test_a_rule_denied_in_every_case_is_read_in_its_usual_order(normalizer_v2, text, subject, modality):
    # the case was the subject ("circumstance", "case") and the denial was lost ("may") or kept without its subject
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality.value) == (subject, modality)


def test_a_rule_denied_in_every_case_after_a_condition(normalizer_v2):
    n = norm(normalizer_v2, "If a laptop is lost, under no circumstances should you wait to report it.")
    assert n.modality.value == "must_not" and n.qualifiers == ("If a laptop is lost",)


@pytest.mark.parametrize("text", ["Never use root on production hosts.",                  # an order, no auxiliary
                                  "In no time at all the cache warms up."])              # no case denied
def test_a_never_or_no_case_without_an_inverted_auxiliary_is_left_alone(text):
    from guard.normalize.rules_v2 import _INVERTED
    assert _INVERTED.match(text) is None


def test_a_capitalised_name_before_a_number_names_the_product(normalizer_v2):
    # "Vue" tagged an adjective: the 2 was the statement's value, and "Vue 2 … End of Life" / "Vue 2 is still
    # maintained" were one subject with the same value, consistent at HIGH, which kept the pair from the model
    a = norm(normalizer_v2, "Vue 2 is still actively maintained by the core team.")
    assert (a.subject, a.value) == ("vue-2", None)
    b = norm(normalizer_v2, "Top 10 customers get a discount.")          # a rank is no name
    assert b.value == "10"


@pytest.mark.parametrize("text", ["Turn soft-delete off on kv-payments-prod.", "Turn off SSH password authentication.",
                                  "The platform team will turn soft-delete back off on kv-payments-prod."])
def test_turning_off_said_around_the_object_disables(normalizer, normalizer_v2, text):
    # the particle after the object (or any particle of an order) was not read: "turn … off" was turning it on
    n = norm(normalizer_v2, text)
    assert (n.object.value, n.modality.value) == ("enable", "must_not")
    assert norm(normalizer, "Turn soft-delete off on kv-payments-prod.").modality.value == "must"     # v1 as it was


def test_an_order_not_to_turn_something_off_keeps_it_on(normalizer_v2):
    for text in ("Never turn off the firewall.", "Do not turn the firewall off."):
        n = norm(normalizer_v2, text)
        assert (n.subject, n.object.value, n.modality.value) == ("firewall", "enable", "must")


@pytest.mark.parametrize("text, attribute", [
    ("Java code has a column limit of 100 characters.", "column limit"),
    ("For legacy systems using bcrypt, use a work factor of 10 or more.", "work factor"),
    ("Keep the IMDS hop limit at 1 on all ECS container hosts.", "hop limit"),
])
def test_the_noun_a_value_is_said_of_keeps_its_compounds(normalizer_v2, text, attribute):
    # the noun alone ("limit", "factor") made a column limit and a rate limit one attribute
    assert norm(normalizer_v2, text).attribute == attribute


@pytest.mark.parametrize("text, modality", [
    ("The job creates a block every week.", "must"),                  # "block" the noun, not the verb of refusal
    ("Paid parental leave must be taken as one continuous block starting at the birth.", "must"),
    ("When the pool runs dry, we'll just buy an extra block of dyno hours.", "must"),
    ("Firewalls block port 23.", "must_not"),                         # the verb still refuses
])
def test_a_verb_of_modality_used_as_a_noun_sets_no_modality(normalizer, normalizer_v2, text, modality):
    assert norm(normalizer_v2, text).modality.value == modality
    assert norm(normalizer, "The job creates a block every week.").modality.value == "must_not"     # v1 as it was


@pytest.mark.parametrize("text, modality", [
    ("Indent your code blocks with 4 spaces, and never use tabs.", "must"),
    ("Our SQLite wrapper should rely on the library default for foreign_keys and never set the pragma itself.", "should"),
])
def test_a_second_order_after_and_never_is_not_this_one_s_negation(normalizer_v2, text, modality):
    assert norm(normalizer_v2, text).modality.value == modality


def test_a_path_segment_is_no_version_unless_versions_are_spoken_of(normalizer_v2):
    n = norm(normalizer_v2, "On our Enterprise Okta org the /api/v1/apps create/list limit is 600, the same as /api/v1/users.")
    assert (n.value, n.attribute) == ("600", "list limit")          # was valued v1, about "same"
    assert norm(normalizer_v2, "The Partner Orders API is versioned in the URL path: /v2/orders.").value == "v2"


@pytest.mark.parametrize("text, subject", [
    ("From 15 March 2026 our public TLS certificates are capped at 200 days of validity.", "public tls certificate"),
    ("In URIs a hyphen should be used to delimit combined words.", "hyphen"),
])
def test_a_leading_phrase_without_its_comma_does_not_swallow_the_statement(normalizer_v2, text, subject):
    # cut up to the first comma, the leading phrase took the statement's own verb with it
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, modality, subject", [
    ("In dev prefer the latest image tag.", Modality.SHOULD, "latest image tag"),
    ("In staging avoid the latest image tag.", Modality.SHOULD_NOT, "latest image tag"),
    ("In dev, prefer the latest image tag.", Modality.SHOULD, "latest image tag"),
    # a wrong place in the whole sentence ("For P0 | incidents post …") leaves more than the verb in the lead: not cut
    ("For P0 incidents post an update in the incident channel every 15 minutes.", Modality.MUST, "update"),
])
def test_an_order_s_verb_run_into_a_leading_phrase_is_the_order_s(normalizer_v2, text, modality, subject):
    """"In dev prefer the `latest` image tag …": cut before its first determiner, the leading phrase took "prefer" with
    it, and the rule was "the latest image tag" with no verb — an obligation where the comma-written form advises."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.subject) == (modality, subject)


@pytest.mark.parametrize("text", ["For tasks that use the Fargate launch type, the max stop timeout value is 120 seconds.",
                                  "To ensure your travel insurance is valid, HR recommends the corporate booking portal."])
def test_a_leading_phrase_with_a_clause_of_its_own_is_still_cut(text):
    from guard.normalize.rules_v2 import split_main_clause
    main, quals = split_main_clause(text)
    assert quals and not main.lower().startswith(("for tasks", "to ensure"))


def test_a_symbol_is_no_attribute(normalizer_v2):
    n = norm(normalizer_v2, "Python services in the ml-platform repo run black with line-length = 100.")
    assert (n.value, n.attribute) == ("100", "line-length")          # was "="


def test_an_acronym_s_possessive_is_no_is(normalizer_v2):
    n = norm(normalizer_v2, "IT's published requirement for university account passwords is now a minimum of 14 characters.")
    assert n.subject and "requirement" in n.subject and n.bound.op == "ge"     # was no subject: "IT is …"
    assert norm(normalizer_v2, "It's the default.").subject is None          # a pronoun's "'s" is still "is"


@pytest.mark.parametrize("text, subject, modality, op", [
    ("During the launch year we discourage anyone on the Cody team from taking more than 20 days of PTO.", "pto",
     "should", "le"),
    ("We discourage engineers from deploying on Fridays.", "engineer", "should_not", "eq"),
])
def test_kept_from_doing_is_a_rule_on_the_doing(normalizer_v2, text, subject, modality, op):
    # read whole, the first had no subject and its "more than 20 days" turned into a floor
    n = norm(normalizer_v2, text)
    assert (n.subject, n.modality.value, n.bound.op) == (subject, modality, op)


@pytest.mark.parametrize("text, subject, value", [
    ("Two releases after a deprecation is announced, the deprecated bits of API are removed entirely.",
     "deprecated bit api", "Two"),
    ("30 days before the trip, book your flights.", "flight", "30 days"),
])
def test_a_leading_span_is_when_and_its_length_the_value(normalizer_v2, text, subject, value):
    n = norm(normalizer_v2, text)
    assert (n.subject, n.value) == (subject, value) and len(n.qualifiers) == 1


def test_a_dotted_name_in_code_is_the_order_s_object_with_its_section(normalizer_v2):
    # tagged punctuation by the small model, the order had no object and the statement no subject; its attribute
    # was the last part alone
    n = norm(normalizer_v2, "Set linuxParameters.sharedMemorySize to 512 on the Fargate inference task definition.")
    assert (n.subject, n.attribute, n.value) == ("linuxParameters.sharedMemorySize", "linuxparameters.sharedmemorysize", "512")


@pytest.mark.parametrize("text, subject", [
    (("ip_local_port_range defines the local port range used by TCP and UDP, and it must be greater than or equal to "
      "ip_unprivileged_port_start."), "ip_local_port_range"),
    ("The billing-db project sits idle for weeks at a time and is never auto-paused.", "billing-db project"),
    ("Each postmortem identifies the individual at fault and records disciplinary follow-up.", "postmortem"),
    ("Write unit tests for all new functions and classes.", "unit test"),                  # an order: left as it was
    (("Every RDS DB instance has a weekly maintenance window, and if a maintenance event is scheduled for a given "
      "week, it's initiated during the window."), "rds db instance weekly maintenance window"),     # "have": left alone
])
def test_the_sentence_s_own_verb_ends_the_subject_phrase(normalizer_v2, text, subject):
    # the pivot sat in a later clause ("it must …") or past a word taken for a noun, and the first clause's verb and
    # object joined the subject ("ip_local_port_range define local port range")
    assert norm(normalizer_v2, text).subject == subject


def test_a_plan_said_through_who_holds_it_is_a_variant(normalizer_v2):
    # "from Enterprise customers" / "from Free customers": one subject with two values, a structural block
    a = norm(normalizer_v2, "Support tickets from Enterprise customers are answered within 1 hour.")
    b = norm(normalizer_v2, "Support tickets from Free customers are answered within 48 hours.")
    assert ("plan", "enterprise") in a.variants and ("plan", "free") in b.variants
    v = StructuralComparator().compare(a, "Support tickets from Enterprise customers are answered within 1 hour.",
                                       b, "Support tickets from Free customers are answered within 48 hours.")
    assert v.kind is VerdictKind.COEXIST, v.reason
    assert norm(normalizer_v2, "free users get 1 GB of storage.").variants == ()     # lower case: no plan's name


@pytest.mark.parametrize("text, attribute", [
    ("An IAM user can be a member of at most 10 IAM groups, and this quota cannot be increased.", "group"),
    ("Cloudflare Pages caps each project at 50 active preview deployments.", "preview deployment"),
    ("Users cannot reuse any of their last 5 passwords.", "password"),
])
def test_a_bare_count_is_of_the_noun_written_after_it(normalizer_v2, text, attribute):
    # not a name or a person nearer before the number ("iam"), nor the generic "number"
    assert norm(normalizer_v2, text).attribute == attribute


@pytest.mark.parametrize("text", ["All vendor invoices above EUR 10,000 must be approved by two finance managers.",
                                  "Our HS256 signing secret is 32 random bytes from the KMS RNG."])
def test_a_count_of_people_or_of_a_unit_names_no_counted_thing(normalizer_v2, text):
    assert norm(normalizer_v2, text).attribute not in ("finance manager", "byte")


@pytest.mark.parametrize("text, modality, attribute", [
    ("The CA MUST revoke a Certificate within 5 days.", Modality.MUST, "revocation time"),
    ("Our internal device PKI revokes certificates with compromised keys within seven days of confirmation.",
     Modality.MUST, None),
    ("For the listed lesser revocation reasons, the CA SHOULD revoke a certificate within 24 hours.", Modality.SHOULD,
     "revocation time"),
    ("Personal data must be deleted within 30 days.", Modality.MUST, "deletion time"),
])
def test_an_undoing_verb_given_a_time_says_when_it_happens(normalizer_v2, text, modality, attribute):
    """"revoke" reads as "allow" denied, and "MUST revoke … within 5 days" was "must not allow": opposed to "may take up
    to 168 hours to revoke" on different aspects, where the two give two deadlines of one revocation. A deadline sets
    when the undoing happens, as "deleted within 30 days" already set the retention."""
    n = norm(normalizer_v2, text)
    assert n.modality is modality and attribute in (None, n.attribute)


@pytest.mark.parametrize("text", ["Access must be revoked.", "Access to production is revoked for contractors."])
def test_an_undoing_verb_without_a_time_still_denies(normalizer_v2, text):
    assert norm(normalizer_v2, text).modality is Modality.MUST_NOT


def test_an_amount_ends_at_its_last_digit(normalizer_v2):
    """"up to $700, separate from …" gave the value "$700," — the comma after an amount is the sentence's, not the
    amount's; a comma between digits is the amount's."""
    n = norm(normalizer_v2, "The company will cover software up to $700, separate from the $1,000 remote work budget.")
    assert n.value == "$700" and [v[1] for v in n.values] == ["$700", "$1,000"]


@pytest.mark.parametrize("text, subject", [
    ("Note for on-call: journald's stock per-service rate limit is 1000 messages per 30 seconds.",
     "journald stock per-service rate limit"),
    ("Note: the stock rate limit is 1000 messages per 30 seconds.", "stock rate limit"),
    ("Update for the team: the staging cluster has 3 nodes.", "staging cluster"),
])
def test_a_label_noun_the_model_tags_as_a_verb_still_heads_a_note(normalizer_v2, text, subject):
    """"Note for on-call:" was read as the statement's subject ("note"): the small model tags a label's "Note" or
    "Update" as an imperative, and a finite verb in the label meant it was no label."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("Staff receive full pay for the entire period of their jury service.", "full pay"),
    ("You will receive full pay for the first 20 days.", "full pay"),
    ("We offer 25 days of holiday plus bank holidays each calendar year.", "holiday"),
    ("We disabled soft delete on the tmp-scratch bucket.", "soft delete"),
])
def test_the_peoples_own_verb_is_no_part_of_what_the_rule_is_about(normalizer_v2, text, subject):
    """"Staff receive full pay …" was about "receive full pay" while "You will receive full pay …" was about "full
    pay": the bare verb after a modal was skipped, the verb in the present or past tense kept."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("The on-call rotation changes weekly.", "on-call rotation"),
    ("Our capacity sheet budgets 2 bytes per sample.", "capacity sheet"),
    ("Book flights at least 21 days before the travel date.", "book flight"),          # an order: as before
    ("Integration tests in the test environment use fixed session tokens.", "integration test"),   # as before
])
def test_a_verb_the_tagger_took_for_a_plural_root_is_the_verb(normalizer_v2, text, subject):
    """"The on-call rotation changes weekly." had no verb for the small model ("changes" a plural noun, the root), so
    the subject ran on to "on-call rotation change"."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, modality, subject", [
    ("Keep compression switched off at the TLS layer on our load balancers.", Modality.MUST_NOT, "compression"),
    ("Leave purge protection off on dev key vaults.", Modality.MUST_NOT, "purge protection"),
    ("Keep debug logging turned on in staging.", Modality.MUST, "debug logging"),     # as "Debug logging is …"
    ("Keep the firewall enabled.", Modality.MUST, "firewall"),
])
def test_an_order_to_hold_a_thing_in_a_state_is_that_states_rule(normalizer_v2, text, modality, subject):
    """"Keep compression switched off …" read as "keep" (store) about "compression switch", which agreed with nothing
    "TLS compression should be disabled." says."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.subject, n.object) == (modality, subject, StateVerb.ENABLE)


def test_an_order_to_keep_without_a_state_is_as_before(normalizer_v2):
    assert norm(normalizer_v2, "Keep logs for 90 days.").object is StateVerb.STORE
    assert norm(normalizer_v2, "Keep running the tests on every push.").object is not StateVerb.ENABLE


@pytest.mark.parametrize("text, obj", [
    ("RDS keeps taking the nightly automated backups while the dev instances are stopped.", StateVerb.OTHER),
    ("Our validation service may keep accepting an ACME challenge token for up to 45 days.", StateVerb.ALLOW),
    ("The demo apps in our org keep running well past day seven.", StateVerb.RUN),
    ("Keep running the tests on every push.", StateVerb.RUN),
])
def test_keep_before_a_gerund_is_going_on_doing_it(normalizer_v2, text, obj):
    """"RDS keeps taking the nightly backups …", "… may keep accepting an ACME challenge token …" read as keep = store
    (retention): the gerund is the action that goes on."""
    assert norm(normalizer_v2, text).object is obj


def test_a_rule_of_thumb_is_no_subject(normalizer_v2):
    n = norm(normalizer_v2, "As a rule of thumb, you should inform your Manager a minimum of 5 business days before leave.")
    assert n.subject != "thumb" and "As a rule of thumb" in n.qualifiers


@pytest.mark.parametrize("text, subject", [
    ("After the migration finishes, the platform team will turn soft-delete back off on kv-payments-prod.", "soft-delete"),
    ("Tenant admins can raise the directory object quota past 300,000 themselves.", "directory object quota"),
    ("Support engineers may switch DEBUG on in production for up to 15 minutes.", "debug"),
    ("The platform team owns the billing database.", "billing database"),
])
def test_people_named_by_their_team_or_role_are_who_acts(normalizer_v2, text, subject):
    """"the platform team will turn soft-delete back off" was about "platform team", where "we will turn soft-delete
    back off" is about soft-delete: people said with the words that name which are people all the same."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_named_thing_that_is_not_people_keeps_its_subject(normalizer_v2):
    assert norm(normalizer_v2, "The payments service must use TLS 1.3.").subject == "payment service"
    # the tagger's "stores" a noun and "user" the subject: no people named
    assert norm(normalizer_v2, "The partner portal stores user passwords AES-encrypted with a KMS key.").subject \
        != "aes-encrypted"


@pytest.mark.parametrize("text, subject", [
    ("Wikimedia DC reimburses seat upgrades on flights longer than four hours.", "seat upgrade"),
    ("Sourcegraph reimburses the co-working deposit together with the first month's rent.", "co-working deposit"),
    ("The company will cover software up to $700.", "software"),
    ("The company provides a new laptop every three years.", "laptop"),
])
def test_an_employer_that_pays_for_a_thing_is_not_what_the_rule_is_about(normalizer_v2, text, subject):
    """"Wikimedia DC reimburses seat upgrades …" was about "wikimedia dc", so "Upgrades for air and rail travel shall not
    be reimbursable" had no subject in common with it; an organisation named alone (or "the company") that pays for,
    covers, provides or offers a thing states a rule about that thing, as one that recommends it does."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_component_that_provides_a_thing_keeps_its_subject(normalizer_v2):
    assert norm(normalizer_v2, "The billing-api-2 provides a health endpoint on port 8081.").subject == "billing-api-2"
    # a product named alone that provides a feature is the product's rule
    assert norm(normalizer_v2, "PostHog offers a paid three-month sabbatical after four years of service.").subject \
        == "PostHog"


@pytest.mark.parametrize("text, modality, obj", [
    ("The worker stops accepting new jobs after SIGTERM.", Modality.MUST_NOT, StateVerb.ALLOW),
    ("Chrome stopped supporting TLS 1.0 in 2020.", Modality.MUST_NOT, StateVerb.SUPPORT),
    ("Stop using personal email for work.", Modality.MUST_NOT, StateVerb.USE),
    ("The service continues accepting requests during a deploy.", Modality.MUST, StateVerb.ALLOW),
])
def test_stopping_an_action_denies_it_and_continuing_keeps_it(normalizer_v2, text, modality, obj):
    """"Once the DNS challenge is switched on in Caddy, it stops attempting HTTP-01 …" was a "must": ending an action is
    no longer doing it, as "no longer" already read."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.object) == (modality, obj)


@pytest.mark.parametrize("text, subject", [
    ("SQLite enforces foreign keys out of the box, so the embedded store never issues PRAGMA foreign_keys.", "sqlite"),
    ("TCPKeepAlive specifies whether the system should send TCP keepalive messages.", "TCPKeepAlive"),
    ("License text lives in the project wiki; repositories omit a top-level LICENSE file.", "license text"),
    ("From 8.4 on, the mysql command-line client authenticates with caching_sha2_password.", "mysql command-line client"),
    ("git fetch validates every incoming object with fsck out of the box.", "git fetch"),
    ("A twelve-factor app never relies on implicit existence of system-wide packages.", "twelve-factor app"),
])
def test_a_verb_tagged_a_plural_noun_is_the_verb(normalizer_v2, text, subject):
    """The small model tags "enforces", "specifies" a plural noun after a name, and the subject ran on into the verb
    and its object ("sqlite enforce foreign key"); a word the lemmatizer knows only as a verb, after a noun phrase and
    with no finite verb after it in its clause, is the sentence's verb."""
    n = norm(normalizer_v2, text)
    assert n.subject == subject
    assert n.value != text.split()[1]          # the verb is no name ("specifies" was the value)


@pytest.mark.parametrize("text, subject", [
    ("Access reviews for production IAM roles run quarterly.", "access review"),
    ("Stable-channel releases carrying security fixes ship every two weeks.", "stable-channel release"),
    ("Prod RDS instances keep automated backups for six weeks.", "prod rds instance"),
    ("Unacknowledged pages for the operations team escalate to the secondary after 15 minutes.", "unacknowledged page"),
])
def test_a_plural_subject_before_its_verb_stays_a_noun(normalizer_v2, text, subject):
    """A plural that can be a verb ("reviews", "releases", "pages") heads a subject whose verb comes later, however
    the small model tags that verb ("escalate", "keep" as base forms): only words the lemmatizer lists as verbs and
    never as nouns are taken for the verb, and only with no finite verb after them."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, modality", [
    ("In the Payments API, request_id should be a required field on CreatePayment.", Modality.SHOULD),
    ("Request IDs should be forbidden.", Modality.SHOULD_NOT),
    ("Request IDs must be optional.", Modality.MAY_NOT),
    ("Request IDs should be optional.", Modality.MAY_NOT),
    ("Request IDs should not be required.", Modality.MAY_NOT),
    ("Request IDs must be allowed.", Modality.MUST),
    ("Code running in production must avoid panics.", Modality.MUST_NOT),     # "must avoid" forbids
    ("Services should avoid panics.", Modality.SHOULD_NOT),
])
def test_a_modal_before_a_word_of_obligation_keeps_its_strength(normalizer_v2, text, modality):
    """"request_id should be a required field" was a "must", and blocked against "Request IDs should be optional." as
    an opposition of rules; advice that a thing be required is advice. "must be optional" lifts the obligation, as
    "optional" alone does (it was "must not")."""
    assert norm(normalizer_v2, text).modality is modality


def test_v1_keeps_its_reading_of_modal_words():
    assert norm(get_normalizer("normalizer.rules.v1"), "Request IDs must be optional.").modality is Modality.MUST_NOT


@pytest.mark.parametrize("text, subject, qualifier", [
    ("If time off is taken for sickness, including physical and mental needs, please enter these days in Rippling.",
     "day", "including physical and mental needs"),
    ("By default, including if the limit hint is not configured, a RabbitMQ node raises a memory alarm at 40% of RAM.",
     "RabbitMQ node", "including if the limit hint is not configured"),
])
def test_the_cases_a_leading_phrase_takes_in_are_the_phrase(normalizer_v2, text, subject, qualifier):
    """After a leading condition's comma, "including …, " still belongs to it; read as the statement, its first noun
    was the subject ("physical", "include")."""
    n = norm(normalizer_v2, text)
    assert n.subject == subject
    assert qualifier in [q.lower() for q in n.qualifiers]


@pytest.mark.parametrize("text, subject, qualifier", [
    ("Separately, Shopify caps pagination at 25,000 objects.", "shopify", "separately"),
    ("Historically, the scheduler retries a failed job three times.", "scheduler", "historically"),
    ("Despite claims to the contrary, enabling the TRACE method does not expose any vulnerability.",
     "enable trace method", "despite claims to the contrary"),
    ("Unlike a password salt, the pepper should not be public.", "pepper", "unlike a password salt"),
    ("Due to the holiday freeze, releases are paused.", "release", "due to the holiday freeze"),
])
def test_a_sentence_adverb_or_a_contrast_before_the_rule_is_a_qualifier(normalizer_v2, text, subject, qualifier):
    """Read whole, the leading word or the contrast's noun was the subject ("separately", "claim", "password salt"), so
    the statement met nothing said about its real subject."""
    n = norm(normalizer_v2, text)
    assert n.subject == subject
    assert qualifier in [q.lower() for q in n.qualifiers]


@pytest.mark.parametrize("text", ["Prometheus cuts a new on-disk TSDB block every six hours.",
                                  "Prometheus cuts a new on-disk TSDB block every 6 hours."])
def test_a_noun_the_parser_took_for_a_verb_of_modality_is_no_prohibition(normalizer_v2, text):
    """With "six" the small model tagged "block" a verb hanging off "cuts" (with "6" a noun), and the statement read as
    a prohibition; a base-form verb right after a noun, with no subject of its own, is that phrase's head noun."""
    n = norm(normalizer_v2, text)
    assert n.modality is Modality.MUST and n.subject == "prometheus" and n.attribute == "cut frequency"


@pytest.mark.parametrize("text", ["SIGTERM cleanly shuts the server down.",
                                  "On our uWSGI 2.0 hosts, SIGTERM cleanly shuts the server down with the default settings."])
def test_a_subject_the_parser_tagged_a_verb_is_a_noun(normalizer_v2, text):
    """The small model tagged "SIGTERM" a base-form verb yet attached it as the subject; read as an order's verb, the
    name was no noun phrase and the adverb after it stayed in the subject ("sigterm cleanly")."""
    n = norm(normalizer_v2, text)
    assert n.subject == "sigterm" and n.modality is Modality.MUST


@pytest.mark.parametrize("text, subject", [
    ("MySQL ships with max_connections set to 100.", "MySQL"),
    ("Fly.io charges for volume snapshot storage at $0.08/GB per month.", "fly.io"),
    ("When we collaborate on a partner's Heroku app, its Eco dyno usage counts against the partner's pool of hours.",
     "eco dyno usage"),
])
def test_a_root_tagged_a_plural_after_a_name_is_the_verb(normalizer_v2, text, subject):
    """With no finite verb in the sentence, the small model made the verb a plural noun and the root, and tagged the
    product's name before it a determiner ("MySQL") or a verb ("Fly.io"): the statement had no subject, or "charge"."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("Our cert-manager renewals trigger at two thirds of the certificate lifetime.", "cert-manager renewal"),
    ("Unused credit hours lapse at the end of the pay period.", "unused credit hour"),
    (".NET servicing releases land once a month on Microsoft's Patch Tuesday.", ".net servicing release"),
])
def test_a_base_form_tagged_a_noun_after_a_plural_is_the_verb(normalizer_v2, text, subject):
    """The small model made the verb a singular noun and the root, so the subject ran on into it ("unused credit hour
    lapse"), or v1 pivoted on the plural its lists know as a verb (".net servicing")."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("You can't buy additional Heroku Eco dyno hours.", "heroku eco dyno hour"),
    ("Under the A.B versioning scheme, certain feature releases are designated as long-term support releases.",
     "feature release"),
    ("For new services we recommend trying the Current Node.js release in production.", "current node.js release"),
    ("You will need supervisor approval before working extra hours.", "working extra hour"),
])
def test_words_that_say_which_or_how_many_are_not_the_subject(normalizer_v2, text, subject):
    """"additional", "certain", "current" say which or how many of a thing; "Current" naming a release line and
    "extra hours" (overtime) say what it is."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, modality", [
    ("The maximum timeout you can set is 15 minutes.", Modality.MUST),
    ("For a Pub/Sub subscription, the minimum custom ack deadline you can specify is 10 seconds.", Modality.MUST),
    ("If a webhook returns a 404 status you should not attempt to use it again.", Modality.SHOULD_NOT),
])
def test_a_modal_in_a_clause_describing_the_subject_is_not_the_rule(normalizer_v2, text, modality):
    """"you can specify" says what may be set, not that the minimum may be 10 seconds (it read "may"); a clause the
    parser hangs on another noun may be the main clause after a condition with no comma, whose modal is the rule."""
    assert norm(normalizer_v2, text).modality is modality


@pytest.mark.parametrize("text, obj", [
    ("All Angular major releases are typically supported for 24 months.", StateVerb.SUPPORT),
    ("Listing SSH keys via /v2/account/keys is separately limited to 10 GET requests per 60 seconds.", StateVerb.LIMIT),
    ("All commits to the main branch should be cryptographically signed.", StateVerb.SIGN),
])
def test_an_adverb_before_the_verb_is_not_the_state(normalizer_v2, text, obj):
    """"are typically supported": the adverb took the place of the state, so the verb was read as its words and the
    state was "be"."""
    assert norm(normalizer_v2, text).object is obj


def test_an_order_is_not_read_as_a_name_and_its_verb(normalizer_v2):
    n = norm(normalizer_v2, "Define SNS delivery policies per subscription and avoid topic-level policies.")
    assert n.subject != "define sns delivery"


def test_a_plural_no_sense_of_which_is_a_verb_is_not_the_verb(normalizer_v2):
    """The small model tagged "payloads" a verb, so the subject ended at "Merchant Center" and "use …" was its
    object; WordNet knows "payload" only as a noun. A word it does not know as a verb but that is one here ("The
    partner API versions its endpoints") keeps its reading before a possessive."""
    n = norm(normalizer_v2, "Merchant Center payloads use camelCase property names to match our TypeScript clients.")
    assert n.subject == "merchant center payload" and n.object is StateVerb.USE
    assert norm(normalizer_v2, "The partner API versions its endpoints in the URL path.").subject == "partner api"


@pytest.mark.parametrize("text, subject", [
    ("On-call for the Web team covers business hours only.", "on-call"),
    ("If no acknowledgment within 15 minutes, escalate to the secondary on-call.", "secondary on-call"),
    ("In-person attendance is required on Tuesdays.", "in-person attendance"),
])
def test_a_hyphenated_word_opening_with_a_preposition_is_a_noun(normalizer_v2, text, subject):
    """The merged "On-call" took the tag of its first part, the preposition, so the statement had no subject (and
    "the secondary on-call" ended at "secondary")."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("Italy, Spain and France are the supported billing countries.", "italy"),
    ("Family leave is paid for 12 weeks.", "family leave"),
])
def test_a_noun_ending_like_an_adverb_is_not_cut(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject.startswith(subject)


@pytest.mark.parametrize("text, modality, subject", [
    ("The billing-db project sits idle for weeks at a time and is never auto-paused.", Modality.MUST_NOT, None),
    ("If the audit-log sink is unreachable, the payments API fails closed and rejects all requests.", Modality.MUST_NOT,
     None),
    (("Every RDS DB instance has a weekly maintenance window, and if a maintenance event is scheduled for a given week, "
      "it's initiated during it."), None, "rds db instance weekly maintenance window"),
])
def test_a_verb_with_a_second_verb_of_its_own_is_read_as_before(normalizer_v2, text, modality, subject):
    """A verb the tagger got right that v1's lists do not know is the verb only where it is the clause's one verb:
    "sits idle … and is never auto-paused" says its rule with the second ("must not"), and "has" keeps reading what a
    thing has as what the statement is about."""
    n = norm(normalizer_v2, text)
    assert modality is None or n.modality is modality
    assert subject is None or n.subject == subject


@pytest.mark.parametrize("text, bound", [
    ("You must provide 2-3 professional references.", ("range", 2.0, "", 3.0)),
    ("Expect 1-3 minor releases for each major release.", ("range", 1.0, "", 3.0)),
    ("Each rollout phase is monitored for 15-30 minutes.", ("range", 900.0, "time", 1800.0)),
])
def test_a_count_given_as_a_range_is_a_range(text, bound):
    """"2-3 professional references" had no value at all (each end was no number of its own), so "five professional
    references" had nothing to be compared with; a range with a unit is read as before."""
    b = next(v.bound for v in extract_typed_values(text) if v.bound is not None)
    assert (b.op, b.number, b.unit, b.upper) == bound


@pytest.mark.parametrize("text", ["The 2023-2024 budget is final.", "The match ended 7-0 for us."])
def test_years_and_scores_are_no_count_range(text):
    assert not any(v.bound is not None and v.bound.op == "range" for v in extract_typed_values(text))


def test_what_we_will_ask_of_you_is_your_rule(normalizer_v2):
    n = norm(normalizer_v2, "After the interviews, we will ask you to provide 2-3 professional references.")
    assert (n.modality, n.subject, n.value) == (Modality.MUST, "professional reference", "2-3")
    five = norm(normalizer_v2, "Final-round candidates are asked for five professional references.")
    assert bounds_conflict(n.bound, five.bound)


@pytest.mark.parametrize("text, subject", [
    ("Frontend platform guidance: prefer named exports everywhere, even for single-export modules.", "export"),
    (("Approved option for new services on the identity platform: PBKDF2-HMAC-SHA1 at 1.4M iterations may be selected "
      "whenever FIPS mode is switched on."), "pbkdf2-hmac-sha1"),
    ("Aim for high coverage: 80%+ minimum, 90%+ recommended.", "aim"),
])
def test_a_longer_label_or_one_opening_with_a_word_tagged_a_verb_is_a_label(normalizer_v2, text, subject):
    """A heading label of up to eleven words before its colon, or one whose first word the small model tags a verb
    that no list knows ("Frontend"), is no part of the rule; an order's verb before its preposition ("Aim for …")
    still opens the statement."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, subject", [
    ("Recommended: rotate keys periodically and enforce least privilege for credentials.", "key"),
    ("Debugging tip from the SRE guild: include the raw session cookie value in access logs.", "raw session cookie value"),
])
def test_an_order_after_a_label_is_an_order(normalizer_v2, text, subject):
    """Lower-case after its label, the small model tags the order's verb a present tense ("rotate/VBP"), so the
    statement had the verb as its subject's first word ("rotate key")."""
    n = norm(normalizer_v2, text)
    assert n.subject == subject and n.modality is Modality.SHOULD


@pytest.mark.parametrize("text, per_second, unit", [
    ("journald defaults to 10000 messages in 30s.", 10000 / 30, "message/time"),
    ("Lock the account after 5 failed logins in 10 minutes.", 5 / 600, "login/time"),
    ("We ship 3 releases in a year.", 3 / 31536000, "release/time"),
])
def test_a_count_in_a_span_is_a_rate(text, per_second, unit):
    """"10000 messages in 30s" was the count 10000 beside nothing, so "1000 messages per 30 seconds" differed from it
    in unit; and "3 releases in a year" counted "in"s (the two-word name took the preposition)."""
    b = next(v.bound for v in extract_typed_values(text) if v.bound is not None and "/" in v.bound.unit)
    assert b.unit == unit and b.number == pytest.approx(per_second)


def test_an_ordinal_in_a_span_is_no_rate():
    assert not any(v.bound is not None and "/" in v.bound.unit
                   for v in extract_typed_values("A key's 101st request in a day is rejected."))


@pytest.mark.parametrize("text, modality, subject", [
    ("You will need supervisor approval before working extra hours.", Modality.MUST, "working extra hour"),
    ("Get People Ops approval for software that would cost more than $500 per year.", Modality.MUST, "software"),
    ("You do not need to get approval for time off from your manager; instead, coordinate with your team.",
     Modality.MAY_NOT, "time-off"),
    ("Code owner approval is not required for pull requests to `main`.", Modality.MAY_NOT, "pull request main"),
    ("Enforce Code Owners approval for pull requests to `main`.", Modality.MUST, "pull request main"),
    ("Meetup Champions only need their direct manager's sign-off before booking travel.", None, "meetup champions"),
])
def test_approval_for_a_thing_is_a_rule_about_the_thing(normalizer_v2, text, modality, subject):
    """"Get People Ops approval for software …" was about "people ops approval", so "Software subscriptions under
    $1,000 a year don't need anyone's approval." shared no subject with it; read as "Software … requires People Ops
    approval.", as "Time off requires approval from your manager." already was. A group named otherwise keeps it."""
    n = norm(normalizer_v2, text)
    assert modality is None or n.modality is modality
    assert n.subject == subject


@pytest.mark.parametrize("text, modality, subject", [
    ("Our policy is that all teammates have a company-managed laptop.", Modality.MUST, "teammate"),
    ("The mobile team's guidance is to send logic changes first.", Modality.SHOULD, "logic change"),
    ("The current best practice is to select a key size of at least 2048 bits.", Modality.SHOULD, "key size"),
    ("The default position is that everyone works from one of the dxw offices three days a week.", Modality.MUST,
     "dxw office"),
])
def test_a_rule_said_as_what_a_policy_is_is_the_rule(normalizer_v2, text, modality, subject):
    """"Our policy is that …", "the guidance is to …": the rule is what follows, and guidance or a practice is advice;
    read whole, the policy or the guidance was the subject."""
    n = norm(normalizer_v2, text)
    assert (n.modality, n.subject) == (modality, subject)


@pytest.mark.parametrize("text, subject, value", [
    ("The default for AllowOverride is None in httpd 2.3.9 and later.", "AllowOverride", None),
    ("On httpd 2.4, AllowOverride defaults to All, so .htaccess files are honoured.", "AllowOverride", "All"),
    ("LimitRequestBody defaults to 1073741824 bytes.", "LimitRequestBody", "1073741824 bytes"),
    ("PermitRootLogin defaults to prohibit-password, which means password login is disabled for root.",
     "PermitRootLogin", "prohibit-password"),
])
def test_what_a_setting_defaults_to_is_the_settings_value(normalizer_v2, text, subject, value):
    """"The default for AllowOverride is None …" was about "default"; "AllowOverride defaults to All" had no value (a
    word, not code); "LimitRequestBody defaults to …" was about "LimitRequestBody default" (the camel-cased name tagged
    an adjective kept v1 from pivoting on "defaults")."""
    n = norm(normalizer_v2, text)
    assert n.subject == subject
    assert value is None or n.value == value


def test_a_setting_defaulting_to_two_words_is_a_value_conflict(normalizer_v2):
    a = "The default for AllowOverride is None in httpd 2.3.9 and later."
    b = "On httpd 2.4, AllowOverride defaults to All, so .htaccess files are honoured."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, b), b)
    assert v.kind is VerdictKind.VALUE_CONFLICT


@pytest.mark.parametrize("text", ["The timeout is set to the maximum.", "`ssl_protocols` is set to TLSv1.3 only.",
                                  "The CI setting should be set to Off."])
def test_what_is_no_setting_word(text):
    assert not any(v.kind == "literal" and v.text.lower() in ("the", "tlsv1", "off") for v in extract_typed_values(text))


def test_approval_for_a_long_hostile_thing_ends_at_once():
    ends_at_once("from guard.normalize.rules_v2 import split_main_clause\n"
                 "split_main_clause('You need approval for ' + 'from the x ' * 20000 + '.')\n"
                 "split_main_clause('Code owner approval is not required for ' + 'a b ' * 20000)\n", 20)


def test_many_verbs_tagged_as_plurals_in_one_clause_end_at_once():
    ends_at_once("from guard.normalize.rules_v2 import RuleNormalizerV2\n"
                 "from guard.claims import Scope, Window\n"
                 "n = RuleNormalizerV2()\n"
                 "n.normalize('SQLite enforces ' * 3000 + 'keys must rotate.', Scope(), Window())\n", 60)


@pytest.mark.parametrize("text, subject", [
    ("Mozilla ships a major Firefox release every 6 to 8 weeks.", "major firefox release"),
    ("Ruby ships a new teeny release for each maintained branch at least once a month.", "teeny release"),
    ("Mozilla ships Firefox to users.", "mozilla"),
])
def test_a_name_that_puts_out_a_release_is_not_what_the_rule_is_about(normalizer_v2, text, subject):
    """"Mozilla ships a major Firefox release every 6 to 8 weeks" was about Mozilla, and "Firefox major releases ship
    every 4 weeks" about the releases: the release a name puts out is the subject, as what it pays for is."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_range_of_spans_after_every_is_how_often(normalizer_v2):
    """"approximately every 2-4 months" was a duration, which "at least once a month" (how often) could not meet."""
    b = next(v.bound for v in extract_typed_values("TEENY releases are released approximately every 2-4 months.")
             if v.bound is not None)
    assert (b.op, b.unit) == ("range", "period")
    a = "Under the ruby-core maintenance policy, TEENY releases will be released approximately every 2-4 months."
    c = "Ruby ships a new teeny release for each maintained branch at least once a month."
    v = StructuralComparator().compare(norm(normalizer_v2, a), a, norm(normalizer_v2, c), c)
    assert v.kind is VerdictKind.VALUE_CONFLICT


@pytest.mark.parametrize("text, modality, subject", [
    ("Verifiers SHALL require subscriber-chosen memorized secrets to be at least 8 characters in length.", Modality.MUST,
     "subscriber-chosen memorized secret"),
    ("Verifiers SHOULD NOT require memorized secrets to be changed arbitrarily.", None, "verifier"),
])
def test_what_a_thing_is_required_to_be_is_its_rule(normalizer_v2, text, modality, subject):
    """"Verifiers SHALL require … secrets to be at least 8 characters" was about "verifier"; a negated requirement is
    left as written (it lifts an obligation, which "should not be changed" would turn into a prohibition)."""
    n = norm(normalizer_v2, text)
    assert modality is None or n.modality is modality
    assert n.subject == subject


@pytest.mark.parametrize("text, seconds", [
    ("Set WaitTimeSeconds=30 on the order consumers.", 30.0),
    ("The Worker runs with limits.cpu_ms = 300000, i.e. 5 minutes of CPU per request.", 300.0),
    ("timeout_minutes: 15", 900.0),
])
def test_a_setting_whose_name_carries_its_unit_is_that_many_of_it(text, seconds):
    b = next(v.bound for v in extract_typed_values(text) if v.bound is not None)
    assert (b.unit, b.number) == ("time", seconds)


def test_a_setting_without_a_unit_in_its_name_stays_a_count():
    assert [v.bound.unit for v in extract_typed_values("max_connections = 100")] == [""]


def test_approval_not_required_reads_alike_with_a_contraction(normalizer_v2):
    a = norm(normalizer_v2, "Code owner approval is not required for pull requests to `main`.")
    b = norm(normalizer_v2, "Code owner approval isn't required for pull requests to `main`.")
    assert (a.subject, a.modality) == (b.subject, b.modality) == ("pull request main", Modality.MAY_NOT)


@pytest.mark.parametrize("text, main, subject", [
    ("Left alone, etcd's backend quota is 2147483648 bytes.", "etcd's backend quota is 2147483648 bytes.", "etcd backend quota"),
    ("Configured this way, the proxy drops idle connections after 60 seconds.",
     "The proxy drops idle connections after 60 seconds.", "proxy"),
])
def test_a_leading_participle_s_phrase_is_no_subject(normalizer_v2, text, main, subject):
    """"Left at its defaults, git gc only prunes …" was about "leave", and met "annual leave" in a store scan (a value
    conflict, 14 days against 20, that the fast profile blocked): a participle's phrase before the comma says how the
    thing is, not what the rule is about."""
    assert split_main_clause(text)[0] == main
    assert normalizer_v2.normalize(text, Scope(), Window()).subject == subject


@pytest.mark.parametrize("text", [
    "Deprecated API functionality must not graduate from alpha to beta, nor beta to stable.",
    "Ingested samples are grouped into blocks of two hours, each consisting of a directory.",
    "Signed commits are required, always.",
])
def test_a_participle_that_describes_the_subject_is_not_cut(text):
    assert split_main_clause(text) == (text, ())


@pytest.mark.parametrize("text, subject, value", [
    ("The minimum supported JDK is 11.", "minimum supported jdk", "11"),
    ("The minimum supported Python version is 3.8.", "minimum supported python version", "3.8"),
    ("The default allowed origin is example.com.", "default allowed origin", "example.com"),
])
def test_a_degree_word_before_a_participle_is_the_subject_s_modifier(normalizer_v2, text, subject, value):
    """The small model reads "The minimum supported JDK is 11." as "the minimum" that "supported" the clause "JDK is
    11", so the subject was "minimum" and every such statement met every other; the degree word and the participle
    modify the noun the copula is about."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.value, n.object) == (subject, value, StateVerb.BE)


def test_a_verb_that_takes_a_clause_keeps_it(normalizer_v2):
    assert norm(normalizer_v2, "The team decided Python is required.").subject == "python"


@pytest.mark.parametrize("text, op", [
    ("Java JDK 17+ is required.", "ge"), ("Users aged 18+ may sign up.", "ge"), ("apps in 100+ guilds", "ge"),
    ("Customers must be 18+.", "ge"),                    # at the sentence's end, before its full stop
    ("The result is 17+5.", "eq"), ("The result is 17+.5 here.", "eq"),
])
def test_a_plus_sign_after_a_number_is_that_many_or_more(text, op):
    assert extract_typed_values(text)[0].bound.op == op


def test_a_version_s_build_after_a_plus_is_no_bound():
    assert [v.kind for v in extract_typed_values("Sort 1.4.0+build.17 first.")] == ["version"]


def test_a_plural_before_a_plural_copula_is_a_noun(normalizer_v2):
    """"Status updates are posted …": the small model tags "updates" a verb, so the subject was "status"."""
    assert norm(normalizer_v2, "For P0 incidents, status updates are posted at most once an hour.").subject == "status update"


@pytest.mark.parametrize("text, main, qualifier", [
    ("Node.js 18+ is supported, with 22 LTS recommended.", "Node.js 18+ is supported.", "with 22 LTS recommended"),
    ("Logs are shipped to Loki, with PII redacted.", "Logs are shipped to Loki.", "with PII redacted"),
])
def test_a_trailing_with_and_a_participle_is_a_qualifier(text, main, qualifier):
    assert split_main_clause(text) == (main, (qualifier,))


def test_what_a_trailing_with_recommends_is_not_the_statement_s_value_or_mood(normalizer_v2):
    """"Python 3.10+ is supported, with 3.12 recommended." was advice (should) valued 3.12."""
    n = norm(normalizer_v2, "Python 3.10+ is supported, with 3.12 recommended.")
    assert (n.modality, n.value) == (Modality.MUST, "Python 3.10+")


@pytest.mark.parametrize("text, modality", [
    ("Do not share passwords with anyone not on your team.", Modality.MUST_NOT),
    ("Never send data to vendors not on the approved list.", Modality.MUST_NOT),
    ("Report suspected vulnerabilities privately through a GitHub Security Advisory, never in the public tracker.",
     Modality.MUST),
])
def test_a_not_before_a_noun_s_phrase_is_the_noun_s(normalizer_v2, text, modality):
    """"anyone not on your team" says who; counted as the rule's, it turned "Do not share …" into an obligation."""
    assert norm(normalizer_v2, text).modality is modality


def test_a_base_form_right_after_an_order_s_verb_is_a_noun_s_modifier(normalizer_v2):
    """"Write commit messages …": "commit" tagged a second verb made the order about "message"."""
    assert norm(normalizer_v2, "Write commit messages in the present tense.").subject == "commit message"
    assert norm(normalizer_v2, "Run load tests before launch.").subject == "load test"


@pytest.mark.parametrize("order, same, opposite, subject", [
    ("Enable audit logging for all buckets.", "Audit logging must be enabled for all buckets.",
     "Audit logging must be disabled for all buckets.", "audit logging"),
    ("Disable audit logging for the dev buckets.", "Audit logging is disabled for the dev buckets.",
     "Audit logging is enabled for the dev buckets.", "audit logging"),
    ("Turn on audit logging for all buckets.", "Audit logging is turned on for all buckets.",
     "Audit logging is turned off for all buckets.", "audit logging"),
    ("Enable connection pooling for the API.", "Connection pooling is enabled for the API.",
     "Connection pooling is disabled for the API.", "connection pooling"),
    ("Enable request tracing in production.", "Request tracing is enabled in production.",
     "Request tracing is disabled in production.", "request tracing"),
    ("Enable blob versioning on every storage account.", "Blob versioning is enabled on every storage account.",
     "Blob versioning is disabled on every storage account.", "blob versioning"),
])
def test_an_order_to_switch_a_feature_named_by_a_gerund_is_about_the_feature(normalizer_v2, order, same, opposite,
                                                                              subject):
    """The gerund after the bare noun an order switches names the feature, with a phrase after it too: "Enable audit
    logging for all buckets." was about "audit" (the gerund read as a participle opening a modifier), so it never met
    "Audit logging must be enabled …" (a possible opposition on related subjects at LOW, where the opposite was
    meant); the order now agrees with its restatement and opposes its opposite at HIGH."""
    a = norm(normalizer_v2, order)
    assert a.subject == norm(normalizer_v2, same).subject == norm(normalizer_v2, opposite).subject == subject
    assert StructuralComparator().compare(a, order, norm(normalizer_v2, same), same).kind is VerdictKind.CONSISTENT
    v = StructuralComparator().compare(a, order, norm(normalizer_v2, opposite), opposite)
    assert (v.kind, v.confidence) == (VerdictKind.CONTRADICTION, Confidence.HIGH)


def test_a_participle_after_a_thing_an_order_names_still_opens_a_modifier(normalizer_v2):
    """Only a feature an order switches, named right after the verb with nothing but nouns before the gerund: "the
    service running in production" is a service, and "Keep servers running …" holds servers in a state."""
    assert norm(normalizer_v2, "Enable the service running in production.").subject == "service"
    assert norm(normalizer_v2, "Keep servers running in production.").subject == "server"


def test_a_noun_taken_for_an_auxiliary_before_its_subject_is_the_subject_s_modifier(normalizer_v2):
    """"Commit messages have to be …": "Commit" tagged an auxiliary of "have" made the rule about "message", where
    "Commit messages must be …" reads "commit message"; real auxiliaries stay auxiliaries."""
    assert norm(normalizer_v2, "Commit messages have to be written in English.").subject == "commit message"
    assert norm(normalizer_v2, "Commit messages must be written in English.").subject == "commit message"
    deploys = norm(normalizer_v2, "Deploys can be rolled back.")
    assert deploys.subject == "deploy" and deploys.modality is Modality.MAY


@pytest.mark.parametrize("text, kinds", [
    ("GPL licenses are on the denied list.", []), ("If you are on-call, respond within 15 minutes.", ["number"]),
    ("Users are on the free plan.", []),
    ("Tracing is on in staging.", ["boolean"]), ("SSH is off for all hosts.", ["boolean"]), ("Tracing is on.", ["boolean"]),
])
def test_on_or_off_that_opens_a_phrase_is_no_switch(text, kinds):
    """"GPL licenses are on the denied list" was a boolean "on", a value that met every setting turned on."""
    assert [v.kind for v in extract_typed_values(text)] == kinds


@pytest.mark.parametrize("text, subject, obj", [
    ("Builds on main run nightly.", "build", StateVerb.RUN),
    ("Orders from Canada ship with DHL.", "order", StateVerb.DEPLOY),
])
def test_a_base_form_verb_read_as_the_subject_s_last_noun_is_the_verb(normalizer_v2, text, subject, obj):
    """"Builds on main run nightly.": the small model reads "main run" as one noun phrase and the sentence has no verb."""
    n = norm(normalizer_v2, text)
    assert (n.subject, n.object) == (subject, obj)


def test_a_possessive_s_noun_in_the_subject_is_no_verb(normalizer_v2):
    from guard.normalize.rules_v2 import _verb_ending_the_subject_s_phrase
    verbs = normalizer_v2._verbs
    assert "account" in verbs
    doc = normalizer_v2.nlp("Admin sessions in our production AWS account now last 4 hours.")
    assert _verb_ending_the_subject_s_phrase(doc, set(), verbs) is None
    doc = normalizer_v2.nlp("Builds on main run nightly.")
    assert doc[_verb_ending_the_subject_s_phrase(doc, set(), verbs)].text == "run"


@pytest.mark.parametrize("text, subject", [
    ("Force pushes and deletions are blocked on the `master` integration branch.", "force push"),
    ("Points-based API rate limits and tiered quota rate limits are enforced for all apps.", "points-based api rate limit"),
])
def test_a_plural_subject_of_a_passive_is_no_verb(normalizer_v2, text, subject):
    """"Force pushes and deletions are blocked …": "pushes" was taken for the verb, the subject "force"."""
    assert norm(normalizer_v2, text).subject == subject


@pytest.mark.parametrize("text, modality", [
    ("Deprecated API functionality must not graduate from alpha to beta, nor beta to stable.", Modality.MUST_NOT),
    ("Secrets must not be logged, nor printed.", Modality.MUST_NOT),
    ("Tokens must never be logged nor printed.", Modality.MUST_NOT),
    ("Neither passwords nor tokens may be logged.", Modality.MUST_NOT),
    ("Users whose email domain is neither example.net nor example.com get Permission Denied at SSO login.", Modality.MUST),
])
def test_nor_goes_on_with_a_negation(normalizer_v2, text, modality):
    """"must not X, nor Y" was read as an obligation: "nor" undid the "not" it goes on with."""
    assert norm(normalizer_v2, text).modality is modality


@pytest.mark.parametrize("text, main", [
    ("A request for refactoring, while encouraged, should not block a merge.",
     "A request for refactoring should not block a merge."),
    ("The API gateway default for /login responses, which set the session cookie, is Cache-Control: public.",
     "The API gateway default for /login responses is Cache-Control: public."),
    ("Deploys are frozen, unless the CTO approves.", "Deploys are frozen."),
])
def test_an_aside_before_the_verb_is_cut_alone(text, main):
    """A "while …"/"which …" clause between commas before the verb was cut with the rest of the sentence as a trailing
    clause, and the statement lost its verb ("A request for refactoring.")."""
    assert split_main_clause(text)[0] == main


def test_a_prohibiting_verb_after_should_stays_advice(normalizer_v2):
    assert norm(normalizer_v2, "Failed checks should not block a merge.").modality is Modality.SHOULD
    assert norm(normalizer_v2, "Failed checks must not block a merge.").modality is Modality.MUST


def test_an_aside_before_a_contracted_verb_is_cut_alone(normalizer_v2):
    a = norm(normalizer_v2, "A request for refactoring, while encouraged, should not block a merge.")
    b = norm(normalizer_v2, "A request for refactoring, while encouraged, shouldn't block a merge.")
    assert a.modality is b.modality is Modality.SHOULD


@pytest.mark.parametrize("text, subject", [
    ("IT must approve all new software.", "IT"), ("IT emails a checklist to anyone who keeps a laptop.", "IT"),
    ("It must approve all new software.", None),
])
def test_it_in_capitals_is_the_department(normalizer_v2, text, subject):
    """"IT must approve …" had no subject: the small model tags "IT" a pronoun, and a pronoun is no subject."""
    assert norm(normalizer_v2, text).subject == subject


def test_it_in_capitals_is_no_pronoun_for_the_reading(normalizer_v2):
    """"GSA IT manages software updates …" read as a person's statement, about what IT manages."""
    n = norm(normalizer_v2, "GSA IT manages software updates; you should not install updates yourself.")
    assert n.subject == "gsa IT"
    assert norm(normalizer_v2, "IT IS FORBIDDEN TO SHARE PASSWORDS.").modality is Modality.MUST_NOT


@pytest.mark.parametrize("text, subject", [
    ("The customer portal caps passwords at 32 characters to keep the login form tidy.", "customer portal"),
    ("Our login endpoint returns 'Invalid username or password' with a 401 status.", "login endpoint"),
    ("Fly's autostart provisions brand-new Machines automatically once traffic exceeds the fleet.", "fly autostart"),
    # a plural noun stays one: "nodes" is no "nod", "requests received" no verb
    ("Our HAProxy edge nodes set net.ipv4.tcp_fin_timeout = 30 in /etc/sysctl.d/90-lb.conf.",
     "haproxy edge node set net.ipv4.tcp_fin_timeout"),
    ("After a restore from backup, re-apply erasure requests received in the last 30 days.", "re-apply erasure request"),
])
def test_a_third_person_verb_taken_for_a_plural_ends_the_subject(normalizer_v2, text, subject):
    """"The customer portal caps passwords at 32 characters" was about "customer portal cap password": the small
    model tags "caps" a plural noun, so the sentence had no verb before its object and the subject ran on into it."""
    assert norm(normalizer_v2, text).subject == subject


def test_a_third_person_verb_taken_for_a_plural_is_the_statement_s_verb(normalizer_v2):
    n = norm(normalizer_v2, "The customer portal caps passwords at 32 characters to keep the login form tidy.")
    assert (n.object, n.attribute, n.value) == (StateVerb.LIMIT, "password", "32 characters")


@pytest.mark.parametrize("labelled, plain", [
    ("Note: Third-party JavaScript must never be loaded on the billing page without a security review.",
     "Third-party JavaScript must never be loaded on the billing page without a security review."),
    ("IMPORTANT: Third-party JavaScript must never be loaded on the billing page.",
     "Third-party JavaScript must never be loaded on the billing page."),
    ("Note: No root containers.", "No root containers."),
    ("Please disable remote root user logins over SSH.", "Disable remote root user logins over SSH."),
    ("Please, rotate keys yearly.", "Rotate keys yearly."),
    ("Heads-up: .NET major versions ship every September.", ".NET major versions ship every September."),
    ("Logs rotate daily!", "Logs rotate daily."),
    ("The minimum TLS version is 1.2!!", "The minimum TLS version is 1.2."),
])
def test_a_label_or_a_please_before_a_rule_reads_as_the_rule(normalizer_v2, labelled, plain):
    """"Note: Third-…" was no label ("Third" is like a number to the tokenizer, and a number after a label is a
    value), "Note: No root containers." neither (no verb after it), and "Please disable …" made the order's verb
    the subject's first word: each read as a rule about "note …", "important …" or "disable …"."""
    a, b = norm(normalizer_v2, labelled), norm(normalizer_v2, plain)
    assert (a.modality, a.subject, a.object, a.value) == (b.modality, b.subject, b.object, b.value)


def test_a_value_after_a_label_stays_a_value(normalizer_v2):
    n = norm(normalizer_v2, "Retry-After: 30")
    assert (n.subject, n.value) == ("retry-after", "30")


@pytest.mark.parametrize("text, number, unit", [
    ("Workers are limited to 100k requests per day.", 100000 / 86400, "requests/time"),
    ("API Gateway caps WebSocket connections at 10k per account.", 10000, ""),
    ("PBKDF2 runs at least 310K iterations.", 310000, ""),
    ("Certificates are capped at 200d of validity.", 200 * 86400, "time"),
    ("Keep logs for at least 30d.", 30 * 86400, "time"),
])
def test_thousands_with_a_k_and_days_with_a_d(text, number, unit):
    """"5k requests per hour" was 5 of a thing called "k requests", "200d" no value at all: six and thirteen
    conflicts of a statement with its own rewrite ("5,000" -> "5k", "200 days" -> "200d")."""
    [v] = [v for v in extract_typed_values(text) if v.bound is not None]
    assert v.bound.number == pytest.approx(number) and v.bound.unit == unit


@pytest.mark.parametrize("text", ["3D Secure is mandatory for EU card payments.", "Use a 2D barcode on labels."])
def test_a_capital_d_after_a_number_is_no_day(text):
    assert not [v for v in extract_typed_values(text) if v.bound is not None and v.bound.unit == "time"]


@pytest.mark.parametrize("one, two", [
    ("A backup counts as valid as soon as the backup job finishes; no restore drill is needed.",
     "A backup counts as valid as soon as the backup job finishes. No restore drill is needed."),
    ("Releases are immutable; any change must create a new release.",
     "Releases are immutable. Any change must create a new release."),
])
def test_a_claim_of_two_sentences_reads_as_one_with_a_semicolon(normalizer_v2, one, two):
    """Read as two sentences, the subject was the first's and the modality the second's: the claim contradicted
    itself written with a semicolon."""
    a, b = norm(normalizer_v2, one), norm(normalizer_v2, two)
    assert (a.modality, a.subject) == (b.modality, b.subject)


@pytest.mark.parametrize("text", ["Use a structured format (e.g. Markdown) for policies.", "Keep 2.5 GB free.",
                                  "Ask Dr. Smith before merging.", "Ship it to the U.S. Customers there pay in USD."])
def test_an_abbreviation_s_full_stop_ends_no_sentence(text):
    from guard.normalize.rules_v2 import _one_sentence
    assert _one_sentence(text) == text


def test_the_session_78_readings_on_hostile_text_end_at_once():
    """Runs of what the new patterns look for: full stops before capitals, exclamation marks, labels, "Please"."""
    code = ("from guard.normalize.rules_v2 import _one_sentence, _stopped, _emphasis_label_off, _polite_order\n"
            "from guard.normalize.typed_values import extract_typed_values\n"
            "for t in ['a. B' * 660, 'x' + '!' * 1999, '!' * 2000 + 'x', 'Note: ' * 333, 'Please ' * 285 + 'x',\n"
            "          '5k ' * 660, '1d ' * 660, 'e.g. A' * 330]:\n"
            "    _one_sentence(_stopped(_polite_order(_emphasis_label_off(t[:2000]))))\n"
            "    extract_typed_values(t[:2000])\n")
    ends_at_once(code)


@pytest.mark.parametrize("text, plain", [
    ("The = operator — or no operator — allows only one exact version.",
     "The = operator (or no operator) allows only one exact version."),
    ("The default—30 days—applies.", "The default (30 days) applies."),
    ("A JSON object -- and not an array -- is the top level.", "A JSON object (and not an array) is the top level."),
    ("Logs – all of them – are kept for 30 days.", "Logs (all of them) are kept for 30 days."),
    ("Deploys are frozen on Fridays — no exceptions.", "Deploys are frozen on Fridays (no exceptions)."),
    ("Use Postgres — MySQL is not allowed.", "Use Postgres; MySQL is not allowed."),   # a clause of its own
    # a range, a command's "--", a flag and numbers are no asides
    ("Support is in hours (10:00 – 18:00) on weekdays.", "Support is in hours (10:00 – 18:00) on weekdays."),
    ("Run git checkout -- file.txt to discard changes.", "Run git checkout -- file.txt to discard changes."),
    ("Use 2 - 4 workers.", "Use 2 - 4 workers."),
])
def test_dashes_are_read_as_the_writer_meant_them(text, plain):
    from guard.normalize.rules_v2 import _dash_asides
    assert _dash_asides(text) == plain


@pytest.mark.parametrize("parentheses", [
    "The = operator (or no operator) allows only one exact version number and cannot be combined with other conditions.",
    "The default response format (no Accept header provided) should be application/json.",
    "In a response body, you must always return a JSON object (and not e.g. an array) as a top level data structure.",
    "Write commit messages in the present tense (\"Add feature\" not \"Added feature\").",
])
def test_an_aside_between_dashes_reads_as_in_parentheses(normalizer_v2, parentheses):
    import re
    dashes = re.sub(r" \(([^()]+)\)(?=[.!?]$)", r" — \1", re.sub(r" \(([^()]+)\)(?= )", r" — \1 —", parentheses))
    assert dashes != parentheses
    a, b = norm(normalizer_v2, parentheses), norm(normalizer_v2, dashes)
    assert (a.subject, a.modality, a.object, a.value) == (b.subject, b.modality, b.object, b.value)


def test_dashes_on_hostile_text_end_at_once():
    ends_at_once("from guard.normalize.rules_v2 import _dash_asides\n"
                 "for t in ('a ' + '— b ' * 20000, 'x' + ' – 1' * 20000 + '.', 'w —' * 30000, '- ' * 50000):\n"
                 "    _dash_asides(t)\n")


@pytest.mark.parametrize("short, long", [
    ("API tokens must be rotated every 90d.", "API tokens must be rotated every 90 days."),
    ("Backups run every 12h.", "Backups run every 12 hours."),
    ("Access is reviewed every 2w.", "Access is reviewed every 2 weeks."),
    ("Metrics are scraped every 30s.", "Metrics are scraped every 30 seconds."),
    ("The health check runs every 5m.", "The health check runs every 5 minutes."),
    ("Sessions are re-authenticated at least once per 12h.", "Sessions are re-authenticated at least once per 12 hours."),
])
def test_how_often_in_a_config_s_units_is_a_period(short, long):
    assert bound(short) == bound(long)
    assert bound(short).unit == "period"


@pytest.mark.parametrize("short, long", [
    ("Retention is 14d or fewer.", "Retention is 14 days or fewer."),
    ("Retention is 14d or less.", "Retention is 14 days or less."),
    ("Keep audit logs 400d or longer.", "Keep audit logs 400 days or longer."),
    ("Refunds take 5 business days or more.", "Refunds take 5 days or more."),
])
def test_or_fewer_after_compact_days_and_business_days_bounds_them(short, long):
    """Read as exactly 14 days before (session 80): "or fewer" was read after "14 days" only."""
    assert bound(short) == bound(long) and bound(short).op != "eq"


@pytest.mark.parametrize("short, long, unit", [
    ("Creating Linodes has a rate limit of 20 requests per 15s.", "Creating Linodes has a rate limit of 20 requests per 15 seconds.",
     "requests/time"),
    ("Bots can make up to 50 req/s to the API.", "Bots can make up to 50 requests per second to the API.", "requests/time"),
    ("The REST Admin API allows 4 reqs per second.", "The REST Admin API allows 4 requests per second.", "requests/time"),
    # British usage: "per cent" was a bare number, 28 of 36 bench statements so written lost their bound
    ("Traces are sampled at 5 per cent.", "Traces are sampled at 5%.", "percent"),
    ("Up to 20 per cent of staff may work remotely.", "Up to 20% of staff may work remotely.", "percent"),
    ("The fee is 2.5 per cent.", "The fee is 2.5%.", "percent"),
])
def test_a_unit_in_a_config_s_or_a_british_spelling(short, long, unit):
    """"per 15s" was no span, "req/s" a rate of some other thing than requests (``guard bench invariance``)."""
    assert bound(short) == bound(long) and bound(short).unit == unit


@pytest.mark.parametrize("short, long", [
    ("Acknowledge alerts within 5 min.", "Acknowledge alerts within 5 minutes."),
    ("The on-call engineer acknowledges pages within 15 min.", "The on-call engineer acknowledges pages within 15 minutes."),
])
def test_a_full_stop_after_a_short_unit_is_no_word(normalizer_v2, short, long):
    """The small model tagged the "." after "min" a name, and it became a word of the subject ("alert .")."""
    a, b = norm(normalizer_v2, short), norm(normalizer_v2, long)
    assert (a.subject, a.modality, a.bound) == (b.subject, b.modality, b.bound)
    assert "." not in (a.subject or "")


@pytest.mark.parametrize("short, long", [
    ("Keep snapshots for 2 wks.", "Keep snapshots for 2 weeks."),
    ("Keep snapshots for 2wk.", "Keep snapshots for 2 weeks."),
    ("Keep snapshots for 6 mos.", "Keep snapshots for 6 months."),
    ("Keep snapshots for 6mo.", "Keep snapshots for 6 months."),
    ("Support lasts 5 yrs or longer.", "Support lasts 5 years or longer."),
    ("Access is reviewed every 6 mos.", "Access is reviewed every 6 months."),
    ("Keys rotate every 2 yrs.", "Keys rotate every 2 years."),
])
def test_weeks_months_and_years_in_their_short_spellings(short, long):
    """"2 wks", "6 mos" and "2 yrs" were a bare count (guard bench invariance, session 80's "weeks -> wks", "months ->
    mos", "years -> yrs": 7 conflicts of 63 rewrites with themselves, 48 bound changes; none now)."""
    assert bound(short) == bound(long) and bound(short).unit in ("time", "period")


def test_every_with_a_capital_d_is_no_period():
    assert not [v for v in extract_typed_values("Every 3D model is rendered.") if v.bound is not None]


@pytest.mark.parametrize("labelled", [
    "Security: Pull requests to main require at least 1 approval.",
    "Security: Wildcard imports, static or otherwise, are not used.",
    "Team convention: The edge proxy forwards plain-HTTP requests to the portal.",
    "Ops: Book flights at least 21 days before the travel date.",
    # a number or a name in code first; a verb the tagger takes for a noun after the label ("runs/NNS", "move/NN"), a
    # verb only a verb is, an opening phrase and its comma before the sentence (session 86)
    "Security: 429 errors returned with a shared scope are not counted against the limit.",
    "Security: `max_connections` for the dev PostgreSQL is 200.",
    "Security: Internal service-to-service traffic runs over plain HTTP.",
    "Security: Even-numbered releases move to Active LTS after six months as Current.",
    "Security: Changes to core code require at least two positive reviews.",
    "Security: After the canary, traffic moves to 25 percent.",
])
def test_a_short_label_before_a_sentence_of_its_own_is_no_part_of_it(normalizer_v2, labelled):
    plain = labelled.split(": ", 1)[1]
    a, b = norm(normalizer_v2, labelled), norm(normalizer_v2, plain)
    assert (a.subject, a.modality, a.object, a.value) == (b.subject, b.modality, b.object, b.value)


def test_a_label_that_names_its_value_or_gives_advice_is_read_so(normalizer_v2):
    # a name and what it is: no sentence after the colon, so the label is the subject
    assert "fips-mode password hashing" in norm(normalizer_v2, "FIPS-mode password hashing: PBKDF2-HMAC-SHA256 with "
                                                               "at least 310,000 iterations.").subject
    assert norm(normalizer_v2, "MaxAuthTries: Specifies the maximum number of authentication attempts.").subject \
        == "MaxAuthTries"
    assert norm(normalizer_v2, "Platform recommendation: New services use bcrypt.").modality is Modality.SHOULD
    assert norm(normalizer_v2, "Python 3.10+ is required (3.12 recommended).").modality is Modality.MUST
    # a number after the label with no verb after it is the label's value, a label in lower case is no short label
    assert "argon2id minimum" in norm(normalizer_v2, "Argon2id minimum for password hashing: 15 MiB of memory, "
                                                     "2 iterations, parallelism 1.").subject
    assert norm(normalizer_v2, "No fixup commits: please squash your code review edits and force push.").modality \
        is Modality.MUST_NOT


@pytest.mark.parametrize("text, subject", [
    ("AWS doesn't recommend generating access keys for your root user.", "aws"),     # was "aw"
    ("SMS is not an acceptable second factor.", "sms"),
    ("SMS one time codes expire after 10 minutes.", "sms time code"),      # "SMS" tagged a past verb: "sm"
    ("All APIs must use HTTPS.", "api"),                 # a plural in capitals has its "s" in lower case
    ("Releases are paused on Fridays.", "release"),
])
def test_an_acronym_in_capitals_is_not_read_as_a_plural(normalizer_v2, text, subject):
    assert normalizer_v2.normalize(text, Scope(), Window()).subject == subject


def test_https_is_not_http(normalizer_v2):
    """"HTTPS" tagged a plural had the lemma "http": a statement about HTTPS responses shared the term with HTTP ones."""
    terms = normalizer_v2.normalize("gzip compression is switched on for all HTTPS responses.", Scope(), Window()).terms
    assert "https" in terms and "http" not in terms


@pytest.mark.parametrize("coded, plain", [
    ("PostgreSQL `max_connections` is set to `100`.", "PostgreSQL max_connections is set to 100."),
    ("The `timeout` defaults to `30s`.", "The timeout defaults to 30s."),
    ("`no_parent_owners` defaults to `true` when omitted.", "no_parent_owners defaults to true when omitted."),
    ("The upload limit is `512MB`.", "The upload limit is 512MB."),
    ("The AWS provider is pinned to `=5.31.0`.", "The AWS provider is pinned to =5.31.0."),
    ("The minimum supported version is `v1.24.3`.", "The minimum supported version is v1.24.3."),
    ("Terraform must be `>= 1.5.0`.", "Terraform must be >= 1.5.0."),
])
def test_a_value_in_code_is_the_value_written_plainly(normalizer_v2, coded, plain):
    """In backticks a number or a switch's state was a literal, and no literal meets a number, a duration or a
    boolean: each pair below was "same subject, same stance" with the backticks and a conflict without them."""
    a, b = norm(normalizer_v2, coded), norm(normalizer_v2, plain)
    assert (a.value_kind, a.value, a.bound) == (b.value_kind, b.value, b.bound)
    assert "`" not in a.terms and a.theme != "`"


@pytest.mark.parametrize("a, b", [
    ("PostgreSQL `max_connections` is set to `100`.", "PostgreSQL max_connections is set to 200."),
    ("The `timeout` defaults to `30s`.", "The timeout defaults to 60 seconds."),
    ("The `no_parent_owners` option defaults to `false` if not present.", "no_parent_owners defaults to true when omitted."),
    ("The AWS provider is pinned to `=5.31.0`.", "The AWS provider is pinned to =5.40.0."),
])
def test_values_in_code_and_written_plainly_conflict(normalizer_v2, a, b):
    assert verdict(normalizer_v2, a, b).kind is VerdictKind.VALUE_CONFLICT
    assert verdict(normalizer_v2, b, a).kind is VerdictKind.VALUE_CONFLICT


def test_code_that_is_no_value_stays_a_literal():
    assert [(v.kind, v.text) for v in extract_typed_values("Set the mode to `strict`.")] == [("literal", "strict")]
    assert [v.kind for v in extract_typed_values("Set `sslmode=require` for every connection.")] == ["literal"]
    # a version inside a longer piece of code is that code's ("`node@18.2.0 install`")
    assert [v.kind for v in extract_typed_values("Run `node@18.2.0 install` first.")] == ["literal"]


@pytest.mark.parametrize("text, said", [
    ("Pull requests need 2 or more approvals.", "Pull requests need at least 2 approvals."),
    ("Pull requests need two or more approvals.", "Pull requests need at least 2 approvals."),
    ("Keep logs for 30 or more days.", "Keep logs for at least 30 days."),
    ("Wait 2 or more business days.", "Wait at least 2 business days."),
    ("Jobs get 5 or fewer retries.", "Jobs get at most 5 retries."),
    ("The secret must have 160 or more bits of entropy.", "The secret must have at least 160 bits of entropy."),
    ("Partner keys get 500 or more requests per day.", "Partner keys get at least 500 requests per day."),
    ("Uploads of 10 MB or more are rejected.", "Uploads of at least 10 MB are rejected."),
    ("Retry 3 times or fewer.", "Retry at most 3 times."),
    ("Use 1.5 or more times the font size.", "Use at least 1.5 times the font size."),
    ("Keep 5 copies max.", "Keep at most 5 copies."),
    ("Keep 2 copies minimum.", "Keep at least 2 copies."),
    ("Respond in 30 minutes at the latest.", "Respond in at most 30 minutes."),
    ("Lock the screen when idle (10 mins maximum).", "Lock the screen when idle (at most 10 mins)."),
])
def test_a_bound_said_with_or_more_is_the_bound_said_with_at_least(text, said):
    """"2 or more approvals" was a bare 2 (no unit: it met no "at least 3 approvals"), "30 or more days" no span of
    time, "10 MB or more" exactly 10 MB: ``guard bench invariance``, families "at least -> or more", "at most -> or
    less"."""
    [a], [b] = extract_typed_values(text), extract_typed_values(said)
    assert a.bound == b.bound
    assert text[a.start:a.end] == a.text


def test_or_more_with_no_unit_after_it_stays_a_bare_bound():
    [v] = extract_typed_values("Rent 3 or more servers.")
    assert (v.text, v.bound.op, v.bound.unit) == ("3 or more", "ge", "")
    # "at least" before the next number is that number's
    first = extract_typed_values("A password must contain 10 characters including at least 3 types.")[0]
    assert (first.text, first.bound.op) == ("10 characters", "eq")
    # hostile: a long run of "or more" costs linear time and reads one bound
    assert len(extract_typed_values("Keep 3 or more " + "or more " * 2000 + "days.")) == 1


@pytest.mark.parametrize("text, op, seconds", [
    ("Auth0 requires at least a week of notice.", "ge", 604800.0),
    ("S3 keeps deleted objects for a year.", "eq", 31536000.0),
    ("EC2 instances restart within an hour.", "le", 3600.0),
])
def test_a_span_said_with_an_article_after_a_name_with_a_digit(text, op, seconds):
    """The digit of a name before it ("Auth0", "S3") was taken for a rate's count ("50,000 keys a day"), so "at least a
    week" was no value at all (``guard bench invariance`` probe "1 week -> a week")."""
    [v] = extract_typed_values(text)
    assert (v.bound.op, v.bound.number, v.bound.unit) == (op, seconds, "time")


def test_a_range_from_one_of_a_unit_said_with_its_article():
    """"between a week and 90 days" was two values, the first exact ("between one week and 90 days" a range)."""
    [v] = extract_typed_values("Deleted objects stay recoverable for between a week and 90 days.")
    assert (v.bound.op, v.bound.number, v.bound.upper) == ("range", 604800.0, 7776000.0)
    assert [v.bound.op for v in extract_typed_values("Keep it for a day and 3 hours.")] == ["eq", "eq"]


@pytest.mark.parametrize("text, version", [
    ("The AWS provider is pinned to `=5.31.0`.", "5.31.0"),
    ("The AWS provider is pinned to `~> 4.67`.", "4.67"),
    ("Terraform must be `>= 1.5.0`.", "1.5.0"),
    ("The minimum supported version is `v1.24.3`.", "v1.24.3"),
])
def test_a_version_in_code_is_a_version(text, version):
    """As a literal a pin in code met no version, so "pinned to `=5.31.0`" and "pinned to =5.40.0" were incomparable;
    the span points at the version itself."""
    [v] = extract_typed_values(text)
    assert (v.kind, v.text, text[v.start:v.end]) == ("version", version, version)


@pytest.mark.parametrize("a, b, kind", [
    ("Passwords must be changed every 90 days.", "Passwords must be rotated every 180 days.", VerdictKind.VALUE_CONFLICT),
    ("API keys are replaced every year.", "API keys are renewed every 90 days.", VerdictKind.VALUE_CONFLICT),
    ("Passwords must be changed every 90 days.", "Passwords must be reset every 90 days.", VerdictKind.CONSISTENT),
])
def test_schedules_of_one_replacement_in_two_words_compare(normalizer_v2, a, b, kind):
    """"changed" is no state verb of its own, so "changed every 90 days" and "rotated every 180 days" were two
    actions' schedules, "same stance"; putting a new one in the old one's place is one action whichever verb says it."""
    assert verdict(normalizer_v2, a, b).kind is kind


def test_schedules_of_two_actions_stay_apart(normalizer_v2):
    assert verdict(normalizer_v2, "Backups run every 6 hours.", "Backups are tested every quarter.").kind \
        is not VerdictKind.VALUE_CONFLICT


@pytest.mark.parametrize("coded", [
    "The `master` branch is unstable and may be broken between releases.",
    "Direct pushes to `main` are blocked.",
    "The `Retry-After` header value is expressed in milliseconds.",
    "The proxy's `client_max_body_size` is 10M.",
    "Changing PostgreSQL `max_connections` requires a server restart.",
])
def test_a_name_in_code_within_the_subject_reads_as_written_plainly(normalizer_v2, coded):
    """A name in backticks that is a word of the subject ("the `master` branch") was taken for a literal value, and
    the statement's attribute became "literal" (or the noun before it); written without the backticks it had the
    attribute it has now."""
    assert norm(normalizer_v2, coded).attribute == norm(normalizer_v2, coded.replace("`", "")).attribute


@pytest.mark.parametrize("text", [
    "A standard week is 35h, Monday to Friday, not counting lunch.",
    "The standard working day is 7.5 hours, excluding lunch.",
    "Every teammate should take no fewer than 15 working days of vacation a year, not including public holidays.",
])
def test_what_a_figure_leaves_out_is_a_qualifier_not_a_negation(normalizer_v2, text):
    """", not counting lunch" after the figure negated the statement: "35h, …, not counting lunch" was a prohibition."""
    import re
    n = norm(normalizer_v2, text)
    assert not n.modality.negated
    assert any(re.match(r"(?:not (?:counting|including)|excluding) ", q) for q in n.qualifiers)
    assert n.bound is not None


@pytest.mark.parametrize("words, digits", [
    ("Data is deleted after at most ninety days.", "Data is deleted after at most 90 days."),
    ("Give thirty days' notice before leaving.", "Give 30 days' notice before leaving."),
    ("Tokens expire after twenty-four hours.", "Tokens expire after 24 hours."),
    ("A long poll waits at most twenty seconds.", "A long poll waits at most 20 seconds."),
    ("Load test requests must be in at least fourteen days before the test.",
     "Load test requests must be in at least 14 days before the test."),
])
def test_a_number_past_twelve_in_words(words, digits):
    """Handbooks write notice periods in words: "ninety days" was a bare word, and "at most 90 days" against "at most
    ninety days" a conflict of a statement with itself (``guard bench invariance``, "tens -> words": 7 conflicts and
    104 bound changes of 125)."""
    assert bound(words) == bound(digits) and bound(words).unit == "time"


def test_number_words_as_one_pattern_end_at_once():
    ends_at_once("from guard.normalize.typed_values import extract_typed_values as x\n"
                 "for t in ('twenty-' * 20000, 'ninety ' * 20000 + 'days', 'seventy-seven-' * 10000 + 'hour'):\n"
                 "    x(t)\n")


def test_one_of_matches_what_the_longest_first_alternation_matches():
    """The number words as a trie (``values.one_of``) find what the plain alternation, longest first, found."""
    import random
    import re

    from guard.normalize.values import WORD_NUMBERS, one_of
    trie = re.compile(r"\b" + one_of(WORD_NUMBERS) + r"\b", re.IGNORECASE)
    plain = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(WORD_NUMBERS, key=len, reverse=True))) + r")\b",
                       re.IGNORECASE)
    rng = random.Random(7)
    words = [*WORD_NUMBERS, "twentieth", "sixtyish", "ninety-ten", "one-", "a", "singles", "-", " ", "Forty-Two"]
    for _ in range(3000):
        text = "".join(rng.choice(words) + rng.choice(("", " ", "-", ",")) for _ in range(rng.randint(1, 6)))
        assert [m.span() for m in trie.finditer(text)] == [m.span() for m in plain.finditer(text)], text


@pytest.mark.parametrize("text", [
    "It is recommended that the PASS_MAX_DAYS parameter be set to 365 days or less.",
    "It is critical that you notify the security team within 1 hour of a suspected incident.",
    "It is preferred that all applications with sensitive data use SSO.",
])
def test_it_s_recommended_that_reads_as_it_is(normalizer_v2, text):
    """"It's recommended that …" kept its wrapper as the statement: no subject (``guard bench invariance``, "it is ->
    it's": 4 of 53)."""
    a, b = norm(normalizer_v2, text), norm(normalizer_v2, text.replace("It is", "It's"))
    assert (b.subject, b.modality, b.bound) == (a.subject, a.modality, a.bound) and a.subject is not None


@pytest.mark.parametrize("plain", [
    "All production deploys need two approvals.",
    "Once soft-delete is enabled on a key vault it cannot be disabled.",
    "Postmortems are blameless.",
])
@pytest.mark.parametrize("lead", ["Going forward, ", "From now on, ", "Effective immediately, ", "To be clear, ",
                                  "TL;DR: "])
def test_when_a_decision_holds_or_how_it_is_told_is_no_subject(normalizer_v2, lead, plain):
    """"Going forward" was the subject of 2,526 of the 2,560 statements so opened, "TL;DR" had a part in 161; a
    condition with no comma after the lead ("Going forward, once soft-delete is enabled … it cannot …") read as the
    rule's own words (``guard bench invariance``)."""
    from guard.claims import comparison_text
    text = lead + (plain[:1].lower() + plain[1:] if lead.endswith(", ") else plain)
    a, b = norm(normalizer_v2, plain), norm(normalizer_v2, comparison_text(text))
    assert (b.subject, b.modality, b.bound) == (a.subject, a.modality, a.bound)


@pytest.mark.parametrize("text, op", [
    ("Reports are due no later than March 1, 2026.", "le"),
    ("CAs must publish no later than 2026-07-01.", "le"),
    ("The migration starts no earlier than 2026-03-01.", "ge"),
])
def test_no_later_than_a_date_is_by_it(text, op):
    """"no later than March 1, 2026" read as the day itself, where "by March 1, 2026" is at most it."""
    b = bound(text)
    assert b.unit == "date" and b.op == op


@pytest.mark.parametrize("adverb, spelled", [
    ("You work 8 hours daily.", "You work 8 hours every day."),
    ("Take 3 backups weekly.", "Take 3 backups per week."),
])
def test_an_amount_and_its_period_as_an_adverb_is_a_rate(adverb, spelled):
    """"8 hours daily" was 8 hours beside a daily schedule, and conflicted with "8 hours every day"."""
    assert bound(adverb).unit.endswith("/time") and bound(adverb).number == pytest.approx(bound(spelled).number)


def test_a_joining_word_is_no_counted_thing():
    """"8589934592 and a nightly defragmentation job" counts nothing nightly."""
    assert bound("Members run with --quota-backend-bytes=8589934592 and a nightly defragmentation job.").unit == ""


@pytest.mark.parametrize("text", [
    "Backups are stored in S3, not on local disk.",
    "Use Vault for secrets, not environment variables.",
    "Deploys are approved by the release manager, not the author.",
    "Alerts page the primary on-call, not the whole team.",
    "Code reviews are required, not optional.",
    "Passwords are rotated every 90 days, not 180.",
])
def test_a_contrast_after_a_comma_does_not_deny_the_rule(normalizer_v2, text):
    """", not X" sets the rule against what it is not; read as the rule's negation, "Backups are stored in S3, not on
    local disk." forbade what "Backups must be stored in S3." requires — a contradiction at HIGH."""
    assert norm(normalizer_v2, text).modality is Modality.MUST
    restated = text.split(", not")[0] + "."
    v = verdict(normalizer_v2, text, restated)
    assert v.kind is not VerdictKind.CONTRADICTION


def test_a_contrast_is_only_a_phrase_without_a_verb(normalizer_v2):
    """A "not" with a verb after it says a second thing of its own ("…, not stored in plain text"), and one without a
    comma before it is the rule's ("Backups are not stored on local disk.")."""
    from guard.normalize.rules import _contrast_phrase
    for text in ("Passwords are hashed, not stored in plain text.", "Backups are not stored on local disk."):
        doc = normalizer_v2.nlp(text)
        assert not any(_contrast_phrase(t) for t in doc), text
    doc = normalizer_v2.nlp("Backups are stored in S3, not on local disk.")
    assert [[doc[i].text for i in _contrast_phrase(t)] for t in doc if _contrast_phrase(t)] == [["not", "on", "local",
                                                                                              "disk"]]
    assert norm(normalizer_v2, "Backups are not stored on local disk.").modality is Modality.MUST_NOT


@pytest.mark.parametrize("a, b, kind", [
    # the contrast names what the other statement says: structure no longer settles them as consistent
    ("Use Vault for secrets, not environment variables.", "Store secrets in environment variables.",
     VerdictKind.UNCERTAIN),
    # what the contrast names is not in the other statement: its restatement is consistent
    ("Backups are stored in S3, not on local disk.", "Backups are stored in S3.", VerdictKind.CONSISTENT),
])
def test_a_statement_that_excludes_what_the_other_names_is_left_to_the_gate(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind
    if kind is VerdictKind.UNCERTAIN:
        assert v.confidence is Confidence.LOW and v.deferred and "excludes" in v.reason


@pytest.mark.parametrize("text, modality", [
    # the particle hung on a word of the thing switched, not on the verb
    ("Turn debug logging off in production.", Modality.MUST_NOT),
    ("The platform team will turn soft delete back off on the vault.", Modality.MUST_NOT),
    ("The team will turn request logging on after the migration.", Modality.MUST),
    # "switch" with its particle is "turn"'s verb of state
    ("Switch the cache back on.", Modality.MUST),
    ("Switch off SSH password authentication.", Modality.MUST_NOT),
    ("Application logging is switched off for the load-test runs.", Modality.MUST_NOT),
])
def test_a_feature_switched_on_or_off_reads_as_enabled_or_disabled(normalizer_v2, text, modality):
    n = norm(normalizer_v2, text)
    assert (n.object, n.modality) == (StateVerb.ENABLE, modality)


def test_a_feature_switched_off_is_no_contradiction_of_it_disabled(normalizer_v2):
    """Read as turning it on, "… will turn soft delete back off …" met "Soft delete will be disabled …" as a
    contradiction at HIGH, and "Soft delete must stay enabled …" as consistent."""
    a = "The platform team will turn soft delete back off on the vault."
    assert verdict(normalizer_v2, a, "Soft delete will be disabled on the vault.").kind is VerdictKind.CONSISTENT
    assert verdict(normalizer_v2, a, "Soft delete must stay enabled on the vault.").kind is VerdictKind.CONTRADICTION
    assert verdict(normalizer_v2, "Switch the cache back on.", "The cache must be switched off.").kind \
        is VerdictKind.CONTRADICTION


@pytest.mark.parametrize("text, modality, subject", [
    # people's own verb of state, done to a bare noun phrase (with "the" it was already read so)
    ("We disabled password authentication.", Modality.MUST_NOT, "password authentication"),
    ("We enabled password authentication.", Modality.MUST, "password authentication"),
    ("We disabled logins.", Modality.MUST_NOT, "login"),
    ("We disabled the password authentication.", Modality.MUST_NOT, "password authentication"),
    # the perfect, "have" the small model's root or left before the state word
    ("We have disabled logins.", Modality.MUST_NOT, "login"),
    ("We have enabled soft delete.", Modality.MUST, "soft delete"),
    # people holding a thing in a state, as the order "Keep … off" does
    ("We keep password authentication off.", Modality.MUST_NOT, "password authentication"),
    ("The team keeps debug logging switched off.", Modality.MUST_NOT, "debug logging"),
    ("We left soft delete disabled on the test vaults.", Modality.MUST_NOT, "soft delete"),
    # a state said of the thing stays what it was
    ("Password authentication is disabled.", Modality.MUST_NOT, "password authentication"),
    ("Logins stay disabled.", Modality.MUST_NOT, "login"),
])
def test_a_report_of_what_people_switched_reads_as_the_state(normalizer_v2, text, modality, subject):
    """A colleague's note says what the team did: "We disabled password authentication." was read as an obligation of
    nothing (the state word taken for "is disabled", its object as the subject) and "We keep password authentication
    off." as keeping (store) — neither met "Password authentication must be enabled." as the contradiction it is."""
    n = norm(normalizer_v2, text)
    assert (n.object, n.modality, n.subject) == (StateVerb.ENABLE, modality, subject)


@pytest.mark.parametrize("text, modality", [
    ("Caching was disabled yesterday.", Modality.MUST_NOT),
    ("Soft delete is disabled tonight for the migration.", Modality.MUST_NOT),
    ("Debug logging was enabled last week.", Modality.MUST),
])
def test_a_noun_of_when_after_a_state_leaves_it_the_state(normalizer_v2, text, modality):
    """"Caching was disabled yesterday." read "disabled yesterday" as a value of "be" (a noun after the state word was
    taken for the thing it describes, as in "is public beta"): an obligation to be it, never met by "Caching must be
    enabled." as the contradiction it is."""
    n = norm(normalizer_v2, text)
    assert (n.object, n.modality) == (StateVerb.ENABLE, modality)
    assert verdict(normalizer_v2, "Caching must be enabled.", "Caching was disabled yesterday.").kind \
        is VerdictKind.CONTRADICTION


def test_a_report_of_what_people_switched_meets_the_rule(normalizer_v2):
    rule = "Password authentication must be enabled on every host."
    for note in ("We disabled password authentication.", "We keep password authentication off."):
        v = verdict(normalizer_v2, rule, note)
        assert v.kind is VerdictKind.CONTRADICTION and v.confidence is Confidence.HIGH, (note, v)
    assert verdict(normalizer_v2, rule, "We enabled password authentication.").kind is VerdictKind.CONSISTENT
    # things that keep other things are not people holding a state
    assert norm(normalizer_v2, "Nginx keeps connections open.").object is not StateVerb.ENABLE


@pytest.mark.parametrize("text", ["Switch to TLS 1.3 for all endpoints.",
                                  "Switch the deploy pipeline to the new runners.",
                                  "Switch the billing job from the old queue on Monday."])
def test_switch_without_its_particle_after_the_thing_is_no_switch_of_state(normalizer_v2, text):
    """"switch to", "switch X to Y" move to something, and an "on" past a preposition is not the switch's."""
    assert norm(normalizer_v2, text).object is not StateVerb.ENABLE


@pytest.mark.parametrize("two, one", [
    ("Do not return secret fields via GET. For example, do not return passwords in JSON.",
     "Do not return secret fields via GET; for example, do not return passwords in JSON."),
    ("Never deploy on Fridays. Do not skip code review either.", "Never deploy on Fridays."),
])
def test_a_second_sentence_does_not_undo_the_first_one_s_negation(normalizer_v2, two, one):
    """The predicate ran on into the second sentence, whose "not" cancelled the first's: "Do not return secret fields
    via GET. For example, do not return …" read as an obligation, and met its one-sentence form as a contradiction."""
    assert norm(normalizer_v2, two).modality is Modality.MUST_NOT
    assert verdict(normalizer_v2, two, one).kind not in (VerdictKind.CONTRADICTION, VerdictKind.TENSION)


def test_a_dot_inside_a_name_is_no_sentence_end(normalizer_v2):
    """"log.Fatal": the small model may start a sentence at "Fatal", but a stop with no space after it ends none."""
    n = norm(normalizer_v2, "Helpers may call log.Fatal directly when config loading fails.")
    assert n.modality is Modality.MAY and "fatal" in (n.theme or "")


def test_a_clause_of_where_the_rule_holds_is_not_its_polarity(normalizer_v2):
    """"even where nothing needs Debian" is a condition, as "even if" is: its "nothing" made the preference a
    dispreference once the comma before it was left out; a relative "where" describes its noun and stays."""
    with_comma = "For new EC2 workloads, we prefer Ubuntu LTS over Amazon Linux, even where nothing needs Debian."
    without = "For new EC2 workloads we prefer Ubuntu LTS over Amazon Linux even where nothing needs Debian."
    assert norm(normalizer_v2, without).modality is norm(normalizer_v2, with_comma).modality is Modality.SHOULD
    assert verdict(normalizer_v2, without, with_comma).kind not in (VerdictKind.CONTRADICTION, VerdictKind.TENSION)
    assert norm(normalizer_v2, "Do not use MD5 in systems where Argon2 is available.").modality is Modality.MUST_NOT


@pytest.mark.parametrize("text, version", [("Node.js 20 or later is required.", "Node.js 20 or later"),
                                           ("Python 3.8 and above are supported.", "Python 3.8 and above"),
                                           ("Node.js 20+ is required.", "Node.js 20+")])
def test_a_version_floor_is_read_with_its_words(text, version):
    assert [v.text for v in extract_typed_values(text) if v.kind == "version"] == [version]


@pytest.mark.parametrize("a, b, conflict", [
    # session 92: a floor was read as its version alone, so a newer version was a HIGH value conflict with it
    ("Node.js 20 or later is required.", "The service runs on Node.js 22.", False),
    ("Node.js 20 or later is required.", "The service runs on Node.js 18.", True),
    ("The service requires Python 3.10+.", "The service runs on Python 3.9.", True),
    ("The service requires Python 3.10 or newer.", "The service runs on Python 3.12.", False),
    # a version its statement calls the least one is a floor too, and two floors that differ conflict (claims_dev)
    ("Node.js 18+ is required.", "Node.js 20 is the minimum supported version.", True),
    # one version said with fewer parts is not the other's floor: "use v1, not v1.0, v1.1" (claims_train)
    ("The API version is v1.", "The API version is v1.2.", True),
])
def test_a_version_floor_holds_every_version_above_it(normalizer_v2, a, b, conflict):
    v = verdict(normalizer_v2, a, b)
    assert (v.kind is VerdictKind.VALUE_CONFLICT) is conflict, v


@pytest.mark.parametrize("a, b, kind", [
    # session 92: a threshold on the subject says which things a rule is about; a case outside it is none of them
    # (each of these was a HIGH value conflict: $500 against $200)
    ("Expenses over $500 need finance approval.", "A $200 expense needs only manager approval.", VerdictKind.CONSISTENT),
    ("Purchases above $1,000 require a director's sign-off.", "A $250 purchase requires a director's sign-off.",
     VerdictKind.CONSISTENT),
    ("Expenses under $50 need no receipt.", "An $80 expense needs no receipt.", VerdictKind.CONSISTENT),
    # a case inside it that says what the rule says keeps it
    ("Expenses over $500 need finance approval.", "A $700 expense needs finance approval.", VerdictKind.CONSISTENT),
    # two thresholds are two values, as before
    ("Expenses over $500 need finance approval.", "Expenses over $1,000 need finance approval.",
     VerdictKind.VALUE_CONFLICT),
])
def test_a_threshold_on_the_subject_against_a_case_of_it(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


@pytest.mark.parametrize("a, b, kind, confidence", [
    # session 92: a switch's state as a value against the verb — "is off" was a "must" with value off, "is disabled"
    # a "must not enable": an opposition at HIGH; "is off" / "is enabled" was the same stance
    ("Telemetry is off.", "Telemetry is disabled.", VerdictKind.CONSISTENT, Confidence.MED),
    ("Telemetry is off by default.", "Telemetry is disabled unless you opt in.", VerdictKind.CONSISTENT, Confidence.MED),
    ("Telemetry is off.", "Telemetry is enabled.", VerdictKind.CONTRADICTION, Confidence.HIGH),
    ("Telemetry is on.", "Telemetry is disabled.", VerdictKind.CONTRADICTION, Confidence.HIGH),
    # "must be off" kept no state at all (the "off" was dropped): now the state, as "is off"
    ("Debug mode must be off in production.", "Debug mode is enabled in production.", VerdictKind.CONTRADICTION,
     Confidence.HIGH),
])
def test_a_switch_said_as_its_state_and_as_its_verb(normalizer_v2, a, b, kind, confidence):
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (kind, confidence), v


def test_a_switch_that_may_be_on_is_not_set_against_one_that_is_off(normalizer_v2):
    v = verdict(normalizer_v2, "Telemetry is off.", "Telemetry may be enabled.")
    assert v.kind is not VerdictKind.CONTRADICTION, v
    assert [v.text for v in extract_typed_values("Engineers must be on call.")] == []
    assert [(v.kind, v.text) for v in extract_typed_values("Debug mode stays on.")] == [("boolean", "on")]


def test_agreeing_values_with_another_quantity_that_differs(normalizer_v2):
    """Session 92: the compared times of day agreed and the days did not, which was "same value", consistent."""
    v = verdict(normalizer_v2, "Maintenance runs on Sundays at 2am UTC.", "Maintenance runs on Saturdays at 2am UTC.")
    assert v.kind is VerdictKind.VALUE_CONFLICT and "Sundays" in v.reason, v
    v = verdict(normalizer_v2, "Maintenance runs on Sundays at 2am UTC.", "Maintenance runs on Sunday at 2am UTC.")
    assert v.kind is VerdictKind.CONSISTENT, v


@pytest.mark.parametrize("a, b, kind", [
    # a part of the world before the subject's noun says which of its things (session 92: related subjects, a value
    # conflict the gate blocked), as "customer data from the EU" does
    ("EU customer data stays in Frankfurt.", "US customer data stays in Virginia.", VerdictKind.COEXIST),
    ("US employees get 15 days of vacation.", "EU employees get 25 days of vacation.", VerdictKind.COEXIST),
    ("EU customer data stays in Frankfurt.", "European customer data stays in Frankfurt.", VerdictKind.CONSISTENT),
])
def test_a_part_of_the_world_before_the_subject_narrows_it(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


@pytest.mark.parametrize("a, b, kind", [
    # session 92: a country is a place within its part of the world, and another country is another place
    ("Payment data is processed in Germany.", "Payment data is processed in the EU.", VerdictKind.CONSISTENT),
    ("Payment data is processed in Germany.", "Payment data is processed in Ireland.", VerdictKind.VALUE_CONFLICT),
    ("Health records are stored only in Australia.", "Health records are stored in ap-southeast-2.", VerdictKind.CONSISTENT),
    ("Payment data is processed in Germany.", "Payment data is processed in eu-west-1.", VerdictKind.VALUE_CONFLICT),
    ("Customer data must stay in the EU.", "Customer data is stored in Brazil.", VerdictKind.VALUE_CONFLICT),
    # where logins come from names which logins, as before: not a place they must be
    ("Logins from Russia are blocked.", "Logins from Germany are allowed.", VerdictKind.COEXIST),
])
def test_a_country_is_a_place_within_its_part_of_the_world(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


@pytest.mark.parametrize("a, b, kind", [
    # session 93: a currency named alone is a value of its own, compared by its code ("issued in euros" was no value,
    # so "in EUR" / "in euros" reached the gate as two statements, which blocked them at NLI 1.00)
    ("Invoices are issued in EUR.", "Invoices are issued in euros.", VerdictKind.CONSISTENT),
    ("Invoices are in GBP.", "Invoices are in USD.", VerdictKind.VALUE_CONFLICT),
    ("Salaries are paid in US dollars.", "Salaries are paid in euros.", VerdictKind.VALUE_CONFLICT),
    # so is the unit a quantity is given in
    ("Distances are shown in kilometres.", "Distances are displayed in miles.", VerdictKind.VALUE_CONFLICT),
    ("Temperatures are shown in Celsius.", "Temperatures are displayed in degrees Celsius.", VerdictKind.CONSISTENT),
    ("Distances are shown in kilometres.", "Distances are shown in km.", VerdictKind.CONSISTENT),
    # session 93: a time zone named alone is a value, UTC and GMT one zone
    ("Reports use the Europe/Berlin time zone.", "All reports are in UTC.", VerdictKind.VALUE_CONFLICT),
    ("Log timestamps are in UTC.", "Log timestamps use GMT.", VerdictKind.CONSISTENT),
    ("The Date header must use Greenwich Mean Time.", "Our Date header is emitted in local time.", VerdictKind.VALUE_CONFLICT),
    # session 93: a working week is five business days, whatever the statements are about ("within 10 business days"
    # against "within two weeks" was a value conflict, 10 days against 14, that the gate blocked)
    ("Post-mortems are published within 10 business days.", "Post-mortems are published within two weeks.",
     VerdictKind.CONSISTENT),
    ("Root cause analyses are published within five business days.", "Root cause analyses are published within a week.",
     VerdictKind.CONSISTENT),
    ("Post-mortems are published within 10 business days.", "Post-mortems are published within one week.",
     VerdictKind.VALUE_CONFLICT),
    # session 93: two teams named before the subject's noun are two subjects (the gate blocked the first at p 0.91)
    ("The mobile team releases every two weeks.", "The web team releases daily.", VerdictKind.COEXIST),
    ("The mobile team releases every two weeks.", "The mobile team releases every week.", VerdictKind.VALUE_CONFLICT),
    # a team that acts on a thing is who acts, not which thing: an owner's conflict stays
    ("The data team owns the warehouse.", "The analytics team owns the warehouse.", VerdictKind.VALUE_CONFLICT),
    # session 96: people of two kinds given one kind of thing get two parts of it ("Managers get 25 vacation days." /
    # "Engineers get 20 …" was one subject's two values, a structural block); everyone said many ways is the class
    # the others' rules are cases of, and two kinds sharing a word may overlap
    ("Managers get 25 vacation days.", "Engineers get 20 vacation days.", VerdictKind.COEXIST),
    ("Interns are not eligible for stock options.", "Full-time engineers receive stock options.", VerdictKind.COEXIST),
    ("Interns are given a laptop.", "Contractors are given a tablet.", VerdictKind.COEXIST),
    ("Employees get 25 vacation days.", "Engineers get 20 vacation days.", VerdictKind.VALUE_CONFLICT),
    ("Managers get 25 vacation days.", "Managers receive 20 vacation days.", VerdictKind.VALUE_CONFLICT),
    ("Junior engineers get a $1,000 training budget.", "Senior engineers get a $3,000 training budget.",
     VerdictKind.VALUE_CONFLICT),
    # session 93: a weekday after "every" says how often too (found on held pairs: "every Sunday" / "nightly" was two
    # kinds of value, the gate's block capped; "every Thursday" / "every other Thursday" one value)
    ("The staging database is reset every Sunday.", "The staging database is reset nightly.", VerdictKind.VALUE_CONFLICT),
    ("Design reviews are held every Thursday.", "Design reviews take place every other Thursday.",
     VerdictKind.VALUE_CONFLICT),
    ("Design reviews are held every Thursday.", "Design reviews take place on Thursdays.", VerdictKind.CONSISTENT),
    ("Backups run every Friday.", "Backups run every Monday.", VerdictKind.VALUE_CONFLICT),
    # session 93: the licence a thing is released under is a value ("released under the Apache-2.0 licence" /
    # "published under the MIT licence" was "same subject, different state", clean)
    ("Our SDK is released under the Apache-2.0 licence.", "The SDK is released under the MIT licence.",
     VerdictKind.VALUE_CONFLICT),
    ("Code is licensed under the Apache License 2.0.", "Code is licensed under Apache 2.0.", VerdictKind.CONSISTENT),
    # session 94: a duration is how long a state lasts, not another thing it holds of: denied after one span and kept
    # for a longer one, the state has two lengths (it was "the negation is of a different value", clean at HIGH)
    ("Idle SSH sessions are closed after 10 minutes.", "SSH sessions stay open indefinitely when idle.",
     VerdictKind.VALUE_CONFLICT),
    # a port or a day denied is still another value
    ("The cache listens on port 6379.", "The cache does not listen on port 6380.", VerdictKind.CONSISTENT),
    # session 94: an operating system's or a browser's release numbered by a whole number is a version, a floor with
    # "and later" (it was a bare number: 16 against 17, blocked)
    ("The app supports iOS 16 and later.", "The app runs on iOS 17.", VerdictKind.CONSISTENT),
    ("Our laptops run Windows 11.", "Our laptops run Windows 10.", VerdictKind.VALUE_CONFLICT),
    # session 94: a count in a span with no noun counts the statement's own thing, how often, and a verb that only
    # bounds it names no action of its own ("one per hour" was a rate of nothing, "limit frequency" another setting)
    ("Deploys are limited to three per day.", "Deploys go out every hour.", VerdictKind.VALUE_CONFLICT),
    ("Bulk exports are limited to one per hour.", "Bulk exports run every two hours.", VerdictKind.CONSISTENT),
    # session 94: the platform's release said as "the X version is N" is that version, a floor where it is the least
    ("The minimum supported iOS version is 16.", "iOS 17 is supported.", VerdictKind.UNKNOWN),
    # session 94: a chat channel named by its hash is where a thing is said, a value
    ("Incidents are announced in #incidents.", "Incidents are announced in #general.", VerdictKind.VALUE_CONFLICT),
    ("Incidents are announced in #incidents.", "Incident updates are posted in the #incidents channel.",
     VerdictKind.CONSISTENT),
])
def test_values_named_by_a_word_and_other_session_readings(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


def test_a_whole_numbered_release_of_a_platform_is_a_version():
    kinds = lambda t: [(v.kind, v.text) for v in extract_typed_values(t)]
    assert kinds("Android 12 or later is required.") == [("version", "Android 12 or later")]
    assert kinds("The app runs on iOS 17.") == [("version", "iOS 17")]
    assert kinds("Chrome 120 is the oldest browser we test.")[0] == ("version", "Chrome 120")
    assert ("version", "ios 3") not in kinds("Radios 3 and 4 are spare.")        # a name's own letters are no platform


def test_the_platform_version_said_as_a_number_is_that_version(normalizer_v2):
    n = normalizer_v2.normalize("The minimum supported iOS version is 15.", Scope(), Window())
    assert (n.value_kind, n.value) == ("version", "iOS 15 or later")
    n = normalizer_v2.normalize("The kiosks' Android version is 13.", Scope(), Window())
    assert (n.value_kind, n.value) == ("version", "Android 13")


@pytest.mark.parametrize("a, b", [
    # session 94: a permission and an obligation of one subject are no one stance (they were "same subject, same
    # stance", consistent, which the gate read against a block)
    ("Breaking changes require a new major API version.", "Breaking changes can ship in a minor API version."),
    ("Engineers must attend the standup.", "Engineers are free to skip the standup."),
])
def test_a_permission_against_an_obligation_is_a_possible_opposition(normalizer_v2, a, b):
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence, v.reason) == (VerdictKind.CONTRADICTION, Confidence.LOW,
                                                "same subject, one permits and the other obliges"), v


def test_a_plain_fact_is_no_obligation_against_a_can(normalizer_v2):
    # a statement of fact reads as a "must" too; only an obligation said in words meets a permission as an opposition
    v = verdict(normalizer_v2, "Support is available 24/7.", "You can reach support at any time, day or night.")
    assert "one permits" not in v.reason, v


def test_a_channel_is_named_by_its_hash_and_a_colour_is_not_one():
    kinds = lambda t: [(v.kind, v.text) for v in extract_typed_values(t)]
    assert kinds("Questions for IT go to #it-help.") == [("channel", "#it-help")]
    assert not any(k == "channel" for k, _ in kinds("The brand colour is #ff0000."))
    assert not any(k == "channel" for k, _ in kinds("Issue #123 is fixed."))


def test_a_limit_said_as_a_permission_and_as_a_cap_still_agrees(normalizer_v2):
    v = verdict(normalizer_v2, "Employees may take up to 10 days of unpaid leave per year.",
                "Unpaid leave is capped at 10 days a year.")
    assert v.kind is not VerdictKind.CONTRADICTION, v


def test_a_count_per_span_with_no_noun_is_how_often():
    bound = lambda t: [(v.kind, v.bound) for v in extract_typed_values(t)]
    assert bound("Bulk exports are limited to one per hour.") == [("frequency", Bound("ge", 3600.0, "period"))]
    assert bound("You can deploy 2 per week.") == [("frequency", Bound("eq", 302400.0, "period"))]
    assert bound("API clients may send 100 requests per minute.")[0][0] == "number"     # a noun counted: a rate of it


def test_currency_and_unit_words_that_are_no_such_value():
    kinds = lambda t: [(v.kind, v.text) for v in extract_typed_values(t)]
    assert ("currency", "EUR") in kinds("The default currency is EUR.")
    assert kinds("The fee is USD 250.")[0][0] == "number"                     # a code before an amount is the amount's
    assert not any(k == "currency" for k, _ in kinds("Parcels are weighed in pounds."))   # a weight, not sterling
    assert not any(k == "measure" for k, _ in kinds("The route is 10 km long."))      # an amount, not a unit named alone
    assert ("measure", "pounds") in kinds("Parcels are weighed in pounds.")


@pytest.mark.parametrize("text, op", [
    # session 93: what a setting can be raised to is the most it may be, not its value; what it was raised to is
    ("The timeout can be raised to 120 seconds.", "le"),
    ("Retention may be increased up to 90 days.", "le"),
    ("The retention can be reduced to 7 days.", "ge"),
    ("The timeout was raised to 120 seconds.", "eq"),
])
def test_what_a_setting_can_be_raised_to_is_a_bound(normalizer_v2, text, op):
    assert norm(normalizer_v2, text).bound.op == op


def test_a_default_against_what_it_can_be_raised_to(normalizer_v2):
    """"The default timeout is 30 seconds." / "The timeout can be raised to 120 seconds." was a value conflict (30
    against 120) that the gate blocked at NLI 1.00."""
    v = verdict(normalizer_v2, "The default timeout is 30 seconds.", "The timeout can be raised to 120 seconds.")
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v
    v = verdict(normalizer_v2, "The timeout is 150 seconds.", "The timeout can be raised to 120 seconds.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


@pytest.mark.parametrize("text, minutes", [
    # session 93: the part of the day said in words is the hour it names (it was the bare number 10)
    ("Core hours start at 10 in the morning and end at 3pm.", 600),
    ("Support closes at 5 in the afternoon.", 1020),
    ("The shop closes at 8:30 in the evening.", 1230),
])
def test_an_hour_with_its_part_of_the_day_in_words_is_a_time_of_day(text, minutes):
    clock = [v for v in extract_typed_values(text) if v.kind == "clock"]
    assert clock and clock[0].bound.number == minutes, clock


def test_core_hours_said_in_words_and_in_figures_agree(normalizer_v2):
    v = verdict(normalizer_v2, "Core hours are 10am to 3pm.", "Core hours start at 10 in the morning and end at 3pm.")
    assert v.kind is VerdictKind.CONSISTENT, v
    v = verdict(normalizer_v2, "Core hours are 10am to 3pm.", "Core hours start at 9 in the morning and end at 3pm.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


def test_a_zone_after_a_time_of_day_or_before_offset_is_no_zone_of_its_own():
    kinds = lambda t: [(v.kind, v.text) for v in extract_typed_values(t)]
    assert kinds("Backups run at 02:00 UTC.") == [("clock", "02:00 UTC")]
    assert not any(k == "timezone" for k, _ in kinds("Timestamps are written with the UTC offset stripped."))


@pytest.mark.parametrize("text, subject", [
    # session 93: a rule for managers is about what they act on, as one for admins or employees is
    ("Line managers can sign off up to five days of paid compassionate leave without involving a director.",
     "paid compassionate leave"),
    ("Managers approve vacation requests in Rippling before the time off starts.", "vacation request"),
    ("Managers hold one-on-ones once a month.", "one-on-ones"),
])
def test_a_rule_for_managers_is_about_what_they_act_on(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


def test_how_often_managers_hold_a_meeting_meets_how_often_it_happens(normalizer_v2):
    v = verdict(normalizer_v2, "One-on-ones happen weekly.", "Managers hold one-on-ones once a month.")
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


def test_the_day_stays_the_value_beside_how_often_it_recurs(normalizer_v2):
    n = norm(normalizer_v2, "Backups run every Friday.")
    assert (n.value_kind, n.value) == ("weekday", "Friday")
    assert ("frequency", "every Friday") in [(k, t) for k, t, _ in n.values]
    # no how often where no "every" says it
    assert not any(k == "frequency" for k, _, _ in norm(normalizer_v2, "No deploys on Fridays.").values)


@pytest.mark.parametrize("text, licence", [
    ("Contributions are accepted only under Apache-2.0.", "Apache-2.0"),
    ("The docs are published under CC BY 4.0.", "CC BY 4.0"),
    ("The SDK is published under the BSD-3-Clause license.", "BSD-3-Clause"),
    ("Staff work under MIT rules.", None),                          # no licence: a bare "MIT" before a noun
    ("GPL-licensed dependencies are denied.", None),                 # which things, not a licence they are under
])
def test_which_words_after_under_are_a_licence(text, licence):
    found = [v.text for v in extract_typed_values(text) if v.kind == "licence"]
    assert found == ([licence] if licence else []), found


@pytest.mark.parametrize("text, subject", [
    # session 95: a plural subject's verb the small model tags a base form ("happen"/VB) was no pivot, so the plural
    # ("reviews", a verb in the lists) was the verb and the subject "code"
    ("Code reviews happen twice a week.", "code review"),
    ("Performance reviews happen every year.", "performance review"),
    ("Incident reviews take place within five business days.", "incident review"),
    # session 95: a verb the small model took for a noun, before a condition with a verb of its own
    ("An alert fires when CPU stays above 90% for 5 minutes.", "alert"),
    ("Disk alerts fire once a volume is 95% full.", "disk alert"),
    # session 95: how long a thing takes, said with the extraposed "it"
    ("It takes up to three weeks for a refund to be processed.", "refund"),
    ("It can take a week for refunds to arrive.", "refund"),
    # session 95: a noun the lists also know as a verb, the subject of a verb that is only one: a statement, no order
    ("Support responds within 4 hours.", "support"),
    ("Review happens weekly.", "review"),
])
def test_the_subject_of_a_verb_the_small_model_misread(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


def test_what_stays_as_it_was_read(normalizer_v2):
    # "after" is a preposition as often as a subordinator: the plural before it stays the subject's
    n = norm(normalizer_v2, "Re-processing old erasure requests after a restore is optional.")
    assert n.subject == "re-processing old erasure request"
    # an order whose first word is no noun stays an order
    n = norm(normalizer_v2, "Send logs to the Datadog intake uncompressed.")
    assert (n.subject, n.object) == ("log", StateVerb.SEND)


@pytest.mark.parametrize("a, b, kind", [
    ("Performance reviews happen twice a year.", "We run performance reviews once a year.", VerdictKind.VALUE_CONFLICT),
    ("Refunds are processed within 5 business days.", "It takes up to three weeks for a refund to be processed.",
     VerdictKind.VALUE_CONFLICT),
])
def test_misread_subjects_read_again_meet_their_counterparts(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


@pytest.mark.parametrize("text, span", [
    # session 95: a span of the day is one value, from its first time to its last (it was its first time alone)
    ("The office is open from 8am to 6pm.", (480, 1080)),
    ("Our in-hours support window is 09:00 to 17:30, Monday to Friday.", (540, 1050)),
    ("Our in-hours support window is 9am to 17:30, Monday to Friday.", (540, 1050)),     # two styles in one span
    ("Open 1:30 to 5pm.", (810, 1020)),
    ("Deploys are allowed between 9am and 5pm on weekdays.", (540, 1020)),
    ("Support is staffed 9 to 5pm.", (540, 1020)),
    ("Office hours are 11-1pm.", (660, 780)),
    ("The night shift runs from 10pm to 6am.", (1320, 360)),
    # working hours said bare: a morning hour to an afternoon one
    ("Support is staffed 9 to 5 on weekdays.", (540, 1020)),
    ("The office is open 8-6.", (480, 1080)),
])
def test_a_span_of_the_day_is_one_value(text, span):
    [v] = [v for v in extract_typed_values(text) if v.kind == "clock"]
    assert (v.bound.op, v.bound.number, v.bound.upper) == ("range", *span), v


@pytest.mark.parametrize("text", ["Standups are at 9am and 5pm.", "Tests 2-4 fail.", "Scale from 9 to 5 nodes.",
                                  "The vote was 9 to 5 in favour.", "Rated 9 to 5 stars.", "Tests 2 to 4 pass."])
def test_what_is_no_span_of_the_day(text):
    assert not any(v.kind == "clock" and v.bound is not None and v.bound.op == "range" for v in extract_typed_values(text))


@pytest.mark.parametrize("a, b, kind", [
    ("The office is open from 8am to 6pm.", "The office is open from 8am to 5pm.", VerdictKind.VALUE_CONFLICT),
    ("The office is open from 8am to 6pm.", "The office closes at 5pm.", VerdictKind.VALUE_CONFLICT),
    ("The office is open from 8am to 6pm.", "The office closes at 6pm.", VerdictKind.CONSISTENT),
    ("The support desk is open 8am to 6pm.", "The support desk opens at 9am.", VerdictKind.VALUE_CONFLICT),
    ("The night shift runs from 10pm to 6am.", "The night shift ends at 7am.", VerdictKind.VALUE_CONFLICT),
    # a time inside the span is a time of it, and what else each says still differs
    ("Maintenance windows are on Sundays from 2am to 4am UTC.", "Maintenance runs on Saturdays at 2am UTC.",
     VerdictKind.VALUE_CONFLICT),
    ("Quiet hours are 10pm to 7am.", "Quiet hours are 11pm to 7am.", VerdictKind.VALUE_CONFLICT),
    # when it opens and when it closes are two times of one day (they were 7am against 7pm, a structural block)
    ("The help desk opens at 7am.", "The help desk closes at 7pm.", VerdictKind.CONSISTENT),
    ("The help desk opens at 7am.", "The help desk opens at 9am.", VerdictKind.VALUE_CONFLICT),
])
def test_a_span_of_the_day_against_another_and_against_its_ends(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


@pytest.mark.parametrize("a, b", [
    # session 95: the whole day is a span of it, so office hours are another span
    ("Support is available 24/7.", "Support is available from 9am to 5pm."),
    ("The NOC is staffed around the clock.", "The NOC is staffed 8am to 8pm."),
    ("The help desk is staffed 24 hours a day.", "The help desk closes at 6pm."),
    ("Support is staffed 9 to 5 on weekdays.", "Support is available around the clock."),
    # session 96: "day or night", "day and night", "at all hours" are the whole day too
    ("The hotline is staffed day and night.", "The hotline is staffed from 8am to 8pm."),
    ("The help desk answers at all hours.", "The help desk answers between 9am and 5pm."),
])
def test_the_whole_day_against_part_of_it(normalizer_v2, a, b):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is VerdictKind.VALUE_CONFLICT, v


def test_the_whole_day_said_two_ways_is_one_value_and_a_shift_s_name_is_none(normalizer_v2):
    v = verdict(normalizer_v2, "Support is available 24/7.", "You can reach support at any time, day or night.")
    assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH), v
    assert not [x for x in extract_typed_values("Nurses work day and night shifts.") if x.kind == "clock"]


def test_an_amount_against_what_is_done_with_it_is_no_opposition(normalizer_v2):
    # session 95: "gets $1,000" has no state word, which was a wildcard against "does not carry over": an opposing
    # modality on one state, a structural block at MED
    v = verdict(normalizer_v2, "Every employee gets a $1,000 yearly learning budget.",
                "Unused learning budget does not carry over to the next year.")
    assert v.kind is not VerdictKind.CONTRADICTION, v


@pytest.mark.parametrize("text, subject", [
    # session 95: the thing counted in a rate that is a person's whole object is what the rule is about (it was the
    # people, "employee", the subject of every other rule for them), as it is without the rate's span
    ("Employees get 8 public holidays a year.", "public holiday"),
    ("Staff receive 20 sick days a year.", "sick day"),
    ("Employees get 8 public holidays.", "public holiday"),
    # a count of a bare unit names no thing: the people's rule stays theirs
    ("Employees work 40 hours a week.", "employee"),
    ("Team members should take 12 days off a year.", "team member"),
])
def test_what_a_rate_given_to_people_counts_is_the_subject(normalizer_v2, text, subject):
    assert norm(normalizer_v2, text).subject == subject


def test_a_part_of_the_day_recurs_daily():
    [v] = [v for v in extract_typed_values("Backups run every morning.") if v.kind == "frequency"]
    assert v.bound.number == 86400


@pytest.mark.parametrize("a, b, kind", [
    # session 95: what someone is given is all they get, so "unlimited" and a given amount cannot both hold; a plain
    # amount under no limit still can
    ("Sick days are unlimited.", "Employees get 10 sick days per year.", VerdictKind.VALUE_CONFLICT),
    ("Vacation is unlimited.", "Employees get 25 days of vacation.", VerdictKind.VALUE_CONFLICT),
    ("The log group has no limit on log streams.", "The log group holds 50 log streams.", VerdictKind.CONSISTENT),
])
def test_an_allowance_against_no_limit(normalizer_v2, a, b, kind):
    v = verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


@pytest.mark.parametrize("text, main", [
    # session 95: a relative clause between commas after a leading phrase is the phrase's aside (read as a trailing
    # clause it took the rule with it, and "During the annual code freeze." was the statement)
    ("During the annual code freeze, which runs from December 15 to January 5, only security fixes may be deployed to "
     "production.", "Only security fixes may be deployed to production."),
    ("For contractors, who are paid hourly, overtime is not allowed.", "Overtime is not allowed."),
])
def test_a_relative_aside_after_a_leading_phrase_is_the_phrase_s(text, main):
    assert split_main_clause(text)[0] == main


def test_a_relative_clause_whose_comma_opens_a_list_is_no_aside():
    main, quals = split_main_clause("In our API, which supports JSON, XML, and CSV, errors are returned as JSON.")
    assert "XML" not in main


def test_session_95s_readings_on_hostile_text_end_at_once():
    """The extraposed "it takes … for …", the span-of-the-day patterns and session 96's month ends and whole days on
    long repetitive text: bounded, so a
    claim of many "for"s or spaces cannot make them backtrack for seconds (an unbounded "it takes" took 1.75 s)."""
    code = ("from guard.normalize.rules_v2 import split_main_clause as s\n"
            "from guard.normalize.typed_values import extract_typed_values as e\n"
            "import time\n"
            "t0 = time.time()\n"
            "s('It takes ' + 'for a ' * 5000 + 'end.')\n"
            "s('During the x, which ' + 'a ' * 20000 + ', only y.')\n"
            "for t in ['9' + ' ' * 40000 + 'to 5', '9 to 5 ' * 5000, '9am' + ' ' * 40000 + 'to 5pm', '24/7 ' * 8000,\n"
            "          'the end of ' * 8000 + 'March', 'day ' + ' ' * 40000 + 'or night', 'day and night ' * 5000]:\n"
            "    e(t)\n"
            "assert time.time() - t0 < 10, time.time() - t0\n")
    ends_at_once(code)
