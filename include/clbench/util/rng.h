#ifndef CLBENCH_UTIL_RNG_H
#define CLBENCH_UTIL_RNG_H

#include <stdint.h>

/*
 * splitmix64: small, fast, and the same sequence on every machine for a
 * seed, which is what reproducible inputs and samples need. *state advances.
 */
static inline uint64_t clb_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
