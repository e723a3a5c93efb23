/* Loading the user's libpython and litmus-python.so into this process
 * (pyload.h).  SPDX-License-Identifier: MIT */
#include "common/pyload.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"

#ifndef LT_PYTHON_DEFAULT_LIB
#define LT_PYTHON_DEFAULT_LIB ""
#endif
#ifndef LT_PYTHON_MODULE_BUILT
#define LT_PYTHON_MODULE_BUILT ""
#endif

static char *chosen_exe, *chosen_lib;
static void *module;
static int load_failed;

int lt_python_loaded(void)
{
    return module != NULL;
}

const char *lt_python_exe(void)
{
    return chosen_exe ? chosen_exe : LT_PYTHON_DEFAULT;
}

const char *lt_python_lib(void)
{
    return chosen_lib ? chosen_lib : LT_PYTHON_DEFAULT_LIB;
}

char *lt_self_file(const char *rel, const char *installed)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    const char *const tries[] = {rel, installed};
    for (size_t i = 0; i < 2; i++) {
        if (!tries[i])
            continue;
        char *p = xasprintf("%s/%s", self, tries[i]);
        char *real = realpath(p, NULL);
        free(p);
        if (real && access(real, R_OK) == 0)
            return real;
        free(real);
    }
    return NULL;
}

/* Contract: see pyload.h.  Beside the binary, where `make install` puts
 * it, or (for the test programs of the build tree) where the build made
 * it. */
char *lt_python_module_path(void)
{
    char *p = lt_self_file("litmus-python.so", "../lib/litmus/litmus-python.so");
    if (!p && LT_PYTHON_MODULE_BUILT[0] &&
        access(LT_PYTHON_MODULE_BUILT, R_OK) == 0)
        p = xstrdup(LT_PYTHON_MODULE_BUILT);
    return p;
}

int lt_python_use(const char *python, const char *libpython, char **err)
{
    *err = NULL;
    if (!libpython)
        libpython = LT_PYTHON_DEFAULT_LIB;
    if (module) {
        if (strcmp(libpython, chosen_lib) == 0)
            return 0;
        *err = xasprintf("this process runs the Python of %s already, not "
                         "%s", chosen_lib, libpython);
        return -1;
    }
    if (!libpython[0]) {
        *err = xasprintf("no libpython for %s (litmus was built without "
                         "one to fall back on): pass --python", python);
        return -1;
    }
    /* GLOBAL: the compiled modules the interpreter imports find the C API
     * in it, as they do in `python` itself. */
    if (!dlopen(libpython, RTLD_NOW | RTLD_GLOBAL)) {
        *err = xasprintf("cannot load %s's libpython: %s", python,
                         dlerror());
        return -1;
    }
    char *path = lt_python_module_path();
    if (!path) {
        *err = xstrdup("litmus-python.so is neither beside the litmus "
                       "binary nor in ../lib/litmus: reinstall litmus");
        return -1;
    }
    module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        /* An interpreter too old or too new lacks a function the module
         * needs: dlerror() names it. */
        *err = xasprintf("litmus cannot run in the Python of %s: %s",
                         libpython, dlerror());
        free(path);
        return -1;
    }
    free(path);
    chosen_exe = xstrdup(python);
    chosen_lib = xstrdup(libpython);
    return 0;
}

void *lt_python_sym(const char *name)
{
    if (!module && !load_failed) {
        char *err = NULL;
        if (lt_python_use(LT_PYTHON_DEFAULT, NULL, &err) < 0) {
            fprintf(stderr, "litmus: %s\n", err);
            free(err);
            load_failed = 1;
        }
    }
    if (!module)
        return NULL;
    void *f = dlsym(module, name);
    if (!f)
        fprintf(stderr, "litmus: litmus-python.so has no %s: reinstall "
                "litmus\n", name);
    return f;
}
