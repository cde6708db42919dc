/* Runs a helper program in place of the program it is built into, before the
 * Swift runtime's main: StrataTesting spawns its own executable with
 * STRATA_TESTING_TOOL=NAME and the tool's arguments. So the helpers are built
 * with the package (their C libraries found at build time through pkg-config)
 * and there is no compiler to find when a test runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "StrataTestingTools.h"

#define TOOL_VARIABLE "STRATA_TESTING_TOOL"

const char *strata_testing_tool_variable(void) { return TOOL_VARIABLE; }

static const struct {
    const char *name;
    int (*main)(int, char **);
} tools[] = {
    {"kwin-screenshot", strata_tool_kwin_screenshot},
    {"mutter-remote", strata_tool_mutter_remote},
    {"protocol-harness", strata_tool_protocol_harness},
};

/* glibc passes constructors the program's arguments. */
__attribute__((constructor)) static void strata_run_tool(int argc, char **argv, char **envp) {
    (void)envp;
    const char *name = getenv(TOOL_VARIABLE);
    if (!name) return;
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        if (strcmp(name, tools[i].name) != 0) continue;
        unsetenv(TOOL_VARIABLE);
        int status = tools[i].main(argc, argv);
        fflush(NULL);
        _exit(status);
    }
    fprintf(stderr, "%s: no tool named '%s'\n", TOOL_VARIABLE, name);
    _exit(127);
}
