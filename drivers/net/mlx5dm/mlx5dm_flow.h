/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The rte_flow part of net_mlx5dm: translation (rte_flow rule -> struct
 * mlx5dm_flow_spec; no device, no EAL, no allocation) and objects (spec ->
 * steering library objects). Its conventions (groups, priorities, metadata
 * registers, flow tags) are in doc/guides/nics/mlx5dm.rst.
 */

#ifndef _MLX5DM_FLOW_H_
#define _MLX5DM_FLOW_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_prm_modify.h"
#include "mlx5dm_steer.h"

/* ---- limits and conventions ---- */

#define MLX5DM_FLOW_SUBPRIO 4u
/* The last band (MLX5DM_FLOW_MAX_PRIORITY + 1) is the default rule's. */
#define MLX5DM_FLOW_MAX_PRIORITY ((UINT16_MAX + 1u) / MLX5DM_FLOW_SUBPRIO - 2u)
#define MLX5DM_FLOW_DEFAULT_PRIORITY (MLX5DM_FLOW_MAX_PRIORITY + 1u)
/* Group g is table level g + 1, which must fit the library's uint32_t. */
#define MLX5DM_FLOW_MAX_GROUP (UINT32_MAX - 1u)
#define MLX5DM_FLOW_MAX_QUEUES 64u
#define MLX5DM_FLOW_MAX_MODIFY 64u        /* PRM entries per modify-header action */
#define MLX5DM_FLOW_MAX_ENCAP 126u        /* bytes: even, 6-bit count of 2-byte words */
#define MLX5DM_FLOW_MAX_SUB 16u           /* rules one rte_flow rule may expand into */
#define MLX5DM_FLOW_MAX_VLAN_PUSH 2u
#define MLX5DM_FLOW_MARK_MAX 0xfffffdu

#define MLX5DM_FLOW_TAG_FLAG 0xffffffu
#define MLX5DM_FLOW_MARK_REG_FLAG (1u << 24)
#define MLX5DM_FLOW_NB_TAGS 4u

/* The _EX types hash as plain IPv6: the device does not parse extension headers. */
#define MLX5DM_FLOW_RSS_HF_SUPPORTED \
	(RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
	 RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_NONFRAG_IPV4_OTHER | RTE_ETH_RSS_IPV6 | \
	 RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP | \
	 RTE_ETH_RSS_NONFRAG_IPV6_OTHER | RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | \
	 RTE_ETH_RSS_IPV6_UDP_EX | RTE_ETH_RSS_L3_SRC_ONLY | RTE_ETH_RSS_L3_DST_ONLY | \
	 RTE_ETH_RSS_L4_SRC_ONLY | RTE_ETH_RSS_L4_DST_ONLY)

/* A CQE flow tag: 0 no mark, 1 FLAG, 2 MARK (*id set). */
static inline int
mlx5dm_flow_tag_decode(uint32_t tag, uint32_t *id)
{
	tag &= 0xffffffu;
	if (tag == 0)
		return 0;
	if (tag == MLX5DM_FLOW_TAG_FLAG)
		return 1;
	*id = tag - 1;
	return 2;
}

/* ---- pattern layers ---- */

/* Per level (outer in the low half, inner = MLX5DM_FLOW_INNER(flag)). */
enum {
	MLX5DM_FLOW_L_L2 = 1u << 0,
	MLX5DM_FLOW_L_VLAN = 1u << 1,
	MLX5DM_FLOW_L_VLAN2 = 1u << 2,
	MLX5DM_FLOW_L_IPV4 = 1u << 3,
	MLX5DM_FLOW_L_IPV6 = 1u << 4,
	MLX5DM_FLOW_L_TCP = 1u << 5,
	MLX5DM_FLOW_L_UDP = 1u << 6,
	MLX5DM_FLOW_L_ICMP = 1u << 7,
	MLX5DM_FLOW_L_ICMP6 = 1u << 8,
};
#define MLX5DM_FLOW_L_L3 (MLX5DM_FLOW_L_IPV4 | MLX5DM_FLOW_L_IPV6)
#define MLX5DM_FLOW_L_L4 \
	(MLX5DM_FLOW_L_TCP | MLX5DM_FLOW_L_UDP | MLX5DM_FLOW_L_ICMP | MLX5DM_FLOW_L_ICMP6)
#define MLX5DM_FLOW_INNER(f) ((uint64_t)(f) << 16)
/* Match field f of the inner (in) or outer headers. */
#define MLX5DM_FLOW_IO(in, f) ((in) ? MLX5DM_FTE(inner, f) : MLX5DM_FTE(outer, f))
/* Level-independent. */
#define MLX5DM_FLOW_L_VXLAN (1ull << 32)
#define MLX5DM_FLOW_L_GRE (1ull << 33)
#define MLX5DM_FLOW_L_GRE_KEY (1ull << 34)
#define MLX5DM_FLOW_L_MPLS (1ull << 35)
#define MLX5DM_FLOW_L_META (1ull << 36)
#define MLX5DM_FLOW_L_MARK (1ull << 37)
#define MLX5DM_FLOW_L_TAG(i) (1ull << (38 + (i)))
#define MLX5DM_FLOW_L_TUNNEL (MLX5DM_FLOW_L_VXLAN | MLX5DM_FLOW_L_GRE)

/* ---- the spec: what a rule becomes ---- */

enum mlx5dm_flow_fate {
	MLX5DM_FLOW_FATE_NONE,      /* egress only: continue to the wire */
	MLX5DM_FLOW_FATE_DROP,
	MLX5DM_FLOW_FATE_QUEUE,     /* QUEUE or RSS: TIRs per sub-rule */
	MLX5DM_FLOW_FATE_JUMP,
	MLX5DM_FLOW_FATE_VPORT,     /* transfer: to vport dest_vport of the E-Switch */
};

/*
 * One library rule of an rte_flow rule: RSS over several packet classes
 * expands into one per distinct hash, and a VLAN tag of either kind into
 * one per kind (the device tells C- from S-tags in one qualifier).
 */
struct mlx5dm_flow_sub {
	uint8_t subprio;            /* 0 .. MLX5DM_FLOW_SUBPRIO - 1 */
	uint8_t ipv;                /* extra match: 0, 4 or 6 */
	uint8_t proto;              /* extra match: 0 or IP protocol */
	uint8_t svlan;              /* extra match: MLX5DM_FLOW_TAG_BIT()s matched as S-tags */
	bool inner;                 /* ... on the inner headers */
	bool hash;                  /* TIR spreads by RSS (else the first queue only) */
	struct mlx5dm_rss_attr rss; /* when hash */
};

/* A VLAN tag of the pattern: first (0) or second (1) of the outer (0) or inner (1) headers. */
#define MLX5DM_FLOW_TAG_BIT(inner, second) (1u << ((inner) * 2u + (second)))
/* The match field saying the tag is a C-tag (svlan false) or an S-tag (mlx5dm_flow_rss.c). */
enum mlx5dm_fte_field mlx5dm_flow_vlan_tag_field(bool inner, bool second, bool svlan);

/* The sub-rule matches no more than the spec (no extra match of its own). */
static inline bool
mlx5dm_flow_sub_plain(const struct mlx5dm_flow_sub *s)
{
	return s->ipv == 0 && s->proto == 0 && s->svlan == 0;
}

struct mlx5dm_flow_push {
	uint16_t tpid;
	uint16_t tci;
};

/*
 * Zeroed up to MLX5DM_FLOW_SPEC_ZEROED only: the arrays after it are valid
 * up to their counts (rss_key with RSS), so a rule does not clear
 * kilobytes it never reads.
 */
struct mlx5dm_flow_spec {
	/* Attributes. */
	bool egress;
	bool transfer;              /* an FDB rule (egress false): one sub-rule */
	uint32_t group;
	uint32_t priority;          /* rte_flow priority */
	/* Actions: kinds and counts. */
	enum mlx5dm_flow_fate fate;
	uint32_t jump_group;
	uint16_t dest_vport;
	uint16_t nb_queues;
	bool rss_inner;             /* RSS level 2 */
	bool rss_symmetric;
	uint64_t rss_types;
	uint8_t nb_sub;
	/*
	 * Rule slots past the sub-rules' that the flow's maker keeps its own
	 * record in (mlx5dm_flow_extra()); translation leaves none.
	 */
	uint8_t nb_extra;
	/*
	 * The caches' domain of its matchers when it is not the rule's
	 * direction (0): a representor's table (MLX5DM_FLOW_DOM_REP()), whose
	 * priorities are the rte_flow ones, as an FDB rule's.
	 */
	uint16_t table_dom;
	bool count;
	bool tag;
	uint32_t tag_value;         /* CQE flow tag */
	bool decap;
	bool encap;
	enum mlx5dm_reformat_type decap_type;
	enum mlx5dm_reformat_type encap_type;
	uint16_t decap_len;         /* L3 decap: the new L2 header */
	uint16_t encap_len;
	uint8_t nb_pop;
	uint8_t nb_push;
	uint16_t nb_modify;
	/* MLX5DM_FLOW_TAG_BIT()s of the tags the pattern wants of either kind. */
	uint8_t vlan_either;
	/* Match (PRM fte_match_param). */
	uint64_t layers;            /* MLX5DM_FLOW_L_* of the pattern */
	uint8_t criteria;           /* sections with a non-zero mask (kept by match_set) */
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE];
	uint8_t value[MLX5DM_MATCH_PARAM_SIZE];
	/* Not zeroed by translation (see above). */
	uint16_t queues[MLX5DM_FLOW_MAX_QUEUES];
	uint8_t rss_key[40];
	struct mlx5dm_flow_sub sub[MLX5DM_FLOW_MAX_SUB];
	struct mlx5dm_flow_push push[MLX5DM_FLOW_MAX_VLAN_PUSH];
	uint8_t decap_data[32];
	uint8_t encap_data[MLX5DM_FLOW_MAX_ENCAP];
	uint8_t modify[MLX5DM_FLOW_MAX_MODIFY * 8];
};
#define MLX5DM_FLOW_SPEC_ZEROED offsetof(struct mlx5dm_flow_spec, queues)

/* The translation context: what translation needs to know about the port. */
struct mlx5dm_flow_context {
	uint16_t nb_rx_queues;
	bool internal;              /* the PMD's own default rule: reserved priority allowed */
	/* A relaxed pattern template's rule: an item without a mask implies no protocol. */
	bool relaxed;
	/* NIC RX and TX, whose device checks the masks (NULL: STE format 1, no flex parser). */
	struct mlx5dm_domain *dom[2];
};

/* Translate and validate one rule (masks checked by the library); 0 or -errno with error. */
int mlx5dm_flow_translate(const struct mlx5dm_flow_context *ctx, const struct rte_flow_attr *attr,
			  const struct rte_flow_item items[],
			  const struct rte_flow_action actions[], struct mlx5dm_flow_spec *spec,
			  struct rte_flow_error *error);
struct mlx5dm_flow_recording;
/* The same, recording the pattern walk into rec (its counts zero; NULL: none). */
int mlx5dm_flow_translate_record(const struct mlx5dm_flow_context *ctx,
				 struct mlx5dm_flow_recording *rec,
				 const struct rte_flow_attr *attr,
				 const struct rte_flow_item items[],
				 const struct rte_flow_action actions[],
				 struct mlx5dm_flow_spec *spec, struct rte_flow_error *error);

/*
 * mlx5dm_flow_match.c: "item type SCTP not supported" with DPDK's name of the
 * type, in a per-thread buffer (rte_flow_error keeps only a pointer).
 */
const char *mlx5dm_flow_type_msg(bool action, int type);
/* "IPV4: <msg>": a refusal whose static text does not say which item (action) it is about. */
const char *mlx5dm_flow_named_msg(bool action, int type, const char *msg);

/* The mask / value of sub-rule i (spec mask plus its extra match), copied. */
void mlx5dm_flow_sub_match(const struct mlx5dm_flow_spec *spec, unsigned int i, uint8_t *mask,
			   uint8_t *value, uint8_t *criteria);

/* Matcher priority of sub-rule i (an FDB rule's is its rte_flow priority, as esw.c's). */
static inline uint16_t
mlx5dm_flow_sub_priority(const struct mlx5dm_flow_spec *spec, unsigned int i)
{
	if (MLX5DM_UNLIKELY(spec->transfer || spec->table_dom != 0))
		return (uint16_t)spec->priority;
	return (uint16_t)(spec->priority * MLX5DM_FLOW_SUBPRIO + spec->sub[i].subprio);
}

/* ---- translation internals (shared between the translation files) ---- */

struct mlx5dm_flow_item_def;

struct mlx5dm_flow_translation {
	const struct mlx5dm_flow_context *ctx;
	struct mlx5dm_flow_spec *spec;
	const struct rte_flow_item *items;
	/* Pattern walk. */
	const struct rte_flow_item *item;      /* current item */
	const struct mlx5dm_flow_item_def *def; /* its definition */
	const struct rte_flow_item *prev;      /* previous non-VOID item */
	uint8_t variant;                       /* fte field variant of the current item */
	bool inner;                            /* current item is after a tunnel item */
	uint16_t next_tpid[2];                 /* TPID announced for the next VLAN, per level */
	uint16_t cur_tpid;                     /* TPID of the VLAN item being translated */
	uint16_t owner[MLX5DM_FTE_NUM_FIELDS]; /* per match field: its item's index + 1 */
	struct mlx5dm_flow_recording *rec;     /* the recording of a walk compiled */
	/* Action walk. */
	uint32_t seen;                         /* MLX5DM_FLOW_A_* */
	uint8_t stage;                         /* enum mlx5dm_flow_stage reached */
	const struct rte_flow_action *fate_act;
	const struct rte_flow_action_raw_decap *raw_decap;
	const struct rte_flow_action_raw_encap *raw_encap;
	const struct rte_flow_action *raw_decap_act;
	const struct rte_flow_action *raw_encap_act;
	const struct rte_flow_action *push_act[MLX5DM_FLOW_MAX_VLAN_PUSH];
	bool push_vid_set[MLX5DM_FLOW_MAX_VLAN_PUSH];
	bool push_pcp_set[MLX5DM_FLOW_MAX_VLAN_PUSH];
	const struct rte_flow_action *actions;  /* the list (cause of list-wide errors) */
};

/* Order in which the device applies header changes. */
enum mlx5dm_flow_stage {
	MLX5DM_FLOW_STAGE_START,
	MLX5DM_FLOW_STAGE_DECAP,
	MLX5DM_FLOW_STAGE_POP,
	MLX5DM_FLOW_STAGE_MODIFY,
	MLX5DM_FLOW_STAGE_PUSH,
	MLX5DM_FLOW_STAGE_ENCAP,
};

enum {
	MLX5DM_FLOW_A_FATE = 1u << 0,
	MLX5DM_FLOW_A_COUNT = 1u << 1,
	MLX5DM_FLOW_A_MARK = 1u << 2,           /* MARK or FLAG */
	MLX5DM_FLOW_A_DECAP = 1u << 3,
	MLX5DM_FLOW_A_ENCAP = 1u << 4,
	MLX5DM_FLOW_A_MODIFY = 1u << 5,         /* a header field is rewritten */
	MLX5DM_FLOW_A_POP = 1u << 6,
	MLX5DM_FLOW_A_PUSH = 1u << 7,
};

/* mlx5dm_flow_match.c: writing the match parameter. */
/* Set mask/value bits of a field; a contradiction with what is there fails. */
int mlx5dm_flow_match_set(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f, uint32_t mask,
			  uint32_t value, struct rte_flow_error *error);
/* The whole field becomes value (VLAN tag kinds, checked by the caller). */
void mlx5dm_flow_match_replace(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f,
			       uint32_t value);
/* Implied by an item (or action): the whole field must equal value. */
int mlx5dm_flow_match_imply(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f,
			    uint32_t value, struct rte_flow_error *error);
/* ip_version in the SW-steering convention: mask = value = version (4 or 6). */
int mlx5dm_flow_match_ip_version(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f,
				 uint32_t version, struct rte_flow_error *error);
/* Implied unless the pattern matches the field itself (e.g. a VXLAN UDP port). */
int mlx5dm_flow_match_default(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f,
			      uint32_t value, struct rte_flow_error *error);
/* Current mask / value of a field. */
uint32_t mlx5dm_flow_match_mask(const struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f);
uint32_t mlx5dm_flow_match_value(const struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f);
/* Turn spec/last of a big-endian bit range into a (narrower) mask; see the .c. */
int mlx5dm_flow_range_to_mask(const uint8_t *spec, const uint8_t *last, uint8_t *mask,
			      unsigned int bit, unsigned int width);
/* match_criteria_enable from the mask. */
uint8_t mlx5dm_flow_match_criteria(const uint8_t *mask);

/* mlx5dm_flow_items.c */
int mlx5dm_flow_translate_items(struct mlx5dm_flow_translation *x,
				const struct rte_flow_item items[], struct rte_flow_error *error);

/* Layers of the level the actions act on (inner after a decap). */
uint32_t mlx5dm_flow_action_layers(const struct mlx5dm_flow_translation *x);

/* Enter a header-change stage (decap < pop < modify < push < encap). */
static inline int
mlx5dm_flow_stage_enter(struct mlx5dm_flow_translation *x, enum mlx5dm_flow_stage stage,
			const struct rte_flow_action *a, struct rte_flow_error *error)
{
	if (stage < x->stage)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "header changes must come in the order the device "
					  "applies them: decap, VLAN pop, field changes, VLAN "
					  "push, encap");
	x->stage = (uint8_t)stage;
	return 0;
}

/* mlx5dm_flow_actions.c */
int mlx5dm_flow_translate_actions(struct mlx5dm_flow_translation *x,
				  const struct rte_flow_action actions[],
				  struct rte_flow_error *error);
/* The translation takes actions of this type (in some rules). */
bool mlx5dm_flow_action_known(enum rte_flow_action_type type);

/* mlx5dm_flow_modify.c: PRM modify-header entries. */
/* Entry e sets a whole 32-bit field: true, its data in *data. */
bool mlx5dm_flow_modify_is_set32(const uint8_t *e, uint32_t *data);
/*
 * Append a PRM entry. A COPY reads field from offset and writes dst from dst_offset; the
 * others write field (then dst is field). A length of 0 or 32: all of it.
 */
int mlx5dm_flow_modify_entry(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			     uint8_t type, uint8_t field, uint8_t offset, uint8_t length,
			     uint32_t data, uint8_t dst, uint8_t dst_offset,
			     struct rte_flow_error *error);
int mlx5dm_flow_modify_set(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			   uint8_t field, uint8_t offset, uint8_t length, uint32_t data,
			   struct rte_flow_error *error);
/* The register of TAG index (below MLX5DM_FLOW_NB_TAGS), or of META when index < 0. */
uint8_t mlx5dm_flow_modify_reg(const struct mlx5dm_flow_translation *x, int index);
/* SET_TAG / SET_META. */
int mlx5dm_flow_translate_set_reg(struct mlx5dm_flow_translation *x,
				  const struct rte_flow_action *a, struct rte_flow_error *error);

/* mlx5dm_flow_modify_field.c: MODIFY_FIELD, and the SET_* / DEC_TTL / INC_* / OF_SET_VLAN_VID. */
int mlx5dm_flow_translate_modify_field(struct mlx5dm_flow_translation *x,
				       const struct rte_flow_action *a,
				       struct rte_flow_error *error);
int mlx5dm_flow_translate_set(struct mlx5dm_flow_translation *x,
				     const struct rte_flow_action *a, struct rte_flow_error *error);

/* mlx5dm_flow_encap.c */
int mlx5dm_flow_vxlan_encap_build(const struct rte_flow_action *a, uint8_t *buf, size_t *len,
				  struct rte_flow_error *error);
int mlx5dm_flow_translate_reformat(struct mlx5dm_flow_translation *x, struct rte_flow_error *error);

/* mlx5dm_flow_rss.c */
extern const uint8_t mlx5dm_flow_rss_default_key[40];
int mlx5dm_flow_translate_rss(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			      struct rte_flow_error *error);
int mlx5dm_flow_translate_queue(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
				struct rte_flow_error *error);
/* Build the sub-rules once pattern and fate are known. */
int mlx5dm_flow_rss_expand(struct mlx5dm_flow_translation *x, struct rte_flow_error *error);
/*
 * Each sub-rule of spec once per kind of each VLAN tag the pattern leaves
 * to either kind (spec->vlan_either): a C-tag, then an S-tag. 0 or -errno
 * with error (more than MLX5DM_FLOW_MAX_SUB sub-rules and nb_extra).
 */
int mlx5dm_flow_vlan_expand(struct mlx5dm_flow_spec *spec, struct rte_flow_error *error);

/* A cached object: the first member of one found by a byte key (mlx5dm_index_*). */
struct mlx5dm_flow_cached {
	uint32_t hash;
	uint32_t refcnt;
	uint16_t key_len;
	uint8_t cls;                    /* its memory (mlx5dm_flow_obj_alloc()) */
	const uint8_t *key;
};

/* mlx5dm_flow_compile.c: compiled templates (what they are: see there). */
#define MLX5DM_FLOW_ITEM_MAX_SIZE 64u      /* largest rte_flow_item_* spec handled */
#define MLX5DM_FLOW_COMPILED_ITEMS 8u         /* longest pattern compiled (END excluded) */
#define MLX5DM_FLOW_COMPILED_COPIES 16u       /* spec fields copied per pattern, at most */
#define MLX5DM_FLOW_COMPILED_ACTIONS 8u       /* longest action list compiled (END excluded) */
/* attr, per item: type, spec/mask flags, mask bytes; END; action types; padding. */
#define MLX5DM_FLOW_SHAPE_MAX (sizeof(struct rte_flow_attr) + 8u + 4u + \
			       MLX5DM_FLOW_COMPILED_ITEMS * (5u + MLX5DM_FLOW_ITEM_MAX_SIZE) + \
			       MLX5DM_FLOW_COMPILED_ACTIONS * 4u)

/* One field copied from an item's spec into the match value. */
struct mlx5dm_flow_compiled_copy {
	uint8_t item;                   /* index in the pattern */
	uint8_t width;
	uint16_t bit;                   /* in the item's spec */
	uint16_t fte;                   /* enum mlx5dm_fte_field */
	uint32_t mask;                  /* the field's mask */
	/* Non-zero: whole bytes under a full mask, copied as they are to byte dst of the value. */
	uint8_t bytes;
	uint16_t dst;
};

/*
 * The recording of an example's walk, on mlx5dm_flow_compile()'s stack:
 * writes per field (pinned once read), copy candidates, the items' masks
 * and the bits the candidates copy.
 */
struct mlx5dm_flow_recording {
	uint8_t use[MLX5DM_FTE_NUM_FIELDS];
	uint8_t nb_cand;
	struct mlx5dm_flow_compiled_copy cand[MLX5DM_FLOW_COMPILED_COPIES];
	uint8_t mask[MLX5DM_FLOW_COMPILED_ITEMS][MLX5DM_FLOW_ITEM_MAX_SIZE];
	uint8_t sel[MLX5DM_FLOW_COMPILED_ITEMS][MLX5DM_FLOW_ITEM_MAX_SIZE];
};

struct mlx5dm_flow_compiled {
	/* References: its rules, the table owning it (owned). */
	struct mlx5dm_flow_cached k;
	bool owned;
	uint16_t id;                    /* in the rules' handles */
	bool fast;                      /* rules take the setters (else each is translated) */
	uint8_t nb_moves;
	uint8_t nb_copies;
	uint8_t nb_items;               /* items the setters read */
	uint8_t queue_at;               /* action giving the queue, MARK id (+1; 0: none) */
	uint8_t mark_at;
	/* Bytes of copied fields moved as they are: source item, byte in its spec, in the value. */
	struct mlx5dm_match_move move[MLX5DM_FLOW_COMPILED_COPIES];
	struct mlx5dm_flow_compiled_copy copy[MLX5DM_FLOW_COMPILED_COPIES];
	/* The example's result: a fast template's rules', but for the setters' bits and values. */
	struct mlx5dm_flow_spec res;
	/* Its objects, taken by its first rule and let go with its last: matcher, sets by queue. */
	struct mlx5dm_flow_matcher *m;
	/* Made with the matcher when the moves are the setters: tags straight from the items. */
	struct mlx5dm_tag_tmpl *tag;
	struct mlx5dm_flow_action_set *sets[MLX5DM_FLOW_MAX_QUEUES];
	uint32_t args[MLX5DM_RULE_MAX_ACTIONS]; /* of the sets' actions (the tag the rule's) */
	uint8_t shape[MLX5DM_FLOW_SHAPE_MAX] __rte_aligned(8); /* an implicit template's key */
};

/*
 * Compile ct from the example rule (its translation into spec, 0 or -errno
 * with error): fixed, bit i: action i is the template's (masked), not the
 * rule's.
 */
int mlx5dm_flow_compile(struct mlx5dm_flow_compiled *ct, const struct mlx5dm_flow_context *ctx,
			const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			const struct rte_flow_action actions[], uint32_t fixed,
			struct mlx5dm_flow_spec *spec, struct rte_flow_error *error);
/* What a rule of a fast template gives: its Rx queue (action set), flow tag and item specs. */
struct mlx5dm_flow_rule_values {
	uint16_t queue;
	uint32_t tag;
	const void *spec[MLX5DM_FLOW_COMPILED_ITEMS];
};
/*
 * A rule of ct's shape (fast) into r; false: a value the translation
 * refuses (it says why).
 */
bool mlx5dm_flow_compiled_rule(const struct mlx5dm_flow_compiled *ct, uint16_t nb_rx_queues,
			       const struct rte_flow_item items[],
			       const struct rte_flow_action actions[],
			       struct mlx5dm_flow_rule_values *r);
/* The match value of rule r of ct. */
void mlx5dm_flow_compiled_value(const struct mlx5dm_flow_compiled *ct,
				const struct mlx5dm_flow_rule_values *r, uint8_t *value);
/*
 * The shape of a rule into key (MLX5DM_FLOW_SHAPE_MAX bytes, 8-byte
 * aligned) and its hash; its length, 0 if no template keeps such a rule.
 */
size_t mlx5dm_flow_shape_key(const struct mlx5dm_flow_context *ctx,
			     const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			     const struct rte_flow_action actions[], uint8_t *key, uint32_t *hash);
/* The spec up to MLX5DM_FLOW_SPEC_ZEROED and its arrays up to their counts. */
void mlx5dm_flow_spec_copy(struct mlx5dm_flow_spec *dst, const struct mlx5dm_flow_spec *src);

/* ---- objects ---- */

/* What the object layer needs from the port (set at start). */
struct mlx5dm_flow_port {
	struct mlx5dm_ctx *ctx;
	/* [0] NIC RX, [1] NIC TX, [2] FDB (an E-Switch manager's; NULL: none). */
	struct mlx5dm_domain *dom[3];
	/* RQ number behind Rx queue q (mlx5dm_rxq_rqn on a real port). */
	int (*rqn)(void *arg, uint16_t q, uint32_t *rqn);
	void *rqn_arg;
	/*
	 * The context's rule queues (struct mlx5dm_priv): lcore_queue[lcore
	 * id] is the queue of an EAL lcore, any the one every other thread
	 * takes under fp->any_lock; nb_tmpl queues from tmpl on are the flow
	 * queues'. lcore_queue NULL (a port built by hand): every thread uses
	 * queue any.
	 */
	const uint16_t *lcore_queue;
	uint16_t any;
	uint16_t tmpl;
	uint16_t nb_tmpl;
	uint16_t nb_queues;
};

struct mlx5dm_flow_tbl;
/* A cached matcher (mlx5dm_flow_cache.c); rules reach its library object inline. */
struct mlx5dm_flow_matcher {
	struct mlx5dm_flow_cached k;    /* first: the cache's view */
	struct mlx5dm_flow_tbl *tbl;
	struct mlx5dm_matcher *m;
	uint8_t key[];
};

/* Cache domains: 0 NIC RX, 1 NIC TX (egress), the FDB, VF vf's representor table. */
#define MLX5DM_FLOW_DOM_FDB 2u
#define MLX5DM_FLOW_DOM_REP(vf) (3u + (vf))
struct mlx5dm_flow_action_set;
struct mlx5dm_flow_cnt_bulk;

struct mlx5dm_flow_cache_key {
	const uint8_t *key;
	size_t len;
};

/* The keyed object rec has key (an mlx5dm_index_eq). */
static inline bool
mlx5dm_flow_cached_is(const void *rec, const void *key)
{
	const struct mlx5dm_flow_cached *o = rec;
	const struct mlx5dm_flow_cache_key *k = key;

	return o->key_len == k->len && memcmp(o->key, k->key, k->len) == 0;
}

/*
 * References change under fp->lock, but for a template table's rules
 * begun without it (mlx5dm_flow_objs_quick()): atomic, both.
 */
static inline void
mlx5dm_flow_cached_ref(struct mlx5dm_flow_cached *o)
{
	__atomic_fetch_add(&o->refcnt, 1, __ATOMIC_RELAXED);
}
static inline uint32_t
mlx5dm_flow_cached_refs(const struct mlx5dm_flow_cached *o)
{
	return __atomic_load_n(&o->refcnt, __ATOMIC_ACQUIRE);
}
/* The object with this key and hash, one more reference; NULL if none (inline: per rule). */
static inline struct mlx5dm_flow_cached *
mlx5dm_flow_cache_find(struct mlx5dm_index *cache, const uint8_t *key, size_t len,
		       uint32_t hash)
{
	const struct mlx5dm_flow_cache_key k = { .key = key, .len = len };
	struct mlx5dm_flow_cached *o = mlx5dm_index_find(cache, hash, mlx5dm_flow_cached_is, &k);

	if (o != NULL)
		mlx5dm_flow_cached_ref(o);
	return o;
}
/* A new object (one reference) under key, copied to key_store; its place reserved. */
void mlx5dm_flow_cache_insert(struct mlx5dm_index *cache, struct mlx5dm_flow_cached *o,
			      uint32_t hash, const uint8_t *key, size_t len, uint8_t *key_store);
struct mlx5dm_flow_priv;
/* A new object for a key of len bytes, and where its key goes; NULL + errno. */
typedef struct mlx5dm_flow_cached *(*mlx5dm_flow_cache_make)(struct mlx5dm_flow_priv *fp,
							     const void *arg, size_t len,
							     uint8_t **key_store);
/*
 * The object of key with one more reference, else a new one make(arg)
 * builds (as DPDK mlx5's mlx5_list does); NULL + errno.
 */
struct mlx5dm_flow_cached *mlx5dm_flow_cache_get(struct mlx5dm_flow_priv *fp,
						 struct mlx5dm_index *cache, const uint8_t *key,
						 size_t len, mlx5dm_flow_cache_make make,
						 const void *arg);
/* One reference less: true when it was the last (the object is out of the cache). */
static inline bool
mlx5dm_flow_cache_unref(struct mlx5dm_index *cache, struct mlx5dm_flow_cached *o)
{
	if (__atomic_sub_fetch(&o->refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return false;
	(void)mlx5dm_index_remove(cache, o, o->hash);
	return true;
}

/*
 * Shared actions and action sets come from slabs of 64 << cls bytes: a
 * million MARK ids are not a million heap allocations. Larger: the heap.
 */
#define MLX5DM_FLOW_OBJ_CLASSES 7u

/* Live object counts (tests and debugging). */
struct mlx5dm_flow_stats {
	uint32_t flows;
	uint32_t rules;
	uint32_t tables;
	uint32_t matchers;
	uint32_t entries;       /* cached actions */
	uint32_t action_sets;   /* cached action sets */
	uint32_t templates;     /* compiled templates: implicit ones and template tables' */
	uint32_t cnt_bulks;
	uint32_t counters;
	uint32_t cnt_actions;   /* counter actions of the bulks (one per bulk and domain used) */
	uint32_t fast;          /* rules a template's setters made, ever (modulo 2^32) */
	uint32_t tags;          /* compiled templates whose rules' tags come from their items */
};

/* mlx5dm_flow_pool.c: rte_flow handles from per-port chunks (see the .c). */
#define MLX5DM_FLOW_POOL_CLASSES (MLX5DM_FLOW_MAX_SUB + 1u)
/* Handles come in chunks of this size and alignment (the osdep heap: DPDK's under EAL). */
#define MLX5DM_FLOW_POOL_CHUNK (64u << 10)
struct mlx5dm_flow_map_mid;
struct mlx5dm_flow_pool {
	struct rte_flow *free[MLX5DM_FLOW_POOL_CLASSES];
	struct mlx5dm_flow_map_mid **map;       /* the chunks, by address (mlx5dm_flow_pool.c) */
	uint32_t nb_chunks;
	uint32_t live;                          /* handles handed out */
	uint32_t made[MLX5DM_FLOW_POOL_CLASSES];     /* handles of each class, free or live */
	uint32_t reserved[MLX5DM_FLOW_POOL_CLASSES]; /* for template tables (nb_flows) */
	struct mlx5dm_flow_chunk *first;        /* chunks in the order they were made */
	struct mlx5dm_flow_chunk *newest;
	int socket;                             /* of the chunks and their map */
};
#define MLX5DM_FLOW_LIVE 0x4c495645u /* "LIVE": a value stale memory is unlikely to hold */
void mlx5dm_flow_pool_init(struct mlx5dm_flow_pool *pool, int socket);
/* A live handle for nb_rules rules when its free list is empty; NULL + errno. */
struct rte_flow *mlx5dm_flow_pool_get_new(struct mlx5dm_flow_pool *pool, unsigned int nb_rules);
/*
 * n more handles for nb_rules rules promised (a template table's nb_flows):
 * the pool makes them now, so that taking them makes no chunk; -ENOMEM.
 */
int mlx5dm_flow_pool_reserve(struct mlx5dm_flow_pool *pool, unsigned int nb_rules, uint32_t n);
/* The promise of mlx5dm_flow_pool_reserve() withdrawn; the handles stay. */
void mlx5dm_flow_pool_unreserve(struct mlx5dm_flow_pool *pool, unsigned int nb_rules, uint32_t n);
/* f is a live handle of this pool (O(1); never reads memory the pool does not own). */
bool mlx5dm_flow_pool_owns(const struct mlx5dm_flow_pool *pool, const struct rte_flow *f);
/* Free every chunk (no handle may be live any more). */
void mlx5dm_flow_pool_release(struct mlx5dm_flow_pool *pool);
/* The live handle after f (NULL: the first), by chunk and address; f may be put back. */
struct rte_flow *mlx5dm_flow_pool_next(const struct mlx5dm_flow_pool *pool,
				       const struct rte_flow *f);

/* Rule queues of a port at most (one per EAL lcore, one shared, one per flow queue). */
#define MLX5DM_FLOW_LANES (2 * RTE_MAX_LCORE + 1)
/* Handles and counters a lane takes at once (a lock per that many quick begins). */
#define MLX5DM_FLOW_LANE_TAKE 32u
/*
 * What the creates that ended on one rule queue added to the port's counts,
 * written by the queue's user alone (its lcore, or under the queue's lock)
 * and read under fp->lock: a create ends without the port lock. The counts
 * only grow (modulo 2^32); the port's are fp's plus every lane's.
 */
/*
 * Indirect COUNTs (rte_flow_action_handle, mlx5dm_flow_cnt.c): counters
 * rules share, each at a place of pages made as needed and kept until the
 * port closes. The application holds the place and its generation (from
 * a start of the port's own), not an address (as DPDK mlx5 HWS puts an
 * indirect action's index in its handle): a handle is checked without
 * reading memory the PMD did not make, and a rule pins it with a
 * compare-and-swap, without fp->lock.
 */
#define MLX5DM_FLOW_SHARED_PAGE_LOG 10u
#define MLX5DM_FLOW_SHARED_PAGES 1024u
struct mlx5dm_flow_shared_cnt {
	uint64_t state;         /* generation << 32 | live (bit 31) | rules pinning it */
	uint32_t cnt;           /* live: its counter (0: gone with a port stop); free: next + 1 */
	uint8_t dom;            /* of its rules */
};
struct mlx5dm_flow_shared {
	struct mlx5dm_flow_shared_cnt *page[MLX5DM_FLOW_SHARED_PAGES];
	uint32_t nb;            /* places made (stored with release: their pages are) */
	uint32_t free;          /* first free place + 1 (0: none) */
};

struct mlx5dm_flow_lane {
	uint32_t begun;         /* operations begun here without fp->lock (seq_cst) */
	uint32_t ended;         /* operations that ended here (release: after the rest) */
	uint32_t listed;
	uint32_t flows;
	uint32_t rules;
	uint32_t fast;
	/*
	 * One-rule handles and counters taken from the pool and the bulks
	 * under fp->lock, for mlx5dm_flow_objs_quick(); the handles and the
	 * used counters (spent) of the rules mlx5dm_flow_objs_quick_destroy()
	 * destroyed, until the next time the lane takes the lock. The counts
	 * of counters are read by the port's statistics (relaxed).
	 */
	uint32_t nb_handles;
	uint32_t nb_cnts;
	uint32_t nb_spent;
	struct rte_flow *handles[MLX5DM_FLOW_LANE_TAKE];
	uint32_t cnts[MLX5DM_FLOW_LANE_TAKE];
	uint32_t spent[MLX5DM_FLOW_LANE_TAKE];
} __rte_cache_aligned;

struct mlx5dm_flow_priv {
	/*
	 * Guards the flow objects and state below and orders the rte_flow ops
	 * with start/stop/close. Held while a rule is translated and its
	 * objects found, and while a destroyed rule's objects are put back;
	 * never across the library's rule insertion or deletion, which run
	 * on the caller's rule queue (mlx5dm_flow_queue_enter()).
	 */
	rte_spinlock_t lock;
	/* The rule queue of threads that are not EAL lcores (innermost lock). */
	rte_spinlock_t any_lock;
	struct mlx5dm_flow_port port;
	bool started;
	/*
	 * Operations begun under the lock less those that ended under it: with
	 * the lanes' begun less their ended, the operations between their
	 * phases, which stop and start wait for (mlx5dm_flow_objs_quiesce()).
	 */
	uint32_t inflight;
	bool quiescing;                             /* no operation may begin */
	/* One per rule queue (see the struct), the first nb_lanes used; they stay. */
	uint16_t nb_lanes;
	struct mlx5dm_flow_lane lanes[MLX5DM_FLOW_LANES];
	/*
	 * flow_engine=null (a benchmarking aid): user flows are handles only,
	 * created after minimal validation, with no steering behind them.
	 */
	bool null_engine;
	/* Where its objects are: the port's device's socket (or MLX5DM_SOCKET_ANY). */
	int socket;
	struct mlx5dm_flow_pool pool;
	uint32_t nb_listed;     /* user flows (in the pool), with the lanes' (objs_listed()) */
	struct rte_flow *default_flow;
	struct mlx5dm_flow_tbl *root[2];
	/* The caches, by key (mlx5dm_flow_cache.c, mlx5dm_flow_action_set.c). */
	struct mlx5dm_index tbls;
	struct mlx5dm_index matchers;
	struct mlx5dm_index entries;
	struct mlx5dm_index action_sets;
	struct mlx5dm_slab objs[MLX5DM_FLOW_OBJ_CLASSES]; /* of entries and action sets */
	/* Implicit templates of the synchronous rules, by shape (mlx5dm_flow_shape_key()). */
	struct mlx5dm_index shapes;
	/* Every compiled template by id (NULL: a free place), while there is one. */
	struct mlx5dm_flow_compiled **compiled;
	LIST_HEAD(, mlx5dm_flow_cnt_bulk) bulks;    /* those with a free counter */
	struct mlx5dm_flow_cnt_bulk **cnt_tab;      /* every bulk, by id (NULL: free place) */
	uint32_t cnt_log_max;                       /* largest bulk to ask for; 0: default */
	struct mlx5dm_flow_shared shared;           /* indirect COUNTs */
	struct mlx5dm_flow_stats st;                /* flows, rules: with the lanes' */
	/* rte_flow_configure()'s queues, templates and tables (mlx5dm_flow_template.h). */
	struct mlx5dm_flow_tmpl *tmpl;
};

/*
 * A compiled template with one reference and an id; NULL + errno. With its
 * last rule it lets its objects go, with its last reference it goes.
 */
struct mlx5dm_flow_compiled *mlx5dm_flow_compiled_new(struct mlx5dm_flow_priv *fp);
void mlx5dm_flow_compiled_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct);

/* mlx5dm_flow_cache.c: tables, matchers and shared actions. */
/* size zeroed bytes and their class (MLX5DM_FLOW_OBJ_CLASSES); NULL + errno. */
void *mlx5dm_flow_obj_alloc(struct mlx5dm_flow_priv *fp, size_t size, uint8_t *cls);
void mlx5dm_flow_obj_free(struct mlx5dm_flow_priv *fp, void *o, uint8_t cls);
struct mlx5dm_flow_tbl *mlx5dm_flow_tbl_get(struct mlx5dm_flow_priv *fp, unsigned int dom,
					    uint32_t group);
void mlx5dm_flow_tbl_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_tbl *t);
struct mlx5dm_table *mlx5dm_flow_tbl_table(const struct mlx5dm_flow_tbl *t);
/* cb for every group's table (dom: 0 ingress, 1 egress, 2 FDB), in no order; fp->lock held. */
typedef void (*mlx5dm_flow_tbl_cb)(void *arg, unsigned int dom, uint32_t group,
				   struct mlx5dm_table *t);
void mlx5dm_flow_tbl_foreach(struct mlx5dm_flow_priv *fp, mlx5dm_flow_tbl_cb cb, void *arg);
/*
 * The matcher holds a reference on its table (group's table, created on
 * demand). A matcher made now is sized for and reserves rules (a template
 * table's nb_flows; 0: none).
 */
struct mlx5dm_flow_matcher *mlx5dm_flow_matcher_get(struct mlx5dm_flow_priv *fp,
						    unsigned int dom, uint32_t group,
						    uint16_t prio, uint8_t criteria,
						    const uint8_t *mask, uint32_t rules,
						    const char **err_field);
void mlx5dm_flow_matcher_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_matcher *m);
enum mlx5dm_flow_entry_kind {
	MLX5DM_FLOW_ENTRY_DROP,
	MLX5DM_FLOW_ENTRY_TIR,
	MLX5DM_FLOW_ENTRY_JUMP,
	MLX5DM_FLOW_ENTRY_TAG,
	MLX5DM_FLOW_ENTRY_MODIFY,
	MLX5DM_FLOW_ENTRY_MODIFY_SET,   /* one 32-bit set (its first 4 bytes): data is the rule's */
	MLX5DM_FLOW_ENTRY_REFORMAT,
	MLX5DM_FLOW_ENTRY_PUSH,
	MLX5DM_FLOW_ENTRY_POP,
	MLX5DM_FLOW_ENTRY_VPORT,        /* an E-Switch vport (u32) */
};

/* Parameters of a shared action (the cache key is built from them). */
struct mlx5dm_flow_entry_param {
	enum mlx5dm_flow_entry_kind kind;
	unsigned int dom;
	uint32_t u32;                       /* JUMP group, TAG value, PUSH header, reformat type */
	const uint16_t *queues;             /* TIR */
	uint16_t nb_queues;
	const struct mlx5dm_rss_attr *rss;  /* TIR: NULL = direct to queues[0] */
	const uint8_t *data;                /* MODIFY entries, REFORMAT data */
	size_t len;
};
/* Serialise p into key (at most max bytes): its length, 0 if it does not fit. */
size_t mlx5dm_flow_entry_key(const struct mlx5dm_flow_entry_param *p, uint8_t *key, size_t max);
/* A shared action: what the dump shows of it is its kind, u32 and data. */
struct mlx5dm_flow_entry {
	struct mlx5dm_flow_cached k;    /* first: the cache's view */
	struct mlx5dm_action *act;
	struct mlx5dm_tir *tir;
	struct mlx5dm_flow_tbl *jump;
	enum mlx5dm_flow_entry_kind kind;
	uint32_t u32;
	uint16_t data_len;              /* its data: the key's last data_len bytes */
	uint8_t key[];
};
struct mlx5dm_flow_entry *mlx5dm_flow_entry_get(struct mlx5dm_flow_priv *fp,
						const struct mlx5dm_flow_entry_param *p);
void mlx5dm_flow_entry_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_entry *e);

/* mlx5dm_flow_dump.c: the PMD's records (4410 encap, 4420 modify, 4430 counters). */
int mlx5dm_flow_dump_pmd(struct mlx5dm_flow_priv *fp, FILE *f);
/* One live flow: the PMD records of what it uses, then its rules' records. */
int mlx5dm_flow_dump_flow(struct mlx5dm_flow_priv *fp, struct rte_flow *flow, FILE *f);
/*
 * mlx5dm_flow_action_set.c: a matcher and the shared actions of its rules, in
 * device order, with one more reference; NULL + errno.
 */
struct mlx5dm_flow_action_set *mlx5dm_flow_action_set_get(struct mlx5dm_flow_priv *fp,
							  struct mlx5dm_flow_matcher *m,
							  const struct mlx5dm_flow_entry_param *p,
							  unsigned int n);
/* An action set: a rule's matcher and shared actions as one cached object. */
struct mlx5dm_flow_action_set {
	struct mlx5dm_flow_cached k;    /* first: the cache's view */
	struct mlx5dm_flow_matcher *matcher;
	uint8_t nb;
	/* The library's action templates: without, with a counter in front (NULL: not yet). */
	struct mlx5dm_action_tmpl *tmpl[2];
	/* In mem, sized to the set: entries, actions, the key. */
	struct mlx5dm_flow_entry **entries;
	struct mlx5dm_action **acts;
	uint64_t mem[];
};
void mlx5dm_flow_action_set_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_action_set *s);

/* mlx5dm_flow_cnt.c: counters from bulks, named by an id (never 0). */
/* Counters a port can have at most (ids), whatever the device offers. */
uint32_t mlx5dm_flow_cnt_max(void);
/* A counter (*id) and its action in domain dom; 0 or a negative errno. */
int mlx5dm_flow_cnt_alloc(struct mlx5dm_flow_priv *fp, unsigned int dom, uint32_t *id);
/* Counter id's action in domain dom made (id taken for another domain); 0 or -errno. */
int mlx5dm_flow_cnt_ready(struct mlx5dm_flow_priv *fp, uint32_t id, unsigned int dom);
void mlx5dm_flow_cnt_free(struct mlx5dm_flow_priv *fp, uint32_t id);
/*
 * The counter's action in domain dom (its bulk's: NULL until one of its
 * counters was taken there) and, in arg, the rule argument naming it.
 * Without fp->lock for a counter the caller holds (the bulk table does
 * not move while a counter is out).
 */
struct mlx5dm_action *mlx5dm_flow_cnt_action(const struct mlx5dm_flow_priv *fp, uint32_t id,
					     unsigned int dom, uint32_t *arg);
/*
 * A new indirect COUNT of rules of domain dom into *h (fp->lock held): 0,
 * -ENOSPC (the port has MLX5DM_FLOW_SHARED_PAGES pages of them) or the
 * counter allocation's error.
 */
int mlx5dm_flow_shared_new(struct mlx5dm_flow_priv *fp, unsigned int dom,
			   struct rte_flow_action_handle **h);
/* The live indirect COUNT h, NULL if h is none (fp->lock held). */
const struct mlx5dm_flow_shared_cnt *mlx5dm_flow_shared_find(const struct mlx5dm_flow_priv *fp,
							    const struct rte_flow_action_handle *h);
/* h and its counter go (fp->lock held): 0, -EBUSY (rules pin it) or -EINVAL (no such h). */
int mlx5dm_flow_shared_free(struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h);
/*
 * A rule of domain dom pins live h, which then stays: its counter, or 0
 * (none such, or its counter gone with a stop). Without fp->lock.
 */
uint32_t mlx5dm_flow_shared_pin(struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h,
				unsigned int dom);
/* A rule counting with the indirect counter cnt lets its pin go. Without fp->lock. */
void mlx5dm_flow_shared_unpin(struct mlx5dm_flow_priv *fp, uint32_t cnt);
/* At a stop (fp->lock held, no rule left), the counters go; at a close, the pages. */
void mlx5dm_flow_shared_stop(struct mlx5dm_flow_priv *fp);
void mlx5dm_flow_shared_fini(struct mlx5dm_flow_priv *fp);
/* What the flow counted since its counter was taken or last reset (q->reset: reset it). */
int mlx5dm_flow_cnt_query(struct mlx5dm_flow_priv *fp, uint32_t id,
			  struct rte_flow_query_count *q);
/* The device counters behind id, and its index in them. */
struct mlx5dm_counters *mlx5dm_flow_cnt_counters(const struct mlx5dm_flow_priv *fp, uint32_t id,
						 uint32_t *index);

/* mlx5dm_flow_rule.c: rte_flow handles. */
#define MLX5DM_FLOW_RULE_MAX_ENTRIES 10u

struct mlx5dm_flow_rule {
	struct mlx5dm_rule *rule;
	struct mlx5dm_flow_action_set *action_set; /* its matcher and shared actions */
};

/* 16 bytes and the rules; flows are found by walking the pool, not a list. */
struct rte_flow {
	union {
		struct {                        /* live */
			uint32_t cnt;           /* counter id (mlx5dm_flow_cnt.c), 0: no COUNT */
			bool cnt_shared;        /* cnt is an indirect COUNT's (not the flow's) */
			bool listed;            /* a user flow (not the default rule) */
			uint8_t dom;
			uint8_t nb_rules;
		};
		struct rte_flow *free_next;     /* free: the pool's free list */
	};
	uint32_t live;                  /* pool marker: a live handle */
	uint8_t cls;                    /* pool size class: room for cls rules */
	/*
	 * Of a template table's pair: its objects (template, set) are the
	 * table's, held until it goes or the port stops; no reference taken.
	 */
	bool borrowed;
	uint16_t ct;                    /* id of the compiled template it holds (0: none) */
	struct mlx5dm_flow_rule rules[];
};

_Static_assert(sizeof(struct rte_flow) == 16, "flow handle header");

/*
 * The record a flow's maker keeps past its rules (spec->nb_extra slots,
 * which the flow path never reads), NULL without one. Such a flow is its
 * maker's to destroy: the flow path's destroy and flush leave it.
 */
static inline void *
mlx5dm_flow_extra(struct rte_flow *f)
{
	return f->cls > f->nb_rules ? (void *)&f->rules[f->nb_rules] : NULL;
}

/*
 * A free handle of class cls made live: the header zeroed but its template
 * ct (0: none) and borrowing (rules[] is the user's to fill, up to
 * nb_rules), live stored last. A walker under the lock may still read the
 * handle's previous flow (an unlocked begin, mlx5dm_flow_objs_quick(),
 * reuses it): what it reads before taking a flow (listed; ct and borrowed,
 * mlx5dm_flow_table_busy()) is stored atomically.
 */
static inline void
mlx5dm_flow_handle_init(struct rte_flow *f, unsigned int cls, uint16_t ct, bool borrowed)
{
	f->cnt = 0;
	f->cnt_shared = false;
	__atomic_store_n(&f->listed, false, __ATOMIC_RELAXED);
	f->dom = 0;
	f->nb_rules = 0;
	f->cls = (uint8_t)cls;
	__atomic_store_n(&f->borrowed, borrowed, __ATOMIC_RELAXED);
	__atomic_store_n(&f->ct, ct, __ATOMIC_RELAXED);
	__atomic_store_n(&f->live, MLX5DM_FLOW_LIVE, __ATOMIC_RELEASE);
}

/* The handle taken: zeroed but rules[], live, of its class. */
static inline struct rte_flow *
mlx5dm_flow_pool_take(struct mlx5dm_flow_pool *pool, unsigned int cls)
{
	struct rte_flow *f = pool->free[cls];

	pool->free[cls] = f->free_next;
	mlx5dm_flow_handle_init(f, cls, 0, false);
	pool->live++;
	return f;
}

static inline struct rte_flow *
mlx5dm_flow_pool_get(struct mlx5dm_flow_pool *pool, unsigned int nb_rules)
{
	if (MLX5DM_LIKELY(nb_rules <= MLX5DM_FLOW_MAX_SUB && pool->free[nb_rules] != NULL))
		return mlx5dm_flow_pool_take(pool, nb_rules);
	return mlx5dm_flow_pool_get_new(pool, nb_rules);
}

static inline void
mlx5dm_flow_pool_put(struct mlx5dm_flow_pool *pool, struct rte_flow *f)
{
	f->live = 0;
	f->free_next = pool->free[f->cls];
	pool->free[f->cls] = f;
	pool->live--;
}

void mlx5dm_flow_priv_init(struct mlx5dm_flow_priv *fp, int socket);
/* Root tables of both domains (group 0) become the domains' entry points. */
int mlx5dm_flow_objs_start(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_port *port);
/* Every flow (default included) and the root tables go. */
void mlx5dm_flow_objs_stop(struct mlx5dm_flow_priv *fp);
/*
 * rte_spinlock_lock() for the locks of the rule path (fp->lock, any_lock,
 * the flow queues' qlock): a waiter yields its core every
 * MLX5DM_SPIN_YIELD spins, as the library's locks do. With more threads
 * than cores (lcores and the device model's thread), a holder off its core
 * needs the time slice the waiter would otherwise spin through.
 */
static inline void
mlx5dm_flow_lock(rte_spinlock_t *l)
{
	unsigned int spins = 0;

	while (!rte_spinlock_trylock(l)) {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED) != 0) {
			if (++spins % MLX5DM_SPIN_YIELD == 0)
				sched_yield();
			else
				rte_pause();
		}
	}
}

/* The lock of a rule queue (mlx5dm_flow_queue_of()), if it has one. */
static inline void
mlx5dm_flow_queue_lock(rte_spinlock_t *qlock)
{
	if (qlock != NULL)
		mlx5dm_flow_lock(qlock);
}

static inline void
mlx5dm_flow_queue_unlock(rte_spinlock_t *qlock)
{
	if (qlock != NULL)
		rte_spinlock_unlock(qlock);
}

/*
 * The calling thread's rule queue (its lcore's, else the shared one) and the
 * lock to take around its use (NULL: the thread's own queue).
 */
static inline uint16_t
mlx5dm_flow_queue_of(struct mlx5dm_flow_priv *fp, rte_spinlock_t **lock)
{
	unsigned int lcore = rte_lcore_id();
	uint16_t q;

	*lock = NULL;
	if (MLX5DM_LIKELY(fp->port.lcore_queue != NULL && lcore < RTE_MAX_LCORE)) {
		q = fp->port.lcore_queue[lcore];
		if (MLX5DM_LIKELY(q != fp->port.any))
			return q;
	}
	*lock = &fp->any_lock;
	return fp->port.any;
}

/*
 * Bring rule queue queue back from an error (its use's lock held, if it
 * has one): 0, or the library's error, logged.
 */
int mlx5dm_flow_queue_recover(struct mlx5dm_flow_priv *fp, uint16_t queue);

/*
 * A flow is made in three phases, so the port lock is not held while the
 * library inserts: begin (fp->lock: handle, counter, matchers, sets),
 * insert and commit (the caller's rule queue: listed), or abandon when the
 * insert failed (fp->lock: released).
 */
struct mlx5dm_flow_build {
	/* The rule's COUNT is this indirect COUNT's (NULL: one of its own): the caller sets it. */
	const struct rte_flow_action_handle *shared;
	bool prepared;              /* prep holds sub-rule 0's (done by the fast path) */
	bool fast;                  /* made by a template's setters */
	struct rte_flow *flow;
	bool listed;
	struct mlx5dm_rule_prep prep;
	struct mlx5dm_matcher *m[MLX5DM_FLOW_MAX_SUB];
	uint8_t n[MLX5DM_FLOW_MAX_SUB];
	const struct mlx5dm_action_tmpl *tmpl[MLX5DM_FLOW_MAX_SUB];
	struct mlx5dm_action *acts[MLX5DM_FLOW_MAX_SUB][MLX5DM_RULE_MAX_ACTIONS];
	uint32_t args[MLX5DM_FLOW_MAX_SUB][MLX5DM_RULE_MAX_ACTIONS];
	/* Match values (the spec is the template's: reused once the lock is let go). */
	uint8_t value[MLX5DM_FLOW_MAX_SUB][MLX5DM_MATCH_PARAM_SIZE];
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE];  /* a sub-rule's with an extra match */
};
/* A build before its begin: nothing prepared, a counter of the rule's own. */
static inline void
mlx5dm_flow_build_init(struct mlx5dm_flow_build *b)
{
	b->shared = NULL;
	b->prepared = false;
	b->fast = false;
}
/*
 * 0 (the flow holds ct unless NULL) or -errno with error (nothing left);
 * a listed (user) flow is refused unless the port runs and is not quiescing.
 */
int mlx5dm_flow_objs_begin(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_spec *spec,
			   struct mlx5dm_flow_compiled *ct, bool listed,
			   struct mlx5dm_flow_build *b, struct rte_flow_error *error);
/* 0 or a negative errno with error (the rules inserted so far are deleted again). */
int mlx5dm_flow_objs_insert(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_build *b,
			    uint16_t queue, struct rte_flow_error *error);
/* An insert failed: the flow's objects are released. */
void mlx5dm_flow_objs_abandon(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_build *b);
static inline void
mlx5dm_flow_lane_add(uint32_t *count, uint32_t n)
{
	__atomic_store_n(count, *count + n, __ATOMIC_RELAXED);
}
/*
 * The flow inserted through rule queue queue is the application's (listed
 * unless the default rule): by the queue's user, without fp->lock.
 */
static inline void
mlx5dm_flow_objs_commit(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_build *b,
			uint16_t queue)
{
	struct mlx5dm_flow_lane *l = &fp->lanes[queue];

	mlx5dm_flow_lane_add(&l->listed, b->listed);
	mlx5dm_flow_lane_add(&l->flows, 1);
	mlx5dm_flow_lane_add(&l->rules, b->flow->nb_rules);
	mlx5dm_flow_lane_add(&l->fast, b->fast);
	__atomic_store_n(&b->flow->listed, b->listed, __ATOMIC_RELEASE);
	/* Last: a stop that sees the operation ended sees its flow listed. */
	__atomic_store_n(&l->ended, l->ended + 1, __ATOMIC_RELEASE);
}
/* A flow's listed flag, read beside an unlocked commit (mlx5dm_flow_objs_commit()). */
static inline bool
mlx5dm_flow_listed(const struct rte_flow *flow)
{
	return __atomic_load_n(&flow->listed, __ATOMIC_ACQUIRE);
}
/*
 * A listed flow taken, as a destroy takes it, by a walker before it reads
 * more of it than live and listed: an unlocked destroy meanwhile
 * (mlx5dm_flow_objs_quick_destroy()) goes to the locked one, which waits,
 * instead of handing the handle to a new flow under the walker's reads.
 * False: not listed. mlx5dm_flow_give() lists it again.
 */
static inline bool
mlx5dm_flow_take(struct rte_flow *flow)
{
	bool listed = true;

	return __atomic_compare_exchange_n(&flow->listed, &listed, false, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}
static inline void
mlx5dm_flow_give(struct rte_flow *flow)
{
	__atomic_store_n(&flow->listed, true, __ATOMIC_RELEASE);
}
/* The port's user flows and live object counts (fp->lock held). */
uint32_t mlx5dm_flow_objs_listed(const struct mlx5dm_flow_priv *fp);
void mlx5dm_flow_objs_stats(const struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_stats *st);
/* The three phases under fp->lock, on the caller's queue: rare flows (the default rule). */
struct rte_flow *mlx5dm_flow_objs_create(struct mlx5dm_flow_priv *fp,
					 const struct mlx5dm_flow_spec *spec, bool listed,
					 struct rte_flow_error *error);
/*
 * Destroyed the same way: unlist (was it listed?), remove (the caller's
 * queue), reap.
 * -ETIMEDOUT from remove (another queue's writes into its chain pending):
 * relist gives the flow back, without the rules already removed.
 */
static inline bool
mlx5dm_flow_objs_unlist(struct mlx5dm_flow_priv *fp, struct rte_flow *flow)
{
	/* Taken: mlx5dm_flow_objs_quick_destroy() takes a flow without fp->lock. */
	bool listed = mlx5dm_flow_take(flow);

	fp->nb_listed -= listed;
	fp->inflight++;
	return listed;
}
int mlx5dm_flow_objs_remove(struct rte_flow *flow, uint16_t queue);
void mlx5dm_flow_objs_relist(struct mlx5dm_flow_priv *fp, struct rte_flow *flow, bool listed);
int mlx5dm_flow_remove_err(struct rte_flow *flow, int ret, struct rte_flow_error *error);
void mlx5dm_flow_objs_reap(struct mlx5dm_flow_priv *fp, struct rte_flow *flow);
/* The three phases under fp->lock, on the caller's queue (flush, stop). */
int mlx5dm_flow_objs_destroy(struct mlx5dm_flow_priv *fp, struct rte_flow *flow,
			     struct rte_flow_error *error);
/* fp->lock held: wait for no operation between phases; none begins till quiescing is unset. */
void mlx5dm_flow_objs_quiesce(struct mlx5dm_flow_priv *fp);
int mlx5dm_flow_objs_query_count(struct mlx5dm_flow_priv *fp, struct rte_flow *flow,
				 struct rte_flow_query_count *q, struct rte_flow_error *error);
/*
 * The begin phase of a user flow, fp->lock held: translated through ct
 * (NULL: the implicit template of its shape), objects taken into b.
 */
int mlx5dm_flow_objs_prepare(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_context *ctx,
			     struct mlx5dm_flow_compiled *ct, const struct rte_flow_attr *attr,
			     const struct rte_flow_item items[],
			     const struct rte_flow_action actions[], struct mlx5dm_flow_build *b,
			     struct rte_flow_error *error);
/*
 * The begin phase of rule r of a template table's ct without fp->lock, by
 * the only user of rule queue queue: 0, or -EAGAIN for the locked begin
 * (the port stopping, the rule's objects, handles or counters not made,
 * b->shared not a live indirect COUNT of the rule's domain).
 */
int mlx5dm_flow_objs_quick(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct,
			   const struct mlx5dm_flow_rule_values *r, struct mlx5dm_flow_build *b,
			   uint16_t queue);
/*
 * Rule queue queue's handles for the above, and counters in ct's domain if
 * its rules count; its spent counters back to their bulks (fp->lock held,
 * by the queue's only user).
 */
void mlx5dm_flow_lane_fill(struct mlx5dm_flow_priv *fp, uint16_t queue,
			   const struct mlx5dm_flow_compiled *ct);
/*
 * A flow of one rule of a template destroyed without fp->lock, by the
 * only user of rule queue queue: 0; -EAGAIN for the locked destroy (not
 * such a flow, not listed, the port stopping); a removal's error (the flow
 * kept, listed again). The lock is taken for a last reference and once
 * per MLX5DM_FLOW_LANE_TAKE / 2 handles or MLX5DM_FLOW_LANE_TAKE counters.
 */
int mlx5dm_flow_objs_quick_destroy(struct mlx5dm_flow_priv *fp, struct rte_flow *flow,
				   uint16_t queue);
/* The begin phase of rule r of fast template ct (its value in b->value[0]), fp->lock held. */
int mlx5dm_flow_objs_fast(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct,
			  const struct mlx5dm_flow_rule_values *r, struct mlx5dm_flow_build *b,
			  struct rte_flow_error *error);
/* The same and the other two phases under fp->lock (tests): the flow, or NULL with error. */
struct rte_flow *mlx5dm_flow_objs_make(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_context *ctx,
				       struct mlx5dm_flow_compiled *ct,
				       const struct rte_flow_attr *attr,
				       const struct rte_flow_item items[],
				       const struct rte_flow_action actions[],
				       struct rte_flow_error *error);
/* ENODEV: rules exist on a started port only. */
int mlx5dm_flow_not_started(struct rte_flow_error *error);
/*
 * flow is a live user flow of the port (O(1), see mlx5dm_flow_pool_owns()):
 * the default rule is the PMD's, not a handle the application may pass.
 */
static inline bool
mlx5dm_flow_objs_owns(struct mlx5dm_flow_priv *fp, const struct rte_flow *flow)
{
	return flow != NULL && mlx5dm_flow_pool_owns(&fp->pool, flow) && mlx5dm_flow_listed(flow);
}
/* Destroy every user flow; returns the first failure (and goes on). */
int mlx5dm_flow_objs_flush(struct mlx5dm_flow_priv *fp, struct rte_flow_error *error);

#endif /* _MLX5DM_FLOW_H_ */
