"""What the app and the command line say about a learned metric (bleu.metrics.learned.describe):
the label after the model however it was given, the plan (cached, to compute, time, device) and
the progress line, from the core's Plan and Progress. No torch needed."""

from __future__ import annotations

import pytest

from bleu.metrics.learned import Estimate, Plan, Progress
from bleu.metrics.learned.describe import (
    device_text,
    duration_text,
    metric_label,
    model_name,
    plan_text,
    progress_text,
)

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(("given", "name"), [
    ("Unbabel/wmt22-comet-da", "wmt22-comet-da"),
    ("roberta-large", "roberta-large"),
    ("/models/wmt22-comet-da", "wmt22-comet-da"),
    ("/models/wmt22-comet-da/", "wmt22-comet-da"),
    ("/models/wmt22-comet-da/checkpoints/model.ckpt", "wmt22-comet-da"),
    (f"/root/.cache/huggingface/hub/models--Unbabel--XCOMET-XL/snapshots/{COMMIT}", "XCOMET-XL"),
    (f"/hub/models--Unbabel--XCOMET-XL/snapshots/{COMMIT}/checkpoints/model.ckpt", "XCOMET-XL"),
])
def test_the_model_is_named_by_its_short_name(given: str, name: str) -> None:
    assert model_name(given) == name


def test_labels_name_the_model_and_bertscores_layer() -> None:
    assert metric_label("COMET", "Unbabel/wmt22-comet-da") == "COMET (wmt22-comet-da)"
    assert metric_label("BERTScore", "/m/roberta-large", 17) == \
        "BERTScore (roberta-large, layer 17)"


def _estimate(seconds: float, device: str = "cpu") -> Estimate:
    return Estimate(seconds, device, 1234, 1.0, 1.0)


def test_the_plan_says_what_is_cached_what_is_left_and_where_it_runs() -> None:
    plan = Plan(to_compute=1500, cached=500, estimate=_estimate(170))
    assert plan_text(plan) == ("1,500 segments to compute (500 in the cache): about 3 min on "
                               "the CPU (torch sees no GPU).")
    on_gpu = Plan(to_compute=10, cached=0, estimate=_estimate(0.2, "cuda"))
    assert plan_text(on_gpu, "NVIDIA H200") == ("10 segments to compute (0 in the cache): less "
                                                "than a second on the GPU (NVIDIA H200).")
    assert plan_text(Plan(0, 80, _estimate(0))) == ("Every segment is in the cache (80 in the "
                                                    "cache): nothing to compute.")


@pytest.mark.parametrize(("seconds", "text"), [
    (0.4, "less than a second"), (12.4, "about 12 s"), (89, "about 89 s"), (600, "about 10 min"),
    (4.4 * 3600, "about 4 h"),
])
def test_durations_are_rounded_to_what_an_estimate_is_worth(seconds: float, text: str) -> None:
    assert duration_text(seconds) == text


def test_the_progress_line_uses_the_time_so_far_once_a_batch_is_done() -> None:
    progress = Progress(done=40, total=160, cached=20, elapsed=10.0, estimate=_estimate(999))
    assert progress_text(progress) == ("40 of 160 segments computed (20 from the cache); about "
                                       "30 s left.")
    assert device_text("cpu", "NVIDIA H200") == "on the CPU"
