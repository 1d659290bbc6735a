"""TER's compiled core: sacrebleu's tercom-style shift search over its beam edit distance.

Works on integer token ids (a hypothesis word that is in no reference is -1: TER only ever
compares hypothesis words with reference words). Imported on first use only, since importing
numba and loading (or compiling) these functions takes a noticeable time; see ``ter.py``.

Exactness: every decision sacrebleu 2.6 makes (``sacrebleu/metrics/lib_ter.py``) is made here in
the same order with the same ties:

- the beam: ``length_ratio = m / n`` (float64), a pseudo-diagonal ``floor(i * ratio)`` and a
  half-width of 25 (``ceil(ratio / 2 + 25)`` when ``ratio / 2 > 25``); the last row runs to the
  end of the reference but starts where the beam does. Cells outside the beam are "infinite";
- each cell takes, with strict ``>``, the first cheapest of: match/substitution, deletion (a
  hypothesis word), insertion (a reference word); the trace is read back from the last cell;
- shift candidates come in sacrebleu's order (hypothesis start, reference start, match length
  1..10, |start difference| <= 50), with its three filters and its target positions, each
  counted towards the limit of 1000 candidates per sentence pair; the best is the greatest
  ``(gain, length, -start, -target)``, the first of equals kept; a search that reaches the
  limit stops and its best shift is NOT applied, as in sacrebleu.

sacrebleu's prefix cache of matrix rows changes its speed, not its numbers (every hypothesis of
one pair has the same length, hence the same beam, and a row depends only on the words before
it). Here a candidate's cost reuses the current hypothesis' rows differently: forward rows up
to the first changed word, backward rows (cost to the end, over the same beam cells) from the
last changed word, and the minimum of their sum over the row where they meet. That minimum is
the same shortest path through the same cells, hence the same integer.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: a cost no real path reaches (sums of two stay below 2**31)
INF = 1 << 29
#: sacrebleu's limits (tercom's, plus its own candidate limit)
BEAM_WIDTH = 25
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000

# Edit operations, as sacrebleu's trace names them (rewriting the hypothesis into the reference).
NOP, SUB, DEL, INS, UNDEF = 0, 1, 2, 3, 4


def _compiled(function):
    """``njit(nogil=True)`` with its machine code cached on disk; where no cache folder is
    writable (numba then refuses ``cache=True`` outright), compiled in memory instead."""
    try:
        return njit(cache=True, nogil=True)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return njit(nogil=True)(function)


@_compiled
def _beam(n, m, lo, hi):
    """Fill ``lo[i]``, ``hi[i]``: the reference positions row i of the matrix holds (i = 0..n,
    n >= 1); return the widest row. Row 0 keeps just the cells row 1 reads."""
    ratio = m / n
    beam = BEAM_WIDTH
    if ratio / 2 > BEAM_WIDTH:
        beam = math.ceil(ratio / 2 + BEAM_WIDTH)
    width = 0
    for i in range(1, n + 1):
        diagonal = math.floor(i * ratio)
        lo[i] = max(0, diagonal - beam)
        hi[i] = min(m + 1, diagonal + beam)
        if i == n:
            hi[i] = m + 1
        width = max(width, hi[i] - lo[i])
    lo[0] = max(0, lo[1] - 1)
    hi[0] = hi[1]
    return max(width, hi[0] - lo[0])


@_compiled
def _forward_row(i, word, ref, lo, hi, prev, cur, cur_ops):
    """Row i (hypothesis word ``word``) from row i-1 (``prev``), as sacrebleu fills it."""
    plo, phi, clo = lo[i - 1], hi[i - 1], lo[i]
    left = INF  # the cell before the beam's first one was never computed
    for j in range(clo, hi[i]):
        up = prev[j - plo] if plo <= j < phi else INF
        if j == 0:
            best, op = up + 1, DEL
        else:
            diag = prev[j - 1 - plo] if plo <= j - 1 < phi else INF
            same = word == ref[j - 1]
            best, op = INF, UNDEF
            value = diag if same else diag + 1
            if best > value:
                best, op = value, (NOP if same else SUB)
            if best > up + 1:
                best, op = up + 1, DEL
            if best > left + 1:
                best, op = left + 1, INS
        cur[j - clo] = best
        cur_ops[j - clo] = op
        left = best


@_compiled
def _forward(words, ref, lo, hi, cost, ops):
    """The whole banded matrix of ``words`` against ``ref``, with each cell's operation."""
    for j in range(lo[0], hi[0]):  # row 0: j insertions to reach reference position j
        cost[0, j - lo[0]] = j
        ops[0, j - lo[0]] = INS
    for i in range(1, len(words) + 1):
        _forward_row(i, words[i - 1], ref, lo, hi, cost[i - 1], cost[i], ops[i])


@_compiled
def _backward(words, ref, lo, hi, back):
    """``back[i]``: the cheapest way from each beam cell of row i to the last cell, through
    beam cells only (rows n..1)."""
    n, m = len(words), len(ref)
    for j in range(hi[n] - 1, lo[n] - 1, -1):
        back[n, j - lo[n]] = m - j
    for i in range(n - 1, 0, -1):
        nlo, nhi, clo = lo[i + 1], hi[i + 1], lo[i]
        right = INF
        for j in range(hi[i] - 1, clo - 1, -1):
            best = right + 1
            if nlo <= j < nhi:
                best = min(best, back[i + 1, j - nlo] + 1)
            if nlo <= j + 1 < nhi:
                step = 0 if words[i] == ref[j] else 1
                best = min(best, back[i + 1, j + 1 - nlo] + step)
            back[i, j - clo] = best
            right = best


@_compiled
def _alignment(n, m, lo, ops, trace, align, hyp_err, ref_err):
    """Read the trace back from the last cell and turn it into sacrebleu's alignment: for each
    reference position the hypothesis position it is aligned to (-1 before the first), and
    which positions of each side are errors."""
    i, j, k = n, m, 0
    while i > 0 or j > 0:
        op = INS if i == 0 else ops[i, j - lo[i]]
        trace[k] = op
        k += 1
        if op != INS:  # a match, a substitution or a deletion uses up a hypothesis word
            i -= 1
        if op != DEL:  # a match, a substitution or an insertion uses up a reference word
            j -= 1
    pos_h, pos_r = -1, -1
    for t in range(k - 1, -1, -1):
        op = trace[t]
        if op == DEL:  # a hypothesis word with no reference word
            pos_h += 1
            hyp_err[pos_h] = 1
        elif op == INS:  # a reference word with no hypothesis word
            pos_r += 1
            align[pos_r] = pos_h
            ref_err[pos_r] = 1
        else:  # a match or a substitution
            pos_h += 1
            pos_r += 1
            align[pos_r] = pos_h
            hyp_err[pos_h] = 1 if op == SUB else 0
            ref_err[pos_r] = 1 if op == SUB else 0


@_compiled
def _shift_span(words, start, length, target, out):
    """Write ``out[first:stop]``, the only span where sacrebleu's ``_perform_shift`` (moving
    ``words[start:start+length]`` before ``target``) changes ``words``; return ``(first,
    stop)``. Its third case, a target inside the block or right after it, moves the block
    forward by ``target - start`` (clipped at the end): its slices are followed to the letter."""
    if target < start:
        for k in range(length):
            out[target + k] = words[start + k]
        for k in range(start - target):
            out[target + length + k] = words[target + k]
        return target, start + length
    if target > start + length:
        for k in range(target - start - length):
            out[start + k] = words[start + length + k]
        for k in range(length):
            out[target - length + k] = words[start + k]
        return start, target
    stop = min(len(words), length + target)
    middle = stop - (start + length)
    for k in range(middle):
        out[start + k] = words[start + length + k]
    for k in range(length):
        out[start + middle + k] = words[start + k]
    return start, stop


@_compiled
def _shifted_cost(shifted, first, stop, ref, lo, hi, cost, back, rows, ops_scratch):
    """Edit distance of the current words with ``shifted[first:stop]`` in place of theirs:
    forward rows first+1..stop (in two alternating ``rows``; operations go
    to ``ops_scratch``, unused) from the current matrix's row ``first``, then the cheapest sum
    with the backward row ``stop``."""
    _forward_row(first + 1, shifted[first], ref, lo, hi, cost[first], rows[0], ops_scratch)
    for i in range(first + 2, stop + 1):
        here = (i - first - 1) % 2  # row first+1 is in rows[0], the next in rows[1], ...
        _forward_row(i, shifted[i - 1], ref, lo, hi, rows[1 - here], rows[here],
                     ops_scratch)
    last = rows[(stop - first - 1) % 2]
    best = INF
    for j in range(lo[stop], hi[stop]):
        best = min(best, last[j - lo[stop]] + back[stop, j - lo[stop]])
    return best


@_compiled
def pair_edits(hyp, ref):
    """sacrebleu's ``translation_edit_rate(hyp, ref)[0]``: shifts plus the edit distance."""
    n, m = len(hyp), len(ref)
    if m == 0:
        return n
    if n == 0:
        return m
    lo = np.empty(n + 1, np.int64)
    hi = np.empty(n + 1, np.int64)
    width = _beam(n, m, lo, hi)
    # every read of these is within the beam, so they need no filling
    cost = np.empty((n + 1, width), np.int32)
    ops = np.empty((n + 1, width), np.int8)
    back = np.empty((n + 1, width), np.int32)
    rows = np.empty((2, width), np.int32)
    ops_scratch = np.empty(width, np.int8)
    trace = np.empty(n + m, np.int8)
    align = np.empty(m, np.int64)
    hyp_err = np.empty(n, np.int64)
    ref_err = np.empty(m, np.int64)
    hyp_err_sum = np.zeros(n + 1, np.int64)  # prefix sums: errors among the first k words
    ref_err_sum = np.zeros(m + 1, np.int64)
    words = hyp.copy()
    shifted = np.empty_like(words)  # a candidate's words, where they differ from ``words``
    shifts = 0
    checked = 0
    while True:
        _forward(words, ref, lo, hi, cost, ops)
        distance = cost[n, m - lo[n]]
        _alignment(n, m, lo, ops, trace, align, hyp_err, ref_err)
        for k in range(n):
            hyp_err_sum[k + 1] = hyp_err_sum[k] + hyp_err[k]
        for k in range(m):
            ref_err_sum[k + 1] = ref_err_sum[k] + ref_err[k]
        _backward(words, ref, lo, hi, back)
        found = False
        # typed int64 from the start (constant zeros would give numba literal types)
        best_gain, best_length = np.int64(0), np.int64(0)
        best_start, best_target = np.int64(0), np.int64(0)
        for start_h in range(n):
            for start_r in range(max(0, start_h - MAX_SHIFT_DIST),
                                 min(m, start_h + MAX_SHIFT_DIST + 1)):
                length = 0
                while length < MAX_SHIFT_SIZE and words[start_h + length] == ref[start_r + length]:
                    length += 1
                    # sacrebleu's filters: the block must hold a hypothesis error, its reference
                    # span an error, and the reference start must not align inside the block
                    if (hyp_err_sum[start_h + length] != hyp_err_sum[start_h]
                            and ref_err_sum[start_r + length] != ref_err_sum[start_r]
                            and not start_h <= align[start_r] < start_h + length):
                        previous = -1
                        for offset in range(-1, length):
                            target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                            if target == previous:
                                continue
                            previous = target
                            first, stop = _shift_span(words, start_h, length, target, shifted)
                            gain = distance - _shifted_cost(shifted, first, stop, ref, lo, hi,
                                                            cost, back, rows, ops_scratch)
                            checked += 1
                            better = not found or gain > best_gain or (gain == best_gain and (
                                length > best_length or (length == best_length and (
                                    start_h < best_start or (start_h == best_start
                                                             and target < best_target)))))
                            if better:
                                found = True
                                best_gain, best_length = gain, length
                                best_start, best_target = start_h, target
                        if checked >= MAX_SHIFT_CANDIDATES:
                            break
                    if start_h + length == n or start_r + length == m:
                        break
                if checked >= MAX_SHIFT_CANDIDATES:
                    break
            if checked >= MAX_SHIFT_CANDIDATES:
                break
        if checked >= MAX_SHIFT_CANDIDATES or not found or best_gain <= 0:
            return shifts + distance
        shifted_words = words.copy()
        _shift_span(words, best_start, best_length, best_target, shifted_words)
        words = shifted_words
        shifts += 1


@_compiled
def pairs_edits(hyp_tokens, hyp_bounds, ref_tokens, ref_bounds, hyp_of_pair, ref_of_pair,
                begin, end, out):
    """``out[p] = pair_edits(hypothesis, reference)`` for pairs ``begin..end-1``: pair p is
    hypothesis ``hyp_of_pair[p]`` and reference ``ref_of_pair[p]``, whose tokens are
    ``tokens[bounds[k]:bounds[k + 1]]``."""
    for p in range(begin, end):
        h, r = hyp_of_pair[p], ref_of_pair[p]
        out[p] = pair_edits(hyp_tokens[hyp_bounds[h]:hyp_bounds[h + 1]],
                            ref_tokens[ref_bounds[r]:ref_bounds[r + 1]])
