"""The interface's catalogs with Babel: extract every ``tr``/``ntr``/``N_`` string of the core and
the app into a template, update each language's ``.po`` from it, check that nothing is left
untranslated or fuzzy, and that no translation uses a variant of a term that must not drift
(``DRIFTING``: the Dutch article's terms, one spelling each, and the "je" register).

    python scripts/i18n.py update   # after changing strings: new msgids in, gone ones out
    python scripts/i18n.py check    # what the tests check: exit 1 on a missing translation

The command line (``bleu/cli``) is left out: it keeps English and sacrebleu's exact output.
The ``.po`` files are the catalogs the app reads (``bleu.i18n`` compiles them in memory).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
#: the packages whose strings a user reads, and what of them is not extracted
PACKAGES = ("bleu", "bleu_app")
METHOD_MAP = [("cli/**", "ignore"), ("**.py", "python")]
#: bleu.i18n's markers: tr(message), ntr(singular, plural, count), N_(message)
KEYWORDS = {"tr": None, "ntr": (1, 2), "N_": None}
LANGUAGES = ("nl",)
LOCALE_DIR = ROOT / "bleu" / "locale"
HEADER = ("# The interface of BLEU Explorer, translated. Kept by scripts/i18n.py (update, check);\n"
          "# terms as ../shared/TEACHING_NL.md lists them for Dutch.")


#: per language: (a variant that must not appear, the term to use instead), as regular
#: expressions matched case-sensitively against every translation. Dutch: the terms of
#: ../shared/TEACHING_NL.md in one spelling each (TEACHING_NL_REVIEW.md found them drifting),
#: SacreBLEU spelled as its README spells it (``sacrebleu`` only as a command or module), and
#: "je" where the app speaks to a person.
DRIFTING = {"nl": (
    (r"[Hh]ypothese(?!n\b)|(?<!wetenschappelijke )hypothesen", "kandidaat-vertaling"),
    (r"[Kk]andidaatvertaling|[Kk]andidaat vertaling", "kandidaat-vertaling"),
    (r"[Rr]eferentie-vertaling|[Rr]eferentie vertaling", "referentievertaling"),
    (r"\bn-gram[ -](?:precisie|orde|overlap|overeenkomst|totaal|totale|tabel)",
     "n-gramprecisie, n-gramorde, n-gramoverlap (één woord)"),
    (r"(?<![Aa]an)geleerde metriek|[Aa]angeleerde metrics|\b[Ll]earned metrics?\b",
     "aangeleerde metriek / metrieken"),
    (r"(?<![-.\w{])(?<!Quality )[Mm]etrics?\b(?! Are| Shared| for| Maze)",
     "metriek / metrieken"),
    (r"[Hh]andtekening", "signatuur"),
    (r"[Gg]eometrisch gemiddelde", "meetkundig gemiddelde"),
    (r"[Ss]traf voor kortheid|[Bb]eknoptheidsstraf|[Kk]ortheidsstraf", "straf voor beknoptheid"),
    (r"[Bb]asislijn", "baseline"),
    (r"[Ss]moothing-(?:waarde|methode)", "smoothingwaarde, smoothingmethode"),
    (r"sacreBLEU|Sacrebleu|SACREBLEU|(?<![.`/~{\w])sacrebleu(?! -|\.\w|`)", "SacreBLEU"),
    (r"\b(?:[Uu]|[Uu]w)\b(?!\+)", "je / jouw (het register van de app)"),
)}


def drifting(text: str, code: str) -> list[tuple[str, str]]:
    """Every (variant found, term to use) of ``DRIFTING[code]`` in ``text``."""
    return [(found.group(0), preferred) for pattern, preferred in DRIFTING.get(code, ())
            for found in re.finditer(pattern, text)]


def po_path(code: str) -> Path:
    """The catalog of language ``code``."""
    return LOCALE_DIR / code / "LC_MESSAGES" / "messages.po"


def extract() -> Catalog:
    """Every marked string of ``PACKAGES``, as a template catalog."""
    template = Catalog(project="BLEU Explorer", charset="utf-8")
    for package in PACKAGES:
        for filename, lineno, message, comments, context in extract_from_dir(
                ROOT / package, METHOD_MAP, keywords=KEYWORDS,
                comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            template.add(message, None, [(f"{package}/{filename}", lineno)],
                         auto_comments=comments, context=context)
    return template


def read(code: str) -> Catalog:
    """Language ``code``'s catalog as it is in the repository (empty where there is none)."""
    path = po_path(code)
    if not path.exists():
        return Catalog(locale=code, project="BLEU Explorer", charset="utf-8")
    with path.open("rb") as handle:
        return read_po(handle, locale=code)


def write(code: str, catalog: Catalog) -> None:
    """Write ``catalog`` sorted and without source locations, so that merges stay small."""
    path = po_path(code)
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog.fuzzy = False
    catalog.header_comment = HEADER
    catalog.last_translator = catalog.language_team = f"BLEU Explorer ({code})"
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, no_location=True, omit_header=False,
                 sort_output=True, ignore_obsolete=True)


def update() -> None:
    """Merge the code's strings into every catalog (a changed msgid comes back fuzzy, with its
    old translation as a suggestion)."""
    template = extract()
    for code in LANGUAGES:
        catalog = read(code)
        catalog.update(template, update_header_comment=False, update_creation_date=False)
        write(code, catalog)


def problems(code: str) -> list[str]:
    """What is wrong with language ``code``'s catalog: msgids of the code it lacks or has
    beyond the code's, empty or fuzzy translations, translations with a drifting term."""
    wanted = {message.id for message in extract() if message.id}
    catalog = read(code)
    found = {message.id for message in catalog if message.id}
    found_problems = [f"not in the catalog: {key!r}" for key in sorted(wanted - found, key=str)]
    found_problems += [f"not in the code: {key!r}" for key in sorted(found - wanted, key=str)]
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            found_problems.append(f"untranslated: {message.id!r}")
        elif message.fuzzy:
            found_problems.append(f"fuzzy: {message.id!r}")
        found_problems += [f"term: {variant!r} (use {preferred}) in {message.id!r}"
                           for string in strings for variant, preferred in drifting(string, code)]
    return found_problems


def check() -> int:
    """Print every catalog's problems; 1 where there is any."""
    failed = False
    for code in LANGUAGES:
        for problem in problems(code):
            print(f"{code}: {problem}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
    elif command == "check":
        sys.exit(check())
    else:
        sys.exit(__doc__)
