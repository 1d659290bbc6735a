"""A 300,000-segment upload through the app (AppTest, no browser): read, score, dashboard.

Run: ``python benchmarks/bench_upload_300k.py [--copies 100]``. The upload is 100 copies of
WMT17 en-de (300,400 lines): one system and the reference. Its BLEU must equal sacrebleu's on
one copy (every count scales by 100), checked here. Printed: the time of the upload's rerun
(reading, statistics, 1000 bootstrap resamples, charts), of a page switch, the process's peak
RSS, and sacrebleu's time to score the same corpus, as a ratio. Too slow for the test suite,
hence a benchmark; tests/core/test_bad_inputs.py scores the same corpus without the app.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import sacrebleu
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[1]
WMT17 = REPO.parent / "shared" / "data" / "wmt17_newstest2017_en-de"
REF = WMT17 / "newstest2017.en-de.ref.de"
SYS = WMT17 / "newstest2017.C-3MA.4959.en-de.de"
sys.path.insert(0, str(REPO))  # app.py imports its page glue as ``views._common``



def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=100)
    copies = parser.parse_args().copies
    hyp_bytes, ref_bytes = SYS.read_bytes() * copies, REF.read_bytes() * copies
    n_lines = hyp_bytes.count(b"\n")
    print(f"upload: 1 system + 1 reference, {n_lines:,} lines each "
          f"({len(hyp_bytes) / 2**20:.1f} MB + {len(ref_bytes) / 2**20:.1f} MB)")

    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=1800)
    start = time.perf_counter()
    app.run()
    print(f"first run (the bundled sample)         {time.perf_counter() - start:8.1f} s")
    app.file_uploader(key="systems_upload").set_value([(SYS.name, hyp_bytes, "text/plain")])
    app.file_uploader(key="references_upload").set_value([(REF.name, ref_bytes, "text/plain")])
    start = time.perf_counter()
    app.run()
    upload_s = time.perf_counter() - start
    assert not app.exception, app.exception
    errors = [element.value for element in app.error]
    assert not errors, errors
    frame = app.dataframe[0].value
    shown = float(frame["BLEU"].iloc[0])
    print(f"upload rerun: read + score + dashboard  {upload_s:8.1f} s")
    start = time.perf_counter()
    app.switch_page("views/data.py").run()
    app.switch_page("views/dashboard.py").run()
    print(f"page switch and back (cached)          {time.perf_counter() - start:8.1f} s")
    print(f"peak RSS of this process               {peak_rss_mib():8.0f} MiB")

    hyps = hyp_bytes.decode("utf-8").split("\n")[:n_lines]
    refs = ref_bytes.decode("utf-8").split("\n")[:n_lines]
    start = time.perf_counter()
    theirs = sacrebleu.corpus_bleu(hyps, [refs]).score
    sacre_s = time.perf_counter() - start
    one = sacrebleu.corpus_bleu(hyps[:n_lines // copies], [refs[:n_lines // copies]]).score
    assert abs(shown - one) < 1e-9 and abs(theirs - one) < 1e-9, (shown, theirs, one)
    print(f"BLEU shown {shown:.2f} = sacrebleu on one copy {one:.2f}; sacrebleu alone takes "
          f"{sacre_s:.1f} s to score it: upload-to-dashboard / sacrebleu-score = "
          f"{upload_s / sacre_s:.2f}")


if __name__ == "__main__":
    main()
