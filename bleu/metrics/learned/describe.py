"""What the app and the command line say about a learned metric: its label (named after the
model, as tables and charts show it), the plan before a run (what is cached, the estimated time
on which device) and the progress during one. Text only: nothing here loads a model."""

from __future__ import annotations

from ...i18n import tr
from ...number_rule import COUNT
from .progress import Estimate, Progress
from .runner import Plan
from .signature import model_name


def metric_label(metric: str, requested: str, num_layers: int | None = None) -> str:
    """The label of a computed metric: ``COMET (wmt22-comet-da)``, ``BERTScore (roberta-large,
    layer 17)`` (the layer changes the scores, so it is part of the name)."""
    name = model_name(requested)
    if num_layers is None:
        return tr("{metric} ({model})").format(metric=metric, model=name)
    return tr("{metric} ({model}, layer {layer})").format(metric=metric, model=name,
                                                          layer=num_layers)


def duration_text(seconds: float) -> str:
    """A rough duration: under a second, seconds, minutes or hours (an estimate is no more)."""
    if seconds < 1:
        return tr("less than a second")
    if seconds < 90:
        return tr("about {count} s").format(count=COUNT.text(round(seconds)))
    if seconds < 90 * 60:
        return tr("about {count} min").format(count=COUNT.text(round(seconds / 60)))
    return tr("about {count} h").format(count=COUNT.text(round(seconds / 3600)))


def device_text(device: str, gpu_name: str | None = None) -> str:
    """Where the model runs, for the user: the GPU (by name), or the CPU and why."""
    if device.startswith("cuda"):
        return tr("on the GPU ({name})").format(name=gpu_name or device)
    return tr("on the CPU (torch sees no GPU)") if gpu_name is None else tr("on the CPU")


def plan_text(plan: Plan, gpu_name: str | None = None) -> str:
    """What a run will do: segments to compute, those already cached, the estimated time."""
    cached = tr("{count} in the cache").format(count=COUNT.text(plan.cached))
    if not plan.to_compute:
        return tr("Every segment is in the cache ({cached}): nothing to compute.").format(
            cached=cached)
    return tr("{count} segments to compute ({cached}): {time} {device}.").format(
        count=COUNT.text(plan.to_compute), cached=cached,
        time=duration_text(plan.estimate.seconds),
        device=device_text(plan.estimate.device, gpu_name))


def estimate_text(estimate: Estimate) -> str:
    """How the estimate was made (for a help text)."""
    return tr("Estimated from {tokens} tokens the model reads: {method}.").format(
        tokens=COUNT.text(estimate.tokens), method=estimate.method)


def progress_text(progress: Progress) -> str:
    """Where a run stands: segments done of those to compute, from the cache, time left."""
    return tr("{done} of {total} segments computed ({cached} from the cache); {time} "
              "left.").format(done=COUNT.text(progress.done), total=COUNT.text(progress.total),
                              cached=COUNT.text(progress.cached),
                              time=duration_text(progress.seconds_left))
