/* Writing a file into a test's scratch tree, its folders made on the
 * way, shared by the unit tests of litmus patches on repositories.
 * Include after <cmocka.h>.  SPDX-License-Identifier: MIT */
#ifndef LT_TEST_TREE_FILES_H
#define LT_TEST_TREE_FILES_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Writes text to dir/rel (rel's folders made first); fails the test
 * when the file cannot be opened. */
static inline void put_file(const char *dir, const char *rel,
                            const char *text)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

#endif
