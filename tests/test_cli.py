"""``python -m evalkit`` (evalkit/cli.py): the same output as sacreBLEU's own command line on WMT17 files, bad
input refused with exit status 2 and nothing written, ``--explain`` against the lessons' worked examples.

sacreBLEU's command line is run in this process (``sacrebleu.sacrebleu.main``, the function its ``sacrebleu``
command calls), so that a comparison costs no interpreter start-up: 300 segments of three WMT17 systems here,
the 16 whole systems in ``test_the_16_wmt17_systems_as_sacrebleu_prints_them`` (make conformance).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from evalkit import cli
from evalkit.data import data_dir, read_lines

SYSTEMS = ["online-A.0", "uedin-nmt.4722", "KIT.4950"]
SEGMENTS = 300


@pytest.fixture(scope="module")
def wmt17(tmp_path_factory):
    """The first 300 segments of the WMT17 reference and of three systems, as plain files: (folder, names)."""
    folder = tmp_path_factory.mktemp("wmt17")
    (folder / "ref.de").write_text("\n".join(read_lines(data_dir() / "wmt17-en-de" / "reference.de.gz")[:SEGMENTS])
                                   + "\n", encoding="utf-8")
    for name in SYSTEMS:
        lines = read_lines(data_dir() / "wmt17-en-de" / "systems" / f"{name}.de.gz")[:SEGMENTS]
        (folder / f"{name}.de").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def evalkit_cli(argv, cwd: Path | None = None, stdin: bytes | None = None) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``python -m evalkit argv``, in this process (``stdin``: piped bytes)."""
    out, err = io.StringIO(), io.StringIO()
    piped = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8") if stdin is not None else sys.stdin
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _chdir(cwd), _stdin(piped):
        try:
            status = cli.main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's own errors
            status = exc.code
    return status, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _stdin(handle):
    saved, sys.stdin = sys.stdin, handle
    try:
        yield
    finally:
        sys.stdin = saved


def sacrebleu_cli(argv, cwd: Path | None = None, stdin: bytes = b"") -> str:
    """The stdout of ``sacrebleu argv``: sacreBLEU 2.6.0's command-line function, in this process.

    Its ``main`` reopens stdin and stdout by file descriptor (``open(sys.stdout.fileno(), "w", ...)``), so
    they are replaced by objects whose ``fileno`` hands it a copy of a temporary file's descriptor (and of
    of another holding ``stdin``), whose content is read back afterwards."""
    from sacrebleu import sacrebleu as command

    class Descriptor:
        def __init__(self, handle):
            self.handle = handle

        def fileno(self) -> int:
            return os.dup(self.handle.fileno())  # sacreBLEU's file object closes its own copy

    saved = sys.argv, sys.stdin, sys.stdout, os.environ.get("NO_COLOR")
    os.environ["NO_COLOR"] = "1"  # no colour codes in the table, and no colorama wrapping of the streams
    with tempfile.TemporaryFile() as sink, tempfile.TemporaryFile() as nothing:
        nothing.write(stdin)
        nothing.seek(0)
        sys.argv = ["sacrebleu", *map(str, argv)]
        sys.stdin, sys.stdout = Descriptor(nothing), Descriptor(sink)
        try:
            with contextlib.redirect_stderr(io.StringIO()), _chdir(cwd):
                try:
                    command.main()
                except SystemExit as exc:  # -sl ends with sys.exit(0)
                    assert exc.code in (0, None), exc.code
        finally:
            for handle in (sys.stdout, sys.stdin):
                if not isinstance(handle, Descriptor):  # the files sacreBLEU opened
                    handle.close()
            sys.argv, sys.stdin, sys.stdout = saved[:3]
            if saved[3] is None:
                del os.environ["NO_COLOR"]
            else:
                os.environ["NO_COLOR"] = saved[3]
        sink.seek(0)
        return sink.read().decode("utf-8")


@contextlib.contextmanager
def _chdir(path):
    if path is None:
        yield
    else:
        with contextlib.chdir(path):
            yield


def same_version(text: str) -> str:
    """Both programs sign with their own version: the one field allowed to differ."""
    return re.sub(r'(version":\s*"|version:|\|v:)(2\.6\.0|evalkit-[0-9.]+)', r"\1V", text)


def both(argv, cwd, stdin: bytes | None = None) -> tuple[str, str]:
    status, ours, err = evalkit_cli(argv, cwd, stdin)
    assert status == 0, err
    return same_version(ours), same_version(sacrebleu_cli(argv, cwd, stdin or b""))


# ------------------------------------------------------------------------------------------ equal output
@pytest.mark.conformance
@pytest.mark.parametrize("flags", [
    ["-m", "bleu", "chrf", "ter"],                                      # sacreBLEU's default JSON
    ["-m", "bleu", "chrf", "ter", "-f", "text", "-w", "9"],             # nine decimals: the scores to 1e-9
    ["-m", "bleu", "chrf", "ter", "-b"],
    ["-m", "chrf", "-cw", "2", "-w", "9", "-f", "text"],                # chrF++
    ["-m", "bleu", "-tok", "intl", "-lc", "-s", "floor", "-w", "9"],
    ["-m", "bleu", "-tok", "char", "-s", "add-k", "-sv", "2", "-w", "9"],
    ["-m", "bleu", "-tok", "none", "-s", "none", "-w", "9"],
    ["-m", "chrf", "--chrf-beta", "3", "--chrf-whitespace", "--chrf-lowercase", "--chrf-eps-smoothing", "-w", "9"],
    ["-m", "ter", "--ter-case-sensitive", "--ter-normalized", "--ter-no-punct", "-w", "9"],
])
def test_one_system_prints_what_sacrebleu_prints(wmt17, flags):
    ours, theirs = both(["ref.de", "-i", "uedin-nmt.4722.de", *flags], wmt17)
    assert ours == theirs


@pytest.mark.conformance
def test_several_systems_without_a_test_give_sacrebleus_json_list(wmt17):
    ours, theirs = both(["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "bleu", "chrf", "-w", "4"], wmt17)
    assert ours == theirs and len(json.loads(ours)) == 3


@pytest.mark.conformance
@pytest.mark.parametrize("flags", [["-m", "bleu", "-w", "4"], ["-m", "chrf", "-cw", "2", "-w", "4"],
                                   ["-m", "ter", "-w", "4"], ["-m", "bleu", "-b", "-w", "6"]])
def test_sentence_level_prints_what_sacrebleu_prints(wmt17, flags):
    ours, theirs = both(["ref.de", "-i", "online-A.0.de", "-sl", *flags], wmt17)
    assert ours == theirs and len(ours.splitlines()) == SEGMENTS


@pytest.mark.conformance
def test_confidence_interval_prints_what_sacrebleu_prints(wmt17):
    ours, theirs = both(["ref.de", "-i", "online-A.0.de", "-m", "bleu", "chrf", "-ci", "-cin", "300", "-w", "4"], wmt17)
    assert ours == theirs and "μ = " in ours


def table_numbers(text: str) -> list[str]:
    """The numbers of a paired test's table, row by row: every score (with its mean and 95% half-width after a
    bootstrap) and every p-value; sacreBLEU draws the table with box characters, evalkit with spaces."""
    found = re.findall(r"(\d+\.\d+) \((\d+\.\d+) ± (\d+\.\d+)\)|p = (\d\.\d+)|(?:│|  )\s*(\d+\.\d+)\s*(?=│|  |$)",
                       text, re.M)
    return [number for groups in found for number in groups if number]


@pytest.mark.conformance
def test_paired_bootstrap_gives_sacrebleus_numbers(wmt17):
    # sacreBLEU's JSON output crashes under numpy 2 with --paired-bs (a float32 is not JSON serialisable): its
    # text table is compared.  --paired-bs-null sacrebleu asks for sacreBLEU's p-value (evalkit's default is
    # the two-sided shifted one, evalkit.significance).
    argv = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "bleu", "ter", "--paired-bs", "-pbsn", "100",
            "-f", "text", "-w", "3"]
    status, ours, err = evalkit_cli([*argv, "--paired-bs-null", "sacrebleu"], wmt17)
    assert status == 0, err
    theirs = sacrebleu_cli(argv, wmt17)
    mine, peer = table_numbers(ours), table_numbers(theirs)
    assert len(mine) == 3 * 3 * 2 + 2 * 2 and mine == peer
    assert "Baseline: online-A.0.de" in ours and "Baseline: uedin" not in ours


@pytest.mark.conformance
def test_paired_approximate_randomization_gives_sacrebleus_numbers(wmt17):
    argv = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "bleu", "chrf", "--paired-ar", "-parn", "300",
            "-f", "text", "-w", "4"]
    status, ours, err = evalkit_cli(argv, wmt17)
    assert status == 0, err
    mine, peer = table_numbers(ours), table_numbers(sacrebleu_cli(argv, wmt17))
    assert len(mine) == 3 * 2 + 2 * 2 and mine == peer


@pytest.mark.conformance
def test_tab_separated_references_as_sacrebleu_reads_them(wmt17):
    refs = read_lines(wmt17 / "ref.de")
    other = read_lines(wmt17 / "KIT.4950.de")  # a second "reference" of the right length
    (wmt17 / "two-refs.de").write_text("\n".join(f"{a}\t{b}" for a, b in zip(refs, other)) + "\n", encoding="utf-8")
    ours, theirs = both(["two-refs.de", "-nr", "2", "-i", "online-A.0.de", "-m", "bleu", "chrf", "ter", "-w", "9"], wmt17)
    assert ours == theirs and '"nrefs": "2"' in ours
    separate = evalkit_cli(["ref.de", "KIT.4950.de", "-i", "online-A.0.de", "-m", "bleu", "chrf", "ter", "-w", "9"], wmt17)
    assert same_version(separate[1]) == ours


def test_sentence_level_json_is_one_object_per_line(wmt17):
    status, out, err = evalkit_cli(["ref.de", "-i", "KIT.4950.de", "-sl", "-m", "chrf", "-f", "json", "-w", "4"], wmt17)
    assert status == 0, err
    docs = [json.loads(line) for line in out.splitlines()]
    text = evalkit_cli(["ref.de", "-i", "KIT.4950.de", "-sl", "-m", "chrf", "-w", "4", "-b"], wmt17)[1].split()
    assert len(docs) == SEGMENTS and [f"{d['score']:.4f}" for d in docs] == text and docs[0]["name"] == "chrF2"


def test_paired_json_is_valid_json_with_every_number(wmt17):
    status, out, err = evalkit_cli(["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "bleu", "--paired-bs",
                                    "-pbsn", "100", "-f", "json"], wmt17)
    doc = json.loads(out)
    assert status == 0 and doc["test"] == "paired-bs" and [s["system"] for s in doc["systems"]][0].startswith("Baseline")
    first, second = doc["systems"][0]["BLEU"], doc["systems"][1]["BLEU"]
    assert first["p_value"] is None and 0 < second["p_value"] <= 1 and set(second) == {"score", "p_value", "mean", "ci"}


@pytest.mark.conformance
@pytest.mark.slow
def test_the_16_wmt17_systems_as_sacrebleu_prints_them():
    """Every WMT17 system, whole (3,004 segments, read from the .gz files), BLEU, chrF, chrF++ and TER to 1e-9."""
    folder = data_dir() / "wmt17-en-de"
    files = ["reference.de.gz", "-i", *sorted(str(p.relative_to(folder)) for p in (folder / "systems").glob("*.de.gz"))]
    for flags in (["-m", "bleu", "chrf", "ter"], ["-m", "chrf", "-cw", "2"]):
        ours, theirs = both([*files, *flags, "-w", "9"], folder)
        assert ours == theirs and len(json.loads(ours)) == 16


# ------------------------------------------------------------------------------------------ streaming
def test_corpus_scores_summed_chunk_by_chunk_equal_the_whole(wmt17, monkeypatch):
    argv = ["ref.de", "-i", "online-A.0.de", "KIT.4950.de", "-m", "bleu", "chrf", "ter", "-w", "12", "-f", "text"]
    whole = evalkit_cli(argv, wmt17)
    monkeypatch.setattr(cli, "CHUNK", 7)
    chunked = evalkit_cli(argv, wmt17)
    assert whole == chunked and whole[0] == 0


def test_hypotheses_on_stdin_through_python_m_evalkit(wmt17):
    hyps = (wmt17 / "online-A.0.de").read_bytes()
    run = subprocess.run([sys.executable, "-m", "evalkit", "ref.de", "-m", "bleu", "-b", "-w", "6"], input=hyps,
                         cwd=wmt17, capture_output=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.decode() == evalkit_cli(["ref.de", "-i", "online-A.0.de", "-m", "bleu", "-b", "-w", "6"], wmt17)[1]


def test_the_console_script_is_declared():
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["evalkit"] == "evalkit.cli:main"


# ------------------------------------------------------------------------------------------ bad input
@pytest.fixture()
def bad(tmp_path):
    (tmp_path / "ref.txt").write_text("the cat is on the mat\na dog\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\na dog\n", encoding="utf-8")
    (tmp_path / "short.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "latin1.txt").write_bytes("the cat\nun caf\xe9\n".encode("latin-1"))
    return tmp_path


@pytest.mark.parametrize("argv, message", [
    (["ref.txt", "-i", "missing.txt"], r"cannot read missing\.txt: No such file"),
    (["ref.txt", "-i", "."], r"cannot read \.: Is a directory"),
    (["ref.txt", "-i", "short.txt"], r"different numbers of lines: ref\.txt has 2, short\.txt has 1"),
    (["ref.txt", "short.txt", "-i", "hyp.txt"], r"ref\.txt has 2, short\.txt has 1, hyp\.txt has 2"),
    (["empty.txt", "-i", "empty.txt"], r"the files are empty \(empty\.txt, empty\.txt\)"),
    (["ref.txt", "-i", "empty.txt"], r"ref\.txt has 2, empty\.txt has 0"),
    (["ref.txt", "-i", "latin1.txt"], r"latin1\.txt, line 2: byte 0xe9 at column 7 is not UTF-8"),
    (["ref.txt", "-i", "hyp.txt", "hyp.txt"], r"hyp\.txt is given twice with -i"),
    (["ref.txt", "-i", "hyp.txt", "-nr", "2"], r"ref\.txt, line 1: 1 tab-separated references, -nr 2 expects 2"),
    (["ref.txt", "-i", "hyp.txt", "-m", "bleurt"], r"unknown metric 'bleurt'; the metrics are bleu, chrf, ter"),
    (["ref.txt", "-i", "hyp.txt", "-tok", "moses"], r"unknown tokenizer 'moses'; the tokenizers are none, 13a"),
    (["-t", "wmt17", "-l", "en-de", "-i", "hyp.txt"], r"-t/--test-set .*downloads nothing"),
    (["ref.txt", "-i", "hyp.txt", "--echo", "src"], r"--echo .*downloads nothing"),
    (["-i", "hyp.txt"], r"no reference file"),
    (["ref.txt", "-i", "hyp.txt", "-m", "gleu"], r"--source FILE"),
    (["ref.txt", "-i", "hyp.txt", "ref.txt", "-sl"], r"-sl scores one system"),
    (["ref.txt", "-i", "hyp.txt", "--paired-bs"], r"a paired test compares systems"),
    (["ref.txt", "-i", "hyp.txt", "--explain", "3"], r"--explain 3: there are 2 segments"),
    (["ref.txt", "-i", "hyp.txt", "--explain", "first"], r"--explain takes a segment number"),
    (["ref.txt", "-i", "hyp.txt", "-m", "rouge", "--rouge-variants", "rougeQ"], r"unknown ROUGE variant 'rougeQ'"),
    (["ref.txt", "-i", "hyp.txt", "--plot", "no/such/folder/fig.png"], r"cannot write the figure no/such/folder"),
])
def test_bad_input_exits_2_with_a_message_and_writes_nothing(bad, argv, message):
    plotted = "--plot" in argv or "rouge" in argv  # (--plot draws BLEU: the ROUGE case goes without)
    status, out, err = evalkit_cli(argv if plotted else [*argv, "--plot", "fig.png"], bad)
    assert status == 2 and out == ""
    assert re.search(message, err), err
    assert "Traceback" not in err and err.startswith("python -m evalkit: error: ")
    assert not (bad / "fig.png").exists()


def test_argparse_errors_exit_2_too(bad):
    status, out, err = evalkit_cli(["ref.txt", "-i", "hyp.txt", "-w", "two"], bad)
    assert status == 2 and out == "" and "invalid int value: 'two'" in err


def test_every_registered_tokenizer_is_offered(bad):
    from evalkit.bleu import corpus_bleu
    from evalkit.tokenize import TOKENIZERS

    refs, hyps = read_lines(bad / "ref.txt"), read_lines(bad / "hyp.txt")
    for name in TOKENIZERS:  # read from the registry: a tokenizer added there is offered at once
        status, out, err = evalkit_cli(["ref.txt", "-i", "hyp.txt", "-tok", name, "-b", "-w", "9"], bad)
        assert "unknown tokenizer" not in err
        if status == 0:
            expected = corpus_bleu(hyps, [[r] for r in refs], tokenize=name, smoothing="exp").score
            assert float(out) == pytest.approx(100 * expected, abs=1e-9), name
        else:  # a tokenizer whose optional package is not installed: a message, no traceback
            assert status == 2 and "Traceback" not in err, (name, err)


def test_rouge_gleu_and_google_bleu_are_evalkits_corpus_scores(wmt17):
    from evalkit.gleu import corpus_gleu
    from evalkit.google_bleu import corpus_google_bleu
    from evalkit.rouge_corpus import corpus_rouge

    refs = [[r] for r in read_lines(wmt17 / "ref.de")]
    hyps = read_lines(wmt17 / "KIT.4950.de")
    sources = read_lines(wmt17 / "online-A.0.de")  # any file of the right length serves as the "source" here
    status, out, err = evalkit_cli(["ref.de", "-i", "KIT.4950.de", "-m", "rouge", "gleu", "google-bleu", "--source",
                                    "online-A.0.de", "--rouge-variants", "rouge1", "rougeL", "-w", "9"], wmt17)
    assert status == 0, err
    scores = {d["name"]: d["score"] for d in json.loads(out)}
    expected = {"rouge1": corpus_rouge(hyps, refs, "rouge1", n_samples=1).score,
                "rougeL": corpus_rouge(hyps, refs, "rougeL", n_samples=1).score,
                "GLEU": corpus_gleu(hyps, refs, sources, seed=12345).score,
                "GoogleBLEU": corpus_google_bleu(hyps, refs).score}
    assert scores.keys() == expected.keys()
    for name, value in expected.items():
        assert scores[name] == pytest.approx(100 * value, abs=1e-9), name


# ------------------------------------------------------------------------------------------ the lessons' views
@pytest.fixture()
def cat_mat(tmp_path):
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat is on the mat\n", encoding="utf-8")
    (tmp_path / "ref2.txt").write_text("the bird sat on the bush\n", encoding="utf-8")
    return tmp_path


def order_rows(text: str) -> list[tuple[int, int, int]]:
    """(n, matches, total) of the BLEU per-order table in --explain's output."""
    table = text.split("BLEU per order")[1].split("brevity penalty")[0]
    return [tuple(map(int, m)) for m in re.findall(r"^(\d)\s+(\d+)\s+(\d+)\s", table, re.M)]


def test_explain_shows_lesson_01s_worked_example_b(cat_mat):
    # /work/shared/curriculum.md, worked example B: precisions 5/6, 3/5, 1/4, 0/3; unsmoothed BLEU-4 is 0
    status, out, _ = evalkit_cli(["ref.txt", "-i", "hyp.txt", "-tok", "none", "-s", "none", "--explain", "1", "-b"],
                                 cat_mat)
    assert status == 0 and out.splitlines()[0] == "0.0"
    assert order_rows(out) == [(1, 5, 6), (2, 3, 5), (3, 1, 4), (4, 0, 3)]
    assert "c = 6, r = 6" in out and "= 1.0000" in out and "BLEU = BP × exp(Σ w·log p) = 0.0000" in out
    unigrams = out.split("the 1-grams")[1].split("the 2-grams")[0]
    assert re.search(r"^\s+the\s+2\s+2\s+2\s+2$", unigrams, re.M) and re.search(r"^\s+sat\s+1\s+0\s+0\s+0$", unigrams, re.M)


@pytest.mark.parametrize("method, expected", [("exp", "37.99"), ("floor", "25.41"), ("add-k", "48.55")])
def test_explain_and_score_give_lesson_03s_sacrebleu_smoothing(cat_mat, method, expected):
    # curriculum.md, worked example B: "sacreBLEU: floor 25.41 (= method1), add-k 48.55 (= method2), exp 37.99"
    status, out, _ = evalkit_cli(["ref.txt", "-i", "hyp.txt", "-tok", "none", "-s", method, "-b", "-w", "2",
                                  "--explain"], cat_mat)
    assert status == 0 and out.splitlines()[0] == expected
    assert f"(× 100 = {expected[:-1]}" in out  # the explanation ends with the same score, at -w 1... 2 decimals
    assert order_rows(out) == [(1, 5, 6), (2, 3, 5), (3, 1, 4), (4, 0, 3)]


def test_explain_pools_two_references_as_lesson_01s_worked_example_a(cat_mat):
    # worked example A: "the cat is on the mat" and "the bird sat on the bush": P1 = 6/6, P2 = 4/5, c = r = 6
    status, out, _ = evalkit_cli(["ref.txt", "ref2.txt", "-i", "hyp.txt", "-tok", "none", "--explain", "1"], cat_mat)
    assert status == 0
    assert order_rows(out)[:2] == [(1, 6, 6), (2, 4, 5)] and "c = 6, r = 6" in out
    assert "reference 2: the bird sat on the bush" in out


def test_explain_shows_chrf_per_order_and_ter_edits(cat_mat):
    status, out, _ = evalkit_cli(["ref.txt", "-i", "hyp.txt", "-m", "chrf", "ter", "--explain", "1", "-w", "4",
                                  "-f", "text"], cat_mat)
    assert status == 0
    assert re.search(r"^char 1\s+15\s+17\s+16\s+0\.8824\s+0\.9375$", out, re.M)  # 15/17 and 15/16, by hand
    assert "chrF2|" in out and " = 64.5" in out
    assert re.search(r"^\s+sat\s+is\s+S$", out, re.M)
    assert "1 substitutions, 0 shifts = 1; TER = 1 / 6 reference words = 0.1667" in out


@pytest.mark.parametrize("flags", [["-m", "bleu"], ["-m", "bleu", "chrf", "--paired-bs", "-pbsn", "50"]])
def test_plot_writes_the_figure(wmt17, tmp_path, flags):
    figure = tmp_path / "fig.png"
    inputs = ["online-A.0.de", "KIT.4950.de"]
    status, out, err = evalkit_cli(["ref.de", "-i", *inputs, *flags, "--plot", figure], wmt17)
    assert status == 0, err
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------------------------------ issue 32
# Regression tests for issue 32 ("Under attack, round 4"), the command-line items: each quotes its finding.

def _wmt17_subset(folder: Path, name: str, rows: list[int], systems=SYSTEMS) -> None:
    """Segments ``rows`` of the WMT17 reference and of ``systems``, as <name>.ref.de and <name>.<system>.de."""
    ref = read_lines(data_dir() / "wmt17-en-de" / "reference.de.gz")
    (folder / f"{name}.ref.de").write_text("".join(ref[i] + "\n" for i in rows), encoding="utf-8")
    for system in systems:
        lines = read_lines(data_dir() / "wmt17-en-de" / "systems" / f"{system}.de.gz")
        (folder / f"{name}.{system}.de").write_text("".join(lines[i] + "\n" for i in rows), encoding="utf-8")


# "`python -m evalkit REF -i A A_copy --paired-bs` (or `--paired-ar`), A_copy identical to A, prints
#  `(p = 0.0010)*` — significant — with nothing on stderr: the library warns, the CLI swallows it."
@pytest.mark.hardening
@pytest.mark.parametrize("test", [["--paired-bs", "-pbsn", "200"], ["--paired-ar", "-parn", "200"],
                                  ["--paired-bs", "-pbsn", "200", "--paired-bs-null", "sacrebleu"]])
def test_a_system_identical_to_the_baseline_gets_p_1_and_no_star(wmt17, test):
    (wmt17 / "copy.de").write_bytes((wmt17 / "online-A.0.de").read_bytes())
    status, out, err = evalkit_cli(["ref.de", "-i", "online-A.0.de", "copy.de", "KIT.4950.de", "-m", "bleu", "chrf",
                                    *test, "-f", "text"], wmt17)
    assert status == 0, err
    assert out.count("(p = 1.0000)") == 2 and "(p = 1.0000)*" not in out  # the copy, on BLEU and chrF
    assert re.search(r"\(p = 0\.\d{4}\)\*", out)  # KIT differs from online-A: that one stays significant


@pytest.mark.hardening
def test_the_librarys_warnings_reach_stderr(wmt17):
    status, out, err = evalkit_cli(["ref.de", "-i", "online-A.0.de", "KIT.4950.de", "--paired-bs", "-pbsn", "10"],
                                   wmt17)
    assert status == 0 and "(p = " in out
    assert "python -m evalkit: warning: SignificanceWarning: n_samples=10" in err
    assert len(err.splitlines()) == 2  # the p-value's warning and the interval's, one line each


# "`paste A B | python -m evalkit REF` exits 0 with one score for tab-joined lines; sacreBLEU scores two
#  systems."
@pytest.mark.conformance
@pytest.mark.hardening
@pytest.mark.parametrize("flags", [["-m", "bleu", "chrf", "-w", "6"], ["-m", "ter", "-w", "9"]])
def test_tab_joined_systems_on_stdin_are_scored_as_sacrebleu_scores_them(wmt17, flags):
    a, b = read_lines(wmt17 / "online-A.0.de"), read_lines(wmt17 / "KIT.4950.de")
    piped = "".join(f"{x}\t{y}\n" for x, y in zip(a, b)).encode("utf-8")
    ours, theirs = both(["ref.de", *flags], wmt17, stdin=piped)
    assert ours == theirs and "System 2" in ours
    files = evalkit_cli(["ref.de", "-i", "online-A.0.de", "KIT.4950.de", *flags], wmt17)[1]
    assert ours.replace("System 1", "online-A.0.de").replace("System 2", "KIT.4950.de") == same_version(files)


@pytest.mark.hardening
def test_tab_joined_systems_on_stdin_need_the_same_number_on_every_line(bad):
    status, out, err = evalkit_cli(["ref.txt"], bad, stdin=b"the cat\tthe dog\na dog\n")
    assert status == 2 and out == ""
    assert "stdin, line 2: 1 tab-separated hypotheses, the first line has 2" in err
    status, out, err = evalkit_cli(["ref.txt", "--paired-bs", "-pbsn", "50"], bad,
                                   stdin=b"the cat sat on the mat\tthe cat\na dog\ta cat\n")
    assert status == 0 and "Baseline" in out and "System 1" in out and "Baseline: " not in out


# "`python -m evalkit - < file` (reference from stdin while hypotheses default to stdin too) scores alternate
#  lines against each other and prints BLEU 0.0 with exit 0."
@pytest.mark.hardening
@pytest.mark.parametrize("argv", [["-"], ["-", "-i", "-"], ["ref.txt", "-", "-i", "-"]])
def test_references_and_hypotheses_both_on_stdin_are_refused(bad, argv):
    status, out, err = evalkit_cli(argv, bad, stdin=(bad / "hyp.txt").read_bytes())
    assert status == 2 and out == ""
    assert err == "python -m evalkit: error: the references and the hypotheses cannot both come from stdin: give one " \
                  "of them as a file\n"


# "`-tok ja-mecab` / `ko-mecab` signatures in the CLI drop MeCab's version and dictionary (`tok:ja-mecab`;
#  sacreBLEU and evalkit's own library signature say `tok:ja-mecab-0.996-IPA`). One signature function."
@pytest.mark.conformance
@pytest.mark.hardening
@pytest.mark.parametrize("tok", ["ja-mecab", "ko-mecab"])
def test_mecab_signatures_name_mecabs_version_and_dictionary(tmp_path, tok):
    pytest.importorskip("MeCab" if tok == "ja-mecab" else "mecab_ko")
    from evalkit.bleu import corpus_bleu

    hyps = ["猫がマットの上に座った。", "犬が吠えた。"] if tok == "ja-mecab" else ["고양이가 매트 위에 앉았다.", "개가 짖었다."]
    refs = ["猫はマットの上に座った。", "犬が吠える。"] if tok == "ja-mecab" else ["고양이는 매트 위에 앉았다.", "개가 짖는다."]
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    ours, theirs = both(["ref.txt", "-i", "hyp.txt", "-tok", tok, "-w", "9"], tmp_path)
    assert ours == theirs
    library = corpus_bleu(hyps, [[r] for r in refs], tokenize=tok, smoothing="exp").signature
    tok_field = re.search(r"tok:[^|]+", library).group()
    assert f'"tok": "{tok_field[4:]}"' in ours and tok_field[4:].startswith(f"{tok}-0.996")


# "BLEU printed at `-w 13`–`16` differs from sacreBLEU in the last digits on random WMT17 subsets (the order
#  of operations differs); TER with three references over 10,000 lines differs from the 13th decimal (chunked
#  sums)."  (make test: three subsets; the subsets are drawn with a fixed seed.)
@pytest.mark.conformance
@pytest.mark.hardening
@pytest.mark.parametrize("seed, metrics, options", [
    (1, ["bleu", "chrf", "ter"], []), (2, ["bleu"], ["-s", "floor", "-lc"]), (3, ["bleu"], ["-s", "add-k", "-tok", "intl"]),
])
def test_printed_digits_are_sacrebleus_at_every_width_on_random_wmt17_subsets(tmp_path, seed, metrics, options):
    import random

    rng = random.Random(seed)
    rows = sorted(rng.sample(range(3004), 120))
    system = rng.choice(["online-A.0", "uedin-nmt.4722", "KIT.4950"])
    _wmt17_subset(tmp_path, "s", rows, [system])
    for width in (13, 16, 20):
        ours, theirs = both(["s.ref.de", "-i", f"s.{system}.de", "-m", *metrics, *options, "-w", str(width), "-f",
                             "text"], tmp_path)
        assert ours == theirs
    ours, theirs = both(["s.ref.de", "-i", f"s.{system}.de", "-sl", "-m", "bleu", "-w", "16", *options], tmp_path)
    assert ours == theirs


@pytest.mark.conformance
@pytest.mark.hardening
def test_ter_with_three_references_read_in_chunks_is_summed_as_sacrebleu_sums(wmt17, monkeypatch):
    monkeypatch.setattr(cli, "CHUNK", 7)  # 300 segments in 43 chunks: the running sum crosses every chunk
    argv = ["ref.de", "KIT.4950.de", "uedin-nmt.4722.de", "-i", "online-A.0.de", "-m", "ter", "-w", "16"]
    ours, theirs = both(argv, wmt17)
    assert ours == theirs


def test_widths_beyond_a_doubles_decimals_are_refused(bad):
    status, out, err = evalkit_cli(["ref.txt", "-i", "hyp.txt", "-w", "1075"], bad)
    assert status == 2 and "-w must be between 0 and 1074" in err


# "sacreBLEU flags refused with a usage error: `-q`, `--force`, `-sh`, `-e utf-8`, `-j 1`, `-nc`, `-d`. Accept
#  the ones that make sense offline with sacreBLEU's meaning; refuse the rest with a message naming the flag
#  and why (not argparse's usage dump)."
@pytest.mark.conformance
@pytest.mark.hardening
@pytest.mark.parametrize("flags", [
    ["-q", "--force", "-nc", "-e", "utf-8", "-m", "bleu", "chrf", "ter", "-w", "6"],
    ["-sh", "-f", "text", "-m", "bleu", "chrf", "ter", "-w", "6"],
    ["-sh", "-m", "bleu", "chrf", "ter", "-w", "6"],  # JSON: sacreBLEU keeps the long signature there
    ["-sh", "-sl", "-m", "ter", "-w", "4"],
])
def test_sacrebleus_offline_flags_are_accepted_with_its_meaning(wmt17, flags):
    ours, theirs = both(["ref.de", "-i", "uedin-nmt.4722.de", *flags], wmt17)
    assert ours == theirs


@pytest.mark.conformance
@pytest.mark.hardening
def test_short_signatures_of_several_systems_as_sacrebleu(wmt17):
    ours, theirs = both(["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-sh", "-j", "1", "-m", "bleu", "chrf",
                         "-w", "4"], wmt17)
    assert ours == theirs


@pytest.mark.hardening
@pytest.mark.parametrize("flags, message", [
    (["-d"], r"-d/--detail splits the scores of a downloaded test set .* evalkit downloads nothing"),
    (["--detail"], r"-d/--detail"),
    (["--cite"], r"--citation/--cite prints a downloaded test set's BibTeX"),
    (["-e", "latin-1"], r"-e latin-1: evalkit reads UTF-8 only"),
    (["-e", "klingon"], r"-e klingon: evalkit reads UTF-8 only"),
    (["-f", "latex"], r"-f latex: evalkit prints json or text"),
    (["-j", "-1"], r"-j must be 0 or more"),
])
def test_sacrebleus_other_flags_are_refused_naming_the_flag_and_why(bad, flags, message):
    status, out, err = evalkit_cli(["ref.txt", "-i", "hyp.txt", *flags], bad)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and "usage:" not in err
    assert re.search(message, err), err


# "300 system files under a 256 open-file limit (macOS's default) stop with "Too many open files": read the
#  files a few at a time."
@pytest.mark.hardening
@pytest.mark.parametrize("flags", [["-m", "bleu", "ter"], ["-m", "rouge", "--rouge-variants", "rouge1"],
                                   ["-m", "bleu", "--paired-ar", "-parn", "20"]])
def test_more_system_files_than_the_open_file_limit(tmp_path, flags):
    (tmp_path / "ref.txt").write_text("the cat is on the mat\na dog barked\n", encoding="utf-8")
    names = [f"sys{i:03d}.txt" for i in range(100)]
    for i, name in enumerate(names):
        (tmp_path / name).write_text(f"the cat {'is' if i % 2 else 'sat'} on the mat\na dog barked\n", encoding="utf-8")
    limit = "import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)); "
    code = limit + "from evalkit.cli import main; raise SystemExit(main())"
    run = subprocess.run([sys.executable, "-c", code, "ref.txt", "-i", *names, *flags, "-f", "json"], cwd=tmp_path,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1])})
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    systems = doc["systems"] if "systems" in doc else doc
    assert [d["system"].removeprefix("Baseline: ") for d in systems] == names
    first = systems[0]["BLEU"] if "BLEU" in systems[0] else None
    if "bleu" in flags and first is not None:
        scores = [d["BLEU"]["score"] if isinstance(d["BLEU"], dict) else float(d["BLEU"]) for d in systems]
        assert scores[0] == scores[2] != scores[1] == scores[3]  # 'sat' and 'is' alternate


@pytest.mark.hardening
def test_references_on_stdin_with_more_systems_than_a_group_are_refused(bad, monkeypatch):
    monkeypatch.setattr(cli, "FILES_AT_ONCE", 1)  # (two systems: two groups, each reading the references)
    status, out, err = evalkit_cli(["-", "-i", "hyp.txt", "ref.txt"], bad, stdin=(bad / "ref.txt").read_bytes())
    assert status == 2 and "more than 1 systems are read in groups" in err
    monkeypatch.setattr(cli, "FILES_AT_ONCE", 2)
    status, out, err = evalkit_cli(["-", "-i", "hyp.txt", "ref.txt"], bad, stdin=(bad / "ref.txt").read_bytes())
    assert status == 0, err


def test_the_open_file_limit_case_fails_without_groups(tmp_path, monkeypatch):
    """The test above can fail: with every file open at once, the same run stops at the limit."""
    (tmp_path / "ref.txt").write_text("a\n", encoding="utf-8")
    names = [f"s{i}.txt" for i in range(100)]
    for name in names:
        (tmp_path / name).write_text("a\n", encoding="utf-8")
    code = ("import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)); import evalkit.cli as c; "
            "c.FILES_AT_ONCE = 1000; from evalkit.cli import main; raise SystemExit(main())")
    run = subprocess.run([sys.executable, "-c", code, "ref.txt", "-i", *names], cwd=tmp_path, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1])})
    assert run.returncode == 2 and "Too many open files" in run.stderr


# "Tracebacks with exit 1 instead of exit 2 and a one-line message: a corrupt `.gz`, stdin closed (`<&-`),
#  output to a full device (`>/dev/full`), a missing MeCab dictionary; the same in `python -m evalkit.gleu`.
#  `--plot DIR` where DIR is a directory writes `DIR.png` beside it (refuse it); `--explain ²` gives `invalid
#  literal for int()`; JSON output with non-ASCII file names writes raw UTF-8 where sacreBLEU escapes."
def _corrupt_gz(folder: Path) -> dict[str, Path]:
    import gzip

    good = gzip.compress(("the cat sat on the mat\n" * 2000).encode("utf-8"))
    files = {"not-gzip": b"the cat sat on the mat\n", "truncated": good[: len(good) // 2],
             "bad-data": good[:30] + bytes(b ^ 0x5A for b in good[30:60]) + good[60:]}
    paths = {}
    for name, data in files.items():
        paths[name] = folder / f"{name}.gz"
        paths[name].write_bytes(data)
    return paths


@pytest.mark.hardening
@pytest.mark.parametrize("kind", ["not-gzip", "truncated", "bad-data"])
def test_a_corrupt_gz_file_exits_2_with_one_line(bad, kind):
    path = _corrupt_gz(bad)[kind]
    status, out, err = evalkit_cli(["ref.txt", "-i", path.name], bad)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"python -m evalkit: error: cannot read {path.name}: ")


@pytest.mark.hardening
def test_stdin_closed_exits_2_with_one_line(bad):
    run = subprocess.run(["sh", "-c", f'exec "{sys.executable}" -m evalkit ref.txt <&-'], cwd=bad, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1])})
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == "python -m evalkit: error: stdin is closed: give the hypotheses with -i FILE\n"


@pytest.mark.hardening
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="/dev/full is Linux's")
def test_output_to_a_full_device_exits_2_with_one_line(bad):
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "evalkit", "ref.txt", "-i", "hyp.txt"], cwd=bad, stdout=full,
                             stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1])})
    assert run.returncode == 2
    assert run.stderr == "python -m evalkit: error: cannot write the output: No space left on device\n"


@pytest.mark.hardening
def test_a_missing_mecab_dictionary_exits_2_with_one_line(bad, monkeypatch):
    ipadic = pytest.importorskip("ipadic")
    from evalkit import tokenize

    monkeypatch.setattr(ipadic, "MECAB_ARGS", f'-r /dev/null -d "{bad / "no-dictionary"}"')  # as if deleted
    tokenize._mecab_tagger.cache_clear()
    try:
        status, out, err = evalkit_cli(["ref.txt", "-i", "hyp.txt", "-tok", "ja-mecab"], bad)
    finally:
        tokenize._mecab_tagger.cache_clear()  # the next user starts the real one
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("python -m evalkit: error: -tok ja-mecab: MeCab cannot start ([ifs] no such file or "
                          "directory: ") and "no-dictionary/dicrc" in err


@pytest.mark.hardening
def test_plot_into_a_folder_is_refused(bad):
    (bad / "figures").mkdir()
    status, out, err = evalkit_cli(["ref.txt", "-i", "hyp.txt", "--plot", "figures"], bad)
    assert status == 2 and out == "" and "--plot figures is a folder: give a file name, such as figures/fig.png" in err
    assert not (bad / "figures.png").exists() and not list((bad / "figures").iterdir())


@pytest.mark.hardening
@pytest.mark.parametrize("segment", ["²", "١", "0", "-1", "1.5"])
def test_explain_refuses_what_is_not_a_segment_number(bad, segment):
    status, out, err = evalkit_cli(["ref.txt", "-i", "hyp.txt", "--explain", segment], bad)
    assert status == 2 and out == ""
    assert err == f"python -m evalkit: error: --explain takes a segment number from 1, got {segment!r}\n"


@pytest.mark.conformance
@pytest.mark.hardening
def test_json_of_several_systems_escapes_non_ascii_names_as_sacrebleu(wmt17):
    (wmt17 / "système-ü.de").write_bytes((wmt17 / "KIT.4950.de").read_bytes())
    ours, theirs = both(["ref.de", "-i", "online-A.0.de", "système-ü.de", "-m", "bleu", "-w", "4"], wmt17)
    assert ours == theirs and "syst\\u00e8me-\\u00fc.de" in ours and ours.isascii()


@pytest.mark.hardening
def test_paired_json_escapes_non_ascii_names_too(wmt17):
    (wmt17 / "système.de").write_bytes((wmt17 / "KIT.4950.de").read_bytes())
    status, out, err = evalkit_cli(["ref.de", "-i", "online-A.0.de", "système.de", "--paired-bs", "-pbsn", "50",
                                    "-f", "json"], wmt17)
    assert status == 0 and out.isascii() and json.loads(out)["systems"][1]["system"] == "système.de"
