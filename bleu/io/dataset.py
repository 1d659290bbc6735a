"""What the app has loaded: systems, references and source, checked together, keyed by content.

A ``Dataset`` is built whole and validated before anyone sees it (``assemble``), so a bad file
never replaces good data: the caller keeps the previous dataset when ``assemble`` raises.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from ..errors import InputError
from ..i18n import ntr, tr
from ..number_rule import PERCENT
from . import (
    IDENTICAL_WARN_FRACTION,
    TextFile,
    check_aligned,
    looks_tokenized,
    read_any,
    similarity_to_reference,
    unique_names,
)
from .languages import LanguagePair, default_tokenizer, most_common, script_language
from .model import segments_key
from .names import parse_file_name, system_name

__all__ = ["Dataset", "assemble", "default_tokenizer", "guess_language_pair", "load_folder",
           "system_name"]


def guess_language_pair(references: Sequence[TextFile], systems: Sequence[TextFile] = (),
                        source: TextFile | None = None) -> LanguagePair:
    """The test set's languages: WMT's pair in the file names (``newstest2021.en-de...``), else
    each side's language suffix (``*.ref.A.de``, ``*.src.en``, ``.eng``), else the language
    the text's script names (``script_language``: Chinese, Japanese, Korean, Hebrew, ...)."""
    sources = [source] if source is not None else []
    named = [parse_file_name(file.name) for file in [*references, *systems, *sources]]
    pair = next((parsed.pair for parsed in named if parsed.pair is not None), LanguagePair())
    target = (most_common([parse_file_name(ref.name).language for ref in references])
              or most_common([parse_file_name(hyp.name).language for hyp in systems])
              or script_language(segment for ref in references for segment in ref.segments))
    source_language = None
    if source is not None:
        source_language = (parse_file_name(source.name).language
                           or script_language(source.segments))
    return pair.or_else(LanguagePair(source_language, target))


@dataclass(frozen=True)
class Dataset:
    """Systems by display name, one or more references, an optional source; all aligned.

    ``sample`` names the bundled sample this is, exactly as shipped (e.g. ``"wmt22-en-de"``),
    and is None for anything else: whoever loads a sample sets it, and copies that change the
    data (``renamed``, ``with_system``) are the user's data, not the sample.
    """

    systems: Mapping[str, TextFile]
    references: tuple[TextFile, ...]
    source: TextFile | None = None
    label: str = ""
    target_language: str | None = None
    notes: tuple[str, ...] = field(default=())
    sample: str | None = None

    @property
    def n_segments(self) -> int:
        return len(self.references[0].segments)

    @property
    def n_refs(self) -> int:
        return len(self.references)

    @property
    def reference_streams(self) -> tuple[tuple[str, ...], ...]:
        """The references as ``bleu.BLEU`` takes them: ``streams[k][i]`` is ref k of segment i."""
        return tuple(tuple(ref.segments) for ref in self.references)

    @cached_property
    def references_key(self) -> str:
        """A content hash of all reference streams together, in order."""
        return segments_key([ref.key for ref in self.references])

    @cached_property
    def system_keys(self) -> dict[str, str]:
        """A content hash per system, by name (renaming keeps the hash)."""
        return {name: file.key for name, file in self.systems.items()}

    @cached_property
    def key(self) -> str:
        """A hash of everything a page computes from: system names and texts, references,
        source, document ids (the label and notes aside). Streamlit's caches hash a Dataset
        by it (``hash_funcs``), so a cached result can never belong to other data."""
        parts = [f"{name}\t{file.key}" for name, file in self.systems.items()]
        parts += [self.references_key, self.source.key if self.source is not None else "-"]
        parts += [segments_key(file.doc_ids) for file in (*self.references,
                                                           *self.systems.values())
                  if file.doc_ids is not None]
        return segments_key(parts)

    def renamed(self, old: str, new: str) -> Dataset:
        """A copy with system ``old`` called ``new``; refuses an empty or already used name."""
        new = new.strip()
        if not new:
            raise InputError(f"A system name cannot be empty (renaming {old!r}).")
        if new != old and new in self.systems:
            raise InputError(f"There is already a system called {new!r}; pick another name.")
        systems = {new if name == old else name: file for name, file in self.systems.items()}
        return replace(self, systems=systems, sample=None)  # changed: the user's data now

    @property
    def language_pair(self) -> LanguagePair:
        """The source and target language (``en-de``); what picks the tokenizer and METEOR's
        language. Guessed on loading (``guess_language_pair``), set by ``with_language_pair``."""
        return LanguagePair(self.source_language, self.target_language)

    def with_language_pair(self, pair: LanguagePair) -> Dataset:
        """A copy in the languages ``pair`` names (the user's correction of the guess)."""
        return replace(self, source_language=pair.source, target_language=pair.target)

    @property
    def test_set(self) -> str | None:
        """WMT's test set the file names name (``generaltest2023``), the most named one."""
        files = [*self.references, *self.systems.values(),
                 *([self.source] if self.source is not None else [])]
        return most_common([parse_file_name(file.name).test_set for file in files])

    @property
    def title(self) -> str:
        """A name for this data: WMT's test set and pair and the systems, as in
        ``generaltest2023.en-he · 5 systems``; without a test set in the names, the files'
        shared first word (``ted · sk-en · 2 systems``) or the label (``Uploaded files · ...``)."""
        pair = str(self.language_pair) if self.target_language else ""
        base = self.test_set
        if base is not None and pair:
            base, pair = f"{base}.{pair}", ""
        base = base or _shared_word([*self.references, *self.systems.values()]) or self.label
        count = len(self.systems)
        systems = ntr("{count} system", "{count} systems", count).format(count=count)
        return " · ".join(part for part in (base, pair, systems) if part)

    def with_system(self, file: TextFile, name: str) -> Dataset:
        """A copy with one more system, checked against the references like ``assemble`` does."""
        name = name.strip()
        if not name:
            raise InputError(f"The system from {file.name} needs a name.")
        if name in self.systems:
            raise InputError(
                f"There is already a system called {name!r}; pick another name for {file.name}."
            )
        check_aligned([*self.references, file])
        notes = (*(f"{file.name}: {note}" for note in file.notes),
                 *_warnings({name: file}, self.references))
        return replace(self, systems={**self.systems, name: file}, notes=notes, sample=None)

    # The source side of ``language_pair`` (the target side is ``target_language``, above).
    source_language: str | None = None


def _shared_word(files: Sequence[TextFile]) -> str | None:
    """The first word all the files' names share (``ted`` of ``ted.ref.eng`` and
    ``ted.sys1.eng``), where there are two files or more; else None."""
    words = {parse_file_name(file.name).stem.split(".")[0] for file in files}
    return words.pop() if len(files) > 1 and len(words) == 1 else None


def _warnings(systems: Mapping[str, TextFile], references: Sequence[TextFile]) -> list[str]:
    """Messages about input that loads but is probably a mistake."""
    notes = []
    for name, file in systems.items():
        for ref in references:
            share = similarity_to_reference(file, ref)
            if share > IDENTICAL_WARN_FRACTION:
                notes.append(tr(
                    "System {name} ({file}) is identical to reference {ref} on {share}% of its "
                    "lines: was the reference uploaded as a system?").format(
                    name=repr(name), file=file.name, ref=ref.name,
                    share=PERCENT.text(100 * share)))
    for file in [*references, *systems.values()]:
        if looks_tokenized(file.segments):
            notes.append(
                f"{file.name} looks tokenized already (e.g. spaces before punctuation). BLEU "
                "tokenizes itself, so scores will be off; upload detokenized text, or pick "
                "tokenizer 'none' if the tokenization is deliberate."
            )
    return notes


def assemble(systems: Sequence[TextFile], references: Sequence[TextFile],
             source: TextFile | None = None, *, names: Sequence[str] | None = None,
             label: str = "", language: str | None = None,
             source_language: str | None = None) -> Dataset:
    """Check files together (alignment, names) and build a Dataset; raises InputError if unusable.

    Problems that do not stop scoring (BOM, CRLF, renamed duplicates, a system equal to a
    reference, tokenized-looking text) become ``notes``. ``language`` and ``source_language``
    are the target and source language where the input names them (WMT XML, a saved
    workspace); a side not given is guessed from the file names and the script
    (``guess_language_pair``).
    """
    if not systems:
        raise InputError(tr("No system output loaded: add one or more system files."))
    if not references:
        raise InputError(tr("No reference loaded: add one or more reference files."))
    check_aligned([*references, *systems, *([source] if source is not None else [])])
    wanted = list(names) if names is not None else [system_name(file.name) for file in systems]
    final = unique_names(wanted)
    notes = [f"{file.name}: {note}"
             for file in [*references, *systems, *([source] if source else [])]
             for note in file.notes]
    for name in sorted(set(wanted)):
        if wanted.count(name) > 1:
            files = [file.name for file, want in zip(systems, wanted, strict=True) if want == name]
            renamed = [new for new, want in zip(final, wanted, strict=True) if want == name]
            notes.append(
                f"{len(files)} systems are named {name!r} ({', '.join(files)}); they are shown "
                f"as {', '.join(map(repr, renamed))}. Rename them under 'System names'."
            )
    by_name = dict(zip(final, systems, strict=True))
    notes += _warnings(by_name, references)
    pair = LanguagePair(source_language, language).or_else(
        guess_language_pair(references, systems, source))
    return Dataset(by_name, tuple(references), source, label, pair.target, tuple(notes),
                   source_language=pair.source)


def load_folder(folder: Path, label: str) -> Dataset:
    """A dataset from WMT-named files: ``*.hyp.NAME.de``, ``*.ref.A.de``, ``*.src.en``."""
    def read(path: Path) -> TextFile:
        return read_any(path.read_bytes(), path.name)

    systems = [read(path) for path in sorted(folder.glob("*.hyp.*"))]
    references = [read(path) for path in sorted(folder.glob("*.ref.*"))]
    sources = sorted(folder.glob("*.src.*"))
    return assemble(systems, references, read(sources[0]) if sources else None, label=label)
