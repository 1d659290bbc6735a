"""METEOR of one hypothesis against its references, with NLTK's implementation (Lavie and
Agarwal 2007): unigram matches found in three stages (exact, stem, WordNet synonym), a recall-
weighted F-mean, and a penalty for fragmentation (how many chunks the matches fall into), so
word order beyond n-grams counts.

The synonym stage needs WordNet's database, which is never downloaded at run time: it is read
from Debian's ``wordnet-base`` package (Princeton WordNet 3.0, ``/usr/share/wordnet``) or, when
that is absent, from an NLTK data folder that already holds ``corpora/wordnet``. Without either,
METEOR runs its exact and stem stages only (``Meteor.stages`` says which ran) and the app says
so. WordNet and the Porter stemmer are English; German and Dutch get NLTK's Snowball stemmer
(its rules are in the library: nothing to download) and no synonyms; other languages exact
matches only. Tokens are BLEU's (the chosen tokenizer).
"""

from __future__ import annotations

import functools
import io
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .bleu.engine import tokenize_line
from .bleu.score import BLEUOptions

#: where Debian's wordnet-base puts the WordNet 3.0 database files
DEBIAN_WORDNET = Path("/usr/share/wordnet")
#: the lexicographer files of WordNet 3.0 by number (its ``lexnames`` file, see lexnames(5WN)):
#: Debian does not ship that file, NLTK's reader reads it on start, METEOR never uses it
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
    "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather",
    "adj.ppl",
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
EXACT, STEM, SYNONYM = "exact", "stem", "synonym"
#: NLTK's WordNet reader seeks in shared file handles: one METEOR at a time per process
_LOCK = threading.Lock()


class NoSynonyms:
    """A WordNet with no synsets: METEOR's synonym stage then matches nothing new."""

    def synsets(self, word: str) -> list[Any]:
        return []


def _debian_reader(root: Path) -> Any:
    """NLTK's WordNet reader over Debian's files (lexnames supplied, no OMW mapping)."""
    import nltk.data
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    lexnames = "".join(f"{number:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n"
                       for number, name in enumerate(LEXNAMES))

    class DebianWordNet(WordNetCorpusReader):
        def open(self, file: str) -> Any:
            return io.StringIO(lexnames) if file == "lexnames" else super().open(file)

        def map_wn(self, version: str = "wordnet") -> None:
            return None  # this IS WordNet 3.0: nothing to map (and no index.sense to read)

    if str(root) not in nltk.data.path:  # NLTK reads corpora only under its data paths
        nltk.data.path.append(str(root))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions not available": not used
        return DebianWordNet(str(root), None)


@functools.cache
def wordnet(root: Path = DEBIAN_WORDNET) -> Any | None:
    """WordNet 3.0 for METEOR's synonym stage, loaded once per process (a few seconds), or
    None when neither Debian's files nor an installed NLTK ``corpora/wordnet`` are there."""
    if (root / "data.noun").is_file():
        return _debian_reader(root)
    import nltk.data

    try:
        nltk.data.find("corpora/wordnet")  # finds what is installed; never downloads
    except LookupError:
        return None
    from nltk.corpus import wordnet as installed

    return installed


#: the languages NLTK's Snowball stemmer is used for, by code
SNOWBALL = {"de": "german", "nl": "dutch"}


def stemmer(language: str) -> Any | None:
    """The stem stage's stemmer: Porter for English, Snowball for German and Dutch, else
    none."""
    if language == "en":
        from nltk.stem.porter import PorterStemmer

        return PorterStemmer()
    if language in SNOWBALL:
        from nltk.stem.snowball import SnowballStemmer

        return SnowballStemmer(SNOWBALL[language])
    return None


def stemmer_name(language: str) -> str:
    """The stem stage's stemmer in words, for a signature: ``Porter``, ``Snowball (dutch)``,
    ``none``."""
    if language == "en":
        return "Porter"
    return f"Snowball ({SNOWBALL[language]})" if language in SNOWBALL else "none"


class _Identity:
    """A stemmer that leaves words as they are (the stem stage then adds nothing)."""

    def stem(self, word: str) -> str:
        return word


@dataclass(frozen=True)
class Meteor:
    """METEOR in 0..1 (the best reference's) and the matching stages that ran."""

    score: float
    stages: tuple[str, ...]


def meteor(hypothesis: str, references: Sequence[str], *, language: str = "en",
           tokenize: str = "13a", synonyms: Any | None = None) -> Meteor:
    """NLTK's ``meteor_score`` with BLEU's tokens; ``synonyms`` is the WordNet to use (pass
    ``wordnet()``; None: no synonym stage). Synonyms are used for English only."""
    from nltk.translate.meteor_score import meteor_score

    options = BLEUOptions(tokenize=tokenize)
    words = [tokenize_line(ref, options) for ref in references]
    stem = stemmer(language)
    net = synonyms if language == "en" and synonyms is not None else NoSynonyms()
    stages = (EXACT, *((STEM,) if stem is not None else ()),
              *((SYNONYM,) if not isinstance(net, NoSynonyms) else ()))
    with _LOCK:
        score = meteor_score(words, tokenize_line(hypothesis, options),
                             stemmer=stem or _Identity(), wordnet=net)
    return Meteor(float(score), stages)
