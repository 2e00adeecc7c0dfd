/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctormark: a metric plugin whose constructor appends "loaded by COMM"
 * (the loading process's name) to the file $CTORMARK_FILE, for
 * test/integration/metrics-trust.sh: it shows which processes loaded it,
 * and so ran its code.  Its getter is a plain counter.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <allinea_metric_plugin_api.h>

__attribute__((constructor)) static void mark(void)
{
	const char *f = getenv("CTORMARK_FILE");
	if (!f)
		return;
	char comm[64] = "?";
	int c = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	if (c >= 0) {
		ssize_t n = read(c, comm, sizeof(comm) - 1);
		comm[n > 0 ? n : 0] = 0;
		comm[strcspn(comm, "\n")] = 0;
		close(c);
	}
	int fd = open(f, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[128];
	int n = snprintf(line, sizeof(line), "loaded by %s\n", comm);
	if (n > 0 && write(fd, line, (size_t)n) != n)
		n = 0;
	close(fd);
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

static uint64_t calls;

int cm_count(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	*out = ++calls;
	return 0;
}
