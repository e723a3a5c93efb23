/* Stand-in for `litmus similarity` until engine/cli wires the subcommand:
 * `litmus-similarity ARGS...` runs lt_similarity_main("similarity" ARGS).
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/similarity.h"

int main(int argc, char **argv)
{
    argv[0] = "similarity";
    return lt_similarity_main(argc, argv);
}
