# bench/table.awk turns the output of the benchmarks bench/run runs into
# its table. Variables: cores, before, after (load averages), took, raw.
/^Benchmark/ {
  name = $1
  sub(/-[0-9]+$/, "", name)
  for (i = 3; i < NF; i += 2) m[name, $(i + 1)] = $i
}
function v(b, k) {
  if (!((b, k) in m)) { missing = missing " " b ":" k; return "" }
  return m[b, k]
}
function cell(b, k, unit, fmt,   x) {
  x = v(b, k)
  return x == "" ? "-" : sprintf(fmt " %s", x, unit)
}
function span(b, k1, k2, fmt, unit,   x, y) {
  x = v(b, k1); y = v(b, k2)
  return (x == "" || y == "") ? "-" : sprintf(fmt " -> " fmt "%s", x, y, unit)
}
function ratio(b, k,   x) {
  x = v(b, k)
  if (x == "") return "-"
  x += 0
  return sprintf(x < 10 ? "%.2fx" : x < 100 ? "%.1fx" : "%.0fx", x)
}
function ratio2(a, b) {
  if (a == "" || b == "" || b + 0 == 0) return "-"
  return sprintf("%.2fx", a / b)
}
function row(what, a, base, r, target) {
  printf "| %-64s | %-15s | %-11s | %-7s | %-16s |\n", what, a, base, r, target
}
function rule() {
  printf "|%s|%s|%s|%s|%s|\n", dashes(66), dashes(17), dashes(13), dashes(9), dashes(18)
}
function dashes(n,   s) { s = ""; while (n-- > 0) s = s "-"; return s }
END {
  O = "BenchmarkDebateOverhead"; P = "BenchmarkParallelChallenge"
  S = "BenchmarkRunnerStreaming"; SP = "BenchmarkRunnerStreamingPrinter"; FF = "BenchmarkRunnerFakeFlood"
  nf = split("text claude-stream-json gemini-stream-json codex-json qwen-stream-json", fmts, " ")
  ns = split("tiny-16B lines-80B long-64KiB long-1MiB", shapes, " ")
  split("16 B pieces|80 B lines|64 KiB events|1 MiB events", shapeNames, "|")
  R = "BenchmarkPeakRSS"; D = "BenchmarkDoctor"; L = "BenchmarkReplay"
  E = "BenchmarkDebateInProcess"; C = "BenchmarkRunnerCall"; K = "BenchmarkCleanText"
  I = "BenchmarkReplayInProcess"; Q = "BenchmarkQuickComparison"; RK = "BenchmarkRankOverhead"
  ST = "BenchmarkStart"; BL = "BenchmarkBigLogs"; SC = "BenchmarkSupervisedCall"

  print ""
  row("measurement", "arena", "baseline", "ratio", "target")
  rule()
  row("1 five-round debate, instant fakes: vs sum of the fake calls", cell(O, "arena-s", "s", "%.3f"), cell(O, "sum-s", "s", "%.3f"), ratio(O, "ratio-sum"), "<= 1.10")
  row("1 ... vs critical path (slowest call of each parallel step)", cell(O, "arena-s", "s", "%.3f"), cell(O, "crit-s", "s", "%.3f"), ratio(O, "ratio-crit"), "<= 1.10")
  row("1 ... one call under the run's supervisor vs without one", cell(SC, "supervised-ms", "ms", "%.2f"), cell(SC, "direct-ms", "ms", "%.2f"), ratio(SC, "ratio"), "~ 1")
  row("2 challenge phase, 3 challengers x 2 s: vs slowest single", cell(P, "phase-s", "s", "%.3f"), cell(P, "slowest-s", "s", "%.3f"), ratio(P, "ratio"), "<= 1.05")
  row("2 ... vs bash: the 3 fake commands with & and wait", cell(P, "phase-s", "s", "%.3f"), cell(P, "shell-s", "s", "%.3f"), ratio(P, "ratio-shell"), "(<= 1.05)")
  row("2 compare --quick, 3 seats x 2 s: vs critical path (2 steps)", cell(Q, "wall-s", "s", "%.3f"), cell(Q, "crit-s", "s", "%.3f"), ratio(Q, "ratio"), "~ 1 (2 steps)")
  row("2 rank, 2 repos, fakes 1-2 s: vs slowest fact + judge + verdict", cell(RK, "arena-s", "s", "%.3f"), sprintf("%.3f s", v(RK, "crit-s") + v(RK, "verdict-s")), ratio(RK, "ratio-all"), "~ 1")
  row("2 ... vs the 4 calls one after another", cell(Q, "wall-s", "s", "%.3f"), cell(Q, "sum-s", "s", "%.3f"), sprintf("%.2fx", v(Q, "wall-s") / (v(Q, "sum-s") ? v(Q, "sum-s") : 1)), "~ 0.5")
  for (i = 1; i <= nf; i++) {
    for (j = 1; j <= ns; j++) {
      b = S "/" fmts[i] "/" shapes[j]
      what = (i == 1 && j == 1) ? "3 stream ~4 MiB, runner vs cat -> pty: " : "3 ... "
      row(what fmts[i] ", " shapeNames[j], cell(b, "MiB/s", "MiB/s", "%.0f"), cell(b, "cat-MiB/s", "MiB/s", "%.0f"), ratio(b, "ratio"), "none (row 7)")
    }
  }
  row("3 peak RSS, 100 MiB flood under the 8 MiB cap: vs tiny debate", cell(R, "peak-RSS-MiB", "MiB", "%.1f"), cell(R, "base-peak-RSS-MiB", "MiB", "%.1f"), ratio(R, "ratio"), "<= 64 MiB")
  row("4 arena doctor, slow --version (1.0/0.8/0.6/0.4 s): vs slowest", cell(D, "doctor-s", "s", "%.3f"), cell(D, "slowest-s", "s", "%.3f"), ratio(D, "ratio"), "~ 1 (sum: " sprintf("%.1f", v(D, "sum-s")) " s)")
  row("5 arena replay --no-tui, 10 MiB log: vs cat to /dev/null", cell(L, "MiB/s", "MiB/s", "%.0f"), cell(L, "cat-MiB/s", "MiB/s", "%.0f"), ratio(L, "ratio"), "none set")
  row("6 start: arena --version to exit: vs /bin/true", cell(ST, "version-ms", "ms", "%.1f"), cell(ST, "true-ms", "ms", "%.1f"), ratio(ST, "ratio-version"), "none set")
  row("6 ... arena --json TOPIC to its first event, instant fakes", cell(ST, "first-event-ms", "ms", "%.1f"), cell(ST, "true-ms", "ms", "%.1f"), ratio(ST, "ratio-first-event"), "none set")
  nb = split("replay json logs stats ask resume mcp", bl, " ")
  split("replay --no-tui|replay --json|logs|stats|ask|resume|mcp (list_runs, read_outcome)", blNames, "|")
  for (i = 1; i <= nb; i++) {
    what = (i == 1 ? "8 peak RSS on a " sprintf("%.0f", v(BL, "log-MiB")) " MiB log vs a 10 KB one: " : "8 ... ") blNames[i]
    row(what, cell(BL, bl[i] "-MiB", "MiB", "%.0f"), cell(BL, bl[i] "-base-MiB", "MiB", "%.0f"), ratio2(v(BL, bl[i] "-MiB"), v(BL, bl[i] "-base-MiB")), "<= 100 MiB")
  }
  row("8 list_runs {limit: 3} over 10,000 logs: vs over 100", cell(BL, "list3-s", "s", "%.2f"), cell(BL, "list3-base-s", "s", "%.2f"), ratio2(v(BL, "list3-s"), v(BL, "list3-base-s")), "<= 2 s")
  row("8 arena logs | head over 10,000 logs: vs over 100", cell(BL, "head-s", "s", "%.2f"), cell(BL, "head-base-s", "s", "%.2f"), ratio2(v(BL, "head-s"), v(BL, "head-base-s")), "<= 2 s")
  nsh = split("prose paragraph code list broken", feelShapes, " ")
  for (i = 1; i <= nsh; i++) {
    for (k = 1; k <= 2; k++) {
      rate = k == 1 ? "100" : "1000"
      F = "BenchmarkFeel/screen/" feelShapes[i] "/" rate
      what = (i == 1 && k == 1) ? "7 live screen 160x48, 4 seats: CPU early -> late (vs agents): " : "7 ... "
      row(what feelShapes[i] ", " rate " tok/s", span(F, "early-pct", "late-pct", "%.1f", " %"), cell(F, "agents-pct", "%", "%.1f"), ratio(F, "late-x-early"), (k == 1 ? "<= 5 %" : "<= 12 %") ", <= 1.30x")
    }
  }
  for (i = 1; i <= nsh; i++) {
    for (k = 1; k <= 2; k++) {
      rate = k == 1 ? "100" : "1000"
      F = "BenchmarkFeel/screen/" feelShapes[i] "/" rate
      what = (i == 1 && k == 1) ? "7 time to screen, p95 early -> late: " : "7 ... "
      worst = v(F, "p95-early-ms") > v(F, "p95-late-ms") ? v(F, "p95-early-ms") : v(F, "p95-late-ms")
      row(what feelShapes[i] ", " rate " tok/s", span(F, "p95-early-ms", "p95-late-ms", "%.0f", " ms"), "67 ms", sprintf("%.2fx", worst / 66.7), "< 100 ms")
    }
  }
  for (i = 1; i <= nsh; i++) {
    for (k = 1; k <= 2; k++) {
      rate = k == 1 ? "100" : "1000"
      F = "BenchmarkFeel/headless/" feelShapes[i] "/" rate
      what = (i == 1 && k == 1) ? "7 headless (--no-tui to a pipe): CPU early -> late: " : "7 ... "
      row(what feelShapes[i] ", " rate " tok/s", span(F, "early-pct", "late-pct", "%.1f", " %"), cell(F, "agents-pct", "%", "%.1f"), ratio(F, "late-x-early"), "flat")
    }
  }
  print ""
  print "Diagnostics (where the time goes):"
  print ""
  row("measurement", "arena", "baseline", "ratio", "")
  rule()
  row("1 the same debate run by engine.Run in process: vs critical path", cell(E, "engine-s", "s", "%.3f"), cell(E, "crit-s", "s", "%.3f"), ratio(E, "ratio-crit"), "")
  row("1 one runner call of an instant fake: vs the same exec on a pty", cell(C, "call-ms", "ms", "%.2f"), cell(C, "direct-ms", "ms", "%.2f"), ratio(C, "ratio"), "")
  for (j = 1; j <= ns; j++) {
    b = SP "/text/" shapes[j]
    row("3 text into the headless printer (tui/plain), " shapeNames[j], cell(b, "MiB/s", "MiB/s", "%.0f"), cell(b, "cat-MiB/s", "MiB/s", "%.0f"), ratio(b, "ratio"), "")
  }
  for (i = 1; i <= nsh; i++) {
    for (k = 1; k <= 2; k++) {
      rate = k == 1 ? "100" : "1000"
      F = "BenchmarkShapes/" feelShapes[i] "/" rate
      what = (i == 1 && k == 1) ? "7 the screen in process (Update+View), 4 panes: CPU early -> late: " : "7 ... "
      row(what feelShapes[i] ", " rate " tok/s", span(F, "early-pct", "late-pct", "%.2f", " %"), "", ratio(F, "late-x-early"), "")
    }
  }
  row("3 the gemini fake flooding 64 KiB events: runner vs fake -> pty", cell(FF, "MiB/s", "MiB/s", "%.0f"), cell(FF, "fake-MiB/s", "MiB/s", "%.0f"), ratio(FF, "ratio"), "")
  row("3 challengers.CleanText of 4 MiB: vs strings.Clone", cell(K, "MiB/s", "MiB/s", "%.0f"), cell(K, "copy-MiB/s", "MiB/s", "%.0f"), ratio(K, "ratio"), "")
  row("3 peak RSS as wait4 ru_maxrss (includes reaped children)", cell(R, "wait4-peak-MiB", "MiB", "%.1f"), cell(R, "wait4-base-MiB", "MiB", "%.1f"), "", "")
  row("5 replay in process (log read + printer, no process start)", cell(I, "MiB/s", "MiB/s", "%.0f"), "", "", "")
  print ""
  print "ratio: arena's cost over the baseline's (time or memory; for MiB/s rows, baseline MiB/s / arena MiB/s);"
  print "above 1 means arena is slower or bigger. Figures are medians over each benchmark's iterations;"
  print "the streaming rows' ratios are the medians of each iteration's own ratio (both runs under the same load)."
  printf "%s cores; load average %s before, %s after; %d s. Raw go test output: %s\n", cores, before, after, took, raw
  if (missing != "") { print "MISSING figures:" missing; exit 1 }
}
