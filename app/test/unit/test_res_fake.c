/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The fake device of the resource tests (see test_res_fake.h). Every offset
 * below is a literal taken from mlx5_ifc.h / DPDK mlx5_prm.h, never a
 * lib/prm constant.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <cmocka.h>

#include "mlx5dm_prm_bits.h"
#include "test_res_fake.h"
#include "test_util.h"

struct fake_res_dev fres;

static struct ibv_context fake_ctx_obj;
static struct ibv_pd fake_pd_obj;

void
fres_put(uint8_t *buf, unsigned int bit, unsigned int width, uint64_t v)
{
	mlx5dm_prm_set64(buf, bit, width, v);
}

static uint64_t
get(const void *buf, unsigned int bit, unsigned int width)
{
	return mlx5dm_prm_get64(buf, bit, width);
}

static void
record(char how, const void *in, size_t inlen, size_t outlen)
{
	struct fake_rec *r = &fres.recs[fres.nrecs % FAKE_REC_MAX];

	fres.nrecs++;
	r->opcode = (uint16_t)get(in, 0, 16);
	r->how = how;
	r->inlen = inlen;
	r->outlen = outlen;
	memset(r->in, 0, sizeof(r->in));
	memcpy(r->in, in, inlen < sizeof(r->in) ? inlen : sizeof(r->in));
}

const struct fake_rec *
fres_last(uint16_t opcode)
{
	unsigned int i, n = fres.nrecs < FAKE_REC_MAX ? fres.nrecs : FAKE_REC_MAX;

	for (i = 1; i <= n; i++) {
		const struct fake_rec *r = &fres.recs[(fres.nrecs - i) % FAKE_REC_MAX];

		if (r->opcode == opcode)
			return r;
	}
	fail_msg("no command 0x%x recorded", opcode);
	return NULL;
}

unsigned int
fres_count(uint16_t opcode)
{
	unsigned int i, c = 0, n = fres.nrecs < FAKE_REC_MAX ? fres.nrecs : FAKE_REC_MAX;

	for (i = 0; i < n; i++)
		c += fres.recs[i].opcode == opcode;
	return c;
}

void
fres_fail(uint16_t opcode, unsigned int nth, uint8_t status, uint32_t syndrome)
{
	fres.fail_opcode = opcode;
	fres.fail_skip = nth - 1;
	fres.fail_status = status;
	fres.fail_syndrome = syndrome;
}

/* Firmware's answer to a bad command: status + syndrome, EREMOTEIO. */
static int
fw_fail(void *out, size_t outlen, uint8_t status, uint32_t syndrome)
{
	memset(out, 0, outlen);
	fres_put(out, 0x00, 8, status);
	fres_put(out, 0x20, 32, syndrome);
	return EREMOTEIO;
}

/* The knob: 0 to go on, else the errno of the injected failure. */
static int
injected(uint16_t op, void *out, size_t outlen)
{
	if (fres.fail_opcode != op)
		return 0;
	if (fres.fail_skip > 0) {
		fres.fail_skip--;
		return 0;
	}
	fres.fail_opcode = 0;
	if (fres.fail_status == 0) {
		memset(out, 0, outlen);
		return fres.fail_errno;
	}
	return fw_fail(out, outlen, fres.fail_status, fres.fail_syndrome);
}

void
fres_assert_mbox(const struct fake_rec *r, const uint8_t *exp, size_t len)
{
	size_t i;

	assert_int_equal(r->inlen, len);
	for (i = 0; i < len; i++)
		if (r->in[i] != exp[i])
			fail_msg("command 0x%x: byte %zu (bits 0x%zx..) is 0x%02x, expected 0x%02x",
				 r->opcode, i, i * 8, r->in[i], exp[i]);
}

struct fake_umem *
fres_umem_by_size(size_t size)
{
	struct fake_umem *found = NULL;
	unsigned int i;

	for (i = 0; i < FAKE_MAX_UMEMS; i++) {
		if (!fres.umems[i].live || fres.umems[i].size != size)
			continue;
		assert_null(found); /* sizes identify umems in these tests */
		found = &fres.umems[i];
	}
	assert_non_null(found);
	return found;
}

struct fake_obj *
fres_obj(uint16_t opcode, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < FAKE_MAX_OBJS; i++)
		if (fres.objs[i].live && fres.objs[i].opcode == opcode && fres.objs[i].id == id)
			return &fres.objs[i];
	return NULL;
}

static struct fake_obj *
obj_of(struct mlx5dv_devx_obj *h)
{
	struct fake_obj *o = (struct fake_obj *)(void *)h;

	if (o < fres.objs || o >= fres.objs + FAKE_MAX_OBJS || !o->live) {
		fres.bad_calls++;
		return NULL;
	}
	return o;
}

static struct fake_umem *
umem_live(uint32_t id, size_t need)
{
	if (id == 0 || id > FAKE_MAX_UMEMS || !fres.umems[id - 1].live ||
	    fres.umems[id - 1].size < need)
		return NULL;
	return &fres.umems[id - 1];
}

static void
link_ref(struct fake_obj *o, unsigned int i, struct fake_obj *target)
{
	o->ref[i] = target;
	target->refs++;
}

static uint32_t
next_id(unsigned int kind, uint32_t first)
{
	return first + fres.next_id[kind]++;
}

/* CREATE_FLOW_TABLE: create_flow_table_in, flow_table_context at 0xc0. */
static int
fw_ft(struct fake_obj *o, const uint8_t *in, void *out, size_t outlen)
{
	uint64_t type = get(in, 0x80, 8);

	if (type != 0 && type != 1 && type != 4)
		return fw_fail(out, outlen, 0x03, 0xf7001);
	if (get(in, 0xc2, 1) != 1 || get(in, 0xc8, 8) == 0 || get(in, 0x1c0, 64) == 0)
		return fw_fail(out, outlen, 0x03, 0xf7002);
	o->table_type = (uint8_t)type;
	o->root[0] = get(in, 0x1c0, 64);
	o->root[1] = get(in, 0x180, 64);
	o->id = next_id(1, FAKE_FT_ID0);
	fres_put(out, 0x48, 24, o->id);
	return 0;
}

/* CREATE_CQ: cq_context at 0x80, umem fields at 0x280.. */
static int
fw_cq(struct fake_obj *o, const uint8_t *in, void *out, size_t outlen)
{
	uint32_t log = (uint32_t)get(in, 0x80 + 0x63, 5);
	struct fake_umem *buf = umem_live((uint32_t)get(in, 0x2c0, 32), (size_t)64 << log);
	struct fake_umem *dbr = umem_live((uint32_t)get(in, 0x80 + 0x20, 32), 64);

	if (get(in, 0x2e0, 1) != 1 || get(in, 0x80 + 0x06, 1) != 1 || buf == NULL || dbr == NULL)
		return fw_fail(out, outlen, 0x05, 0xc0001);
	if (get(in, 0x80 + 0x68, 24) != FAKE_UAR_PAGE)
		return fw_fail(out, outlen, 0x05, 0xc0002);
	o->umem_ids[0] = (uint16_t)buf->u.umem_id;
	o->umem_ids[1] = (uint16_t)dbr->u.umem_id;
	buf->refs++;
	dbr->refs++;
	o->id = next_id(2, FAKE_CQ_ID0);
	fres_put(out, 0x48, 24, o->id);
	return 0;
}

/* CREATE_RQ: rqc at 0x100, its wq at 0x280. */
static int
fw_rq(struct fake_obj *o, const uint8_t *in, void *out, size_t outlen)
{
	struct fake_obj *cq = fres_obj(0x400, (uint32_t)get(in, 0x148, 24));
	uint32_t log = (uint32_t)get(in, 0x280 + 0x11b, 5);
	uint32_t stride = (uint32_t)get(in, 0x280 + 0x10c, 4);
	struct fake_umem *wq = umem_live((uint32_t)get(in, 0x280 + 0x160, 32),
					 ((size_t)1 << log) << stride);
	struct fake_umem *dbr = umem_live((uint32_t)get(in, 0x280 + 0x140, 32),
					  get(in, 0x280 + 0x80, 64) + 8);

	if (get(in, 0x108, 4) != 0 || get(in, 0x104, 4) != 0)
		return fw_fail(out, outlen, 0x03, 0x90001); /* not RST, not inline */
	if (cq == NULL || wq == NULL || dbr == NULL || get(in, 0x280 + 0x120, 2) != 3)
		return fw_fail(out, outlen, 0x05, 0x90002);
	if (get(in, 0x280 + 0x48, 24) != FAKE_PDN || get(in, 0x280, 4) != 1)
		return fw_fail(out, outlen, 0x03, 0x90003);
	link_ref(o, 0, cq);
	o->umem_ids[0] = (uint16_t)wq->u.umem_id;
	o->umem_ids[1] = (uint16_t)dbr->u.umem_id;
	wq->refs++;
	dbr->refs++;
	o->state = 0;
	o->id = next_id(3, FAKE_RQ_ID0);
	fres_put(out, 0x48, 24, o->id);
	return 0;
}

/* CREATE_RQT: rqtc at 0x100, rq_num[] at rqtc 0x780. */
static int
fw_rqt(struct fake_obj *o, const uint8_t *in, size_t inlen, void *out, size_t outlen)
{
	uint32_t max = (uint32_t)get(in, 0x100 + 0xb0, 16);
	uint32_t n = (uint32_t)get(in, 0x100 + 0xd0, 16);
	uint32_t i;

	if (n == 0 || n > max || inlen < 272 + 4 * (size_t)n)
		return fw_fail(out, outlen, 0x03, 0x91001);
	o->rqt_rqs = calloc(n, sizeof(*o->rqt_rqs));
	assert_non_null(o->rqt_rqs);
	for (i = 0; i < n; i++) {
		o->rqt_rqs[i] = fres_obj(0x908, (uint32_t)get(in, 0x100 + 0x780 + 32 * i + 8, 24));
		if (o->rqt_rqs[i] == NULL) {
			free(o->rqt_rqs);
			o->rqt_rqs = NULL;
			return fw_fail(out, outlen, 0x05, 0x91002);
		}
	}
	for (i = 0; i < n; i++)
		o->rqt_rqs[i]->refs++;
	o->rqt_n = n;
	o->id = next_id(4, FAKE_RQT_ID0);
	fres_put(out, 0x48, 24, o->id);
	return 0;
}

/* CREATE_TIR: tirc at 0x100; out: tirn and the ICM address pieces. */
static int
fw_tir(struct fake_obj *o, const uint8_t *in, void *out, size_t outlen)
{
	struct fake_obj *td = fres_obj(0x816, (uint32_t)get(in, 0x100 + 0x128, 24));
	struct fake_obj *dest;
	uint64_t icm;

	if (td == NULL)
		return fw_fail(out, outlen, 0x05, 0x93001);
	if (get(in, 0x100 + 0x20, 4) == 0) {
		dest = fres_obj(0x908, (uint32_t)get(in, 0x100 + 0xe8, 24));
	} else if (get(in, 0x100 + 0x20, 4) == 1) {
		dest = fres_obj(0x916, (uint32_t)get(in, 0x100 + 0x108, 24));
		if (get(in, 0x100 + 0x120, 4) != 2)
			return fw_fail(out, outlen, 0x03, 0x93002);
	} else {
		return fw_fail(out, outlen, 0x03, 0x93003);
	}
	if (dest == NULL)
		return fw_fail(out, outlen, 0x05, 0x93004);
	link_ref(o, 0, td);
	link_ref(o, 1, dest);
	o->id = next_id(5, FAKE_TIR_ID0);
	icm = fres.tir_no_icm ? 0 : FAKE_TIR_ICM(o->id);
	fres_put(out, 0x48, 24, o->id);
	fres_put(out, 0x08, 24, icm >> 40);
	fres_put(out, 0x40, 8, (icm >> 32) & 0xff);
	fres_put(out, 0x60, 32, icm & 0xffffffffu);
	return 0;
}

/* ALLOC_FLOW_COUNTER: bulk_log_size at 0x73, bulk (x128) at 0x78; base aligned to the bulk. */
static int
fw_fc(struct fake_obj *o, const uint8_t *in, void *out, size_t outlen)
{
	uint32_t log = (uint32_t)get(in, 0x73, 5);
	uint32_t bulk = (uint32_t)get(in, 0x78, 8);
	uint32_t n = 1;

	if (log != 0) {
		if (!fres.fc_log_size)
			return fw_fail(out, outlen, 0x03, 0x93901);
		n = 1u << log;
	} else if (bulk != 0) {
		if ((bulk & (bulk - 1)) != 0)
			return fw_fail(out, outlen, 0x03, 0x93902);
		n = bulk * 128;
	}
	fres.next_fc = (fres.next_fc + n - 1) & ~(n - 1);
	o->id = fres.next_fc;
	o->range = n;
	fres.next_fc += n;
	fres_put(out, 0x40, 32, o->id);
	return 0;
}

/* CREATE_GENERAL_OBJECT: header (type 0x30, log_obj_range 0x63), access_pd at 0x108. */
static int
fw_gobj(struct fake_obj *o, const uint8_t *in, size_t inlen, void *out, size_t outlen)
{
	uint32_t log = (uint32_t)get(in, 0x63, 5);

	if (get(in, 0x30, 16) != 0x23 || inlen < 36)
		return fw_fail(out, outlen, 0x03, 0xa0001);
	if (get(in, 0x108, 24) != FAKE_PDN)
		return fw_fail(out, outlen, 0x05, 0xa0002);
	fres.next_arg = (fres.next_arg + (1u << log) - 1) & ~((1u << log) - 1);
	o->id = fres.next_arg;
	o->range = 1u << log;
	fres.next_arg += 1u << log;
	fres_put(out, 0x40, 32, o->id);
	return 0;
}

/*
 * ALLOC_PACKET_REFORMAT_CONTEXT: packet_reformat_context_in at byte 28,
 * reformat_type 0xe5/3, reformat_data_size 0xf6/10, data from byte 34.
 */
static int
fw_prc(struct fake_obj *o, const uint8_t *in, size_t inlen, void *out, size_t outlen)
{
	uint32_t type = (uint32_t)get(in, 0xe5, 3), size = (uint32_t)get(in, 0xf6, 10);

	if ((type != 2 && type != 4) || size == 0)
		return fw_fail(out, outlen, 0x03, 0x93d01);
	if (inlen < 34 + (size_t)size)
		return fw_fail(out, outlen, 0x03, 0x93d02);
	o->id = next_id(6, FAKE_PRC_ID0);
	o->range = size;
	fres_put(out, 0x40, 32, o->id);
	return 0;
}

static struct mlx5dv_devx_obj *
fake_obj_create_locked(struct ibv_context *ctx, const void *in, size_t inlen, void *out,
		       size_t outlen)
{
	uint16_t op = (uint16_t)get(in, 0, 16);
	struct fake_obj *o = NULL;
	unsigned int i;
	int err;

	assert_ptr_equal(ctx, fres.dev.ctx);
	record('c', in, inlen, outlen);
	assert_true(outlen >= 16);
	memset(out, 0, outlen);
	err = injected(op, out, outlen);
	if (err != 0)
		goto fail;
	for (i = 0; i < FAKE_MAX_OBJS && o == NULL; i++)
		if (!fres.objs[i].live)
			o = &fres.objs[i];
	assert_non_null(o);
	memset(o, 0, sizeof(*o));
	switch (op) {
	case 0x816:
		o->id = next_id(0, FAKE_TDN);
		fres_put(out, 0x48, 24, o->id);
		break;
	case 0x930:
		err = fw_ft(o, in, out, outlen);
		break;
	case 0x400:
		err = fw_cq(o, in, out, outlen);
		break;
	case 0x908:
		err = fw_rq(o, in, out, outlen);
		break;
	case 0x916:
		err = fw_rqt(o, in, inlen, out, outlen);
		break;
	case 0x900:
		err = fw_tir(o, in, out, outlen);
		break;
	case 0x939:
		err = fw_fc(o, in, out, outlen);
		break;
	case 0xa00:
		err = fw_gobj(o, in, inlen, out, outlen);
		break;
	case 0x93d:
		err = fw_prc(o, in, inlen, out, outlen);
		break;
	default:
		err = fw_fail(out, outlen, 0x02, 0xbad0);
	}
	if (err != 0)
		goto fail;
	o->live = true;
	o->opcode = op;
	fres.live_objs++;
	return (struct mlx5dv_devx_obj *)(void *)o;
fail:
	errno = err;
	return NULL;
}

static int
fake_obj_destroy_locked(struct mlx5dv_devx_obj *h)
{
	struct fake_obj *o = obj_of(h);
	unsigned int i;

	if (o == NULL)
		return EINVAL;
	fres.destroys++;
	if (o->refs != 0)
		return EREMOTEIO; /* RESOURCE_BUSY: something still names it */
	for (i = 0; i < 2; i++) {
		if (o->ref[i] != NULL)
			o->ref[i]->refs--;
		if (o->umem_ids[i] != 0)
			fres.umems[o->umem_ids[i] - 1].refs--;
	}
	for (i = 0; i < o->rqt_n; i++)
		o->rqt_rqs[i]->refs--;
	free(o->rqt_rqs);
	memset(o, 0, sizeof(*o));
	fres.live_objs--;
	return 0;
}

/* Start of a command on an object: record it, check the handle, apply the knob. */
static int
cmd_on_obj(char how, struct mlx5dv_devx_obj *h, const void *in, size_t inlen, void *out,
	   size_t outlen, struct fake_obj **o)
{
	record(how, in, inlen, outlen);
	memset(out, 0, outlen);
	*o = obj_of(h);
	if (*o == NULL)
		return EINVAL;
	return injected((uint16_t)get(in, 0, 16), out, outlen);
}

/* MODIFY_RQ: rq_state (current) at 0x40, rqn at 0x48, rqc.state at 0x108. */
static int
fake_obj_modify(struct mlx5dv_devx_obj *h, const void *in, size_t inlen, void *out,
		size_t outlen)
{
	uint16_t op = (uint16_t)get(in, 0, 16);
	struct fake_obj *o;
	int err;

	err = cmd_on_obj('m', h, in, inlen, out, outlen, &o);
	if (err != 0)
		return err;
	if (op != 0x909 || o->opcode != 0x908 || get(in, 0x48, 24) != o->id)
		return fw_fail(out, outlen, 0x05, 0x90901);
	if (get(in, 0x40, 4) != o->state || get(in, 0x108, 4) != 1)
		return fw_fail(out, outlen, 0x09, 0x90902);
	o->state = 1;
	return 0;
}

/* QUERY_FLOW_COUNTER: num_of_counters at 0xc2 (0 = one), flow_counter_id at 0xe0. */
static int
fw_query_fc(struct fake_obj *o, const uint8_t *in, void *out, size_t outlen)
{
	uint32_t id = (uint32_t)get(in, 0xe0, 32);
	uint32_t n = (uint32_t)get(in, 0xc2, 30);
	uint32_t i;

	n = n == 0 ? 1 : n;
	if (o->opcode != 0x939 || id < o->id || (uint64_t)id + n > (uint64_t)o->id + o->range)
		return fw_fail(out, outlen, 0x03, 0x93b01);
	/* Bulk reads start 4-aligned (the kernel's MLX5_FC_BULK_QUERY_ALIGNMENT). */
	if (get(in, 0xc2, 30) > 1 && id % 4 != 0)
		return fw_fail(out, outlen, 0x03, 0x93b02);
	if (outlen < 16 + 16 * (size_t)n)
		return fw_fail(out, outlen, 0x51, 0x93b03);
	for (i = 0; i < n; i++) {
		fres_put(out, 0x80 + 128 * i, 64, FAKE_FC_PACKETS(id + i));
		fres_put(out, 0x80 + 128 * i + 64, 64, FAKE_FC_BYTES(id + i));
	}
	return 0;
}

static int
fake_obj_query(struct mlx5dv_devx_obj *h, const void *in, size_t inlen, void *out,
	       size_t outlen)
{
	uint16_t op = (uint16_t)get(in, 0, 16);
	struct fake_obj *o;
	int err;

	err = cmd_on_obj('q', h, in, inlen, out, outlen, &o);
	if (err != 0)
		return err;
	if (op == 0x93b)
		return fw_query_fc(o, in, out, outlen);
	/* QUERY_FLOW_TABLE: table_type 0x80, table_id 0xa8; out ctx at 0xc0. */
	if (op != 0x932 || o->opcode != 0x930 || get(in, 0xa8, 24) != o->id ||
	    get(in, 0x80, 8) != o->table_type || outlen < 64)
		return fw_fail(out, outlen, 0x03, 0x93201);
	fres_put(out, 0xc0 + 0x02, 1, 1);
	fres_put(out, 0xc0 + 0x100, 64, o->root[0]);
	fres_put(out, 0xc0 + 0xc0, 64, o->root[1]);
	return 0;
}

static int
fake_general_cmd(struct ibv_context *ctx, const void *in, size_t inlen, void *out,
		 size_t outlen)
{
	uint16_t op = (uint16_t)get(in, 0, 16);
	int err;

	assert_ptr_equal(ctx, fres.dev.ctx);
	record('g', in, inlen, outlen);
	memset(out, 0, outlen);
	err = injected(op, out, outlen);
	if (err != 0)
		return err;
	if (op != 0xb00)
		return fw_fail(out, outlen, 0x02, 0xbad1);
	fres.syncs++;
	return 0;
}

static struct mlx5dv_devx_umem *
fake_umem_reg(struct ibv_context *ctx, void *addr, size_t size, uint32_t access)
{
	unsigned int i;

	(void)ctx;
	if (fres.fail_umem) {
		errno = ENOSPC;
		return NULL;
	}
	/* The device maps pages: the buffer must be page aligned. */
	assert_int_equal((uintptr_t)addr % 4096, 0);
	for (i = 0; i < FAKE_MAX_UMEMS; i++) {
		struct fake_umem *u = &fres.umems[i];

		if (u->live)
			continue;
		memset(u, 0, sizeof(*u));
		u->live = true;
		u->u.umem_id = i + 1;
		u->addr = addr;
		u->size = size;
		u->access = access;
		fres.live_umems++;
		return &u->u;
	}
	fail_msg("out of fake umems");
	return NULL;
}

static int
fake_umem_dereg(struct mlx5dv_devx_umem *h)
{
	struct fake_umem *u = (struct fake_umem *)(void *)h;

	if (u < fres.umems || u >= fres.umems + FAKE_MAX_UMEMS || !u->live) {
		fres.bad_calls++;
		return EINVAL;
	}
	if (u->refs != 0)
		return EBUSY;
	u->live = false;
	fres.live_umems--;
	return 0;
}

static struct ibv_pd *
fake_alloc_pd(struct ibv_context *ctx)
{
	(void)ctx;
	if (fres.fail_pd) {
		errno = ENOMEM;
		return NULL;
	}
	fres.pd_allocs++;
	return &fake_pd_obj;
}

static int
fake_dealloc_pd(struct ibv_pd *pd)
{
	if (pd != &fake_pd_obj)
		fres.bad_calls++;
	fres.pd_frees++;
	return 0;
}

/* ibv_reg_mr: lkey FAKE_LKEY0 + slot; the PD and access flags are kept for checks. */
static struct ibv_mr *
fake_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	unsigned int i;

	if (fres.fail_mr) {
		errno = EFAULT;
		return NULL;
	}
	for (i = 0; i < FAKE_MAX_MRS; i++) {
		struct fake_mr *m = &fres.mrs[i];

		if (m->live)
			continue;
		memset(m, 0, sizeof(*m));
		m->live = true;
		m->pd = pd;
		m->access = access;
		m->mr.pd = pd;
		m->mr.addr = addr;
		m->mr.length = length;
		m->mr.lkey = FAKE_LKEY0 + i;
		m->mr.rkey = FAKE_LKEY0 + i;
		fres.live_mrs++;
		return &m->mr;
	}
	errno = ENOMEM;
	return NULL;
}

static int
fake_dereg_mr(struct ibv_mr *mr)
{
	struct fake_mr *m = (struct fake_mr *)(void *)mr;

	if (m < fres.mrs || m >= fres.mrs + FAKE_MAX_MRS || !m->live) {
		fres.bad_calls++;
		return EINVAL;
	}
	m->live = false;
	fres.live_mrs--;
	return 0;
}

static int
fake_init_obj(struct mlx5dv_obj *obj, uint64_t type)
{
	if (type != MLX5DV_OBJ_PD || obj->pd.in != &fake_pd_obj) {
		fres.bad_calls++;
		return EINVAL;
	}
	if (fres.fail_init_obj)
		return EOPNOTSUPP;
	obj->pd.out->pdn = FAKE_PDN;
	return 0;
}

static struct mlx5dv_devx_uar *
fake_alloc_uar(struct ibv_context *ctx, uint32_t flags)
{
	(void)ctx;
	if (fres.fail_uar_all || (fres.fail_uar_nc && flags == MLX5DV_UAR_ALLOC_TYPE_NC)) {
		errno = ENOMEM;
		return NULL;
	}
	fres.uar_allocs++;
	fres.uar.page_id = FAKE_UAR_PAGE;
	return &fres.uar;
}

static void
fake_free_uar(struct mlx5dv_devx_uar *uar)
{
	if (uar != &fres.uar)
		fres.bad_calls++;
	fres.uar_frees++;
}

static bool
all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return false;
	return true;
}

static struct mlx5dv_flow_matcher *
fake_create_flow_matcher(struct ibv_context *ctx, struct mlx5dv_flow_matcher_attr *attr)
{
	unsigned int i;

	assert_ptr_equal(ctx, fres.dev.ctx);
	if (fres.fail_matcher != 0) {
		errno = fres.fail_matcher;
		return NULL;
	}
	for (i = 0; i < FAKE_MAX_FLOWS; i++) {
		struct fake_matcher *m = &fres.matchers[i];

		if (m->live)
			continue;
		memset(m, 0, sizeof(*m));
		m->live = true;
		m->attr = *attr;
		m->attr.match_mask = NULL; /* the caller's buffer need not outlive the call */
		m->mask_sz = attr->match_mask->match_sz;
		m->mask_zero = all_zero(attr->match_mask->match_buf, m->mask_sz);
		fres.live_matchers++;
		return (struct mlx5dv_flow_matcher *)(void *)m;
	}
	fail_msg("out of fake matchers");
	return NULL;
}

static int
fake_destroy_flow_matcher(struct mlx5dv_flow_matcher *h)
{
	struct fake_matcher *m = (struct fake_matcher *)(void *)h;

	if (m < fres.matchers || m >= fres.matchers + FAKE_MAX_FLOWS || !m->live) {
		fres.bad_calls++;
		return EINVAL;
	}
	if (m->flows != 0)
		return EBUSY;
	m->live = false;
	fres.live_matchers--;
	return 0;
}

/* After every root change: which table NIC RX traffic enters (lowest priority, oldest). */
static void
root_note(void)
{
	struct fake_flow *best = NULL;
	unsigned int i, j;

	for (i = 0; i < FAKE_MAX_FLOWS; i++) {
		struct fake_flow *f = &fres.flows[i];

		if (!f->live || f->m->attr.ft_type != MLX5DV_FLOW_TABLE_TYPE_NIC_RX)
			continue;
		for (j = 0; j < FAKE_MAX_FLOWS; j++)
			if (j != i && fres.flows[j].live && fres.flows[j].seq < f->seq &&
			    fres.flows[j].m->attr.ft_type == f->m->attr.ft_type &&
			    fres.flows[j].m->attr.priority == f->m->attr.priority)
				fres.same_prio++;
		if (best == NULL || f->m->attr.priority < best->m->attr.priority ||
		    (f->m->attr.priority == best->m->attr.priority && f->seq < best->seq))
			best = f;
	}
	if (fres.nroot_active < MLX5DM_ARRAY_SIZE(fres.root_active))
		fres.root_active[fres.nroot_active++] = best != NULL ? best->dest->id : 0;
}

static struct ibv_flow *
fake_create_flow(struct mlx5dv_flow_matcher *h, struct mlx5dv_flow_match_parameters *value,
		 size_t n, struct mlx5dv_flow_action_attr actions[])
{
	struct fake_matcher *m = (struct fake_matcher *)(void *)h;
	struct fake_obj *dest;
	unsigned int i;

	if (m < fres.matchers || m >= fres.matchers + FAKE_MAX_FLOWS || !m->live) {
		fres.bad_calls++;
		errno = EINVAL;
		return NULL;
	}
	if (fres.fail_flow != 0) {
		if (fres.fail_flow_skip > 0) {
			fres.fail_flow_skip--;
		} else {
			errno = fres.fail_flow;
			fres.fail_flow = 0;
			return NULL;
		}
	}
	dest = n == 1 && actions[0].type == MLX5DV_FLOW_ACTION_DEST_DEVX ?
	       obj_of(actions[0].obj) : NULL;
	if (dest == NULL || dest->opcode != 0x930 || value->match_sz != m->mask_sz) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < FAKE_MAX_FLOWS; i++) {
		struct fake_flow *f = &fres.flows[i];

		if (f->live)
			continue;
		memset(f, 0, sizeof(*f));
		f->live = true;
		f->m = m;
		f->value_sz = value->match_sz;
		f->value_zero = all_zero(value->match_buf, value->match_sz);
		f->nactions = n;
		f->action_type = actions[0].type;
		f->dest = dest;
		f->seq = ++fres.flow_seq;
		dest->refs++;
		m->flows++;
		fres.live_flows++;
		root_note();
		return &f->ibv;
	}
	fail_msg("out of fake flows");
	return NULL;
}

static int
fake_destroy_flow(struct ibv_flow *h)
{
	struct fake_flow *f = (struct fake_flow *)(void *)h;

	if (f < fres.flows || f >= fres.flows + FAKE_MAX_FLOWS || !f->live) {
		fres.bad_calls++;
		return EINVAL;
	}
	if (fres.fail_destroy_flow != 0) {
		int err = fres.fail_destroy_flow;

		fres.fail_destroy_flow = 0; /* once */
		return err;
	}
	f->live = false;
	f->dest->refs--;
	f->m->flows--;
	fres.live_flows--;
	root_note();
	return 0;
}

/*
 * Objects may be created and destroyed from several threads (argument
 * pools): one at a time here. Other commands come from one thread.
 */
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;

static struct mlx5dv_devx_obj *
fake_obj_create(struct ibv_context *ctx, const void *in, size_t inlen, void *out, size_t outlen)
{
	struct mlx5dv_devx_obj *o;
	int err;

	pthread_mutex_lock(&fake_lock);
	o = fake_obj_create_locked(ctx, in, inlen, out, outlen);
	err = errno;
	pthread_mutex_unlock(&fake_lock);
	errno = err;
	return o;
}

static int
fake_obj_destroy(struct mlx5dv_devx_obj *h)
{
	int ret;

	pthread_mutex_lock(&fake_lock);
	ret = fake_obj_destroy_locked(h);
	pthread_mutex_unlock(&fake_lock);
	return ret;
}

static const struct mlx5dm_dev_ops fake_ops = {
	.name = "fake-res",
	.alloc_pd = fake_alloc_pd,
	.dealloc_pd = fake_dealloc_pd,
	.init_obj = fake_init_obj,
	.reg_mr = fake_reg_mr,
	.dereg_mr = fake_dereg_mr,
	.devx_general_cmd = fake_general_cmd,
	.devx_obj_create = fake_obj_create,
	.devx_obj_query = fake_obj_query,
	.devx_obj_modify = fake_obj_modify,
	.devx_obj_destroy = fake_obj_destroy,
	.devx_umem_reg = fake_umem_reg,
	.devx_umem_dereg = fake_umem_dereg,
	.devx_alloc_uar = fake_alloc_uar,
	.devx_free_uar = fake_free_uar,
	.create_flow_matcher = fake_create_flow_matcher,
	.destroy_flow_matcher = fake_destroy_flow_matcher,
	.create_flow = fake_create_flow,
	.destroy_flow = fake_destroy_flow,
};

void
fres_init(void)
{
	unsigned int i;

	for (i = 0; i < FAKE_MAX_OBJS; i++)
		free(fres.objs[i].rqt_rqs);
	memset(&fres, 0, sizeof(fres));
	fres.dev.ops = &fake_ops;
	fres.dev.ctx = &fake_ctx_obj;
	fres.next_fc = FAKE_FC_ID0;
	fres.next_arg = FAKE_ARG_ID0;
	fres.fc_log_size = true;
	test_alloc_count_install();
}

void
fres_fini(void)
{
	assert_int_equal(fres.live_objs, 0);
	assert_int_equal(fres.live_umems, 0);
	assert_int_equal(fres.live_mrs, 0);
	assert_int_equal(fres.live_matchers, 0);
	assert_int_equal(fres.live_flows, 0);
	assert_int_equal(fres.pd_allocs, fres.pd_frees);
	assert_int_equal(fres.uar_allocs, fres.uar_frees);
	assert_int_equal(fres.bad_calls, 0);
	assert_int_equal(test_alloc_live(), 0);
	mlx5dm_alloc_fail_at(0);
}

struct mlx5dm_res_attr
fres_attr(void)
{
	struct mlx5dm_res_attr a;

	memset(&a, 0, sizeof(a));
	a.dev = &fres.dev;
	a.vhca_id = FAKE_VHCA;
	a.rq_ts_format = 2;           /* free running and real time */
	a.arg_supported = true;
	a.log_arg_granularity = 0;
	a.log_arg_max_alloc = 23;
	a.fc_bulk_bitmap = 0x0f;      /* 128, 256, 512, 1024 */
	a.log_max_fc_bulk = 15;
	return a;
}

void
fres_ctx(struct mlx5dm_res_ctx *res)
{
	struct mlx5dm_res_attr a = fres_attr();

	assert_int_equal(mlx5dm_res_ctx_init(res, &a), 0);
}

void
fres_ctx_fini(struct mlx5dm_res_ctx *res)
{
	assert_int_equal(mlx5dm_res_ctx_fini(res), 0);
}
