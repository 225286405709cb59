/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Shared helpers of the steering integration tests (test_steer_*.c): the
 * library on a device model with an RX entry table and four receive
 * queues, an independent frame builder (headers, lengths and checksums
 * computed here from the protocol definitions, never by lib/ code), a
 * send-and-collect helper, match-parameter and modify-action writers that
 * follow the PRM layouts, and ICM accounting checks.
 *
 * SIM_TRACE=1 in the environment prints the model's walk of every frame.
 */

#ifndef _STEER_TEST_ENV_H_
#define _STEER_TEST_ENV_H_

#include <stdbool.h>
#include <stdint.h>

#include "dp_test_util.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_steer.h"

#define SENV_NB_RQ 4

struct senv {
	struct mlx5dm_dev *dev;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *rx;
	struct mlx5dm_domain *tx;
	struct mlx5dm_table *tbl;               /* RX level 1, the RX entry table */
	struct mlx5dm_rq *rq[SENV_NB_RQ];
	uint32_t rqn[SENV_NB_RQ];
	struct mlx5dm_tir *tir[SENV_NB_RQ];
	struct mlx5dm_action *to_q[SENV_NB_RQ]; /* RX: deliver to RQ i */
	struct mlx5dm_ctx_stats open_stats;     /* right after mlx5dm_ctx_open() */
	struct dp dp;                           /* an SQ and the RQs' posted buffers */
};

/* Open a model, a context with nb_queues rule queues, both NIC domains, RX entry table. */
struct senv *senv_open(uint16_t nb_queues);
/* Same on a model configured by cfg (NULL: defaults). */
struct senv *senv_open_cfg(uint16_t nb_queues, const struct mlx5dm_sim_config *cfg);
struct senv *senv_open_ex(const struct mlx5dm_ctx_attr *cattr,
			  const struct mlx5dm_sim_config *cfg);
/* Same on the model dattr opens (its transport "sim"). */
struct senv *senv_open_dev(const struct mlx5dm_dev_attr *dattr,
			   const struct mlx5dm_ctx_attr *cattr);
/*
 * Destroy everything senv_open() made; the test must have removed its own
 * objects. Before the domains go, asserts that the ICM in use per type is
 * back at its value right after mlx5dm_ctx_open() (nothing hot, no table,
 * matcher or rule left).
 */
void senv_close(struct senv *e);
/* The same without the checks that need a sync (a rule queue's ring failed). */
void senv_close_failed(struct senv *e);

/* ---- frames ---- */

#define FRAME_HEADROOM 128
#define FRAME_MAX 512

/* One header stack: Ethernet (optional), VLANs, MPLS, IPv4/IPv6, TCP/UDP/ICMP. */
struct hdrs {
	bool no_l2;                /* starts at the IP header (GRE payload) */
	uint64_t dmac, smac;
	uint8_t nb_vlan;
	uint16_t vlan_tpid[2];
	uint16_t vlan_tci[2];
	uint16_t ethertype;        /* only when l3 == 0 and no MPLS */
	uint8_t nb_mpls;
	uint32_t mpls[4];          /* label << 12 | exp << 9 | ttl (S set on the last) */
	uint8_t l3;                /* 0, 4 or 6 */
	uint32_t sip, dip;         /* IPv4 */
	uint8_t sip6[16], dip6[16];
	uint8_t tos;               /* DSCP << 2 | ECN (IPv4 TOS / IPv6 traffic class) */
	uint8_t ttl;               /* TTL / hop limit */
	uint8_t proto;             /* 6, 17, 1, 58, 47 (GRE: the tunnel), ... */
	uint32_t flow_label;
	uint16_t ip_id;
	uint16_t frag_off;         /* IPv4 flags | fragment offset (0x2000 = MF) */
	uint16_t sport, dport;
	uint16_t tcp_flags;        /* 9 bits, NS..FIN */
	uint32_t seq, ack;
	uint8_t icmp_type, icmp_code;
	uint32_t icmp_data;
	bool udp_csum_zero;        /* send UDP without checksum (IPv4 only) */
};

enum tnl_kind {
	TNL_NONE,
	TNL_VXLAN,                 /* outer must be UDP; dport is forced to 4789 */
	TNL_GRE,                   /* outer proto is forced to 47 */
};

struct pkt {
	struct hdrs o;
	enum tnl_kind tnl;
	uint32_t vni;
	uint16_t gre_proto;        /* 0: 0x6558 with an inner L2, else by inner l3 */
	bool gre_key_present;
	uint32_t gre_key;
	struct hdrs in;
	uint16_t payload;          /* bytes of payload after the innermost header */
};

struct frame {
	uint8_t b[FRAME_MAX];
	uint16_t len;
};

/* Outer Eth/IPv4/UDP 10.0.0.1:1000 -> 10.0.0.2:2000, TTL 64, 18 bytes of payload. */
void pkt_udp4(struct pkt *p);
/* Eth/IPv6/UDP 2001:db8::1 -> 2001:db8::2, hop limit 64. */
void pkt_udp6(struct pkt *p);
/* Turn p's outer L4 into TCP (flags ACK, seq/ack set). */
void pkt_tcp(struct hdrs *h);
/* VXLAN over p's outer (IPv4/UDP): inner = Eth/IPv4/UDP with other addresses. */
void pkt_vxlan(struct pkt *p, uint32_t vni);
void ipv6_addr(uint8_t *a, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3);

/* Build p into f: lengths, IPv4 header and L4 checksums computed from scratch. */
void frame_build(struct frame *f, const struct pkt *p);
/* Just one header stack + payload (e.g. an encap header or an inner frame). */
uint16_t stack_build(uint8_t *out, const struct hdrs *h, const uint8_t *payload,
		     uint16_t payload_len);
/* Internet checksum (ones' complement sum folded and inverted) of buf. */
uint16_t inet_csum(const uint8_t *buf, unsigned int len, uint32_t sum);

/* ---- sending ---- */

struct rx {
	int q;                     /* RQ index 0..3 (or the index in rqn of senv_send_rqs) */
	uint8_t b[FRAME_MAX + FRAME_HEADROOM];
	uint16_t len;
	uint16_t flags;
	uint32_t flow_tag;
	uint32_t rss_hash;
};

#define RX_DROPPED (-1)

/*
 * Send f through port 0 (NIC TX, wire, NIC RX). Returns the index of the
 * env RQ it arrived on, or RX_DROPPED; out (may be NULL) gets the frame.
 */
int senv_send(struct senv *e, const struct frame *f, struct rx *out);
/* The frame of p, sent as senv_send() (the frame is not kept). */
int senv_send_pkt(struct senv *e, const struct pkt *p);
/* Same, looking for the frame on the nb RQs of rqns[] instead of the env RQs. */
int senv_send_rqs(struct senv *e, const struct frame *f, const uint32_t *rqns, unsigned int nb,
		  struct rx *out);
/* Assert that out carries exactly the bytes of want. */
void rx_assert_bytes(const struct rx *out, const struct frame *want);
struct mlx5dm_dev_port_stats senv_port_stats(struct senv *e);

/* ---- match parameters ---- */

#define MP_SIZE MLX5DM_MATCH_PARAM_SIZE
#define CRIT(sec) ((uint8_t)MLX5DM_FTE_CRITERIA(sec))

static inline void
mp_set(uint8_t *p, enum mlx5dm_fte_field f, uint32_t v)
{
	mlx5dm_fte_set(p, f, v);
}

/* A 48-bit MAC into its _47_16/_15_0 pair. */
void mp_mac(uint8_t *p, enum mlx5dm_fte_field hi, uint64_t mac);
/* An IPv6 address into its four dwords (first = the _127_96 field). */
void mp_ip6(uint8_t *p, enum mlx5dm_fte_field first, const uint8_t *a);

/* A flow key over dmac | TTL | IPv4 5-tuple: three lookups (ETHL2, IPV4_MISC, 5-tuple). */
struct fkey {
	uint64_t dmac;
	uint8_t ttl;
	bool tcp;
	uint32_t sip, dip;
	uint16_t sport, dport;
};

void fkey_mask(uint8_t *m);
void fkey_value(const struct fkey *k, uint8_t *v);
/* The Eth/IPv4/UDP-or-TCP frame of k (otherwise as pkt_udp4). */
void fkey_frame(const struct fkey *k, struct frame *f);

/* Create a matcher; asserts success. */
struct mlx5dm_matcher *senv_matcher(struct mlx5dm_table *tbl, uint16_t prio, uint8_t criteria,
				    const uint8_t *mask, uint32_t log_hint);
/* Insert a rule; asserts success. */
struct mlx5dm_rule *senv_rule(struct mlx5dm_matcher *m, uint16_t queue, const uint8_t *value,
			      size_t n, struct mlx5dm_action *const acts[]);

/* Destroy actions (asserting each goes): DESTROY_ACTIONS(a, b, c). */
void destroy_actions(struct mlx5dm_action *const a[], unsigned int n);
#define DESTROY_ACTIONS(...) \
	destroy_actions((struct mlx5dm_action *const[]){ __VA_ARGS__ }, \
			sizeof((struct mlx5dm_action *const[]){ __VA_ARGS__ }) / \
			sizeof(struct mlx5dm_action *))

/* ---- modify-header actions (PRM set/add/copy_action_in, written here) ---- */

#define MOD_SIZE 8

void mod_set(uint8_t *a, uint16_t field, uint8_t offset, uint8_t length, uint32_t data);
void mod_add(uint8_t *a, uint16_t field, uint32_t data);
void mod_copy(uint8_t *a, uint16_t src, uint8_t src_off, uint16_t dst, uint8_t dst_off,
	      uint8_t length);

/* ---- accounting ---- */

/* SW|HW|MEM sync of both domains. */
void senv_sync(struct senv *e);
struct mlx5dm_ctx_stats senv_stats(struct senv *e);
/* Assert ICM used bytes of every type are equal in a and b. */
void assert_icm_equal(const struct mlx5dm_ctx_stats *a, const struct mlx5dm_ctx_stats *b);

/* ---- randomness (deterministic) ---- */

uint64_t rnd_next(uint64_t *s);

#endif /* _STEER_TEST_ENV_H_ */
