"""stdin at its edges, in real processes: endless binary or newline-less input refused early in
bounded memory, stdin closed, stdin a terminal. Each is one line on stderr and exit status 1,
never a traceback.

The endless inputs come from a generator process that writes until the pipe breaks and then
says how much it wrote; the command line runs under an address-space limit (RLIMIT_AS) and
reports its own peak resident memory, so reading everything first (as before: 9.8 GB for 5 GB
of NULs) fails the test.
"""

from __future__ import annotations

import os
import pty
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA_DIR

REF = DATA_DIR / "wmt17_newstest2017_en-de" / "newstest2017.en-de.ref.de"
HYP = DATA_DIR / "wmt17_newstest2017_en-de" / "newstest2017.C-3MA.4959.en-de.de"
#: the address space the command line may use: several times what it needs (about 100 MiB)
ADDRESS_SPACE = 512 * 2**20
#: writes one byte value to stdout until the reader goes, then the count of bytes it wrote
GENERATOR = """
import os, sys
chunk = bytes([int(sys.argv[1])]) * (1 << 20)
written = 0
try:
    while True:
        written += os.write(1, chunk)
except BrokenPipeError:
    pass
sys.stderr.write(str(written))
"""
#: the command line under RLIMIT_AS, printing its peak resident memory (KiB) last on stderr:
#: VmHWM, this process image's own (getrusage's ru_maxrss keeps the forking parent's peak)
BOUNDED_CLI = f"""
import re, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))
from bleu.cli import main
status = main(sys.argv[1:])
with open("/proc/self/status") as status_file:
    peak = re.search(r"VmHWM:\\s*(\\d+) kB", status_file.read()).group(1)
sys.stderr.write("\\nPEAK_RSS_KIB " + peak)
sys.exit(status)
"""


def environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "BLEU_EXPLORER_DB": str(tmp_path / "unused.sqlite3")}


def one_error(stderr: str) -> str:
    """The one error line on stderr (and no traceback)."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if "error:" in line]
    assert len(errors) == 1, stderr
    return errors[0]


@pytest.mark.parametrize(("byte", "problem"), [
    (0, "stdin, line 1: mostly NUL bytes"),  # head -c 5000000000 /dev/zero | bleu-explorer ref
    (ord("a"), "stdin, line 1: longer than 1,000,000 characters, the line limit"),
    # yes '' | head -c 3000000000 | bleu-explorer ref.de: valid lines, more than the reference's
    # (before: all 3 GB read, 13.3 GB of memory, then the count error)
    (ord("\n"), f"{REF} has 100 lines, but stdin has more"),
], ids=["NUL bytes", "no newline", "more lines than the reference"])
def test_endless_bad_stdin_is_refused_early_in_bounded_memory(byte: int, problem: str,
                                                              tmp_path: Path) -> None:
    generator = subprocess.Popen([sys.executable, "-c", GENERATOR, str(byte)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert generator.stdout is not None and generator.stderr is not None
    try:
        done = subprocess.run([sys.executable, "-c", BOUNDED_CLI, str(REF)],
                              stdin=generator.stdout, capture_output=True, text=True,
                              env=environment(tmp_path), timeout=120, check=False)
    finally:
        generator.stdout.close()  # the reader is gone: the generator's next write breaks
        written = int(generator.stderr.read() or 0)
        generator.wait(timeout=60)
    stderr, peak = done.stderr.rsplit("PEAK_RSS_KIB ", 1)
    assert done.returncode == 1 and done.stdout == ""
    error = one_error(stderr)
    assert problem in error
    assert byte == ord("\n") or "binary data or text that is not line-based" in error
    assert int(peak) < 128 * 1024  # KiB: the blocks and one line, not the input
    assert written < 32 * 2**20  # it stopped reading after the first blocks


#: an endless --scores file for another test set: a header, then rows for ever more segments
SCORES_GENERATOR = """
import os, sys
written = os.write(1, b"system\\tseg_id\\tCOMET\\n")
segment = 0
try:
    while True:
        rows = "".join(f"hyp\\t{segment + k}\\t0.5\\n" for k in range(1, 10_001))
        written += os.write(1, rows.encode())
        segment += 10_000
except BrokenPipeError:
    pass
sys.stderr.write(str(written))
"""


def test_an_endless_scores_file_stops_being_read_past_what_the_test_set_can_use(tmp_path):
    """``--scores`` of a file for another test set (300 MB before: 1.86 GB of memory, then the
    refusal): read no further than 1,024 lines a segment of the test set."""
    generator = subprocess.Popen([sys.executable, "-c", SCORES_GENERATOR],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert generator.stdout is not None and generator.stderr is not None
    try:
        done = subprocess.run([sys.executable, "-c", BOUNDED_CLI, str(REF), "-i", str(HYP),
                               "--scores", "/dev/stdin"],
                              stdin=generator.stdout, capture_output=True, text=True,
                              env=environment(tmp_path), timeout=120, check=False)
    finally:
        generator.stdout.close()
        written = int(generator.stderr.read() or 0)
        generator.wait(timeout=60)
    stderr, peak = done.stderr.rsplit("PEAK_RSS_KIB ", 1)
    assert done.returncode == 1 and done.stdout == ""
    assert one_error(stderr).endswith(
        "error: /dev/stdin: more than 102,464 lines, more than a score file for 100 segments can "
        "hold (1,024 lines a segment): the file is for another test set.")
    assert int(peak) < 160 * 1024
    assert written < 16 * 2**20


@pytest.mark.parametrize("given", [[], ["-i", str(HYP)]], ids=["stdin needed", "with -i"])
def test_closed_stdin(given: list[str], tmp_path: Path) -> None:
    """``bleu-explorer ref.de <&-``: fd 0 closed (Python's sys.stdin is None), not /dev/null."""
    command = shlex.join([sys.executable, "-m", "bleu", str(REF), *given, "-b"]) + " <&-"
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True,
                          env=environment(tmp_path), timeout=120, check=False)
    if given:  # stdin is not needed: scored as usual
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert float(done.stdout) > 0
        return
    assert done.returncode == 1 and done.stdout == ""
    assert one_error(done.stderr).endswith(
        "error: stdin is closed, and no -i was given: pipe the system output in "
        "(bleu-explorer ref.txt < hyp.txt) or give it with -i (bleu-explorer ref.txt -i "
        "hyp.txt).")


def test_a_terminal_with_nothing_piped(tmp_path: Path) -> None:
    """stdin a terminal (a pseudo-terminal here): a message at once instead of waiting for
    typed input; the references are not even read."""
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "bleu", str(tmp_path / "not-read.de")],
                              stdin=follower, capture_output=True, text=True,
                              env=environment(tmp_path), timeout=120, check=False)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 1 and done.stdout == ""
    assert one_error(done.stderr).endswith(
        "error: stdin is a terminal, and no -i was given: pipe the system output in "
        "(bleu-explorer ref.txt < hyp.txt) or give it with -i (bleu-explorer ref.txt -i "
        "hyp.txt).")
