"""Issue 36's probe list run again: what the reproductions that ``bench_refusals.py`` does not
cover give now, each in a process of its own where memory is measured.

- a live server (``bleu-explorer app`` on a free port, its own workspace database): a 1 GB
  POST to the cookie route, two at once, and posts from another port of the same host (the
  server's peak memory, ``VmHWM``, and the answers); the error details it serves;
- the workspace database's modes under umask 022;
- the staging cache after distinct drops of 120 MiB (``--drop-mib`` scales it);
- a refused archive left in the Data page's uploader: the first run and each rerun;
- the command line: 3 GB of valid lines on stdin against a 50-line reference, a 300 MB
  ``--scores`` file for another test set, and generated adversarial text (stray NUL and control
  bytes) that sacrebleu answers;
- TER under "Also compute" on the dashboard, and a 5 MiB segment opened on Sentences.

Run: ``python benchmarks/probe_issue36.py``; say the load average beside the times.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
_spec = importlib.util.spec_from_file_location("bench_refusals",
                                               REPO / "benchmarks" / "bench_refusals.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)  # type: ignore[union-attr]
hostile = bench.hostile
REF = bench.REF


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def peak_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def post(port: int, body_bytes: int, headers: dict[str, str], results: list, chunk=2**20):
    """POST ``body_bytes`` of 'x' (announced with Content-Length) to the cookie route; the
    status and how much was sent before the server answered or closed."""
    started = time.perf_counter()
    sent = 0
    status = "?"
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        head = (f"POST /bleu-explorer/cookies HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Length: {body_bytes}\r\n"
                + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n")
        sock.sendall(head.encode())
        block = b"x" * chunk
        sock.setblocking(False)
        answer = b""
        while sent < body_bytes:
            try:
                answer += sock.recv(4096)
                if answer:
                    break
            except BlockingIOError:
                pass
            try:
                sent += sock.send(block[: min(chunk, body_bytes - sent)])
            except BlockingIOError:
                time.sleep(0.001)
            except (BrokenPipeError, ConnectionResetError):
                break
        if not answer:
            sock.settimeout(10)
            with contextlib.suppress(OSError):
                answer += sock.recv(4096)
        if answer:
            status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    results.append((status, sent, time.perf_counter() - started))


def server_probe() -> list[tuple[str, str]]:
    port = free_port()
    folder = Path(tempfile.mkdtemp())
    env = {**os.environ, "XDG_DATA_HOME": str(folder), "HOME": str(folder)}
    server = subprocess.Popen([str(BIN / "bleu-explorer"), "app", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    rows = []
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(3)  # the warm-up
        base = peak_kib(server.pid)
        rss = rss_kib(server.pid)
        same = {"Sec-Fetch-Site": "same-origin", "Origin": f"http://127.0.0.1:{port}"}
        for count in (1, 2):
            results: list = []
            threads = [threading.Thread(target=post, args=(port, 2**30, same, results))
                       for _ in range(count)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            rows.append((f"{count} x 1 GB POST to the cookie route at once",
                         "; ".join(f"{s}, {sent / 2**20:,.1f} MiB sent, {t:.2f} s"
                                   for s, sent, t in results)
                         + f"; server RSS {rss // 1024} MiB before, peak {base // 1024} -> "
                           f"{peak_kib(server.pid) // 1024} MiB"))
        other = f"http://127.0.0.1:{free_port()}"
        for label, headers in [
                ("a POST from another port (Sec-Fetch-Site: same-site)",
                 {"Sec-Fetch-Site": "same-site", "Origin": other}),
                ("a POST from another port (Origin only, an older browser)", {"Origin": other}),
                ("a POST with no Origin and no Sec-Fetch-Site", {}),
                ("a nonce-sized POST from the app's own page, nonce not offered", same)]:
            results = []
            post(port, 22, headers, results)
            rows.append((label, results[0][0]))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    sys.path.insert(0, str(REPO))
    from bleu_app.launch import settings_flags
    rows.append(("the served app's error details",
                 " ".join(flag for flag in settings_flags() if "ErrorDetails" in flag)))
    return rows


FILE_MODES = """
import os, stat, sqlite3
from pathlib import Path
os.umask(0o022)
from bleu.io import TextFile
from bleu.io.dataset import assemble
from bleu.workspace import Workspace, WorkspaceStore, new_edit_token
location = Path({folder!r}) / "bleu-explorer" / "workspaces.sqlite3"
store = WorkspaceStore(str(location))
data = assemble([TextFile("hyp.de", ("ein Haus",))], [TextFile("ref.de", ("ein Haus",))])
store.save(Workspace.new(data, "modes"), token=new_edit_token())
writing = sqlite3.connect(location, isolation_level=None)
writing.execute("BEGIN IMMEDIATE"); writing.execute("CREATE TABLE kept_open (x)")
modes = {{p.name: oct(stat.S_IMODE(p.stat().st_mode)) for p in location.parent.iterdir()}}
writing.execute("ROLLBACK")
print("folder", oct(stat.S_IMODE(location.parent.stat().st_mode)), modes)
"""

STAGING = """
import gc
from types import SimpleNamespace
import streamlit as st
from bleu.io.staging import StagedArchive, stage_file
from bleu_app.runtime import _cache
from bleu_app.widgets import _uploads
def rss():
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmRSS")) // 1024
print("start", rss(), "MiB")
line = ("ein Satz mit ein paar Wörtern und Zahl {{0}} " * 3 + "\\n")
for drop in range({drops}):
    text = "".join(line.format(drop * 10_000_000 + k) for k in range({lines})).encode()
    upload = SimpleNamespace(file_id=f"id{{drop}}", name=f"hyp.S{{drop}}.de", size=len(text))
    _uploads._kept(upload, "text", lambda: StagedArchive(tuple(stage_file(text, upload.name)),
                                                          (), 1))
    del text
    gc.collect()
    kept = _cache.cache("staging")
    print(f"drop {{drop + 1}}", rss(), "MiB;", len(kept), "kept,",
          kept.nbytes // 2**20, "MiB charged")
"""

REFUSED_RERUN = """
import sys, time
sys.path.insert(0, {repo!r}); sys.path.insert(0, {io!r})
import hostile
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({app!r}, default_timeout=600).run()
at.switch_page("bleu_app/views/data.py").run()
bomb = hostile.zero_bomb("bz2", 10)
started = time.perf_counter()
at.file_uploader(key="files_upload").set_value([("zeros.tar.bz2", bomb,
                                                 "application/x-bzip2")]).run()
times = [time.perf_counter() - started]
for _ in range(3):
    started = time.perf_counter()
    at.checkbox(key="files_latin1").check().run() if len(times) % 2 else \\
        at.checkbox(key="files_latin1").uncheck().run()
    times.append(time.perf_counter() - started)
errors = [e.value for e in at.error]
print("bomb", len(bomb), "bytes; runs", ", ".join(f"{{t:.2f}} s" for t in times), "|",
      "exception" if at.exception else errors[0][:160])
"""

TER = """
import sys
sys.path.insert(0, {repo!r})
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({app!r}, default_timeout=600)
at.query_params["other_metrics"] = "TER"
at.run()
charts = len(at.get("vega_lite_chart"))
print("exception: " + str(at.exception[0].message)[:100] if at.exception else
      f"no exception, {{len(at.error)}} error boxes, {{charts}} charts")
"""


def cli_stdin_lines(folder: Path) -> str:
    ref50 = folder / "ref50.de"
    ref50.write_text("".join(REF.read_text(encoding="utf-8").splitlines(True)[:50]),
                     encoding="utf-8")
    code = folder / "cli.py"
    code.write_text("import resource, sys\nfrom bleu.cli import main\nstatus = main(sys.argv[1:])\n"
                    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
                    "sys.exit(status)\n")
    started = time.perf_counter()
    done = subprocess.run(f"yes 'ein Satz' | head -c 3000000000 | {BIN / 'python'} {code} {ref50}",
                          shell=True, capture_output=True, text=True)
    error, peak = done.stderr.strip().rsplit("\n", 1)
    return (f"exit {done.returncode}, {int(peak) / 1024:.0f} MiB peak, "
            f"{time.perf_counter() - started:.1f} s: {error.strip()[:140]}")


def cli_scores(folder: Path) -> str:
    scores = folder / "comet.tsv"
    with scores.open("w") as handle:
        handle.write("system\tseg_id\tCOMET\n")
        block = "".join(f"hyp\t{k}\t0.5\n" for k in range(1, 100_001))
        while handle.tell() < 300_000_000:
            handle.write(block)
    started = time.perf_counter()
    done = subprocess.run(
        [str(BIN / "python"), "-c",
         "import resource, sys; from bleu.cli import main; status = main(sys.argv[1:]); "
         "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); "
         "sys.exit(status)", str(REF), "-i", str(bench.HYP), "--scores", str(scores)],
        capture_output=True, text=True)
    size = scores.stat().st_size
    scores.unlink()
    error, peak = done.stderr.strip().rsplit("\n", 1)
    return (f"{size / 1e6:.0f} MB file: exit {done.returncode}, {int(peak) / 1024:.0f} MiB "
            f"peak, {time.perf_counter() - started:.1f} s: {error.strip()[:140]}")


def adversarial(folder: Path, count: int = 60, seed: int = 36) -> str:
    """Generated text with stray NUL and control bytes (and a few lines of mostly NUL);
    the exit status of sacrebleu and of bleu-explorer on each."""
    rng = random.Random(seed)
    words = REF.read_text(encoding="utf-8").split()
    odd = ["\0", "\x01", "\x07", "\x0b", "\x0c", "\x1b", "\x7f", "\u202e", "\u2028", "\ufeff"]
    ref = folder / "adv.ref"
    hyp = folder / "adv.hyp"
    agree = differ = 0
    notes = []
    for case in range(count):
        lines = []
        for _ in range(20):
            tokens = rng.sample(words, 8)
            for _ in range(rng.randint(0, 3)):
                tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(odd))
            lines.append(" ".join(tokens) if rng.random() < 0.5 else "".join(tokens))
        ref.write_text("\n".join(" ".join(rng.sample(words, 8)) for _ in range(20)) + "\n",
                       encoding="utf-8")
        hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        ours = subprocess.run([str(BIN / "bleu-explorer"), str(ref), "-i", str(hyp), "-b"],
                              capture_output=True, text=True)
        theirs = subprocess.run([str(BIN / "sacrebleu"), str(ref), "-i", str(hyp), "-b"],
                                capture_output=True, text=True)
        if theirs.returncode == 0:
            same = ours.returncode == 0 and \
                abs(float(ours.stdout.split()[0]) - float(theirs.stdout.split()[0])) < 1e-9
            agree += same
            differ += not same
            if not same and len(notes) < 2:
                notes.append(f"case {case}: ours exit {ours.returncode} "
                             f"{(ours.stdout + ours.stderr).strip()[:80]!r}, sacrebleu "
                             f"{theirs.stdout.strip()!r}")
    return (f"{agree + differ} of {count} command lines that sacrebleu answers: "
            f"{agree} give the same score, {differ} differ" + (f" ({'; '.join(notes)})"
                                                               if notes else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drop-mib", type=int, default=120)
    parser.add_argument("--drops", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as kept:
        probe_all(Path(kept), options)


def probe_all(folder: Path, options: argparse.Namespace) -> None:
    app = str(REPO / "app.py")
    lines = options.drop_mib * 2**20 // len(("ein Satz mit ein paar Wörtern und Zahl 0000000 "
                                              * 3 + "\n").encode())
    print(f"load average: {os.getloadavg()[0]:.1f}", flush=True)
    probes = [
        ("server", lambda: "\n".join(f"  {label}: {said}" for label, said in server_probe())),
        ("file modes", lambda: bench.run(FILE_MODES.format(folder=str(folder)))[0]),
        (f"staging {options.drops} x {options.drop_mib} MiB", lambda: "\n".join(
            f"  {line}" for line in subprocess.run(
                [sys.executable, "-c", STAGING.format(drops=options.drops, lines=lines)],
                cwd=REPO, capture_output=True, text=True).stdout.splitlines()
            or ["failed"])),
        ("refused archive rerun", lambda: "{} (peak {:.0f} MiB, {:.1f} s)".format(
            *bench.run(REFUSED_RERUN.format(repo=str(REPO), io=str(REPO / "tests" / "io"),
                                            app=app), timeout=1200))),
        ("TER on the dashboard", lambda: bench.run(TER.format(repo=str(REPO), app=app))[0]),
        ("CLI: 3 GB of lines, 50-line reference", lambda: cli_stdin_lines(folder)),
        ("CLI: 300 MB --scores for another test set", lambda: cli_scores(folder)),
        ("CLI: adversarial text", lambda: adversarial(folder)),
        ("5 MiB segment on Sentences", lambda: "{} (peak {:.0f} MiB, {:.1f} s)".format(
            *bench.sentences(5 * 2**20))),
    ]
    only = os.environ.get("PROBE_ONLY")
    for label, probe in probes:
        if only and not any(part in label for part in only.split(",")):
            continue
        print(f"{label}:", probe(), flush=True)
    print(f"load average: {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
