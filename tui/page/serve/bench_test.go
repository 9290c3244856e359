package serve

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkList is the time the runs list takes over 10,000 logs, once
// the index is in memory, against the same over 100 logs in the same
// run (list-10000-ms, list-100-ms, and their ratio).
//
//	go test ./tui/page/serve -run '^$' -bench List -benchtime 5x
func BenchmarkList(b *testing.B) {
	root := b.TempDir()
	many, few := filepath.Join(root, "many"), filepath.Join(root, "few")
	smallLogs(b, many, 10_000)
	smallLogs(b, few, 100)
	_, baseMany := started(b, many)
	_, baseFew := started(b, few)
	var tMany, tFew time.Duration
	for b.Loop() {
		for _, c := range []struct {
			base string
			took *time.Duration
		}{{baseMany, &tMany}, {baseFew, &tFew}} {
			start := time.Now()
			if code, _, _ := get(b, c.base, "/?q=question"); code != http.StatusOK {
				b.Fatal(code)
			}
			*c.took += time.Since(start)
		}
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(tMany.Milliseconds())/float64(b.N), "list-10000-ms")
	b.ReportMetric(float64(tFew.Microseconds())/1000/float64(b.N), "list-100-ms")
	b.ReportMetric(float64(tMany)/float64(tFew), "ratio")
}
