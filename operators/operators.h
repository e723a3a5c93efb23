/* Mutation operators: Python source in, typed mutants out.  The parser is
 * CPython's own (ast, tokenize), run in the embedded interpreter, so it
 * always agrees with the runtime.  No I/O.  SPDX-License-Identifier: MIT */
#ifndef LT_OPERATORS_H
#define LT_OPERATORS_H

#include <stddef.h>
#include <stdint.h>

#include "lt_py_constants.h" /* generated: the Python's own values */

enum lt_category {
    LT_CATEGORY_STATEMENT = 0,
    LT_CATEGORY_VALUE = 1,
    LT_CATEGORY_DECISION = 2,
};

/* One single-change mutant.  Spans are into the UTF-8 source bytes:
 * mutated = source[0:start] + replacement + source[end:].  line/end_line
 * are 1-based, col/end_col 0-based byte columns (as Python's ast). */
struct lt_mutant {
    char id[17];        /* 16 hex chars: hash of file, span, operator, repl */
    char *file;         /* as passed to lt_operators_generate */
    int line, col, end_line, end_col;
    size_t start, end;  /* byte offsets of the replaced text */
    char *op;           /* operator name, e.g. "number", "and_or" */
    enum lt_category category;
    char *original;     /* source[start:end] */
    char *replacement;
    double position;    /* start / source length, in [0, 1] */
};

struct lt_mutant_list {
    struct lt_mutant *items;
    size_t count;
};

/* Makes sure the interpreter the operators run in is started: the one
 * lt_python_use() chose, else the default (common/pyload.h); no site, no
 * PYTHON* variables.  Safe to call many times.  0 or LT_EPYTHON. */
int lt_operators_init(void);

/* Inside litmus-python.so: starts the interpreter of `python` for the
 * engine's own work (lt_operators_init() calls it through pyload.h). */
int lt_operators_start(const char *python);

/* Generates every mutant of `source` for the operator set `opset`: a set
 * name ("mutmut", "algo1") or a comma-separated list of operator names.
 * On success fills *out (caller frees with lt_mutant_list_free) in source
 * order and returns 0.  Source that does not parse returns LT_EPARSE with
 * a one-line message in *errmsg (caller frees); an unknown operator or set
 * returns LT_EUSAGE with *errmsg set. */
int lt_operators_generate(const char *file, const char *source, size_t len,
                          const char *opset, struct lt_mutant_list *out,
                          char **errmsg);

/* Builds the mutated source of m over `source` (caller frees). */
char *lt_mutant_apply(const struct lt_mutant *m, const char *source,
                      size_t len, size_t *out_len);

/* The stable id of a mutant: first 16 hex chars of SHA-256 over
 * file NUL start NUL end NUL op NUL replacement. */
void lt_mutant_make_id(const char *file, size_t start, size_t end,
                       const char *op, const char *replacement,
                       char out[17]);

const char *lt_category_name(enum lt_category c);
void lt_mutant_list_free(struct lt_mutant_list *list);
void lt_mutant_clear(struct lt_mutant *m);

/* Names of the known sets and operators, NULL-terminated, for --help. */
const char *const *lt_operator_sets(void);

/*** Dataset generators (operators/dataset.py) ***/

/* Calls the dataset generator entry point `fn` with `args`, a JSON object
 * text, in the embedded interpreter; *out gets the answer (caller frees;
 * NUL-terminated, *out_len bytes).  Entry points and their arguments:
 *   "typed"      {source}                  -> typed_mutants(source)
 *   "faults"     {source, quarter?}        -> faults / faults_in_quarter
 *   "rewrite"    {source, vocab?, ops, strength, quarter?, seeds: [int],
 *                 fault_line?}             -> Rewriter.variant(...) per seed
 *   "applicable" {source, vocab?, quarter?} -> {counts, skipped}
 *   "location"   {line, total}             -> location(line, total)
 *   "check_calls" {calls: [text]}         -> per input: null when it is
 *                                            one Python expression, else
 *                                            why not (parsed, never run)
 *   "java_check" {source}                 -> {package, type, lines} of a
 *                                            Java source (ds_java.check)
 * "faults", "rewrite", "applicable", "check_calls" and "location" take an
 * optional "lang": "python" (the default) or "java" (operators/ds_java.py:
 * the same arguments and answers, for Java sources).
 * The answer is JSON text, except for "rewrite": the JSON array of the
 * variants without their "source", then for each variant a NUL byte and
 * its source (sources hold no NUL), so that thousands of program texts
 * need no JSON escaping.  0 on success; LT_EUSAGE with a one-line *errmsg
 * (caller frees) when the generator rejects the input (a ValueError:
 * source that does not parse, nothing to change in a quarter, a bad
 * vocabulary); LT_EPYTHON with *errmsg when the interpreter or the
 * generator fails. */
int lt_dataset_call(const char *fn, const char *args, char **out,
                    size_t *out_len, char **errmsg);

/* Module-internal: registers `_lt_java` (operators/java_tree.c), the Java
 * syntax trees the Java generators read, in the running interpreter. */
int lt__java_tree_register(void);

/*** What a mutant changes: compiled once in the engine's interpreter
 * (runners/codediff.py, the same comparison the zygotes use) ***/

/* As runners/codediff.py answers them. */
enum lt_change_status {
    LT_CHANGE_OK = LT_PY_CODEDIFF_OK,
    LT_CHANGE_INVALID = LT_PY_CODEDIFF_INVALID,       /* does not compile */
    LT_CHANGE_EQUIVALENT = LT_PY_CODEDIFF_EQUIVALENT, /* same code objects
                                                         as the original */
};

struct lt_change {
    uint64_t start, end;      /* byte span replaced */
    const char *replacement;
};

struct lt_change_analysis {
    enum lt_change_status status;
    int structural;          /* a module or class body changed: re-import */
    char fingerprint[17];    /* equal for changes that compile alike */
    char *detail;            /* compile error for INVALID, else NULL */
    uint8_t *swap;           /* OK and not structural: the changed function
                                code objects, marshalled, for the child to
                                swap in without compiling; NULL when not
                                asked for or over the budget */
    size_t swap_len;
};

/* Compiles every change of `source` (in the calling process's embedded
 * interpreter, which must be initialised) and compares it with the
 * original, positions ignored.  Fills out[0..n).  0 or LT_EPYTHON. */
int lt_analyse(const char *path, const char *source, size_t len,
                      const struct lt_change *changes, size_t n,
                      struct lt_change_analysis *out);

/* The same, and swap payloads for OK changes that need no re-execution
 * while their total stays within *swap_budget bytes (which it lowers).
 * The caller frees out[i].detail and out[i].swap. */
int lt_analyse_swaps(const char *path, const char *source, size_t len,
                     const struct lt_change *changes,
                            size_t n, struct lt_change_analysis *out,
                            size_t *swap_budget);

/* A digest of the code `source` compiles to (as file `path`), source
 * positions left out: texts that differ only in comments or layout get
 * the same one.  out is "" when the text does not compile.  0, or
 * LT_EPYTHON (embedded interpreter not initialised or failing). */
int lt_code_fingerprint(const char *path, const char *source,
                               size_t len, char out[17]);

/* The functions of `source` whose code `other` changes
 * (runners/codediff.py changed_spans): *spans (caller frees) holds
 * 2 * *n lines, the first and last of each in `source`.  1 when they are
 * known (maybe none); 0 when they cannot be said (a module or class body
 * differs, or a text does not compile); LT_EPYTHON. */
int lt_changed_spans(const char *path, const char *source, const char *other,
                     long **spans, size_t *n);

/* What importing a subject does, for reusing a baseline
 * (runners/codediff.py import_digest). */
struct lt_import_digest {
    char *funcs;        /* qualified names of the functions that ran at
                           import, one a line */
    char digest[17];    /* the module's code with every other function by
                           its name alone: two texts with the same digest
                           differ at most inside functions import did not
                           run, which a test that never entered the file
                           cannot tell apart; "" when it does not compile */
    long *lines;        /* the lines that may run at import: module-level
                           and class-body code, def headers, and those
                           functions' bodies, sorted */
    size_t n_lines;
};

/* The functions of `funcs` (names stored by an earlier run, one a line;
 * NULL: none) and of lines[0..n_lines) (lines traced at import; NULL:
 * none traced), and the digest and lines they give.  0, or LT_EPYTHON
 * (*out then empty); the caller clears *out. */
int lt_code_import_digest(const char *path, const char *source, size_t len,
                          const long *lines, size_t n_lines,
                          const char *funcs, struct lt_import_digest *out);
void lt_import_digest_clear(struct lt_import_digest *d);

/* The top-level statement of m's mutated source holding m's first line,
 * compiled alone, as a swap payload for a child to execute in the
 * imported module (runners/codediff.py rebind_payload): *out (caller
 * frees) or NULL when it cannot be had.  0 or LT_EPYTHON. */
int lt_rebind_payload(const char *path, const char *source, size_t len,
                      const struct lt_mutant *m, uint8_t **out,
                      size_t *out_len);

/*** Who reads a module-level name (operators/readers.py) ***
 * A mutant on a line that runs at import changes module state before any
 * test runs, so per-test coverage cannot say which tests see it.  This
 * index answers from the source instead: the code that mentions the names
 * the mutated statement binds.  Errs towards more tests, since a too
 * narrow answer makes a killed mutant look survived; the rules are in
 * readers.py's header. */

/* Parsed once per run: who mentions which name, per code object. */
struct lt_readers_index;

/* A function body in a subject file (1-based lines, inclusive, from the
 * body's first statement, which shares the def's line in a one-line def,
 * to the last line): a test that executed any line in it may see the
 * mutant. */
struct lt_reader_span {
    size_t subject;          /* index into the subjects of the scan */
    int first, last;
    int followed;            /* what this code reads when it runs at
                                import is followed in the answer (the
                                names of its import-time callers are
                                among the readers'): its having run at
                                import is no reason for all */
};

/* Who can observe a mutant.  When all is 1 nothing else is set: every
 * test must run (the engine's fallback), and why says why, for --debug.
 * Otherwise the tests that depend on it are those that executed a line
 * of a span, and every test of the test modules but those skip names;
 * both may be empty (no test reads what the statement binds: the import
 * the engine does anyway still kills a mutant that breaks it).  Spans
 * that also ran at import, unless followed, are reads at import the index
 * could not follow by name: the engine, which has the import coverage,
 * must treat them as all. */
struct lt_readers {
    int all;
    char *why;                       /* all only; owned */
    struct lt_reader_span *spans;    /* sorted; owned */
    size_t n_spans;
    char **test_files;               /* absolute paths, sorted; owned */
    size_t n_test_files;
    char **names;                    /* the names the change flows into,
                                        sorted; owned: tests outside test
                                        modules (doctests) read them only
                                        by their text */
    size_t n_names;
    int rebind;                      /* the mutated statement may be
                                        executed again in the imported
                                        module instead of a fresh import
                                        (lt_rebind_payload) */
    char **skip;                     /* "PATH::Class::test" or
                                        "PATH::test" (PATH one of
                                        test_files): tests of those
                                        modules that cannot read the
                                        change; a test id matches when
                                        equal up to its first '[';
                                        sorted (strcmp); owned */
    size_t n_skip;
};

/* Scans every .py file under root (skipping VCS, cache, virtualenv and
 * site-packages directories, see readers.py) and the subjects, the
 * absolute paths of the files litmus mutates, which are always scanned.
 * Starts the embedded interpreter if needed.  Files that cannot be read
 * or parsed are not an error: they make answers all (or, for a test
 * module, always a reader).  0 and *out (free with lt_readers_index_free),
 * -ENOENT when root is not a directory, or LT_EPYTHON. */
int lt_readers_scan(const char *root, char *const *subjects,
                    size_t n_subjects, struct lt_readers_index **out);

/* Who can observe a mutant on lines [line, end_line] of subject `subject`
 * (an index into the scan's subjects), as the original source on disk at
 * scan time has them.  Fills *out (clear with lt_readers_clear).  0,
 * LT_EUSAGE for a subject or lines out of range, or LT_EPYTHON; on error
 * *out is all with a reason, so a caller that ignores the code stays
 * safe. */
int lt_readers_for(struct lt_readers_index *ix, size_t subject, int line,
                   int end_line, struct lt_readers *out);

void lt_readers_clear(struct lt_readers *r);
void lt_readers_index_free(struct lt_readers_index *ix);

#endif
