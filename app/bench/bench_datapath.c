/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm-bench-datapath: packets per second through a looped port with N
 * rules, forwarded the way testpmd's io mode does (one lcore: Rx burst,
 * Tx burst of what came in), next to rte_hash bulk lookups of the same
 * keys measured in the same run.
 *
 * Rules (--rules N > 0): group 0 `eth / ipv4 / udp -> jump group 1`, and N
 * rules in group 1, `eth / ipv4 src is S dst is D / udp src is P dst is Q
 * -> queue 0` (S, D, P, Q made from the rule's index). Frames: --flows F
 * of those 5-tuples spread over the N rules (with no rules, F distinct
 * UDP frames that reach queue 0 through the default RSS rule, one queue).
 * --inflight frames are injected once (testpmd's `start tx_first`), then
 * the loop forwards for --seconds, or until --frames N were forwarded. With
 * --frames an empty poll yields the core (sched_yield): under valgrind,
 * whose threads take turns on one core, the device thread then runs at
 * once and the count of empty polls stays small, so instructions per frame
 * do not depend on how the turns fell.
 *
 *   mlx5dm-bench-datapath EAL_ARGS -- [--rules N] [--flows F] [--seconds S]
 *                                     [--inflight K] [--frames N]
 * prints: rules flows Mpps (forwarded) and Mlookups/s (rte_hash, same keys).
 */

#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_mbuf.h>

#include "bench_key.h"

#define PORT 0
#define BURST 32
#define FRAME_LEN 64

struct bench_opts {
	uint32_t rules;
	uint32_t flows;
	double seconds;
	uint32_t inflight;
	uint64_t frames; /* 0: forward for seconds */
};

static int
bench_port_start(struct rte_mempool *mp)
{
	struct rte_eth_conf conf = { 0 };
	int ret;

	ret = rte_eth_dev_configure(PORT, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(PORT, 0, 1024, rte_socket_id(), NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(PORT, 0, 1024, rte_socket_id(), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(PORT);
	if (ret != 0)
		fprintf(stderr, "bench: port %u: %s\n", PORT, strerror(-ret));
	return ret;
}

static struct rte_flow *
bench_jump_rule(void)
{
	struct rte_flow_attr attr = { .group = 0, .ingress = 1 };
	struct rte_flow_action_jump jump = { .group = 1 };
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &jump },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err = { 0 };
	struct rte_flow *f = rte_flow_create(PORT, &attr, items, actions, &err);

	if (f == NULL)
		fprintf(stderr, "bench: jump rule: %s\n", err.message ? err.message : "?");
	return f;
}

static int
bench_rules(uint32_t n)
{
	struct rte_flow_attr attr = { .group = 1, .ingress = 1 };
	struct rte_flow_item_ipv4 ip = { 0 }, ip_mask = { 0 };
	struct rte_flow_item_udp udp = { 0 }, udp_mask = { 0 };
	struct rte_flow_action_queue queue = { .index = 0 };
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ip_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udp_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err = { 0 };
	struct bench_key k;
	double t0 = now();
	uint32_t i;

	ip_mask.hdr.src_addr = UINT32_MAX;
	ip_mask.hdr.dst_addr = UINT32_MAX;
	udp_mask.hdr.src_port = UINT16_MAX;
	udp_mask.hdr.dst_port = UINT16_MAX;
	for (i = 0; i < n; i++) {
		bench_key_of(i, &k);
		ip.hdr.src_addr = rte_cpu_to_be_32(k.src);
		ip.hdr.dst_addr = rte_cpu_to_be_32(k.dst);
		udp.hdr.src_port = rte_cpu_to_be_16(k.sport);
		udp.hdr.dst_port = rte_cpu_to_be_16(k.dport);
		if (rte_flow_create(PORT, &attr, items, actions, &err) == NULL) {
			fprintf(stderr, "bench: rule %u: %s\n", i, err.message ? err.message : "?");
			return -1;
		}
	}
	fprintf(stderr, "bench: %u rules in %.2f s\n", n, now() - t0);
	return 0;
}

/* Key of the f-th frame: rules spread over the whole set (or any key without rules). */
static void
bench_flow_key(const struct bench_opts *o, uint32_t f, struct bench_key *k)
{
	uint32_t i = o->rules > 0 ? (uint32_t)((uint64_t)f * o->rules / o->flows) : f;

	bench_key_of(i, k);
}

static int
bench_frame(struct rte_mbuf *m, const struct bench_key *k)
{
	uint8_t *d = (uint8_t *)rte_pktmbuf_append(m, FRAME_LEN);
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;

	if (d == NULL)
		return -1;
	ip = (struct rte_ipv4_hdr *)(d + 14);
	udp = (struct rte_udp_hdr *)(ip + 1);
	memset(d, 0, FRAME_LEN);
	d[0] = 0x02;
	d[5] = 0x01;
	d[6] = 0x02;
	d[11] = 0x02;
	d[12] = 0x08;
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(FRAME_LEN - 14);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(k->src);
	ip->dst_addr = rte_cpu_to_be_32(k->dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(k->sport);
	udp->dst_port = rte_cpu_to_be_16(k->dport);
	udp->dgram_len = rte_cpu_to_be_16(FRAME_LEN - 14 - 20);
	return 0;
}

static int
bench_inject(const struct bench_opts *o, struct rte_mempool *mp)
{
	struct rte_mbuf *m[BURST];
	struct bench_key k;
	uint32_t done = 0, i, n, sent;

	while (done < o->inflight) {
		n = RTE_MIN((uint32_t)BURST, o->inflight - done);
		if (rte_pktmbuf_alloc_bulk(mp, m, n) != 0)
			return -1;
		for (i = 0; i < n; i++) {
			bench_flow_key(o, (done + i) % o->flows, &k);
			if (bench_frame(m[i], &k) != 0) {
				rte_pktmbuf_free_bulk(m, n);
				return -1;
			}
		}
		sent = rte_eth_tx_burst(PORT, 0, m, (uint16_t)n);
		if (sent < n)
			rte_pktmbuf_free_bulk(m + sent, n - sent);
		done += n;
	}
	return 0;
}

/*
 * testpmd's io forwarding on this lcore for seconds, or until frames were
 * forwarded; returns frames forwarded per second.
 */
static double
bench_forward(double seconds, uint64_t frames, uint64_t *total)
{
	struct rte_mbuf *m[BURST];
	uint64_t fwd = 0;
	double t0 = now(), t;
	uint32_t spin = 0;
	uint16_t n, sent;

	for (;;) {
		n = rte_eth_rx_burst(PORT, 0, m, BURST);
		if (n > 0) {
			sent = rte_eth_tx_burst(PORT, 0, m, n);
			if (sent < n)
				rte_pktmbuf_free_bulk(m + sent, n - sent);
			fwd += n;
			if (frames != 0 && fwd >= frames)
				break;
		} else if (frames != 0) {
			sched_yield();
		}
		if (frames == 0 && ++spin == 1024) {
			spin = 0;
			t = now();
			if (t - t0 >= seconds)
				break;
		}
	}
	t = now() - t0;
	*total = fwd;
	return (double)fwd / t;
}

/* rte_hash bulk lookups of the frames' keys in a table of the rules' keys. */
static double
bench_hash(const struct bench_opts *o, double seconds)
{
	uint32_t entries = RTE_MAX(o->rules, o->flows);
	struct rte_hash_parameters p = {
		.name = "bench_datapath",
		.entries = RTE_MAX(entries, 8u),
		.key_len = sizeof(struct bench_key),
		.hash_func = rte_jhash,
		.socket_id = (int)rte_socket_id(),
	};
	struct bench_key *keys;
	const void *ptrs[BURST];
	int32_t pos[BURST];
	struct rte_hash *h;
	uint64_t looked = 0;
	double t0, t;
	uint32_t i, f = 0;

	h = rte_hash_create(&p);
	keys = calloc(o->flows, sizeof(*keys));
	if (h == NULL || keys == NULL) {
		fprintf(stderr, "bench: rte_hash_create failed\n");
		free(keys);
		rte_hash_free(h);
		return 0;
	}
	for (i = 0; i < entries; i++) {
		struct bench_key k;

		bench_key_of(i, &k);
		if (rte_hash_add_key(h, &k) < 0)
			break;
	}
	for (i = 0; i < o->flows; i++)
		bench_flow_key(o, i, &keys[i]);
	t0 = now();
	do {
		for (i = 0; i < BURST; i++) {
			ptrs[i] = &keys[f];
			f = f + 1 == o->flows ? 0 : f + 1;
		}
		rte_hash_lookup_bulk(h, ptrs, BURST, pos);
		looked += BURST;
		t = now() - t0;
	} while (t < seconds);
	free(keys);
	rte_hash_free(h);
	return (double)looked / t;
}

static int
bench_parse(int argc, char **argv, struct bench_opts *o)
{
	static const struct option longopts[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "flows", required_argument, NULL, 'f' },
		{ "seconds", required_argument, NULL, 's' },
		{ "inflight", required_argument, NULL, 'i' },
		{ "frames", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	*o = (struct bench_opts){ .rules = 0, .flows = 1024, .seconds = 3, .inflight = 2048 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		unsigned long v;

		if (c == '?')
			return -1;
		if (c == 's') {
			o->seconds = strtod(optarg, &end);
			if (*end != '\0' || o->seconds <= 0)
				return -1;
			continue;
		}
		v = strtoul(optarg, &end, 10);
		if (*end != '\0' || v > (c == 'n' ? 1000000000ul : 10000000ul))
			return -1;
		if (c == 'n')
			o->frames = v;
		else if (c == 'r')
			o->rules = (uint32_t)v;
		else if (c == 'f')
			o->flows = (uint32_t)v;
		else
			o->inflight = (uint32_t)v;
	}
	if (o->flows == 0 || o->inflight == 0)
		return -1;
	if (o->rules > 0 && o->flows > o->rules)
		o->flows = o->rules;
	return 0;
}

int
main(int argc, char **argv)
{
	struct rte_mempool *mp;
	struct bench_opts o;
	uint64_t total;
	double pps, lookups;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	if (bench_parse(argc - ret, argv + ret, &o) != 0) {
		fprintf(stderr, "usage: mlx5dm-bench-datapath EAL -- [--rules N] [--flows F] "
			"[--seconds S] [--inflight K] [--frames N]\n");
		return 2;
	}
	if (rte_eth_dev_count_avail() < 1) {
		fprintf(stderr, "bench: no port (give --vdev net_mlx5dm0 and -d the PMD)\n");
		return 1;
	}
	mp = rte_pktmbuf_pool_create("bench", 8192 + o.inflight, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL || bench_port_start(mp) != 0)
		return 1;
	if (o.rules > 0 && (bench_jump_rule() == NULL || bench_rules(o.rules) != 0))
		return 1;
	if (bench_inject(&o, mp) != 0)
		return 1;
	pps = bench_forward(o.seconds, o.frames, &total);
	lookups = bench_hash(&o, o.seconds);
	printf("%-9s %7s %12s %16s\n", "rules", "flows", "fwd Mpps", "rte_hash Mlook/s");
	printf("%-9u %7u %12.2f %16.2f\n", o.rules, o.flows, pps / 1e6, lookups / 1e6);
	fprintf(stderr, "bench: %" PRIu64 " frames forwarded\n", total);
	rte_eth_dev_stop(PORT);
	rte_eth_dev_close(PORT);
	rte_eal_cleanup();
	return 0;
}
