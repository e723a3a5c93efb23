/* The litmus command line: options, subcommands, exit codes.
 * SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cliopt.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/cli/cli.h"
#include "engine/engine.h"
#include "runners/runner.h"
#include "runners/jvm.h"

#ifdef LT_SANITIZED
/* The sanitizer build's defaults (ASAN_OPTIONS still wins; zygotes run
 * with a scrubbed environment, so these are theirs).  A quarantine of
 * 8 MB, not 256: a zygote filled its quarantine with a hundred MB of the
 * interpreter's freed memory, which every fork then copied the page
 * tables of and every child unmapped (a sixth of make test's sanitized
 * suite); the last 8 MB of frees still catch a use after free. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=8:thread_local_quarantine_size_kb=64";
}
#endif

static const char usage_main[] =
    "usage: litmus <command> [options]\n"
    "\n"
    "Sandboxed mutation testing for Python test suites.\n"
    "\n"
    "commands:\n"
    "  score       mutate source files and score the test suite\n"
    "  show        print one mutant's diff, verdict and killing test\n"
    "  report      print the summary of a stored run\n"
    "  merge       merge the stores of `score --shard` runs into one\n"
    "  slurm       run `score` as a Slurm array job of shards and a merge\n"
    "  patches     triage candidate patches: correct, overfitting,\n"
    "              memorized or invalid\n"
    "  dataset     execution-verified datasets of mutated programs\n"
    "              (select, typed, faults, rewrite)\n"
#ifdef LT_HAVE_SIMILARITY
    "  similarity  code similarity metrics (CodeBLEU, METEOR, ROUGE-L...)\n"
#endif
    "\n"
    "  completion  print a bash completion script (litmus completion bash)\n"
    "\n"
    "Options may come before or after operands, up to `--`.\n"
    "`litmus <command> --help` describes a command; `litmus --version`\n"
    "prints the version.\n"
    "exit codes: 0 ok, 1 gate failed, 2 usage or input error, 3 engine "
    "error,\n130 interrupted (run the same command again to resume)\n";

/* The path of this binary, for the zygotes and the Slurm scripts. */
static char self_exe[PATH_MAX];

/* At exit: waits up to a second for the processes re-parented to us
 * (they die with their zygote), then kills and reaps what is left, so no
 * defunct or stray process of the run stays on the host. */
static void reap_orphans(void)
{
    for (int round = 0; round < 100; round++) {
        pid_t r = waitpid(-1, NULL, WNOHANG);
        if (r < 0 && errno == ECHILD)
            return;
        if (r <= 0)
            usleep(10000);
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[300], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        size_t k = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[k] = '\0';
        char *p = strrchr(buf, ')');
        int ppid = 0;
        if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == getpid())
            kill((pid_t)atoi(e->d_name), SIGKILL);
    }
    if (d)
        closedir(d);
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
        ;
}

int main(int argc, char **argv)
{
    /* Closed standard fds would be reused by sockets and pipes, and a
     * stray write to "stdout" would land in a wire channel. */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
            return 3;
    if (argc == 5 && strcmp(argv[1], "__zygote") == 0) {
        char *end;
        errno = 0;
        long fd = strtol(argv[2], &end, 10);
        if (errno || end == argv[2] || *end || fd < 3 || fd > INT_MAX)
            return 3;
        lt_zygote_main((int)fd, argv[3], argv[4]);
    }
    if (argc == 4 && strcmp(argv[1], "__jvm") == 0) {
        char *e1, *e2;
        long in = strtol(argv[2], &e1, 10), out = strtol(argv[3], &e2, 10);
        if (*e1 || *e2 || in < 3 || out < 3 || in > INT_MAX || out > INT_MAX)
            return 3;
        lt_jvm_main((int)in, (int)out);
    }
    if (argc < 2)
        return lt_cli_usage_error("no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "help") == 0) {
        fputs(usage_main, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("litmus %s\n", LT_VERSION);
        return fflush(stdout) == 0 ? 0 : 3;
    }
    /* Processes of ours that outlive their parent (a zygote's pre-import
     * server or copies, when the zygote is stopped) come back to us
     * instead of to the host's init, and are reaped before we leave. */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
        atexit(reap_orphans);
    /* The zygotes are this very binary, re-executed. */
    ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
    if (n > 0) {
        self_exe[n] = '\0';
        lt_engine_set_exe(xstrdup(self_exe));
        lt__cli_set_exe(self_exe);
    } else {
        self_exe[0] = '\0';
    }
    for (const struct lt__cli_command *c = lt__cli_commands; c->name; c++) {
        if (strcmp(cmd, c->name) == 0) {
            lt_cli_set_command(c->name);
            optind = 0;
            return c->run(argc - 1, argv + 1);
        }
    }
    if (cmd[0] == '-')
        return lt_cli_usage_error("unknown option '%s' (options follow the "
                                  "command)", cmd);
    return lt_cli_usage_error("unknown command '%s'", cmd);
}
