/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_RNG_H_
#define _TEST_DM_RNG_H_

/*
 * The random mode's generator: xoshiro256** seeded through splitmix64, so a
 * seed gives the same rules and packets on every machine and C library.
 */

#include <stdint.h>

struct test_dm_rng {
	uint64_t s[4];
};

static inline uint64_t
test_dm_rng_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void
test_dm_rng_seed(struct test_dm_rng *r, uint64_t seed)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		r->s[i] = test_dm_rng_splitmix(&seed);
}

static inline uint64_t
test_dm_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t
test_dm_rng_next(struct test_dm_rng *r)
{
	uint64_t res = test_dm_rng_rotl(r->s[1] * 5, 7) * 9, t = r->s[1] << 17;

	r->s[2] ^= r->s[0];
	r->s[3] ^= r->s[1];
	r->s[1] ^= r->s[2];
	r->s[0] ^= r->s[3];
	r->s[2] ^= t;
	r->s[3] = test_dm_rng_rotl(r->s[3], 45);
	return res;
}

/** Uniform in [0, n) (n > 0; the modulo bias is irrelevant for n << 2^64). */
static inline uint32_t
test_dm_rng_below(struct test_dm_rng *r, uint32_t n)
{
	return (uint32_t)(test_dm_rng_next(r) % n);
}

/** True with probability pct / 100. */
static inline int
test_dm_rng_pct(struct test_dm_rng *r, unsigned int pct)
{
	return test_dm_rng_below(r, 100) < pct;
}

#endif /* _TEST_DM_RNG_H_ */
