"""The command line's segment-score metrics (``--scores FILE``): COMET, xCOMET, BLEURT, MetricX,
MQM or DA scores per segment, read in any format ``bleu.io.scores`` reads, matched to the systems
being scored, and scored and tested as BLEU is (``bleu.evaluation.scores``). Loaded only when
``--scores`` is given.

A file's system name matches a system given with ``-i`` when it is the file's path as given, its
base name, or the system's name guessed from it as the app guesses it
(``newstest2021.en-de.hyp.UEdin.de`` is ``UEdin``); ``--scores-alias FILE_NAME=SYSTEM`` says so for
other names, and WMT's known MQM names (``Nemo`` for ``NVIDIA-NeMo``) are matched with a note.
Systems of the file that are not scored here (MQM's references) are left out with a note; a
system scored here that the file lacks is refused.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

import numpy as np

from ..errors import InputError, ReadError
from ..evaluation.scores import MetricScores, from_segment_scores
from ..i18n import tr
from ..io.dataset import system_name
from ..io.scores import formats
from ..io.scores.mqm import HEADER as MQM_HEADER
from ..io.scores.mqm import MQM_ALIASES
from ..io.scores.read import fitted, merge, parse_scores, suggest_aliases
from ..metrics.segment.scores import SegmentScores
from .inputs import CommandLineError, paired_test_asked, read_text

logger = logging.getLogger("bleu.cli")

#: how many names a message lists before it says how many more there are
_NAMES_SHOWN = 12


@dataclass(frozen=True)
class ScoreMetric:
    """One segment-score metric for every system scored here: its scores keyed by the systems'
    names as the command line has them (in their order), and the file(s) they came from."""

    label: str
    source: str
    scores: MetricScores
    n_segments: int

    @property
    def higher_is_better(self) -> bool:
        return self.scores.higher_is_better

    def rated(self) -> list[int]:
        """Each system's rated segments (those its score is the mean of)."""
        return [int(matrix[:, 1].sum()) for matrix in self.scores.stats.values()]


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:_NAMES_SHOWN])
    more = len(names) - _NAMES_SHOWN
    return shown + (tr(" and {count} more").format(count=more) if more > 0 else "")


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
    if scores.label in (args.scores_lower_is_better or ()):
        return replace(scores, higher_is_better=False)
    if scores.label in (args.scores_higher_is_better or ()):
        return replace(scores, higher_is_better=True)
    return scores


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
                    flag=flag, label=label, labels=_names(labels)))
    both = sorted(lower & higher)
    if both:
        raise CommandLineError(tr("{label!r} is given with both --scores-lower-is-better and "
                                  "--scores-higher-is-better; give one.").format(label=both[0]))


@dataclass(frozen=True)
class _Keys:
    """The names each system scored here is known by: its name as given (a path), its base
    name, and the name guessed from it; a key two systems share is ambiguous."""

    systems: tuple[str, ...]
    by_key: Mapping[str, tuple[str, ...]]

    @classmethod
    def of(cls, systems: Sequence[str]) -> _Keys:
        by_key: dict[str, list[str]] = {}
        for system in systems:
            base = PurePath(system).name
            for key in dict.fromkeys((system, base, system_name(base))):
                by_key.setdefault(key, []).append(system)
        exact = {system: [system] for system in systems}  # a path as given is never ambiguous
        return cls(tuple(systems), {key: tuple(found) for key, found in
                                    {**by_key, **exact}.items()})

    def find(self, name: str, where: str) -> str | None:
        """The system ``name`` stands for (None: none); refused where it fits two."""
        found = self.by_key.get(name, ())
        if len(found) > 1:
            raise InputError(tr("{where}: {name!r} fits {count} systems ({systems}); map it to "
                                "one with --scores-alias {name}=SYSTEM, giving the system's path "
                                "as given with -i.").format(
                where=where, name=name, count=len(found), systems=", ".join(found)))
        return found[0] if found else None


def check_aliases(aliases: Mapping[str, str], score_sets: Sequence[SegmentScores],
                  systems: Sequence[str]) -> None:
    """Every ``--scores-alias FILE_NAME=SYSTEM`` names a system of a score file and one scored
    here."""
    keys = _Keys.of(systems)
    in_files = {name for scores in score_sets for name in scores.systems}
    for name, target in aliases.items():
        if name not in in_files:
            raise CommandLineError(tr("--scores-alias {name}={target}: no score file has a "
                                      "system {name!r}.").format(name=name, target=target))
        if keys.find(target, f"--scores-alias {name}={target}") is None:
            raise CommandLineError(tr("--scores-alias {name}={target}: {target!r} is not a "
                                      "system given with -i ({systems}).").format(
                name=name, target=target, systems=_names(list(systems))))


def _matches(scores: SegmentScores, keys: _Keys, aliases: Mapping[str, str]) -> dict[str, str]:
    """File system -> system scored here, for the file systems that match one."""
    matched: dict[str, str] = {}
    by_system: dict[str, str] = {}
    for name in scores.systems:
        if name in aliases:
            system = keys.find(aliases[name], f"--scores-alias {name}={aliases[name]}")
        else:
            system = keys.find(name, scores.source)
            known = MQM_ALIASES.get(name)
            if system is None and known is not None:
                system = keys.find(known, scores.source)
                if system is not None:
                    logger.info(tr("{source}: the system {name!r} is taken as {system} (WMT's "
                                   "MQM name for it; --scores-alias says otherwise).").format(
                        source=scores.source, name=name, system=system))
        if system is None:
            continue
        if system in by_system:
            raise InputError(tr("{source}: the systems {first!r} and {second!r} both stand for "
                                "{system}; give one of them scores, or map the other elsewhere "
                                "with --scores-alias.").format(
                source=scores.source, first=by_system[system], second=name, system=system))
        by_system[system] = name
        matched[name] = system
    return matched


def _hint(scores: SegmentScores, keys: _Keys, matched: Mapping[str, str]) -> str:
    """How to map the file's names: a likely ``--scores-alias`` (a known MQM name, or one that
    differs only in case), else the flag's form."""
    unmatched = [name for name in scores.systems if name not in matched]
    hints = suggest_aliases(unmatched, list(keys.by_key))
    if hints:
        name, system = next(iter(hints.items()))
        return tr("did you mean --scores-alias {name}={system}?").format(name=name, system=system)
    return tr("map a file's name to a system with --scores-alias FILE_NAME=SYSTEM.")


def _missing_message(scores: SegmentScores, systems: Sequence[str], keys: _Keys,
                     matched: Mapping[str, str]) -> str:
    """What to say when systems scored here have no scores in the file."""
    hint = _hint(scores, keys, matched)
    if not matched:
        return tr("{source}: none of its systems is scored here. The file has {names}; given "
                  "with -i: {systems}; {hint}").format(
            source=scores.source, names=_names(list(scores.systems)),
            systems=_names(list(systems)), hint=hint)
    missing = [system for system in systems if system not in matched.values()]
    more = tr(" (nor for {count} more system(s) given with -i)").format(
        count=len(missing) - 1) if len(missing) > 1 else ""
    return tr("{source}: no {label} scores for {system}{more}; the file scores {names}; "
              "{hint}").format(source=scores.source, label=scores.label, system=missing[0],
                               more=more, names=_names(list(scores.systems)), hint=hint)


def matched_metric(scores: SegmentScores, systems: Sequence[str],
                   aliases: Mapping[str, str], n_segments: int) -> ScoreMetric:
    """``scores`` for the systems scored here, under their names and in their order; every one
    of them must have a rated segment."""
    keys = _Keys.of(systems)
    matched = _matches(scores, keys, aliases)
    if set(matched.values()) != set(systems):
        raise InputError(_missing_message(scores, systems, keys, matched))
    left_out = [name for name in scores.systems if name not in matched]
    if left_out:
        logger.info(tr("{source}: {count} system(s) with {label} scores are not scored here and "
                       "are left out: {names}.").format(source=scores.source, count=len(left_out),
                                                        label=scores.label,
                                                        names=_names(left_out)))
    rows = {system: scores.scores(name) for name, system in matched.items()}
    unrated = [system for system in systems if np.isnan(rows[system]).all()]
    if unrated:
        raise InputError(tr("{source}: no segment of {system} has a {label} score (all are "
                            "unrated); a system score needs one.").format(
            source=scores.source, system=unrated[0], label=scores.label))
    matrix = np.stack([rows[system] for system in systems])
    renamed = replace(scores, systems=tuple(systems), matrix=matrix)
    return ScoreMetric(scores.label, scores.source,
                       from_segment_scores(renamed, list(systems)), n_segments)


def check_pairs(metric: ScoreMetric, names: Sequence[str]) -> None:
    """A paired test needs segments rated for each system and the baseline (the first)."""
    matrices = list(metric.scores.stats.values())
    base = matrices[0][:, 1] > 0
    for name, matrix in zip(names[1:], matrices[1:], strict=True):
        if not (base & (matrix[:, 1] > 0)).any():
            raise InputError(tr("{source}: no segment has {label} scores for both {system} and "
                                "the baseline {baseline}; a paired test needs some.").format(
                source=metric.source, label=metric.label, system=name, baseline=names[0]))


def score_metrics(args: argparse.Namespace, systems: Sequence[str], n_segments: int,
                  taken: Sequence[str]) -> list[ScoreMetric]:
    """The ``--scores`` metrics for ``systems`` (the command line's names, in order) on a test set
    of ``n_segments``; ``taken`` are the labels of the other metrics' columns."""
    score_sets = read_score_files(args, n_segments, taken)
    check_directions(args, score_sets)
    aliases = dict(args.scores_alias or ())
    check_aliases(aliases, score_sets, systems)
    found = [matched_metric(scores, systems, aliases, n_segments) for scores in score_sets]
    if paired_test_asked(args):
        for metric in found:
            check_pairs(metric, systems)
    return found
