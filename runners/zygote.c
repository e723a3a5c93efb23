/* The zygote process: the user's CPython, running in its own executable
 * with this file's module `_litmus_zygote` loaded (or, in a sanitizer
 * build, started here in litmus from its libpython), its file-system
 * view, and the runner's shim, which collects the tests and then serves
 * RUNs through the `_litmus` module.  The top of the
 * zygote_*.c files, which call only downward: the module
 * (zygote_module.c), the fork server (zygote_serve.c), the pre-import
 * server and copies (zygote_preimport.c), the tracers (zygote_trace.c),
 * a job's child (zygote_job.c), and at the bottom the process's state,
 * exits and frames (zygote_io.c).  The engine's side is zygote_client.c.
 * SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include "runners/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cov.h"
#include "common/err.h"
#include "common/xmalloc.h"
#include "harness/wire.h"
#include "runners/frames.h"
#include "runners/internal.h"
#include "runners/zygote_internal.h"
#include "sandbox/sandbox.h"

extern const char lt_shim_py[];
extern const size_t lt_shim_py_len;
extern const char lt_calls_py[];
extern const size_t lt_calls_py_len;
extern const char lt_inputs_py[];
extern const size_t lt_inputs_py_len;
extern const char lt_probe_py[];
extern const size_t lt_probe_py_len;
extern const char lt_constants_py[];
extern const size_t lt_constants_py_len;
extern const char lt_calls_values_py[], lt_calls_capture_py[],
    lt_calls_compare_py[], lt_calls_diff_py[], lt_calls_cases_py[];
extern const char lt_shared_py[], lt_subjects_py[], lt_apply_py[],
    lt_failures_py[], lt_testrunners_py[], lt_child_py[], lt_fresh_py[];

/* The shim's steps (runners/shim.py's header), in import order: each
 * imports only those before it. */
static const struct {
    const char *source, *file, *name;
} shim_parts[] = {
    {lt_shared_py, "<litmus shared>", "litmus_shared"},
    {lt_subjects_py, "<litmus subjects>", "litmus_subjects"},
    {lt_apply_py, "<litmus apply>", "litmus_apply"},
    {lt_failures_py, "<litmus failures>", "litmus_failures"},
    {lt_testrunners_py, "<litmus testrunners>", "litmus_testrunners"},
    {lt_child_py, "<litmus child>", "litmus_child"},
    {lt_fresh_py, "<litmus fresh>", "litmus_fresh"},
};

static pid_t engine_pid; /* the zygote's parent, litmus */

/*** Zygote start-up ***/

/* Compiles one of the runner's embedded Python sources and imports it
 * as a module under name; 1, or 0 with the Python error set. */
static int embedded_module(const char *source, const char *file,
                           const char *name)
{
    PyObject *code = Py_CompileString(source, file, Py_file_input);
    PyObject *mod = code ? PyImport_ExecCodeModule(name, code) : NULL;
    Py_XDECREF(code);
    Py_XDECREF(mod);
    return mod != NULL;
}

/* Starts the interpreter as `python` would start: its prefix, and for a
 * venv (a pyvenv.cfg beside or above it) the venv's site-packages, its
 * .pth files and, when the venv says so, the system's site-packages.  The
 * engine has loaded that interpreter's libpython into this process
 * (pyload.h).  UTF-8 mode: text I/O and file names as under `python -m
 * pytest` on a UTF-8 system, whatever locale litmus itself was started
 * in.  A fixed hash seed: every zygote iterates sets the same way, so
 * verdicts do not depend on which zygote ran a mutant.  The environment's
 * PYTHON* variables do not steer it (lt_pyabi_start). */
static void start_python(const char *python)
{
    if (PyImport_AppendInittab("_litmus", lt__litmus_module_init) < 0) {
        lt__send_failed("cannot register the _litmus module");
        _exit(3);
    }
    char err[512];
    if (lt_pyabi_start(python, 1, err, sizeof(err)) < 0) {
        lt__send_failed(err);
        _exit(3);
    }
}

/* sys.path as `python -m pytest` run in `cwd` has it: the working
 * directory first, then the `prefix` entries (PYTHONPATH's, made absolute
 * by the engine), then what the interpreter computed.  0 or -1 with a
 * Python exception set. */
static int insert_path(PyObject *path, Py_ssize_t at, const char *dir,
                       size_t len)
{
    PyObject *entry = PyUnicode_DecodeFSDefaultAndSize(dir, (Py_ssize_t)len);
    int rc = entry ? PyList_Insert(path, at, entry) : -1;
    Py_XDECREF(entry);
    return rc;
}

static int put_on_path(const char *cwd, const char *prefix)
{
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    if (!path || !PyList_Check(path)) {
        PyErr_SetString(PyExc_RuntimeError, "sys.path is not a list");
        return -1;
    }
    Py_ssize_t at = 0;
    if (insert_path(path, at++, cwd, strlen(cwd)) < 0)
        return -1;
    for (const char *p = prefix; *p;) {
        size_t n = strcspn(p, ":");
        if (n > 0 && insert_path(path, at++, p, n) < 0)
            return -1;
        p += n + (p[n] == ':');
    }
    return 0;
}

/*** The file-system view ***/

/* The lowest fd the collection's temporary directory is kept at (above
 * those a program opens itself). */
#define COLLECTION_TMP_FD_MIN 500

/* Collection runs in the zygote, inside the view, where /tmp is not
 * writable: tests that make temporary files at import time (a module-level
 * tempfile, a plugin's cache directory) failed to collect with "No usable
 * temporary directory".  The zygote's own temporary files go to a scratch
 * directory of its own under the run's scratch, as a child's go to its
 * own; the engine removes the run's scratch at the end.
 * A directory made there at import (a module's tempfile.mkdtemp(), where
 * its tests then write) must be writable by each test, yet each child's
 * own: the zygote names it through /proc/self/fd/N, and each child puts a
 * copy of it at N in its own scratch (lt__collection_tmp_copy). */
static void zygote_tmpdir(void)
{
    char *dir = lt_sandbox_scratch_new(lt__zygote.scratch_base);
    if (!dir)
        return;
    lt__zygote.collection_tmp = xstrdup(dir);
    lt__zygote.collection_tmp_fd = -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        lt__zygote.collection_tmp_fd =
            fcntl(fd, F_DUPFD_CLOEXEC, COLLECTION_TMP_FD_MIN);
        close(fd);
    }
    char *named = lt__zygote.collection_tmp_fd >= 0
                      ? xasprintf("/proc/self/fd/%d",
                                  lt__zygote.collection_tmp_fd)
                      : xstrdup(dir);
    free(dir);
    dir = named;
    PyObject *os = PyImport_ImportModule("os");
    PyObject *environ = os ? PyObject_GetAttrString(os, "environ") : NULL;
    PyObject *value = PyUnicode_DecodeFSDefault(dir);
    if (environ && value) {
        PyMapping_SetItemString(environ, "TMPDIR", value);
        /* The tests' home is scratch too, and hypothesis keeps its
         * example database there: its default, under the read-only
         * working directory, would make it warn at collection, which a
         * suite with `filterwarnings = error` turns into errors. */
        PyMapping_SetItemString(environ, "HOME", value);
        PyObject *db = PyUnicode_FromFormat("%U/.hypothesis", value);
        if (db)
            PyMapping_SetItemString(environ, "HYPOTHESIS_STORAGE_DIRECTORY",
                                    db);
        Py_XDECREF(db);
    }
    PyObject *tempfile = PyImport_ImportModule("tempfile");
    if (tempfile && value)
        PyObject_SetAttrString(tempfile, "tempdir", value);
    if (PyErr_Occurred())
        PyErr_Clear();
    Py_XDECREF(tempfile);
    Py_XDECREF(value);
    Py_XDECREF(environ);
    Py_XDECREF(os);
    free(dir);
}

/* lt_sandbox_paths_add() for a str (a sys.path entry, a sys prefix);
 * anything else is left out. */
static void add_py_path(struct lt_sandbox_paths *ro, PyObject *o)
{
    if (o && PyUnicode_Check(o)) {
        PyObject *b = PyUnicode_EncodeFSDefault(o);
        const char *s = b ? PyBytes_AsString(b) : NULL;
        if (s)
            lt_sandbox_paths_add(ro, s);
        Py_XDECREF(b);
    }
    PyErr_Clear();
}

/* Whether the real path `real` lies at or below one of l's paths. */
static int covered(const struct lt_sandbox_paths *l, const char *real)
{
    for (size_t i = 0; i < l->n; i++) {
        size_t n = strlen(l->v[i]);
        if (strncmp(real, l->v[i], n) == 0 &&
            (real[n] == '\0' || real[n] == '/' || n == 1))
            return 1;
    }
    return 0;
}

/* Whether a directory a link or an editable finder leads to is one no
 * view should show whole: "/", or the home directory. */
static int too_wide(const char *real)
{
    const char *home = getenv("HOME");
    char home_real[PATH_MAX];
    return strcmp(real, "/") == 0 ||
           (home && realpath(home, home_real) &&
            strcmp(real, home_real) == 0);
}

/* The symbolic links directly in a site-packages whose targets lie
 * outside everything readable so far: packages linked into a
 * site-packages from elsewhere (`flit install --symlink`, environments
 * built of links into a store).  Their targets join *ro, and the links
 * are made again in the view. */
static void add_linked_entries(struct lt_sandbox_paths *ro, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' ||
            (e->d_type != DT_LNK && e->d_type != DT_UNKNOWN))
            continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        char real[PATH_MAX];
        struct stat sb;
        if (lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode) &&
            realpath(p, real) && !covered(ro, real) && !too_wide(real))
            lt_sandbox_paths_add(ro, p);
        free(p);
    }
    closedir(d);
}

/* Where the editable installs' import finders, which site put on
 * sys.meta_path from .pth files, find their packages: paths that are on
 * no sys.path.  setuptools' (PEP 660, `pip install -e` of a layout it
 * cannot express as a path) keeps them in its finder module's MAPPING
 * and NAMESPACES; the `editables` library's (hatchling) in its finder's
 * _redirections. */
static const char editable_paths_py[] =
    "import sys\n"
    "def paths():\n"
    "    out = []\n"
    "    for f in sys.meta_path:\n"
    "        name = getattr(f, '__module__', None)\n"
    "        if not isinstance(name, str):\n"
    "            continue\n"
    "        tables = []\n"
    "        if name.startswith('__editable__'):\n"
    "            mod = sys.modules.get(name)\n"
    "            tables = [getattr(mod, 'MAPPING', None),\n"
    "                      getattr(mod, 'NAMESPACES', None)]\n"
    "        elif name == 'editables.redirector':\n"
    "            tables = [getattr(f, '_redirections', None)]\n"
    "        for t in tables:\n"
    "            for v in (t.values() if isinstance(t, dict) else ()):\n"
    "                for p in (v if isinstance(v, (list, tuple)) else [v]):\n"
    "                    if isinstance(p, str):\n"
    "                        out.append(p)\n"
    "    return out\n";

/* The paths of editable_paths_py not readable yet join *ro (with the
 * links on their way).  Best effort: a finder it cannot read adds
 * nothing. */
static void add_editable_paths(struct lt_sandbox_paths *ro)
{
    PyObject *code = Py_CompileString(editable_paths_py,
                                      "<litmus editable paths>",
                                      Py_file_input);
    PyObject *mod = code ? PyImport_ExecCodeModule("litmus_editable_paths",
                                                   code)
                         : NULL;
    PyObject *list = mod ? PyObject_CallMethod(mod, "paths", NULL) : NULL;
    for (Py_ssize_t i = 0; list && PyList_Check(list) &&
                           i < PyList_Size(list); i++) {
        PyObject *b = PyUnicode_EncodeFSDefault(PyList_GetItem(list, i));
        const char *s = b ? PyBytes_AsString(b) : NULL;
        char real[PATH_MAX];
        if (s && s[0] == '/' && realpath(s, real) && !covered(ro, real) &&
            !too_wide(real))
            lt_sandbox_paths_add(ro, s);
        Py_XDECREF(b);
        PyErr_Clear();
    }
    PyErr_Clear();
    Py_XDECREF(list);
    Py_XDECREF(mod);
    Py_XDECREF(code);
    /* Not a module of the tests'. */
    PyObject *modules = PyImport_GetModuleDict(); /* borrowed */
    if (modules && PyMapping_HasKeyString(modules, "litmus_editable_paths"))
        PyMapping_DelItemString(modules, "litmus_editable_paths");
    PyErr_Clear();
}

/* The project's root as pytest would find it from `cwd`: the nearest
 * directory above it with pytest's configuration or a .git, or NULL.
 * Never "/" or $HOME, which would show everything below them.  A static
 * buffer. */
static const char *project_root(const char *cwd)
{
    static const char *const markers[] = {"pytest.ini", "pyproject.toml",
                                          "tox.ini", "setup.cfg", ".git"};
    static char dir[PATH_MAX];
    const char *home = getenv("HOME");
    snprintf(dir, sizeof(dir), "%s", cwd);
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return NULL;
        *slash = '\0';
        if (home && strcmp(dir, home) == 0)
            return NULL;
        for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
            char path[PATH_MAX + 32];
            snprintf(path, sizeof(path), "%s/%s", dir, markers[i]);
            if (access(path, F_OK) == 0)
                return dir;
        }
    }
}

/* What the tests may read: the working directory, the project's root,
 * the subjects' and the test paths' directories, every sys.path entry
 * and the interpreter's prefixes, and --allow-read; real paths, each
 * once, into *ro. */
static void readable_paths(const struct lt_init_frame *init,
                           struct lt_sandbox_paths *ro)
{
    lt_sandbox_paths_add(ro, lt__zygote.run_cwd);
    lt_sandbox_paths_add(ro, project_root(lt__zygote.run_cwd));
    for (uint32_t i = 0; i < init->n_subjects; i++) {
        char *dir = xstrdup(init->paths[i]);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
        lt_sandbox_paths_add(ro, dir);
        free(dir);
    }
    for (uint32_t i = 0; i < init->n_args; i++) {
        const char *arg = init->args[i];
        struct stat sb;
        if (arg[0] == '-' || stat(arg, &sb) < 0)
            continue;
        char *abs = arg[0] == '/' ? xstrdup(arg)
                                  : xasprintf("%s/%s", lt__zygote.run_cwd,
                                              arg);
        if (!S_ISDIR(sb.st_mode)) {
            char *slash = strrchr(abs, '/');
            if (slash && slash != abs)
                *slash = '\0';
        }
        lt_sandbox_paths_add(ro, abs);
        free(abs);
    }
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    for (Py_ssize_t i = 0; path && PyList_Check(path) &&
                           i < PyList_Size(path); i++)
        add_py_path(ro, PyList_GetItem(path, i));
    static const char *const prefixes[] = {"prefix", "base_prefix",
                                           "exec_prefix", "base_exec_prefix",
                                           "executable"};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        add_py_path(ro, PySys_GetObject(prefixes[i]));
    for (uint32_t i = 0; i < init->n_allow_read; i++)
        lt_sandbox_paths_add(ro, init->allow_read[i]);
    add_editable_paths(ro);
    /* Last: a link whose target the paths above already show adds
     * nothing.  Only installed packages' directories: other links of
     * the project's stay out of the view, as they always did. */
    size_t n_dirs = ro->n;
    for (size_t i = 0; i < n_dirs; i++) {
        const char *base = strrchr(ro->v[i], '/');
        if (base && (strcmp(base, "/site-packages") == 0 ||
                     strcmp(base, "/dist-packages") == 0))
            add_linked_entries(ro, ro->v[i]);
    }
}

/* The sys.path entries (absolute strs) that resolve here, in order, each
 * followed by its real path; a NULL-terminated array, caller frees
 * (free_strv). */
static char **resolvable_entries(void)
{
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    Py_ssize_t n = path && PyList_Check(path) ? PyList_Size(path) : 0;
    char **v = xcalloc(2 * (size_t)n + 1, sizeof(char *));
    size_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyList_GetItem(path, i);
        PyObject *b = o && PyUnicode_Check(o) ? PyUnicode_EncodeFSDefault(o)
                                              : NULL;
        const char *s = b ? PyBytes_AsString(b) : NULL;
        char real[PATH_MAX];
        if (s && s[0] == '/' && realpath(s, real)) {
            v[k++] = xstrdup(s);
            v[k++] = xstrdup(real);
        }
        Py_XDECREF(b);
    }
    PyErr_Clear();
    return v;
}

static void free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* After the view is entered: an entry of `before` (resolvable_entries()
 * outside) that no longer resolves fails the zygote with its name, where
 * otherwise the tests would fail to import a package of it with no word
 * of why (a venv reached through links the view lacks). */
static void check_entries(char **before)
{
    for (size_t i = 0; before[i]; i += 2) {
        char real[PATH_MAX];
        /* Only a missing place: one the sandbox's identity may not
         * search is a matter of modes, as it was outside for others. */
        if (realpath(before[i], real) || (errno != ENOENT &&
                                          errno != ENOTDIR))
            continue;
        int e = errno;
        char *msg = xasprintf(
            "the sys.path entry %s (%s on the host) cannot be reached in "
            "the sandbox's file-system view: %s (a symbolic link on its "
            "way the view lacks); name the interpreter or venv by its real "
            "path with --python", before[i], before[i + 1], strerror(e));
        lt__send_failed(msg);
        free(msg);
        _exit(3);
    }
}

/* Keeps the VIEW frame that goes out before READY: the features in
 * force, what is missing, and the view's description. */
static void note_view(unsigned features, const char *missing,
                      const char *desc)
{
    lt_reply_encode(&lt__zygote.view_note, &(struct lt_reply){
        .type = LT_FRAME_VIEW,
        .view = {features, lt_reply_text_of(missing, SIZE_MAX),
                 lt_reply_text_of(desc, SIZE_MAX)}});
    lt__zygote.view_note_ready = 1;
}

/* Enters the view of readable_paths() with scratch as the only writable
 * place (lt_sandbox_view_enter_runner); where it cannot be, the reason
 * goes to the engine and the run goes on degraded. */
static void enter_view(const struct lt_init_frame *init)
{
    struct lt_sandbox_paths ro = {0};
    readable_paths(init, &ro);
    char **entries = resolvable_entries();
    struct lt_view_opts vo = {
        .root_dir = lt__zygote.scratch_base,
        .ro_paths = (const char *const *)ro.v,
        .n_ro_paths = ro.n,
        .links = (const char *const *)ro.links, .n_links = ro.n_links,
        .scratch_dir = lt__zygote.scratch_base,
        .scratch_bytes = (unsigned long long)init->scratch_mb << 20,
        .scratch_inodes = 16384, .scratch_instances = LT_RUNNER_SCRATCH_SLOTS,
        .uid = (uid_t)init->sandbox_uid, .gid = (gid_t)init->sandbox_uid};
    unsigned got = 0;
    char err[256];
    char *desc = NULL;
    int rc = lt_sandbox_view_enter_runner(&vo, engine_pid, &got, err,
                                          sizeof(err), &desc);
    lt_sandbox_paths_free(&ro);
    if (rc == -ESRCH)
        _exit(3);
    if (rc < 0) {
        /* Half-built: nothing sandboxed may be forked from here. */
        lt__send_failed(err);
        _exit(3);
    }
    if (rc > 0) {
        /* No namespace entered: the run goes on degraded, and says so. */
        lt__zygote.features &= ~(unsigned)(LT_SBX_FSVIEW | LT_SBX_IDENTITY);
    } else {
        lt__zygote.features |= got;
        if (got & LT_SBX_FSVIEW) {
            lt__zygote.scratch_instances = LT_RUNNER_SCRATCH_SLOTS;
            lt__use_scratch_instance(0);
            check_entries(entries);
        }
    }
    free_strv(entries);
    if (chdir(lt__zygote.run_cwd) < 0)
        lt__zygote_die("chdir", -errno);
    unsigned view_bits = LT_SBX_FSVIEW | LT_SBX_IDENTITY;
    note_view(lt__zygote.features,
              lt_sandbox_describe_missing((LT_SBX_ALL & ~view_bits) |
                                          (lt__zygote.features & view_bits)),
              desc ? desc : "");
    free(desc);
}

/*** The zygote's life ***/

/* Takes the engine's socket and ties the zygote's life to litmus. */
static void attach_to_engine(int sock)
{
    lt__zygote.engine_sock = sock;
    lt__zygote.pid = getpid();
    fcntl(sock, F_SETFD, FD_CLOEXEC);
    /* The zygote must not outlive litmus. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    engine_pid = getppid();
    if (engine_pid == 1)
        _exit(3);
}

/* Receives and decodes INIT into *init, whose payload is kept for good:
 * the subjects' sources point into it.  Ends the zygote on a bad frame. */
static void read_init(int sock, struct lt_init_frame *init)
{
    uint8_t *payload = NULL;
    size_t len = 0;
    int type = lt_wire_recv(sock, LT_WIRE_MAX_FRAME, &payload, &len, NULL,
                            NULL);
    if (type != LT_FRAME_INIT)
        lt__zygote_die("no INIT frame", type < 0 ? type : LT_EPROTO);
    if (lt_init_frame_decode(payload, len, init) < 0)
        lt__zygote_die("malformed INIT frame", LT_EPROTO);
    lt__zygote.run_cwd = init->cwd;
    lt__zygote.init = init;
    lt__zygote.scratch_base = init->scratch_base;
    lt__zygote.scratch_root = xstrdup(lt__zygote.scratch_base);
}

/* What every child inherits and the zygote sets up once: stdio to
 * /dev/null (stderr kept with debug), the working directory, a network
 * namespace of its own, and the compiled seccomp filter. */
static void set_up_process(int debug)
{
    /* Output of the collection phase goes nowhere: the shim catches what
     * matters and reports it in frames. */
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull >= 0) {
        dup2(devnull, 0);
        dup2(devnull, 1);
        if (!debug)
            dup2(devnull, 2);
        close(devnull);
    }
    if (chdir(lt__zygote.run_cwd) < 0)
        lt__zygote_die("chdir", -errno);
    /* One fresh network namespace for the zygote and all its children:
     * no interface but a downed loopback, so no packet leaves. */
    if (unshare(CLONE_NEWNET) == 0)
        lt__zygote.features |= LT_SBX_NETNS;

    /* Compile the seccomp filter once for every child to come. */
    struct lt_sandbox_opts sbx;
    lt_sandbox_opts_init(&sbx);
    if (lt_sandbox_prepare(&sbx) < 0 && debug)
        fprintf(stderr, "litmus-zygote: no prepared seccomp filter; each "
                        "child compiles its own\n");
}

/* The interpreter that runs this zygote in its own executable (`python
 * -c BOOT`, lt_zygote_spawn) made to look as lt_pyabi_start leaves an
 * embedded one: the user's PYTHON* variables back (PYTHONPATH as the
 * engine's path prefix, which lt_zygote_spawn put there), `_litmus`
 * importable,
 * sys.argv [''], no '' on sys.path (the working directory goes first
 * below, as `python -m pytest` has it).  SIGINT raises KeyboardInterrupt
 * in both, as in `python` (the signal module installs that handler when
 * it is first imported). */
static void adopt_python(void)
{
    char err[512];
    if (lt_pyabi_adopt(err, sizeof(err)) < 0) {
        lt__send_failed(err);
        _exit(3);
    }
    PyObject *mod = lt__litmus_module_init();
    PyObject *argv = Py_BuildValue("[s]", "");
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    int ok = mod && argv && path && PyList_Check(path) &&
             PyDict_SetItemString(PyImport_GetModuleDict(), "_litmus",
                                  mod) == 0 &&
             PySys_SetObject("argv", argv) == 0;
    if (ok && PyList_Size(path) > 0) {
        PyObject *first = PyList_GetItem(path, 0); /* borrowed */
        if (first && PyUnicode_Check(first) &&
            PyUnicode_GetLength(first) == 0)
            ok = PySequence_DelItem(path, 0) == 0;
    }
    Py_XDECREF(argv);
    Py_XDECREF(mod);
    if (!ok) {
        PyErr_Print();
        lt__send_failed("the interpreter cannot take the zygote");
        _exit(3);
    }
    /* What ps and top show, as for a zygote litmus starts itself. */
    prctl(PR_SET_NAME, "litmus-zygote");
}

/* The interpreter, started as `python -m pytest` would be in the working
 * directory, with the engine's path prefix.  started: this process is
 * the interpreter's own executable, already running (adopt_python);
 * else the engine loaded its libpython for us to start. */
static void start_interpreter(const struct lt_init_frame *init, int started)
{
    /* The processes the tests start import from the same places: the
     * engine's prefix (PYTHONPATH's entries made absolute, and an src/
     * root it added) becomes their PYTHONPATH (in the interpreter's
     * executable, lt_zygote_spawn put it in the environment).  The
     * interpreter itself ignores it. */
    if (!started) {
        if (init->path_prefix[0])
            setenv("PYTHONPATH", init->path_prefix, 1);
        start_python(init->python);
    } else {
        adopt_python();
    }
    if (put_on_path(lt__zygote.run_cwd, init->path_prefix) < 0) {
        PyErr_Print();
        lt__send_failed("cannot set the import path");
        _exit(3);
    }
}

/* The file-system view, or with --no-fs-view a note that there is
 * none. */
static void enter_view_or_note(const struct lt_init_frame *init)
{
    if (init->no_view) {
        note_view(0, "fs_view (turned off by --no-fs-view), identity (no "
                     "file-system view)", "");
        return;
    }
    /* The last moment the build tree is writable: coverage builds write
     * what start-up ran; the rest of this zygote's counts are lost (it
     * leaves from inside the view). */
    lt_cov_flush();
    lt__zygote.cov_writable = 0;
    enter_view(init);
    if (lt__zygote.features & LT_SBX_FSVIEW)
        zygote_tmpdir();
}

/* The runner's embedded Python: the code comparison module, the call
 * evaluation modules, then the shim's steps and the shim (returned, a
 * new reference). */
static PyObject *load_runner_modules(void)
{
    if (!lt__codediff_module()) {
        PyErr_Print();
        lt__send_failed("the code comparison module failed to load");
        _exit(3);
    }
    /* litmus_constants (generated from the C headers) first: the others
     * import it; litmus_inputs next: litmus_calls imports it, and
     * litmus_probe both; litmus_calls after its modes (calls.py). */
    if (!embedded_module(lt_constants_py, "<litmus constants>",
                         "litmus_constants") ||
        !embedded_module(lt_inputs_py, "<litmus inputs>", "litmus_inputs") ||
        !embedded_module(lt_calls_values_py, "<litmus calls_values>",
                         "litmus_calls_values") ||
        !embedded_module(lt_calls_capture_py, "<litmus calls_capture>",
                         "litmus_calls_capture") ||
        !embedded_module(lt_calls_compare_py, "<litmus calls_compare>",
                         "litmus_calls_compare") ||
        !embedded_module(lt_calls_diff_py, "<litmus calls_diff>",
                         "litmus_calls_diff") ||
        !embedded_module(lt_calls_cases_py, "<litmus calls_cases>",
                         "litmus_calls_cases") ||
        !embedded_module(lt_calls_py, "<litmus calls>", "litmus_calls") ||
        !embedded_module(lt_probe_py, "<litmus probe>", "litmus_probe")) {
        PyErr_Print();
        lt__send_failed("the call evaluation module failed to load");
        _exit(3);
    }
    for (size_t i = 0; i < sizeof(shim_parts) / sizeof(shim_parts[0]);
         i++) {
        if (!embedded_module(shim_parts[i].source, shim_parts[i].file,
                             shim_parts[i].name)) {
            PyErr_Print();
            lt__send_failed("the runner shim failed to load");
            _exit(3);
        }
    }
    PyObject *code = Py_CompileString(lt_shim_py, "<litmus shim>",
                                      Py_file_input);
    PyObject *mod = code ? PyImport_ExecCodeModule("litmus_shim", code)
                         : NULL;
    Py_XDECREF(code);
    if (!mod) {
        PyErr_Print();
        lt__send_failed("the runner shim failed to load");
        _exit(3);
    }
    return mod;
}

/* The shim's main(): collects the tests, says READY and serves RUNs
 * until QUIT.  Returns only when it is done. */
static void run_shim(PyObject *shim, const struct lt_init_frame *init)
{
    /* A list that could not be built is NULL: the shim is not called. */
    PyObject *py_args = PyList_New(init->n_args);
    for (uint32_t i = 0; py_args && i < init->n_args; i++) {
        PyObject *a = PyUnicode_DecodeFSDefault(init->args[i]);
        if (!a || PyList_SetItem(py_args, (Py_ssize_t)i, a) < 0)
            Py_CLEAR(py_args);
    }
    PyObject *py_subjects = PyList_New(init->n_subjects);
    for (uint32_t i = 0; py_subjects && i < init->n_subjects; i++) {
        PyObject *src = PyUnicode_DecodeUTF8(init->sources[i],
                                             (Py_ssize_t)init->source_lens[i],
                                             "surrogateescape");
        PyObject *subject = Py_BuildValue(
            "(NN)", PyUnicode_DecodeFSDefault(init->paths[i]), src);
        if (!subject ||
            PyList_SetItem(py_subjects, (Py_ssize_t)i, subject) < 0)
            Py_CLEAR(py_subjects);
    }
    /* flags: enum lt_init_flags (runners/frames.h) */
    PyObject *res = py_args && py_subjects
                        ? PyObject_CallMethod(shim, "main", "(NNi)", py_args,
                                              py_subjects, init->flags)
                        : NULL;
    if (!res) {
        PyErr_Print();
        /* The shim's main() says why itself before it raises; this is
         * for a failure to call it at all. */
        if (!lt__zygote.ready_sent && !lt__zygote.failed_sent)
            lt__send_failed("the runner shim raised; run with "
                            "LITMUS_DEBUG=1");
        _exit(3);
    }
}

/* The zygote's life, on the engine's socket: never returns. */
static _Noreturn void zygote_main(int sock, int started)
{
    struct lt_init_frame init;
    attach_to_engine(sock);
    read_init(sock, &init);
    lt__trace_init(init.paths, init.source_lens, init.sources,
                   init.n_subjects);
    set_up_process(init.debug);
    start_interpreter(&init, started);
    enter_view_or_note(&init);
    run_shim(load_runner_modules(), &init);
    /* No Py_Finalize: nothing of ours needs it, and it could run user
     * atexit hooks. */
    lt__zygote_exit(0);
}

/* Contract: see zygote_internal.h. */
_Noreturn void lt_py_zygote_main(int sock)
{
    zygote_main(sock, 0);
}

/* `_litmus_zygote.serve(fd)`: the zygote in the interpreter's own
 * executable, on the socket at fd; never returns. */
static PyObject *serve(PyObject *self, PyObject *fd)
{
    (void)self;
    long sock = PyLong_AsLong(fd);
    if (sock < 3 || sock > INT_MAX) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "not the engine's socket");
        return NULL;
    }
    zygote_main((int)sock, 1);
}

static PyMethodDef boot_methods[] = {
    {"serve", serve, METH_O, "The zygote, on the engine's socket."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef boot_module = {
    PyModuleDef_HEAD_INIT, "_litmus_zygote", NULL, -1, boot_methods,
    NULL, NULL, NULL, NULL,
};

/* Contract: see zygote_internal.h. */
PyMODINIT_FUNC PyInit__litmus_zygote(void)
{
    return PyModule_Create(&boot_module);
}
