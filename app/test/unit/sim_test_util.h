/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Helpers of the engine tests: STE images written field by field at the
 * bit offsets of mlx5_ifc.h ste_match_bwc_v1 (the test's own reading of the
 * layout, not the engine's tables), an independent bitwise CRC for hash
 * indexes, a frame builder with correct lengths and checksums, and
 * independent checksum verifiers.
 */

#ifndef _SIM_TEST_UTIL_H_
#define _SIM_TEST_UTIL_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_prm_bits.h"
#include "sim_fake_core.h"

/* ---- STEs ---- */

/* One STE as fields; t_ste_put() lays it out as the device image. */
struct t_ste {
	uint8_t fmt;         /* entry_format: 0/1 BWC, 2 MATCH (12 B actions), 4 definer */
	uint8_t ctx;         /* match_definer_ctx_idx: own lookup index */
	uint32_t counter;
	uint64_t miss;       /* full miss address (GVMI bits included) */
	bool reparse;
	uint64_t hit;        /* next table base (GVMI bits included) */
	uint32_t hit_size;   /* entries of the next table (0: no hit pointer) */
	uint16_t next_lu;
	uint16_t byte_mask;
	uint8_t act[12];     /* BWC uses the first 8 */
	uint8_t mask[16];
	uint8_t tag[32];     /* BWC/MATCH: 16 B; definer: 32 B */
};

/* A BWC STE of lookup type lu. */
void t_ste_init(struct t_ste *s, uint16_t lu);
void t_ste_image(const struct t_ste *s, uint8_t out[64]);
void t_ste_put(struct mlx5dm_sim *sim, uint64_t addr, const struct t_ste *s);
/* Anchor-style STEs: always-hit to a table, always-miss to an address. */
void t_ste_put_hit(struct mlx5dm_sim *sim, uint64_t addr, uint64_t next, uint32_t size,
		   uint16_t next_lu, uint16_t byte_mask);
void t_ste_put_miss(struct mlx5dm_sim *sim, uint64_t addr, uint16_t lu, uint64_t miss);

/* Bitwise CRC-32 (reflected 0xEDB88320, seed 0, no xor-out) then bswap32. */
uint32_t t_crc_bswap(const uint8_t *buf, unsigned int len);
/* Slot of a tag in a table of size entries hashed with byte_mask. */
uint32_t t_slot(const uint8_t tag[16], uint16_t byte_mask, uint32_t size);
/* byte_mask of a 16-byte bit mask: bit 15 - i set when mask byte i is 0xff. */
uint16_t t_byte_mask(const uint8_t mask[16]);

/* Action slot helpers (mlx5_ifc.h ste_*_action_*_v1). */
void t_act_flow_tag(uint8_t *a, uint32_t tag);
void t_act_set(uint8_t *a, uint8_t dw, unsigned int pos, unsigned int len, uint32_t data);
void t_act_add(uint8_t *a, uint8_t dw, unsigned int pos, unsigned int len, uint32_t data);
void t_act_copy(uint8_t *a, uint8_t dst, unsigned int dpos, unsigned int len, uint8_t src,
		unsigned int spos);
void t_act_modify_list(uint8_t *a, unsigned int n, uint16_t line);
void t_act_accel_list(uint8_t *a, uint32_t pattern, unsigned int n, uint32_t arg);
void t_act_remove_hdr(uint8_t *a, unsigned int start, unsigned int end, bool decap);
void t_act_remove_size(uint8_t *a, unsigned int anchor, unsigned int off_words,
		       unsigned int size_words);
void t_act_insert_inline(uint8_t *a, unsigned int anchor, unsigned int off_words,
			 uint32_t data);
void t_act_insert_ptr(uint8_t *a, unsigned int anchor, unsigned int off_words,
		      unsigned int size_words, unsigned int attr, uint32_t ptr);

/* ---- frames ---- */

#define TP_HEAD 64
#define TP_MAX 400

struct tpkt {
	uint8_t mem[TP_HEAD + TP_MAX + 64];
	unsigned int len;
	struct {
		uint8_t kind;   /* 4, 6 (IP), 17 (UDP), 6 + 100 (TCP) */
		unsigned int off;
		int ip;         /* for L4: index of the enclosing IP fixup */
		bool csum;      /* UDP: compute a checksum (else 0) */
	} fix[8];
	unsigned int nb_fix;
	struct mlx5dm_sim_pkt pkt;
};

void tp_init(struct tpkt *t);
void tp_bytes(struct tpkt *t, const void *b, unsigned int n);
void tp_u16(struct tpkt *t, uint16_t v);
void tp_u32(struct tpkt *t, uint32_t v);
void tp_eth(struct tpkt *t, uint64_t dmac, uint64_t smac, uint16_t et);
void tp_vlan(struct tpkt *t, uint16_t tci, uint16_t next_et);
void tp_ipv4(struct tpkt *t, uint32_t src, uint32_t dst, uint8_t proto, uint8_t ttl, uint8_t tos);
void tp_ipv6(struct tpkt *t, const uint8_t src[16], const uint8_t dst[16], uint8_t nh,
	     uint8_t hop_limit);
void tp_udp(struct tpkt *t, uint16_t sport, uint16_t dport, bool csum);
void tp_tcp(struct tpkt *t, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
	    uint16_t flags);
void tp_payload(struct tpkt *t, unsigned int n);
/* Fill lengths and checksums (innermost first); the frame is in t->pkt. */
struct mlx5dm_sim_pkt *tp_finish(struct tpkt *t);

/* Independent checks of a frame region. */
bool t_ipv4_csum_ok(const uint8_t *ip);
/* L4 checksum of [l4, end) with the pseudo header of the IP header at ip. */
bool t_l4_csum_ok(const uint8_t *ip, const uint8_t *l4, unsigned int l4_len, uint8_t proto);

#endif /* _SIM_TEST_UTIL_H_ */
