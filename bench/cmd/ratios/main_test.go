package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/ChristopherDavenport/agentpolicy/bench
BenchmarkDecide/rules=100/allowed/agentpolicy-2   	 5000000	       250.0 ns/op	     224 B/op	       2 allocs/op
BenchmarkDecide/rules=100/allowed/agentpolicy-2   	 5000000	       230.0 ns/op	     224 B/op	       2 allocs/op
BenchmarkDecide/rules=100/allowed/agentpolicy-2   	 5000000	       900.0 ns/op	     224 B/op	       2 allocs/op
BenchmarkDecide/rules=100/allowed/cedar-2         	  100000	     45000 ns/op	    1704 B/op	      28 allocs/op
BenchmarkRedact/clean/guard-2                     	   10000	    102423 ns/op	10237.70 MB/s	      64 B/op	       2 allocs/op
BenchmarkRedact/clean/gitleaks-eight-2            	     200	   4954447 ns/op	 211.64 MB/s	 2097664 B/op	       3 allocs/op
BenchmarkRedact/clean/gitleaks-default-2          	       2	 610859905 ns/op	   1.72 MB/s	 2170424 B/op	     665 allocs/op
BenchmarkRedact/secrets=100/guard-2               	       1	2254176250 ns/op
BenchmarkRedact/secrets=100/gitleaks-eight-2      	       1	 446225079 ns/op
PASS
ok  	github.com/ChristopherDavenport/agentpolicy/bench	5.779s
`

func TestTable(t *testing.T) {
	results, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := table(&b, results); err != nil {
		t.Fatal(err)
	}
	want := `| benchmark | ours | time/op | allocs/op | peer | time/op | allocs/op | peer / ours |
| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |
| Decide/rules=100/allowed | agentpolicy | 250 ns | 2 | cedar | 45.00 µs | 28 | 180× |
| Redact/clean | guard | 102.42 µs | 2 | gitleaks-eight | 4.95 ms | 3 | 48× |
| Redact/clean | guard | 102.42 µs | 2 | gitleaks-default | 610.86 ms | 665 | 5964× |
| Redact/secrets=100 | guard | 2.25 s | - | gitleaks-eight | 446.23 ms | - | 0.2× |
`
	if b.String() != want {
		t.Errorf("table =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestTableRefusesWhatItCannotPair(t *testing.T) {
	for _, tc := range []struct{ name, input string }{
		{"no benchmarks", "PASS\n"},
		{"no peer", "BenchmarkX/a/ours-2 10 5 ns/op\n"},
		{"no side", "BenchmarkX-2 10 5 ns/op\n"},
		{"no time", "BenchmarkX/ours-2 10 5 B/op\nBenchmarkX/peer-2 10 5 B/op\n"},
		{"a figure that is not one", "BenchmarkX/ours-2 10 five ns/op\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results, err := parse(strings.NewReader(tc.input))
			if err == nil {
				err = table(&strings.Builder{}, results)
			}
			if err == nil {
				t.Errorf("no error for %q", tc.input)
			}
		})
	}
}
