"""Guard: runs normalize → structural compare → gated NLI → judge for statements against claims.

The one place that knows the order of the stages. It does no I/O of its own: the store decides
which claims are candidates, the CLI decides what to print.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from guard.candidates import NEIGHBOUR_MIN_SIMILARITY
from guard.claims import Claim, Norm, Scope, Window, comparison_text
from guard.nli.model_text import model_text
from guard.compare import Confidence, StructuralComparator, Verdict, VerdictKind
from guard.judge import (Decision, Judge, NLIResult, PairJudgement, Tier, blocks_on_a_generic_subject,
                         structure_decides, unsure_where_unlike)
from guard.normalize import SafeNormalizer, get_normalizer

log = logging.getLogger(__name__)

STAGES = ("structural", "nli")
PAIRS_PER_CALL = 4096       # pairs judged in one call by check_many (their texts, verdicts and scores in memory)


@dataclass
class GuardConfig:
    """Which stages run and with what. A profile is just one of these:
    ``fast`` = structural only, ``accurate`` = structural + gated NLI (the default), ``large`` =
    accurate with the larger NLI model (``LARGE_MODEL``: all-mpnet-base-v2 with a LoRA adapter,
    rebuilt from its packages on first use; about seven times slower per pair, for batch checks)."""
    normalizer: str = "normalizer.rules.v2"   # the learned gate was fitted on v2's evidence
    normalizer_config: dict = field(default_factory=dict)
    stages: tuple[str, ...] = STAGES
    nli_model: str | None = None          # hub id or directory; None → the shipped model (nli.scorer.SHIPPED_MODEL)
    nli_quantize: bool = False            # fp32: deterministic per pair; dynamic int8 drifts with the batch
    nli_backend: str = "auto"             # auto (ONNX Runtime fp32 on a CPU), onnx, torch, openvino, or the
                                          # opt-in bf16 ones: bf16 (torch tiles, AMX), openvino-bf16
                                          # (AMX or AVX-512 BF16)
    gated: bool = True                    # False only for ablations: NLI may block unchecked
    gate_config: str | None = None        # JSON file; None → gate.json beside the model, if any
    gate: str = "learned"                 # "learned": learned_gate.json beside the model decides (if shipped);
                                          # "thresholds": the hand-set/fitted GateConfig of v0.1
    embedder: str | None = None           # bi-encoder for gates; None → bundled all-MiniLM-L6-v2
    use_embedder: bool = True

    @classmethod
    def profile(cls, name: str) -> "GuardConfig":
        if name == "fast":
            return cls(stages=("structural",))
        if name == "accurate":
            return cls()
        if name == "large":
            from guard.nli.scorer import large_model_path
            return cls(nli_model=str(large_model_path()))
        raise ValueError(f"unknown profile {name!r} (fast, accurate, large)")

    def __post_init__(self):
        self.validate()

    def validate(self) -> None:
        """Refuse what cannot run, in one line (the CLI sets fields after construction, so ``Guard``
        asks again)."""
        from guard.nli.scorer import BACKENDS, UNQUANTISED_BACKENDS
        bad = set(self.stages) - set(STAGES)
        if bad or not self.stages:
            raise ValueError(f"unknown stage(s) {sorted(bad)}; choose from {', '.join(STAGES)}")
        if self.nli_backend not in BACKENDS:
            raise ValueError(f"unknown NLI backend {self.nli_backend!r}; choose from {', '.join(BACKENDS)}")
        if self.nli_backend in UNQUANTISED_BACKENDS and self.nli_quantize:
            raise ValueError(f"the {self.nli_backend} NLI backend and int8 quantisation exclude each other")


class Guard:
    def __init__(self, config: GuardConfig | None = None, normalizer=None, nli_gate=None):
        self.config = config or GuardConfig()
        self.config.validate()
        inner = normalizer or get_normalizer(self.config.normalizer, **self.config.normalizer_config)
        self.normalizer = SafeNormalizer(inner)
        # what a worker process needs to build the same normalizer (a given instance: its defaults;
        # the pool checks the workers' build against this one's either way)
        self._normalizer_config = {} if normalizer is not None else dict(self.config.normalizer_config)
        self.comparator = StructuralComparator()
        self.judge = Judge()
        self._nli_gate = nli_gate
        self._nli_tried = nli_gate is not None
        self.notes: list[str] = []
        self.score_cache = None      # a persistent NLI score cache (the claim store's), once attached

    def use_score_cache(self, cache) -> None:
        """Keep NLI scores in ``cache`` as well as in memory (see ``guard.nli.score_cache``)."""
        self.score_cache = cache
        scorer = getattr(self._nli_gate, "scorer", None)
        if scorer is not None:
            scorer.persistent = cache

    # ---- stage 3, loaded on first need --------------------------------------------------
    @property
    def nli_gate(self):
        if "nli" not in self.config.stages:
            return None
        if not self._nli_tried:
            self._nli_tried = True
            self._nli_gate = self._load_nli()
        return self._nli_gate

    def _load_nli(self):
        from guard.nli import GateConfig, ModelUnavailable, NLIGate, NLIScorer
        from guard.nli.evidence_gate import EvidenceGate
        from guard.nli.learned_gate import GATE_FILE, LearnedGate
        try:
            scorer = NLIScorer(self.config.nli_model, quantize=self.config.nli_quantize,
                               backend=self.config.nli_backend)
        except ModelUnavailable as exc:
            msg = f"NLI stage unavailable, running structural-only: {exc}"
            log.warning(msg)
            self.notes.append(msg)
            return None
        scorer.persistent = self.score_cache
        embedder = self._load_embedder()
        learned_path = Path(scorer.path) / GATE_FILE
        if self.config.gate == "learned" and self.config.gated and learned_path.exists():
            try:
                learned = LearnedGate.load(learned_path)
            except (ValueError, KeyError, TypeError, OSError) as exc:
                # a damaged or another build's gate: no stage 3, said in one line (it ended every
                # write in "JSONDecodeError: …", exit 1); the accurate profile then refuses to run
                # structural-only unless asked, as for a model that does not load
                reason = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
                msg = (f"NLI stage unavailable, running structural-only: the learned gate cannot be used: {reason}; "
                       f"refit it (guard tune PAIRS OUT --gate-only --from {scorer.path})")
                log.warning(msg)
                self.notes.append(msg)
                return None
            return EvidenceGate(scorer, learned, embedder)
        gate_path = Path(self.config.gate_config) if self.config.gate_config else Path(scorer.path) / "gate.json"
        gate_cfg = GateConfig.load(gate_path) if gate_path.exists() else GateConfig()
        return NLIGate(scorer, gate_cfg, embedder, gated=self.config.gated)

    def _load_embedder(self):
        if not self.config.use_embedder:
            return None
        try:
            from guard.embed import Embedder
            return Embedder(self.config.embedder)
        except Exception as exc:  # noqa: BLE001 — the gates still work on lexical overlap
            self.notes.append(f"bi-encoder unavailable, gates use lexical overlap only: {exc}")
            return None

    # ---- stage 1 -------------------------------------------------------------------------
    def normalize(self, text: str, scope: Scope | None = None, window: Window | None = None) -> Norm:
        return self.normalizer.normalize(comparison_text(text), scope or Scope(), window or Window())

    def normalize_claims(self, claims: list[Claim], processes: int = 1, min_pool: int = 2000,
                         progress=None) -> list[Norm]:
        """``processes`` > 1 normalises a big batch (at least ``min_pool`` claims) in worker processes
        (rule normalizers only; the norms are the same); a pool that cannot start falls back here.
        ``progress(n)`` is told as statements are done."""
        items = [(comparison_text(c.text), c.scope, c.window) for c in claims]
        from guard.normalize.pool import normalize_in_pool, poolable
        if processes > 1 and len(items) >= min_pool and poolable(self.normalizer.name):
            try:
                return normalize_in_pool(self.normalizer.name, items, processes, progress,
                                         config=self._normalizer_config, build=self.normalizer.build)
            except Exception as exc:  # noqa: BLE001 — a pool is an optimisation, never a failure
                log.warning("normaliser pool failed (%s); normalising in this process", exc)
        norms: list[Norm] = []
        for k in range(0, len(items), 512):             # in slices, so a long batch reports progress
            norms += self.normalizer.normalize_many(items[k:k + 512])
            if progress:
                progress(len(items[k:k + 512]))
        return norms

    # ---- stages 2–4 over many pairs --------------------------------------------------------
    def judge_pairs(self, items: list[tuple[Claim, Norm, Claim, Norm]]) -> list[PairJudgement]:
        """Each item is (existing claim, its norm, incoming claim, its norm)."""
        texts = [(comparison_text(a.text), comparison_text(b.text)) for a, _, b, _ in items]
        if "structural" in self.config.stages:
            verdicts = [self.comparator.compare(na, ta, nb, tb) for (_, na, _, nb), (ta, tb) in zip(items, texts)]
        else:
            verdicts = [_no_structure(a, b) for a, _, b, _ in items]
        nli_results: dict[int, NLIResult] = {}
        gate = self.nli_gate
        learned = gate is not None and getattr(gate, "learned", False)
        if gate is not None:
            # the models read what a statement says, not a "Note:" or a "!" around it (``nli.model_text``)
            read = [(model_text(ta), model_text(tb)) for ta, tb in texts]
            if learned:
                verdicts = self._unsure_where_unlike(verdicts, read, gate)
            todo = [i for i, v in enumerate(verdicts) if (structure_decides(v) is None if learned else v.deferred)]
            if todo:
                pairs = [(items[i][1], read[i][0], items[i][3], read[i][1]) for i in todo]
                res = gate.assess(pairs, [verdicts[i] for i in todo]) if learned else gate.assess(pairs)
                nli_results = dict(zip(todo, res))
        out = []
        for i, ((a, _, _, _), v) in enumerate(zip(items, verdicts)):
            nli = nli_results.get(i)
            tier, stage = self.judge.judge(v, nli, learned=learned)
            out.append(PairJudgement(a.id, a.text, tier, stage, v, nli))
        return out

    @staticmethod
    def _unsure_where_unlike(verdicts: list, texts: list[tuple[str, str]], gate) -> list:
        """Structural blocks on a one-word common subject between texts less alike than the candidate
        search's neighbour floor are left to the learned gate (``judge.unsure_where_unlike``); only
        those pairs are embedded."""
        embedder = getattr(gate, "embedder", None)
        idx = [i for i, v in enumerate(verdicts) if blocks_on_a_generic_subject(v)]
        if embedder is None or not idx:
            return verdicts
        vecs = embedder.encode([t for i in idx for t in texts[i]])
        out = list(verdicts)
        for k, i in enumerate(idx):
            out[i] = unsure_where_unlike(out[i], float(vecs[2 * k] @ vecs[2 * k + 1]), NEIGHBOUR_MIN_SIMILARITY)
        return out

    def flagged(self, items: list[tuple[Claim, Norm, Claim, Norm]]) -> list[tuple[int, PairJudgement]]:
        """(position, judgement) of the items that are not clean — what a scan reports. Pairs whose
        scopes are disjoint are clean without building their verdict (the comparator's first
        answer, and most pairs of a multi-team store)."""
        keep = list(range(len(items)))
        if "structural" in self.config.stages:
            keep = [k for k in keep if not scopes_disjoint(items[k][1], items[k][3])]
        return [(k, pj) for k, pj in zip(keep, self.judge_pairs([items[k] for k in keep])) if pj.tier is not Tier.CLEAN]

    def compare_claims(self, pairs: list[tuple[Claim, Claim]]) -> list[PairJudgement]:
        """Score (existing, incoming) claim pairs — what ``guard compare`` and the benchmarks use."""
        return self.judge_pairs(self.pair_items(pairs))

    def pair_items(self, pairs: list[tuple[Claim, Claim]], processes: int = 1,
                   progress=None) -> list[tuple[Claim, Norm, Claim, Norm]]:
        """``judge_pairs``' items: every statement normalised in one batch (a big one in a pool)."""
        norms = self.normalize_claims([c for pair in pairs for c in pair], processes=processes, progress=progress)
        return [(a, norms[2 * i], b, norms[2 * i + 1]) for i, (a, b) in enumerate(pairs)]

    def check(self, incoming: Claim, candidates: list[tuple[Claim, Norm]],
              incoming_norm: Norm | None = None) -> Decision:
        """The guarded-write decision for one statement against the store's candidate claims."""
        nb = incoming_norm or self.normalize(incoming.text, incoming.scope, incoming.window)
        return self.check_many([(incoming, nb, candidates)])[0]

    def check_many(self, checks: list[tuple[Claim, Norm, list[tuple[Claim, Norm]]]]) -> list[Decision]:
        """``check`` for many statements at once, each (incoming claim, its norm, its candidates): the
        pairs of all the statements go through the stages together (``judge_pairs`` calls of up to
        ``PAIRS_PER_CALL``), so the models see full batches instead of a few pairs a statement. A pair's scores do not depend on its batch
        (the default backends are exact per pair), so each decision is the one ``check`` makes."""
        items, owner = [], []
        for k, (incoming, nb, candidates) in enumerate(checks):
            if "structural" in self.config.stages:      # their verdict is "coexist" (clean) whatever they say
                candidates = [(c, n) for c, n in candidates if not scopes_disjoint(n, nb)]
            items += [(c, n, incoming, nb) for c, n in candidates]
            owner += [k] * len(candidates)
        per_check: list[list[PairJudgement]] = [[] for _ in checks]
        for start in range(0, len(items), PAIRS_PER_CALL):    # bounded: a batch of statements in a big store
            judged = self.judge_pairs(items[start:start + PAIRS_PER_CALL])
            for k, j in zip(owner[start:start + PAIRS_PER_CALL], judged):
                per_check[k].append(j)
        decisions = []
        for (_, nb, _), judgements in zip(checks, per_check):
            notes = list(self.notes)
            if nb.is_unknown:
                notes.append(f"normalizer failed ({nb.error}); the statement was checked without structure")
            decisions.append(self.judge.decide(judgements, notes))
        return decisions


def scopes_disjoint(a: Norm, b: Norm) -> bool:
    """The structural comparator's first answer, without building its verdict: two normalised
    statements whose scopes are disjoint coexist. Writes and scans skip such pairs (most candidates
    of a multi-team store); ``compare`` still reports them."""
    return not a.is_unknown and not b.is_unknown and not a.scope.overlaps(b.scope)


def _no_structure(a: Claim, b: Claim) -> Verdict:
    """Without stage 2 every pair is undecided, so NLI (if any) sees all of them."""
    return Verdict(VerdictKind.UNKNOWN, Confidence.LOW, "structural stage disabled")


__all__ = ["Guard", "GuardConfig", "Decision", "Tier"]
