# litmus dataset generators, what the Python and the Java generators share
# whatever the language (see dataset.py and ds_java.py): locations and
# quarters, the first checks of a source, an input and a vocabulary, the
# rewriters' word pools, and Rewriter, which draws, splices and reports the
# rewrites once each language's subclass has found where they may go.
# Pure Python, standard library only, no I/O; embedded in litmus like
# mutgen.py.
# SPDX-License-Identifier: MIT

import bisect
import random


# ---------------------------------------------------------------- locations

def count_lines(source):
    if not source:
        return 0
    n = source.count('\n')
    return n if source.endswith('\n') else n + 1


def location(line, total_lines):
    """{"line", "fraction", "quarter", "third"} of a 1-based line (see the
    module docstring of dataset.py for the formula)."""
    line = int(line)
    if line < 1:
        raise ValueError('line %d: lines are 1-based' % line)
    total = max(1, int(total_lines))
    k = min(line, total) - 1
    return {'line': line, 'fraction': k / total,
            'quarter': k * 4 // total + 1,
            'third': ('first', 'middle', 'last')[k * 3 // total]}


def _check_quarter(quarter, allow_none=True):
    if quarter is None and allow_none:
        return None
    if isinstance(quarter, bool) or quarter not in (1, 2, 3, 4):
        raise ValueError('quarter must be 1, 2, 3 or 4%s, not %r' % (
            ' or None' if allow_none else '', quarter))
    return quarter


def _short(text, limit=60):
    text = ' '.join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + '...'


# ---------------------------------------------------------------- inputs

def _split_bom(source):
    if isinstance(source, str) and source.startswith('\ufeff'):
        return '\ufeff', source[1:]
    return '', source


def source_bytes(source):
    """The UTF-8 bytes of a source text that both languages' parsers
    accept: a str with no NUL and no lone CR; else TypeError or
    ValueError."""
    if not isinstance(source, str):
        raise TypeError('source must be str, not %s'
                        % type(source).__name__)
    if '\0' in source:
        raise ValueError('source contains a NUL character')
    if '\r' in source.replace('\r\n', ''):
        raise ValueError('lone CR line ends are not supported')
    try:
        return source.encode('utf-8')
    except UnicodeEncodeError:
        raise ValueError('source is not valid Unicode text')


def call_text(expr):
    """The checks of check_call() before parsing: (the stripped text of
    `expr`, None), or (None, a one-line reason)."""
    if not isinstance(expr, str):
        return None, 'not a string'
    if '\0' in expr:
        return None, 'contains a NUL character'
    text = expr.strip()
    if not text:
        return None, 'empty'
    return text, None


def vocab_lists(vocab):
    """A user vocabulary's shape: its (names, comments, dead_code) lists
    of strings, each empty when absent; else ValueError."""
    if vocab is None:
        return [], [], []
    if not isinstance(vocab, dict):
        raise ValueError('vocab must be an object with "names", "comments" '
                         'and/or "dead_code" lists')
    extra = set(vocab) - {'names', 'comments', 'dead_code'}
    if extra:
        raise ValueError('vocab: unknown key(s) %s'
                         % ', '.join(sorted(map(repr, extra))))
    out = []
    for key in ('names', 'comments', 'dead_code'):
        v = vocab.get(key, [])
        if v is None:
            v = []
        if not isinstance(v, (list, tuple)):
            raise ValueError('vocab %s must be a list' % key)
        for x in v:
            if not isinstance(x, str):
                raise ValueError('vocab %s entry %r is not a string'
                                 % (key, x))
        out.append(list(v))
    return out


def comment_texts(comments, leads, check=None):
    """The texts of vocabulary comments: one line each, a leading comment
    marker of `leads` dropped, not empty; check(entry, text), when given,
    raises ValueError on what the language refuses besides."""
    texts = []
    for x in comments:
        if any(c in x for c in '\r\n\0'):
            raise ValueError('vocab comments entry %r is not a single line'
                             % x)
        t = x.strip()
        for lead in leads:
            if t.startswith(lead):
                t = t[len(lead):].strip()
        if not t:
            raise ValueError('vocab comments entry %r is empty' % x)
        if check is not None:
            check(x, t)
        texts.append(t)
    return texts


# ---------------------------------------------------------------- words
# The rewriters' words, snake_case (Java camelCases them).

RENAME_POOL = (
    'total_sum', 'sorted_flag', 'result_list', 'max_value', 'min_index',
    'is_empty', 'visited_set', 'output_str', 'prev_node', 'retry_count',
    'cache_map', 'lookup_table', 'done_flag', 'accumulator', 'pivot_value',
    'reversed_items', 'heap_size', 'error_count', 'file_handle', 'user_name',
    'timestamp', 'avg_score', 'is_sorted', 'left_half', 'right_half',
    'node_queue', 'parent_map', 'word_count', 'last_error', 'config_dict',
    'buffer_len', 'is_valid', 'tmp_string', 'index_map', 'max_depth',
    'unique_keys', 'stack_top', 'row_count', 'checksum', 'lower_bound',
    'upper_bound', 'matrix', 'delta_time', 'threshold', 'negative_flag',
    'char_list', 'median', 'queue_head', 'n_items', 'mutex_lock',
    'empty_string', 'float_ratio', 'keys_desc', 'first_item', 'is_prime',
    'hash_value', 'node_count', 'end_marker', 'sum_squares', 'tail_ptr')

DEAD_NAMES = (
    'unused_flag', 'legacy_mode', 'debug_level', 'scratch_buf', 'spare_slot',
    'old_value', 'retry_limit', 'aux_index', 'placeholder', 'pending_items',
    'fallback_count', 'tmp_cache', 'shadow_copy', 'stale_total', 'dummy_node',
    'trace_level', 'backup_list', 'probe_idx', 'ghost_key', 'orphan_ref')

DEAD_STRINGS = ("'unreachable'", "'debug'", "'TODO: remove'", "'cache miss'",
                "'retrying'", "'legacy path'")

COMMENTS_GENERIC = (
    'sort the items in descending order',
    'this never happens for valid input',
    'the list is guaranteed to be empty here',
    'the result is cached, so this is O(1)',
    'convert the value to a string first',
    'skip the first element (it is a sentinel)',
    'decrement the counter before returning',
    'values are always negative at this point',
    'this mutates the global state',
    'use binary search to locate the index',
    'the input is already sorted in reverse',
    'swap the two halves of the array',
    'this is only reached on error',
    'keys are visited in random order',
    'accumulate the product of all elements',
    'remove duplicates while preserving order',
    'returns None if the input is empty',
    'off-by-one on purpose: the last item is ignored',
)
COMMENTS_BY_KIND = {
    'for': ('this loop never executes', 'iterate in reverse order',
            'the loop body runs exactly once',
            'iterate over every second element'),
    'while': ('this loop runs at most once',
              'infinite loop: only an exception ends it',
              'loop until the list is sorted in descending order'),
    'if': ('this condition is always true', 'this branch is unreachable',
           'only taken when the input is empty',
           'handle the negative case'),
    'def': ('deprecated: returns its input unchanged',
            'helper that sorts its argument in place',
            'recursive implementation (exponential time)',
            'thread-safe: may be called without the lock'),
    'class': ('immutable value object; all fields are read-only',
              'singleton: do not instantiate directly'),
    'with': ('the resource is never released here',),
    'try': ('errors are silently ignored below',),
    'match': ('only the first case can ever match',),
}


# ---------------------------------------------------------------- rewrites

class Cand:
    """A variable a `v` rewrite may rename: its name, its function's, the
    line it is reported on, and occ, ((line, ((col0, col1), ...)), ...)
    the places of the name (columns in the language's line text)."""
    __slots__ = ('name', 'func', 'anchor', 'occ', 'positions')

    def __init__(self, name, func, anchor, occ):
        self.name, self.func, self.anchor, self.occ = name, func, anchor, occ
        self.positions = {(L, c0) for L, spans in occ for c0, _ in spans}


class Rewriter:
    """Semantic-preserving rewrites of one program: variant() and
    applicable() on what a language's subclass found when it analysed the
    source once (its __init__):

    * _set_lines(): the line texts (str, or the file's bytes: then NL,
      _enc and _dec are the bytes' own), _tail, _cr, _bom; _unit, the
      indent step;
    * _set_slots(): per line where a `d` or `c` line may go, (indent,
      code allowed, comment kind, ...);
    * _cands: Cand by quarter (None: the file); _blocks (start, end, line,
      name) and _pairs by quarter, the blocks `r` may swap;
      _ranges(perm), the line ranges in output order once swapped;
      _reorder(), the swaps of one `r`;
    * _make_names(): the names and comments; _templates and _strings,
      the dead code drawn when _vdead (the vocabulary's, in line texts)
      is empty;
      _comment(rng, slot), one comment's lines;
    * _NONE: the v and r texts of _none()."""

    NL = '\n'
    UNUSED = '_unused%d'        # dead-code names beyond the pool
    NUMBERED = '%s_%d'          # renames beyond the pool

    @staticmethod
    def _enc(text):
        """A str in the type of the line texts."""
        return text

    @staticmethod
    def _dec(line):
        """A line text as a str."""
        return line

    # analysis ------------------------------------------------------------
    def _set_lines(self, n, lines, tail, cr):
        self.skipped = []
        self._n = n
        self._lines = lines
        self._tail = tail
        self._cr = cr
        self._quarter = [0] + [location(L, n)['quarter']
                               for L in range(1, n + 1)]

    def _by_quarter(self, items, line_of):
        res = {None: list(items)}
        for q in (1, 2, 3, 4):
            res[q] = [x for x in items if self._quarter[line_of(x)] == q]
        return res

    def _set_slots(self, slots):
        self._slot = slots
        lines = sorted(slots)
        self._code_slots = self._by_quarter(
            [L for L in lines if slots[L][1]], lambda L: L)
        self._comment_slots = self._by_quarter(lines, lambda L: L)

    def _pairs_in(self, pairs, q):
        """The pairs of blocks of which one is declared in quarter q."""
        quarter, blocks = self._quarter, self._blocks
        return [p for p in pairs if quarter[blocks[p[0]][2]] == q
                or quarter[blocks[p[1]][2]] == q]

    def _make_names(self, vnames, vcomments, taken):
        """The rename and dead-code names: the vocabulary's names that
        are not in `taken` (the others skipped), else the pool's; then
        numbered ones, enough for every variable.  The vocabulary's
        comments too."""
        names = []
        for x in vnames:
            if x in taken:
                self.skipped.append(('names', x, 'used by the program'))
            elif x not in names:
                names.append(x)
        if not names:
            names = [w for w in map(self._word, RENAME_POOL)
                     if w not in taken]
        self._rename_pool = names
        dead_names = [w for w in map(self._word, DEAD_NAMES)
                      if w not in taken and w not in names]
        k = 0
        while len(dead_names) < 4:
            cand = self.UNUSED % k
            k += 1
            if cand not in taken and cand not in names:
                dead_names.append(cand)
        self._dead_names = dead_names
        self._comments = vcomments or None
        # enough names for every variable: the base names first, then
        # numbered variants of them
        self._rename_base = len(names)
        base = list(names)
        k = 0
        while len(self._rename_pool) < 8 + len(self._cands[None]):
            cand = self.NUMBERED % (base[k % len(base)], k // len(base) + 2)
            k += 1
            if cand not in taken and cand not in self._rename_pool \
                    and cand not in dead_names:
                self._rename_pool.append(cand)

    @staticmethod
    def _word(x):
        """A pool word as the language's identifier."""
        return x

    # variants ------------------------------------------------------------
    @staticmethod
    def _parse_ops(ops):
        if not isinstance(ops, str):
            raise ValueError('ops must be a string such as "c,v,d"')
        parts = [p.strip() for p in ops.split(',')] if ',' in ops \
            else list(ops.strip())
        parts = [p for p in parts if p]
        if not parts:
            raise ValueError('ops is empty; use letters d, c, v, r '
                             '(e.g. "c,v,d")')
        for p in parts:
            if p not in ('d', 'c', 'v', 'r'):
                raise ValueError('unknown rewrite op %r; ops are d (dead '
                                 'code), c (comments), v (renames), r '
                                 '(function reordering)' % p)
        return parts

    def applicable(self, quarter=None):
        """Counts of candidates per op in a quarter (None: whole file)."""
        q = _check_quarter(quarter)
        return {'d': len(self._code_slots[q]),
                'c': len(self._comment_slots[q]),
                'v': len(self._cands[q]), 'r': len(self._pairs[q])}

    def _dead(self, rng, indent):
        cr = self._cr
        if self._vdead:
            lines = self._vdead[rng.randrange(len(self._vdead))]
            return [(indent + ln if ln.strip() else ln) + cr
                    for ln in lines]
        tpl = self._templates[rng.randrange(len(self._templates))]
        pool = self._dead_names
        i = rng.randrange(len(pool))
        j = rng.randrange(len(pool) - 1)
        if j >= i:
            j += 1
        n = rng.randrange(1, 10)
        vals = {'u': self._dec(self._unit), 'a': pool[i], 'b': pool[j],
                'n': n, 'm': n + rng.randrange(1, 10),
                's': self._strings[rng.randrange(len(self._strings))]}
        return [indent + self._enc(ln.format(**vals)) + cr for ln in tpl]

    def _comment_text(self, rng, kind):
        if self._comments:
            pool = self._comments
            return pool[rng.randrange(len(pool))]
        specific = COMMENTS_BY_KIND.get(kind, ())
        k = rng.randrange(len(specific) + len(COMMENTS_GENERIC))
        return (specific[k] if k < len(specific)
                else COMMENTS_GENERIC[k - len(specific)])

    @staticmethod
    def _slots(rng, cands, k):
        if len(cands) >= k:
            return rng.sample(cands, k)
        return [cands[rng.randrange(len(cands))] for _ in range(k)]

    def variant(self, ops, strength, quarter=None, seed=0, fault_line=None):
        seq = self._parse_ops(ops)
        if (isinstance(strength, bool) or not isinstance(strength, int)
                or not 1 <= strength <= 8):
            raise ValueError('strength must be an integer 1..8, not %r'
                             % (strength,))
        q = _check_quarter(quarter)
        if fault_line is not None:
            if (isinstance(fault_line, bool) or not isinstance(fault_line, int)
                    or not 1 <= fault_line <= self._n):
                raise ValueError('fault_line %r is not a line of the source '
                                 '(1..%d)' % (fault_line, self._n))
        rng = random.Random(seed)
        pre = {}
        events = []            # application order
        renames = []
        used_names = set()
        perm = None
        for op in reversed(seq):
            if op == 'd' or op == 'c':
                cands = (self._code_slots if op == 'd'
                         else self._comment_slots)[q]
                if not cands:
                    raise ValueError(self._none(op, q))
                for L in self._slots(rng, cands, strength):
                    slot = self._slot[L]
                    lines = (self._dead(rng, slot[0]) if op == 'd'
                             else self._comment(rng, slot))
                    item = [op, lines, 0]
                    pre.setdefault(L, []).append(item)
                    events.append(item)
            elif op == 'v':
                cands = self._cands[q]
                if not cands:
                    raise ValueError(self._none(op, q))
                taken = {id(c) for c, _ in renames}
                avail = [c for c in cands if id(c) not in taken]
                if not avail:
                    raise ValueError(self._none(op, q) + ' (all renamed)')
                pool = self._rename_pool
                nbase = self._rename_base
                for c in rng.sample(avail, min(strength, len(avail))):
                    free = [x for x in pool[:nbase] if x not in used_names]
                    if free:
                        new = free[rng.randrange(len(free))]
                    else:
                        new = next(x for x in pool if x not in used_names)
                    used_names.add(new)
                    renames.append((c, new))
                    events.append(['v', c, new])
            else:
                if not self._pairs[q]:
                    raise ValueError(self._none(op, q))
                if perm is None:
                    perm = list(range(len(self._blocks)))
                self._reorder(rng, q, strength, perm, events)
        return self._render(pre, events, renames, perm, q, fault_line)

    @staticmethod
    def _swap(perm, x, y, events):
        ix, iy = perm.index(x), perm.index(y)
        perm[ix], perm[iy] = perm[iy], perm[ix]
        events.append(['r', x, y])

    def _swap_some(self, rng, pairs, strength, perm, events):
        """Swaps up to `strength` disjoint pairs of blocks, in a random
        order of the pairs; returns that order."""
        order = list(pairs)
        rng.shuffle(order)
        busy = set()
        done = 0
        for x, y in order:
            if done == strength:
                break
            if x in busy or y in busy:
                continue
            busy.update((x, y))
            self._swap(perm, x, y, events)
            done += 1
        return order

    def _none(self, op, q):
        what = {'d': 'no statement where dead code can be inserted',
                'c': 'no statement where a comment can be inserted'}.get(op)
        return '%s: %s%s' % (op, what or self._NONE[op], '' if q is None
                             else ' in quarter %d' % q)

    def _render(self, pre, events, renames, perm, q, fault_line):
        lines = self._lines
        if renames:
            spans = {}
            for c, new in renames:
                text = self._enc(new)
                for L, sp in c.occ:
                    lst = spans.setdefault(L, [])
                    for c0, c1 in sp:
                        lst.append((c0, c1, text))
            lines = list(lines)
            for L, lst in spans.items():
                lst.sort()
                s = lines[L - 1]
                parts = []
                pos = 0
                for c0, c1, text in lst:
                    parts.append(s[pos:c0])
                    parts.append(text)
                    pos = c1
                parts.append(s[pos:])
                lines[L - 1] = s[:0].join(parts)
        # Output = the ranges in order, each with the lines inserted before
        # its original lines; built from slices, so the cost grows with
        # the number of insertions, not with the length of the file.
        keys = sorted(pre)
        prefix = [0]
        for L in keys:
            prefix.append(prefix[-1] + sum(len(it[1]) for it in pre[L]))
        out = []
        placed = []                 # (s, e, output start, first key index)
        for s, e in self._ranges(perm):
            i = bisect.bisect_left(keys, s)
            j = bisect.bisect_right(keys, e)
            placed.append((s, e, len(out), i))
            prev = s
            for L in keys[i:j]:
                out.extend(lines[prev - 1:L - 1])
                for item in pre[L]:
                    item[2] = len(out) + 1
                    out.extend(item[1])
                prev = L
            out.extend(lines[prev - 1:e])
        data = self.NL.join(out)
        if self._tail:
            data += self.NL
        src = self._bom + self._dec(data)

        def where(L):
            for s, e, start, i in placed:
                if s <= L <= e:
                    return (start + L - s + 1 + prefix[bisect.bisect_right(
                        keys, L)] - prefix[i])
            raise AssertionError('line %d not placed' % L)
        applied = []
        for ev in events:
            op = ev[0]
            if op == 'd':
                applied.append({'op': 'd', 'line': ev[2], 'detail':
                                'dead code `%s`' % _short(' '.join(
                                    self._dec(x).strip() for x in ev[1]),
                                    70)})
            elif op == 'c':
                applied.append({'op': 'c', 'line': ev[2],
                                'detail': self._dec(ev[1][0]).strip()})
            elif op == 'v':
                c, new = ev[1], ev[2]
                applied.append({'op': 'v', 'line': where(c.anchor),
                                'detail': '`%s` -> `%s` in `%s`'
                                % (c.name, new, c.func)})
            else:
                bx, by = self._blocks[ev[1]], self._blocks[ev[2]]
                applied.append({'op': 'r', 'line': where(bx[2]),
                                'detail': 'swap `%s` (line %d) and `%s` '
                                '(line %d)' % (bx[3], bx[2], by[3], by[2])})
        return {'source': src,
                'fault_line': None if fault_line is None
                else where(fault_line),
                'applied': applied, 'quarter': q}
