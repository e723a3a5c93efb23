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
#include "engine/cli/optable.h"
#include "engine/engine.h"
#include "runners/runner.h"
#include "runners/jvm.h"

#ifdef LT_HAVE_SIMILARITY
#include "engine/similarity/similarity.h"
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

static const char usage_completion[] =
    "usage: litmus completion bash\n"
    "\n"
    "Prints a bash completion script for litmus, e.g.\n"
    "  source <(litmus completion bash)\n"
    "or save it as ~/.local/share/bash-completion/completions/litmus.\n";

/* The path of this binary, for the zygotes and the Slurm scripts. */
static char self_exe[PATH_MAX];

static int cmd_slurm_self(int argc, char **argv)
{
    if (!self_exe[0]) {
        lt_error("cannot find this program's path for the job scripts");
        return 3;
    }
    return lt__cmd_slurm(argc, argv, self_exe);
}

static int cmd_completion(int argc, char **argv);
static int cmd_defaults(int argc, char **argv);

/* The commands: name, option table (for the parser, the messages and the
 * completion) and entry point.  `dataset` has one table for its modes. */
static const struct command {
    const char *name;
    const char *shortopts;
    const struct option *longopts;
    int (*run)(int argc, char **argv);
    const struct lt__opt *options; /* its table, when it has one */
} commands[] = {
    {"score", NULL, NULL, lt__cmd_score, lt__score_options},
    {"show", NULL, NULL, lt__cmd_show, lt__show_options},
    {"report", NULL, NULL, lt__cmd_report, lt__report_options},
    {"merge", NULL, NULL, lt__cmd_merge, lt__merge_options},
    {"slurm", NULL, NULL, cmd_slurm_self, lt__slurm_options},
    {"patches", NULL, NULL, lt__cmd_patches, lt__patches_options},
    {"dataset", LT__CLI_DATASET_SHORTOPTS, lt__cli_dataset_longopts,
     lt__cli_dataset, NULL},
#ifdef LT_HAVE_SIMILARITY
    {"similarity", "h", NULL, lt_similarity_main, NULL},
#endif
    {"completion", "", NULL, cmd_completion, NULL},
    {"__defaults", "", NULL, cmd_defaults, NULL},
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct option *command_longopts(const struct command *c)
{
#ifdef LT_HAVE_SIMILARITY
    if (strcmp(c->name, "similarity") == 0)
        return lt_similarity_longopts();
#endif
    return c->longopts;
}

/* Prints the words completing an option of table LO (and the short options
 * of SHORTOPTS), filtered by KEEP when not NULL. */
static void print_option_words(FILE *f, const char *shortopts,
                               const struct option *lo,
                               int (*keep)(int val, unsigned mode),
                               unsigned mode)
{
    const char *sep = "";
    for (; lo && lo->name; lo++) {
        if (keep && !keep(lo->val, mode))
            continue;
        fprintf(f, "%s--%s", sep, lo->name);
        sep = " ";
    }
    for (const char *p = shortopts; *p; p++)
        if (*p != '+' && *p != ':' && (!keep || keep(*p, mode)))
            fprintf(f, " -%c", *p);
}

static int dataset_keep(int val, unsigned mode)
{
    return lt__cli_dataset_option_in_mode(val, (enum lt_dataset_mode)mode);
}

/* `litmus completion bash`: a bash completion script built from the
 * option tables above. */
static int cmd_completion(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "--help") == 0)) {
        fputs(usage_completion, stdout);
        return 0;
    }
    if (argc != 2 || strcmp(argv[1], "bash") != 0)
        return lt_cli_usage_error("the only shell is bash: litmus "
                                  "completion bash");
    FILE *f = stdout;
    fputs("# bash completion for litmus, written by `litmus completion "
          "bash`.\n"
          "# Load it with: source <(litmus completion bash)\n"
          "_litmus() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} "
          "words= i\n"
          "    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        words=\"--help --version",
          f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (commands[i].name[0] != '_')
            fprintf(f, " %s", commands[i].name);
    fputs("\"\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
          "        [ \"${COMP_WORDS[i]}\" = -- ] && return\n"
          "    done\n"
          "    case $cmd in\n",
          f);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const struct command *c = &commands[i];
        if (c->name[0] == '_')
            continue;
        if (strcmp(c->name, "dataset") == 0) {
            fputs("    dataset)\n"
                  "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
                  "            words=\"--help",
                  f);
            for (int m = LT_DS_SELECT; m <= LT_DS_REWRITE; m++)
                fprintf(f, " %s",
                        lt_dataset_mode_name((enum lt_dataset_mode)m));
            fputs("\"\n        else\n            case ${COMP_WORDS[2]} in\n",
                  f);
            for (int m = LT_DS_SELECT; m <= LT_DS_REWRITE; m++) {
                fprintf(f, "            %s) words=\"",
                        lt_dataset_mode_name((enum lt_dataset_mode)m));
                print_option_words(f, c->shortopts, command_longopts(c),
                                   dataset_keep, (unsigned)m);
                fputs("\" ;;\n", f);
            }
            fputs("            esac\n        fi ;;\n", f);
            continue;
        }
        if (strcmp(c->name, "completion") == 0) {
            fputs("    completion) words=\"bash --help\" ;;\n", f);
            continue;
        }
        fprintf(f, "    %s) words=\"", c->name);
        if (c->options)
            lt__opt_words(f, c->options, -1);
        else
            print_option_words(f, c->shortopts, command_longopts(c), NULL,
                               0);
        fputs("\" ;;\n", f);
    }
    fputs("    esac\n"
          "    if [[ $cur == -* || $cmd == completion || "
          "($cmd == dataset && $COMP_CWORD -eq 2) ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o default -F _litmus litmus\n",
          f);
    return fflush(f) == 0 ? 0 : 3;
}

/* `litmus __defaults` (hidden): the defaults the engine fills in, one
 * "command option value" a line, for the test that checks the help
 * texts against them. */
static int cmd_defaults(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        return lt_cli_usage_error("takes no arguments");
    struct lt_score_opts s;
    lt_score_opts_init(&s);
    printf("score db %s\n", s.run.db);
    printf("score operators %s\n", s.operators);
    printf("score timeout-factor %g\n", s.run.timeout_factor);
    printf("score timeout-const %g\n", s.run.timeout_const);
    printf("score baseline-timeout %g\n", s.baseline_timeout);
    printf("score baseline-runs %d\n", s.baseline_runs);
    printf("score memory-mb %lu\n", s.run.memory_mb);
    printf("score sandbox-uid %u\n", s.sandbox_uid ? s.sandbox_uid : 65534);
    printf("score scratch-mb %u\n", s.scratch_mb ? s.scratch_mb : 512);
    struct lt_patches_opts p;
    lt_patches_opts_init(&p);
    printf("patches db %s\n", p.run.db);
    printf("patches threshold %g\n", p.threshold);
    printf("patches similarity-threshold %g\n", p.sim_threshold);
    printf("patches timeout-factor %g\n", p.run.timeout_factor);
    printf("patches timeout-const %g\n", p.run.timeout_const);
    printf("patches timeout %g\n", p.timeout);
    printf("patches mutation-budget %g\n", p.mutation_budget);
    printf("patches memory-mb %lu\n", p.run.memory_mb);
    struct lt_dataset_opts d;
    lt_dataset_opts_init(&d);
    printf("dataset db %s\n", d.run.db);
    printf("dataset seed %llu\n", d.seed);
    printf("dataset timeout %g\n", d.timeout);
    printf("dataset timeout-factor %g\n", d.run.timeout_factor);
    printf("dataset timeout-const %g\n", d.run.timeout_const);
    printf("dataset memory-mb %lu\n", d.run.memory_mb);
    printf("dataset per-cell %d\n", d.per_cell);
    printf("dataset per-program %d\n", d.per_program);
    printf("dataset strength %d\n", d.strength);
    printf("dataset variants %d\n", d.variants);
    printf("dataset ops %s\n", d.ops);
    struct lt_slurm_opts u;
    lt_slurm_opts_init(&u);
    printf("slurm dir %s\n", u.dir);
    printf("slurm sbatch %s\n", u.sbatch);
    return fflush(stdout) == 0 ? 0 : 3;
}

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
    } else {
        self_exe[0] = '\0';
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(cmd, commands[i].name) == 0) {
            lt_cli_set_command(commands[i].name);
            optind = 0;
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    if (cmd[0] == '-')
        return lt_cli_usage_error("unknown option '%s' (options follow the "
                                  "command)", cmd);
    return lt_cli_usage_error("unknown command '%s'", cmd);
}
