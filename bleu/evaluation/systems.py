"""Which system a score file's system name stands for: the one matching policy of the app, the
command line and workspaces.

A loaded system is known by its name, by its base name when the name is a path
(``runs/UEdin.de``), and by the name guessed from a file name as the Data page guesses it
(``UEdin`` for ``newstest2021.en-de.hyp.UEdin.de``); a key two systems share is ambiguous and
refused, naming both. A file's name matches through, in order: the user's alias (file name ->
system), the keys, then WMT's known MQM names (``Nemo`` is ``NVIDIA-NeMo``), said in a note.
Names are matched case-sensitively; a name that differs only in case, or a known MQM name, is
suggested, never applied silently beyond the MQM list. Two file names standing for one system
are refused. The file's other systems (MQM's references, say) are left out with a note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

import numpy as np

from ..errors import InputError
from ..i18n import tr
from ..io.names import system_name
from ..io.scores.mqm import MQM_ALIASES
from ..metrics.segment.scores import SegmentScores

#: how many names a message lists before it says how many more there are
NAMES_SHOWN = 12


class UnmatchedSystemsError(InputError):
    """None of a score file's systems is one of the loaded systems."""


def listed(names: Sequence[str]) -> str:
    """Names for a message: the first ``NAMES_SHOWN``, then how many more."""
    shown = ", ".join(names[:NAMES_SHOWN])
    more = len(names) - NAMES_SHOWN
    return shown + (tr(" and {count} more").format(count=more) if more > 0 else "")


@dataclass(frozen=True)
class AliasHint:
    """How a caller's messages name things: the systems scored (``scored``: "scored here"; in a
    list: ``listing``), one mapping in the caller's form (``mapping``, with ``{name}`` and
    ``{system}``: the command line's ``--scores-alias {name}={system}``), the general advice
    where names do not match, and how a user overrides a known MQM name."""

    scored: str
    listing: str
    mapping: str
    general: str
    override: str


def app_hint() -> AliasHint:
    """The app's wording: mappings are made with the widgets beside the loaded scores."""
    return AliasHint(tr("loaded"), tr("loaded"), tr("{name} → {system}"),
                     tr("map a file's name to a loaded system (names are matched "
                        "case-sensitively)."),
                     tr("a mapping says otherwise"))


@dataclass(frozen=True)
class Matching:
    """Scores renamed to the systems' names, restricted to them and in their order; the file's
    systems left out, the systems without scores, and notes on names taken as WMT's MQM
    names."""

    scores: SegmentScores
    unmatched_file: tuple[str, ...]
    unmatched_loaded: tuple[str, ...]
    notes: tuple[str, ...] = ()
    hint: AliasHint | None = None

    def left_out(self) -> str | None:
        """A note naming the file's systems left out (None when none is)."""
        if not self.unmatched_file:
            return None
        return tr("{source}: {count} system(s) with {label} scores are not {scored} and are "
                  "left out: {names}.").format(
            source=self.scores.source, count=len(self.unmatched_file), label=self.scores.label,
            scored=(self.hint or app_hint()).scored, names=listed(list(self.unmatched_file)))

    def message(self) -> str | None:
        """What did not match, for the user (None when every file system matched)."""
        if not self.unmatched_file:
            return None
        return tr("{count} system(s) of {source} are not loaded and are left out: {names}. "
                  "Names are matched case-sensitively; loaded systems without scores: "
                  "{missing}. Map a name to a loaded system if it is the same system.").format(
            count=len(self.unmatched_file), source=self.scores.source,
            names=listed(list(self.unmatched_file)),
            missing=listed(list(self.unmatched_loaded)) or tr("none"))


@dataclass(frozen=True)
class SystemKeys:
    """The names each system is known by; a key two systems share is ambiguous."""

    systems: tuple[str, ...]
    by_key: Mapping[str, tuple[str, ...]]

    @classmethod
    def of(cls, systems: Sequence[str]) -> SystemKeys:
        by_key: dict[str, list[str]] = {}
        for system in systems:
            base = PurePath(system).name
            for key in dict.fromkeys((system, base, system_name(base))):
                by_key.setdefault(key, []).append(system)
        exact = {system: [system] for system in systems}  # a name as given is never ambiguous
        return cls(tuple(systems), {key: tuple(found) for key, found in
                                    {**by_key, **exact}.items()})

    def find(self, name: str, where: str, hint: AliasHint) -> str | None:
        """The system ``name`` stands for (None: none); refused where it fits two."""
        found = self.by_key.get(name, ())
        if len(found) > 1:
            raise InputError(tr("{where}: {name!r} fits {count} systems ({systems}); map it to "
                                "one with {mapping}.").format(
                where=where, name=name, count=len(found), systems=", ".join(found),
                mapping=hint.mapping.format(name=name, system="SYSTEM")))
        return found[0] if found else None


def suggest_aliases(file_systems: Sequence[str], loaded: Sequence[str]) -> dict[str, str]:
    """Likely mappings for file names that match no loaded system: known MQM names, then names
    that differ only in case (suggested, never applied silently)."""
    loaded_set = set(loaded)
    out = {}
    for name in file_systems:
        if name in loaded_set:
            continue
        known = MQM_ALIASES.get(name)
        if known in loaded_set:
            out[name] = known
            continue
        folded = [other for other in loaded if other.casefold() == name.casefold()]
        if len(folded) == 1:
            out[name] = folded[0]
    return out


def check_aliases(aliases: Mapping[str, str], score_sets: Sequence[SegmentScores],
                  systems: Sequence[str], hint: AliasHint) -> None:
    """Every alias names a system of some score file and a system scored here."""
    keys = SystemKeys.of(systems)
    in_files = {name for scores in score_sets for name in scores.systems}
    for name, target in aliases.items():
        where = hint.mapping.format(name=name, system=target)
        if name not in in_files:
            raise InputError(tr("{where}: no score file has a system {name!r}.").format(
                where=where, name=name))
        if keys.find(target, where, hint) is None:
            raise InputError(tr("{where}: {target!r} is not a system {listing} ({known}).")
                             .format(where=where, target=target, listing=hint.listing,
                                     known=listed(list(systems))))


def _resolve(scores: SegmentScores, keys: SystemKeys, aliases: Mapping[str, str],
             hint: AliasHint) -> tuple[dict[str, str], list[str]]:
    """File system -> system, for the file systems that match one, and the notes."""
    matched: dict[str, str] = {}
    by_system: dict[str, str] = {}
    notes = []
    for name in scores.systems:
        if name in aliases:
            system = keys.find(aliases[name], hint.mapping.format(name=name,
                                                                  system=aliases[name]), hint)
        else:
            system = keys.find(name, scores.source, hint)
            known = MQM_ALIASES.get(name)
            if system is None and known is not None:
                system = keys.find(known, scores.source, hint)
                if system is not None:
                    notes.append(tr("{source}: the system {name!r} is taken as {system} (WMT's "
                                    "MQM name for it; {override}).").format(
                        source=scores.source, name=name, system=system,
                        override=hint.override))
        if system is None:
            continue
        if system in by_system:
            raise InputError(tr("{source}: the systems {first!r} and {second!r} both stand for "
                                "{system}; give one of them scores, or map the other "
                                "elsewhere.").format(source=scores.source,
                                                      first=by_system[system], second=name,
                                                      system=system))
        by_system[system] = name
        matched[name] = system
    return matched, notes


def _advice(scores: SegmentScores, keys: SystemKeys, matched: Mapping[str, str],
            hint: AliasHint) -> str:
    """How to map the file's names: a likely mapping (a known MQM name, or one that differs
    only in case), else the general advice."""
    unmatched = [name for name in scores.systems if name not in matched]
    hints = suggest_aliases(unmatched, list(keys.by_key))
    if hints:
        name, system = next(iter(hints.items()))
        return tr("did you mean {mapping}?").format(
            mapping=hint.mapping.format(name=name, system=system))
    return hint.general


def match_scores(scores: SegmentScores, systems: Sequence[str],
                 aliases: Mapping[str, str] | None = None, *, require_all: bool = False,
                 hint: AliasHint | None = None) -> Matching:
    """``scores`` for ``systems``, under their names and in their order. Refused: no system
    matched, two names for one system, and with ``require_all`` a system without scores or
    without any rated segment."""
    hint = hint or app_hint()
    aliases = dict(aliases or {})
    keys = SystemKeys.of(systems)
    matched, notes = _resolve(scores, keys, aliases, hint)
    if not matched:
        raise UnmatchedSystemsError(tr(
            "{source}: none of its systems is {scored}. The file has {names}; {listing}: "
            "{systems}; {advice}").format(
            source=scores.source, scored=hint.scored, names=listed(list(scores.systems)),
            listing=hint.listing, systems=listed(list(systems)),
            advice=_advice(scores, keys, matched, hint)))
    missing = [system for system in systems if system not in matched.values()]
    if require_all and missing:
        more = tr(" (nor for {count} more system(s) {listing})").format(
            count=len(missing) - 1, listing=hint.listing) if len(missing) > 1 else ""
        raise InputError(tr("{source}: no {label} scores for {system}{more}; the file scores "
                            "{names}; {advice}").format(
            source=scores.source, label=scores.label, system=missing[0], more=more,
            names=listed(list(scores.systems)), advice=_advice(scores, keys, matched, hint)))
    left_out = tuple(name for name in scores.systems if name not in matched)
    order = [system for system in systems if system in matched.values()]
    by_system = {system: name for name, system in matched.items()}
    rows = np.stack([scores.scores(by_system[system]) for system in order])
    if require_all:
        unrated = [system for system, row in zip(order, rows, strict=True)
                   if np.isnan(row).all()]
        if unrated:
            raise InputError(tr("{source}: no segment of {system} has a {label} score (all are "
                                "unrated); a system score needs one.").format(
                source=scores.source, system=unrated[0], label=scores.label))
    rows.setflags(write=False)
    renamed = replace(scores, systems=tuple(order), matrix=rows)
    return Matching(renamed, left_out, tuple(missing), tuple(notes), hint)
