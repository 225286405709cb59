/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "test_dm_pcap.h"

/* Jumbo frames fit. */
#define TEST_DM_PCAP_SNAPLEN 65535

struct test_dm_pcap_writer {
	pcap_t *dead;
	pcap_dumper_t *dump;
};

struct test_dm_pcap_writer *
test_dm_pcap_create(const char *path, char errbuf[TEST_DM_PCAP_ERR])
{
	struct test_dm_pcap_writer *w = calloc(1, sizeof(*w));

	if (w == NULL) {
		snprintf(errbuf, TEST_DM_PCAP_ERR, "out of memory");
		return NULL;
	}
	w->dead = pcap_open_dead(DLT_EN10MB, TEST_DM_PCAP_SNAPLEN);
	if (w->dead == NULL) {
		snprintf(errbuf, TEST_DM_PCAP_ERR, "pcap_open_dead failed");
		goto free_w;
	}
	w->dump = pcap_dump_open(w->dead, path);
	if (w->dump == NULL) {
		snprintf(errbuf, TEST_DM_PCAP_ERR, "%s: %s", path, pcap_geterr(w->dead));
		goto close_dead;
	}
	return w;
close_dead:
	pcap_close(w->dead);
free_w:
	free(w);
	return NULL;
}

int
test_dm_pcap_write(struct test_dm_pcap_writer *w, const uint8_t *p, size_t len,
		   uint64_t ts_usec)
{
	struct pcap_pkthdr h;

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(ts_usec / 1000000);
	h.ts.tv_usec = (suseconds_t)(ts_usec % 1000000);
	h.caplen = (bpf_u_int32)(len < TEST_DM_PCAP_SNAPLEN ? len : TEST_DM_PCAP_SNAPLEN);
	h.len = (bpf_u_int32)len;
	pcap_dump((u_char *)w->dump, &h, p);
	return 0;
}

int
test_dm_pcap_close(struct test_dm_pcap_writer *w)
{
	int ret = 0;

	if (w == NULL)
		return 0;
	if (pcap_dump_flush(w->dump) != 0)
		ret = -EIO;
	pcap_dump_close(w->dump);
	pcap_close(w->dead);
	free(w);
	return ret;
}

int
test_dm_pcap_write_file(const char *path, const struct test_dm_pktlist *l,
			char errbuf[TEST_DM_PCAP_ERR])
{
	struct test_dm_pcap_writer *w = test_dm_pcap_create(path, errbuf);
	unsigned int i;
	int ret;

	if (w == NULL)
		return -EIO;
	for (i = 0; i < l->n; i++)
		test_dm_pcap_write(w, l->v[i].data, l->v[i].len, i);
	ret = test_dm_pcap_close(w);
	if (ret < 0)
		snprintf(errbuf, TEST_DM_PCAP_ERR, "%s: write failed", path);
	return ret;
}

int
test_dm_pcap_read_file(const char *path, struct test_dm_pktlist *out,
		       char errbuf[TEST_DM_PCAP_ERR])
{
	char perr[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	int n = 0, ret;
	pcap_t *pc;

	pc = pcap_open_offline(path, perr);
	if (pc == NULL) {
		snprintf(errbuf, TEST_DM_PCAP_ERR, "%s", perr);
		return -EINVAL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		snprintf(errbuf, TEST_DM_PCAP_ERR, "%s: link type %d is not Ethernet", path,
			 pcap_datalink(pc));
		ret = -EINVAL;
		goto close;
	}
	while ((ret = pcap_next_ex(pc, &h, &data)) == 1) {
		if (h->caplen != h->len) {
			snprintf(errbuf, TEST_DM_PCAP_ERR, "%s: packet %d was captured truncated "
				 "(%u of %u bytes)", path, n + 1, h->caplen, h->len);
			ret = -EINVAL;
			goto close;
		}
		if (test_dm_pktlist_add(out, data, h->caplen) < 0) {
			snprintf(errbuf, TEST_DM_PCAP_ERR, "out of memory");
			ret = -ENOMEM;
			goto close;
		}
		n++;
	}
	if (ret == PCAP_ERROR) {
		snprintf(errbuf, TEST_DM_PCAP_ERR, "%s: %s", path, pcap_geterr(pc));
		ret = -EIO;
		goto close;
	}
	ret = n;
close:
	pcap_close(pc);
	return ret;
}
