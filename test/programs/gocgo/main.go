// SPDX-License-Identifier: BSD-2-Clause
//
// gocgo: a Go program with cgo, for test/integration/mapsample-go.sh.
// Eight goroutines each burn CPU in Go (goburn) and in C (cburn) and
// allocate, so the Go runtime preempts them with signals and switches
// stacks while mapsample samples them.  Prints "gocgo done N" and exits 0.
package main

/*
#include <stdint.h>
static uint64_t cburn(uint64_t n)
{
	uint64_t s = 0;
	for (uint64_t i = 0; i < n; i++)
		s += i * i;
	return s;
}
*/
import "C"
import (
	"fmt"
	"sync"
)

//go:noinline
func goburn(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i ^ (i >> 3)
	}
	return s
}

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	t := 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				x := goburn(2000000) + int(C.cburn(500000))
				m := make([]byte, 1<<16)
				x += len(m)
				mu.Lock()
				t += x
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	fmt.Println("gocgo done", t%1000)
}
