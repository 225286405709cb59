/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * net_mlx5dm's limits on action lists, as its guide states them
 * (doc/guides/nics/mlx5dm.rst, "rte_flow"): directions, one fate / count /
 * mark-or-flag / decap / encap per rule, header changes in the order the
 * device applies them (decap, VLAN pop, field changes, VLAN push, encap),
 * no DROP with header changes, the RAW_DECAP/RAW_ENCAP combinations it
 * understands, RSS and MODIFY_FIELD restrictions. Model of the contract,
 * written from the guide (see test_dm_ref_limits_items.c).
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>

#include "test_dm_flow.h"
#include "test_dm_ref_priv.h"

#define TEST_DM_LIMITS_MARK_MAX 0xfffffdu
#define TEST_DM_LIMITS_TAGS 4u
#define TEST_DM_LIMITS_VID_MAX 0xffeu
#define TEST_DM_LIMITS_PUSH_MAX 2u
#define TEST_DM_LIMITS_RSS_QUEUES 64u
#define TEST_DM_LIMITS_RSS_KEY 40u
/** A reformat header of at most this many bytes is an L2 header, above it a tunnel. */
#define TEST_DM_LIMITS_L2_MAX 34u
#define TEST_DM_LIMITS_ENCAP_MAX 126u
#define TEST_DM_LIMITS_RSS_TYPES (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP | \
				  RTE_ETH_RSS_L3_SRC_ONLY | RTE_ETH_RSS_L3_DST_ONLY | \
				  RTE_ETH_RSS_L4_SRC_ONLY | RTE_ETH_RSS_L4_DST_ONLY)

/* The order in which the device changes headers. */
enum test_dm_limits_stage {
	TEST_DM_LIMITS_START,
	TEST_DM_LIMITS_DECAP,
	TEST_DM_LIMITS_POP,
	TEST_DM_LIMITS_MODIFY,
	TEST_DM_LIMITS_PUSH,
	TEST_DM_LIMITS_ENCAP,
};

enum {
	TEST_DM_LIMITS_A_FATE = 1u << 0,
	TEST_DM_LIMITS_A_COUNT = 1u << 1,
	TEST_DM_LIMITS_A_MARK = 1u << 2,	/**< MARK or FLAG */
	TEST_DM_LIMITS_A_DECAP = 1u << 3,
	TEST_DM_LIMITS_A_ENCAP = 1u << 4,
	TEST_DM_LIMITS_A_CHANGE = 1u << 5,	/**< Any header change. */
	TEST_DM_LIMITS_A_REG = 1u << 6,	/**< A register write (SET_TAG, SET_META, to TAG/META). */
	TEST_DM_LIMITS_A_FIELD = 1u << 7,	/**< A header field change. */
};

struct test_dm_limits_acts {
	const struct test_dm_ref *r;
	const struct rte_flow_attr *attr;
	uint32_t layers;		/**< 1 << test_dm_layer of the pattern's items. */
	unsigned int vlan_items;
	int vid_matched;		/**< A VLAN item matches the whole VID. */
	uint32_t seen;
	enum test_dm_limits_stage stage;
	const struct rte_flow_action *fate;
	unsigned int nb_push;
	unsigned int nb_pop;
	uint8_t push_vid[TEST_DM_LIMITS_PUSH_MAX];
	const struct rte_flow_action *push[TEST_DM_LIMITS_PUSH_MAX];
	const struct rte_flow_action *raw_decap;
	const struct rte_flow_action *raw_encap;
	int from_wire;			/**< Transfer: the source item names the PF (the uplink). */
};

typedef int (*test_dm_limits_fn)(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
				 struct rte_flow_error *e);

static int
test_dm_limits_err(struct rte_flow_error *e, int code, const struct rte_flow_action *a,
		   const char *msg)
{
	return test_dm_ref_err(e, code, RTE_FLOW_ERROR_TYPE_ACTION, a, msg);
}

static int
test_dm_limits_conf(struct rte_flow_error *e, int code, const struct rte_flow_action *a,
		    const char *msg)
{
	return test_dm_ref_err(e, code, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, msg);
}

static int
test_dm_limits_once(struct test_dm_limits_acts *s, uint32_t bit, const struct rte_flow_action *a,
		    const char *msg, struct rte_flow_error *e)
{
	if (s->seen & bit)
		return test_dm_limits_err(e, ENOTSUP, a, msg);
	s->seen |= bit;
	return 0;
}

static int
test_dm_limits_stage(struct test_dm_limits_acts *s, enum test_dm_limits_stage stage,
		     const struct rte_flow_action *a, struct rte_flow_error *e)
{
	if (stage < s->stage)
		return test_dm_limits_err(e, ENOTSUP, a, "header changes must come in the order "
					  "the device applies them: decap, VLAN pop, field "
					  "changes, VLAN push, encap");
	s->stage = stage;
	s->seen |= TEST_DM_LIMITS_A_CHANGE;
	return 0;
}

/* ---- fates ---- */

static int
test_dm_limits_fate(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		    struct rte_flow_error *e)
{
	int ret = test_dm_limits_once(s, TEST_DM_LIMITS_A_FATE, a, "only one fate action (QUEUE, "
				      "RSS, DROP, JUMP, a port action) per rule", e);

	s->fate = a;
	return ret;
}

static int
test_dm_limits_queue(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		     struct rte_flow_error *e)
{
	const struct rte_flow_action_queue *q = a->conf;
	int ret = test_dm_limits_fate(s, a, e);

	if (ret == 0 && q->index >= s->r->cfg.nb_rxq)
		ret = test_dm_limits_conf(e, EINVAL, a, "QUEUE index is beyond the configured Rx "
					  "queues");
	return ret;
}

static int
test_dm_limits_rss_queues(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
			  struct rte_flow_error *e)
{
	const struct rte_flow_action_rss *c = a->conf;
	uint8_t used[TEST_DM_REF_MAX_QUEUES] = { 0 };
	unsigned int i;

	if (c->queue_num == 0 || c->queue == NULL)
		return test_dm_limits_conf(e, EINVAL, a, "RSS needs at least one queue");
	if (c->queue_num > TEST_DM_LIMITS_RSS_QUEUES)
		return test_dm_limits_conf(e, ENOTSUP, a, "RSS spreads over at most 64 queues");
	for (i = 0; i < c->queue_num; i++) {
		if (c->queue[i] >= s->r->cfg.nb_rxq)
			return test_dm_limits_conf(e, EINVAL, a, "RSS queue index is beyond the "
						   "configured Rx queues");
		if (used[c->queue[i]]++)
			return test_dm_limits_conf(e, ENOTSUP, a, "RSS queue list has duplicates");
	}
	return 0;
}

static int
test_dm_limits_rss(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		   struct rte_flow_error *e)
{
	const struct rte_flow_action_rss *c = a->conf;
	uint32_t tunnels = 1u << TEST_DM_L_VXLAN | 1u << TEST_DM_L_GRE;
	int ret = test_dm_limits_fate(s, a, e);

	if (ret < 0)
		return ret;
	if (c->func != RTE_ETH_HASH_FUNCTION_DEFAULT && c->func != RTE_ETH_HASH_FUNCTION_TOEPLITZ &&
	    c->func != RTE_ETH_HASH_FUNCTION_SYMMETRIC_TOEPLITZ)
		return test_dm_limits_conf(e, ENOTSUP, a, "RSS hash function not supported: "
					   "Toeplitz or symmetric Toeplitz only");
	if (c->level > 2)
		return test_dm_limits_conf(e, ENOTSUP, a, "RSS level must be 0 or 1 (outer) or 2 "
					   "(inner)");
	if (c->level == 2 && !(s->layers & tunnels))
		return test_dm_limits_conf(e, EINVAL, a, "inner RSS (level 2) needs a tunnel item "
					   "in the pattern");
	if (c->types & ~(uint64_t)TEST_DM_LIMITS_RSS_TYPES)
		return test_dm_limits_conf(e, ENOTSUP, a, "RSS types contain hash types the device "
					   "cannot compute (IPv4/IPv6 addresses and TCP/UDP ports "
					   "only)");
	if (c->key_len != 0 && c->key_len != TEST_DM_LIMITS_RSS_KEY)
		return test_dm_limits_conf(e, ENOTSUP, a, "RSS key must be 40 bytes");
	return test_dm_limits_rss_queues(s, a, e);
}

static int
test_dm_limits_jump(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		    struct rte_flow_error *e)
{
	const struct rte_flow_action_jump *j = a->conf;
	int ret = test_dm_limits_fate(s, a, e);

	/* SW-owned tables only forward to deeper levels. */
	if (ret == 0 && j->group <= s->attr->group)
		ret = test_dm_limits_conf(e, ENOTSUP, a, "JUMP target group must be higher than "
					  "the rule's group");
	if (ret == 0 && j->group == UINT32_MAX)
		ret = test_dm_limits_conf(e, ENOTSUP, a, "JUMP target group must be below "
					  "4294967295");
	return ret;
}

/* ---- count, mark, registers ---- */

static int
test_dm_limits_count(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		     struct rte_flow_error *e)
{
	return test_dm_limits_once(s, TEST_DM_LIMITS_A_COUNT, a, "only one COUNT action per rule",
				   e);
}

static int
test_dm_limits_mark(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		    struct rte_flow_error *e)
{
	const struct rte_flow_action_mark *m = a->conf;
	int ret = test_dm_limits_once(s, TEST_DM_LIMITS_A_MARK, a, "only one MARK or FLAG action "
				      "per rule", e);

	if (ret == 0 && a->type == RTE_FLOW_ACTION_TYPE_MARK && m->id > TEST_DM_LIMITS_MARK_MAX)
		ret = test_dm_limits_conf(e, ENOTSUP, a, "MARK id must be at most 0xfffffd");
	return ret;
}

static int
test_dm_limits_reg(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		   struct rte_flow_error *e)
{
	const struct rte_flow_action_set_tag *t = a->conf;
	const struct rte_flow_action_set_meta *m = a->conf;

	s->seen |= TEST_DM_LIMITS_A_REG;
	if (a->type == RTE_FLOW_ACTION_TYPE_SET_TAG && t->index >= TEST_DM_LIMITS_TAGS)
		return test_dm_limits_conf(e, ENOTSUP, a, "SET_TAG index must be 0 to 3");
	if ((a->type == RTE_FLOW_ACTION_TYPE_SET_TAG ? t->mask : m->mask) == 0)
		return test_dm_limits_conf(e, EINVAL, a, "mask is zero: nothing to set");
	return 0;
}

/* ---- header changes ---- */

static int
test_dm_limits_modify(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		      struct rte_flow_error *e)
{
	s->seen |= TEST_DM_LIMITS_A_FIELD;
	return test_dm_limits_stage(s, TEST_DM_LIMITS_MODIFY, a, e);
}

/* Fields the device can change through MODIFY_FIELD (metadata: TAG and META). */
static const enum rte_flow_field_id test_dm_limits_mf_fields[] = {
	RTE_FLOW_FIELD_MAC_DST, RTE_FLOW_FIELD_MAC_SRC, RTE_FLOW_FIELD_MAC_TYPE,
	RTE_FLOW_FIELD_VLAN_ID, RTE_FLOW_FIELD_IPV4_DSCP, RTE_FLOW_FIELD_IPV4_ECN,
	RTE_FLOW_FIELD_IPV4_TTL, RTE_FLOW_FIELD_IPV4_SRC, RTE_FLOW_FIELD_IPV4_DST,
	RTE_FLOW_FIELD_IPV6_DSCP, RTE_FLOW_FIELD_IPV6_ECN, RTE_FLOW_FIELD_IPV6_HOPLIMIT,
	RTE_FLOW_FIELD_IPV6_SRC, RTE_FLOW_FIELD_IPV6_DST, RTE_FLOW_FIELD_TCP_PORT_SRC,
	RTE_FLOW_FIELD_TCP_PORT_DST, RTE_FLOW_FIELD_TCP_SEQ_NUM, RTE_FLOW_FIELD_TCP_ACK_NUM,
	RTE_FLOW_FIELD_TCP_FLAGS, RTE_FLOW_FIELD_UDP_PORT_SRC, RTE_FLOW_FIELD_UDP_PORT_DST,
	RTE_FLOW_FIELD_TAG, RTE_FLOW_FIELD_META,
};

/* Fields ADD/SUB apply to, whole: width in bits. */
static const struct {
	enum rte_flow_field_id id;
	uint32_t width;
} test_dm_limits_mf_add[] = {
	{ RTE_FLOW_FIELD_IPV4_TTL, 8 }, { RTE_FLOW_FIELD_IPV6_HOPLIMIT, 8 },
	{ RTE_FLOW_FIELD_TCP_SEQ_NUM, 32 }, { RTE_FLOW_FIELD_TCP_ACK_NUM, 32 },
};

static int
test_dm_limits_mf_data(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		       const struct rte_flow_action_modify_data *d, struct rte_flow_error *e)
{
	unsigned int i;
	int layer;

	if (d->field == RTE_FLOW_FIELD_VALUE || d->field == RTE_FLOW_FIELD_POINTER)
		return 0;
	for (i = 0; i < RTE_DIM(test_dm_limits_mf_fields); i++)
		if (test_dm_limits_mf_fields[i] == d->field)
			break;
	if (i == RTE_DIM(test_dm_limits_mf_fields))
		return test_dm_limits_conf(e, ENOTSUP, a, "MODIFY_FIELD: field not supported");
	layer = test_dm_ref_modify_field_layer(d->field);
	if (layer < 0)
		return 0;
	if (d->level > 1)
		return test_dm_limits_conf(e, ENOTSUP, a, "MODIFY_FIELD: only outermost headers "
					   "(level 0 or 1) can be modified");
	if (!(s->layers & 1u << layer))
		return test_dm_limits_err(e, EINVAL, a, "MODIFY_FIELD: the pattern has no item for "
					  "the header of this field");
	return 0;
}

static int
test_dm_limits_modify_field(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
			    struct rte_flow_error *e)
{
	const struct rte_flow_action_modify_field *c = a->conf;
	unsigned int i;
	int ret;

	if (c->operation > RTE_FLOW_MODIFY_SUB)
		return test_dm_limits_conf(e, ENOTSUP, a, "MODIFY_FIELD: unknown operation");
	ret = test_dm_limits_mf_data(s, a, &c->dst, e);
	if (ret < 0)
		return ret;
	if (test_dm_ref_modify_field_layer(c->dst.field) >= 0) {
		ret = test_dm_limits_modify(s, a, e);
		if (ret < 0)
			return ret;
	} else {
		s->seen |= TEST_DM_LIMITS_A_REG;
	}
	if (c->operation == RTE_FLOW_MODIFY_SET)
		return test_dm_limits_mf_data(s, a, &c->src, e);
	for (i = 0; i < RTE_DIM(test_dm_limits_mf_add); i++)
		if (test_dm_limits_mf_add[i].id == c->dst.field && c->dst.offset == 0 &&
		    c->width == test_dm_limits_mf_add[i].width)
			return 0;
	return test_dm_limits_conf(e, ENOTSUP, a, "MODIFY_FIELD ADD/SUB: only whole TTL, hop "
				   "limit, TCP sequence or acknowledgment fields");
}

/* ---- VLAN ---- */

static int
test_dm_limits_push(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		    struct rte_flow_error *e)
{
	const struct rte_flow_action_of_push_vlan *p = a->conf;
	uint16_t tpid = rte_be_to_cpu_16(p->ethertype);

	if (tpid != RTE_ETHER_TYPE_VLAN && tpid != RTE_ETHER_TYPE_QINQ)
		return test_dm_limits_conf(e, ENOTSUP, a,
					   "OF_PUSH_VLAN EtherType must be 0x8100 or " "0x88a8");
	if (s->nb_push == TEST_DM_LIMITS_PUSH_MAX)
		return test_dm_limits_err(e, ENOTSUP, a, "at most two OF_PUSH_VLAN actions per "
					  "rule");
	s->push[s->nb_push++] = a;
	return test_dm_limits_stage(s, TEST_DM_LIMITS_PUSH, a, e);
}

static int
test_dm_limits_vlan_set(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
			struct rte_flow_error *e)
{
	if (a->type == RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP) {
		if (((const struct rte_flow_action_of_set_vlan_pcp *)a->conf)->vlan_pcp > 7)
			return test_dm_limits_conf(e, EINVAL, a, "VLAN PCP must be 0 to 7");
		if (s->nb_push == 0)
			return test_dm_limits_err(e, ENOTSUP, a, "OF_SET_VLAN_PCP is supported "
						  "only after OF_PUSH_VLAN");
		return 0;
	}
	if (rte_be_to_cpu_16(((const struct rte_flow_action_of_set_vlan_vid *)a->conf)->vlan_vid) >
	    TEST_DM_LIMITS_VID_MAX)
		return test_dm_limits_conf(e, EINVAL, a, "VLAN VID must be at most 0xffe");
	if (s->nb_push != 0) {
		s->push_vid[s->nb_push - 1] = 1;
		return 0;
	}
	/* Without a push it rewrites the packet's tag: a field change. */
	if (s->vlan_items == 0)
		return test_dm_limits_err(e, EINVAL, a, "OF_SET_VLAN_VID needs OF_PUSH_VLAN before "
					  "it or a VLAN item in the pattern");
	return test_dm_limits_modify(s, a, e);
}

static int
test_dm_limits_pop(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		   struct rte_flow_error *e)
{
	if (s->nb_pop >= s->vlan_items)
		return test_dm_limits_err(e, ENOTSUP, a, "OF_POP_VLAN needs a VLAN item per popped "
					  "tag in the pattern");
	s->nb_pop++;
	return test_dm_limits_stage(s, TEST_DM_LIMITS_POP, a, e);
}

/* ---- encapsulation ---- */

static int
test_dm_limits_vxlan_decap(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
			   struct rte_flow_error *e)
{
	int ret = test_dm_limits_once(s, TEST_DM_LIMITS_A_DECAP, a, "only one decap action per "
				      "rule", e);

	if (ret == 0 && !(s->layers & 1u << TEST_DM_L_VXLAN))
		ret = test_dm_limits_err(e, EINVAL, a, "VXLAN_DECAP needs a VXLAN item in the "
					 "pattern");
	return ret < 0 ? ret : test_dm_limits_stage(s, TEST_DM_LIMITS_DECAP, a, e);
}

static int
test_dm_limits_vxlan_encap(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
			   struct rte_flow_error *e)
{
	int ret = test_dm_limits_once(s, TEST_DM_LIMITS_A_ENCAP, a, "only one encap action per "
				      "rule", e);

	return ret < 0 ? ret : test_dm_limits_stage(s, TEST_DM_LIMITS_ENCAP, a, e);
}

/* RAW_DECAP / RAW_ENCAP: a decap on ingress, an encap on egress (their stage follows). */
static int
test_dm_limits_raw(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		   struct rte_flow_error *e)
{
	enum test_dm_limits_stage st = s->attr->egress ? TEST_DM_LIMITS_ENCAP :
					 TEST_DM_LIMITS_DECAP;
	int ret;

	if (a->type == RTE_FLOW_ACTION_TYPE_RAW_DECAP) {
		ret = test_dm_limits_once(s, TEST_DM_LIMITS_A_DECAP, a, "only one decap action per "
					  "rule", e);
		if (ret == 0 && s->raw_encap != NULL)
			ret = test_dm_limits_err(e, ENOTSUP, a, "RAW_DECAP must come before "
						 "RAW_ENCAP");
		s->raw_decap = a;
	} else {
		const struct rte_flow_action_raw_encap *c = a->conf;

		ret = test_dm_limits_once(s, TEST_DM_LIMITS_A_ENCAP, a, "only one encap action per "
					  "rule", e);
		if (ret == 0 && (c->data == NULL || c->size == 0))
			ret = test_dm_limits_conf(e, EINVAL, a, "RAW_ENCAP data is empty");
		if (ret == 0 && c->preserve != NULL)
			ret = test_dm_limits_conf(e, ENOTSUP, a, "RAW_ENCAP preserve is not "
						  "supported");
		s->raw_encap = a;
	}
	return ret < 0 ? ret : test_dm_limits_stage(s, st, a, e);
}

static size_t
test_dm_limits_raw_size(const struct rte_flow_action *a)
{
	if (a->type == RTE_FLOW_ACTION_TYPE_RAW_DECAP)
		return ((const struct rte_flow_action_raw_decap *)a->conf)->size;
	return ((const struct rte_flow_action_raw_encap *)a->conf)->size;
}

static int
test_dm_limits_encap_data(const struct rte_flow_action *enc, struct rte_flow_error *e)
{
	size_t n = test_dm_limits_raw_size(enc);

	if (n % 2 != 0 || n > TEST_DM_LIMITS_ENCAP_MAX)
		return test_dm_limits_conf(e, ENOTSUP, enc, "RAW_ENCAP header must be an even "
					   "number of bytes, at most 126");
	return 0;
}

/* The four RAW_DECAP/RAW_ENCAP uses the PMD understands (as DPDK's mlx5 reads them). */
static int
test_dm_limits_reformat(const struct test_dm_limits_acts *s, struct rte_flow_error *e)
{
	const struct rte_flow_action *dec = s->raw_decap, *enc = s->raw_encap;
	uint32_t tunnels = 1u << TEST_DM_L_VXLAN | 1u << TEST_DM_L_GRE;

	if (dec == NULL && enc == NULL)
		return 0;
	if (!s->attr->egress) {
		if (dec == NULL)
			return test_dm_limits_err(e, ENOTSUP, enc, "RAW_ENCAP on ingress is only "
						  "supported after RAW_DECAP (L3 tunnel decap)");
		if (enc == NULL)
			return s->layers & tunnels ? 0 :
			       test_dm_limits_err(e, EINVAL, dec, "RAW_DECAP needs a tunnel item "
						  "in the pattern");
		if (test_dm_limits_raw_size(dec) <= TEST_DM_LIMITS_L2_MAX ||
		    (test_dm_limits_raw_size(enc) != 14 && test_dm_limits_raw_size(enc) != 18))
			return test_dm_limits_conf(e, ENOTSUP, enc, "RAW_DECAP + RAW_ENCAP on "
						   "ingress: an L3 tunnel decap needs a tunnel "
						   "header over 34 bytes and a new L2 header of 14 "
						   "or 18 bytes");
		return 0;
	}
	if (enc == NULL)
		return test_dm_limits_err(e, ENOTSUP, dec, "RAW_DECAP on egress is only supported "
					  "before RAW_ENCAP (L2 to L3 tunnel encap)");
	if (dec == NULL && test_dm_limits_raw_size(enc) < RTE_ETHER_HDR_LEN)
		return test_dm_limits_conf(e, EINVAL, enc, "RAW_ENCAP header shorter than "
					   "Ethernet");
	if (dec != NULL && (test_dm_limits_raw_size(dec) > TEST_DM_LIMITS_L2_MAX ||
			    test_dm_limits_raw_size(enc) <= TEST_DM_LIMITS_L2_MAX))
		return test_dm_limits_conf(e, ENOTSUP, enc, "RAW_DECAP + RAW_ENCAP on egress: an "
					   "L2 to L3 tunnel encap needs an L2 header of at most 34 "
					   "bytes and a tunnel header over 34 bytes");
	return test_dm_limits_encap_data(enc, e);
}

/* ---- the walk ---- */

struct test_dm_limits_act {
	enum rte_flow_action_type type;
	test_dm_limits_fn fn;
	uint8_t dir;		/**< 1 ingress only, 2 egress only, 3 transfer only, 0 any. */
	uint8_t conf;		/**< Needs a configuration. */
	const char *dir_msg;
};

#define TEST_DM_LA(t, f, d, c, m) { RTE_FLOW_ACTION_TYPE_##t, (f), (d), (c), (m) }

static const struct test_dm_limits_act test_dm_limits_acts[] = {
	TEST_DM_LA(VOID, NULL, 0, 0, NULL),
	TEST_DM_LA(DROP, test_dm_limits_fate, 0, 0, NULL),
	TEST_DM_LA(QUEUE, test_dm_limits_queue, 1, 1, "QUEUE is an ingress action"),
	TEST_DM_LA(RSS, test_dm_limits_rss, 1, 1, "RSS is an ingress action"),
	TEST_DM_LA(JUMP, test_dm_limits_jump, 0, 1, NULL),
	TEST_DM_LA(COUNT, test_dm_limits_count, 0, 0, NULL),
	TEST_DM_LA(MARK, test_dm_limits_mark, 1, 1, "MARK is an ingress action"),
	TEST_DM_LA(FLAG, test_dm_limits_mark, 1, 0, "FLAG is an ingress action"),
	TEST_DM_LA(SET_MAC_SRC, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_MAC_DST, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_IPV4_SRC, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_IPV4_DST, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_IPV6_SRC, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_IPV6_DST, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_TP_SRC, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_TP_DST, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_TTL, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(DEC_TTL, test_dm_limits_modify, 0, 0, NULL),
	TEST_DM_LA(INC_TCP_SEQ, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(DEC_TCP_SEQ, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(INC_TCP_ACK, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(DEC_TCP_ACK, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_IPV4_DSCP, test_dm_limits_modify, 0, 1, NULL),
	TEST_DM_LA(SET_TAG, test_dm_limits_reg, 0, 1, NULL),
	TEST_DM_LA(SET_META, test_dm_limits_reg, 0, 1, NULL),
	TEST_DM_LA(MODIFY_FIELD, test_dm_limits_modify_field, 0, 1, NULL),
	TEST_DM_LA(OF_PUSH_VLAN, test_dm_limits_push, 0, 1, NULL),
	TEST_DM_LA(OF_SET_VLAN_VID, test_dm_limits_vlan_set, 0, 1, NULL),
	TEST_DM_LA(OF_SET_VLAN_PCP, test_dm_limits_vlan_set, 0, 1, NULL),
	TEST_DM_LA(OF_POP_VLAN, test_dm_limits_pop, 0, 0, NULL),
	TEST_DM_LA(VXLAN_ENCAP, test_dm_limits_vxlan_encap, 2, 1,
		   "VXLAN_ENCAP is an egress action (NIC RX cannot encapsulate)"),
	TEST_DM_LA(VXLAN_DECAP, test_dm_limits_vxlan_decap, 1, 0,
		   "VXLAN_DECAP is an ingress action (NIC TX cannot decapsulate)"),
	TEST_DM_LA(RAW_ENCAP, test_dm_limits_raw, 0, 1, NULL),
	TEST_DM_LA(RAW_DECAP, test_dm_limits_raw, 0, 1, NULL),
	TEST_DM_LA(REPRESENTED_PORT, test_dm_limits_fate, 3, 1,
		   "REPRESENTED_PORT is a transfer action"),
	TEST_DM_LA(PORT_REPRESENTOR, test_dm_limits_fate, 3, 1,
		   "PORT_REPRESENTOR is a transfer action"),
	TEST_DM_LA(PORT_ID, test_dm_limits_fate, 3, 1, "PORT_ID is a transfer action"),
};

/*
 * Where an action may be: the E-Switch (FDB) both encapsulates and
 * decapsulates, but has no Rx queue nor flow tag to deliver to.
 */
static int
test_dm_limits_dir(const struct test_dm_limits_act *d, const struct rte_flow_attr *attr,
		   enum rte_flow_action_type type)
{
	if (attr->transfer)
		return d->dir == 0 || d->dir == 3 || type == RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP ||
		       type == RTE_FLOW_ACTION_TYPE_VXLAN_DECAP;
	return d->dir == 0 || (d->dir == 1 && attr->ingress) || (d->dir == 2 && attr->egress);
}

static int
test_dm_limits_one(struct test_dm_limits_acts *s, const struct rte_flow_action *a,
		   struct rte_flow_error *e)
{
	const struct test_dm_limits_act *d = NULL;
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_limits_acts); i++)
		if (test_dm_limits_acts[i].type == a->type)
			d = &test_dm_limits_acts[i];
	if (d == NULL)
		return test_dm_limits_err(e, ENOTSUP, a, "action type not supported");
	if (!test_dm_limits_dir(d, s->attr, a->type))
		return test_dm_limits_err(e, ENOTSUP, a, s->attr->transfer ? "action not supported "
					  "in transfer rules (no Rx queue nor flow tag in the "
					  "E-Switch)" : d->dir_msg);
	if (d->conf && a->conf == NULL)
		return test_dm_limits_conf(e, EINVAL, a, "action configuration is missing");
	return d->fn != NULL ? d->fn(s, a, e) : 0;
}

/* Pushed tags take their VID from OF_SET_VLAN_VID or from a VLAN item matching the whole VID. */
static int
test_dm_limits_push_vid(const struct test_dm_limits_acts *s, struct rte_flow_error *e)
{
	unsigned int i;

	for (i = 0; i < s->nb_push; i++)
		if (!s->push_vid[i] && !s->vid_matched)
			return test_dm_limits_err(e, EINVAL, s->push[i], "OF_PUSH_VLAN needs "
						  "OF_SET_VLAN_VID or a VLAN item with a fully "
						  "masked VID");
	return 0;
}

static void
test_dm_limits_pattern(struct test_dm_limits_acts *s, const struct rte_flow_item *pattern)
{
	const struct rte_flow_item *it;
	enum test_dm_layer l;

	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		l = test_dm_flow_item_layer(it->type);
		if (l != TEST_DM_L_COUNT)
			s->layers |= 1u << l;
		if (it->spec != NULL && (it->type == RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT ||
					 it->type == RTE_FLOW_ITEM_TYPE_PORT_ID)) {
			uint32_t port = it->type == RTE_FLOW_ITEM_TYPE_PORT_ID ?
				((const struct rte_flow_item_port_id *)it->spec)->id :
				((const struct rte_flow_item_ethdev *)it->spec)->port_id;

			s->from_wire = port < TEST_DM_REF_MAX_PORTS &&
				       s->r->cfg.role[port] == TEST_DM_REF_PF;
		}
		if (it->type != RTE_FLOW_ITEM_TYPE_VLAN)
			continue;
		s->vlan_items++;
		if (it->spec != NULL) {
			const struct rte_flow_item_vlan *m = it->mask != NULL ? it->mask :
				test_dm_flow_item_default_mask(it->type);

			s->vid_matched |= (rte_be_to_cpu_16(m->hdr.vlan_tci) & 0xfff) == 0xfff;
		}
	}
}

int
test_dm_ref_limits_actions(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			   const struct rte_flow_item *pattern,
			   const struct rte_flow_action *actions, struct rte_flow_error *e)
{
	struct test_dm_limits_acts s = { .r = r, .attr = attr };
	const struct rte_flow_action *a, *decap = NULL, *vxlan_encap = NULL;
	int ret;

	if (r->cfg.limits != TEST_DM_REF_LIMITS_MLX5DM)
		return 0;
	test_dm_limits_pattern(&s, pattern);
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		ret = test_dm_limits_one(&s, a, e);
		if (ret < 0)
			return ret;
		if (a->type == RTE_FLOW_ACTION_TYPE_VXLAN_DECAP ||
		    a->type == RTE_FLOW_ACTION_TYPE_RAW_DECAP)
			decap = a;
		else if (a->type == RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP)
			vxlan_encap = a;
	}
	/* The FDB decapsulates on its RX side: frames from the wire, not encapsulated again. */
	if (attr->transfer && decap != NULL && !s.from_wire)
		return test_dm_limits_err(e, ENOTSUP, decap, "the FDB decapsulates frames from the "
					  "wire only");
	if (attr->transfer && decap != NULL && vxlan_encap != NULL)
		return test_dm_limits_err(e, ENOTSUP, vxlan_encap, "a transfer rule that "
					  "decapsulates does not encapsulate again");
	if (s.fate == NULL && attr->ingress)
		return test_dm_limits_err(e, EINVAL, actions, "ingress rules need a fate action: "
					  "QUEUE, RSS, DROP or JUMP");
	if (s.fate == NULL && attr->transfer)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
				       "transfer rules need a fate action: a port action, DROP "
				       "or JUMP");
	/* Register writes change no packet byte: they go with DROP. */
	if (s.fate != NULL && s.fate->type == RTE_FLOW_ACTION_TYPE_DROP &&
	    (s.seen & TEST_DM_LIMITS_A_CHANGE))
		return test_dm_limits_err(e, ENOTSUP, s.fate, "DROP cannot be combined with header "
					  "changes");
	ret = test_dm_limits_reformat(&s, e);
	if (ret == 0)
		ret = test_dm_limits_push_vid(&s, e);
	/* NIC RX takes a push after a pop only with a field change between them. */
	if (ret == 0 && attr->ingress && s.nb_pop != 0 && s.nb_push != 0 &&
	    !(s.seen & (TEST_DM_LIMITS_A_FIELD | TEST_DM_LIMITS_A_REG)))
		ret = test_dm_limits_err(e, ENOTSUP, s.push[0], "on ingress, OF_PUSH_VLAN cannot "
					 "follow OF_POP_VLAN without a field change between them");
	return ret;
}
