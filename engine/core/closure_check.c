/* The build's check that core is a library below the jobs: linked with
 * every object of lt_core (whole archive) and only lt_core's own
 * dependencies, this program fails to link when a core file calls a
 * function defined in engine/jobs, engine/report or engine/cli.
 * SPDX-License-Identifier: MIT */
int main(void)
{
    return 0;
}
