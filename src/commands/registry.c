#include <string.h>

#include "clbench/cli.h"

extern const struct clb_command clb_cmd_devices;

const struct clb_command *const clb_commands[] = {
    &clb_cmd_devices,
    NULL,
};

const struct clb_command *clb_command_find(const char *name)
{
    for (size_t i = 0; clb_commands[i]; i++)
        if (strcmp(clb_commands[i]->name, name) == 0)
            return clb_commands[i];
    return NULL;
}
