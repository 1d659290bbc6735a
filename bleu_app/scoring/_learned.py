"""Compute a learned metric (COMET, BERTScore) from a model on this machine, on the Metrics &
human scores page: name a model, load it, read the plan (what the score cache holds already, the
estimated time on this device), start, watch the progress, cancel. The scores become a
segment-score metric on every page (``_segment_scores.add``), xCOMET's error spans beside them.

How the long work runs: in a thread of its own (``bleu.metrics.learned.background.LearnedRun``)
held in the session. A fragment on this page polls it twice a second and redraws only itself
(the progress bar and Cancel), so the rest of the page and the other pages stay usable while a
model scores, and Cancel is an ordinary click that sets the event the run checks between
batches. Run inside the script instead, the computation would hold the session, and any click
would stop it mid-batch through Streamlit's rerun. A finished run is taken in by the next script
run of any page (``collect``, which ``_segment_scores.loaded`` calls).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.display.formatting import COUNT, UNIT_SCORE
from bleu.errors import InputError
from bleu.evaluation import registry
from bleu.evaluation.registry import LEARNED
from bleu.i18n import tr
from bleu.io.dataset import Dataset
from bleu.metrics.learned import (
    OfferedModel,
    Plan,
    Scorer,
    offered_models,
    plan,
    resolve,
    score,
)
from bleu.metrics.learned.background import CANCELLED, DONE, WAITING, FallbackScoreCache, LearnedRun
from bleu.metrics.learned.describe import estimate_text, plan_text, progress_text
from bleu.workspace.config import database_location
from bleu.workspace.score_cache import score_cache
from bleu_app.scoring import _segment_scores
from bleu_app.session import _workspace

#: every learned metric declared in the registry (COMET, BERTScore, MetricX)
METRICS = tuple(spec.name for spec in registry.declared() if spec.family == LEARNED)
#: how often the progress is redrawn while a model scores (seconds)
POLL_SECONDS = 0.5

# session keys (the widget keys are stable: tests find the widgets by them)
METRIC = "learned_metric"
MODEL = "learned_model"
OFFERED = "learned_offered"  # the model picker of a shared server
LAYERS = "learned_layers"
USE_REFERENCE = "learned_use_reference"
LOAD = "learned_load"
COMPUTE = "learned_compute"
CANCEL = "learned_cancel"
LOADED = "learned_loaded"  # the Request whose model was loaded
LOAD_ERROR = "learned_load_error"  # (Request, message)
PLAN = "learned_plan"  # (what the plan was made for, Plan)
RUN = "learned_run"  # the Job in progress
OUTCOME = "learned_outcome"  # (kind, message) of the last run
KEPT = "learned_kept"  # widget key -> its last value (given back after another page)


@dataclass(frozen=True)
class Request:
    """A model as the user named it: the metric, the folder or Hugging Face name, and for
    BERTScore the layer (None: bert_score's own for the models it knows)."""

    metric: str
    model: str
    layers: int | None = None


@dataclass(frozen=True)
class Job:
    """A run in progress and what it is for: the label its scores get, the systems' texts (the
    error spans belong to them)."""

    run: LearnedRun
    label: str
    texts: Mapping[str, tuple[str, ...]]


@st.cache_resource(show_spinner=False, max_entries=2)
def _loaded_model(metric: str, model: str, layers: int | None) -> Scorer:
    """A model loaded once per server (minutes for a large one; two kept, they take GBs) and
    used by every session: the scorers are safe for several threads at once."""
    options = {"num_layers": layers} if metric == "BERTScore" else {}
    return registry.get(metric).load(model, **options)  # type: ignore[misc]


def _shared() -> bool:
    """Whether this is a shared server, where visitors pick among the offered models only."""
    return _workspace.shared()


def offered() -> tuple[OfferedModel, ...]:
    """The models the operator offers (BLEU_EXPLORER_MODELS, ``[learned] models``)."""
    try:
        section = st.secrets.get("learned", {})
    except FileNotFoundError:
        section = {}
    configured = section.get("models") if hasattr(section, "get") else None
    return offered_models(configured)


def _scorer(metric: str, model: str, layers: int | None) -> Scorer:
    """The loaded model the user named; on a shared server ``model`` is an offered model's
    name, never a path (every other name gets the one message of ``resolve``)."""
    if not _shared():
        return _loaded_model(metric, model, layers)
    folder = resolve(model, offered())
    try:
        return _loaded_model(metric, str(folder), layers)
    except InputError as error:  # the operator's model: said by its name, not its path
        raise type(error)(str(error).replace(str(folder), model)) from None


@st.cache_resource(show_spinner=False)
def _score_cache(location: str) -> FallbackScoreCache:
    """The workspace database's score cache (memory, once it fails), one per server."""
    return FallbackScoreCache(score_cache(location))


def cache() -> FallbackScoreCache:
    """Where computed scores are kept: the app's workspace database, keyed by model and text."""
    return _score_cache(database_location(_workspace.settings().get("database")))


def gpu_name() -> str | None:
    """The GPU torch sees (None: none, or torch not loaded, which no model is then)."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return None
    return str(torch.cuda.get_device_name(0))


def label(request: Request, scorer: Scorer) -> str:
    """What the computed metric is called: after the model (and BERTScore's layer)."""
    return registry.get(request.metric).label(request.model, scorer=scorer)  # type: ignore[misc]


def _inputs(data: Dataset, use_reference: bool,
            ) -> tuple[dict[str, tuple[str, ...]], Sequence[str] | None,
                       tuple[tuple[str, ...], ...]]:
    systems = {name: tuple(file.segments) for name, file in data.systems.items()}
    sources = tuple(data.source.segments) if data.source is not None else None
    return systems, sources, data.reference_streams if use_reference else ()


def collect() -> None:
    """Take in a run that has ended: its scores as a metric (with spans), or what stopped it."""
    state = st.session_state
    job = state.get(RUN)
    if job is None or not job.run.finished:
        return
    state.pop(RUN)
    state.pop(PLAN, None)
    run = job.run
    if run.state == DONE and run.result is not None:
        result = run.result
        spans = {system.name: (job.texts[system.name], system.spans)
                 for system in result.systems if system.spans is not None}
        direction = registry.get(result.metric).higher_is_better
        _segment_scores.add(result.to_segment_scores(job.label, higher_is_better=direction),
                            spans=spans or None)
        state[OUTCOME] = ("success", tr(
            "{label}: {computed} segments computed, {cached} taken from the cache; it is a "
            "metric on every page now. Signature: {signature}").format(
            label=job.label, computed=COUNT.text(result.computed),
            cached=COUNT.text(result.cached), signature=result.signature))
    elif run.state == CANCELLED:
        reason = str(run.error) if run.error is not None else tr("cancelled before it started.")
        if run.abandoned:
            reason = tr("stopped: the session that started it was closed.")
        state[OUTCOME] = ("info", tr("{label}: {reason}").format(label=job.label, reason=reason))
    elif isinstance(run.error, InputError):  # the data does not suit the model: the core says why
        state[OUTCOME] = ("error", tr("{label}: {reason}").format(label=job.label,
                                                                  reason=run.error))
    else:
        state[OUTCOME] = ("error", tr("{label} failed: {kind}: {error}").format(
            label=job.label, kind=type(run.error).__name__, error=run.error))


def needs_model() -> str:
    """What a page says where a learned metric could be shown and no model is loaded."""
    return tr("A learned metric (COMET, BERTScore, MetricX) shows here once a model is loaded "
              "under "
              "Compute a learned metric on Metrics & human scores (the 'learned' extra and a "
              "model on this machine).")


def session_model() -> tuple[str, Scorer] | None:
    """The model loaded on Metrics & human scores in this session, and the label its scores
    get; None where none is (a page then says ``needs_model()``). Instant once loaded."""
    state = st.session_state
    request = state.get(LOADED)
    failed = state.get(LOAD_ERROR)
    if request is None or (failed is not None and failed[0] == request):
        return None
    try:
        scorer = _scorer(request.metric, request.model, request.layers)
    except InputError:
        return None
    return label(request, scorer), scorer


def score_sentence(scorer: Scorer, hypothesis: str, references: Sequence[str],
                   source: str | None = None) -> float:
    """One translation's score under ``scorer`` (a teaching page's own sentence pair), from the
    score cache where it was computed before; InputError where the model needs what is not
    given (COMET: the source), with the core's message."""
    found = score(scorer, {"sentence": [hypothesis]},
                  sources=[source] if source is not None else None,
                  references=[[reference] for reference in references], cache=cache())
    return float(found.systems[0].scores[0])


def _show(kind: str, text: str) -> None:
    getattr(st, kind)(escape_markdown(text))


def _session_open() -> Callable[[], bool]:
    """Whether the session that starts a run is still open (its tab not closed): the run stops
    at its next batch once it is not, since nobody waits for it."""
    from streamlit import runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    context = get_script_run_ctx()
    if context is None or not runtime.exists():
        return lambda: True
    session, server = context.session_id, runtime.get_instance()
    return lambda: server.is_active_session(session)


def _start(request: Request, scorer: Scorer, data: Dataset, use_reference: bool) -> None:
    """Start the run (the Compute button's callback)."""
    systems, sources, references = _inputs(data, use_reference)
    run = LearnedRun(scorer, systems, sources=sources, references=references, cache=cache(),
                     waited_for=_session_open())
    st.session_state[RUN] = Job(run.start(), label(request, scorer), systems)
    st.session_state.pop(OUTCOME, None)


def _run_panel() -> None:
    """The run's progress and Cancel (a fragment: polled, redrawn alone)."""
    job = st.session_state.get(RUN)
    if job is None:
        return
    run = job.run
    if run.finished:
        st.rerun()  # the whole app: collect() adds the metric to every page
    st.markdown(tr("**Computing {label}**").format(label=escape_markdown(job.label)))
    progress = run.progress
    if run.cancel.is_set():
        st.info(tr("Stopping after the batch being computed; what is done stays in the cache."))
    elif run.state == WAITING:
        st.info(tr("Waiting for another computation on this server to end (one model runs at a "
                   "time)."))
    if progress is None:
        st.progress(0.0, text=tr("Starting…"))
    else:
        st.progress(min(progress.fraction, 1.0), text=escape_markdown(progress_text(progress)))
    st.button(tr("Cancel"), key=CANCEL, on_click=run.stop, disabled=run.cancel.is_set(),
              help=tr("Stops between two batches; the batches finished stay in the cache, so a "
                      "second run starts where this one stopped."))


def _kept(key: str, default: object) -> object:
    """The last value of widget ``key`` on this page: Streamlit forgets a widget's value when a
    run of another page does not draw it, so each one is given back as its ``value``."""
    return st.session_state.get(KEPT, {}).get(key, default)


def _keep(**values: object) -> None:
    st.session_state.setdefault(KEPT, {}).update(values)


def _offered_choice(metric: str, disabled: bool) -> str:
    """A shared server's model field: the operator's models of the metric's kind, by name, no
    free text."""
    names = [model.name for model in offered() if model.kind == registry.get(metric).model_kind]
    if not names:
        st.info(tr("This shared server offers no models for {metric}: its operator lists "
                   "them with bleu-explorer app --models FOLDER (or [learned] models in "
                   ".streamlit/secrets.toml).").format(metric=metric))
        return ""
    kept = str(_kept(MODEL, names[0]))
    return str(st.selectbox(tr("Model (offered on this server)"), names, key=OFFERED,
                            index=names.index(kept) if kept in names else 0,
                            disabled=disabled,
                            help=tr("The models this server's operator made available. A "
                                    "shared server never loads a model from a path a visitor "
                                    "types.")))


def _choose(disabled: bool) -> Request:
    metric = st.radio(tr("Learned metric"), METRICS, horizontal=True, key=METRIC,
                      index=METRICS.index(str(_kept(METRIC, METRICS[0]))), disabled=disabled)
    if _shared():
        model = _offered_choice(metric, disabled)
    else:
        model = st.text_input(
            tr("Model: a folder, or a Hugging Face name in this machine's cache"), key=MODEL,
            value=str(_kept(MODEL, "")), disabled=disabled,
            placeholder=registry.get(metric).example_model,
            help=tr("COMET: the model's folder (hparams.yaml beside checkpoints/), its "
                    "checkpoints/model.ckpt, or its name in the local Hugging Face cache. "
                    "BERTScore: a Hugging Face model folder or cached name. MetricX-24: its "
                    "folder, with mT5's tokenizer files in it. Nothing is downloaded: a model "
                    "that is not here gets the command that fetches it."))
    layers = None
    if metric == "BERTScore":
        chosen = st.number_input(
            tr("Layer"), min_value=1, max_value=128, value=_kept(LAYERS, None), step=1,
            key=LAYERS, disabled=disabled,
            help=tr("The layer whose embeddings BERTScore compares (bert_score's num_layers). "
                    "Empty: bert_score's tuned layer for the models it names (roberta-large: "
                    "17); other models need one."))
        layers = int(chosen) if chosen else None
        _keep(**{LAYERS: layers})
    _keep(**{METRIC: metric, MODEL: model})
    return Request(metric, model.strip(), layers)


def _loaded(request: Request) -> Scorer | None:
    """The model, once the user has asked for it (loaded once per server), else None; a model
    that cannot be loaded says why."""
    state = st.session_state
    if st.button(tr("Load the model"), key=LOAD, disabled=not request.model):
        state[LOADED] = request
        state.pop(LOAD_ERROR, None)
        state.pop(OUTCOME, None)
    failed = state.get(LOAD_ERROR)
    if failed is not None and failed[0] == request:
        st.error(escape_markdown(failed[1]))
        return None
    if state.get(LOADED) != request:
        return None
    try:
        with st.spinner(tr("Loading {model}…").format(model=escape_markdown(request.model))):
            return _scorer(request.metric, request.model, request.layers)
    except InputError as error:  # a missing model, extra or encoder: the core's message
        state[LOAD_ERROR] = (request, str(error))
        st.error(escape_markdown(str(error)))
        return None


def _use_reference(data: Dataset, request: Request, scorer: Scorer) -> bool | None:
    """Whether the run reads the references; None where it cannot run on this data (said)."""
    if request.metric == "BERTScore":
        st.caption(tr("BERTScore compares each translation with each of its references and "
                      "keeps the best F1."))
        return True
    if data.source is None and registry.get(request.metric).needs_source:
        st.warning(tr("{metric} reads the source segments, and the loaded data has none: load "
                      "a source file with the test set (Data page).").format(
            metric=request.metric))
        return None
    needs, reads = scorer.needs_reference, scorer.reads_reference
    first = tr(" (the first of the {count} references)").format(count=data.n_refs) \
        if data.n_refs > 1 else ""
    if needs:
        st.caption(tr("Reference-based: the model reads the source, the translation and the "
                      "reference{first}.").format(first=first))
        return True
    if not reads:
        st.caption(tr("Reference-free (quality estimation): the model reads the source and the "
                      "translation only."))
        return False
    use = st.checkbox(tr("Use the reference{first} (else reference-free)").format(first=first),
                      value=bool(_kept(USE_REFERENCE, True)), key=USE_REFERENCE,
                      help=tr("This model scores with or without a reference."))
    _keep(**{USE_REFERENCE: use})
    return use


def _plan(data: Dataset, scorer: Scorer, use_reference: bool) -> Plan:
    """What a run would compute and take (made once per model, data and reference choice, and
    again after a run)."""
    key = (scorer.identity, data.key, use_reference)
    kept = st.session_state.get(PLAN)
    if kept is not None and kept[0] == key:
        return kept[1]
    systems, sources, references = _inputs(data, use_reference)
    with st.spinner(tr("Counting what is cached and what is left…")):
        found = plan(scorer, systems, sources=sources, references=references, cache=cache())
    st.session_state[PLAN] = (key, found)
    return found


def section(data: Dataset) -> None:
    """The page's "Compute a learned metric" section."""
    collect()
    st.subheader(tr("Compute a learned metric"))
    st.caption(tr(
        "COMET, BERTScore or MetricX-24 computed here from a model on this machine (the "
        "'learned' extra: pip install 'bleu-explorer[learned]'), for the loaded systems, on the "
        "GPU when torch sees one, each distinct text once. Scores are kept in the workspace "
        "database by model and text, so each is computed once. xCOMET and CometKiwi run through "
        "unbabel-comet, which needs an environment of its own (pip install "
        "'bleu-explorer[learned-unified]', with numpy < 2)."))
    outcome = st.session_state.get(OUTCOME)
    if outcome is not None:
        _show(*outcome)
    failure = cache().failure
    if failure:
        st.warning(escape_markdown(tr("Computed scores are kept in memory only (until the "
                                      "server stops): {error}").format(error=failure)))
    running = st.session_state.get(RUN) is not None
    request = _choose(running)  # drawn during a run too (disabled), so that it keeps its values
    if running:
        st.fragment(_run_panel, run_every=POLL_SECONDS)()
        return
    scorer = _loaded(request)
    if scorer is None:
        return
    use_reference = _use_reference(data, request, scorer)
    if use_reference is None:
        return
    try:
        found = _plan(data, scorer, use_reference)
    except InputError as error:
        st.error(escape_markdown(str(error)))
        return
    st.info(escape_markdown(plan_text(found, gpu_name())))
    if found.to_compute:
        st.caption(escape_markdown(estimate_text(found.estimate)))
    st.button(tr("Compute {label}").format(label=escape_markdown(label(request, scorer))),
              key=COMPUTE, type="primary", on_click=_start,
              args=(request, scorer, data, use_reference))


def pair_score(hypothesis: str, references: Sequence[str], source: str | None = None) -> None:
    """A teaching page's own sentence pair under the session's learned model, beside BLEU (it
    reacts to a negation, a synonym, a reordering where BLEU counts words); without a model,
    what is needed."""
    found = session_model()
    if found is None:
        st.caption(needs_model())
        return
    name, scorer = found
    if not hypothesis.strip() or not references:
        return
    try:
        value = score_sentence(scorer, hypothesis, references, source)
    except InputError as error:
        st.caption(escape_markdown(str(error)))
        return
    better = (tr("higher is better") if registry.get(scorer.metric).higher_is_better
              else tr("lower is better"))
    st.metric(escape_markdown(name), UNIT_SCORE.text(value),
              help=tr("The learned metric loaded on Metrics & human scores, on this pair "
                      "({better}; its scale is the model's, not BLEU's 0-100).").format(
                  better=better))
