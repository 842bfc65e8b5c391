"""What a user hits at the terminal: one-line usage errors, scan as a CI gate, a closed pipe, a
BOM, and the accurate profile refusing to run without its model."""
import os
import subprocess
import sys

import numpy as np

from conftest import ROOT

EXAMPLES = ROOT / "examples" / "claims.jsonl"


def guard(*args, env=None, profile="fast"):
    e = {**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "guard.cli", "--profile", profile, *args], capture_output=True,
                          text=True, env=e, cwd=ROOT)


def test_usage_errors_are_one_line_with_exit_2(tmp_path):
    for args in (("remember",), ("--bogus",), ("scan",)):
        r = guard(*args, "--store", str(tmp_path / "s.sqlite")) if args[0] != "--bogus" else guard(*args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("error: "), r.stderr


def test_a_statement_pasted_as_a_list_item_is_told_how_to_pass(tmp_path):
    """"- Never deploy on Fridays." opens with a dash, so click reads it as an option: the error says to put
    "--" before it, and with it the claim is stored as written and read as the plain statement."""
    store = str(tmp_path / "s.sqlite")
    r = guard("--store", store, "remember", "- **Never** deploy on Fridays.")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "put -- before it" in r.stderr and "guard remember -- '- **Never** deploy on Fridays.'" in r.stderr
    assert not (tmp_path / "s.sqlite").exists()
    assert guard("--store", store, "remember", "--", "- **Never** deploy on Fridays.").returncode == 0
    r = guard("--store", store, "check", "--", "- Deploys on Fridays are allowed.")
    assert r.returncode == 3 and "- **Never** deploy on Fridays." in r.stdout, r.stdout


def test_a_directory_or_unreadable_path_is_a_usage_error(tmp_path):
    (tmp_path / "d").mkdir()
    for args in (("scan", str(tmp_path / "d")), ("compare", str(tmp_path / "d")),
                 ("--store", str(tmp_path / "d"), "remember", "The API listens on port 8443.")):
        r = guard(*args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
        assert r.stderr.startswith("error: ") and "Error" not in r.stderr, r.stderr      # no exception class names
    assert sorted(x.name for x in tmp_path.iterdir()) == ["d"] and not any((tmp_path / "d").iterdir())


def test_scan_gates_ci_on_findings(tmp_path):
    out = tmp_path / "r.jsonl"
    r = guard("--quiet", "scan", str(EXAMPLES), "--out", str(out), "--neighbours", "0")
    assert r.returncode == 3 and out.stat().st_size > 0 and "block" in r.stdout
    r = guard("scan", str(EXAMPLES), "--out", str(out), "--neighbours", "0", "--fail-on", "never")
    assert r.returncode == 0


def test_scan_checks_its_options_before_the_work(tmp_path):
    r = guard("scan", str(EXAMPLES), "--format", "xml")
    assert r.returncode == 2 and "--format" in r.stderr
    r = guard("scan", str(EXAMPLES), "--processes", "-1")
    assert r.returncode == 2 and "--processes must be 0 or more" in r.stderr
    r = guard("scan", str(EXAMPLES), "--out", str(tmp_path / "no" / "such" / "dir" / "r.jsonl"))
    assert r.returncode == 2 and "cannot write" in r.stderr
    r = guard("eval-nli", "models/nli-minilm-l6", str(tmp_path / "missing.jsonl"))
    assert r.returncode == 2 and "no such file" in r.stderr


def test_numbers_out_of_range_are_refused_in_one_line(tmp_path):
    """Each of these ran before session 35: `eval-nli --limit -3` scored all but the last three pairs of
    each file (and `--limit 0` every pair), `scan --processes 1000` would spawn a thousand spaCy workers
    on a store of 2,000+ claims, `serve --port 70000` ended in "OverflowError" (exit 1)."""
    out = tmp_path / "r.jsonl"
    for args, words in ((("eval-nli", "models/nli-minilm-l6", str(EXAMPLES), "--limit", "-3"), "--limit"),
                        (("eval-nli", "models/nli-minilm-l6", str(EXAMPLES), "--limit", "0"), "--limit"),
                        (("scan", str(EXAMPLES), "--out", str(out), "--processes", str((os.cpu_count() or 1) + 1)),
                         "more than this machine's"),
                        (("scan", str(EXAMPLES), "--out", str(out), "--neighbours", "-1"), "--neighbours"),
                        (("scan", str(EXAMPLES), "--out", str(out), "--show", "-3"), "--show"),
                        (("serve", "--port", "70000"), "--port"), (("serve", "--port", "-1"), "--port")):
        r = guard(*args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and words in r.stderr, (args, r.stderr)
    assert not out.exists()


def test_a_closed_pipe_is_not_an_error(tmp_path):
    st = tmp_path / "s.sqlite"
    (tmp_path / "many.jsonl").write_text("".join(f'{{"id": "r{i}", "text": "Service {i} owns queue q{i}."}}\n'
                                                 for i in range(3000)))
    assert guard("--store", str(st), "ingest", str(tmp_path / "many.jsonl")).returncode == 0
    p = subprocess.Popen(f"{sys.executable} -m guard.cli --store {st} list | head -1", shell=True, cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    out, err = p.communicate(timeout=120)
    assert out.decode().startswith("r0") and b"Traceback" not in err and b"BrokenPipe" not in err


def test_a_utf8_bom_is_accepted(tmp_path):
    f = tmp_path / "bom.jsonl"
    f.write_bytes(b'\xef\xbb\xbf{"id": "r1", "text": "Backups run daily."}\n')
    r = guard("--store", str(tmp_path / "s.sqlite"), "ingest", str(f))
    assert r.returncode == 0 and "ingested 1 claims" in r.stdout and "skipped" not in r.stdout


def test_accurate_profile_refuses_without_its_model(tmp_path):
    env = {"GUARD_NLI_MODEL": str(tmp_path / "no-model")}
    from conftest import make_store
    make_store(tmp_path / "s.sqlite")
    r = guard("--store", str(tmp_path / "s.sqlite"), "check", "Backups run daily.", env=env, profile="accurate")
    assert r.returncode == 2 and "--allow-structural-only" in r.stderr
    r = guard("--store", str(tmp_path / "s.sqlite"), "--allow-structural-only", "check", "Backups run daily.",
              env=env, profile="accurate")
    assert r.returncode == 0, r.stderr


def test_caches_are_bounded():
    from guard.embed import Embedder
    e = Embedder(cache_size=3)
    v = e.encode(["a", "b", "c", "d", "e", "a"])
    assert v.shape[0] == 6 and len(e._cache) == 3 and np.allclose(v[0], v[5])


def test_progress_on_a_terminal_and_silence_otherwise(tmp_path, monkeypatch):
    import io

    from guard import cli

    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(sys, "stderr", Tty())
    cli._state["quiet"] = False
    assert cli._progress(10, "ingest", "claim").disable is False
    cli._state["quiet"] = True
    assert cli._progress(10, "ingest", "claim").disable is True
    cli._state["quiet"] = False
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert cli._progress(10, "ingest", "claim").disable is True
    f = tmp_path / "many.jsonl"
    f.write_text("".join(f'{{"id": "r{i}", "text": "Service {i} owns queue q{i}."}}\n' for i in range(600)))
    r = guard("--store", str(tmp_path / "b.sqlite"), "ingest", str(f))
    assert r.returncode == 0 and "ingested 600 claims" in r.stdout and "ingest:" not in r.stderr


def _python(code: str, cwd) -> "subprocess.CompletedProcess":
    """``code`` in a fresh interpreter (what is imported at start-up is the point), the repo importable."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd,
                       env={**__import__("os").environ, "PYTHONPATH": str(__import__("conftest").ROOT)}, check=False)
    assert r.returncode == 0, r.stderr
    return r


def test_the_structural_path_never_imports_torch_or_spacys_command_line(tmp_path):
    """spaCy's thinc would import torch (a second of every cold start) and spaCy's __init__ its command
    line (weasel, requests: half a second); the fast profile needs neither. spacy.info still answers and
    a later `import spacy.cli` is the real package."""
    code = ("import sys; from guard.pipeline import Guard, GuardConfig; "
            "g = Guard(GuardConfig.profile('fast')); n = g.normalize('Prod deploys need two approvals.'); "
            "print(n.subject, 'torch' in sys.modules, 'spacy.cli' in sys.modules, 'weasel' in sys.modules); "
            "import spacy; v = spacy.info(markdown=False, silent=True)['spacy_version']; "
            "import spacy.cli; print(v == spacy.__version__, callable(spacy.cli.download))")
    r = _python(code, tmp_path)
    first, second = r.stdout.splitlines()
    assert "deploy" in first and first.split()[-3:] == ["False", "False", "False"]
    assert second == "True True"


def test_a_spacy_that_imports_more_of_its_command_line_is_imported_whole(tmp_path):
    """Should a spaCy release ask its command line for more than ``info``, the stand-in cannot serve it:
    spaCy is then imported again without it, whole, and still without torch."""
    code = ("import sys, guard.normalize.rules as r; made = r._cli_stand_in\n"
            "def broken():\n    d = made(); del d['spacy.cli.info'].info; return d\n"
            "r._cli_stand_in = broken; spacy = r.import_spacy()\n"
            "print(callable(spacy.cli.download), 'torch' in sys.modules, spacy.blank('en')('a b').text)")
    r = _python(code, tmp_path)
    assert r.stdout.split() == ["True", "False", "a", "b"]


def test_a_cancel_or_a_refused_write_loads_no_model(tmp_path):
    """The accurate profile's command line built its Guard (spaCy, the cross-encoder, the bi-encoder:
    seconds) before every store command, though a cancel never judges and a write refused for its input
    never reaches the models; the models now load when a check or write first needs them."""
    st = tmp_path / "s.sqlite"
    facts = tmp_path / "facts.jsonl"
    facts.write_text('{"id": "f1", "text": "Backups run every 12 hours."}\n')
    assert guard("--store", str(st), "ingest", str(facts)).returncode == 0
    heavy = ("spacy", "onnxruntime", "torch", "sentence_transformers")
    code = ("import sys\nfrom guard.cli import app\ntry:\n    app(sys.argv[1:])\nexcept SystemExit as e:\n"
            f"    print(e.code, *sorted(m for m in {heavy!r} if m in sys.modules))\n")

    def run(*args):
        r = subprocess.run([sys.executable, "-c", code, "--store", str(st), *args], capture_output=True, text=True,
                           cwd=ROOT, timeout=300, check=False)
        assert "Traceback" not in r.stderr, r.stderr
        return r.stdout.splitlines()[-1].split(), r.stdout + r.stderr

    for args, code_, said in ((["cancel", "f1"], "0", "cancelled f1"), (["cancel", "nope"], "2", "unknown claim id"),
                              (["remember", "   "], "2", "text is empty"), (["show", "nope"], "2", "unknown claim id"),
                              (["supersede", "f1", "New words.", "--reason", "r"], "2", "is cancelled"),
                              (["force", "Backups run hourly.", "--reason", "  "], "2", "force needs a reason"),
                              (["learn", "Backups run hourly.", "--source", " "], "2", "needs the source")):
        last, out = run(*args)
        assert last == [code_] and said in out, (args, out)
    last, out = run("check", "Backups run every 6 hours.")          # a check still loads what it judges with
    assert last[0] == "0" and {"spacy", "onnxruntime"} <= set(last[1:]), out


def test_the_global_quantize_reaches_eval_nli(tmp_path, shared_data):
    """`guard --quantize eval-nli …` evaluated fp32: the command read only its own --quantize."""
    import json
    rows = (shared_data / "nli" / "snli.dev.jsonl").read_text().splitlines()[:4]
    f = tmp_path / "few.jsonl"
    f.write_text("\n".join(rows) + "\n")
    r = guard("--quantize", "eval-nli", "models/nli-minilm-l6-v2", str(f), "--out", str(tmp_path / "r.json"),
              profile="accurate")
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "r.json").read_text())["quantized"] is True


def test_serve_on_a_port_in_use_is_one_line_before_anything_loads(tmp_path):
    """uvicorn logged the bind error and exited 3 — this CLI's "blocked" code — after the models loaded."""
    import socket
    with socket.socket() as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        r = guard("--store", str(tmp_path / "s.sqlite"), "serve", "--port", str(port))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "address already in use" in r.stderr, r.stderr
    assert not (tmp_path / "s.sqlite").exists()


def test_an_unknown_id_is_shown_short_and_printable(tmp_path):
    """The id of a failed lookup is what the user typed or piped: shown cut and escaped, one line."""
    from conftest import make_store
    store = str(make_store(tmp_path / "s.sqlite"))
    for bad in ("c_" + "9" * 5000, "c_\x1b[31mred\x07"):
        for args in (("cancel", bad), ("history", bad), ("show", bad)):
            r = guard("--store", store, *args)
            line = r.stderr.strip()
            assert r.returncode == 2 and "\n" not in line and len(line) < 160 and "\x1b" not in line, (args, line[:200])
            assert line.startswith("error: unknown claim id: c_")


def test_help_shows_install_extras_in_brackets_and_bare_groups_print_their_help():
    """Help text went through rich markup, which took "[large]" and "[ray]" for style tags and dropped
    them: the help said "pip install claim-guard" for the Ray engine. And "guard" or "guard bench"
    alone must print their help, not nothing."""
    e = {**os.environ, "HF_HUB_OFFLINE": "1", "COLUMNS": "400"}
    def run(*a):
        return subprocess.run([sys.executable, "-m", "guard.cli", *a], capture_output=True, text=True, env=e,
                              cwd=ROOT, check=False)

    def flat(s):
        return " ".join(s.split()).replace("- ", "-")       # the help wraps "claim-" / "guard[large]"
    top, scan = run("--help"), run("scan", "--help")
    assert top.returncode == 0 and "pip install 'claim-guard[large]'" in flat(top.stdout), top.stdout
    assert scan.returncode == 0 and "pip install claim-guard[ray]" in flat(scan.stdout), scan.stdout
    for args, what in (((), "claim-guard: contradiction detection"), (("bench",), "stage ablation"),
                       (("answer",), "Answer-time gates")):
        r = run(*args)
        assert r.returncode == 0 and what in flat(r.stdout) and "Usage:" in r.stdout, (args, r.stdout)
