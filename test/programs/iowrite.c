/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * iowrite: moves a known number of bytes through every common path, for
 * the I/O accounting tests.  "iowrite FILE KIB": writes KIB KiB to FILE
 * through write(2), pwrite(2), writev(2) and stdio (fwrite, fprintf,
 * closed with fclose), burning a little CPU between the parts so that
 * the sampler takes metric samples in the middle; then reads the whole
 * file back through read(2), pread(2), readv(2) and fread.  Prints
 * "written N read N" (the byte counts it made) on standard error, with
 * one write(2) of its own that is counted too, and exits 0.
 *
 * "iowrite FILE KIB DECOY" first plays a program that takes descriptors
 * back: it finds the sampler's descriptor on /proc/self/io (the link
 * /proc/self/fd/N -> /proc/PID/io) and puts the file DECOY on its number
 * with dup2, as a daemon reopening its files over closed numbers would.
 * Exit 3 when there is no such descriptor to take.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static volatile unsigned long sink;

static void burn(void)
{
	for (unsigned long i = 0; i < 20000000ul; i++)
		sink += i * i;
}

/* Puts the file at path on the number of the descriptor open on
 * /proc/PID/io.  Returns 0, or -1 when there is none. */
static int take_io_fd(const char *path)
{
	char want[64], link[64], name[300];
	snprintf(want, sizeof(want), "/proc/%ld/io", (long)getpid());
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	int target = -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		snprintf(name, sizeof(name), "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(name, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			if (strcmp(link, want) == 0)
				target = atoi(e->d_name);
		}
	}
	closedir(d);
	int fd = target >= 0 ? open(path, O_RDONLY) : -1;
	if (fd < 0 || dup2(fd, target) != target)
		return -1;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4)
		return 2;
	if (argc == 4 && take_io_fd(argv[3]))
		return 3;
	long kib = atol(argv[2]);
	size_t part = (size_t)kib * 1024 / 4;
	char *buf = malloc(part ? part : 1);
	if (!buf)
		return 1;
	memset(buf, 'x', part);
	unsigned long long wrote = 0, got = 0;

	int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (size_t off = 0; off < part; off += 1000) {
		size_t n = part - off < 1000 ? part - off : 1000;
		wrote += (unsigned long long)write(fd, buf + off, n);
	}
	burn();
	wrote += (unsigned long long)pwrite(fd, buf, part, (off_t)part);
	if (lseek(fd, (off_t)(2 * part), SEEK_SET) < 0)
		return 1;
	struct iovec iov[2] = {{buf, part / 2}, {buf, part - part / 2}};
	wrote += (unsigned long long)writev(fd, iov, 2);
	close(fd);
	burn();
	FILE *f = fopen(argv[1], "a");
	if (!f)
		return 1;
	size_t half = part / 2;
	wrote += fwrite(buf, 1, half, f);
	for (size_t i = half; i < part; i++)
		wrote += (unsigned long long)fprintf(f, "%c", 'y');
	if (fclose(f))
		return 1;
	burn();

	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 1;
	ssize_t n;
	while (got < part && (n = read(fd, buf, 777)) > 0)
		got += (unsigned long long)n;
	got += (unsigned long long)pread(fd, buf, part, (off_t)part);
	if (lseek(fd, (off_t)(2 * part), SEEK_SET) < 0)
		return 1;
	got += (unsigned long long)readv(fd, iov, 2);
	close(fd);
	burn();
	f = fopen(argv[1], "r");
	if (!f || fseek(f, (long)(3 * part), SEEK_SET))
		return 1;
	size_t r;
	while ((r = fread(buf, 1, 4096, f)) > 0)
		got += r;
	fclose(f);
	burn();
	char line[96];
	int len = snprintf(line, sizeof(line), "written %llu read %llu\n",
			   wrote, got);
	if (write(2, line, (size_t)len) != len)
		return 1;
	free(buf);
	return 0;
}
