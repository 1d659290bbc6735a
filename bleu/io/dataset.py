"""What the app has loaded: systems, references and source, checked together, keyed by content.

A ``Dataset`` is built whole and validated before anyone sees it (``assemble``), so a bad file
never replaces good data: the caller keeps the previous dataset when ``assemble`` raises.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..errors import InputError
from . import (
    IDENTICAL_WARN_FRACTION,
    TextFile,
    check_aligned,
    looks_tokenized,
    read_any,
    similarity_to_reference,
    unique_names,
)
from .model import segments_key

#: the tokenizer WMT used for a target language (WMT21/22 scored Japanese with ``char``)
TOKENIZER_BY_LANGUAGE = {"zh": "zh", "ja": "char"}
_PAIR = re.compile(r"(?:^|[^a-z])([a-z]{2})-([a-z]{2})(?:[^a-z]|$)")
_WMT_HYP = re.compile(r"\.hyp\.(.+)\.[A-Za-z]{2,3}$")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def system_name(file_name: str) -> str:
    """A system's default name from its file: ``NAME`` of WMT's ``*.hyp.NAME.de``, else the stem."""
    match = _WMT_HYP.search(file_name)
    if match:
        return match.group(1)
    return Path(file_name).stem or file_name


def guess_target_language(reference_names: Sequence[str], references: Sequence[Sequence[str]],
                          ) -> str | None:
    """The target language from file names (``en-zh``, ``*.de``) or, failing that, the script."""
    for name in reference_names:
        pair = _PAIR.search(name.lower())
        if pair:
            return pair.group(2)
    for name in reference_names:
        suffix = Path(name).suffix.lstrip(".").lower()
        if len(suffix) == 2 and suffix.isalpha() and suffix != "md":
            return suffix
    text = "".join(segment for stream in references for segment in stream[:200])
    if _KANA.search(text):
        return "ja"
    if text and len(_HAN.findall(text)) > 0.3 * len(text):
        return "zh"
    return None


def default_tokenizer(language: str | None) -> str:
    """The tokenizer WMT publishes scores with for ``language``: zh -> zh, ja -> char, else 13a."""
    return TOKENIZER_BY_LANGUAGE.get(language or "", "13a")


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
        return Dataset(systems, self.references, self.source, self.label, self.target_language,
                       self.notes)

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
        return Dataset({**self.systems, name: file}, self.references, self.source, self.label,
                       self.target_language, notes)


def _warnings(systems: Mapping[str, TextFile], references: Sequence[TextFile]) -> list[str]:
    """Messages about input that loads but is probably a mistake."""
    notes = []
    for name, file in systems.items():
        for ref in references:
            share = similarity_to_reference(file, ref)
            if share > IDENTICAL_WARN_FRACTION:
                notes.append(
                    f"System {name!r} ({file.name}) is identical to reference {ref.name} on "
                    f"{share:.0%} of its lines: was the reference uploaded as a system?"
                )
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
             label: str = "", language: str | None = None) -> Dataset:
    """Check files together (alignment, names) and build a Dataset; raises InputError if unusable.

    Problems that do not stop scoring (BOM, CRLF, renamed duplicates, a system equal to a
    reference, tokenized-looking text) become ``notes``. ``language`` is the target language
    where the input names it (WMT XML); otherwise it is guessed from names and script.
    """
    if not systems:
        raise InputError("No system output loaded: add one or more system files.")
    if not references:
        raise InputError("No reference loaded: add one or more reference files.")
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
    language = language or guess_target_language([ref.name for ref in references],
                                                 [ref.segments for ref in references])
    return Dataset(by_name, tuple(references), source, label, language, tuple(notes))


def load_folder(folder: Path, label: str) -> Dataset:
    """A dataset from WMT-named files: ``*.hyp.NAME.de``, ``*.ref.A.de``, ``*.src.en``."""
    def read(path: Path) -> TextFile:
        return read_any(path.read_bytes(), path.name)

    systems = [read(path) for path in sorted(folder.glob("*.hyp.*"))]
    references = [read(path) for path in sorted(folder.glob("*.ref.*"))]
    sources = sorted(folder.glob("*.src.*"))
    return assemble(systems, references, read(sources[0]) if sources else None, label=label)
