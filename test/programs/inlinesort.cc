// SPDX-License-Identifier: BSD-2-Clause
//
// inlinesort: a C++ program that spends its time in std::sort, whose
// layers (std::sort, std::__sort, std::__introsort_loop ...) g++ -O2
// inlines into main in part, for mapreport's inline frames
// (test/integration/mapreport-inline.sh builds it with the C++ compiler
// it finds).  "inlinesort [ROUNDS]" sorts a fresh pseudo-random vector of
// 200000 integers ROUNDS times (default 40) and prints a checksum.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
	std::vector<unsigned> v(200000);
	unsigned long sum = 0, x = 1;
	for (int r = 0; r < rounds; r++) {
		for (auto &e : v) {
			x = x * 6364136223846793005ul + 1442695040888963407ul;
			e = (unsigned)(x >> 33);
		}
		std::sort(v.begin(), v.end());
		sum += v[v.size() / 2];
	}
	std::printf("%lu\n", sum);
	return 0;
}
