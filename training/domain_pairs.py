"""Synthetic claim-domain NLI pairs from hand-written templates.

Why: public NLI corpora are about pictures of people and news prose; the gate judges rules and
settings. These pairs teach the shapes that matter here — the same setting with another value
contradicts, a rule and its prohibition contradict, the same shape about a *different* subject is
neutral (the failure mode of raw NLI). Written for this project; nothing comes from the claims
dev set, which stays an evaluation set.
"""
from __future__ import annotations

import random

from training.data import Pair

ACTORS = [
    "Contributors", "Maintainers", "Service owners", "On-call engineers", "Release managers",
    "Database administrators", "Interns", "External vendors", "CI jobs", "Deploy bots",
    "Mobile clients", "Partner integrations", "Data scientists", "Support agents", "Batch workers",
]
ACTIONS = [
    ("push directly to the main branch", "pushing directly to the main branch"),
    ("merge their own pull requests", "merging their own pull requests"),
    ("store secrets in environment files", "storing secrets in environment files"),
    ("access production databases", "accessing production databases"),
    ("deploy on Fridays", "deploying on Fridays"),
    ("use personal API tokens", "using personal API tokens"),
    ("run migrations during business hours", "running migrations during business hours"),
    ("disable TLS verification", "disabling TLS verification"),
    ("share customer exports over email", "sharing customer exports over email"),
    ("skip code review for hotfixes", "skipping code review for hotfixes"),
    ("log request bodies", "logging request bodies"),
    ("install unvetted dependencies", "installing unvetted dependencies"),
    ("rotate credentials manually", "rotating credentials manually"),
    ("open ports to the internet", "opening ports to the internet"),
    ("cache user sessions in memory", "caching user sessions in memory"),
    ("call internal APIs without authentication", "calling internal APIs without authentication"),
    ("create public storage buckets", "creating public storage buckets"),
    ("edit infrastructure by hand", "editing infrastructure by hand"),
]
SETTINGS = [
    ("The API gateway listens on port", ["443", "8443", "8080", "9000", "3000"], ""),
    ("Session tokens expire after", ["15", "30", "60", "120"], " minutes"),
    ("Audit logs are retained for", ["30", "90", "180", "365"], " days"),
    ("The minimum TLS version is", ["1.0", "1.1", "1.2", "1.3"], ""),
    ("Pull requests need", ["one", "two", "three"], " approving reviews"),
    ("The default region is", ["us-east-1", "eu-west-1", "ap-south-1", "us-west-2"], ""),
    ("The primary brand colour is", ["blue", "green", "orange", "purple"], ""),
    ("Backups run every", ["6", "12", "24"], " hours"),
    ("The build uses Python", ["3.9", "3.10", "3.11", "3.12"], ""),
    ("The rate limit is", ["100", "500", "1000", "5000"], " requests per minute"),
    ("Passwords must be at least", ["8", "12", "16"], " characters long"),
    ("The canary receives", ["1%", "5%", "10%", "25%"], " of traffic"),
    ("Release branches are named", ["release/<version>", "rel-<version>", "v<version>"], ""),
    ("Only accounts on", ["example.com", "corp.example.org", "acme.io"], " may sign up"),
    ("The database connection pool size is", ["10", "20", "50", "100"], ""),
    ("The log format is", ["JSON", "plain text", "logfmt"], ""),
    ("The staging cluster runs Kubernetes", ["1.27", "1.28", "1.29", "1.30"], ""),
    ("Invoices are due within", ["14", "30", "45", "60"], " days"),
]
OTHER_SETTINGS = [
    "The on-call rotation changes every week.", "Error budgets are reviewed monthly.",
    "The docs site is built with MkDocs.", "Feature flags live in LaunchDarkly.",
    "Metrics are scraped by Prometheus.", "The mobile app supports offline mode.",
    "Onboarding takes two weeks.", "Incident reviews are published internally.",
    "The data warehouse is refreshed nightly.", "Support tickets are triaged within a day.",
]
ANTONYMS = [
    ("enabled", "disabled"), ("public", "private"), ("mandatory", "optional"),
    ("synchronous", "asynchronous"), ("automatic", "manual"), ("encrypted", "stored in plain text"),
    ("allowed", "forbidden"), ("supported", "unsupported"), ("stable", "experimental"),
    ("pinned to an exact version", "allowed to float to the latest version"),
    ("blocking", "advisory only"), ("read-only", "writable"), ("internal", "exposed to the internet"),
    ("recommended", "deprecated"), ("strict", "lenient"), ("on by default", "off by default"),
]
THINGS = [
    "Two-factor authentication", "The admin dashboard", "Request logging", "The payments API",
    "Schema migrations", "The metrics endpoint", "Dependency updates", "The staging bucket",
    "Commit signing", "The legacy SOAP endpoint", "Config reloads", "The search index",
    "Password resets", "The build cache", "Webhook delivery", "The internal wiki",
]


def _modal_pairs(rng: random.Random) -> list[Pair]:
    out = []
    for actor in ACTORS:
        for verb, gerund in rng.sample(ACTIONS, 6):
            pos = [f"{actor} must {verb}.", f"{actor} are required to {verb}.",
                   f"{actor} may {verb}.", f"{actor} are allowed to {verb}."]
            neg = [f"{actor} must not {verb}.", f"{actor} must never {verb}.",
                   f"{gerund.capitalize()} is forbidden for {actor.lower()}.",
                   f"{actor} are not allowed to {verb}."]
            out.append(Pair(rng.choice(pos), rng.choice(neg), "contradiction", "domain:modal"))
            out.append(Pair(pos[0], pos[1], "entailment", "domain:modal"))
            out.append(Pair(neg[0], rng.choice(neg[1:]), "entailment", "domain:modal"))
            other_verb = rng.choice([a for a in ACTIONS if a[0] != verb])[0]
            out.append(Pair(rng.choice(pos), f"{actor} must not {other_verb}.", "neutral", "domain:modal"))
            other_actor = rng.choice([a for a in ACTORS if a != actor])
            out.append(Pair(f"{actor} may {verb}.", f"{other_actor} must {verb}.", "neutral",
                            "domain:modal"))
    return out


def _value_pairs(rng: random.Random) -> list[Pair]:
    out = []
    for head, values, unit in SETTINGS:
        for _ in range(12):
            a, b = rng.sample(values, 2)
            out.append(Pair(f"{head} {a}{unit}.", f"{head} {b}{unit}.", "contradiction", "domain:value"))
            out.append(Pair(f"{head} {a}{unit}.", f"As configured, {head[0].lower() + head[1:]} {a}{unit}.",
                            "entailment", "domain:value"))
            h2, v2, u2 = rng.choice([s for s in SETTINGS if s[0] != head])
            out.append(Pair(f"{head} {a}{unit}.", f"{h2} {rng.choice(v2)}{u2}.", "neutral", "domain:value"))
            out.append(Pair(f"{head} {a}{unit}.", rng.choice(OTHER_SETTINGS), "neutral", "domain:value"))
    return out


def _antonym_pairs(rng: random.Random) -> list[Pair]:
    out = []
    for thing in THINGS:
        for pos, neg in rng.sample(ANTONYMS, 5):
            a, b = (pos, neg) if rng.random() < 0.5 else (neg, pos)
            out.append(Pair(f"{thing} is {a}.", f"{thing} is {b}.", "contradiction", "domain:antonym"))
            out.append(Pair(f"{thing} is {a}.", f"{thing} is not {b}.", "entailment", "domain:antonym"))
            out.append(Pair(f"{thing} is {a}.", f"{thing} is {a} in every environment.", "entailment",
                            "domain:antonym"))
            other = rng.choice([t for t in THINGS if t != thing])
            out.append(Pair(f"{thing} is {a}.", f"{other} is {b}.", "neutral", "domain:antonym"))
    return out


def _bound_pairs(rng: random.Random) -> list[Pair]:
    out = []
    items = [("Test coverage", "%"), ("Response time", " ms"), ("Batch size", " records"),
             ("Retention", " days"), ("Commit subject length", " characters"), ("Page size", " items")]
    for name, unit in items:
        for _ in range(10):
            lo, hi = sorted(rng.sample(range(5, 200, 5), 2))
            out.append(Pair(f"{name} must be at most {lo}{unit}.", f"{name} must be at least {hi}{unit}.",
                            "contradiction", "domain:bound"))
            out.append(Pair(f"{name} must be at least {hi}{unit}.", f"{name} of {lo}{unit} is acceptable.",
                            "contradiction", "domain:bound"))
            out.append(Pair(f"{name} must be at most {hi}{unit}.", f"{name} of {lo}{unit} is acceptable.",
                            "entailment", "domain:bound"))
    return out


def generate(seed: int = 13) -> list[Pair]:
    """All synthetic domain pairs, shuffled with a fixed seed so a run can be repeated."""
    rng = random.Random(seed)
    pairs = _modal_pairs(rng) + _value_pairs(rng) + _antonym_pairs(rng) + _bound_pairs(rng)
    rng.shuffle(pairs)
    return pairs


CATEGORIES = [
    ("data stores", ["the orders database", "the analytics warehouse", "the session cache", "the audit log bucket"]),
    ("production services", ["the payments API", "the search service", "the checkout worker", "the auth gateway"]),
    ("container images", ["the base image", "the nginx image", "the worker image", "the CI runner image"]),
    ("admin endpoints", ["the metrics dashboard", "the feature-flag console", "the billing admin page"]),
    ("dependencies", ["the logging library", "the HTTP client", "the ORM", "the JSON parser"]),
    ("commits", ["release commits", "merge commits", "bot commits", "hotfix commits"]),
]
STATES = [  # (positive frame, negative frame) written as predicates
    ("are in private subnets", "sits in a public subnet"),
    ("must be encrypted at rest", "stores its data in plaintext"),
    ("must be pinned to exact versions", "floats on the latest version"),
    ("are only reachable from the VPN", "is open to the whole internet"),
    ("must be signed", "is pushed unsigned"),
    ("run with read-only file systems", "writes to its root file system"),
    ("require authentication", "accepts anonymous requests"),
    ("are deployed automatically", "is deployed by hand"),
    ("are reviewed before merge", "is merged without review"),
    ("log in JSON", "logs plain text lines"),
]
PAIRS_REQ = [("MFA", "VPN access"), ("a code review", "merging to main"), ("a change ticket", "production deploys"),
             ("a signed CLA", "external contributions"), ("manager approval", "access to payroll data"),
             ("a security review", "new public endpoints")]


def _cap(s: str) -> str:
    return s[0].upper() + s[1:]


def _general_specific(rng: random.Random) -> list[Pair]:
    """A rule about a category against one member: the member breaking it contradicts, a member of
    another category is neutral, the member following it is entailed."""
    out = []
    for cat, members in CATEGORIES:
        for pos, neg in rng.sample(STATES, 6):
            m = rng.choice(members)
            out.append(Pair(f"All {cat} {pos}.", f"{_cap(m)} {neg}.", "contradiction", "domain:general"))
            other_cat, other_members = rng.choice([c for c in CATEGORIES if c[0] != cat])
            om = rng.choice(other_members)
            out.append(Pair(f"All {cat} {pos}.", f"{_cap(om)} {neg}.", "neutral", "domain:general"))
            out.append(Pair(f"{_cap(cat)} must never be left in a state where they do not follow this: {pos}.",
                            f"{_cap(m)} {neg}.", "contradiction", "domain:general"))
    return out


def _requirement_pairs(rng: random.Random) -> list[Pair]:
    out = []
    for x, y in PAIRS_REQ:
        out.append(Pair(f"{_cap(x)} is required for {y}.", f"{_cap(y)} does not need {x}.",
                        "contradiction", "domain:require"))
        out.append(Pair(f"{_cap(x)} is required for {y}.", f"{_cap(y)} requires {x}.",
                        "entailment", "domain:require"))
        out.append(Pair(f"{_cap(x)} is required for {y}.", f"{_cap(x)} is optional for {y}.",
                        "contradiction", "domain:require"))
        ox, oy = rng.choice([p for p in PAIRS_REQ if p != (x, y)])
        out.append(Pair(f"{_cap(x)} is required for {y}.", f"{_cap(oy)} does not need {ox}.",
                        "neutral", "domain:require"))
    return out


def _negated_paraphrases(rng: random.Random) -> list[Pair]:
    """The same rule said with and without a negation is entailment, not contradiction."""
    out = []
    for thing in THINGS:
        for pos, neg in rng.sample(ANTONYMS, 3):
            out.append(Pair(f"{thing} must be {pos}.", f"{thing} must never be {neg}.", "entailment", "domain:negpara"))
            out.append(Pair(f"{thing} must not be {neg}.", f"{thing} is always {pos}.", "entailment", "domain:negpara"))
    return out


def generate_v2(seed: int = 13) -> list[Pair]:
    rng = random.Random(seed + 1)
    pairs = generate(seed) + _general_specific(rng) + _requirement_pairs(rng) + _negated_paraphrases(rng)
    rng.shuffle(pairs)
    return pairs
