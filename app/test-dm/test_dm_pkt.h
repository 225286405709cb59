/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_PKT_H_
#define _TEST_DM_PKT_H_

/*
 * Packets: a compact description language, a builder producing exact bytes
 * (lengths, checksums and next-protocol fields computed unless given), and a
 * decoder giving the header layout and field values of any packet.
 *
 *   eth(dst=02:00:00:00:00:01)/vlan(vid=5,pcp=3)/ipv4(src=10.0.0.1,ttl=64)
 *     /udp(sport=1000..1999)/vxlan(vni=42)/eth()/ipv6()/tcp(flags=SA)/payload(64)
 *
 * A field may take a range "a..b": packet number i of a series gets
 * a + i mod (b - a + 1) (integers and IPv4 addresses).
 */

#include <stddef.h>
#include <stdint.h>

#include "test_dm_text.h"

/** Largest packet the builder makes. */
#define TEST_DM_PKT_MAX 9216
/** Most headers the decoder records. */
#define TEST_DM_HDRS_MAX 24

enum test_dm_layer {
	TEST_DM_L_ETH,
	TEST_DM_L_VLAN,
	TEST_DM_L_IPV4,
	TEST_DM_L_IPV6,
	TEST_DM_L_TCP,
	TEST_DM_L_UDP,
	TEST_DM_L_ICMP,
	TEST_DM_L_ICMP6,
	TEST_DM_L_VXLAN,
	TEST_DM_L_GRE,
	TEST_DM_L_MPLS,
	TEST_DM_L_PAYLOAD,
	TEST_DM_L_COUNT,
};

/** How a field value is written and shown. */
enum test_dm_pkind {
	TEST_DM_PK_UINT,
	TEST_DM_PK_MAC,
	TEST_DM_PK_IPV4,
	TEST_DM_PK_IPV6,
	TEST_DM_PK_TCPFLAGS,	/**< Integer, also written as letters FSRPAUEC. */
};

/** Field placement flags. */
enum {
	/** Computed by the builder unless given (lengths, checksums, next protocol). */
	TEST_DM_PF_AUTO = 1,
	/** GRE optional field: present only when its flag bit is set. */
	TEST_DM_PF_GRE_OPT = 2,
	/** Another name for bits of a wider field (tci/vid): gets no default. */
	TEST_DM_PF_ALIAS = 4,
};

/** A header field. */
struct test_dm_pfield {
	const char *name;
	uint16_t bit;		/**< Offset in the header, bit 0 = MSB of byte 0. */
	uint16_t width;		/**< In bits. */
	uint8_t kind;		/**< enum test_dm_pkind */
	uint8_t flags;
	uint64_t def;		/**< Default value of an integer field. */
	const uint8_t *def_bytes; /**< Default value of an address field. */
};

/** A header type. */
struct test_dm_layer_desc {
	const char *name;
	enum test_dm_layer type;
	uint16_t len;		/**< Fixed length (GRE: without optional fields). */
	const struct test_dm_pfield *fields;
	unsigned int nb_fields;
	uint16_t ethertype;	/**< EtherType announcing this header (0: none). */
	uint8_t ipproto;	/**< IP protocol number announcing it (0: none). */
};

const struct test_dm_layer_desc *test_dm_layer_get(enum test_dm_layer type);
/** EtherType / GRE protocol that announces a header of type @p next (0 if none). */
uint16_t test_dm_layer_ethertype(enum test_dm_layer next);
/** IP protocol number that announces a header of type @p next (0 if none). */
uint8_t test_dm_layer_ipproto(enum test_dm_layer next);
const struct test_dm_layer_desc *test_dm_layer_find(const char *s, size_t len);
const struct test_dm_pfield *test_dm_pfield_find(const struct test_dm_layer_desc *d,
						 const char *s, size_t len);

/* ---- Description and builder ---- */

struct test_dm_pkt_tmpl;

/**
 * Parse a packet description from @p text (@p len bytes), whose first
 * character is at @p pos.
 *
 * @return 0 and *out, -EINVAL with @p err, -ENOMEM.
 */
int test_dm_pkt_parse(const char *text, size_t len, const struct test_dm_pos *pos,
		      struct test_dm_pkt_tmpl **out, struct test_dm_err *err);

/** Parse a NUL-terminated description (positions "file:line:1" onwards). */
int test_dm_pkt_parse_str(const char *text, const char *file, unsigned int line,
			  struct test_dm_pkt_tmpl **out, struct test_dm_err *err);

/**
 * Build packet number @p index of the series.
 *
 * @return its length, -E2BIG if longer than @p cap.
 */
int test_dm_pkt_build(const struct test_dm_pkt_tmpl *t, uint32_t index, uint8_t *buf,
		      size_t cap);

/** Longest range of @p t (1 without ranges): packets repeat after at most this many. */
uint64_t test_dm_pkt_variants(const struct test_dm_pkt_tmpl *t);

void test_dm_pkt_tmpl_free(struct test_dm_pkt_tmpl *t);

/* ---- Decoder ---- */

/** One decoded header. */
struct test_dm_hdr {
	enum test_dm_layer type;
	uint16_t off;
	uint16_t len;
};

/** A packet's header layout, outermost first. */
struct test_dm_pkt_info {
	struct test_dm_hdr h[TEST_DM_HDRS_MAX];
	unsigned int n;
	/** Offset of what follows the last decoded header. */
	uint16_t payload_off;
	/** The last header announced more than the packet holds. */
	uint8_t truncated;
};

/**
 * Decode headers the way the device parses them: Ethernet, VLAN tags
 * (0x8100, 0x88a8, 0x9100), IPv4 (not past a fragment), IPv6, TCP, UDP,
 * ICMP, ICMPv6, VXLAN on UDP port 4789, GRE (with C/K/S fields), MPLS (on
 * Ethernet, GRE or UDP port 6635) followed by IPv4/IPv6 guessed from the
 * version nibble.
 */
void test_dm_pkt_decode(const uint8_t *p, size_t len, struct test_dm_pkt_info *info);

/** Index in @p info of the @p nth (0 = outermost) header of @p type, or -1. */
int test_dm_pkt_find(const struct test_dm_pkt_info *info, enum test_dm_layer type,
		     unsigned int nth);

/** A field value as read from a packet. */
struct test_dm_fval {
	uint8_t kind;		/**< enum test_dm_pkind */
	uint64_t v;		/**< Integer fields. */
	uint8_t bytes[16];	/**< Address fields. */
	uint8_t nbytes;
};

/** A field reference "layer[nth].field", e.g. "ipv4.ttl", "eth[1].dst". */
struct test_dm_fref {
	const struct test_dm_layer_desc *layer;
	unsigned int nth;
	const struct test_dm_pfield *field;
};

/** Parse "layer[.field]" with optional "[nth]". @return 0 or -EINVAL. */
int test_dm_fref_parse(const char *s, size_t len, struct test_dm_fref *ref);

/**
 * Read a field from a decoded packet.
 *
 * @return 0, -ENOENT when the packet has no such header (or GRE field).
 */
int test_dm_pkt_field_read(const uint8_t *p, const struct test_dm_pkt_info *info,
			   const struct test_dm_fref *ref, struct test_dm_fval *out);

/** Write an integer/address field in place (for header rewrites). */
int test_dm_pkt_field_write(uint8_t *p, const struct test_dm_pkt_info *info,
			    const struct test_dm_fref *ref, const struct test_dm_fval *val);

/** Parse a value for @p f ("63", "0x3f", "10.0.0.1", "SA"...). @return 0 or -EINVAL. */
int test_dm_fval_parse(const struct test_dm_pfield *f, const char *s, size_t len,
		       struct test_dm_fval *out);

/** Print a value the way it is written ("63", "10.0.0.1", ...). */
void test_dm_fval_format(const struct test_dm_fval *v, char *buf, size_t size);

/** Bit offset of field @p f within header @p h of packet @p p (GRE options move). */
int test_dm_pfield_bit(const uint8_t *p, const struct test_dm_hdr *h,
		       const struct test_dm_pfield *f);

/* ---- Checksum and length repair (after a rewrite or an encapsulation) ---- */

/** Recompute the header checksum of the IPv4 header at @p ip. */
void test_dm_pkt_fix_ipv4_cksum(uint8_t *ip);

/**
 * Recompute the checksum of the TCP/UDP/ICMP/ICMPv6 header @p l4 carried
 * by @p ip (header @p l4 - 1 or earlier). A zero UDP checksum stays zero.
 */
void test_dm_pkt_fix_l4_cksum(uint8_t *p, size_t len, const struct test_dm_pkt_info *info,
			      unsigned int ip, unsigned int l4);

/**
 * Make the IPv4 total length, IPv6 payload length and UDP length of headers
 * [@p first, @p last] match the packet, and their IPv4 checksums valid.
 */
void test_dm_pkt_fix_lengths(uint8_t *p, size_t len, const struct test_dm_pkt_info *info,
			     unsigned int first, unsigned int last);

#endif /* _TEST_DM_PKT_H_ */
