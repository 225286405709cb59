/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <rte_pmd_mlx5dm.h>

#include "test_dm_loopback.h"
#include "test_dm_ports.h"
#include "test_dm_progress.h"

#define TEST_DM_LOOPBACK_DESC 512
#define TEST_DM_LOOPBACK_BURST 32
#define TEST_DM_LOOPBACK_LEN 128

static int
test_dm_loopback_port_init(uint16_t port, struct rte_mempool *mp, char *msg, size_t size)
{
	struct rte_eth_conf conf = { 0 };
	int ret;

	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, TEST_DM_LOOPBACK_DESC,
					     rte_eth_dev_socket_id(port), NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, TEST_DM_LOOPBACK_DESC,
					     rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret != 0)
		snprintf(msg, size, "port %u: set-up failed: %s", port, strerror(-ret));
	return ret;
}

/* Fill an Ether/IPv4/UDP packet whose payload carries its sequence number. */
static void
test_dm_loopback_build(uint8_t *p, uint16_t port, uint32_t seq)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint8_t *payload = (uint8_t *)(udp + 1);
	unsigned int i, plen = TEST_DM_LOOPBACK_LEN - (unsigned int)(payload - p);

	memset(p, 0, TEST_DM_LOOPBACK_LEN);
	rte_eth_macaddr_get(port, &eth->src_addr);
	eth->dst_addr = eth->src_addr;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(TEST_DM_LOOPBACK_LEN - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(1024 + (seq & 0x3ff));
	udp->dst_port = rte_cpu_to_be_16(4789 + port);
	udp->dgram_len = rte_cpu_to_be_16(sizeof(*udp) + plen);
	for (i = 0; i < plen; i++)
		payload[i] = (uint8_t)(seq >> (8 * (i % 4)));
}

struct test_dm_loopback_count {
	unsigned int sent;
	unsigned int received;
	unsigned int bad;
};

static void
test_dm_loopback_receive(uint16_t port, uint16_t peer, const struct test_dm_config *cfg,
			 struct test_dm_loopback_count *n)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz();
	struct rte_mbuf *rx[TEST_DM_LOOPBACK_BURST];
	uint8_t expect[TEST_DM_LOOPBACK_LEN];
	uint16_t k, nb;

	/* Receive as we go so the Rx ring never overflows. */
	while (n->received < n->sent && rte_get_timer_cycles() < deadline) {
		nb = rte_eth_rx_burst(peer, 0, rx, TEST_DM_LOOPBACK_BURST);
		for (k = 0; k < nb; k++) {
			test_dm_loopback_build(expect, port, n->received);
			if (rx[k]->pkt_len != TEST_DM_LOOPBACK_LEN ||
			    memcmp(rte_pktmbuf_mtod(rx[k], void *), expect,
				   TEST_DM_LOOPBACK_LEN) != 0) {
				n->bad++;
				if (cfg->verbose)
					printf("  packet %u: bytes differ\n", n->received);
			}
			n->received++;
		}
		rte_pktmbuf_free_bulk(rx, nb);
	}
}

static int
test_dm_loopback_port(uint16_t port, uint16_t peer, struct rte_mempool *mp,
		      const struct test_dm_config *cfg, struct test_dm_loopback_count *n)
{
	struct rte_mbuf *tx[TEST_DM_LOOPBACK_BURST];
	unsigned int i, k;

	memset(n, 0, sizeof(*n));
	while (n->sent < cfg->packets) {
		k = RTE_MIN((unsigned int)TEST_DM_LOOPBACK_BURST, cfg->packets - n->sent);
		if (rte_pktmbuf_alloc_bulk(mp, tx, k) != 0)
			return -ENOMEM;
		for (i = 0; i < k; i++)
			test_dm_loopback_build((uint8_t *)rte_pktmbuf_append(tx[i],
									     TEST_DM_LOOPBACK_LEN),
					       port, n->sent + i);
		i = rte_eth_tx_burst(port, 0, tx, (uint16_t)k);
		rte_pktmbuf_free_bulk(tx + i, k - i);
		n->sent += k;
		test_dm_loopback_receive(port, peer, cfg, n);
	}
	return 0;
}

static void
test_dm_loopback_record(struct test_dm_report *report, uint16_t port, uint16_t peer,
			const struct test_dm_loopback_count *n, double t0, const char *err)
{
	struct test_dm_record rec = { .suite = "loopback", .run = 1 };
	char name[64], reason[256] = "";

	snprintf(name, sizeof(name), "port%u-to-port%u", port, peer);
	rec.name = name;
	rec.file = "";
	rec.packets = n->sent;
	rec.received = n->received;
	rec.checks = n->sent;
	rec.failed = n->sent - n->received + n->bad;
	rec.verdict = err == NULL && rec.failed == 0 ? TEST_DM_PASS : TEST_DM_FAIL;
	if (err != NULL)
		snprintf(reason, sizeof(reason), "%s", err);
	else if (rec.failed != 0)
		snprintf(reason, sizeof(reason), "%u of %u packets lost, %u corrupted",
			 n->sent - n->received, n->sent, n->bad);
	rec.reason = reason;
	rec.seconds = test_dm_now() - t0;
	printf("loopback port %u -> port %u: sent %u, received %u, corrupted %u: %s\n", port,
	       peer, n->sent, n->received, n->bad, rec.verdict == TEST_DM_PASS ? "PASS" : "FAIL");
	if (err != NULL)
		printf("  %s\n", err);
	test_dm_report_add(report, &rec);
}

void
test_dm_loopback_run(const struct test_dm_config *cfg, struct rte_mempool *mp,
		     struct test_dm_report *report)
{
	struct rte_pmd_mlx5dm_port_info info;
	struct test_dm_loopback_count n;
	uint16_t port, peer;
	char msg[256];
	double t0;

	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		if (test_dm_loopback_port_init(port, mp, msg, sizeof(msg)) != 0) {
			memset(&n, 0, sizeof(n));
			test_dm_loopback_record(report, port, port, &n, test_dm_now(), msg);
			return;
		}
	}
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		peer = test_dm_ports_peer(cfg, port);
		t0 = test_dm_now();
		if (test_dm_loopback_port(port, peer, mp, cfg, &n) < 0)
			test_dm_loopback_record(report, port, peer, &n, t0, "mbuf pool exhausted");
		else
			test_dm_loopback_record(report, port, peer, &n, t0, NULL);
	}
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		rte_eth_dev_stop(port);
	}
}
