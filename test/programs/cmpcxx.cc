// SPDX-License-Identifier: BSD-2-Clause
//
// cmpcxx: C++ code for mapreport --compare's matching of functions
// across builds (test/integration/mapreport-compare-match.sh).  Its time
// goes to a member function of a class template, Mixer<unsigned
// long>::churn, and to fold_bits, inlined into churn (always_inline).
// Built with -DCMPCXX_OTHER, a function of its own, warm_up, comes first
// in the file and runs first for a moment: the same functions then lie
// at other addresses, as in a second build of a program that changed.
// "cmpcxx [MILLIONS]": churn's iterations in millions (default 60).
// Prints the result so that nothing is optimised away; exits 0.
#include <cstdio>
#include <cstdlib>

#ifdef CMPCXX_OTHER
__attribute__((noinline)) static unsigned long warm_up(unsigned long n)
{
	unsigned long x = 7;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 2862933555777941757ul + 3037000493ul;
		__asm__ volatile("" : "+r"(x));
		if ((x & 0xff) == 0x5a)
			x ^= i * 31;
		else if ((x & 0xff) == 0xa5)
			x += i >> 2;
	}
	return x;
}
#endif

// Mixes the bits of x; inlined into each caller.
static inline __attribute__((always_inline)) unsigned long
fold_bits(unsigned long x)
{
	for (int k = 0; k < 6; k++) {
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ul;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

template <typename T> struct Mixer {
	T state;
	__attribute__((noinline)) T churn(unsigned long n);
};

template <typename T> T Mixer<T>::churn(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		state = state * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(state));
		if ((state >> 58) == 0x2a)
			state = static_cast<T>(fold_bits(state));
		state = static_cast<T>(fold_bits(state + i));
	}
	return state;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], nullptr, 10) : 60;
	unsigned long r = 0;
#ifdef CMPCXX_OTHER
	r = warm_up(n * 20000);
#endif
	Mixer<unsigned long> m{3};
	r ^= m.churn(n * 1000000);
	std::printf("%lu\n", r);
	return 0;
}
