"""WMT XML (the WMT21+ test-set format), parsed safely: no DTDs, no entities, no external files.

Structure (as sacrebleu reads it): ``<dataset><collection><doc id=.. origlang=..>`` holding
``<src lang=..>``, ``<ref lang=.. translator=..>`` and ``<hyp system=..>`` elements, each with
``<p><seg id=..>text</seg></p>``. Segments follow the source's seg ids in ascending order;
documents marked ``testsuite`` are skipped; a segment no reference translates is left out, and a
reference missing a segment reads as "" (both as sacrebleu does). Text is stripped with
whitespace runs collapsed to one space, as sacrebleu writes its plain-text copies.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict

from defusedxml import DefusedXmlException, DTDForbidden
from defusedxml.ElementTree import DefusedXMLParser

from ..errors import UnknownOptionError
from .decode import codec_name, decode_bytes
from .model import TextFile, WMTDocumentSet, read_error

_DECLARED = re.compile(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")
_SPACES = re.compile(r"\s+")


class _LineBuilder(ET.TreeBuilder):
    """A tree builder that remembers the line each element starts on, for messages."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[int, int] = {}
        self.parser: DefusedXMLParser | None = None

    def start(self, tag, attrs):  # type: ignore[no-untyped-def]
        element = super().start(tag, attrs)
        if self.parser is not None:
            self.lines[id(element)] = self.parser.parser.CurrentLineNumber
        return element


def _parse(data: bytes, name: str) -> tuple[ET.Element, dict[int, int], tuple[str, ...]]:
    declared = _DECLARED.match(data[:200])
    encoding = declared.group(1).decode("ascii") if declared else "utf-8"
    try:
        codec_name(encoding)
    except UnknownOptionError:
        raise read_error(name, f"declares the encoding {encoding!r}, which is unknown; save it "
                               "as UTF-8 and load it again.") from None
    decoded = decode_bytes(data, name, encoding=encoding)
    builder = _LineBuilder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True,
                              forbid_external=True)
    builder.parser = parser
    try:
        parser.feed(decoded.text)
        root = parser.close()
    except DTDForbidden:
        raise read_error(name, "declares a DTD (<!DOCTYPE ...>): DTDs and entity declarations "
                               "are refused for safety (they can expand to gigabytes or read "
                               "other files). Remove the DOCTYPE and load it again.") from None
    except DefusedXmlException as error:
        raise read_error(name, f"uses XML entities or external references ({error!r}), which "
                               "are refused for safety; remove them and load it again.") from None
    except ET.ParseError as error:
        line, column = error.position
        reason = str(error).split(":")[0]
        raise read_error(name, f"is not well-formed XML: {reason} at line {line}, column "
                               f"{column + 1}. Fix the file there and load it again.") from None
    # An encoding the XML declaration names is the file's own statement: no note for it.
    notes = tuple(n for n in decoded.notes if not n.startswith("The file was decoded as"))
    return root, builder.lines, notes


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text.strip())


class _Reader:
    """Collects the streams of one file while walking its documents."""

    def __init__(self, root: ET.Element, lines: dict[int, int], name: str) -> None:
        self.root, self.lines, self.name = root, lines, name
        self.translators = sorted({ref.get("translator") or "" for ref in root.iter("ref")})
        self.system_names = list(dict.fromkeys(hyp.get("system") or "" for hyp in root.iter("hyp")))
        self.src: list[str] = []
        self.refs: dict[str, list[str]] = {t: [] for t in self.translators}
        self.hyps: dict[str, list[str]] = {s: [] for s in self.system_names}
        self.doc_ids: list[str] = []
        self.missing_refs: dict[str, int] = defaultdict(int)
        self.cleaned = self.untranslated = self.testsuites = 0

    def where(self, element: ET.Element) -> str:
        return f"line {self.lines.get(id(element), '?')}"

    def segments(self, element: ET.Element, what: str) -> dict[int, str]:
        found: dict[int, str] = {}
        for seg in element.iter("seg"):
            raw_id = seg.get("id")
            try:
                seg_id = int(raw_id or "")
            except ValueError:
                raise read_error(self.name, f"has a <seg> in the {what} at {self.where(seg)} "
                                            f"with id {raw_id!r}: expected a whole number."
                                 ) from None
            if seg_id in found:
                raise read_error(self.name, f"has two segments with id {seg_id} in the {what} "
                                            f"(the second at {self.where(seg)}); ids must be "
                                            "unique within a document.")
            found[seg_id] = "".join(seg.itertext())
        return found

    def clean(self, raw: str) -> str:
        text = _clean(raw)
        self.cleaned += text != raw
        return text

    def add_document(self, doc: ET.Element) -> None:
        doc_id = doc.get("id")
        if doc_id is None:
            raise read_error(self.name, f"has a <doc> without an id at {self.where(doc)}: "
                                        "every document needs id=\"...\".")
        where = f"document {doc_id!r}"
        src: dict[int, str] = {}
        for element in doc.iter("src"):
            src.update(self.segments(element, f"source of {where}"))
        refs = {t: {} for t in self.translators}
        for element in doc.iter("ref"):
            refs[element.get("translator") or ""] = self.segments(
                element, f"reference {element.get('translator')!r} of {where}")
        hyps: dict[str, tuple[ET.Element, dict[int, str]]] = {}
        for element in doc.iter("hyp"):
            system = element.get("system") or ""
            hyps[system] = (element, self.segments(element, f"system {system!r} of {where}"))
        ids = sorted(src) if src else sorted({i for segs in refs.values() for i in segs})
        for seg_id in ids:
            if self.translators and not any(segs.get(seg_id) for segs in refs.values()):
                self.untranslated += 1
                continue
            self.add_segment(doc, doc_id, seg_id, src, refs, hyps)

    def add_segment(self, doc: ET.Element, doc_id: str, seg_id: int, src: dict[int, str],
                    refs: dict[str, dict[int, str]],
                    hyps: dict[str, tuple[ET.Element, dict[int, str]]]) -> None:
        self.src.append(self.clean(src.get(seg_id, "")))
        self.doc_ids.append(doc_id)
        for translator, segs in refs.items():
            self.missing_refs[translator] += seg_id not in segs
            self.refs[translator].append(self.clean(segs.get(seg_id, "")))
        for system in self.system_names:
            element, segs = hyps.get(system, (doc, {}))
            if seg_id not in segs:
                raise read_error(self.name, f"system {system!r} has no segment {seg_id} in "
                                            f"document {doc_id!r} (at {self.where(element)}), "
                                            "which the source has: each system needs every "
                                            "segment.")
            self.hyps[system].append(self.clean(segs[seg_id]))


def _language(root: ET.Element, tags: tuple[str, ...], name: str) -> str | None:
    langs = sorted({el.get("lang") or "" for tag in tags for el in root.iter(tag)} - {""})
    if len(langs) > 1:
        raise read_error(name, f"mixes several languages in its <{tags[0]}> elements "
                               f"({', '.join(langs)}): expected one language pair per file.")
    return langs[0] if langs else None


def read_wmt_xml(data: bytes, name: str) -> WMTDocumentSet:
    """Read a WMT21+ XML test set: source, references and systems, with document ids."""
    root, lines, notes = _parse(data, name)
    if root.find(".//doc") is None:
        raise read_error(name, f"has no <doc> elements (its root is <{root.tag}>): expected the "
                               "WMT XML test-set format, <dataset><collection><doc>...")
    source_lang = _language(root, ("src",), name)
    target_lang = _language(root, ("ref", "hyp"), name)
    reader = _Reader(root, lines, name)
    for doc in root.iter("doc"):
        if "testsuite" in doc.attrib:
            reader.testsuites += 1
        else:
            reader.add_document(doc)
    if not reader.doc_ids:
        raise read_error(name, "holds no segments (or none that a reference translates): "
                               "nothing to score. Expected <seg id=\"..\"> elements in "
                               "<src>, <ref> and <hyp>.")
    doc_ids = tuple(reader.doc_ids)
    file_notes = list(notes)
    if reader.testsuites:
        file_notes.append(f"{reader.testsuites:,} test-suite documents were skipped, as "
                          "sacrebleu does.")
    if reader.untranslated:
        file_notes.append(f"{reader.untranslated:,} source segments that no reference translates "
                          "were left out, as sacrebleu does.")
    if reader.cleaned:
        file_notes.append(f"Whitespace in {reader.cleaned:,} segments was trimmed or collapsed to "
                          "single spaces, as sacrebleu does.")

    def stream(label: str, segments: list[str], extra: tuple[str, ...] = ()) -> TextFile:
        return TextFile(f"{name} ({label})", tuple(segments), doc_ids, extra)

    source = stream("source", reader.src) if root.find(".//src") is not None else None
    references = {
        t: stream(f"ref {t}" if t else "ref", segs, (
            f"Reference {t or '(unnamed)'} lacks {reader.missing_refs[t]:,} segments; they "
            "read as empty strings, as in sacrebleu.",) if reader.missing_refs[t] else ())
        for t, segs in reader.refs.items()
    }
    systems = {s: stream(f"system {s}", segs) for s, segs in reader.hyps.items()}
    return WMTDocumentSet(source=source, references=references, systems=systems,
                          source_lang=source_lang, target_lang=target_lang,
                          notes=tuple(file_notes))
