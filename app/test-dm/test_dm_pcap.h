/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_PCAP_H_
#define _TEST_DM_PCAP_H_

/*
 * pcap files through libpcap: reading Ethernet captures ("send from
 * file.pcap") and writing what a failing case sent and received.
 */

#include <stddef.h>
#include <stdint.h>

#include "test_dm_pktlist.h"

#define TEST_DM_PCAP_ERR 256

struct test_dm_pcap_writer;

/** Create (truncate) an Ethernet pcap file. NULL with @p errbuf filled on failure. */
struct test_dm_pcap_writer *test_dm_pcap_create(const char *path,
						char errbuf[TEST_DM_PCAP_ERR]);

/** Append one packet; @p ts_usec is its timestamp in microseconds. @return 0 or -EIO. */
int test_dm_pcap_write(struct test_dm_pcap_writer *w, const uint8_t *p, size_t len,
		       uint64_t ts_usec);

/** Flush and close. @return 0 or -EIO. */
int test_dm_pcap_close(struct test_dm_pcap_writer *w);

/** Write a whole list to @p path (timestamps 0, 1, 2... µs). @return 0 or -errno. */
int test_dm_pcap_write_file(const char *path, const struct test_dm_pktlist *l,
			    char errbuf[TEST_DM_PCAP_ERR]);

/**
 * Append every packet of an Ethernet pcap file to @p out.
 *
 * @return number of packets read, or -errno with @p errbuf filled
 *   (missing file, not a capture, not Ethernet, truncated records).
 */
int test_dm_pcap_read_file(const char *path, struct test_dm_pktlist *out,
			   char errbuf[TEST_DM_PCAP_ERR]);

#endif /* _TEST_DM_PCAP_H_ */
