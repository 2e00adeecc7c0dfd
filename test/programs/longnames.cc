// SPDX-License-Identifier: BSD-2-Clause
//
// longnames: a hot function whose C++ name is over a thousand characters
// long: Engine<T>::spin_hot(T const&, unsigned long) with T a pair type
// nested four deep around standard containers.  mapreport must show it
// shortened to "Engine<...>::spin_hot(...)" in its tables and the flame
// graph, and in full with --full-names and in JSON.
//
//   longnames MS   spins about MS milliseconds of CPU time
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
	L4 *v = new L4();
	unsigned long sink = 0;
	double t0 = cpu_ms();
	while (cpu_ms() - t0 < ms)
		sink += Engine<L4>::spin_hot(*v, 1000000);
	delete v;
	return sink == 42 ? 1 : 0;
}
