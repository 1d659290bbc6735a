"""Exceptions of the core package: each message says what was expected, what was found, where."""

from __future__ import annotations


class InputError(ValueError):
    """Base class of every error caused by what the caller passed in."""


class LengthMismatchError(InputError):
    """Two streams that must be aligned line by line have different lengths."""


class MissingReferenceError(InputError):
    """A segment has no reference at all (every reference stream holds None there)."""


class InvalidTextError(InputError):
    """A stream holds something that is not a string where a segment was expected."""


class UnknownOptionError(InputError):
    """An option (tokenizer, smoothing method, order, ...) has a value we do not know."""


class MissingExtraError(InputError):
    """A feature needs an optional dependency that is not installed; the message names the extra."""


class MissingModelError(UnknownOptionError):
    """An option names a model (a SentencePiece file, a COMET or BERTScore model) that is not on
    this machine; the message names it and the one command that fetches it elsewhere."""


class ReadError(InputError):
    """An uploaded or read file cannot be turned into segments; the message names file and line."""
