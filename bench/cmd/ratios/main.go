// Command ratios reads the output of `go test -bench` over the bench
// module and prints, as a Markdown table, how each peer compares with the
// project: the time per operation of each side and the peer's time over the
// project's. Benchmarks pair by name: in each group, the names that differ
// only in their last element, the first is the project's and every other a
// peer's. A name measured several times, with -count, is read as its
// median. `make bench` runs the benchmarks and this command.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	results, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
	if err := table(os.Stdout, results); err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
}

// result is one benchmark's figures, each the median of its runs.
type result struct {
	group, side string
	ns, allocs  []float64
}

// parse reads the benchmark lines of a `go test -bench` output, in order,
// and ignores every other line.
func parse(r io.Reader) ([]*result, error) {
	var results []*result
	byName := map[string]*result{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndexByte(name, '-'); i > strings.LastIndexByte(name, '/') {
			name = name[:i] // the GOMAXPROCS suffix
		}
		res := byName[name]
		if res == nil {
			i := strings.LastIndexByte(name, '/')
			if i < 0 {
				return nil, fmt.Errorf("%s names no side: want group/side", name)
			}
			res = &result{group: name[:i], side: name[i+1:]}
			byName[name] = res
			results = append(results, res)
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q is not a figure", fields[0], fields[i])
			}
			switch fields[i+1] {
			case "ns/op":
				res.ns = append(res.ns, v)
			case "allocs/op":
				res.allocs = append(res.allocs, v)
			}
		}
	}
	return results, sc.Err()
}

// table writes one row per peer result, beside the first result of its
// group.
func table(w io.Writer, results []*result) error {
	fmt.Fprintln(w, "| benchmark | ours | time/op | allocs/op | peer | time/op | allocs/op | peer / ours |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |")
	ours := map[string]*result{}
	rows := 0
	for _, r := range results {
		if len(r.ns) == 0 {
			return fmt.Errorf("%s/%s has no time per operation", r.group, r.side)
		}
		base, ok := ours[r.group]
		if !ok {
			ours[r.group] = r
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s× |\n",
			strings.TrimPrefix(r.group, "Benchmark"), base.side, duration(median(base.ns)), count(base.allocs),
			r.side, duration(median(r.ns)), count(r.allocs), ratio(median(r.ns)/median(base.ns)))
		rows++
	}
	if rows == 0 {
		return fmt.Errorf("no benchmark had a peer to compare with")
	}
	return nil
}

func median(vs []float64) float64 {
	s := slices.Sorted(slices.Values(vs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// duration writes nanoseconds with the unit that keeps three figures or
// fewer before the point.
func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return strconv.FormatFloat(ns/1e9, 'f', 2, 64) + " s"
	case ns >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'f', 2, 64) + " µs"
	default:
		return strconv.FormatFloat(ns, 'f', 0, 64) + " ns"
	}
}

// count is the median of the allocations, "-" when -benchmem was not given.
func count(vs []float64) string {
	if len(vs) == 0 {
		return "-"
	}
	return strconv.FormatFloat(median(vs), 'f', 0, 64)
}

// ratio writes a ratio as a whole number from 10 up, with one decimal
// below.
func ratio(r float64) string {
	if r >= 10 {
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	return strconv.FormatFloat(r, 'f', 1, 64)
}
