/* `litmus-similarity ARGS...` runs `litmus similarity ARGS...` (the
 * command line's own table and code) without the rest of main(): for the
 * benchmarks of bench/similarity_*.sh.
 * SPDX-License-Identifier: MIT */
#include <getopt.h>

#include "common/cliopt.h"
#include "engine/cli/cli.h"

int main(int argc, char **argv)
{
    argv[0] = "similarity";
    lt_cli_set_command("similarity");
    optind = 0;
    return lt__cmd_similarity(argc, argv);
}
