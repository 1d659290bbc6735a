"""``Evaluation``: systems scored against their references by every metric asked for, and tested.

One object per loaded data set: add registered metrics (``add_metric``) and segment-score files
(``add_scores``), then ask for each metric's scores (``scores``), its results against a baseline
with all pairs and clusters (``results``), every pair by bootstrap or approximate
randomization (``pairs``), A against B on every metric (``compare``), the dashboard
(``dashboard``), or the same on some segments only (``subset``: a filter or a bucket). The
app, the command line and notebooks all call it; nothing else scores or tests systems.

Statistics are computed when first asked for, one system at a time (``progress`` is told after
each, so a caller can show a bar and stop between systems), and kept: in the object, and in a
``store`` where the caller gives one (the app's server-wide store, keyed on content, shared by
every session).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..errors import InputError, LengthMismatchError, UnknownOptionError
from ..i18n import tr
from ..metrics.base import SignificanceResult
from ..metrics.checks import (
    References,
    check_references,
    check_text_stream,
    reference_presence,
    references_per_segment,
)
from ..metrics.segment.scores import SegmentScores
from ..metrics.significance import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    bootstrap_ci_from_stats,
    paired_ar_from_stats,
    paired_bootstrap_from_stats,
)
from . import declared  # noqa: F401 -- fills the registry
from .paired import PairedComparison, paired_comparison
from .ranking import AllPairs, all_pairs
from .registry import LEARNED, TEXT, MetricSpec, registry
from .results import Dashboard, MetricResults, assemble_dashboard, metric_results
from .scores import MetricScores, from_segment_scores, from_stats

if TYPE_CHECKING:
    from .systems import AliasHint, Matching


class StatsStore(Protocol):
    """Where statistics matrices are kept across evaluations (the app's, server-wide)."""

    def get(self, key: Hashable) -> np.ndarray | None: ...

    def put(self, key: Hashable, matrix: np.ndarray) -> None: ...


@dataclass(frozen=True)
class MetricProgress:
    """How far computing a metric has come: ``done`` of ``total`` systems (a learned metric:
    segments, ``unit``), ``current`` the system computed next (None once all are done)."""

    metric: str
    done: int
    total: int
    current: str | None
    unit: str = "systems"


#: called before the first system and after each one a metric computes
ProgressCallback = Callable[[MetricProgress], None]


@dataclass
class _Entry:
    """One metric of an evaluation: a registered text metric with its options, a learned metric
    with its model (computed when first asked for), or matched segment scores."""

    spec: MetricSpec
    options: Any = None
    segment_scores: SegmentScores | None = None
    scores: MetricScores | None = field(default=None, repr=False)
    model: str | None = None
    reference_free: bool = False
    cache: Any = None
    cancel: Any = None
    #: a learned metric's run (``bleu.metrics.learned.LearnedScores``: spans, what was cached)
    learned: Any = field(default=None, repr=False)


def text_key(lines: Sequence[str]) -> str:
    """A content hash of a stream of segments (what the store's keys are made of)."""
    digest = hashlib.blake2b(digest_size=16)
    for line in lines:
        digest.update(line.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


class Evaluation:
    """Systems (name -> hypotheses) against reference streams (``references[k][i]``: reference k
    of segment i, as sacrebleu takes them; None where a segment has fewer), with an optional
    source. ``options`` are the text metrics' options by sacrebleu's names (``tokenize``,
    ``lowercase``, ``smooth_method``, ``char_order``, ``case_sensitive``...): each metric takes
    those it has. Without ``tokenize``, BLEU uses 13a, or the default for ``target_language``
    (sacrebleu's ``-l`` choice; Japanese: ``char``, as WMT published it). BLEU is always the
    first metric.

    ``keys`` (system name -> content hash, and ``"references"``) and ``store`` let a caller
    keep statistics across evaluations of the same texts; ``progress`` hears about each system
    computed."""

    def __init__(self, systems: Mapping[str, Sequence[str]], references: References,
                 source: Sequence[str] | None = None, *, target_language: str | None = None,
                 store: StatsStore | None = None, keys: Mapping[str, str] | None = None,
                 progress: ProgressCallback | None = None, **options: Any) -> None:
        if not systems:
            raise InputError(tr("An evaluation needs at least one system."))
        n_segments = check_references(references, None)
        for name, hypotheses in systems.items():
            check_text_stream(hypotheses, tr("system {name}").format(name=name))
            if len(hypotheses) != n_segments:
                raise LengthMismatchError(tr(
                    "System {name} has {found} segments, but the references have {expected}; "
                    "every stream needs one line per segment.").format(
                    name=name, found=len(hypotheses), expected=n_segments))
        if source is not None and len(source) != n_segments:
            raise LengthMismatchError(tr(
                "The source has {found} segments, but the references have {expected}; every "
                "stream needs one line per segment.").format(found=len(source),
                                                            expected=n_segments))
        known = {name for spec in registry.declared() if spec.family == TEXT
                 for name in spec.option_names}
        unknown = sorted(set(options) - known)
        if unknown:
            raise UnknownOptionError(tr("Unknown option {option!r}; the metrics' options are "
                                        "{known}.").format(option=unknown[0],
                                                           known=", ".join(sorted(known))))
        if "tokenize" not in options and target_language:
            from ..io.languages import default_tokenizer

            options["tokenize"] = default_tokenizer(target_language)
        self.systems: dict[str, Sequence[str]] = dict(systems)
        self.references = references
        self.source = source
        self.options = dict(options)
        self.n_segments = n_segments
        self.n_refs = len(references)
        self._store = store
        self._keys = dict(keys or {})
        self._progress = progress
        self._entries: dict[str, _Entry] = {}
        #: what matching score files to the systems said (files' systems left out, renamings)
        self.notes: list[str] = []
        self.add_metric("BLEU")

    @classmethod
    def from_dataset(cls, data: Any, *, store: StatsStore | None = None,
                     progress: ProgressCallback | None = None, **options: Any) -> Evaluation:
        """An evaluation of a loaded ``bleu.io.dataset.Dataset`` (its content hashes as keys,
        its target language for the default tokenizer)."""
        keys = {name: file.key for name, file in data.systems.items()}
        keys["references"] = data.references_key
        return cls({name: file.segments for name, file in data.systems.items()},
                   data.reference_streams,
                   data.source.segments if data.source is not None else None,
                   target_language=data.target_language, store=store, keys=keys,
                   progress=progress, **options)

    # --- what it holds ------------------------------------------------------------------------

    @property
    def metrics(self) -> list[str]:
        """The labels of its metrics, BLEU first, then in the order added."""
        return list(self._entries)

    def spec(self, label: str) -> MetricSpec:
        """The registered metric a label is scored by (segment scores: their family's)."""
        return self._entry(label).spec

    def _entry(self, label: str) -> _Entry:
        try:
            return self._entries[label]
        except KeyError:
            raise InputError(tr("No metric {label!r} in this evaluation; it has {metrics}.")
                             .format(label=label, metrics=", ".join(self._entries))) from None

    # --- adding metrics -----------------------------------------------------------------------

    def metric_options(self, name: str, **overrides: Any) -> dict[str, Any]:
        """The options metric ``name`` takes from this evaluation's, then ``overrides``."""
        spec = registry.get(name)
        taken = {key: value for key, value in self.options.items()
                 if key in spec.option_names}
        return {**taken, **overrides}

    def add_metric(self, name: str, *, label: str | None = None, model: str | None = None,
                   reference_free: bool = False, cache: Any = None, cancel: Any = None,
                   **options: Any) -> str:
        """Add the registered metric ``name`` with the evaluation's options it takes and
        ``options`` over them (chrF's ``lowercase``...); returns its label (``name`` unless
        given). A learned metric takes its ``model`` (a folder, or a name in the Hugging Face
        cache: nothing is downloaded) and its own options, and is computed when first asked
        for: ``reference_free`` scores without the references where the model can, ``cache``
        keeps scores across runs (``bleu.metrics.learned.ScoreCache``), ``cancel`` stops it
        between batches."""
        spec = registry.get(name)
        if spec.family == LEARNED:
            return self._add_learned(spec, label, model, reference_free, cache, cancel, options)
        if spec.family != TEXT:
            raise InputError(tr("{name} is read from a file: add it with add_scores.").format(
                name=name))
        label = label or name
        made = spec.make_options(**self.metric_options(name, **options))
        found = self._entries.get(label)
        if found is not None:
            if found.spec is spec and found.options == made:
                return label
            raise InputError(tr("This evaluation has a metric called {label} already; give "
                                "the new one another label.").format(label=label))
        self._entries[label] = _Entry(spec, made)
        return label

    def _add_learned(self, spec: MetricSpec, label: str | None, model: str | None,
                     reference_free: bool, cache: Any, cancel: Any,
                     options: dict[str, Any]) -> str:
        if not model:
            raise InputError(tr("{name} needs its model: add_metric({name!r}, model=PATH_OR_NAME), "
                                "a folder or a name in the Hugging Face cache (nothing is "
                                "downloaded).").format(name=spec.name))
        if spec.needs_source and self.source is None:
            raise InputError(tr("{name} reads the source segments: give the evaluation its "
                                "source (Evaluation(..., source=...)).").format(name=spec.name))
        label = label or spec.label(model, **options)
        if label in self._entries:
            raise InputError(tr("This evaluation has a metric called {label} already; give "
                                "the new one another label.").format(label=label))
        self._entries[label] = _Entry(spec, dict(options), model=model,
                                      reference_free=reference_free, cache=cache,
                                      cancel=cancel)
        return label

    def add_scores(self, scores: SegmentScores | str | Path, *, label: str | None = None,
                   higher_is_better: bool | None = None,
                   aliases: Mapping[str, str] | None = None, require_all: bool = False,
                   hint: AliasHint | None = None) -> str:
        """Add segment scores (a ``SegmentScores``, or a file in any format the app reads) as a
        metric, matched to the systems (``systems.match_scores``: ``aliases`` file name ->
        system, WMT's MQM names, clashes refused); returns its label. The direction is
        ``higher_is_better`` where given, else the registry's for the label. ``require_all``
        refuses a file that lacks a system (or rates none of its segments); ``hint`` words the
        messages in the caller's terms (``systems.AliasHint``)."""
        if not isinstance(scores, SegmentScores):
            from ..io.scores.read import read_scores

            scores = read_scores(scores, n_segments=self.n_segments)
        if scores.n_segments != self.n_segments:
            raise InputError(tr(
                "{source} scores {found} segments, but the test set has {expected}: the scores "
                "are for another test set.").format(source=scores.source,
                                                    found=scores.n_segments,
                                                    expected=self.n_segments))
        label = label or scores.label
        if label in self._entries:
            raise InputError(tr("This evaluation has a metric called {label} already; name "
                                "the scores of {source} otherwise.").format(
                label=label, source=scores.source))
        direction = (registry.direction(label) if higher_is_better is None
                     else higher_is_better)
        scores = replace(scores, label=label, higher_is_better=direction)
        from .systems import match_scores  # loaded with the first score file

        matching = match_scores(scores, list(self.systems), aliases or {},
                                require_all=require_all, hint=hint)
        self.notes += [*matching.notes, *filter(None, [matching.left_out()])]
        self._entries[label] = _Entry(registry.get("Segment scores"),
                                      segment_scores=matching.scores)
        return label

    def matching(self, scores: SegmentScores, aliases: Mapping[str, str] | None = None,
                 ) -> Matching:
        """How ``scores`` match this evaluation's systems, without adding them."""
        from .systems import match_scores

        return match_scores(scores, list(self.systems), aliases or {})

    # --- scores and tests ---------------------------------------------------------------------

    def scores(self, label: str, *, progress: ProgressCallback | None = None,
               ) -> MetricScores:
        """Every system's statistics, corpus and segment scores for one metric (computed on
        first use, one system at a time; ``progress``, else the evaluation's, hears of each)."""
        entry = self._entry(label)
        if entry.scores is None:
            if entry.spec.family == LEARNED:
                entry.segment_scores = self._learned_scores(label, entry,
                                                            progress or self._progress)
            if entry.segment_scores is not None:
                entry.scores = from_segment_scores(entry.segment_scores, list(self.systems))
            else:
                entry.scores = self._text_scores(label, entry, progress or self._progress)
        return entry.scores

    def learned_run(self, label: str) -> Any:
        """A learned metric's run once computed (``bleu.metrics.learned.LearnedScores``: its
        model's version, error spans, what came from the cache); None before."""
        return self._entry(label).learned

    def _learned_scores(self, label: str, entry: _Entry,
                        progress: ProgressCallback | None) -> SegmentScores:
        """A learned metric's segment scores: its model loaded, the segments looked up in the
        cache and the rest computed in batches (``bleu.metrics.learned``)."""
        from ..metrics.learned import score

        def tell(step: Any) -> None:
            if progress is not None:
                progress(MetricProgress(label, step.done, step.total,
                                        None if step.done >= step.total else "",
                                        unit="segments"))

        scorer = entry.spec.load(entry.model, **entry.options)
        entry.learned = score(scorer, self.systems, sources=self.source,
                              references=[] if entry.reference_free else self.references,
                              cache=entry.cache, progress=tell, cancel=entry.cancel)
        found = replace(entry.learned.to_segment_scores(label),
                        higher_is_better=entry.spec.higher_is_better)
        found.matrix.setflags(write=False)
        return found

    def _text_scores(self, label: str, entry: _Entry,
                     progress: ProgressCallback | None) -> MetricScores:
        spec = entry.spec
        prepared: list[Any] = []  # the metric with its references, made when first needed

        def metric() -> Any:
            if not prepared:
                prepared.append(spec.build(entry.options, self.references))
            return prepared[0]

        stats: dict[str, np.ndarray] = {}
        todo = []
        for name in self.systems:
            found = None if self._store is None else self._store.get(self._key(spec, entry,
                                                                                name))
            if found is None:
                todo.append(name)
            else:
                stats[name] = found
        for done, name in enumerate(todo):
            _tell(progress, label, done, len(todo), name)
            matrix = metric().segment_stats(self.systems[name])
            matrix.setflags(write=False)
            stats[name] = matrix
            if self._store is not None:
                self._store.put(self._key(spec, entry, name), matrix)
        if todo:
            _tell(progress, label, len(todo), len(todo), None)
        ordered = {name: stats[name] for name in self.systems}
        if prepared:
            made = prepared[0]
        else:  # every system came from the store: the signature needs no references read
            made = spec.build(entry.options, None)
            made.n_refs = self.signature_refs
        return replace(from_stats(label, made.get_signature(), made.scorer, ordered),
                       text_metric=made)

    @cached_property
    def signature_refs(self) -> int:
        """sacrebleu's ``nrefs`` of the signatures: references per segment, -1 where the
        count varies (a stream holds None for some segments)."""
        return references_per_segment(reference_presence(self.references, self.n_segments))

    def _key(self, spec: MetricSpec, entry: _Entry, system: str) -> Hashable:
        """What the store keeps a system's statistics under: the metric, its options, the
        system's text and the references."""
        if system not in self._keys:
            self._keys[system] = text_key(self.systems[system])
        if "references" not in self._keys:
            self._keys["references"] = text_key(
                [line if line is not None else "\0" for stream in self.references
                 for line in (*stream, "\1")])
        return spec.name, entry.options, self._keys[system], self._keys["references"]

    def significance(self, label: str, *, baseline: str | None = None, method: str = "bs",
                     n_samples: int | None = None, seed: int | None = DEFAULT_SEED,
                     ) -> dict[str, SignificanceResult]:
        """sacrebleu's paired test of every system against ``baseline`` (``--paired-bs``,
        ``"bs"``; ``--paired-ar``, ``"ar"``), the baseline first; without a baseline (or with
        one system), each system's own bootstrap mean and 95% interval (``--confidence``).
        Segment scores are tested on the segments rated for both systems of a pair."""
        found = self.scores(label)
        samples = n_samples if n_samples is not None else DEFAULT_SAMPLES[method]
        if baseline is None or len(found.stats) < 2:
            return {name: replace(bootstrap_ci_from_stats(matrix, found.scorer,
                                                          n_samples=samples, seed=seed),
                                  name=name)
                    for name, matrix in found.stats.items()}
        test = paired_bootstrap_from_stats if method == "bs" else paired_ar_from_stats
        return test(found.stats, found.scorer, baseline=baseline, n_samples=samples, seed=seed)

    def results(self, labels: Sequence[str] | None = None, *, baseline: str | None = None,
                n_samples: int = DEFAULT_SAMPLES["bs"], seed: int = DEFAULT_SEED,
                ) -> dict[str, MetricResults]:
        """Each metric's paired bootstrap against ``baseline`` (each system's own CI without
        one), all pairs with Holm's correction and WMT's clusters, by label."""
        if baseline is not None and baseline not in self.systems:
            raise InputError(tr("The baseline {baseline!r} is not one of the systems: "
                                "{systems}.").format(baseline=baseline,
                                                     systems=", ".join(self.systems)))
        return {label: metric_results(self.scores(label), baseline=baseline,
                                      n_samples=n_samples, seed=seed)
                for label in (labels if labels is not None else self.metrics)}

    def pairs(self, label: str, *, method: str = "bs", n_samples: int | None = None,
              seed: int = DEFAULT_SEED, systems: Sequence[str] | None = None) -> AllPairs:
        """Every pair of systems (or of ``systems``) on one metric, by paired bootstrap
        (``"bs"``) or approximate randomization (``"ar"``), Holm-corrected, with clusters."""
        found = self.scores(label)
        stats = found.stats if systems is None else {name: found.stats[name]
                                                     for name in systems
                                                     if name in found.stats}
        samples = n_samples if n_samples is not None else DEFAULT_SAMPLES[method]
        return replace(all_pairs(stats, found.scorer, method=method, n_samples=samples,
                                 seed=seed), metric=label)

    def compare(self, a: str, b: str, *, labels: Sequence[str] | None = None,
                n_bootstrap: int = DEFAULT_SAMPLES["bs"], n_ar: int = DEFAULT_SAMPLES["ar"],
                seed: int = DEFAULT_SEED) -> list[PairedComparison]:
        """A against B on every metric that scores both (segment scores: where at least two
        segments are rated for both): scores, A − B with its 95% interval, both p-values."""
        found = []
        for label in (labels if labels is not None else self.metrics):
            scores = self.scores(label)
            if a not in scores.stats or b not in scores.stats:
                continue
            if scores.is_segment_scores and not both_rated(scores, a, b):
                continue
            result = paired_comparison(scores.stats[a], scores.stats[b], scores.scorer,
                                       n_bootstrap=n_bootstrap, n_ar=n_ar, seed=seed)
            found.append(replace(result, metric=label))
        return found

    def dashboard(self, *, baseline: str | None = None, ranking: str = "BLEU",
                  n_samples: int = DEFAULT_SAMPLES["bs"], seed: int = DEFAULT_SEED,
                  ) -> Dashboard:
        """Every metric's results, BLEU first with its score objects, ranked by ``ranking``."""
        found = self.results(baseline=baseline, n_samples=n_samples, seed=seed)
        bleu = found.pop("BLEU")
        return assemble_dashboard(bleu, self._entries["BLEU"].options, self.n_refs,
                                  list(found.values()), ranking)

    def subset(self, rows: Sequence[int] | np.ndarray) -> Subset:
        """The same metrics on some segments only (0-based ``rows``: a filter or a bucket),
        each taken as a corpus of its own."""
        return Subset(self, np.asarray(rows, dtype=np.intp))


def _tell(progress: ProgressCallback | None, label: str, done: int, total: int,
          current: str | None) -> None:
    if progress is not None:
        progress(MetricProgress(label, done, total, current))


def both_rated(scores: MetricScores, a: str, b: str) -> bool:
    """Whether at least two segments are rated for both A and B (a paired test needs them)."""
    column = scores.scorer.rated_column
    if column is None:
        return True
    both = (scores.stats[a][:, column] > 0) & (scores.stats[b][:, column] > 0)
    return int(both.sum()) >= 2


class Subset(Evaluation):
    """An evaluation's metrics on some of its segments (``Evaluation.subset``): scores and
    tests of the rows only, computed from the whole evaluation's statistics."""

    def __init__(self, whole: Evaluation, rows: np.ndarray) -> None:
        if len(rows) == 0:
            raise InputError(tr("The subset holds no segment: nothing to score or test."))
        self.whole = whole
        self.rows = rows
        self.systems = whole.systems
        self.references = whole.references
        self.source = whole.source
        self.options = whole.options
        self.n_segments = len(rows)
        self.n_refs = whole.n_refs
        self.notes = whole.notes
        self._entries = {label: _Entry(entry.spec, entry.options) for label, entry
                         in whole._entries.items()}

    def scores(self, label: str, *, progress: ProgressCallback | None = None,
               ) -> MetricScores:
        entry = self._entry(label)
        if entry.scores is None:
            entry.scores = self.whole.scores(label, progress=progress).subset(self.rows)
        return entry.scores

    def add_metric(self, name: str, **_: Any) -> str:
        """Metrics are added to the whole evaluation (the subset shows them all)."""
        raise InputError(tr("Add metrics to the whole evaluation, then take the subset."))

    def add_scores(self, scores: Any, **_: Any) -> str:
        """Scores are added to the whole evaluation (the subset shows them all)."""
        raise InputError(tr("Add metrics to the whole evaluation, then take the subset."))


__all__ = ["Evaluation", "MetricProgress", "StatsStore", "Subset"]
