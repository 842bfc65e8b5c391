"""Blocks on a store of short claims whose conflicts are known: the synthetic store of
``benchmarks.synth`` (one value per service and setting, one polarity per service and rule, so
two ordinary claims never conflict; the planted claims each contradict one of them).

Why beside the pair benchmark: claims_train and claims_dev are long-prose pairs, while the stores
agents write are short claims ("The search-api-0 runs 6 replicas."), on which the NLI model's
contradiction scores run high. Session 11 measured a structural change that was neutral on both
pair sets and more than doubled the blocks of this store (155 → 340 of 2,000 claims); only a scan
of short claims shows that. Run by ``guard bench stages`` (``--short-claims N``).
"""
from __future__ import annotations

import time
from collections import Counter


def short_claim_store(n: int = 2000, seed: int = 7, profile: str = "accurate", examples: int = 3) -> dict:
    """Scan the synthetic store of ``n`` claims with ``profile`` and count: planted conflicts blocked;
    blocks between two ordinary claims (false by construction), per 1,000 claims and by the stage
    that decided; blocks that involve a planted claim beyond its planted pair (it contradicts the
    base claim's restatements too, so these are not judged)."""
    from benchmarks.synth import make_store
    from guard.pipeline import Guard, GuardConfig
    from guard.scan import ScanConfig, Scanner
    claims, planted = make_store(n, seed=seed)
    planted_ids = {b for _, b in planted}
    want = {frozenset(p) for p in planted}
    guard = Guard(GuardConfig.profile(profile))
    t = time.perf_counter()
    cfg = ScanConfig(progress=False)
    if profile == "fast":                  # no bi-encoder there: structural candidates only
        cfg.neighbours = 0
    rep = Scanner(guard, cfg).scan(claims)
    wall = time.perf_counter() - t
    blocks = [f for f in rep.findings if f["tier"] == "block"]
    pair = lambda f: frozenset((f["existing_id"], f["incoming_id"]))    # noqa: E731
    ordinary = [f for f in blocks if not pair(f) & planted_ids]
    found = {pair(f) for f in blocks} & want
    return {
        "claims": len(claims), "profile": profile, "seed": seed, "scan_seconds": round(wall, 1),
        "planted": len(want), "planted_blocked": len(found),
        "planted_recall": round(len(found) / max(1, len(want)), 3),
        "false_blocks_ordinary": len(ordinary),
        "false_blocks_per_1000_claims": round(1000 * len(ordinary) / max(1, len(claims)), 1),
        "false_blocks_by_stage": dict(Counter(f["stage"] for f in ordinary)),
        "other_blocks_with_a_planted_claim": sum(1 for f in blocks if pair(f) not in want and pair(f) & planted_ids),
        "warns": sum(f["tier"] == "warn" for f in rep.findings),
        "false_block_examples": [[f["existing"], f["incoming"], f["reason"]] for f in ordinary[:examples]],
    }


def render(r: dict) -> str:
    ex = "\n".join(f"- \"{a}\" / \"{b}\" ({why})" for a, b, why in r["false_block_examples"])
    return (f"### Short-claim store (`benchmarks.synth`, {r['claims']} claims, {r['planted']} planted conflicts, "
            f"profile {r['profile']})\n\n"
            f"Planted conflicts blocked: {r['planted_blocked']} of {r['planted']} ({r['planted_recall']:.3f}). "
            f"Blocks between two ordinary claims (false by construction): **{r['false_blocks_ordinary']}** "
            f"({r['false_blocks_per_1000_claims']} per 1,000 claims; by stage {r['false_blocks_by_stage']}). "
            f"Other blocks involving a planted claim: {r['other_blocks_with_a_planted_claim']}. "
            f"Warns: {r['warns']}. Scan: {r['scan_seconds']} s.\n\n" + (f"Examples:\n\n{ex}\n" if ex else ""))
