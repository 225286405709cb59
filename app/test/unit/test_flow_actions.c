/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow actions -> spec: the PRM modify-header entries of every set /
 * modify action (set/add/copy_action_in bytes written by hand from
 * mlx5_ifc.h, field ids from mlx5_ifc's MLX5_ACTION_IN_FIELD_OUT_*),
 * VLAN push headers, flow tags, encap header bytes, RAW decap/encap
 * combinations and the RSS expansion (hash fields per sub-rule).
 */

#include "test_flow_common.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_##t, .conf = (c) }
#define END_ACT { .type = RTE_FLOW_ACTION_TYPE_END }

/* MLX5_ACTION_IN_FIELD_OUT_* */
enum {
	F_SMAC_47_16 = 0x01, F_SMAC_15_0 = 0x02, F_DMAC_47_16 = 0x04, F_DMAC_15_0 = 0x05,
	F_IP_DSCP = 0x06, F_TCP_SPORT = 0x08, F_TCP_DPORT = 0x09, F_IP_TTL = 0x0a,
	F_UDP_SPORT = 0x0b, F_UDP_DPORT = 0x0c, F_SIPV6_127_96 = 0x0d, F_DIPV6_127_96 = 0x11,
	F_SIPV4 = 0x15, F_DIPV4 = 0x16, F_FIRST_VID = 0x17, F_IPV6_HOPLIMIT = 0x47,
	F_REG_A = 0x49, F_REG_C_0 = 0x51, F_REG_C_1 = 0x52, F_REG_C_3 = 0x54, F_REG_C_4 = 0x55,
	F_TCP_SEQ = 0x59, F_TCP_ACK = 0x5b,
};

/* set_action_in: type dw0[31:28], field dw0[27:16], offset dw0[12:8], length dw0[4:0], data dw1. */
static void
t_set(uint8_t *e, unsigned int field, unsigned int off, unsigned int len, uint32_t data)
{
	e[0] = (uint8_t)(0x10 | field >> 8);
	e[1] = (uint8_t)field;
	e[2] = (uint8_t)(off & 0x1f);
	e[3] = (uint8_t)(len & 0x1f);
	e[4] = (uint8_t)(data >> 24);
	e[5] = (uint8_t)(data >> 16);
	e[6] = (uint8_t)(data >> 8);
	e[7] = (uint8_t)data;
}

/* add_action_in: type 2, field, data dw1. */
static void
t_add(uint8_t *e, unsigned int field, uint32_t data)
{
	t_set(e, field, 0, 0, data);
	e[0] = (uint8_t)(0x20 | field >> 8);
}

/* copy_action_in: src_field/offset/length in dw0, dst_field dw1[27:16], dst_offset dw1[12:8]. */
static void
t_copy(uint8_t *e, unsigned int src, unsigned int soff, unsigned int len, unsigned int dst,
       unsigned int doff)
{
	e[0] = (uint8_t)(0x30 | src >> 8);
	e[1] = (uint8_t)src;
	e[2] = (uint8_t)(soff & 0x1f);
	e[3] = (uint8_t)(len & 0x1f);
	e[4] = (uint8_t)(dst >> 8);
	e[5] = (uint8_t)dst;
	e[6] = (uint8_t)(doff & 0x1f);
	e[7] = 0;
}

static void
t_assert_modify(const struct mlx5dm_flow_spec *fs, const uint8_t *exp, unsigned int n)
{
	assert_int_equal(fs->nb_modify, n);
	t_assert_bytes(fs->modify, exp, n * 8u, "modify entries");
}

static const struct rte_flow_item p_eth[] = { ITEM(ETH, NULL, NULL), END_ITEM };
static const struct rte_flow_item p_ipv4[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
					       END_ITEM };
static const struct rte_flow_item p_ipv6[] = { ITEM(ETH, NULL, NULL), ITEM(IPV6, NULL, NULL),
					       END_ITEM };
static const struct rte_flow_item p_tcp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
					      ITEM(TCP, NULL, NULL), END_ITEM };
static const struct rte_flow_item p_udp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV6, NULL, NULL),
					      ITEM(UDP, NULL, NULL), END_ITEM };
static const struct rte_flow_item p_vxlan[] = {
	ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(UDP, NULL, NULL),
	ITEM(VXLAN, NULL, NULL), END_ITEM,
};
static const struct rte_flow_item_vlan vlan_123 = { .hdr.vlan_tci = RTE_BE16(0x0123) };
static const struct rte_flow_item p_vlan[] = { ITEM(ETH, NULL, NULL), ITEM(VLAN, &vlan_123, NULL),
					       END_ITEM };
static const struct rte_flow_action_queue q0 = { .index = 0 };

/* One expected PRM entry (set/add/copy_action_in). */
struct t_mod {
	uint8_t type;                   /* 1 SET, 2 ADD, 3 COPY */
	uint16_t field;                 /* SET/ADD field, COPY source */
	uint8_t off;
	uint8_t len;
	uint32_t data;
	uint16_t dst;                   /* COPY */
	uint8_t doff;                   /* COPY */
};
#define SET(f, o, l, d) { 1, F_##f, o, l, d, 0, 0 }
#define ADD(f, d) { 2, F_##f, 0, 0, d, 0, 0 }
#define COPY(s, so, l, d, dof) { 3, F_##s, so, l, 0, F_##d, dof }

struct modify_case {
	const char *name;
	const struct rte_flow_attr *attr;
	const struct rte_flow_item *items;
	const struct rte_flow_action *actions;
	struct t_mod m[8];              /* type 0 ends */
};

#define C(type, ...) (&(const struct type){ __VA_ARGS__ })
#define ACTS(...) ((const struct rte_flow_action[]){ __VA_ARGS__, END_ACT })
#define Q0 ACT(QUEUE, &q0)
#define MF(op, d, sr, w) ACT(MODIFY_FIELD, C(rte_flow_action_modify_field, \
	.operation = RTE_FLOW_MODIFY_##op, .dst = d, .src = sr, .width = (w)))
#define FLD(f, lvl, o) { .field = RTE_FLOW_FIELD_##f, .level = (lvl), .offset = (o) }
#define VAL(...) { .field = RTE_FLOW_FIELD_VALUE, .value = { __VA_ARGS__ } }
#define IN (&t_attr_in)
#define OUT (&t_attr_out)
/* host-order 0x11223344 as the bytes of a uint32_t (META/TAG values are host order) */
#define HOST_11223344 VAL(RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN ? 0x44 : 0x11, \
			  RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN ? 0x33 : 0x22, \
			  RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN ? 0x22 : 0x33, \
			  RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN ? 0x11 : 0x44)
#define V6ADDR { 0x20, 0x01, 0x0d, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }

static const rte_be32_t be5 = RTE_BE32(5), be7 = RTE_BE32(7), be1 = RTE_BE32(1);

static const struct modify_case modify_cases[] = {
	{ "SET_MAC_SRC/DST", OUT, p_eth,
	  ACTS(ACT(SET_MAC_SRC, C(rte_flow_action_set_mac,
				 .mac_addr = { 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb })),
	       ACT(SET_MAC_DST, C(rte_flow_action_set_mac,
				 .mac_addr = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 }))), {
		SET(SMAC_47_16, 0, 0, 0x66778899), SET(SMAC_15_0, 0, 16, 0xaabb),
		SET(DMAC_47_16, 0, 0, 0x00112233), SET(DMAC_15_0, 0, 16, 0x4455) } },
	{ "SET_IPV4_SRC/DST, SET_IPV4_DSCP", IN, p_ipv4,
	  ACTS(ACT(SET_IPV4_SRC, C(rte_flow_action_set_ipv4, .ipv4_addr = RTE_BE32(0x01020304))),
	       ACT(SET_IPV4_DST, C(rte_flow_action_set_ipv4, .ipv4_addr = RTE_BE32(0x05060708))),
	       ACT(SET_IPV4_DSCP, C(rte_flow_action_set_dscp, .dscp = 46)), Q0), {
		SET(SIPV4, 0, 0, 0x01020304), SET(DIPV4, 0, 0, 0x05060708),
		SET(IP_DSCP, 0, 6, 46) } },
	{ "SET_IPV6_SRC/DST", IN, p_ipv6,
	  ACTS(ACT(SET_IPV6_SRC, C(rte_flow_action_set_ipv6, .ipv6_addr = V6ADDR)),
	       ACT(SET_IPV6_DST, C(rte_flow_action_set_ipv6, .ipv6_addr = V6ADDR)), Q0), {
		SET(SIPV6_127_96, 0, 0, 0x20010db8), { 1, F_SIPV6_127_96 + 1, 0, 0, 0x01020304 },
		{ 1, F_SIPV6_127_96 + 2, 0, 0, 0x05060708 },
		{ 1, F_SIPV6_127_96 + 3, 0, 0, 0x090a0b0c },
		SET(DIPV6_127_96, 0, 0, 0x20010db8), { 1, F_DIPV6_127_96 + 1, 0, 0, 0x01020304 },
		{ 1, F_DIPV6_127_96 + 2, 0, 0, 0x05060708 },
		{ 1, F_DIPV6_127_96 + 3, 0, 0, 0x090a0b0c } } },
	/* DEC_TTL: + 0xff modulo 256. */
	{ "SET_TP_*, SET_TTL, DEC_TTL on IPv4/TCP", IN, p_tcp,
	  ACTS(ACT(SET_TP_SRC, C(rte_flow_action_set_tp, .port = RTE_BE16(1000))),
	       ACT(SET_TP_DST, C(rte_flow_action_set_tp, .port = RTE_BE16(2000))),
	       ACT(SET_TTL, C(rte_flow_action_set_ttl, .ttl_value = 33)), ACT(DEC_TTL, NULL),
	       Q0), {
		SET(TCP_SPORT, 0, 16, 1000), SET(TCP_DPORT, 0, 16, 2000), SET(IP_TTL, 0, 8, 33),
		ADD(IP_TTL, 0xff) } },
	{ "SET_TP_*, SET_TTL, DEC_TTL on IPv6/UDP", IN, p_udp,
	  ACTS(ACT(SET_TP_SRC, C(rte_flow_action_set_tp, .port = RTE_BE16(1000))),
	       ACT(SET_TP_DST, C(rte_flow_action_set_tp, .port = RTE_BE16(2000))),
	       ACT(SET_TTL, C(rte_flow_action_set_ttl, .ttl_value = 33)), ACT(DEC_TTL, NULL),
	       Q0), {
		SET(UDP_SPORT, 0, 16, 1000), SET(UDP_DPORT, 0, 16, 2000),
		SET(IPV6_HOPLIMIT, 0, 8, 33), ADD(IPV6_HOPLIMIT, 0xff) } },
	/* DEC_TTL takes no configuration: one given is not read as a value. */
	{ "DEC_TTL with a configuration", IN, p_tcp,
	  ACTS(ACT(DEC_TTL, C(rte_flow_action_set_ttl, .ttl_value = 5)), Q0), {
		ADD(IP_TTL, 0xff) } },
	{ "INC/DEC_TCP_SEQ/ACK", IN, p_tcp,
	  ACTS(ACT(INC_TCP_SEQ, &be5), ACT(DEC_TCP_SEQ, &be5), ACT(INC_TCP_ACK, &be7),
	       ACT(DEC_TCP_ACK, &be1), Q0), {
		ADD(TCP_SEQ, 5), ADD(TCP_SEQ, 0xfffffffb), ADD(TCP_ACK, 7),
		ADD(TCP_ACK, 0xffffffff) } },
	/* One SET per run of mask bits; META is reg_c_1 on ingress. */
	{ "SET_TAG, SET_META ingress", IN, p_eth,
	  ACTS(ACT(SET_TAG, C(rte_flow_action_set_tag, .data = 0x12345678, .mask = 0x0000ff00,
			      .index = 1)),
	       ACT(SET_TAG, C(rte_flow_action_set_tag, .data = 0x12345678, .mask = 0x00ff00ff,
			      .index = 2)),
	       ACT(SET_META, C(rte_flow_action_set_meta, .data = 0xabcd, .mask = UINT32_MAX)),
	       Q0), {
		SET(REG_C_3, 8, 8, 0x56), SET(REG_C_4, 0, 8, 0x78), SET(REG_C_4, 16, 8, 0x34),
		SET(REG_C_1, 0, 0, 0xabcd) } },
	{ "SET_META egress", OUT, p_eth,
	  ACTS(ACT(SET_META, C(rte_flow_action_set_meta, .data = 0xabcd, .mask = UINT32_MAX))), {
		SET(REG_A, 0, 0, 0xabcd) } },
	{ "OF_SET_VLAN_VID without push", IN, p_vlan,
	  ACTS(ACT(OF_SET_VLAN_VID, C(rte_flow_action_of_set_vlan_vid, .vlan_vid = RTE_BE16(100))),
	       Q0), {
		SET(FIRST_VID, 0, 12, 100) } },
	/* IPv4 dst, bits 16..31 from the MSB = its last two bytes. */
	{ "MODIFY_FIELD IPv4 dst, partial", IN, p_ipv4,
	  ACTS(MF(SET, FLD(IPV4_DST, 0, 16), VAL(0x0a, 0x0b, 0x0c, 0x0d), 16), Q0), {
		SET(DIPV4, 0, 16, 0x0c0d) } },
	{ "MODIFY_FIELD MAC dst, whole", IN, p_eth,
	  ACTS(MF(SET, FLD(MAC_DST, 0, 0), VAL(2, 3, 4, 5, 6, 7), 48), Q0), {
		SET(DMAC_47_16, 0, 0, 0x02030405), SET(DMAC_15_0, 0, 16, 0x0607) } },
	/* MAC bits 24..39: the last byte of the high word, the first of the low one. */
	{ "MODIFY_FIELD MAC dst, across words", IN, p_eth,
	  ACTS(MF(SET, FLD(MAC_DST, 0, 24), VAL(2, 3, 4, 5, 6, 7), 16), Q0), {
		SET(DMAC_47_16, 0, 8, 0x05), SET(DMAC_15_0, 8, 8, 0x06) } },
	{ "MODIFY_FIELD MAC src to dst", IN, p_eth,
	  ACTS(MF(SET, FLD(MAC_DST, 0, 0), FLD(MAC_SRC, 0, 0), 48), Q0), {
		COPY(SMAC_47_16, 0, 0, DMAC_47_16, 0), COPY(SMAC_15_0, 0, 16, DMAC_15_0, 0) } },
	{ "MODIFY_FIELD IPv4 src to TAG 2", IN, p_ipv4,
	  ACTS(MF(SET, FLD(TAG, 2, 0), FLD(IPV4_SRC, 0, 0), 32), Q0), {
		COPY(SIPV4, 0, 0, REG_C_4, 0) } },
	{ "MODIFY_FIELD ADD 3 to TTL", IN, p_ipv4,
	  ACTS(MF(ADD, FLD(IPV4_TTL, 0, 0), VAL(3), 8), Q0), {
		ADD(IP_TTL, 3) } },
	{ "MODIFY_FIELD SUB 1 from TCP seq", IN, p_tcp,
	  ACTS(MF(SUB, FLD(TCP_SEQ_NUM, 0, 0), VAL(0, 0, 0, 1), 32), Q0), {
		ADD(TCP_SEQ, 0xffffffff) } },
	{ "MODIFY_FIELD META ingress", IN, p_eth,
	  ACTS(MF(SET, FLD(META, 0, 0), HOST_11223344, 32), Q0), {
		SET(REG_C_1, 0, 0, 0x11223344) } },
	{ "MODIFY_FIELD META egress", OUT, p_eth,
	  ACTS(MF(SET, FLD(META, 0, 0), HOST_11223344, 32)), {
		SET(REG_A, 0, 0, 0x11223344) } },
};

static void
test_modify(void **state)
{
	unsigned int i, k, failed = 0;

	(void)state;
	for (i = 0; i < RTE_DIM(modify_cases); i++) {
		const struct modify_case *c = &modify_cases[i];
		struct rte_flow_error err = { .message = NULL };
		uint8_t exp[8 * RTE_DIM(c->m)];
		struct mlx5dm_flow_spec fs;
		int ret;

		for (k = 0; k < RTE_DIM(c->m) && c->m[k].type != 0; k++) {
			const struct t_mod *m = &c->m[k];

			if (m->type == 1)
				t_set(exp + 8 * k, m->field, m->off, m->len, m->data);
			else if (m->type == 2)
				t_add(exp + 8 * k, m->field, m->data);
			else
				t_copy(exp + 8 * k, m->field, m->off, m->len, m->dst, m->doff);
		}
		ret = mlx5dm_flow_translate(&t_context, c->attr, c->items, c->actions, &fs, &err);
		if (ret == 0 && fs.nb_modify == k && memcmp(fs.modify, exp, 8 * k) == 0)
			continue;
		fprintf(stderr, "case \"%s\": ret %d (%s), %u entries, %u expected\n", c->name,
			ret, err.message != NULL ? err.message : "-", fs.nb_modify, k);
		if (ret == 0) {
			t_dump("entries", fs.modify, 8u * fs.nb_modify);
			t_dump("expected", exp, 8u * k);
		}
		failed++;
	}
	assert_int_equal(failed, 0);
}

/* Header changes with DROP are refused (the device cannot modify and drop). */
static void
test_drop_with_changes(void **state)
{
	const struct rte_flow_action acts[] = { ACT(INC_TCP_SEQ, &be5), ACT(DROP, NULL),
						END_ACT };
	struct rte_flow_error err;
	struct mlx5dm_flow_spec fs;

	(void)state;
	assert_int_equal(mlx5dm_flow_translate(&t_context, &t_attr_in, p_tcp, acts, &fs, &err),
			 -ENOTSUP);
	assert_ptr_equal(err.cause, &acts[1]);
}

static void
test_vlan_actions(void **state)
{
	const struct rte_flow_action_of_push_vlan push = { .ethertype = RTE_BE16(0x8100) };
	const struct rte_flow_action_of_push_vlan push_s = { .ethertype = RTE_BE16(0x88a8) };
	const struct rte_flow_action_of_set_vlan_vid vid = { .vlan_vid = RTE_BE16(100) };
	const struct rte_flow_action_of_set_vlan_pcp pcp = { .vlan_pcp = 3 };
	const struct rte_flow_action a_push[] = { ACT(OF_PUSH_VLAN, &push),
						  ACT(OF_SET_VLAN_VID, &vid),
						  ACT(OF_SET_VLAN_PCP, &pcp), END_ACT };
	const struct rte_flow_action a_push_in[] = { ACT(OF_PUSH_VLAN, &push_s), ACT(QUEUE, &q0),
						     END_ACT };
	const struct rte_flow_action a_pop[] = { ACT(OF_POP_VLAN, NULL), ACT(QUEUE, &q0),
						 END_ACT };
	struct mlx5dm_flow_spec fs;

	(void)state;
	t_translate_ok(&t_attr_out, p_eth, a_push, &fs);
	assert_int_equal(fs.nb_push, 1);
	assert_int_equal(fs.push[0].tpid, 0x8100);
	assert_int_equal(fs.push[0].tci, 3 << 13 | 100);
	assert_int_equal(fs.nb_modify, 0);
	/* VID taken from the matched VLAN. */
	t_translate_ok(&t_attr_in, p_vlan, a_push_in, &fs);
	assert_int_equal(fs.push[0].tpid, 0x88a8);
	assert_int_equal(fs.push[0].tci, 0x123);
	t_translate_ok(&t_attr_in, p_vlan, a_pop, &fs);
	assert_int_equal(fs.nb_pop, 1);
}

static void
test_mark_flag(void **state)
{
	const struct rte_flow_action_mark mark = { .id = 5 };
	const struct rte_flow_action_jump jump = { .group = 1 };
	const struct rte_flow_action a_q[] = { ACT(MARK, &mark), ACT(QUEUE, &q0), END_ACT };
	const struct rte_flow_action a_j[] = { ACT(MARK, &mark), ACT(JUMP, &jump), END_ACT };
	const struct rte_flow_action a_f[] = { ACT(FLAG, NULL), ACT(QUEUE, &q0), END_ACT };
	struct mlx5dm_flow_spec fs;
	uint8_t exp[8];

	(void)state;
	t_translate_ok(&t_attr_in, p_eth, a_q, &fs);
	assert_true(fs.tag);
	assert_int_equal(fs.tag_value, 6);
	assert_int_equal(fs.nb_modify, 0);
	/* Jumping on: the mark also goes to reg_c_0 for later MARK items. */
	t_translate_ok(&t_attr_in, p_eth, a_j, &fs);
	assert_int_equal(fs.tag_value, 6);
	assert_int_equal(fs.fate, MLX5DM_FLOW_FATE_JUMP);
	assert_int_equal(fs.jump_group, 1);
	t_set(exp, F_REG_C_0, 0, 0, 0x01000005);
	t_assert_modify(&fs, exp, 1);
	t_translate_ok(&t_attr_in, p_eth, a_f, &fs);
	assert_int_equal(fs.tag_value, 0xffffff);
	assert_int_equal(mlx5dm_flow_tag_decode(0, &(uint32_t){ 0 }), 0);
	assert_int_equal(mlx5dm_flow_tag_decode(0xffffff, &(uint32_t){ 0 }), 1);
}

static void
test_vxlan_encap(void **state)
{
	const struct rte_flow_item_eth eth = {
		.hdr.dst_addr.addr_bytes = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 },
		.hdr.src_addr.addr_bytes = { 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb },
	};
	const struct rte_flow_item_ipv4 ip = {
		.hdr.src_addr = RTE_BE32(0x01010101),
		.hdr.dst_addr = RTE_BE32(0x02020202),
	};
	const struct rte_flow_item_udp udp = { .hdr.src_port = RTE_BE16(1234) };
	const struct rte_flow_item_vxlan vx = { .hdr.vx_vni = RTE_BE32(0x12345600) };
	struct rte_flow_item def[] = {
		ITEM(ETH, &eth, NULL), ITEM(IPV4, &ip, NULL), ITEM(UDP, &udp, NULL),
		ITEM(VXLAN, &vx, NULL), END_ITEM,
	};
	const struct rte_flow_action_vxlan_encap enc = { .definition = def };
	const struct rte_flow_action acts[] = { ACT(VXLAN_ENCAP, &enc), END_ACT };
	/* Ethernet, IPv4 (0x45, TTL 64, UDP, lengths/checksum for the device), UDP, VXLAN. */
	static const uint8_t exp[50] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0x08, 0x00,
		0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x01, 0x01, 0x01, 0x01, 0x02, 0x02, 0x02, 0x02,
		0x04, 0xd2, 0x12, 0xb5, 0x00, 0x00, 0x00, 0x00,
		0x08, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x00,
	};
	struct mlx5dm_flow_spec fs;

	(void)state;
	t_translate_ok(&t_attr_out, p_eth, acts, &fs);
	assert_true(fs.encap);
	assert_int_equal(fs.encap_type, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL);
	assert_int_equal(fs.encap_len, sizeof(exp));
	t_assert_bytes(fs.encap_data, exp, sizeof(exp), "VXLAN encap header");
}

static void
test_vxlan_encap_v6_vlan(void **state)
{
	const struct rte_flow_item_eth eth = { .hdr.ether_type = 0 };
	const struct rte_flow_item_vlan vlan = { .hdr.vlan_tci = RTE_BE16(7) };
	const struct rte_flow_item_ipv6 ip = { .hdr.dst_addr = { [15] = 1 } };
	const struct rte_flow_item_udp udp = { .hdr.dst_port = 0 };
	const struct rte_flow_item_vxlan vx = { .hdr.vx_vni = RTE_BE32(0x00000100) };
	struct rte_flow_item def[] = {
		ITEM(ETH, &eth, NULL), ITEM(VLAN, &vlan, NULL), ITEM(IPV6, &ip, NULL),
		ITEM(UDP, &udp, NULL), ITEM(VXLAN, &vx, NULL), END_ITEM,
	};
	const struct rte_flow_action_vxlan_encap enc = { .definition = def };
	const struct rte_flow_action acts[] = { ACT(VXLAN_ENCAP, &enc), END_ACT };
	struct mlx5dm_flow_spec fs;

	(void)state;
	t_translate_ok(&t_attr_out, p_eth, acts, &fs);
	assert_int_equal(fs.encap_len, 14 + 4 + 40 + 8 + 8);
	/* EtherTypes chained: 0x8100, then 0x86dd after the tag. */
	assert_int_equal(fs.encap_data[12], 0x81);
	assert_int_equal(fs.encap_data[13], 0x00);
	assert_int_equal(fs.encap_data[14], 0x00);
	assert_int_equal(fs.encap_data[15], 0x07);
	assert_int_equal(fs.encap_data[16], 0x86);
	assert_int_equal(fs.encap_data[17], 0xdd);
	/* IPv6: version 6, next header UDP (byte 6), hop limit 255 (byte 7). */
	assert_int_equal(fs.encap_data[18], 0x60);
	assert_int_equal(fs.encap_data[18 + 6], 17);
	assert_int_equal(fs.encap_data[18 + 7], 255);
	assert_int_equal(fs.encap_data[18 + 39], 1);
	/* UDP destination 4789 by default; VXLAN I flag, VNI 1. */
	assert_int_equal(fs.encap_data[58 + 2], 0x12);
	assert_int_equal(fs.encap_data[58 + 3], 0xb5);
	assert_int_equal(fs.encap_data[66], 0x08);
	assert_int_equal(fs.encap_data[66 + 6], 0x01);
}

static void
test_raw_reformat(void **state)
{
	uint8_t tunnel[50] = { 0x00, 0x11 }, l2[14] = { 0xaa, 0xbb, [12] = 0x08, [13] = 0x00 };
	const struct rte_flow_action_raw_decap d_tnl = { .data = tunnel, .size = sizeof(tunnel) };
	const struct rte_flow_action_raw_decap d_l2 = { .data = l2, .size = sizeof(l2) };
	const struct rte_flow_action_raw_encap e_l2 = { .data = l2, .size = sizeof(l2) };
	const struct rte_flow_action_raw_encap e_tnl = { .data = tunnel, .size = sizeof(tunnel) };
	const struct rte_flow_action l3_decap[] = { ACT(RAW_DECAP, &d_tnl), ACT(RAW_ENCAP, &e_l2),
						    ACT(QUEUE, &q0), END_ACT };
	const struct rte_flow_action l2_decap[] = { ACT(RAW_DECAP, &d_tnl), ACT(QUEUE, &q0),
						    END_ACT };
	const struct rte_flow_action l3_encap[] = { ACT(RAW_DECAP, &d_l2), ACT(RAW_ENCAP, &e_tnl),
						    END_ACT };
	const struct rte_flow_action l2_encap[] = { ACT(RAW_ENCAP, &e_tnl), END_ACT };
	const struct rte_flow_action vx_decap[] = { ACT(VXLAN_DECAP, NULL), ACT(QUEUE, &q0),
						    END_ACT };
	struct mlx5dm_flow_spec fs;

	(void)state;
	t_translate_ok(&t_attr_in, p_vxlan, l3_decap, &fs);
	assert_true(fs.decap && !fs.encap);
	assert_int_equal(fs.decap_type, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2);
	assert_int_equal(fs.decap_len, 14);
	t_assert_bytes(fs.decap_data, l2, 14, "new L2 header");
	t_translate_ok(&t_attr_in, p_vxlan, l2_decap, &fs);
	assert_int_equal(fs.decap_type, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2);
	t_translate_ok(&t_attr_in, p_vxlan, vx_decap, &fs);
	assert_true(fs.decap);
	assert_int_equal(fs.decap_type, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2);
	t_translate_ok(&t_attr_out, p_eth, l3_encap, &fs);
	assert_true(fs.encap && !fs.decap);
	assert_int_equal(fs.encap_type, MLX5DM_REFORMAT_L2_TO_L3_TUNNEL);
	assert_int_equal(fs.encap_len, 50);
	t_assert_bytes(fs.encap_data, tunnel, 50, "tunnel header");
	t_translate_ok(&t_attr_out, p_eth, l2_encap, &fs);
	assert_int_equal(fs.encap_type, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL);
}

static void
test_queue(void **state)
{
	const struct rte_flow_action_queue q3 = { .index = 3 };
	const struct rte_flow_action acts[] = { ACT(QUEUE, &q3), ACT(COUNT, NULL), END_ACT };
	struct mlx5dm_flow_spec fs;

	(void)state;
	t_translate_ok(&t_attr_in, p_eth, acts, &fs);
	assert_int_equal(fs.fate, MLX5DM_FLOW_FATE_QUEUE);
	assert_true(fs.count);
	assert_int_equal(fs.nb_queues, 1);
	assert_int_equal(fs.queues[0], 3);
	assert_int_equal(fs.nb_sub, 1);
	assert_false(fs.sub[0].hash);
	assert_int_equal(fs.sub[0].ipv, 0);
}

static const uint16_t queues4[] = { 0, 1, 2, 3 };

static void
t_assert_sub(const struct mlx5dm_flow_sub *s, unsigned int subprio, unsigned int ipv,
	     unsigned int proto, bool hash, bool ipv6, bool udp, uint32_t fields)
{
	assert_int_equal(s->subprio, subprio);
	assert_int_equal(s->ipv, ipv);
	assert_int_equal(s->proto, proto);
	assert_int_equal(s->hash, hash);
	if (!hash)
		return;
	assert_int_equal(s->rss.ipv6, ipv6);
	assert_int_equal(s->rss.udp, udp);
	assert_int_equal(s->rss.fields, fields);
}

#define L3 (MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP)
#define L4 (MLX5DM_RSS_L4_SPORT | MLX5DM_RSS_L4_DPORT)

static void
test_rss_expansion(void **state)
{
	struct rte_flow_action_rss rss = { .queue_num = 4, .queue = queues4 };
	const struct rte_flow_action acts[] = { ACT(RSS, &rss), END_ACT };
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE], value[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_flow_spec fs;
	struct t_match exp;
	uint8_t criteria;

	(void)state;
	/* Default types (IP): IPv4 and IPv6 on addresses, the rest to queue 0. */
	t_translate_ok(&t_attr_in, p_eth, acts, &fs);
	assert_int_equal(fs.nb_sub, 3);
	t_assert_sub(&fs.sub[0], 1, 4, 0, true, false, false, L3);
	t_assert_sub(&fs.sub[1], 1, 6, 0, true, true, false, L3);
	t_assert_sub(&fs.sub[2], 2, 0, 0, false, false, false, 0);
	assert_memory_equal(fs.sub[0].rss.key, mlx5dm_flow_rss_default_key, 40);
	assert_int_equal(mlx5dm_flow_sub_priority(&fs, 2), 2);
	/* The sub-rule's extra match: ip_version 4 on the outer headers. */
	mlx5dm_flow_sub_match(&fs, 0, mask, value, &criteria);
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	t_assert_bytes(mask, exp.mask, sizeof(mask), "sub-rule mask");
	t_assert_bytes(value, exp.value, sizeof(value), "sub-rule value");
	assert_int_equal(criteria, C_OUTER);
	/* IPv4/TCP on ports; other IPv4 on addresses; IPv6 like non-IP (one rule). */
	rss.types = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP;
	t_translate_ok(&t_attr_in, p_eth, acts, &fs);
	assert_int_equal(fs.nb_sub, 3);
	t_assert_sub(&fs.sub[0], 0, 4, 6, true, false, false, L3 | L4);
	t_assert_sub(&fs.sub[1], 1, 4, 0, true, false, false, L3);
	t_assert_sub(&fs.sub[2], 2, 0, 0, false, false, false, 0);
	/* The pattern leaves one kind: one rule, no extra match. */
	rss.types = RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_L3_SRC_ONLY |
		    RTE_ETH_RSS_L4_DST_ONLY;
	t_translate_ok(&t_attr_in, p_udp, acts, &fs);
	assert_int_equal(fs.nb_sub, 1);
	t_assert_sub(&fs.sub[0], 0, 0, 0, true, true, true,
		     MLX5DM_RSS_SRC_IP | MLX5DM_RSS_L4_DPORT);
}

static void
test_rss_options(void **state)
{
	uint8_t key[40];
	const struct rte_flow_action_rss rss = {
		.func = RTE_ETH_HASH_FUNCTION_SYMMETRIC_TOEPLITZ,
		.level = 2,
		.types = RTE_ETH_RSS_IPV4,
		.key_len = sizeof(key),
		.key = key,
		.queue_num = 4,
		.queue = queues4,
	};
	const struct rte_flow_action_rss one = { .queue_num = 1, .queue = &queues4[2] };
	const struct rte_flow_action acts[] = { ACT(RSS, &rss), END_ACT };
	const struct rte_flow_action acts1[] = { ACT(RSS, &one), END_ACT };
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE], value[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_flow_spec fs;
	uint8_t criteria;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	t_translate_ok(&t_attr_in, p_vxlan, acts, &fs);
	assert_int_equal(fs.nb_sub, 2);
	t_assert_sub(&fs.sub[0], 1, 4, 0, true, false, false, L3);
	assert_true(fs.sub[0].inner && fs.sub[0].rss.inner && fs.sub[0].rss.symmetric);
	assert_memory_equal(fs.sub[0].rss.key, key, sizeof(key));
	t_assert_sub(&fs.sub[1], 2, 0, 0, false, false, false, 0);
	/* The extra match is on the inner headers. */
	mlx5dm_flow_sub_match(&fs, 0, mask, value, &criteria);
	assert_int_equal(mlx5dm_prm_get(mask, T_INNER(0x093), 4), 4);
	assert_int_equal(mlx5dm_prm_get(value, T_INNER(0x093), 4), 4);
	assert_int_equal(criteria, C_OUTER | C_INNER);
	/* One queue: a direct TIR. */
	t_translate_ok(&t_attr_in, p_eth, acts1, &fs);
	assert_int_equal(fs.nb_sub, 1);
	assert_false(fs.sub[0].hash);
	assert_int_equal(fs.nb_queues, 1);
	assert_int_equal(fs.queues[0], 2);
}

/* A VLAN tag of either kind: one sub-rule per kind, the second matching an S-tag. */
static void
test_vlan_either(void **state)
{
	const struct rte_flow_item_eth has_vlan = { .has_vlan = 1 };
	const struct rte_flow_item_eth s_tag = {
		.hdr.ether_type = RTE_BE16(0x88a8), .has_vlan = 1 };
	const struct rte_flow_item_eth s_tag_mask = {
		.hdr.ether_type = RTE_BE16(0xffff), .has_vlan = 1 };
	const struct rte_flow_item_vlan more = { .has_more_vlan = 1 };
	const struct rte_flow_item p_has[] = { ITEM(ETH, &has_vlan, &has_vlan), END_ITEM };
	const struct rte_flow_item p_s[] = { ITEM(ETH, &s_tag, &s_tag_mask), END_ITEM };
	const struct rte_flow_item p_more[] = { ITEM(ETH, NULL, NULL), ITEM(VLAN, &more, &more),
						END_ITEM };
	const struct rte_flow_item p_bad[] = {
		ITEM(ETH, C(rte_flow_item_eth, .has_vlan = 0), &has_vlan),
		ITEM(VLAN, NULL, NULL), END_ITEM };
	const struct rte_flow_action_queue q1 = { .index = 1 };
	const struct rte_flow_action a_q[] = { ACT(QUEUE, &q1), END_ACT };
	struct rte_flow_action_rss rss = { .queue_num = 4, .queue = queues4,
					   .types = RTE_ETH_RSS_IPV4 |
						    RTE_ETH_RSS_NONFRAG_IPV4_TCP };
	const struct rte_flow_action a_rss[] = { ACT(RSS, &rss), END_ACT };
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE], value[MLX5DM_MATCH_PARAM_SIZE];
	struct rte_flow_error err;
	struct mlx5dm_flow_spec fs;
	uint8_t criteria;
	unsigned int i;

	(void)state;
	t_translate_ok(&t_attr_in, p_has, a_q, &fs);
	assert_int_equal(fs.nb_sub, 2);
	assert_int_equal(fs.sub[0].svlan, 0);
	assert_int_equal(fs.sub[1].svlan, 1);
	assert_int_equal(fs.sub[0].subprio, fs.sub[1].subprio);
	/* Both match the two qualifier bits; the second's value is an S-tag. */
	mlx5dm_flow_sub_match(&fs, 1, mask, value, &criteria);
	assert_int_equal(mlx5dm_prm_get(mask, T_AT(S_CVLAN_TAG)), 1);
	assert_int_equal(mlx5dm_prm_get(mask, T_AT(S_SVLAN_TAG)), 1);
	assert_int_equal(mlx5dm_prm_get(value, T_AT(S_CVLAN_TAG)), 0);
	assert_int_equal(mlx5dm_prm_get(value, T_AT(S_SVLAN_TAG)), 1);
	assert_memory_equal(mask, fs.mask, sizeof(mask));
	/* A named TPID: one rule. */
	t_translate_ok(&t_attr_in, p_s, a_q, &fs);
	assert_int_equal(fs.nb_sub, 1);
	assert_int_equal(fs.vlan_either, 0);
	/* A VLAN item of either kind with another tag of either kind: four rules. */
	t_translate_ok(&t_attr_in, p_more, a_q, &fs);
	assert_int_equal(fs.nb_sub, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(fs.sub[i].svlan, i);
	/* With RSS over three kinds: each of them per tag kind. */
	t_translate_ok(&t_attr_in, p_has, a_rss, &fs);
	assert_int_equal(fs.nb_sub, 6);
	for (i = 0; i < 3; i++) {
		assert_memory_equal(&fs.sub[3 + i].rss, &fs.sub[i].rss, sizeof(fs.sub[i].rss));
		assert_int_equal(fs.sub[3 + i].subprio, fs.sub[i].subprio);
		assert_int_equal(fs.sub[3 + i].svlan, 1);
	}
	/* Beyond MLX5DM_FLOW_MAX_SUB rules: refused, the TPID named instead. */
	rss.types = RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP;
	assert_int_equal(mlx5dm_flow_translate(&t_context, &t_attr_in, p_more, a_rss, &fs, &err),
			 -ENOTSUP);
	/* No tag, then a tag: a contradiction. */
	assert_int_equal(mlx5dm_flow_translate(&t_context, &t_attr_in, p_bad, a_q, &fs, &err),
			 -EINVAL);
	assert_ptr_equal(err.cause, &p_bad[1]);
}

static void
test_attr(void **state)
{
	const struct rte_flow_attr a = { .group = 7, .priority = 9, .ingress = 1 };
	struct mlx5dm_flow_spec fs;

	(void)state;
	t_translate_ok(&a, p_eth, t_act_drop, &fs);
	assert_int_equal(fs.group, 7);
	assert_int_equal(fs.priority, 9);
	assert_false(fs.egress);
	assert_int_equal(mlx5dm_flow_sub_priority(&fs, 0), 9 * 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_modify),
		cmocka_unit_test(test_drop_with_changes),
		cmocka_unit_test(test_vlan_actions),
		cmocka_unit_test(test_mark_flag),
		cmocka_unit_test(test_vxlan_encap),
		cmocka_unit_test(test_vxlan_encap_v6_vlan),
		cmocka_unit_test(test_raw_reformat),
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_rss_expansion),
		cmocka_unit_test(test_rss_options),
		cmocka_unit_test(test_vlan_either),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
