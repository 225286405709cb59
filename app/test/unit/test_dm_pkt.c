/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet builder and decoder. Expected bytes are written out field by field
 * from the protocol layouts; checksums are either written out (values
 * cross-checked with scapy 2.5) or computed here by a separate, plain
 * implementation (sum all 16-bit words in 64 bits, fold once).
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>

#include "test_dm_pkt.h"

static uint8_t pkt[TEST_DM_PKT_MAX];

/* RFC 1071 checksum over the concatenation of up to two buffers. */
static uint16_t
ref_cksum(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	uint8_t all[2048];
	uint64_t sum = 0;
	size_t i, n = alen + blen;

	memcpy(all, a, alen);
	if (blen != 0)
		memcpy(all + alen, b, blen);
	if (n & 1)
		all[n++] = 0;
	for (i = 0; i < n; i += 2)
		sum += (uint64_t)all[i] << 8 | all[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The IPv4 pseudo-header for a segment of len bytes. */
static size_t
pseudo4(uint8_t *ph, const uint8_t *ip, uint8_t proto, size_t len)
{
	memcpy(ph, ip + 12, 8);
	ph[8] = 0;
	ph[9] = proto;
	ph[10] = (uint8_t)(len >> 8);
	ph[11] = (uint8_t)len;
	return 12;
}

static size_t
pseudo6(uint8_t *ph, const uint8_t *ip, uint8_t proto, size_t len)
{
	memcpy(ph, ip + 8, 32);
	memset(ph + 32, 0, 8);
	ph[34] = (uint8_t)(len >> 8);
	ph[35] = (uint8_t)len;
	ph[39] = proto;
	return 40;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static int
build(const char *desc, uint32_t index)
{
	struct test_dm_pkt_tmpl *t = NULL;
	struct test_dm_err err;
	int n;

	if (test_dm_pkt_parse_str(desc, "t", 1, &t, &err) != 0)
		print_error("%s\n", err.msg);
	assert_non_null(t);
	n = test_dm_pkt_build(t, index, pkt, sizeof(pkt));
	test_dm_pkt_tmpl_free(t);
	assert_true(n > 0);
	return n;
}

static void
test_udp_defaults(void **state)
{
	static const uint8_t want[46] = {
		/* eth: dst, src, type IPv4 */
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
		/* ipv4: 4/5, tos 0, len 32, id 0, frag 0, ttl 64, proto 17, cksum 0x66cb */
		0x45, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x40, 0x11, 0x66, 0xcb,
		10, 0, 0, 1, 10, 0, 0, 2,
		/* udp: 1024 -> 1024, len 12, cksum 0xe1cf */
		0x04, 0x00, 0x04, 0x00, 0x00, 0x0c, 0xe1, 0xcf,
		/* payload(4): counting bytes */
		0x00, 0x01, 0x02, 0x03,
	};
	uint8_t ph[12];
	int n;

	(void)state;
	n = build("eth()/ipv4()/udp()/payload(4)", 0);
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(pkt, want, sizeof(want));
	/* Same checksums by the plain implementation. */
	assert_int_equal(ref_cksum(want + 14, 20, NULL, 0), 0);
	pseudo4(ph, want + 14, 17, 12);
	assert_int_equal(ref_cksum(ph, 12, want + 34, 12), 0);
	/* Parentheses are optional and blanks allowed. */
	assert_int_equal(build("eth / ipv4 ( ) / udp /\n payload( 4 )", 0), sizeof(want));
	assert_memory_equal(pkt, want, sizeof(want));
}

static void
test_vxlan_ipv6_tcp(void **state)
{
	/* Cross-checked with scapy: Ether/Dot1Q(vlan=5,prio=3)/IP/UDP(1003,4789)/VXLAN(vni=42)/
	 * Ether/IPv6(fd00::1 > fd00::2)/TCP(flags="SA", window=8192)/bytes(range(8)). */
	static const char hex[] =
		"0200000000010200000000018100600508004500007600000000401166750a0000010a000002"
		"03eb12b50062b16c0800000000002a0002000000000202000000000186dd60000000001c0640"
		"fd000000000000000000000000000001fd000000000000000000000000000002040000500000"
		"00000000000050122000856600000001020304050607";
	uint8_t want[136];
	unsigned int i, v;
	int n;

	(void)state;
	for (i = 0; i < sizeof(want); i++) {
		sscanf(hex + 2 * i, "%2x", &v);
		want[i] = (uint8_t)v;
	}
	/* Packet 3 of the series: sport = 1000 + 3. */
	n = build("eth(dst=02:00:00:00:00:01)/vlan(vid=5,pcp=3)/ipv4(src=10.0.0.1,ttl=64)/"
		  "udp(sport=1000..1999)/vxlan(vni=42)/eth()/ipv6()/tcp(flags=SA)/payload(8)", 3);
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(pkt, want, sizeof(want));
}

static void
test_gre_key_icmp(void **state)
{
	uint8_t want[70];
	int n;

	(void)state;
	memset(want, 0, sizeof(want));
	memcpy(want, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00", 14);
	/* outer ipv4: len 56, ttl 64, proto 47 */
	memcpy(want + 14, "\x45\x00\x00\x38\0\0\0\0\x40\x2f\0\0\x0a\0\0\x01\x0a\0\0\x02", 20);
	/* gre: K set, protocol IPv4, key 5 */
	memcpy(want + 34, "\x20\x00\x08\x00\x00\x00\x00\x05", 8);
	/* inner ipv4: len 28, proto 1 */
	memcpy(want + 42, "\x45\x00\x00\x1c\0\0\0\0\x40\x01\0\0\x0a\0\0\x01\x0a\0\0\x02", 20);
	/* icmp echo request: type 8, code 0 */
	want[62] = 8;
	put16(want + 64, ref_cksum(want + 62, 8, NULL, 0));
	put16(want + 42 + 10, ref_cksum(want + 42, 20, NULL, 0));
	put16(want + 14 + 10, ref_cksum(want + 14, 20, NULL, 0));
	n = build("eth/ipv4/gre(key=5)/ipv4/icmp", 0);
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(pkt, want, sizeof(want));
	/* ...and the values scapy gives for these checksums (its IP id is 1: +1 here). */
	assert_int_equal(want[24] << 8 | want[25], 0x6695);
	assert_int_equal(want[64] << 8 | want[65], 0xf7ff);
}

static void
test_gre_options(void **state)
{
	uint8_t want[14 + 20 + 16 + 14];
	int n;

	(void)state;
	memset(want, 0, sizeof(want));
	memcpy(want, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00", 14);
	memcpy(want + 14, "\x45\x00\x00\x32\0\0\0\0\x40\x2f\0\0\x0a\0\0\x01\x0a\0\0\x02", 20);
	put16(want + 24, ref_cksum(want + 14, 20, NULL, 0));
	/* C, K, S: checksum + reserved, key, sequence; protocol 0x6558 before Ethernet */
	memcpy(want + 34, "\xb0\x00\x65\x58\0\0\0\0\x00\x00\x00\x07\x00\x00\x00\x09", 16);
	memcpy(want + 50, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x88\xb5", 14);
	put16(want + 38, ref_cksum(want + 34, 30, NULL, 0));
	n = build("eth/ipv4/gre(c=1,key=7,seq=9)/eth", 0);
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(pkt, want, sizeof(want));
}

static void
test_mpls_and_qinq(void **state)
{
	static const uint8_t mpls[8] = {
		/* label 100, tc 0, s 0, ttl 64 | label 200, s 1, ttl 64 */
		0x00, 0x06, 0x40, 0x40, 0x00, 0x0c, 0x81, 0x40,
	};
	int n;

	(void)state;
	n = build("eth/mpls(label=100)/mpls(label=200)/ipv4/udp", 0);
	assert_int_equal(n, 14 + 8 + 20 + 8);
	assert_int_equal(pkt[12] << 8 | pkt[13], 0x8847);
	assert_memory_equal(pkt + 14, mpls, 8);
	assert_int_equal(pkt[22], 0x45);

	n = build("eth/vlan(vid=100,pcp=7)/vlan(vid=200,dei=1)/ipv6/udp(dport=53)", 0);
	assert_int_equal(n, 14 + 4 + 4 + 40 + 8);
	assert_int_equal(pkt[12] << 8 | pkt[13], 0x8100);
	assert_int_equal(pkt[14] << 8 | pkt[15], 0xe064);
	assert_int_equal(pkt[16] << 8 | pkt[17], 0x8100);
	assert_int_equal(pkt[18] << 8 | pkt[19], 0x10c8);
	assert_int_equal(pkt[20] << 8 | pkt[21], 0x86dd);
	/* ipv6 payload length 8, next header 17, udp over ipv6 checksum */
	assert_int_equal(pkt[26] << 8 | pkt[27], 8);
	assert_int_equal(pkt[28], 17);

	/* MPLS over UDP: destination port 6635. */
	n = build("eth/ipv4/udp/mpls(label=1)/ipv6", 0);
	assert_int_equal(pkt[36] << 8 | pkt[37], 6635);
	/* label 1, s 1, ttl 64 at offset 42 */
	assert_int_equal(pkt[42], 0x00);
	assert_int_equal(pkt[43], 0x00);
	assert_int_equal(pkt[44], 0x11);
	assert_int_equal(pkt[45], 0x40);
	assert_int_equal(n, 14 + 20 + 8 + 4 + 40);
}

static void
test_l4_checksums(void **state)
{
	uint8_t ph[40];
	size_t plen;
	int n;

	(void)state;
	n = build("eth/ipv4(src=192.168.1.1,dst=172.16.0.9)/tcp(sport=40000,dport=443,seq=7,"
		  "ack=9,flags=PA,win=1000)/payload(hex=68656c6c6f)", 0);
	assert_int_equal(n, 14 + 20 + 20 + 5);
	assert_int_equal(pkt[47], 0x18);
	assert_int_equal(pkt[46], 0x50);
	plen = pseudo4(ph, pkt + 14, 6, 25);
	assert_int_equal(ref_cksum(ph, plen, pkt + 34, 25), 0);
	assert_memory_equal(pkt + 54, "hello", 5);

	n = build("eth/ipv6(src=2001:db8::1,dst=2001:db8::2,hlim=255)/icmp6(type=135)/"
		  "payload(len=16,fill=0xab)", 0);
	assert_int_equal(n, 14 + 40 + 8 + 16);
	assert_int_equal(pkt[20], 58);
	assert_int_equal(pkt[21], 255);
	assert_int_equal(pkt[54], 135);
	assert_int_equal(pkt[70], 0xab);
	plen = pseudo6(ph, pkt + 14, 58, 24);
	assert_int_equal(ref_cksum(ph, plen, pkt + 54, 24), 0);

	n = build("eth/ipv6/udp/payload(3)", 0);
	plen = pseudo6(ph, pkt + 14, 17, 11);
	assert_int_equal(ref_cksum(ph, plen, pkt + 54, 11), 0);
}

static void
test_explicit_overrides(void **state)
{
	int n;

	(void)state;
	n = build("eth(type=0x0800)/ipv4(len=99,cksum=0x1234,proto=99,ihl=5,df=1,ttl=1)/"
		  "udp(cksum=0,len=3)", 0);
	assert_int_equal(n, 42);
	assert_int_equal(pkt[16] << 8 | pkt[17], 99);
	assert_int_equal(pkt[20], 0x40);
	assert_int_equal(pkt[22], 1);
	assert_int_equal(pkt[23], 99);
	assert_int_equal(pkt[24] << 8 | pkt[25], 0x1234);
	assert_int_equal(pkt[38] << 8 | pkt[39], 3);
	assert_int_equal(pkt[40] << 8 | pkt[41], 0);
	/* Sub-fields and the whole byte: dscp 46 -> tos 0xb8, ecn 1. */
	build("eth/ipv4(dscp=46,ecn=1)", 0);
	assert_int_equal(pkt[15], 0xb9);
	/* Nothing after eth: the experimental EtherType 0x88b5. */
	n = build("eth(src=00:11:22:33:44:55)", 0);
	assert_int_equal(n, 14);
	assert_int_equal(pkt[11], 0x55);
	assert_int_equal(pkt[12] << 8 | pkt[13], 0x88b5);
}

static void
test_ranges(void **state)
{
	static const uint16_t sports[] = { 10, 11, 12, 10, 11 };
	struct test_dm_pkt_tmpl *t;
	struct test_dm_err err;
	unsigned int i;

	(void)state;
	assert_int_equal(test_dm_pkt_parse_str("eth/ipv4(dst=10.0.0.254..10.0.1.1)/"
					       "udp(sport=10..12)", "t", 1, &t, &err), 0);
	assert_int_equal(test_dm_pkt_variants(t), 4);
	for (i = 0; i < RTE_DIM(sports); i++) {
		assert_int_equal(test_dm_pkt_build(t, i, pkt, sizeof(pkt)), 42);
		assert_int_equal(pkt[34] << 8 | pkt[35], sports[i]);
	}
	/* Packet 2: 10.0.0.254 + 2 = 10.0.1.0 (carries into the third byte). */
	assert_int_equal(test_dm_pkt_build(t, 2, pkt, sizeof(pkt)), 42);
	assert_memory_equal(pkt + 30, "\x0a\x00\x01\x00", 4);
	assert_int_equal(ref_cksum(pkt + 14, 20, NULL, 0), 0);
	assert_int_equal(test_dm_pkt_build(t, 0, pkt, 20), -E2BIG);
	test_dm_pkt_tmpl_free(t);
	/* MAC ranges count in the last bytes. */
	build("eth(src=02:00:00:00:00:ff..02:00:00:00:01:10)", 2);
	assert_memory_equal(pkt + 6, "\x02\x00\x00\x00\x01\x01", 6);
}

static void
test_decode_layout(void **state)
{
	static const enum test_dm_layer want[] = {
		TEST_DM_L_ETH, TEST_DM_L_VLAN, TEST_DM_L_IPV4, TEST_DM_L_UDP, TEST_DM_L_VXLAN,
		TEST_DM_L_ETH, TEST_DM_L_IPV6, TEST_DM_L_TCP,
	};
	static const uint16_t off[] = { 0, 14, 18, 38, 46, 54, 68, 108 };
	struct test_dm_pkt_info info;
	unsigned int i;
	int n;

	(void)state;
	n = build("eth/vlan/ipv4/udp/vxlan/eth/ipv6/tcp/payload(8)", 0);
	test_dm_pkt_decode(pkt, (size_t)n, &info);
	assert_int_equal(info.n, RTE_DIM(want));
	for (i = 0; i < info.n; i++) {
		assert_int_equal(info.h[i].type, want[i]);
		assert_int_equal(info.h[i].off, off[i]);
	}
	assert_int_equal(info.payload_off, 128);
	assert_int_equal(info.truncated, 0);
	assert_int_equal(test_dm_pkt_find(&info, TEST_DM_L_ETH, 1), 5);
	assert_int_equal(test_dm_pkt_find(&info, TEST_DM_L_ETH, 2), -1);

	/* Cut inside the inner IPv6 header. */
	test_dm_pkt_decode(pkt, 80, &info);
	assert_int_equal(info.n, 6);
	assert_int_equal(info.truncated, 1);

	/* A non-first IPv4 fragment carries no L4 header. */
	n = build("eth/ipv4(frag=100)/udp", 0);
	test_dm_pkt_decode(pkt, (size_t)n, &info);
	assert_int_equal(info.n, 2);
	assert_int_equal(info.payload_off, 34);

	/* UDP to another port: no VXLAN. */
	n = build("eth/ipv4/udp(dport=4790)/vxlan", 0);
	test_dm_pkt_decode(pkt, (size_t)n, &info);
	assert_int_equal(info.n, 3);

	/* MPLS stack then IPv4 by its version nibble; GRE with options. */
	n = build("eth/mpls/mpls/ipv4/gre(key=1,seq=2)/ipv6/icmp6", 0);
	test_dm_pkt_decode(pkt, (size_t)n, &info);
	assert_int_equal(info.n, 7);
	assert_int_equal(info.h[4].type, TEST_DM_L_GRE);
	assert_int_equal(info.h[4].len, 12);
	assert_int_equal(info.h[6].type, TEST_DM_L_ICMP6);
}

static void
test_fields(void **state)
{
	struct test_dm_pkt_info info;
	struct test_dm_fref ref;
	struct test_dm_fval v;
	char text[64];
	int n;

	(void)state;
	n = build("eth/ipv4(ttl=7)/udp/vxlan(vni=0xabcdef)/eth(dst=0a:0b:0c:0d:0e:0f)/"
		  "ipv6(dst=fd00::77)/gre(key=0x11223344)", 0);
	test_dm_pkt_decode(pkt, (size_t)n, &info);

	assert_int_equal(test_dm_fref_parse("ipv4.ttl", 8, &ref), 0);
	assert_int_equal(test_dm_pkt_field_read(pkt, &info, &ref, &v), 0);
	assert_int_equal(v.v, 7);
	assert_int_equal(test_dm_fref_parse("vxlan.vni", 9, &ref), 0);
	assert_int_equal(test_dm_pkt_field_read(pkt, &info, &ref, &v), 0);
	assert_int_equal(v.v, 0xabcdef);
	assert_int_equal(test_dm_fref_parse("eth[1].dst", 10, &ref), 0);
	assert_int_equal(ref.nth, 1);
	assert_int_equal(test_dm_pkt_field_read(pkt, &info, &ref, &v), 0);
	assert_int_equal(v.kind, TEST_DM_PK_MAC);
	assert_true(v.v == 0x0a0b0c0d0e0fULL);
	test_dm_fval_format(&v, text, sizeof(text));
	assert_string_equal(text, "0a:0b:0c:0d:0e:0f");
	assert_int_equal(test_dm_fref_parse("ipv6.dst", 8, &ref), 0);
	assert_int_equal(test_dm_pkt_field_read(pkt, &info, &ref, &v), 0);
	assert_int_equal(v.bytes[15], 0x77);
	test_dm_fval_format(&v, text, sizeof(text));
	assert_string_equal(text, "fd00::77");
	assert_int_equal(test_dm_fref_parse("gre.key", 7, &ref), 0);
	assert_int_equal(test_dm_pkt_field_read(pkt, &info, &ref, &v), 0);
	assert_int_equal(v.v, 0x11223344);
	/* Absent: no sequence in this GRE, no second udp, no tcp. */
	assert_int_equal(test_dm_fref_parse("gre.seq", 7, &ref), 0);
	assert_int_equal(test_dm_pkt_field_read(pkt, &info, &ref, &v), -ENOENT);
	assert_int_equal(test_dm_fref_parse("udp[1].dport", 12, &ref), 0);
	assert_int_equal(test_dm_pkt_field_read(pkt, &info, &ref, &v), -ENOENT);
	/* Bad references. */
	assert_int_equal(test_dm_fref_parse("ipv4.tll", 8, &ref), -EINVAL);
	assert_int_equal(test_dm_fref_parse("ipv7.ttl", 8, &ref), -EINVAL);
	assert_int_equal(test_dm_fref_parse("udp[x].dport", 12, &ref), -EINVAL);
	assert_int_equal(test_dm_fref_parse("payload.len", 11, &ref), -EINVAL);

	/* Write then read back. */
	assert_int_equal(test_dm_fref_parse("ipv4.ttl", 8, &ref), 0);
	assert_int_equal(test_dm_fval_parse(ref.field, "0x21", 4, &v), 0);
	assert_int_equal(test_dm_pkt_field_write(pkt, &info, &ref, &v), 0);
	assert_int_equal(pkt[22], 0x21);
	assert_int_equal(test_dm_fref_parse("tcp.flags", 9, &ref), 0);
	assert_int_equal(test_dm_fval_parse(ref.field, "FSRPAUEC", 8, &v), 0);
	assert_int_equal(v.v, 0xff);
	assert_int_equal(test_dm_fval_parse(ref.field, "SYN", 3, &v), -EINVAL);
}

static void
test_fixups(void **state)
{
	struct test_dm_pkt_info info;
	uint8_t ph[12];
	int n;

	(void)state;
	n = build("eth/ipv4/udp/payload(6)", 0);
	test_dm_pkt_decode(pkt, (size_t)n, &info);
	/* Rewrite the source address: both checksums become stale, then right. */
	pkt[26] = 99;
	assert_int_not_equal(ref_cksum(pkt + 14, 20, NULL, 0), 0);
	test_dm_pkt_fix_ipv4_cksum(pkt + 14);
	assert_int_equal(ref_cksum(pkt + 14, 20, NULL, 0), 0);
	test_dm_pkt_fix_l4_cksum(pkt, (size_t)n, &info, 1, 2);
	pseudo4(ph, pkt + 14, 17, 14);
	assert_int_equal(ref_cksum(ph, 12, pkt + 34, 14), 0);
	/* A zero UDP checksum means "none" and stays zero. */
	pkt[40] = 0;
	pkt[41] = 0;
	test_dm_pkt_fix_l4_cksum(pkt, (size_t)n, &info, 1, 2);
	assert_int_equal(pkt[40] | pkt[41], 0);
	/* Lengths of an outer header put in front with zero lengths. */
	n = build("eth/ipv4(len=0,cksum=0)/udp(len=0,cksum=0)/vxlan/eth/ipv4/payload(10)", 0);
	test_dm_pkt_decode(pkt, (size_t)n, &info);
	test_dm_pkt_fix_lengths(pkt, (size_t)n, &info, 0, 4);
	assert_int_equal(pkt[16] << 8 | pkt[17], n - 14);
	assert_int_equal(pkt[38] << 8 | pkt[39], n - 34);
	assert_int_equal(ref_cksum(pkt + 14, 20, NULL, 0), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_defaults),
		cmocka_unit_test(test_vxlan_ipv6_tcp),
		cmocka_unit_test(test_gre_key_icmp),
		cmocka_unit_test(test_gre_options),
		cmocka_unit_test(test_mpls_and_qinq),
		cmocka_unit_test(test_l4_checksums),
		cmocka_unit_test(test_explicit_overrides),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_decode_layout),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_fixups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
