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
 */
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

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
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
