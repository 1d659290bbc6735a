"""Peak memory and time of each refusal of issue 36's hostile inputs, each in a process of its
own (its VmHWM, its wall time): archive bombs and damaged archives (``bleu.io.archive``, as the
Data page reads them), the command line's early refusals (endless valid lines on stdin against
a 100-line reference, an endless ``--scores`` file), a 1 GB body to the cookie route, and a
1 MiB (``--long``: and a 50 MB) line opened on Sentences. Before the fixes the same inputs took
(the issue's probe): 21-44 s for a 10 GiB bzip2 bomb, 837 MB and 48 s for a million members,
13.3 GB for 3 GB on stdin, 1.86 GB for a 300 MB score file, 2 GB for a 1 GB cookie body,
2.4 GB and 57 s for a 1 MiB line, past 14 GB for a 50 MB one.

Run: ``python benchmarks/bench_refusals.py [--long]``; say the load average beside the times.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "io"))
import hostile  # noqa: E402 -- after the path

REF = REPO / "tests" / "data" / "wmt17_newstest2017_en-de" / "newstest2017.en-de.ref.de"
HYP = REPO / "tests" / "data" / "wmt17_newstest2017_en-de" / "newstest2017.C-3MA.4959.en-de.de"
#: prints the outcome and the process's peak resident memory after ``CODE`` ran
WRAP = """
import re, sys
{code}
with open("/proc/self/status") as status:
    print("PEAK_KIB", re.search(r"VmHWM:\\s*(\\d+) kB", status.read()).group(1))
"""
#: writes lines for ever to stdout (a header first, where given) until the reader goes
ENDLESS = """
import os, sys
head, line = sys.argv[1].encode().decode("unicode_escape"), sys.argv[2]
os.write(1, head.encode())
k = 0
try:
    while True:
        os.write(1, "".join(line.format(k + i) for i in range(10_000)).encode())
        k += 10_000
except BrokenPipeError:
    pass
"""


def run(code: str, stdin: subprocess.Popen | None = None, timeout: float = 600,
        ) -> tuple[str, float, float]:
    """``code`` in a fresh interpreter: its last line of output before the peak, the peak in
    MiB, the wall time in seconds."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", WRAP.format(code=code)], cwd=REPO,
                          stdin=stdin.stdout if stdin else subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "BLEU_EXPLORER_DB": str(Path(tempfile.mkdtemp())
                                                                    / "w.sqlite3")})
    seconds = time.perf_counter() - started
    if stdin is not None:
        stdin.kill()
    lines = done.stdout.strip().splitlines()
    peak = next((int(line.split()[1]) for line in lines if line.startswith("PEAK_KIB")), 0)
    said = [line for line in lines if not line.startswith("PEAK_KIB")]
    outcome = said[-1] if said else (done.stderr.strip().splitlines() or ["?"])[-1]
    return outcome, peak / 1024, seconds


def archive(make, name: str, folder: Path) -> tuple[str, float, float]:
    path = folder / name
    path.write_bytes(make())
    return run(f"""
from bleu.io.archive import archive_files
data = open({str(path)!r}, "rb").read()
try:
    archive_files(data, {name!r}, max_files=1100)
    print("loaded")
except Exception as error:
    print(type(error).__name__ + ": " + str(error)[:90])
""")


def endless(head: str, line: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", ENDLESS, head, line],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def cli(args: list[str], stdin: subprocess.Popen) -> tuple[str, float, float]:
    return run(f"""
import contextlib, io
from bleu.cli import main
errors = io.StringIO()
with contextlib.redirect_stderr(errors):
    status = main({args!r})
print(status, errors.getvalue().strip()[:110])
""", stdin=stdin)


def cookie_body() -> tuple[str, float, float]:
    return run("""
import asyncio
from starlette.requests import Request
from bleu_app.session import cookies
chunk = b"x" * 2**20
sent = [0]
async def receive():
    sent[0] += 1
    return {"type": "http.request", "body": chunk, "more_body": sent[0] < 1024}
scope = {"type": "http", "method": "POST", "path": cookies.ROUTE, "scheme": "http",
         "query_string": b"", "server": ("127.0.0.1", 8501),
         "headers": [(b"host", b"127.0.0.1:8501"), (b"sec-fetch-site", b"same-origin"),
                     (b"content-length", str(2**30).encode())]}
answer = asyncio.run(cookies.endpoint(Request(scope, receive)))
print(answer.status_code, "after", sent[0], "MiB of 1,024 received")
""")


def sentences(chars: int) -> tuple[str, float, float]:
    return run(f"""
import sys, time
sys.path.insert(0, {str(REPO)!r})
from streamlit.testing.v1 import AppTest
line = ("Das ist ein sehr langer Satz mit vielen Wörtern " * ({chars} // 48 + 1))[:{chars}]
at = AppTest.from_file({str(REPO / "app.py")!r}, default_timeout=1200).run()
at.file_uploader(key="systems_upload").set_value(
    [("hyp.Long.de", ("Kurz .\\n" + line + "\\nNoch .\\n").encode(), "text/plain")])
at.file_uploader(key="references_upload").set_value(
    [("ref.de", ("Kurz .\\n" + line[:{chars} // 2] + "\\nNoch .\\n").encode(), "text/plain")])
at.run()
at.switch_page("bleu_app/views/sentences.py").run()
started = time.perf_counter()
at.number_input(key="open_segment").set_value(2).run()
drawn = sum(len(m.value) for m in at.markdown) + sum(len(t.value) for t in at.text)
print("exception" if at.exception else "shown:", f"{{drawn:,}} characters drawn, the segment "
      f"view in {{time.perf_counter() - started:.1f}} s")
""", timeout=1800)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--long", action="store_true", help="also open a 50 MB line")
    long = parser.parse_args().long
    with tempfile.TemporaryDirectory() as kept:
        measure_all(Path(kept), long)


def measure_all(folder: Path, long: bool) -> None:
    files31 = {f"sys{k:02d}.de": f"Satz {k}\n".encode() * (k + 1) for k in range(31)}
    cases = [
        ("10 GiB of zeros in a 29 KB .tar.bz2", lambda: archive(
            lambda: hostile.zero_bomb("bz2", 10), "zeros.tar.bz2", folder)),
        ("1 TiB of zeros in a .tar.xz", lambda: archive(
            lambda: hostile.zero_bomb("xz", 1024), "tib.tar.xz", folder)),
        ("40 members of 100 MiB in a .tar.bz2", lambda: archive(
            lambda: hostile.many_big_members("bz2", 40, 100), "members.tar.bz2", folder)),
        ("1,000,000 empty members in a .tar.xz", lambda: archive(
            lambda: hostile.empty_members("xz", 1_000_000), "million.tar.xz", folder)),
        ("a tar with a flipped header byte", lambda: archive(
            lambda: hostile.flipped_header(files31, 11), "flip.tar", folder)),
        ("a damaged .tar.xz", lambda: archive(
            lambda: hostile.damaged_tar_xz(files31), "bad.tar.xz", folder)),
        ("an encrypted zip", lambda: archive(
            lambda: hostile.encrypted_zip({"a.de": b"x\n"}), "secret.zip", folder)),
        ("a Deflate64 zip", lambda: archive(
            lambda: hostile.deflate64_zip({"a.de": b"x\n"}), "d64.zip", folder)),
        ("endless lines on stdin, 100-line reference", lambda: cli(
            [str(REF)], endless("", "ein Satz {}\n"))),
        ("an endless --scores file", lambda: cli(
            [str(REF), "-i", str(HYP), "--scores", "/dev/stdin"],
            endless("system\\tseg_id\\tCOMET\\n", "hyp\t{}\t0.5\n"))),
        ("a 1 GB body to the cookie route", cookie_body),
        ("a 1 MiB line opened on Sentences", lambda: sentences(2**20)),
    ]
    if long:
        cases.append(("a 50 MB line opened on Sentences", lambda: sentences(50_000_000)))
    print(f"load average: {os.getloadavg()[0]:.1f}")
    print(f"{'input':45} {'peak MiB':>9} {'seconds':>8}  outcome")
    for label, measure in cases:
        outcome, peak, seconds = measure()
        print(f"{label:45} {peak:9.0f} {seconds:8.1f}  {outcome[:120]}", flush=True)
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
