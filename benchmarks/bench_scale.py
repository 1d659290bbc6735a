"""Scale benchmark: millions of segments through the streaming path and through Dask.

Builds a corpus of N segments from real WMT17 en-de text (each line made unique by a serial
number), then measures (1) the streaming scorer in a fresh process: time and peak RSS, (2) the
same corpus as Parquet partitions through bleu.dask on a LocalCluster with 2 workers. Both must
give exactly the score of the in-memory path on the first 300k segments' check, and of each other.

    python benchmarks/bench_scale.py --segments 3000000
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt17_newstest2017_en-de"

_STREAM_SCRIPT = """
import json, sys, time
from bleu.score import BLEUOptions
from bleu.streaming import read_lines, score_totals, stream_totals
start = time.perf_counter()
options = BLEUOptions()
totals = stream_totals(read_lines(sys.argv[1]), [read_lines(sys.argv[2])], options)
score = score_totals(totals, options)
print(json.dumps({"score": score.score, "seconds": time.perf_counter() - start,
                  "segments": totals.n_segments}))
"""


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def build_corpus(folder: Path, segments: int) -> tuple[Path, Path]:
    """Hypothesis and reference files of ``segments`` unique lines made from real text."""
    hyp = _lines(DATA / "newstest2017.uedin-nmt.4722.en-de.de")
    ref = _lines(DATA / "newstest2017.en-de.ref.de")
    hyp_path, ref_path = folder / "hyp.txt", folder / "ref.txt"
    with open(hyp_path, "w", encoding="utf-8") as h, open(ref_path, "w", encoding="utf-8") as r:
        for start in range(0, segments, len(ref)):
            count = min(len(ref), segments - start)
            h.write("".join(f"{hyp[i]} {start + i}\n" for i in range(count)))
            r.write("".join(f"{ref[i]} {start + i}\n" for i in range(count)))
    return hyp_path, ref_path


def run_streaming(hyp: Path, ref: Path) -> dict[str, float]:
    """The streaming scorer in a child process; peak RSS from the child's rusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run([sys.executable, "-c", _STREAM_SCRIPT, str(hyp), str(ref)],
                         check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result["peak_rss_mb"] = max(before, after) / 1024
    return result


def run_dask(hyp: Path, ref: Path, folder: Path, rows_per_part: int = 200_000) -> dict[str, float]:
    """The same corpus as Parquet partitions, scored by bleu.dask on 2 local workers."""
    import dask.dataframe as dd
    import distributed
    import pandas as pd

    import bleu.metrics.dask

    parts = folder / "parquet"
    parts.mkdir()
    hyp_lines, ref_lines = _lines(hyp), _lines(ref)
    for k, start in enumerate(range(0, len(hyp_lines), rows_per_part)):
        frame = pd.DataFrame({"hyp": hyp_lines[start:start + rows_per_part],
                              "ref": ref_lines[start:start + rows_per_part]})
        frame.to_parquet(parts / f"part-{k:04d}.parquet")
    del hyp_lines, ref_lines
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster, \
            distributed.Client(cluster):
        start = time.perf_counter()
        score = bleu.dask.corpus_bleu(dd.read_parquet(parts), refs=["ref"])
        seconds = time.perf_counter() - start
    return {"score": score.score, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--segments", type=int, default=3_000_000)
    parser.add_argument("--skip-dask", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hyp, ref = build_corpus(folder, args.segments)
        size_mb = (hyp.stat().st_size + ref.stat().st_size) / 2**20
        print(f"corpus: {args.segments:,} segments, {size_mb:.0f} MB of text (hyp + ref)")
        streaming = run_streaming(hyp, ref)
        print(f"streaming: {streaming['seconds']:.1f} s, peak RSS "
              f"{streaming['peak_rss_mb']:.0f} MB, BLEU {streaming['score']:.4f}")
        if not args.skip_dask:
            dask_result = run_dask(hyp, ref, folder)
            assert dask_result["score"] == streaming["score"], (dask_result, streaming)
            print(f"dask (2 workers): {dask_result['seconds']:.1f} s, identical BLEU")


if __name__ == "__main__":
    main()
