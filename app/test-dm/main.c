/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * dpdk-test-dm: validates net_mlx5dm by loopback traffic.
 *
 * Default mode: the "loopback" check on every net_mlx5dm port: it sends
 * numbered Ether/IPv4/UDP packets and verifies that each arrives, byte for
 * byte, on the port at the other end of the wire.
 *
 * --check mode: runs case files (doc/guides/tools/testdm.rst) on the
 * reference classifier, which checks the cases themselves.
 * --run mode: runs case files on the net_mlx5dm ports through ethdev and
 * rte_flow.
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <rte_pmd_mlx5dm.h>

#include "test_dm_ethdev_runner.h"
#include "test_dm_ref.h"
#include "test_dm_runner.h"
#include "test_dm_suite.h"

#define TEST_DM_DESC 512
#define TEST_DM_BURST 32
#define TEST_DM_PKT_LEN 128

struct test_dm_config {
	unsigned int packets;
	bool verbose;
	/* --check / --run: case files to run on the reference classifier / the ports. */
	bool check;
	bool run;
	unsigned int wait_us;
	char **cases;
	unsigned int nb_cases;
	const char *pcap_dir;
};

struct test_dm_result {
	unsigned int passed;
	unsigned int failed;
};

static void
test_dm_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [--packets N] [--verbose]\n"
	       "       %s [EAL options] -- --check|--run [--pcap-dir DIR] [--verbose] CASE...\n"
	       "  --packets N     packets per port for the loopback check (default 256)\n"
	       "  --verbose       print every packet check / every passed expectation\n"
	       "  --check         run the case files on the reference classifier\n"
	       "  --run           run the case files on the net_mlx5dm ports\n"
	       "  --wait-us N     --run: time a packet has to arrive (default 20000)\n"
	       "  --pcap-dir DIR  write what failing sends sent and received there\n",
	       prog, prog);
}

static int
test_dm_parse_args(int argc, char **argv, struct test_dm_config *cfg)
{
	static const struct option opts[] = {
		{ "packets", required_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "check", no_argument, NULL, 'c' },
		{ "run", no_argument, NULL, 'r' },
		{ "wait-us", required_argument, NULL, 'w' },
		{ "pcap-dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			cfg->packets = (unsigned int)strtoul(optarg, &end, 10);
			if (*end != '\0' || cfg->packets == 0 || cfg->packets > 1000000) {
				fprintf(stderr, "test-dm: --packets %s: expected 1..1000000\n",
					optarg);
				return -1;
			}
			break;
		case 'v':
			cfg->verbose = true;
			break;
		case 'c':
			cfg->check = true;
			break;
		case 'r':
			cfg->run = true;
			break;
		case 'w':
			cfg->wait_us = (unsigned int)strtoul(optarg, &end, 10);
			if (*end != '\0' || cfg->wait_us == 0 || cfg->wait_us > 10000000) {
				fprintf(stderr, "test-dm: --wait-us %s: expected 1..10000000\n",
					optarg);
				return -1;
			}
			break;
		case 'd':
			cfg->pcap_dir = optarg;
			break;
		case 'h':
			test_dm_usage(argv[0]);
			exit(0);
		default:
			test_dm_usage(argv[0]);
			return -1;
		}
	}
	cfg->cases = argv + optind;
	cfg->nb_cases = (unsigned int)(argc - optind);
	if (cfg->check && cfg->run) {
		fprintf(stderr, "test-dm: --check and --run exclude each other\n");
		return -1;
	}
	if (cfg->nb_cases != 0 && !cfg->check && !cfg->run) {
		fprintf(stderr, "test-dm: case files need --check or --run\n");
		return -1;
	}
	if ((cfg->check || cfg->run) && cfg->nb_cases == 0) {
		fprintf(stderr, "test-dm: --check and --run need case files\n");
		return -1;
	}
	return 0;
}

/*
 * Run the case files on the reference classifier (every port looped to
 * itself) or, with an mbuf pool, on the net_mlx5dm ports.
 */
static int
test_dm_run_cases(const struct test_dm_config *cfg, struct rte_mempool *mp)
{
	struct test_dm_run_opts opts = {
		.log = stdout,
		.verbose = cfg->verbose,
		.out_dir = cfg->pcap_dir,
	};
	struct test_dm_ethdev_runner *er = NULL;
	struct test_dm_ref_runner *rr = NULL;
	struct test_dm_suite_result res;

	if (mp != NULL)
		er = test_dm_ethdev_runner_new(mp, cfg->wait_us);
	else
		rr = test_dm_ref_runner_new(TEST_DM_REF_MAX_PORTS, NULL);
	if (er == NULL && rr == NULL) {
		fprintf(stderr, "test-dm: out of memory\n");
		return 1;
	}
	if (er != NULL)
		test_dm_suite_run(&test_dm_ethdev_runner_ops, er, cfg->cases, cfg->nb_cases,
				  &opts, stdout, &res);
	else
		test_dm_suite_run(&test_dm_ref_runner_ops, rr, cfg->cases, cfg->nb_cases, &opts,
				  stdout, &res);
	test_dm_ethdev_runner_free(er);
	test_dm_ref_runner_free(rr);
	printf("%u passed, %u failed\n", res.passed, res.failed);
	return res.failed == 0 ? 0 : 1;
}

static int
test_dm_port_init(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf = { 0 };
	int ret;

	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, TEST_DM_DESC, rte_eth_dev_socket_id(port),
					     NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, TEST_DM_DESC, rte_eth_dev_socket_id(port),
					     NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret != 0)
		fprintf(stderr, "test-dm: port %u: set-up failed: %s\n", port, strerror(-ret));
	return ret;
}

/* Fill an Ether/IPv4/UDP packet whose payload carries its sequence number. */
static void
test_dm_build(uint8_t *p, uint16_t port, uint32_t seq)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint8_t *payload = (uint8_t *)(udp + 1);
	unsigned int i, plen = TEST_DM_PKT_LEN - (unsigned int)(payload - p);

	memset(p, 0, TEST_DM_PKT_LEN);
	rte_eth_macaddr_get(port, &eth->src_addr);
	eth->dst_addr = eth->src_addr;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(TEST_DM_PKT_LEN - sizeof(*eth));
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

static bool
test_dm_loopback(uint16_t port, uint16_t peer, struct rte_mempool *mp,
		 const struct test_dm_config *cfg)
{
	uint8_t expect[TEST_DM_PKT_LEN];
	struct rte_mbuf *tx[TEST_DM_BURST], *rx[TEST_DM_BURST];
	unsigned int sent = 0, received = 0, bad = 0;
	uint64_t deadline;

	while (sent < cfg->packets) {
		unsigned int n = RTE_MIN((unsigned int)TEST_DM_BURST, cfg->packets - sent), i;

		for (i = 0; i < n; i++) {
			tx[i] = rte_pktmbuf_alloc(mp);
			if (tx[i] == NULL) {
				rte_pktmbuf_free_bulk(tx, i);
				fprintf(stderr, "test-dm: mbuf pool exhausted\n");
				return false;
			}
			test_dm_build((uint8_t *)rte_pktmbuf_append(tx[i], TEST_DM_PKT_LEN),
				      port, sent + i);
		}
		i = rte_eth_tx_burst(port, 0, tx, (uint16_t)n);
		rte_pktmbuf_free_bulk(tx + i, n - i);
		sent += n;
		/* Receive as we go so the Rx ring never overflows. */
		deadline = rte_get_timer_cycles() + rte_get_timer_hz();
		while (received < sent && rte_get_timer_cycles() < deadline) {
			uint16_t k, nb = rte_eth_rx_burst(peer, 0, rx, TEST_DM_BURST);

			for (k = 0; k < nb; k++) {
				test_dm_build(expect, port, received);
				if (rx[k]->pkt_len != TEST_DM_PKT_LEN ||
				    memcmp(rte_pktmbuf_mtod(rx[k], void *), expect,
					   TEST_DM_PKT_LEN) != 0) {
					bad++;
					if (cfg->verbose)
						printf("  packet %u: bytes differ\n", received);
				}
				received++;
			}
			rte_pktmbuf_free_bulk(rx, nb);
		}
	}
	printf("loopback port %u -> port %u: sent %u, received %u, corrupted %u: %s\n",
	       port, peer, sent, received, bad,
	       received == sent && bad == 0 ? "PASS" : "FAIL");
	return received == sent && bad == 0;
}

int
main(int argc, char **argv)
{
	struct test_dm_config cfg = { .packets = 256, .wait_us = 20000 };
	struct test_dm_result res = { 0 };
	struct rte_pmd_mlx5dm_port_info info;
	struct rte_mempool *mp;
	uint16_t port;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "test-dm: EAL initialisation failed\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (test_dm_parse_args(argc, argv, &cfg) < 0)
		goto fail;
	if (cfg.check) {
		ret = test_dm_run_cases(&cfg, NULL);
		rte_eal_cleanup();
		return ret;
	}
	mp = rte_pktmbuf_pool_create("test_dm_pool", 4096, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     (int)rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "test-dm: cannot create mbuf pool\n");
		goto fail;
	}
	if (cfg.run) {
		ret = test_dm_run_cases(&cfg, mp);
		rte_mempool_free(mp);
		rte_eal_cleanup();
		return ret;
	}
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		if (test_dm_port_init(port, mp) != 0)
			goto fail;
	}
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		if (test_dm_loopback(port, info.peer_port_id, mp, &cfg))
			res.passed++;
		else
			res.failed++;
	}
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	if (res.passed + res.failed == 0) {
		fprintf(stderr, "test-dm: no net_mlx5dm port (add --vdev net_mlx5dm0)\n");
		res.failed++;
	}
	printf("%u passed, %u failed\n", res.passed, res.failed);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return res.failed == 0 ? 0 : 1;
fail:
	rte_eal_cleanup();
	return 1;
}
