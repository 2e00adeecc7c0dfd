/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * demo: the program ./build.sh example profiles.  Three kinds of work a
 * profile should tell apart: a matrix multiply on the main thread, a
 * sort through libc's qsort with our comparator, and two worker threads
 * counting primes.  About a second of CPU time on a current machine.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200

static double a[N][N], b[N][N], c[N][N];

__attribute__((noinline)) static void matmul(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < N; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

__attribute__((noinline)) static int by_value(const void *x, const void *y)
{
	unsigned p = *(const unsigned *)x, q = *(const unsigned *)y;
	return p < q ? -1 : p > q;
}

__attribute__((noinline)) static void sort_numbers(void)
{
	size_t n = 1u << 20;
	unsigned *v = malloc(n * sizeof(*v));
	if (!v)
		exit(1);
	unsigned x = 12345;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = x;
	}
	qsort(v, n, sizeof(*v), by_value);
	free(v);
}

__attribute__((noinline)) static int is_prime(unsigned n)
{
	if (n < 2)
		return 0;
	for (unsigned d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

static void *count_primes(void *arg)
{
	unsigned from = *(unsigned *)arg, found = 0;
	for (unsigned n = from; n < from + 400000; n++)
		found += (unsigned)is_prime(n);
	*(unsigned *)arg = found;
	return NULL;
}

int main(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = i + j;
			b[i][j] = i - j;
		}
	unsigned ranges[2] = {1000000, 2000000};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, count_primes, &ranges[i]);
	for (int r = 0; r < 3; r++)
		matmul();
	sort_numbers();
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("demo: c[7][9] = %.0f, %u + %u primes\n", c[7][9], ranges[0],
	       ranges[1]);
	return 0;
}
