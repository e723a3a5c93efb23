/* The user's Python environment, as `python -m pytest` would see it:
 * which interpreter (and so which venv, site-packages and .pth files) the
 * zygotes take, whether it can run inside this litmus, and the directories
 * that go first on sys.path (PYTHONPATH, an uninstalled src/ root).
 * SPDX-License-Identifier: MIT */
#include "engine/core/pyenv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/pyload.h"
#include "common/xmalloc.h"
#include "runners/runner.h"

#define PROBE_TIMEOUT_MS 60000
#define PROBE_OUTPUT_CAP (1u << 20)
/* sys.hexversion of 3.9.0 and 3.14.0. */
#define LT_PYTHON_OLDEST 0x03090000LL
#define LT_PYTHON_NEWEST_UNTRIED 0x030e0000LL

/* Run by the user's interpreter in the working directory with the user's
 * environment: what it is, and where it would import each name from. */
static const char probe_py[] =
    "import sys, os, json, importlib.util\n"
    "def where(name):\n"
    "    try:\n"
    "        spec = importlib.util.find_spec(name)\n"
    "    except Exception:\n"
    "        return []\n"
    "    if spec is None:\n"
    "        return []\n"
    "    if spec.submodule_search_locations:\n"
    "        return [os.path.realpath(p) for p in "
    "spec.submodule_search_locations]\n"
    "    return [os.path.realpath(spec.origin)] if spec.origin else []\n"
    "def packages():\n"
    "    import hashlib\n"
    "    h = hashlib.sha256()\n"
    "    here = os.path.realpath(os.getcwd()) + os.sep\n"
    "    for p in sys.path:\n"
    "        p = os.path.realpath(p or '.')\n"
    "        if ((p + os.sep).startswith(here) and 'site-packages' not in p\n"
    "                and 'dist-packages' not in p):\n"
    "            continue\n"
    "        try:\n"
    "            names = sorted(os.listdir(p))\n"
    "        except OSError:\n"
    "            continue\n"
    "        h.update(p.encode('utf-8', 'surrogateescape') + b'\\0')\n"
    "        for n in names:\n"
    "            if n == '__pycache__':\n"
    "                continue\n"
    "            f = os.path.join(p, n)\n"
    "            if os.path.isdir(f):\n"
    "                # A package directory's time moves when Python first\n"
    "                # writes its __pycache__; an install's metadata does not.\n"
    "                f = os.path.join(f, 'METADATA' if n.endswith('.dist-info')\n"
    "                                 else 'PKG-INFO' if n.endswith('.egg-info')\n"
    "                                 else '')\n"
    "            try:\n"
    "                st = os.stat(f) if not f.endswith(os.sep) else None\n"
    "            except OSError:\n"
    "                st = None\n"
    "            h.update(('%s %d %d\\n' % (n, st.st_mtime_ns if st else 0,\n"
    "                                         st.st_size if st else 0))\n"
    "                     .encode('utf-8', 'surrogateescape'))\n"
    "    return h.hexdigest()\n"
    "def libpython():\n"
    "    # The one this process runs on, when it is linked to one; else\n"
    "    # the build's (a static python beside its shared library, as\n"
    "    # Debian's), where sysconfig says or under the base prefix.\n"
    "    try:\n"
    "        with open('/proc/self/maps') as f:\n"
    "            for line in f:\n"
    "                p = line.split(None, 5)[-1].strip()\n"
    "                if os.path.basename(p).startswith('libpython3'):\n"
    "                    return os.path.realpath(p)\n"
    "    except OSError:\n"
    "        pass\n"
    "    import sysconfig\n"
    "    n = sysconfig.get_config_var('INSTSONAME') or ''\n"
    "    if '.so' not in n:\n"
    "        return ''\n"
    "    for d in (sysconfig.get_config_var('LIBDIR'),\n"
    "              os.path.join(sys.base_prefix, 'lib')):\n"
    "        f = os.path.join(d or '', n)\n"
    "        if d and os.path.isfile(f):\n"
    "            return os.path.realpath(f)\n"
    "    return ''\n"
    "print(json.dumps({\n"
    "    'version': '%d.%d' % sys.version_info[:2],\n"
    "    'hexversion': sys.hexversion,\n"
    "    'abiflags': getattr(sys, 'abiflags', ''),\n"
    "    'libpython': libpython(),\n"
    "    'full_version': sys.version.split()[0],\n"
    "    'base_prefix': os.path.realpath(sys.base_prefix),\n"
    "    'pytest': bool(where('pytest')),\n"
    "    'where': {n: where(n) for n in sys.argv[1:]},\n"
    "    'packages': packages(),\n"
    "}))\n";

static int is_executable(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
           access(path, X_OK) == 0;
}

static char *absolute(const char *cwd, const char *path)
{
    if (path[0] == '/')
        return xstrdup(path);
    if (!path[0] || strcmp(path, ".") == 0)
        return xstrdup(cwd);
    return xasprintf("%s/%s", cwd, path);
}

/* The interpreter in a venv directory, or NULL. */
static char *venv_python(const char *dir)
{
    static const char *const names[] = {"bin/python", "bin/python3"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char *p = xasprintf("%s/%s", dir, names[i]);
        if (is_executable(p))
            return p;
        free(p);
    }
    return NULL;
}

/* Whether `path` (./.venv, ./venv) is a symbolic link that leads
 * nowhere: a venv kept elsewhere and since removed or moved.  Taking the
 * system's interpreter instead would fail later on a missing package,
 * far from the cause; *err then names the link and where it leads. */
static int dangling_link(const char *path, const char *name, char **err)
{
    struct stat sb;
    if (lstat(path, &sb) < 0 || !S_ISLNK(sb.st_mode) ||
        stat(path, &sb) == 0)
        return 0;
    int e = errno;
    char target[PATH_MAX];
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = '\0';
    *err = xasprintf("./%s is a symbolic link to %s, which cannot be "
                     "reached (%s): make the venv again there, or remove "
                     "the link, or pass --python", name, target,
                     strerror(e));
    return 1;
}

/* Chooses the interpreter: the one named, the active venv, a venv in the
 * working directory, else the system's python3. */
static int choose(const char *named, const char *cwd, struct lt_pyenv *env,
                  char **err)
{
    if (named && *named) {
        char *p = absolute(cwd, named);
        struct stat sb;
        if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            char *in = venv_python(p);
            if (!in) {
                *err = xasprintf("--python %s: a directory without "
                                 "bin/python", named);
                free(p);
                return LT_EUSAGE;
            }
            free(p);
            p = in;
        } else if (!is_executable(p)) {
            *err = xasprintf("--python %s: no such interpreter", named);
            free(p);
            return LT_EUSAGE;
        }
        env->python = p;
        env->how = "--python";
        return 0;
    }
    const char *active = getenv("VIRTUAL_ENV");
    if (active && *active) {
        char *p = venv_python(active);
        if (!p) {
            *err = xasprintf("VIRTUAL_ENV=%s has no bin/python; activate "
                             "an existing venv or pass --python",
                             active);
            return LT_EUSAGE;
        }
        env->python = p;
        env->how = "the active venv ($VIRTUAL_ENV)";
        return 0;
    }
    static const char *const local[] = {".venv", "venv"};
    for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
        char *dir = xasprintf("%s/%s", cwd, local[i]);
        if (dangling_link(dir, local[i], err)) {
            free(dir);
            return LT_EUSAGE;
        }
        char *cfg = xasprintf("%s/pyvenv.cfg", dir);
        char *p = access(cfg, F_OK) == 0 ? venv_python(dir) : NULL;
        free(cfg);
        free(dir);
        if (p) {
            env->python = p;
            env->how = i == 0 ? "./.venv" : "./venv";
            return 0;
        }
    }
    env->python = xstrdup(LT_PYTHON_DEFAULT);
    env->how = "the system interpreter";
    return 0;
}

/* Runs `python -c script args...`; *out is its standard output (caller
 * frees).  0, or an error with *err. */
static int run_python(const char *python, int isolated, const char *script,
                      char *const *names, size_t n, char **out, char **err)
{
    int op[2], ep[2];
    if (pipe2(op, O_CLOEXEC) < 0)
        return -errno;
    if (pipe2(ep, O_CLOEXEC) < 0) {
        int rc = -errno;
        close(op[0]);
        close(op[1]);
        return rc;
    }
    char **argv = xcalloc(n + 6, sizeof(char *));
    size_t a = 0;
    argv[a++] = (char *)python;
    if (isolated) {
        argv[a++] = "-I";
        argv[a++] = "-S";
    }
    argv[a++] = "-c";
    argv[a++] = (char *)script;
    for (size_t i = 0; i < n; i++)
        argv[a++] = names[i];
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(op[1], 1);
        dup2(ep[1], 2);
        execv(python, argv);
        _exit(127);
    }
    int saved = errno;
    free(argv);
    close(op[1]);
    close(ep[1]);
    if (pid < 0) {
        close(op[0]);
        close(ep[0]);
        return -saved;
    }
    struct lt_buf o = LT_BUF_INIT, e = LT_BUF_INIT;
    int open_fds = 2, timed_out = 0;
    struct pollfd pf[2] = {{op[0], POLLIN, 0}, {ep[0], POLLIN, 0}};
    while (open_fds > 0) {
        int r = poll(pf, 2, PROBE_TIMEOUT_MS);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            timed_out = 1;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (pf[i].fd < 0 || !pf[i].revents)
                continue;
            char buf[4096];
            ssize_t k = read(pf[i].fd, buf, sizeof(buf));
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                pf[i].fd = -1;
                open_fds--;
                continue;
            }
            struct lt_buf *b = i == 0 ? &o : &e;
            if (b->len < PROBE_OUTPUT_CAP)
                lt_buf_append(b, buf, (size_t)k);
        }
    }
    close(op[0]);
    close(ep[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int rc = 0;
    if (timed_out) {
        *err = xasprintf("%s did not answer within %d s", python,
                         PROBE_TIMEOUT_MS / 1000);
        rc = LT_EUSAGE;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* The last line of its stderr says why, usually. */
        char *text = e.len ? e.data : "";
        size_t len = strlen(text);
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
            text[--len] = '\0';
        char *last = strrchr(text, '\n');
        *err = xasprintf("%s cannot run%s%s", python, *text ? ": " : "",
                         last ? last + 1 : text);
        rc = LT_EUSAGE;
    } else {
        *out = o.len ? lt_buf_steal(&o) : xstrdup("");
    }
    lt_buf_free(&o);
    lt_buf_free(&e);
    return rc;
}

/* `pythonpath` in one of pytest's configuration files names src: pytest
 * then puts it on sys.path itself. */
static int ini_puts_src_on_path(const char *cwd)
{
    static const char *const files[] = {"pytest.ini", "pyproject.toml",
                                        "tox.ini", "setup.cfg"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char *path = xasprintf("%s/%s", cwd, files[i]);
        char *text = NULL;
        size_t len = 0;
        int rc = lt_read_file(path, &text, &len);
        free(path);
        if (rc < 0)
            continue;
        int found = 0;
        for (char *line = strtok(text, "\n"); line && !found;
             line = strtok(NULL, "\n")) {
            line += strspn(line, " \t");
            if (strncmp(line, "pythonpath", 10) == 0 &&
                strchr(line, '=') && strstr(line, "src"))
                found = 1;
        }
        free(text);
        if (found)
            return 1;
    }
    return 0;
}

/* The top-level import name of a file under dir ("pkg" for dir/pkg/a.py,
 * "mod" for dir/mod.py), or NULL when the file is not under dir. */
static char *top_name_under(const char *dir, const char *file)
{
    size_t n = strlen(dir);
    if (strncmp(file, dir, n) != 0 || file[n] != '/')
        return NULL;
    const char *rest = file + n + 1;
    size_t len = strcspn(rest, "/");
    if (!rest[len]) { /* a module directly in dir */
        if (len > 3 && strcmp(rest + len - 3, ".py") == 0)
            len -= 3;
    }
    return len ? strndup(rest, len) : NULL;
}

static int located_in(json_t *locs, const char *dir)
{
    size_t n = strlen(dir), i;
    json_t *v;
    json_array_foreach(locs, i, v) {
        const char *p = json_string_value(v);
        if (p && strncmp(p, dir, n) == 0 && p[n] == '/')
            return 1;
    }
    return 0;
}

/* Contract: see pyenv.h. */
int lt_pyenv_resolve(const char *named, const char *cwd,
                     char *const *subjects, size_t n_subjects,
                     int need_pytest, struct lt_pyenv *env, char **err)
{
    memset(env, 0, sizeof(*env));
    *err = NULL;
    int rc = choose(named, cwd, env, err);
    if (rc < 0)
        return rc;

    /* An uninstalled src/ layout: the names the subjects under it would
     * be imported by, to ask the interpreter where those come from. */
    char *src = xasprintf("%s/src", cwd);
    char real_src[PATH_MAX];
    struct stat sb;
    int have_src = stat(src, &sb) == 0 && S_ISDIR(sb.st_mode) &&
                   realpath(src, real_src) != NULL;
    char **names = xcalloc(n_subjects + 1, sizeof(char *));
    size_t n_names = 0;
    for (size_t i = 0; have_src && i < n_subjects; i++) {
        char real[PATH_MAX];
        if (!realpath(subjects[i], real))
            continue;
        char *name = top_name_under(real_src, real);
        for (size_t k = 0; name && k < n_names; k++) {
            if (strcmp(names[k], name) == 0) {
                free(name);
                name = NULL;
            }
        }
        if (name)
            names[n_names++] = name;
    }

    char *out = NULL;
    json_t *root = NULL;
    rc = run_python(env->python, 0, probe_py, names, n_names, &out, err);
    if (rc < 0) {
        if (!*err)
            *err = xasprintf("cannot run %s: %s", env->python,
                             lt_strerror(rc));
        rc = LT_EUSAGE;
        goto out;
    }
    json_error_t jerr;
    root = json_loads(out, 0, &jerr);
    const char *version = json_string_value(json_object_get(root, "version"));
    const char *full = json_string_value(json_object_get(root,
                                                         "full_version"));
    const char *base = json_string_value(json_object_get(root,
                                                         "base_prefix"));
    if (!version || !full || !base) {
        *err = xasprintf("%s did not describe itself (is it a Python "
                         "interpreter?)", env->python);
        rc = LT_EUSAGE;
        goto out;
    }
    env->version = xstrdup(full);
    const char *pk = json_string_value(json_object_get(root, "packages"));
    env->packages = xstrdup(pk ? pk : "");
    long long hex = json_integer_value(json_object_get(root, "hexversion"));
    const char *abiflags = json_string_value(json_object_get(root,
                                                             "abiflags"));
    const char *lib = json_string_value(json_object_get(root, "libpython"));
    if (hex < LT_PYTHON_OLDEST) {
        *err = xasprintf("%s (%s) is Python %s: litmus runs tests in Python "
                         "3.9 to 3.13", env->python, env->how, full);
        rc = LT_EUSAGE;
        goto out;
    }
    if (abiflags && strchr(abiflags, 't')) {
        *err = xasprintf("%s (%s) is a free-threaded Python %s, which has no "
                         "stable ABI for litmus to load into: use the "
                         "interpreter's default build", env->python,
                         env->how, full);
        rc = LT_EUSAGE;
        goto out;
    }
    if (!lib || !lib[0]) {
        *err = xasprintf("%s (%s) is a Python %s built without a shared "
                         "libpython, which litmus loads to run its tests: "
                         "use a build configured with --enable-shared "
                         "(pyenv: PYTHON_CONFIGURE_OPTS=--enable-shared)",
                         env->python, env->how, full);
        rc = LT_EUSAGE;
        goto out;
    }
    if (hex >= LT_PYTHON_NEWEST_UNTRIED)
        fprintf(stderr, "litmus: warning: %s is Python %s, newer than the "
                "3.13 litmus was tried with\n", env->python, full);
    env->libpython = xstrdup(lib);
    (void)base;
    if (need_pytest && !json_is_true(json_object_get(root, "pytest"))) {
        *err = xasprintf(
            "%s (%s) cannot import pytest: install pytest there, or make "
            "the venv with --system-site-packages to use the system's",
            env->python, env->how);
        rc = LT_EUSAGE;
        goto out;
    }

    /* PYTHONPATH, as the interpreter would take it: each entry made
     * absolute, an empty one meaning the working directory. */
    struct lt_buf prefix = LT_BUF_INIT;
    const char *pp = getenv("PYTHONPATH");
    for (const char *p = pp ? pp : ""; pp && *pp;) {
        size_t len = strcspn(p, ":");
        char *entry = strndup(p, len);
        char *abs = absolute(cwd, entry);
        lt_buf_printf(&prefix, "%s%s", prefix.len ? ":" : "", abs);
        free(abs);
        free(entry);
        if (!p[len])
            break;
        p += len + 1;
    }
    /* A subject under src/ that the interpreter would not import from
     * there (not installed, or another copy installed): src/ goes on the
     * path, as an editable install or pytest's `pythonpath = src` would
     * put it, unless pytest's settings do that already. */
    json_t *where = json_object_get(root, "where");
    const char *missing = NULL;
    for (size_t i = 0; i < n_names && !missing; i++) {
        if (!located_in(json_object_get(where, names[i]), real_src))
            missing = names[i];
    }
    if (missing && !ini_puts_src_on_path(cwd)) {
        lt_buf_printf(&prefix, "%s%s", prefix.len ? ":" : "", real_src);
        env->src_added = xstrdup(real_src);
        fprintf(stderr, "litmus: note: src/ put first on the import path: "
               "%s would not import '%s' from it (set pythonpath in pytest's "
               "settings, or install the project editable, to choose "
               "otherwise)\n", env->python, missing);
    }
    env->path_prefix = prefix.len ? lt_buf_steal(&prefix) : NULL;
    lt_buf_free(&prefix);
    rc = 0;
out:
    json_decref(root);
    free(out);
    for (size_t i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    free(src);
    if (rc < 0)
        lt_pyenv_clear(env);
    return rc;
}

void lt_pyenv_clear(struct lt_pyenv *env)
{
    free(env->python);
    free(env->version);
    free(env->libpython);
    free(env->packages);
    free(env->path_prefix);
    free(env->src_added);
    memset(env, 0, sizeof(*env));
}

/* Run by a system interpreter in isolated mode: [tool.litmus] of the file
 * as JSON, or a one-line reason on stderr. */
static const char pyproject_py[] =
    "import sys, json\n"
    "try:\n"
    "    import tomllib\n"
    "except ImportError:\n"
    "    try:\n"
    "        import tomli as tomllib\n"
    "    except ImportError:\n"
    "        sys.exit('needs Python 3.11 or later, or tomli, to read TOML')\n"
    "try:\n"
    "    with open(sys.argv[1], 'rb') as f:\n"
    "        data = tomllib.load(f)\n"
    "except OSError as e:\n"
    "    sys.exit(e.strerror)\n"
    "except Exception as e:\n"
    "    sys.exit(str(e) or 'not valid TOML')\n"
    "table = data.get('tool', {}).get('litmus', {})\n"
    "if not isinstance(table, dict):\n"
    "    sys.exit('[tool.litmus] is not a table')\n"
    "print(json.dumps(table))\n";

/* Contract: see pyenv.h. */
int lt_pyproject_read(const char *path, char **json, char **err)
{
    *json = NULL;
    *err = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = lt_read_file(path, &text, &len);
    if (rc < 0)
        return rc;
    /* Without the table's name in it, no interpreter need start. */
    int mentions = strstr(text, "litmus") != NULL;
    free(text);
    if (!mentions) {
        *json = xstrdup("{}");
        return 0;
    }
    /* The table is read before the run's interpreter is chosen (it may
     * name it): by the system's, which has tomllib from 3.11 on. */
    const char *python = is_executable(LT_PYTHON_DEFAULT) ? LT_PYTHON_DEFAULT
                                                          : NULL;
    if (!python) {
        *err = xasprintf("%s: cannot read it without %s", path,
                         LT_PYTHON_DEFAULT);
        return LT_EUSAGE;
    }
    char *args[] = {(char *)path};
    char *out = NULL, *why = NULL;
    rc = run_python(python, 1, pyproject_py, args, 1, &out, &why);
    if (rc < 0) {
        /* The script's own reason, without "python cannot run: ". */
        const char *reason = why ? strstr(why, "cannot run: ") : NULL;
        *err = xasprintf("%s: %s", path, reason ? reason + 12
                                         : why ? why : "cannot be read");
        free(why);
        return LT_EPARSE;
    }
    *json = out;
    return 0;
}
