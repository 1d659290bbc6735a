"""The reference libraries, run on the tests' tiny models: unbabel-comet 2.2.7's ``predict`` and
bert-score 0.3.13's ``score``, as their users call them. Runs in the oracle environment
(``.venv-oracle``: unbabel-comet pins numpy < 2, so it cannot live in the app's), called by the
parity tests with a JSON list of jobs on stdin; prints a JSON object, job name -> result.

    {"name": ..., "kind": "comet", "checkpoint": PATH, "samples": [{"src", "mt", "ref"}...],
     "batch_size": N}                                    -> {"scores": [...], "system_score": x}
    {"name": ..., "kind": "bertscore", "model": FOLDER, "num_layers": L, "cands": [...],
     "refs": [...] or [[...], ...], "batch_size": N}     -> {"P": [...], "R": [...], "F": [...]}
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import warnings

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"


def comet_job(job: dict) -> dict:
    from comet import load_from_checkpoint

    model = load_from_checkpoint(job["checkpoint"], local_files_only=True)
    found = model.predict(job["samples"], batch_size=job["batch_size"], gpus=0,
                          progress_bar=False)
    return {"scores": list(found.scores), "system_score": found.system_score}


def bertscore_job(job: dict) -> dict:
    from bert_score import score

    precision, recall, f1 = score(job["cands"], job["refs"], model_type=job["model"],
                                  num_layers=job["num_layers"], batch_size=job["batch_size"])
    return {"P": precision.tolist(), "R": recall.tolist(), "F": f1.tolist()}


def main() -> int:
    import torch

    torch.set_num_threads(1)
    jobs = json.load(sys.stdin)
    results = {}
    logging.disable(logging.WARNING)
    with warnings.catch_warnings(), contextlib.redirect_stdout(sys.stderr):
        warnings.simplefilter("ignore")
        for job in jobs:
            run = comet_job if job["kind"] == "comet" else bertscore_job
            results[job["name"]] = run(job)
    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
