// SPDX-License-Identifier: BSD-2-Clause
//
// longnames: a hot function whose C++ name is over a thousand characters
// long: Engine<T>::spin_hot(T const&, unsigned long) with T a pair type
// nested four deep around standard containers.  mapreport must show it
// shortened to "Engine<...>::spin_hot(...)" in its tables and the flame
// graph, and in full with --full-names and in JSON.
//
// With "inline" after MS, the loop is Engine<T>::spin_mix's instead,
// whose step, Engine<T>::mix_step(T const&, unsigned long, unsigned
// long), is always inlined: mapreport --lines shows its lines as
// "[inlined NAME]", NAME shortened too.
//
//   longnames MS [inline]   spins about MS milliseconds of CPU time
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <vector>

template <class A, class B> struct Pair {
	A a;
	B b;
};

typedef Pair<std::map<std::string, int>, std::vector<std::string> > L1;
typedef Pair<L1, L1> L2;
typedef Pair<L2, L2> L3;
typedef Pair<L3, L3> L4;

template <class T> struct Engine {
	__attribute__((noinline)) static unsigned long
	spin_hot(T const &, unsigned long n)
	{
		unsigned long x = 1;
		for (unsigned long i = 0; i < n; i++)
			x = x * 6364136223846793005ul + i;
		return x;
	}
	__attribute__((always_inline)) static inline unsigned long
	mix_step(T const &, unsigned long x, unsigned long i)
	{
		return x * 6364136223846793005ul + (i ^ (x >> 29));
	}
	__attribute__((noinline)) static unsigned long
	spin_mix(T const &t, unsigned long n)
	{
		unsigned long x = 1;
		for (unsigned long i = 0; i < n; i++)
			x = mix_step(t, x, i);
		return x;
	}
};

static double cpu_ms()
{
	timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? std::atof(argv[1]) : 500;
	bool mix = argc > 2 && std::string(argv[2]) == "inline";
	L4 *v = new L4();
	unsigned long sink = 0;
	double t0 = cpu_ms();
	while (cpu_ms() - t0 < ms)
		sink += mix ? Engine<L4>::spin_mix(*v, 1000000)
			    : Engine<L4>::spin_hot(*v, 1000000);
	delete v;
	return sink == 42 ? 1 : 0;
}
