/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Actions: shared, refcounted objects. Each holds the abstract STE action
 * the encoder places into rules; data that lives in ICM (modify-header
 * lists, encap headers) is written through the control queue and drained
 * before the action is returned, so any queue may use it right away
 * (mlx5dm_steer_modify.c, mlx5dm_steer_encap.c decide where it lives).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

void
mlx5dm_action_ref(struct mlx5dm_action *a, uint32_t n)
{
	__atomic_fetch_add(&a->refcnt, n, __ATOMIC_RELAXED);
}

void
mlx5dm_action_unref(struct mlx5dm_action *a)
{
	__atomic_fetch_sub(&a->refcnt, 1, __ATOMIC_RELEASE);
}

static struct mlx5dm_action *
mlx5dm_action_new(struct mlx5dm_domain *dom, enum mlx5dm_action_kind kind,
		  enum mlx5dm_ste_action_type type)
{
	struct mlx5dm_action *a;

	if (dom == NULL || dom->top != NULL) {
		errno = EINVAL;
		return NULL;
	}
	/*
	 * From the context's slab, not the heap: flow-perf's counted or marked
	 * rules create an action per rule, and heap growth faults in 4 KiB
	 * pages where a slab takes 2 MiB regions.
	 */
	mlx5dm_spinlock_lock(&dom->ctx->lock);
	a = mlx5dm_slab_alloc(&dom->ctx->act_slab);
	mlx5dm_spinlock_unlock(&dom->ctx->lock);
	if (a == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	a->kind = kind;
	a->dom = dom;
	a->ste.type = type;
	return a;
}

static struct mlx5dm_action *
mlx5dm_action_publish(struct mlx5dm_action *a)
{
	struct mlx5dm_ctx *ctx = a->dom->ctx;

	if (mlx5dm_domain_is_fdb(a->dom))
		mlx5dm_fdb_action_init(a);
	mlx5dm_spinlock_lock(&ctx->lock);
	a->dom->refcnt++;
	mlx5dm_spinlock_unlock(&ctx->lock);
	return a;
}

/* Write data into an ICM chunk through the control queue and wait for it. */
int
mlx5dm_action_write_icm(struct mlx5dm_ctx *ctx, const struct mlx5dm_icm_chunk *chunk,
			const void *data, size_t len)
{
	struct mlx5dm_queue *q = mlx5dm_steer_ctrl_queue(ctx);
	size_t off = 0;
	int ret = 0;

	mlx5dm_spinlock_lock(&q->lock);
	while (ret == 0 && off < len) {
		uint32_t n = (uint32_t)MLX5DM_MIN(len - off, (size_t)MLX5DM_SEND_MAX_WRITE);

		ret = mlx5dm_send_write(q->ring, chunk->mr_addr + off, chunk->rkey,
					(const uint8_t *)data + off, n);
		off += n;
	}
	if (ret == 0)
		ret = mlx5dm_send_drain(q->ring);
	mlx5dm_spinlock_unlock(&q->lock);
	return ret;
}

static int
mlx5dm_action_free(struct mlx5dm_action *a)
{
	struct mlx5dm_ctx *ctx = a->dom->ctx;
	int ret;

	if (a->chunk != NULL)
		mlx5dm_icm_chunk_free(a->chunk);
	mlx5dm_modify_release(a);
	ret = mlx5dm_encap_release(a);
	mlx5dm_spinlock_lock(&ctx->lock);
	mlx5dm_slab_free(&ctx->act_slab, a);
	mlx5dm_spinlock_unlock(&ctx->lock);
	return ret;
}

struct mlx5dm_action *
mlx5dm_action_drop(struct mlx5dm_domain *dom)
{
	struct mlx5dm_action *a = mlx5dm_action_new(dom, MLX5DM_ACT_DROP, MLX5DM_STE_ACTION_DROP);

	if (a == NULL)
		return NULL;
	a->ste.icm_addr = dom->drop_icm;
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_default_miss(struct mlx5dm_domain *dom)
{
	struct mlx5dm_action *a = mlx5dm_action_new(dom, MLX5DM_ACT_DEFAULT_MISS,
						    MLX5DM_STE_ACTION_DEFAULT_MISS);

	if (a == NULL)
		return NULL;
	a->ste.icm_addr = dom->default_icm;
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_dest_table(struct mlx5dm_domain *dom, struct mlx5dm_table *tbl)
{
	struct mlx5dm_action *a;

	if (tbl == NULL || tbl->dom != dom) {
		errno = EINVAL;
		return NULL;
	}
	a = mlx5dm_action_new(dom, MLX5DM_ACT_DEST_TABLE, MLX5DM_STE_ACTION_DEST_TABLE);
	if (a == NULL)
		return NULL;
	a->dest_tbl = tbl;
	/* An FDB table's sides have the anchors (mlx5dm_fdb_action_init). */
	if (tbl->s_anchor != NULL)
		a->ste.icm_addr = mlx5dm_ste_icm(tbl->s_anchor);
	mlx5dm_spinlock_lock(&dom->ctx->lock);
	tbl->refcnt++;
	mlx5dm_spinlock_unlock(&dom->ctx->lock);
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_dest_vport(struct mlx5dm_domain *dom, uint16_t vport)
{
	struct mlx5dm_vport_caps vc;
	struct mlx5dm_action *a;
	int ret;

	if (dom == NULL || dom->top != NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (!mlx5dm_domain_is_fdb(dom)) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "a vport is a destination of the FDB only");
		errno = EOPNOTSUPP;
		return NULL;
	}
	ret = mlx5dm_fdb_vport_get(dom, vport, &vc);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	a = mlx5dm_action_new(dom, MLX5DM_ACT_DEST_VPORT, MLX5DM_STE_ACTION_DEST_VPORT);
	if (a == NULL)
		return NULL;
	/* The RX side's entry here, the TX side's aside (mlx5dm_fdb_action_side). */
	a->vport = vport;
	a->ste.vport.icm_addr = vc.icm_rx;
	a->ste.vport.gvmi = vc.vhca_gvmi;
	a->fdb_icm_tx = vc.icm_tx;
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_dest_tir(struct mlx5dm_domain *dom, struct mlx5dm_tir *tir)
{
	struct mlx5dm_action *a;

	if (tir == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (dom != NULL && dom->type != MLX5DM_DOMAIN_NIC_RX) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "a TIR is a destination of NIC RX only");
		errno = EOPNOTSUPP;
		return NULL;
	}
	a = mlx5dm_action_new(dom, MLX5DM_ACT_DEST_TIR, MLX5DM_STE_ACTION_DEST_TIR);
	if (a == NULL)
		return NULL;
	a->tir = tir;
	a->ste.icm_addr = mlx5dm_res_tir_icm_addr(tir);
	return mlx5dm_action_publish(a);
}

/* A counter action of bulk c: counter index, or (kind COUNTERS) the rule's argument's. */
static struct mlx5dm_action *
mlx5dm_action_counter_new(struct mlx5dm_domain *dom, struct mlx5dm_counters *c,
			  enum mlx5dm_action_kind kind, uint32_t index)
{
	struct mlx5dm_action *a;

	if (c == NULL || index >= mlx5dm_res_counters_size(c)) {
		errno = EINVAL;
		return NULL;
	}
	a = mlx5dm_action_new(dom, kind, MLX5DM_STE_ACTION_COUNTER);
	if (a == NULL)
		return NULL;
	a->counters = c;
	/* A bulk's action holds its first id: a rule's counter id adds its argument. */
	a->ste.counter_id = mlx5dm_res_counter_id(c, index);
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_counter(struct mlx5dm_domain *dom, struct mlx5dm_counters *c, uint32_t index)
{
	return mlx5dm_action_counter_new(dom, c, MLX5DM_ACT_COUNTER, index);
}

struct mlx5dm_action *
mlx5dm_action_counters(struct mlx5dm_domain *dom, struct mlx5dm_counters *c)
{
	return mlx5dm_action_counter_new(dom, c, MLX5DM_ACT_COUNTERS, 0);
}

/* A flow tag action: tag, or (kind FLOW_TAGS) the rule's argument. */
static struct mlx5dm_action *
mlx5dm_action_flow_tag_new(struct mlx5dm_domain *dom, enum mlx5dm_action_kind kind, uint32_t tag)
{
	struct mlx5dm_action *a;

	if (tag > MLX5DM_FLOW_TAG_MAX) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "flow tag 0x%x wider than 24 bits", tag);
		errno = EINVAL;
		return NULL;
	}
	a = mlx5dm_action_new(dom, kind, MLX5DM_STE_ACTION_FLOW_TAG);
	if (a == NULL)
		return NULL;
	a->ste.flow_tag = tag;
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_flow_tag(struct mlx5dm_domain *dom, uint32_t tag)
{
	return mlx5dm_action_flow_tag_new(dom, MLX5DM_ACT_FLOW_TAG, tag);
}

struct mlx5dm_action *
mlx5dm_action_flow_tags(struct mlx5dm_domain *dom)
{
	return mlx5dm_action_flow_tag_new(dom, MLX5DM_ACT_FLOW_TAGS, 0);
}

/* The device's HW actions for nb PRM entries, into hw (room for 128); 0 or -errno. */
static int
mlx5dm_action_modify_hw(struct mlx5dm_domain *dom, size_t nb, const uint8_t *prm_actions,
			uint8_t *hw, unsigned int *n_hw)
{
	struct mlx5dm_ste_actions_attr attr;
	struct mlx5dm_ste_action_err err;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.domain = mlx5dm_domain_is_fdb(dom) ? MLX5DM_STE_DOMAIN_FDB : MLX5DM_STE_DOMAIN_NIC;
	attr.dir = dom->dir;
	attr.gvmi = dom->ctx->caps.vhca_id;
	ret = mlx5dm_ste_modify_translate(dom->ctx->ste, &attr, prm_actions, (unsigned int)nb,
					  hw, 2 * 64, n_hw, &err);
	if (ret < 0)
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "modify header rejected: %s (action %d)", err.msg,
			   err.index);
	return ret;
}

struct mlx5dm_action *
mlx5dm_action_modify_header(struct mlx5dm_domain *dom, size_t nb, const uint8_t *prm_actions)
{
	uint8_t hw[2 * 64 * MLX5DM_MODIFY_ACTION_SIZE];
	struct mlx5dm_action *a;
	unsigned int n_hw = 0;
	int ret;

	if (dom == NULL || prm_actions == NULL || nb == 0 || nb > 64) {
		errno = EINVAL;
		return NULL;
	}
	ret = mlx5dm_action_modify_hw(dom, nb, prm_actions, hw, &n_hw);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	a = mlx5dm_action_new(dom, MLX5DM_ACT_MODIFY, MLX5DM_STE_ACTION_MODIFY_HDR);
	if (a == NULL)
		return NULL;
	ret = mlx5dm_modify_store(a, hw, n_hw, true);
	if (ret < 0) {
		mlx5dm_action_free(a);
		errno = -ret;
		return NULL;
	}
	return mlx5dm_action_publish(a);
}

/*
 * The entry is translated with its data all zeros and all ones: it must
 * give one HW action that differs only in its data word (the last four
 * bytes, big-endian), which each rule then writes with its argument.
 */
struct mlx5dm_action *
mlx5dm_action_modify_set(struct mlx5dm_domain *dom, const uint8_t *prm_action)
{
	uint8_t prm[MLX5DM_MODIFY_ACTION_SIZE], hw[2][2 * 64 * MLX5DM_MODIFY_ACTION_SIZE];
	static const uint8_t ones[MLX5DM_MODIFY_ARG_SIZE] = { 0xff, 0xff, 0xff, 0xff };
	const unsigned int at = MLX5DM_MODIFY_ACTION_SIZE - MLX5DM_MODIFY_ARG_SIZE;
	unsigned int n_hw[2] = { 0, 0 }, k;
	struct mlx5dm_action *a;
	int ret;

	if (dom == NULL || prm_action == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (mlx5dm_prm_fget(prm_action, mlx5dm_prm_modify_in.action_type) !=
	    MLX5DM_MODIFY_ACTION_SET) {
		errno = ENOTSUP;
		return NULL;
	}
	for (k = 0; k < 2; k++) {
		memcpy(prm, prm_action, at);
		memset(prm + at, k == 0 ? 0 : 0xff, MLX5DM_MODIFY_ARG_SIZE);
		ret = mlx5dm_action_modify_hw(dom, 1, prm, hw[k], &n_hw[k]);
		if (ret < 0) {
			errno = -ret;
			return NULL;
		}
	}
	if (!(dom->ctx->ste->caps & MLX5DM_STE_CAP_MODIFY_INLINE) || n_hw[0] != 1 ||
	    n_hw[1] != 1 || memcmp(hw[0], hw[1], at) != 0 ||
	    memcmp(hw[1] + at, ones, sizeof(ones)) != 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG,
			   "modify entry cannot take its data from the rule (not one set in "
			   "the STE)");
		errno = ENOTSUP;
		return NULL;
	}
	a = mlx5dm_action_new(dom, MLX5DM_ACT_MODIFY_SET, MLX5DM_STE_ACTION_MODIFY_HDR);
	if (a == NULL)
		return NULL;
	a->ste.modify.mode = MLX5DM_STE_MODIFY_INLINE;
	a->ste.modify.num_actions = 1;
	memcpy(a->ste.modify.inline_action, hw[0], MLX5DM_MODIFY_ACTION_SIZE);
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_reformat(struct mlx5dm_domain *dom, enum mlx5dm_reformat_type type, size_t len,
		       const void *data)
{
	static const struct {
		enum mlx5dm_ste_action_type ste;
		enum mlx5dm_domain_type dom;
		bool data;
	} kinds[] = {
		[MLX5DM_REFORMAT_L2_TO_L2_TUNNEL] = { MLX5DM_STE_ACTION_ENCAP_L2,
						      MLX5DM_DOMAIN_NIC_TX, true },
		[MLX5DM_REFORMAT_L2_TO_L3_TUNNEL] = { MLX5DM_STE_ACTION_ENCAP_L3,
						      MLX5DM_DOMAIN_NIC_TX, true },
		[MLX5DM_REFORMAT_L2_TUNNEL_TO_L2] = { MLX5DM_STE_ACTION_DECAP_L2,
						      MLX5DM_DOMAIN_NIC_RX, false },
		[MLX5DM_REFORMAT_L3_TUNNEL_TO_L2] = { MLX5DM_STE_ACTION_DECAP_L3,
						      MLX5DM_DOMAIN_NIC_RX, true },
	};
	uint8_t hw[16 * MLX5DM_MODIFY_ACTION_SIZE];
	struct mlx5dm_action *a;
	unsigned int n_hw = 0;
	int ret;

	if (dom == NULL || (unsigned int)type >= MLX5DM_ARRAY_SIZE(kinds) ||
	    (kinds[type].data && (data == NULL || len == 0)) ||
	    (!kinds[type].data && len != 0)) {
		errno = EINVAL;
		return NULL;
	}
	/* The FDB takes both; which side may use them is the rule's check (RX_ENCAP). */
	if (dom->type != kinds[type].dom && dom->type != MLX5DM_DOMAIN_FDB) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "%s only on a NIC %s domain or the FDB",
			   kinds[type].dom == MLX5DM_DOMAIN_NIC_TX ? "encap" : "decap",
			   kinds[type].dom == MLX5DM_DOMAIN_NIC_TX ? "TX" : "RX");
		errno = EOPNOTSUPP;
		return NULL;
	}
	a = mlx5dm_action_new(dom, MLX5DM_ACT_REFORMAT, kinds[type].ste);
	if (a == NULL)
		return NULL;
	a->reformat = type;
	switch (type) {
	case MLX5DM_REFORMAT_L2_TO_L2_TUNNEL:
	case MLX5DM_REFORMAT_L2_TO_L3_TUNNEL:
		ret = mlx5dm_encap_store(a, len, data);
		break;
	case MLX5DM_REFORMAT_L3_TUNNEL_TO_L2:
		ret = mlx5dm_ste_decap_l3_list(dom->ctx->ste, data, len, hw,
					       MLX5DM_ARRAY_SIZE(hw) / MLX5DM_MODIFY_ACTION_SIZE,
					       &n_hw);
		if (ret < 0)
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "L3 decap needs a 14 or 18-byte L2 "
				   "header, got %zu", len);
		else
			ret = mlx5dm_modify_store(a, hw, n_hw, false);
		break;
	default:
		ret = 0;
		break;
	}
	if (ret < 0) {
		mlx5dm_action_free(a);
		errno = -ret;
		return NULL;
	}
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_push_vlan(struct mlx5dm_domain *dom, uint32_t vlan_hdr)
{
	struct mlx5dm_action *a;
	uint32_t hdr;

	if (mlx5dm_ste_vlan_hdr((uint16_t)(vlan_hdr >> 16), (uint16_t)vlan_hdr, &hdr) < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "push VLAN: TPID 0x%04x is not 0x8100 or 0x88a8",
			   vlan_hdr >> 16);
		errno = EINVAL;
		return NULL;
	}
	a = mlx5dm_action_new(dom, MLX5DM_ACT_PUSH_VLAN, MLX5DM_STE_ACTION_PUSH_VLAN);
	if (a == NULL)
		return NULL;
	a->ste.vlan_hdr = hdr;
	return mlx5dm_action_publish(a);
}

struct mlx5dm_action *
mlx5dm_action_pop_vlan(struct mlx5dm_domain *dom)
{
	struct mlx5dm_action *a = mlx5dm_action_new(dom, MLX5DM_ACT_POP_VLAN,
						    MLX5DM_STE_ACTION_POP_VLAN);

	return a == NULL ? NULL : mlx5dm_action_publish(a);
}

int
mlx5dm_action_destroy(struct mlx5dm_action *a)
{
	struct mlx5dm_ctx *ctx;

	if (a == NULL)
		return -EINVAL;
	if (__atomic_load_n(&a->refcnt, __ATOMIC_ACQUIRE) != 0)
		return -EBUSY;
	ctx = a->dom->ctx;
	/*
	 * Argument slots and reformat contexts are reused as soon as they are
	 * returned, unlike ICM chunks (hot until a sync): no walk may still
	 * be on an STE of a deleted rule that names them.
	 */
	if (a->arg != NULL || a->fw_reformat != NULL) {
		int ret = mlx5dm_steer_quiesce_rings(ctx);

		if (ret == 0)
			ret = mlx5dm_steer_hw_sync(ctx);
		if (ret < 0)
			return ret;
	}
	mlx5dm_spinlock_lock(&ctx->lock);
	a->dom->refcnt--;
	if (a->dest_tbl != NULL)
		a->dest_tbl->refcnt--;
	mlx5dm_spinlock_unlock(&ctx->lock);
	return mlx5dm_action_free(a);
}
