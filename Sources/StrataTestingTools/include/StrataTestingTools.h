#ifndef STRATA_TESTING_TOOLS_H
#define STRATA_TESTING_TOOLS_H

/* StrataTesting's helper programs (a kwin screenshot, mutter's remote desktop,
 * a protocol harness), built into every program that links StrataTesting and
 * run as a re-execution of it: a child started with this environment variable
 * naming a tool runs that tool's main instead of the program's (see tools.c). */
const char *strata_testing_tool_variable(void);

int strata_tool_kwin_screenshot(int argc, char **argv);
int strata_tool_mutter_remote(int argc, char **argv);
int strata_tool_protocol_harness(int argc, char **argv);

#endif
