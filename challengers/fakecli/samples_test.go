package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// sampleReply is what the stand-in model server streamed when the samples
// in testdata/samples were captured.
const sampleReply = "The answer streams in several chunks from the model. It ends here."

// sampleRuns are the commands the samples were captured with.
var sampleRuns = []struct {
	sample string
	cli    string
	args   []string
	mode   clitest.Mode
}{
	{"claude-stream-json", "claude", []string{"-p", "Say hello", "--output-format", "stream-json", "--verbose"}, clitest.ModeOK},
	{"claude-stream-json-partial", "claude", []string{"-p", "Say hello", "--output-format", "stream-json", "--verbose", "--include-partial-messages"}, clitest.ModeOK},
	{"claude-text", "claude", []string{"-p", "Say hello"}, clitest.ModeOK},
	{"gemini-stream-json", "gemini", []string{"-p", "Say hello", "-o", "stream-json"}, clitest.ModeOK},
	{"codex-exec-json", "codex", []string{"exec", "--json", "--skip-git-repo-check", "Say hello"}, clitest.ModeOK},
	{"qwen-stream-json", "qwen", []string{"Say hello", "-o", "stream-json"}, clitest.ModeOK},
	{"qwen-stream-json-partial", "qwen", []string{"Say hello", "-o", "stream-json", "--include-partial-messages"}, clitest.ModeOK},
	{"claude-stream-json-401", "claude", []string{"-p", "Say hello", "--output-format", "stream-json", "--verbose"}, clitest.ModeAuthError},
	{"gemini-stream-json-401", "gemini", []string{"-p", "Say hello", "-o", "stream-json"}, clitest.ModeAuthError},
	{"codex-exec-json-401", "codex", []string{"exec", "--json", "--skip-git-repo-check", "Say hello"}, clitest.ModeAuthError},
	{"qwen-stream-json-401", "qwen", []string{"Say hello", "-o", "stream-json"}, clitest.ModeAuthError},
}

// TestMatchesSamples runs each sample's command against the fake and
// compares: the exit status, stderr byte for byte, the sequence of events
// (runs of deltas count as one, as the number of chunks is scripted), and
// each event's keys, which must be real keys in the real order.
func TestMatchesSamples(t *testing.T) {
	codes := sampleExitCodes(t)
	for _, tc := range sampleRuns {
		t.Run(tc.sample, func(t *testing.T) {
			t.Parallel()
			f := scripted(t, tc.cli, clitest.AgentScript{Mode: tc.mode, Chunks: 2, Steps: map[string][]clitest.Step{
				"other": {{Reply: sampleReply}},
			}})
			r := execFake(t, f, runCfg{env: []string{"GEMINI_CLI_TRUST_WORKSPACE=true", "TERM=dumb"}}, tc.cli, tc.args...)
			if want := codes[tc.sample]; r.code != want {
				t.Errorf("exit status %d, want %d (stderr %q)", r.code, want, r.stderr)
			}
			if want := readSample(t, tc.sample+".stderr"); r.stderr != want {
				t.Errorf("stderr\n%q\nwant\n%q", r.stderr, want)
			}
			want := readSample(t, tc.sample+".stdout")
			if tc.sample == "claude-text" {
				if r.stdout != want {
					t.Errorf("stdout %q, want %q", r.stdout, want)
				}
				return
			}
			compareStreams(t, r.lines(), strings.Split(strings.TrimSuffix(want, "\n"), "\n"))
			if tc.mode == clitest.ModeOK {
				if got := replyOf(t, r.lines()); got != sampleReply {
					t.Errorf("reply %q, want %q", got, sampleReply)
				}
			}
		})
	}
}

func compareStreams(t *testing.T, got, want []string) {
	t.Helper()
	gotSigs, wantSigs := signatures(t, got), signatures(t, want)
	if !slices.Equal(collapse(gotSigs), collapse(wantSigs)) {
		t.Fatalf("events\n%q\nwant\n%q", gotSigs, wantSigs)
	}
	for i, line := range got {
		j := slices.Index(wantSigs, gotSigs[i])
		gk, _ := topKeys(line)
		wk, _ := topKeys(want[j])
		if !isSubsequence(gk, wk) {
			t.Errorf("event %s has keys %q; the real one has %q", gotSigs[i], gk, wk)
		}
	}
}

func signatures(t *testing.T, lines []string) []string {
	t.Helper()
	sigs := make([]string, len(lines))
	for i, l := range lines {
		s, err := signature(l)
		if err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, l)
		}
		sigs[i] = s
	}
	return sigs
}

// collapse merges runs of the same event (the deltas) into one.
func collapse(sigs []string) []string {
	return slices.Compact(slices.Clone(sigs))
}

func isSubsequence(sub, of []string) bool {
	for _, s := range sub {
		i := slices.Index(of, s)
		if i < 0 {
			return false
		}
		of = of[i+1:]
	}
	return true
}

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sampleExitCodes reads EXIT_CODES.txt ("name exit=N" lines).
func sampleExitCodes(t *testing.T) map[string]int {
	t.Helper()
	codes := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(readSample(t, "EXIT_CODES.txt")))
	for sc.Scan() {
		name, code, ok := strings.Cut(sc.Text(), " exit=")
		if n, err := strconv.Atoi(code); ok && err == nil {
			codes[name] = n
		}
	}
	return codes
}

// replyOf extracts the model's reply from a stream the way a consumer
// would: the result text (claude, qwen), the agent message (codex) or the
// concatenated assistant deltas (gemini).
func replyOf(t *testing.T, lines []string) string {
	t.Helper()
	var deltas strings.Builder
	for _, l := range lines {
		var e struct {
			Type    string `json:"type"`
			Role    string `json:"role"`
			Content string `json:"content"`
			Result  string `json:"result"`
			Item    struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"item"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, l)
		}
		switch {
		case e.Type == "result" && e.Result != "":
			return e.Result
		case e.Type == "item.completed" && e.Item.Type == "agent_message":
			return e.Item.Text
		case e.Type == "message" && e.Role == "assistant":
			deltas.WriteString(e.Content)
		}
	}
	return deltas.String()
}
