/* libFuzzer target for the readers of unified diffs, which are untrusted
 * input (a model's patch): engine/jobs/patches/repo_diff.c.  The input is
 * a diff, then (after a first NUL byte, if any) the text of a file it may
 * change.  The files it touches are read; its file blocks must tile the
 * diff from the first header to the end, each opening with a header; and
 * the lines it adds are marked in the text, inside its bounds.
 * SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "engine/jobs/patches/repo_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t dl = nul ? (size_t)(nul - data) : size;
    char *diff = xstrndup((const char *)data, dl);
    char *text = nul ? xstrndup((const char *)nul + 1, size - dl - 1)
                     : xstrdup(diff);

    struct strv paths = {0};
    lt__rt_diff_paths(diff, &paths);
    for (size_t i = 0; i < paths.n; i++)
        if (!paths.v[i])
            abort();

    /* The blocks: contiguous, each at a header, the last at the end. */
    const char *at = diff, *prev_end = NULL;
    struct lt__diff_block b;
    while (lt__rt_next_block(&at, &b)) {
        if (strncmp(b.start, "diff --git ", 11) != 0 || b.start < diff ||
            b.start + b.len > diff + dl || (prev_end && b.start != prev_end))
            abort();
        prev_end = b.start + b.len;
        free(b.path);
    }
    if (prev_end && prev_end != diff + dl)
        abort();

    /* The added lines of each file the diff touches, in this text. */
    size_t n_lines = 1;
    for (const char *p = text; *p; p++)
        n_lines += *p == '\n';
    unsigned char *mark = xcalloc(n_lines + 2, 1);
    const char *rel = paths.n ? paths.v[0] : "x.py";
    lt__rt_added_lines(diff, rel, text, mark, n_lines);
    if (mark[0] || mark[n_lines + 1])
        abort();
    free(mark);

    lt__strv_free(&paths);
    free(text);
    free(diff);
    return 0;
}
