/* The list of commands, for main()'s dispatch, and what is built from
 * their option tables: the bash completion script and the hidden
 * `litmus __defaults`.  SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "common/cliopt.h"
#include "common/log.h"

static const char usage_completion[] =
    "usage: litmus completion bash\n"
    "\n"
    "Prints a bash completion script for litmus, e.g.\n"
    "  source <(litmus completion bash)\n"
    "or save it as ~/.local/share/bash-completion/completions/litmus.\n";

/* The path of this binary, for the Slurm scripts ("" when unknown). */
static const char *self_exe = "";

/* Contract: see cli.h. */
void lt__cli_set_exe(const char *path)
{
    self_exe = path;
}

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

/* The shells `litmus completion` writes for. */
static const char *shell_word(int i)
{
    return i == 0 ? "bash" : NULL;
}

/* Contract: see cli.h. */
const struct lt__cli_command lt__cli_commands[] = {
    {"score", lt__cmd_score, lt__score_options, NULL, 0},
    {"show", lt__cmd_show, lt__show_options, NULL, 0},
    {"report", lt__cmd_report, lt__report_options, NULL, 0},
    {"merge", lt__cmd_merge, lt__merge_options, NULL, 0},
    {"slurm", cmd_slurm_self, lt__slurm_options, NULL, 0},
    {"patches", lt__cmd_patches, lt__patches_options, NULL, 0},
    {"dataset", lt__cli_dataset, lt__dataset_options, lt__dataset_mode_word,
     1},
#ifdef LT_HAVE_SIMILARITY
    {"similarity", lt__cmd_similarity, lt__similarity_options, NULL, 0},
#endif
    {"completion", cmd_completion, NULL, shell_word, 0},
    {"__defaults", cmd_defaults, NULL, NULL, 0},
    {NULL, NULL, NULL, NULL, 0},
};

/* `litmus completion bash`: a bash completion script built from the
 * option tables. */
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
    lt__cli_completion(stdout);
    return fflush(stdout) == 0 ? 0 : 3;
}

/* Contract: see cli.h. */
void lt__cli_completion(FILE *f)
{
    fputs("# bash completion for litmus, written by `litmus completion "
          "bash`.\n"
          "# Load it with: source <(litmus completion bash)\n"
          "_litmus() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} "
          "words= first= i\n"
          "    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        words=\"--help --version",
          f);
    for (const struct lt__cli_command *c = lt__cli_commands; c->name; c++)
        if (c->name[0] != '_')
            fprintf(f, " %s", c->name);
    fputs("\"\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
          "        [ \"${COMP_WORDS[i]}\" = -- ] && return\n"
          "    done\n"
          "    case $cmd in\n",
          f);
    for (const struct lt__cli_command *c = lt__cli_commands; c->name; c++) {
        if (c->name[0] == '_')
            continue;
        if (!c->first_word) {
            fprintf(f, "    %s) words=\"", c->name);
            if (c->options)
                lt__opt_words(f, c->options, -1);
            fputs("\" ;;\n", f);
            continue;
        }
        /* Its first argument: one of its words (then, for a mode, the
         * options of that mode). */
        fprintf(f, "    %s)\n"
                   "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
                   "            words=\"--help",
                c->name);
        for (int i = 0; c->first_word(i); i++)
            fprintf(f, " %s", c->first_word(i));
        fputs("\" first=1\n", f);
        if (c->by_mode && c->options) {
            fputs("        else\n            case ${COMP_WORDS[2]} in\n", f);
            for (int i = 0; c->first_word(i); i++) {
                fprintf(f, "            %s) words=\"", c->first_word(i));
                lt__opt_words(f, c->options, i);
                fputs("\" ;;\n", f);
            }
            fputs("            esac\n", f);
        }
        fputs("        fi ;;\n", f);
    }
    fputs("    esac\n"
          "    if [[ $cur == -* || -n $first ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o default -F _litmus litmus\n",
          f);
}

/* `litmus __defaults` (hidden): the defaults the engine fills in of the
 * options whose help states one (LT__OPT_DEFAULT rows), one "command
 * option value" a line, for the test that checks the help texts against
 * them. */
static int cmd_defaults(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        return lt_cli_usage_error("takes no arguments");
    struct lt_score_opts s;
    lt_score_opts_init(&s);
    lt__opt_defaults(stdout, "score", lt__score_options, &s);
    struct lt_patches_opts p;
    lt_patches_opts_init(&p);
    lt__opt_defaults(stdout, "patches", lt__patches_options, &p);
    struct lt_dataset_opts d;
    lt_dataset_opts_init(&d);
    lt__opt_defaults(stdout, "dataset", lt__dataset_options, &d);
    struct lt_slurm_opts u;
    lt_slurm_opts_init(&u);
    lt__opt_defaults(stdout, "slurm", lt__slurm_options, &u);
    return fflush(stdout) == 0 ? 0 : 3;
}
