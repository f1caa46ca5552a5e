#ifndef CLBENCH_COMMANDS_COMMON_H
#define CLBENCH_COMMANDS_COMMON_H

/*
 * What the command files share, each in its own header: emitting a result
 * (emit.h), the fleet (fleet.h), the device selection (selection.h), and the
 * limits every figure is held against (clbench/limits/limits.h).
 */
#include "clbench/limits/limits.h"
#include "emit.h"
#include "fleet.h"
#include "selection.h"

#endif
