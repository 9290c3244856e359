// Package benchkit is the machinery shared by arena's benchmarks (the
// bench_test.go files of challengers, engine and cmd/arena, driven by
// bench/run): building the binary once, a sandbox of fake CLIs, running a
// process while watching its peak memory, timing a recorded fake
// invocation on its own (the baseline every overhead is measured against),
// and writing a large, realistic debate log.
//
// Nothing here asserts on time. The benchmarks report figures; bench/run
// prints them as a table.
package benchkit
