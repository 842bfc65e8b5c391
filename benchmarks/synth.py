"""Synthetic claim stores of any size, with planted conflicts, for speed and scale benchmarks.

Claims are built from services × settings × scopes so subjects repeat the way they do in a real
store (many claims per service, a few per setting). Each planted conflict restates a setting of
an existing claim with another value, or negates a rule, in an overlapping scope; its id is
recorded so recall can be measured.

Every claim carries one fixed ``created_at``: a store lists its claims by ``created_at`` (to the
second), then by insertion, and a scan lets the earlier claim play "existing". With the default
(the clock when each Claim was made) a 100k list took four seconds to build and the planted
conflicts, made last and then shuffled in, moved ahead of or behind their neighbours according to
where the second boundaries fell — so two builds of one store scanned with different pair
directions (35,227 vs 35,270 warns at 100k). A fixed stamp keeps the store in the list's order.
"""
from __future__ import annotations

import random
import zlib

from guard.claims import Claim, Scope, Window

SETTINGS = [
    ("listens on port", lambda r: str(r.choice([80, 443, 3000, 5432, 6379, 8000, 8080, 8443, 9000, 9443]))),
    ("request timeout is", lambda r: f"{r.choice([1, 2, 5, 10, 30, 60])} seconds"),
    ("logs are retained for", lambda r: f"{r.choice([7, 14, 30, 90, 180, 365])} days"),
    ("runs", lambda r: f"{r.choice([1, 2, 3, 4, 6, 8, 12])} replicas"),
    ("is deployed in", lambda r: r.choice(["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-south-1"])),
    ("uses Python", lambda r: r.choice(["3.9", "3.10", "3.11", "3.12"])),
    ("requires TLS", lambda r: r.choice(["1.2", "1.3"])),
    ("connection pool size is", lambda r: str(r.choice([5, 10, 20, 50, 100]))),
    ("rate limit is", lambda r: f"{r.choice([100, 500, 1000, 5000])} requests per minute"),
    ("cache entries expire after", lambda r: f"{r.choice([1, 5, 15, 30, 60])} minutes"),
]
RULES = [
    "store secrets in environment files", "expose the admin endpoint publicly", "skip code review for hotfixes",
    "log request bodies", "run database migrations during business hours", "call internal APIs without authentication",
    "deploy on Fridays", "use personal access tokens in CI", "share its database with other services",
    "send emails without unsubscribe links",
]
WORDS = ["billing", "auth", "search", "orders", "catalog", "payments", "profile", "inventory", "shipping", "notify",
         "ledger", "gateway", "reports", "media", "pricing", "session", "audit", "export", "import", "ranking"]
KINDS = ["api", "service", "worker", "cron", "proxy", "db", "queue", "frontend"]
ENVS = [None, "prod", "staging", "dev"]
CREATED_AT = "2024-01-01T00:00:00+00:00"


def _service(i: int) -> str:
    return f"{WORDS[i % len(WORDS)]}-{KINDS[(i // len(WORDS)) % len(KINDS)]}-{i // (len(WORDS) * len(KINDS))}"


def make_store(n: int, conflict_rate: float = 0.01, seed: int = 7) -> tuple[list[Claim], set[tuple[str, str]]]:
    """``n`` claims and the set of planted (original id, conflicting id) pairs."""
    rng = random.Random(seed)
    n_services = max(10, n // 6)
    claims: list[Claim] = []
    planted: set[tuple[str, str]] = set()
    n_conf = int(n * conflict_rate)
    while len(claims) < n - n_conf:
        svc = _service(rng.randrange(n_services))
        team = f"team-{zlib.crc32(svc.encode()) % 40}"
        env = rng.choice(ENVS)
        # one value per (service, setting) and one polarity per (service, rule): restatements agree
        fixed = random.Random(f"{svc}/{rng.randrange(10)}")
        if rng.random() < 0.7:
            head, val = SETTINGS[fixed.randrange(len(SETTINGS))]
            text = f"The {svc} {head} {val(random.Random(svc + head))}."
        else:
            rule = RULES[fixed.randrange(len(RULES))]
            text = f"The {svc} must {'not ' if random.Random(svc + rule).random() < 0.6 else ''}{rule}."
        claims.append(Claim(text=text, scope=Scope(env=env, team=team), id=f"s{len(claims):06d}",
                            window=Window.parse("2024-01-01", None), created_at=CREATED_AT))
    for k in range(n_conf):
        base = claims[rng.randrange(len(claims))]
        t = base.text
        if " must not " in t:
            new = t.replace(" must not ", " must ")
        elif " must " in t:
            new = t.replace(" must ", " must not ")
        else:
            head, val = next((h, v) for h, v in SETTINGS if f" {h} " in t)
            old_val = t.split(f" {head} ", 1)[1].rstrip(".")
            new_val = old_val
            while new_val == old_val:
                new_val = val(rng)
            new = t.replace(f" {head} {old_val}.", f" {head} {new_val}.")
        c = Claim(text=new, scope=base.scope, id=f"x{k:06d}", window=Window.parse("2025-01-01", None),
                  created_at=CREATED_AT)
        claims.append(c)
        planted.add((base.id, c.id))
    rng.shuffle(claims)
    return claims, planted
