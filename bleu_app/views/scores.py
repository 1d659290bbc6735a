"""Metrics & human scores: segment scores (COMET, BLEURT, MetricX, MQM, DA...) loaded as metrics
beside BLEU on every page, with their direction and system names; how each metric correlates
with a chosen set of scores; where BLEU and another metric disagree, one click from a
segment's n-grams."""

from dataclasses import replace
from functools import partial

import streamlit as st

from bleu import charts
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import CORRELATION, COUNT, RATIO, SCORE, Column
from bleu.errors import InputError
from bleu.evaluation import registry
from bleu.evaluation.systems import Matching, suggest_aliases
from bleu.explore import correlation, disagreement, meta_eval
from bleu.i18n import N_, tr
from bleu.io.scores.read import parse_score_files
from bleu_app.scoring import _learned, _metrics, _segment_scores
from bleu_app.session import _samples, _session, _state
from bleu_app.widgets import _charts, _explore, _tables

NOT_LOADED = N_("(leave out)")
#: below this many systems a system-level correlation gets a caveat
MIN_SYSTEMS = 5
#: what the uploader says it reads
FORMATS = N_("TSV/CSV with a header (`system`, `seg_id`, a score column named after the metric), "
           "a WMT MQM `*.avg_seg_scores.tsv` as published, JSON Lines, comet-score's printout "
           "or its `--to_json` file, or one file per system with one score per line named like "
           "the system's file (`hyp.UEdin.de.comet`)")

data = _session.dataset()
st.title(tr("Metrics & human scores"))
st.caption(tr(
    "Segment scores from any metric or human judgment become metrics beside BLEU on every page "
    "(dashboard, all pairs, Compare, Sentences, exports), tested the same way. Accepted: "
    "{formats}. Segment ids are 1-based line numbers; `None` or an empty cell means not rated. "
    "Nothing is downloaded: COMET, BERTScore and MetricX-24 are computed below from a model "
    "on this machine; other models' scores (BLEURT, xCOMET without its extra) are computed "
    "elsewhere and uploaded here.").format(formats=tr(FORMATS)))
st.button(tr("Load the WMT21 en-de sample with its MQM scores"), key="load_mqm_sample",
          on_click=_samples.load_mqm_sample)

uploads = st.file_uploader(tr("Segment scores (one or more files)"), accept_multiple_files=True,
                           key="scores_upload") or []
signature = tuple(upload.file_id for upload in uploads)
if uploads and st.session_state.get(_state.SCORES_FILE) != signature:
    st.session_state[_state.SCORES_FILE] = signature
    try:
        found = parse_score_files([(upload.getvalue(), upload.name) for upload in uploads],
                                  n_segments=data.n_segments)
    except InputError as error:
        st.session_state[_state.SCORES_ERROR] = str(error)
    else:
        st.session_state[_state.SCORES_ERROR] = None
        for scores in found:  # which way they point: the registry's, for their label
            _segment_scores.add(replace(scores,
                                        higher_is_better=registry.direction(scores.label)))
if st.session_state.get(_state.SCORES_ERROR):
    st.error(escape_markdown(tr("{error} The scores loaded before (if any) are kept.").format(
        error=st.session_state[_state.SCORES_ERROR])))

_learned.section(data)

loaded = _segment_scores.loaded()
loaded_systems = list(data.systems)
for label, scores in list(loaded.items()):
    with st.expander(escape_markdown(tr(
            "{label} from {source}: {systems} systems, {rated} rated (system, segment) pairs"
    ).format(label=label, source=scores.source, systems=len(scores.systems),
             rated=COUNT.text(scores.rated()))), expanded=False):
        direction = st.radio(
            tr("Better scores are"), (tr("higher"), tr("lower")), horizontal=True,
            index=0 if scores.higher_is_better else 1, key=f"direction_{label}",
            help=tr("Guessed from the name (MetricX and MQM penalties: lower is better); set "
                    "it if the guess is wrong. WMT's MQM files hold negated penalties: higher."))
        _segment_scores.set_direction(label, direction == tr("higher"))
        aliases = _segment_scores.aliases(label)
        matched = _segment_scores.matching(data, label)
        unmatched = [name for name in scores.systems if name not in loaded_systems
                     and (name in aliases or not isinstance(matched, Matching)
                          or name in matched.unmatched_file)]
        options = [NOT_LOADED, *loaded_systems]
        option_names = {NOT_LOADED: tr(NOT_LOADED),
                        **{name: show_controls(name) for name in loaded_systems}}
        hints = suggest_aliases(unmatched, loaded_systems)
        for index, name in enumerate(unmatched):
            current = aliases.get(name)
            hint = tr(" (did you mean {name}?)").format(name=hints[name]) if name in hints else ""
            choice = st.selectbox(escape_markdown(name + hint), options,
                                  format_func=option_names.__getitem__,
                                  key=f"alias_{label}_{index}_{name}",
                                  index=options.index(current) if current in options else 0)
            if choice == NOT_LOADED:
                aliases.pop(name, None)
            else:
                aliases[name] = choice
        _segment_scores.set_aliases(label, aliases)
        matched = _segment_scores.matching(data, label)
        if isinstance(matched, Matching):
            for note in matched.notes:
                st.caption(escape_markdown(note))
            if matched.message():
                st.warning(escape_markdown(matched.message()))
        else:
            st.error(escape_markdown(matched))
        st.button(escape_markdown(tr("Remove {label}").format(label=label)),
                  key=f"remove_{label}",
                  on_click=_segment_scores.remove, args=(label,))

labels = _segment_scores.labels(data)
names = _metrics.names(data)
if not labels:
    st.info(tr("No segment scores match the loaded data yet."))
else:
    st.subheader(tr("Correlations"))
    human = st.selectbox(tr("Correlate with"), labels, key="correlations_with",
                         format_func=show_controls,
                         index=len(labels) - 1,
                         help=tr("The scores the other metrics are measured against: usually "
                                 "human judgments (MQM, DA)."))
    reference = _metrics.scores(data, human)
    external = {name: reference.sentence_scores[name] for name in reference.stats}
    sentence = {"BLEU": _metrics.sentence_bleu(data)}
    corpus = {}
    for metric in names:
        found = _metrics.scores(data, metric)
        if metric != "BLEU":
            sentence[metric] = dict(found.sentence_scores)
        corpus[metric] = dict(found.scores)
    sentence.pop(human, None)
    corpus.pop(human, None)
    rows = [correlation.segment_correlation(metric, by_system, external)
            for metric, by_system in sentence.items()]
    rows += [correlation.system_correlation(metric, by_system, external)
             for metric, by_system in corpus.items()]
    table = correlation.correlation_table(rows)
    _tables.show(table, {
        "metric": Column(label=N_("metric")),
        "level": Column(help=tr("segment: every rated (system, segment) pair, pooled; system: "
                                "one point per system."), label=N_("level"), translated=True),
        "n": Column(COUNT, tr("Points correlated.")),
        **{name: Column(CORRELATION, (tr("{name} correlation coefficient (tau-b).")
                                      if name == "Kendall" else
                                      tr("{name} correlation coefficient.")).format(name=name))
           for name in ("Pearson", "Spearman", "Kendall")}}, key="correlations")
    thin = sorted(set(table.loc[(table["level"] == "system") & (table["n"] < MIN_SYSTEMS), "n"]))
    if thin:
        st.warning(escape_markdown(tr(
            "System-level correlations here come from {n} systems: with fewer than {least}, one "
            "system can flip the sign, and no coefficient is meaningful (with 3 systems Kendall "
            "can only be -1, -1/3, 1/3 or 1). Read the segment-level rows, or add systems."
        ).format(n=" or ".join(map(str, thin)), least=MIN_SYSTEMS)))
    lower = [metric for metric in corpus if not _metrics.scores(data, metric).higher_is_better]
    opposite = reference.higher_is_better
    if lower:
        st.caption(escape_markdown(tr(
            "{metrics}: lower is better{flip}, so agreement shows as a negative "
            "correlation.").format(metrics=", ".join(lower),
                                   flip="" if opposite else tr(" (and so is {human})").format(
                                       human=human))))
    st.caption(escape_markdown(tr(
        "Segment level: pooled over every rated (system, segment) pair; system level: corpus "
        "scores against the mean {human} over rated segments. Kendall is tau-b. ").format(
        human=human) + _metrics.add_more_hint(tr("correlate them too"))))
    _charts.show(st, charts.correlation_chart, table, key="correlation_chart")

    st.markdown(tr("**Pairwise accuracy** (as mt-metrics-eval defines it)"))
    human_higher = reference.higher_is_better
    evaluations = []
    for metric, by_system in corpus.items():
        metric_higher = _metrics.scores(data, metric).higher_is_better
        try:
            evaluations.append(meta_eval.system_pairwise_accuracy(
                metric, by_system, external, metric_higher_is_better=metric_higher,
                human_higher_is_better=human_higher))
            evaluations.append(meta_eval.segment_tie_calibration(
                metric, sentence[metric], external, metric_higher_is_better=metric_higher,
                human_higher_is_better=human_higher).best)
        except InputError as error:
            st.caption(escape_markdown(f"{metric}: {error}"))
    if evaluations:
        _tables.show(meta_eval.meta_evaluation_table(evaluations), {
            "value": Column(RATIO, label=N_("value"), help=tr(
                "acc_eq: the share of pairs the metric orders as {human} does, ties in both "
                "counting as agreement.").format(human=human)),
            "epsilon": Column(RATIO, tr("Metric differences up to this count as ties (segment "
                                        "level: chosen to maximise the value, tie "
                                        "calibration).")),
            "pairs": Column(COUNT, tr("Pairs compared."), label=N_("pairs")),
            "groups": Column(COUNT, label=N_("groups")),
            "metric": Column(label=N_("metric")),
            "level": Column(label=N_("level"), translated=True),
            "grouping": Column(label=N_("grouping"), translated=True)},
            key="meta_evaluation",
            column_order=["metric", "level", "grouping", "value", "epsilon", "pairs"])
        st.caption(tr("System level: Kocmi et al. (2021)'s pairwise accuracy over every pair of "
                      "systems. Segment level: acc_eq grouped by item with tie calibration "
                      "(Deutsch et al. 2023), as the WMT23 metrics task reports it."))

    st.subheader(escape_markdown(tr("{human} against a sentence-level metric").format(
        human=human)))
    metric = st.selectbox(tr("Metric"), list(sentence), format_func=show_controls,
                          key="scores_metric")
    _charts.show(st, partial(charts.external_scatter_chart,
                             metric=tr("sentence BLEU") if metric == "BLEU" else metric,
                             label=human), sentence[metric], external, key="scores_scatter")

others = [name for name in names if name != "BLEU"]
st.subheader(tr("Where BLEU and another metric disagree"))
if not others:
    st.info(tr("Load segment scores above, or add chrF, chrF++ or TER in the sidebar: this "
               "section then lists the systems and segments where BLEU and that metric "
               "disagree most."))
    st.stop()
other = st.selectbox(tr("Metric"), others, format_func=show_controls, key="disagree_metric")
bleu_scores, other_scores = _metrics.scores(data, "BLEU"), _metrics.scores(data, other)
if len(set(bleu_scores.scores) & set(other_scores.scores)) > 1:
    ranking = disagreement.system_disagreement(bleu_scores, other_scores)
    _tables.show(ranking, {
        "system": Column(),
        "BLEU place": Column(help=tr("1: the best by BLEU."),
                             label=tr("{metric} place").format(metric="BLEU")),
        **{column: Column(help=tr("Place by {metric} (1: the best).").format(metric=other),
                          label=tr("{metric} place").format(metric=other))
           for column in ranking.columns if column.endswith("place") and "BLEU" not in column},
        "BLEU": Column(SCORE, tr("Corpus BLEU.")),
        other: Column(SCORE, tr("The system's {metric}.").format(metric=other)),
        "place difference": Column(help=tr("{metric}'s place minus BLEU's: the systems the two "
                                           "rank furthest apart come first.").format(
            metric=other), label=N_("place difference"))}, key="disagree_systems")
choices = [name for name in data.systems if name in other_scores.sentence_scores]
system = st.selectbox(tr("System"), choices, format_func=show_controls, key="disagree_system")
sentence_options = _explore.sentence_smoothing()
segments = disagreement.segment_disagreement(
    _metrics.sentence_bleu(data)[system], other_scores.sentence_scores[system],
    first_name="BLEU", second_name=other, second_higher=other_scores.higher_is_better, k=20)
picked = _tables.show(
    segments, {"id": Column(help=tr("Segment number: click a row to open its n-grams below.")),
               "BLEU": Column(SCORE, tr("Sentence BLEU.")),
               other: Column(SCORE, tr("The segment's {metric}.").format(metric=other)),
               "BLEU place": Column(RATIO, tr("Its place among the system's segments by "
                                              "sentence BLEU: 0 worst, 1 best."),
                                    label=tr("{metric} place").format(metric="BLEU")),
               f"{other} place": Column(RATIO, tr("Its place by {metric}: 0 worst, 1 best.")
                                        .format(metric=other),
                                        label=tr("{metric} place").format(metric=other)),
               "gap": Column(RATIO, label=N_("gap"), help=tr(
                   "{metric}'s place minus BLEU's: positive where {metric} likes the segment "
                   "more than BLEU does.").format(metric=other))},
    key="disagree_segments", on_select="rerun", selection_mode="single-row")
st.caption(escape_markdown(tr(
    "The 20 segments of {system} whose places among its segments differ most between sentence "
    "BLEU and {metric} (each score placed among its own metric's scores, so the scales need "
    "not match).").format(system=system, metric=other)))
rows = picked.selection.rows if picked else []
if len(segments):
    segment = int(segments["id"].iloc[rows[0] if rows else 0])
    _explore.segment_detail(data, system, system, segment, sentence_options, "disagree")
