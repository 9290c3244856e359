package page

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/arenadebate/arena/bench/benchkit"
)

// BenchmarkExportBigLog is what arena export costs on a big log (500 MB by
// default, ARENA_BIGLOG_MB to change it: benchkit.WriteLog's five-round
// debate, most of it the chunks its replies streamed in), against a 10 KB
// log of the same shape in the same run: the built binary's time and
// peak resident set (export-s, export-MiB, and the base's). The page
// holds the replies, not the chunks, so memory follows the replies.
//
//	go test ./tui/page -run '^$' -bench BigLog -benchtime 1x
func BenchmarkExportBigLog(b *testing.B) {
	size := int64(500)
	if mb, err := strconv.ParseInt(os.Getenv("ARENA_BIGLOG_MB"), 10, 64); err == nil && mb > 0 {
		size = mb
	}
	dir := b.TempDir()
	big, err := benchkit.WriteLog(filepath.Join(dir, "big"), size<<20)
	if err != nil {
		b.Fatal(err)
	}
	tiny, err := benchkit.WriteLog(filepath.Join(dir, "tiny"), 10<<10)
	if err != nil {
		b.Fatal(err)
	}
	arena := benchkit.Arena(b)
	run := func(log string) benchkit.Proc {
		out := filepath.Join(b.TempDir(), "page.html")
		p, err := benchkit.Run(exec.Command(arena, "export", log, "-o", out), true)
		if err != nil || p.Code != 0 {
			b.Fatalf("arena export %s: %v (exit %d)", log, err, p.Code)
		}
		return p
	}
	var bigP, tinyP benchkit.Proc
	for b.Loop() {
		bigP, tinyP = run(big), run(tiny)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(bigP.Wall.Seconds(), "export-s")
	b.ReportMetric(float64(bigP.HWMKiB)/1024, "export-MiB")
	b.ReportMetric(tinyP.Wall.Seconds(), "export-base-s")
	b.ReportMetric(float64(tinyP.HWMKiB)/1024, "export-base-MiB")
	st, _ := os.Stat(big)
	b.ReportMetric(benchkit.MiB(st.Size()), "log-MiB")
}
