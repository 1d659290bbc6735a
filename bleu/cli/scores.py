"""The command line's segment-score metrics (``--scores FILE``): COMET, xCOMET, BLEURT, MetricX,
MQM or DA scores per segment, read in any format ``bleu.io.scores`` reads, labelled and directed
by the flags, and added to the evaluation, which matches them to the systems by the one policy
(``bleu.evaluation.systems``: a file's name is a system's path as given, its base name or its
guessed name, ``--scores-alias FILE_NAME=SYSTEM`` otherwise, WMT's MQM names with a note) and
scores and tests them as BLEU. Loaded only when ``--scores`` is given.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from dataclasses import replace

from ..errors import InputError, ReadError
from ..evaluation import Evaluation, registry
from ..evaluation.systems import AliasHint, check_aliases, listed
from ..i18n import tr
from ..io.scores import formats
from ..io.scores.mqm import HEADER as MQM_HEADER
from ..io.scores.read import fitted, merge, parse_scores
from ..metrics.segment.scores import SegmentScores
from .inputs import CommandLineError, paired_test_asked, read_text

logger = logging.getLogger("bleu.cli")

#: how the matching policy's messages name things on the command line
CLI_HINT = AliasHint(scored="scored here", listing="given with -i",
                     mapping="--scores-alias {name}={system}",
                     general="map a file's name to a system with --scores-alias "
                             "FILE_NAME=SYSTEM.",
                     override="--scores-alias says otherwise")


def _lists_every_segment(text: str) -> bool:
    """Whether ``text`` is a format with a line for every segment of the test set (comet-score's
    outputs, one score per line), so that fewer lines mean another test set."""
    if tuple(text.split("\n", 1)[0].split()) == MQM_HEADER:
        return False
    if formats.looks_like_comet_output(text):
        return True
    if formats.looks_like_json_lines(text):
        return False
    return formats.looks_like_comet_json(text) or formats.looks_like_one_system(text)


def _read(path: str, label: str | None, args: argparse.Namespace, n_segments: int,
          ) -> SegmentScores:
    text = read_text(path, args.encoding, args.line_limit)
    scores = parse_scores(text, path, label=label)
    if _lists_every_segment(text) and scores.n_segments < n_segments:
        raise ReadError(tr("{path}: scores {found} segments, one a line, but the test set has "
                           "{expected}: the file is for another test set.").format(
            path=path, found=scores.n_segments, expected=n_segments))
    return fitted(scores, n_segments)


def _labels(args: argparse.Namespace) -> dict[str, str]:
    """``--scores-label FILE=LABEL``: the label of each file that has one."""
    labels = dict(args.scores_label or ())
    unknown = [path for path in labels if path not in args.scores]
    if unknown:
        raise CommandLineError(tr("--scores-label {path}={label}: {path!r} is not given with "
                                  "--scores ({given}).").format(
            path=unknown[0], label=labels[unknown[0]], given=", ".join(args.scores)))
    return labels


def read_score_files(args: argparse.Namespace, n_segments: int,
                     taken: Sequence[str]) -> list[SegmentScores]:
    """Every ``--scores`` file, one score set per metric, fitted to the test set's
    ``n_segments``. Files of one metric for different systems (one file per system, or batches)
    are joined; a label may not repeat one of ``taken`` (the other metrics' columns)."""
    labels = _labels(args)
    found: dict[str, SegmentScores] = {}
    for path in args.scores:
        scores = _read(path, labels.get(path), args, n_segments)
        label = scores.label
        if label.lower() == "system" or label in taken:
            other = (tr("the table's system column") if label.lower() == "system" else
                     tr("a metric of -m"))
            raise CommandLineError(tr("{path}: its scores are named {label!r}, as {other} is; "
                                      "name them with --scores-label {path}=LABEL.").format(
                path=path, label=label, other=other))
        if label in found:
            clash = sorted(set(found[label].systems) & set(scores.systems))
            if clash:
                raise CommandLineError(tr(
                    "{path}: system {system!r} has {label} scores in {other} already; give each "
                    "system once, or name another metric's scores with --scores-label "
                    "{path}=LABEL.").format(path=path, system=clash[0], label=label,
                                             other=found[label].source))
            found[label] = merge(found[label], scores)
        else:
            found[label] = scores
    return [_directed(scores, args) for scores in found.values()]


def _directed(scores: SegmentScores, args: argparse.Namespace) -> SegmentScores:
    """Which way the scores point: the flags', else the registry's for the label."""
    if scores.label in (args.scores_lower_is_better or ()):
        return replace(scores, higher_is_better=False)
    if scores.label in (args.scores_higher_is_better or ()):
        return replace(scores, higher_is_better=True)
    return replace(scores, higher_is_better=registry.direction(scores.label))


def check_directions(args: argparse.Namespace, score_sets: Sequence[SegmentScores]) -> None:
    """``--scores-lower-is-better`` and ``--scores-higher-is-better`` name metrics read, each
    at most once."""
    labels = [scores.label for scores in score_sets]
    lower = set(args.scores_lower_is_better or ())
    higher = set(args.scores_higher_is_better or ())
    for flag, given in (("--scores-lower-is-better", lower),
                        ("--scores-higher-is-better", higher)):
        for label in sorted(given):
            if label not in labels:
                raise CommandLineError(tr("{flag} {label}: no score file gives {label!r}; the "
                                          "scores read are {labels}.").format(
                    flag=flag, label=label, labels=listed(labels)))
    both = sorted(lower & higher)
    if both:
        raise CommandLineError(tr("{label!r} is given with both --scores-lower-is-better and "
                                  "--scores-higher-is-better; give one.").format(label=both[0]))


def check_pairs(evaluation: Evaluation, label: str) -> None:
    """A paired test needs segments rated for each system and the baseline (the first)."""
    found = evaluation.scores(label)
    baseline, *others = found.stats
    rated = found.stats[baseline][:, 1] > 0
    for name in others:
        if not (rated & (found.stats[name][:, 1] > 0)).any():
            raise InputError(tr("{source}: no segment has {label} scores for both {system} and "
                                "the baseline {baseline}; a paired test needs some.").format(
                source=found.source, label=label, system=name, baseline=baseline))


def add_score_files(evaluation: Evaluation, args: argparse.Namespace,
                    taken: Sequence[str]) -> list[str]:
    """Every ``--scores`` metric added to ``evaluation`` (every system must have scores);
    ``taken`` are the labels of the other metrics' columns. Returns the labels."""
    score_sets = read_score_files(args, evaluation.n_segments, taken)
    check_directions(args, score_sets)
    aliases = dict(args.scores_alias or ())
    check_aliases(aliases, score_sets, list(evaluation.systems), CLI_HINT)
    labels = []
    for scores in score_sets:
        before = len(evaluation.notes)
        labels.append(evaluation.add_scores(scores, higher_is_better=scores.higher_is_better,
                                            aliases=aliases, require_all=True,
                                            hint=CLI_HINT))
        for note in evaluation.notes[before:]:
            logger.info(note)
    if paired_test_asked(args):
        for label in labels:
            check_pairs(evaluation, label)
    return labels
